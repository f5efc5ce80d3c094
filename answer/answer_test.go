package answer

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestCannedTextByPlatform(t *testing.T) {
	// Slack's wording is the one cew has always used there.
	slackHelp := "I answer questions from this project's documents, with a citation for every statement.\n" +
		"• @cew <question>: ask in a channel, or send me a direct message without the mention. " +
		"Example: @cew What is the minimum trench depth for DC cables?\n" +
		"• /cew <question>: the same, as a slash command.\n" +
		"• /cew status <document>: the latest revision and status of a document from the register, " +
		"by number or title. Example: /cew status 277-007-D-C-40327\n" +
		"• /cew help: this message.\n" +
		"Answers cite the document, revision and page (or sheet and row) with a link to the file. " +
		"When the documents do not contain the answer, I say so instead of guessing."
	if got := CannedText(CannedHelp, PlatformSlack); got != slackHelp {
		t.Errorf("Slack help changed:\n%s", got)
	}
	if got, want := CannedText(CannedGreeting, PlatformSlack), "Ask me with @cew <question>, or type /cew help."; !strings.HasSuffix(got, want) {
		t.Errorf("Slack greeting %q does not end %q", got, want)
	}
	tests := []struct {
		name     string
		platform Platform
		want     []string
		not      []string
	}{
		{"teams uses plain words", PlatformTeams, []string{"help", "status <document>", "@cew <question>"}, []string{"/cew"}},
		{"cli names its commands", PlatformCLI, []string{`cew ask "<question>"`, "cew status <document>", "cew --help"}, []string{"/cew", "@cew"}},
		{"no platform reads plain words", "", []string{"status <document>"}, []string{"/cew"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var all strings.Builder
			for _, c := range []Canned{CannedGreeting, CannedThanks, CannedBye, CannedAcknowledge, CannedAbout, CannedHelp} {
				text := CannedText(c, tt.platform)
				if strings.TrimSpace(text) == "" {
					t.Errorf("%s: empty", c)
				}
				all.WriteString(text + "\n")
			}
			for _, w := range tt.want {
				if !strings.Contains(all.String(), w) {
					t.Errorf("replies lack %q:\n%s", w, all.String())
				}
			}
			for _, n := range tt.not {
				if strings.Contains(all.String(), n) {
					t.Errorf("replies contain %q:\n%s", n, all.String())
				}
			}
		})
	}
}

func TestLocation(t *testing.T) {
	tests := []struct {
		name string
		src  Source
		want string
	}{
		{"page", Source{Revision: "03", Page: 6, Section: "4.2 Trenches"}, "Rev 03|page 6|section 4.2 Trenches"},
		{"sheet and row", Source{Revision: "B", Sheet: "Cables", Row: 12}, "Rev B|sheet Cables, row 12"},
		{"sheet only", Source{Sheet: "Cables"}, "sheet Cables"},
		{"nothing known", Source{}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := strings.Join(Location(tt.src), "|"); got != tt.want {
				t.Errorf("Location = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestWhy(t *testing.T) {
	tests := []struct {
		name string
		ans  Answer
		want string
	}{
		{"known code", Answer{Reason: ReasonNoChunks, Confidence: Confidence{Reason: "detail"}}, "No passage in the uploaded documents matches the question."},
		{"unknown code falls back", Answer{Reason: "SOMETHING_NEW", Confidence: Confidence{Reason: " detail "}}, "detail"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Why(tt.ans); got != tt.want {
				t.Errorf("Why = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestContractJSON(t *testing.T) {
	ans := Answer{ID: "a1", Status: StatusAnswered, Reason: ReasonNone, Answer: "x [S1].",
		Sources:    []Source{{DocID: "d", DocName: "D", Revision: "03", Page: 5, ChunkID: "hidden", Text: "hidden"}},
		Confidence: Confidence{Level: LevelHigh, Score: 0.9, Reason: "r"}, TimingsMS: map[string]float64{"total": 1}}
	data, err := json.Marshal(ans)
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	for _, w := range []string{`"status":"answered"`, `"level":"high"`, `"doc_id":"d"`, `"reason":""`} {
		if !strings.Contains(s, w) {
			t.Errorf("contract lacks %s: %s", w, s)
		}
	}
	if strings.Contains(s, "hidden") {
		t.Errorf("contract leaks internal fields: %s", s)
	}
}

func TestFailed(t *testing.T) {
	tests := []struct {
		name string
		ans  Answer
		ref  string
		want Answer
	}{
		{"an apology is kept", Answer{ID: "a1", Status: StatusError, Answer: "Sorry, the index is being rebuilt."}, "ev1",
			Answer{ID: "a1", Status: StatusError, Answer: "Sorry, the index is being rebuilt."}},
		{"an answer id is quoted", Answer{ID: "a1", Status: StatusAnswered, Answer: "half an answer", Sources: []Source{{DocID: "d"}}}, "ev1",
			Answer{ID: "a1", Status: StatusError, Answer: Apology("a1")}},
		{"the event is quoted without an answer id", Answer{Status: StatusError, Answer: "  "}, "ev1",
			Answer{Status: StatusError, Answer: Apology("ev1")}},
		{"no reference at all", Answer{}, "", Answer{Status: StatusError, Answer: Apology("")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Failed(tt.ans, tt.ref)
			if got.ID != tt.want.ID || got.Status != tt.want.Status || got.Answer != tt.want.Answer || len(got.Sources) != 0 {
				t.Errorf("Failed = %+v, want %+v", got, tt.want)
			}
		})
	}
}
