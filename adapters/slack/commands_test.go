package slack

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/cewhq/cew/answer"
	slackapi "github.com/slack-go/slack"
)

// commandBody is a slash-command form from testdata with its response_url
// pointed at a local sink, and fields overridden.
func commandBody(t *testing.T, file, responseURL string, set map[string]string) []byte {
	t.Helper()
	form, err := url.ParseQuery(strings.TrimSpace(string(readTestdata(t, file))))
	if err != nil {
		t.Fatal(err)
	}
	form.Set("response_url", responseURL)
	for k, v := range set {
		form.Set(k, v)
	}
	return []byte(form.Encode())
}

func TestSlashCommands(t *testing.T) {
	tests := []struct {
		name string
		file string
		set  map[string]string
		// The immediate ephemeral response.
		wantAck string
		// The question the bot gets ("" = none), and whether it is a
		// status lookup.
		wantText   string
		wantStatus bool
		// In the ephemeral answer posted to response_url.
		wantAnswer []string
	}{
		{
			name: "question", file: "commands/question.form",
			wantAck:  "Searching the documents for: _What is the minimum trench depth for DC cables?_",
			wantText: "What is the minimum trench depth for DC cables?",
			wantAnswer: []string{"800 mm", "Open in Drive", actionShare, actionFeedbackUp,
				"https://drive.google.com/file/d/1AbC/view"},
		},
		{
			name: "status", file: "commands/status.form",
			wantAck:  "Looking up the status of: _277-007-D-C-40327_",
			wantText: "277-007-D-C-40327", wantStatus: true,
			wantAnswer: []string{"Document status", "revision 03, status IFC", "Open in Drive", actionShare},
		},
		{name: "help", file: "commands/help.form", wantAck: "/cew status &lt;document number or title&gt;"},
		{name: "empty is help", file: "commands/empty.form", wantAck: "`/cew help`: this message."},
		{name: "status without a document", file: "commands/help.form", set: map[string]string{"text": "status"},
			wantAck: "Usage: `/cew status &lt;document number or title&gt;`"},
		{name: "HELP in capitals", file: "commands/help.form", set: map[string]string{"text": "  HELP "},
			wantAck: "`/cew help`: this message."},
		{name: "help with more words is a question", file: "commands/help.form",
			set:      map[string]string{"text": "help me find the trench depth"},
			wantAck:  "Searching the documents for: _help me find the trench depth_",
			wantText: "help me find the trench depth", wantAnswer: []string{"800 mm"}},
		{name: "mentions in the question are escaped in the ack", file: "commands/question.form",
			set:      map[string]string{"text": "depth <!channel> <@U999>?"},
			wantAck:  "Searching the documents for: _depth &lt;!channel&gt; &lt;@U999&gt;?_",
			wantText: "depth <!channel> <@U999>?", wantAnswer: []string{"800 mm"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := newFakeBot()
			env := newTestEnv(t, b, nil)
			sink := newResponseSink(t)
			status, body := env.post(t, "/slack/commands", commandBody(t, tt.file, sink.srv.URL, tt.set), nil)
			if status != http.StatusOK {
				t.Fatalf("status = %d", status)
			}
			var ack slackapi.WebhookMessage
			if err := json.Unmarshal([]byte(body), &ack); err != nil {
				t.Fatalf("ack %q: %v", body, err)
			}
			var shown string
			if ack.Blocks != nil {
				shown = blocksJSON(t, ack.Blocks.BlockSet)
			}
			if ack.ResponseType != responseEphemeral || !strings.Contains(shown, tt.wantAck) {
				t.Errorf("ack = %s\nwant ephemeral containing %q", shown, tt.wantAck)
			}
			if strings.Contains(shown+ack.Text, "<") {
				t.Errorf("ack shows markup unescaped: %s %s", ack.Text, shown)
			}
			if tt.wantText == "" {
				env.drain(t)
				if q := b.recorded(); len(q) != 0 {
					t.Errorf("bot asked: %+v", q)
				}
				return
			}
			posts := sink.waitFor(t, 1)
			env.drain(t)
			q := b.recorded()
			if len(q) != 1 || q[0].Text != tt.wantText || q[0].Thread != "slash:"+testUser || q[0].Channel != testChannel ||
				q[0].Tenant != testTenant || q[0].Platform != answer.PlatformSlack {
				t.Fatalf("queries = %+v", q)
			}
			b.mu.Lock()
			lookups := b.lookups
			b.mu.Unlock()
			if (lookups == 1) != tt.wantStatus {
				t.Errorf("status lookups = %d, want status %v", lookups, tt.wantStatus)
			}
			if !strings.HasPrefix(q[0].EventID, "command:") {
				t.Errorf("event id = %q, want the trigger id", q[0].EventID)
			}
			if posts[0].ResponseType != responseEphemeral || posts[0].ReplaceOriginal || posts[0].Blocks == nil {
				t.Errorf("answer must be a new ephemeral message with blocks: %+v", posts[0])
			}
			raw := blocksJSON(t, posts[0].Blocks.BlockSet)
			for _, w := range tt.wantAnswer {
				if !strings.Contains(raw, w) {
					t.Errorf("answer lacks %q:\n%s", w, raw)
				}
			}
		})
	}
}

func TestSlashCommandRepeatedTrigger(t *testing.T) {
	b := newFakeBot()
	env := newTestEnv(t, b, nil)
	sink := newResponseSink(t)
	body := commandBody(t, "commands/question.form", sink.srv.URL, nil)
	_, first := env.post(t, "/slack/commands", body, nil)
	status, second := env.post(t, "/slack/commands", body, nil)
	env.drain(t)
	if status != http.StatusOK || second != "" || first == "" {
		t.Errorf("repeat: status %d body %q; first %q", status, second, first)
	}
	if n := len(b.recorded()); n != 1 {
		t.Errorf("bot asked %d times, want 1", n)
	}
}

func TestSlashCommandUnknownWorkspace(t *testing.T) {
	b := newFakeBot()
	env := newTestEnv(t, b, func(c *Config) { c.Tenants = map[string]string{"T0OTHER01": "other"} })
	_, body := env.post(t, "/slack/commands", commandBody(t, "commands/question.form", "http://127.0.0.1:1/unused", nil), nil)
	env.drain(t)
	if !strings.Contains(body, "not connected to a cew project") || !strings.Contains(body, responseEphemeral) {
		t.Errorf("ack = %s", body)
	}
	if q := b.recorded(); len(q) != 0 {
		t.Errorf("bot asked: %+v", q)
	}
}

func TestSlashCommandResponseURLFailsFallsBackToEphemeral(t *testing.T) {
	b := newFakeBot()
	env := newTestEnv(t, b, nil)
	gone := newResponseSink(t)
	gone.srv.Close() // the response_url is unreachable
	env.post(t, "/slack/commands", commandBody(t, "commands/question.form", gone.srv.URL, nil), nil)
	env.drain(t)
	eph := env.slack.all("chat.postEphemeral")
	if len(eph) != 1 || eph[0].Form.Get("user") != testUser || !strings.Contains(eph[0].Form.Get("blocks"), "800 mm") {
		t.Errorf("want the answer as an ephemeral message: %s", describe(env.slack.all()))
	}
}

func TestSlashCommandMalformed(t *testing.T) {
	env := newTestEnv(t, newFakeBot(), nil)
	for _, body := range []string{"%zz", "text=hello"} {
		if status, _ := env.post(t, "/slack/commands", []byte(body), nil); status != http.StatusBadRequest {
			t.Errorf("%q: status %d, want 400", body, status)
		}
	}
}
