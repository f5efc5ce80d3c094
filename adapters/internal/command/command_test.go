package command

import "testing"

func TestParse(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want Command
	}{
		{"empty is help", "  ", Command{Kind: Help}},
		{"help", "help", Command{Kind: Help}},
		{"help any case", " HELP ", Command{Kind: Help}},
		{"help with words is a question", "help me find the trench depth", Command{Kind: Question, Arg: "help me find the trench depth"}},
		{"status alone", "status", Command{Kind: StatusUsage}},
		{"status with document", "Status  277-007-D-C-40327 ", Command{Kind: Status, Arg: "277-007-D-C-40327"}},
		{"status title", "status trench layout", Command{Kind: Status, Arg: "trench layout"}},
		{"question", "What is the minimum trench depth?", Command{Kind: Question, Arg: "What is the minimum trench depth?"}},
		{"status later in text", "what is the status of the CEC library", Command{Kind: Question, Arg: "what is the status of the CEC library"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Parse(tt.in); got != tt.want {
				t.Errorf("Parse(%q) = %+v, want %+v", tt.in, got, tt.want)
			}
		})
	}
}
