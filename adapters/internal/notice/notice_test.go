package notice

import "testing"

func TestWording(t *testing.T) {
	tests := []struct {
		name, got, want string
	}{
		{"refusal names the place", Refusal("Slack workspace"), "This Slack workspace is not connected to a cew project, so I cannot answer here. Ask your cew administrator to connect it."},
		{"thumbs up", FeedbackRecorded(true), "Thanks, your 👍 on this answer was recorded."},
		{"thumbs down", FeedbackRecorded(false), "Thanks, your 👎 on this answer was recorded."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.got != tt.want {
				t.Errorf("got %q, want %q", tt.got, tt.want)
			}
		})
	}
}
