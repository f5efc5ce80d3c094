package slack

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/cewhq/cew/answer"
	"github.com/cewhq/cew/bot"
)

// interactionBody is an interactivity payload from testdata, form-encoded
// as Slack sends it, with its response_url pointed at a local sink.
func interactionBody(t testing.TB, file, responseURL string) []byte {
	t.Helper()
	var payload map[string]any
	if err := json.Unmarshal(readTestdata(t, file), &payload); err != nil {
		t.Fatal(err)
	}
	if responseURL != "" {
		payload["response_url"] = responseURL
	}
	raw, err := json.Marshal(payload)
	if err != nil {
		t.Fatal(err)
	}
	return []byte(url.Values{"payload": {string(raw)}}.Encode())
}

func TestFeedback(t *testing.T) {
	tests := []struct {
		name   string
		file   string
		wantUp bool
		want   string
	}{
		{name: "thumbs up", file: "interactivity/feedback_up.json", wantUp: true, want: "Thanks, your 👍 on this answer was recorded."},
		{name: "thumbs down", file: "interactivity/feedback_down.json", wantUp: false, want: "Thanks, your 👎 on this answer was recorded."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := newFakeBot()
			env := newTestEnv(t, b, nil)
			sink := newResponseSink(t)
			status, body := env.post(t, "/slack/interactivity", interactionBody(t, tt.file, sink.srv.URL), nil)
			if status != http.StatusOK || body != "" {
				t.Fatalf("ack: %d %q", status, body)
			}
			posts := sink.waitFor(t, 1)
			env.drain(t)
			votes := b.votes()
			want := bot.Feedback{AnswerID: "ans-Ev0LAN670R", Platform: answer.PlatformSlack, Tenant: testTenant,
				Channel: testChannel, User: testUser, Up: tt.wantUp}
			if len(votes) != 1 || votes[0] != want {
				t.Fatalf("feedback = %+v, want %+v", votes, want)
			}
			p := posts[0]
			if p.ResponseType != responseEphemeral || p.ReplaceOriginal || p.DeleteOriginal || !strings.Contains(p.Text, tt.want) {
				t.Errorf("acknowledgement = %+v, want a new ephemeral %q", p, tt.want)
			}
			if len(env.slack.all()) != 0 {
				t.Errorf("feedback posted in the channel: %s", describe(env.slack.all()))
			}
		})
	}
}

func TestShare(t *testing.T) {
	tests := []struct {
		name string
		// askFirst runs /cew on the same replica first, so the answer is
		// held in memory; otherwise the replica asks again.
		askFirst    bool
		wantQueries int
	}{
		{name: "answer held by this replica", askFirst: true, wantQueries: 1},
		{name: "answer asked again on another replica", askFirst: false, wantQueries: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := newFakeBot()
			env := newTestEnv(t, b, nil)
			sink := newResponseSink(t)
			if tt.askFirst {
				env.post(t, "/slack/commands", commandBody(t, "commands/question.form", sink.srv.URL, nil), nil)
				posts := sink.waitFor(t, 1)
				// The ephemeral answer's share button carries what the
				// payload in testdata carries.
				if raw := sink.rawPosts()[0]; !strings.Contains(raw, `"action_id":"cew_share"`) || posts[0].ResponseType != responseEphemeral {
					t.Fatalf("ephemeral answer without a share button: %s", raw)
				}
				var ref shareRef
				for _, blk := range posts[0].Blocks.BlockSet {
					if raw, _ := json.Marshal(blk); strings.Contains(string(raw), actionShare) {
						var a struct {
							Elements []struct {
								ActionID string `json:"action_id"`
								Value    string `json:"value"`
							} `json:"elements"`
						}
						_ = json.Unmarshal(raw, &a)
						for _, e := range a.Elements {
							if e.ActionID == actionShare {
								ref, _ = decodeShareRef(e.Value)
							}
						}
					}
				}
				if ref.AnswerID != "ans-command:13345224609.738474920.8088930838d88f008e0" {
					t.Fatalf("share value = %+v", ref)
				}
			}
			before := len(sink.rawPosts())
			status, _ := env.post(t, "/slack/interactivity", interactionBody(t, "interactivity/share.json", sink.srv.URL), nil)
			if status != http.StatusOK {
				t.Fatalf("status %d", status)
			}
			posts := sink.waitFor(t, before+2)[before:]
			env.drain(t)
			shared, deleted := posts[0], posts[1]
			if shared.ResponseType != responseInChannel || shared.ReplaceOriginal || shared.Blocks == nil {
				t.Fatalf("share = %+v, want a new in_channel message", shared)
			}
			raw := blocksJSON(t, shared.Blocks.BlockSet)
			for _, w := range []string{"Asked by <@U061F7AUR> with /cew: What is the minimum trench depth for DC cables?",
				"800 mm", "Open in Drive", actionFeedbackUp} {
				if !strings.Contains(raw, w) {
					t.Errorf("shared answer lacks %q:\n%s", w, raw)
				}
			}
			if strings.Contains(raw, actionShare) {
				t.Errorf("shared answer still offers sharing")
			}
			if !deleted.DeleteOriginal {
				t.Errorf("private copy not deleted: %+v", deleted)
			}
			if n := len(b.recorded()); n != tt.wantQueries {
				t.Errorf("bot asked %d times, want %d", n, tt.wantQueries)
			}
		})
	}
}

func TestInteractivityIgnoresLinksAndRejectsGarbage(t *testing.T) {
	env := newTestEnv(t, newFakeBot(), nil)
	link := strings.Replace(string(interactionBody(t, "interactivity/feedback_up.json", "http://127.0.0.1:1/unused")),
		actionFeedbackUp, actionOpenPrefix+"1", 1)
	if status, _ := env.post(t, "/slack/interactivity", []byte(link), nil); status != http.StatusOK {
		t.Errorf("link click: status %d", status)
	}
	for _, body := range []string{"payload=%7Bnot-json", "nopayload=1", ""} {
		if status, _ := env.post(t, "/slack/interactivity", []byte(body), nil); status != http.StatusBadRequest {
			t.Errorf("%q: status %d, want 400", body, status)
		}
	}
	env.drain(t)
	if len(env.bot.votes()) != 0 || len(env.slack.all()) != 0 {
		t.Errorf("ignored clicks had effects")
	}
}
