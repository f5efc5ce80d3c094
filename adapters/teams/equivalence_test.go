package teams

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/cewhq/cew/adapters/slack"
	"github.com/cewhq/cew/answer"
)

// TestSlackAndTeamsSayTheSame renders each answer with both adapters and
// checks that each shows the same answer, the same sources (name,
// revision, page or sheet and row, section, Drive link) and the same
// confidence: the platform changes the markup, never the content.
func TestSlackAndTeamsSayTheSame(t *testing.T) {
	three := answeredFixture("ans-3", "What are the trench depths?")
	three.Answer = "DC cables are laid at 800 mm [S1]. LV cables are laid at 700 mm [S2]. The cable schedule lists 4 mm2 conductors [S3]."
	three.Sources = append(three.Sources,
		answer.Source{DocName: "277-007-D-C-40328 — LV trenches", Revision: "02", Page: 11, Section: "3.1 Depths",
			DriveLink: "https://drive.google.com/file/d/def/view", Snippet: "LV cables at 700 mm."},
		answer.Source{DocName: "Cable schedule", Revision: "B", Sheet: "DC", Row: 42, Snippet: "String 4 mm2"})
	notFound := answer.Answer{ID: "ans-nf", Status: answer.StatusNotFound, Reason: answer.ReasonLowRelevance, Answer: answer.NotFoundText,
		Related:    []answer.Source{{DocName: "Earthing design report", Revision: "01", Page: 3, DriveLink: "https://drive.google.com/file/d/ghi/view"}},
		Confidence: answer.Confidence{Level: answer.LevelLow, Reason: "best passage 0.1"}}
	cases := []struct {
		name string
		ans  answer.Answer
	}{
		{"one source", answeredFixture("ans-1", "What is the minimum trench depth for DC cables?")},
		{"three sources", three},
		{"not found", notFound},
		{"status lookup", statusFixture()},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			slackJSON, err := json.Marshal(slack.Render(c.ans))
			if err != nil {
				t.Fatal(err)
			}
			sl := unescapeSlack(string(slackJSON))
			tm := string(marshalCard(t, RenderCard(c.ans)))
			var want []string
			if c.ans.Intent != answer.IntentDocumentStatus {
				for _, sentence := range strings.SplitAfter(c.ans.Answer, "].") {
					if s := strings.TrimSpace(sentence); s != "" {
						want = append(want, s)
					}
				}
			}
			sources := append(append([]answer.Source{}, c.ans.Sources...), c.ans.Related...)
			for _, s := range sources {
				want = append(want, answer.Name(s))
				if c.ans.Intent != answer.IntentDocumentStatus {
					want = append(want, strings.Join(answer.Location(s), " · "))
				}
				if s.DriveLink != "" {
					want = append(want, s.DriveLink)
				}
			}
			if c.ans.Status == answer.StatusAnswered && c.ans.Intent != answer.IntentDocumentStatus {
				want = append(want, string(c.ans.Confidence.Level), c.ans.Confidence.Reason)
			}
			if c.ans.Status == answer.StatusNotFound {
				want = append(want, answer.Why(c.ans))
			}
			for _, w := range want {
				inSlack, inTeams := strings.Contains(sl, w), strings.Contains(tm, w)
				if !inSlack || !inTeams {
					t.Errorf("%q: Slack %v, Teams %v", w, inSlack, inTeams)
				}
			}
			for i := range c.ans.Sources {
				label := "[S" + itoa(i+1) + "] "
				if c.ans.Intent != answer.IntentDocumentStatus && (!strings.Contains(sl, label) || !strings.Contains(tm, label)) {
					t.Errorf("citation %s missing on a platform", label)
				}
			}
		})
	}
}

// unescapeSlack undoes JSON's and mrkdwn's escaping so texts compare.
func unescapeSlack(s string) string {
	var v any
	_ = json.Unmarshal([]byte(s), &v)
	var b strings.Builder
	var walk func(any)
	walk = func(x any) {
		switch x := x.(type) {
		case map[string]any:
			for _, y := range x {
				walk(y)
			}
		case []any:
			for _, y := range x {
				walk(y)
			}
		case string:
			b.WriteString(strings.NewReplacer("&lt;", "<", "&gt;", ">", "&amp;", "&").Replace(x) + "\n")
		}
	}
	walk(v)
	return b.String()
}
