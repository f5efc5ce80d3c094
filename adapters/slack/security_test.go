package slack

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/cewhq/cew/adapters/internal/notice"
)

// interactionBodyWith is interactionBody with the payload edited.
func interactionBodyWith(t testing.TB, file, responseURL string, edit func(map[string]any)) []byte {
	t.Helper()
	var payload map[string]any
	if err := json.Unmarshal(readTestdata(t, file), &payload); err != nil {
		t.Fatal(err)
	}
	payload["response_url"] = responseURL
	edit(payload)
	raw, err := json.Marshal(payload)
	if err != nil {
		t.Fatal(err)
	}
	return []byte(url.Values{"payload": {string(raw)}}.Encode())
}

// TestShareStaysWithItsOwner: a signed click naming another workspace's (or
// another user's) answer id never posts that answer.
func TestShareStaysWithItsOwner(t *testing.T) {
	const otherTeam, otherUser = "T0BETA001", "U0BETA001"
	tests := []struct {
		name       string
		team, user string
		wantShared bool
	}{
		{name: "the user who asked, in their workspace", team: testTeam, user: testUser, wantShared: true},
		{name: "another workspace naming the answer id", team: otherTeam, user: otherUser},
		{name: "another workspace, same user id", team: otherTeam, user: testUser},
		{name: "another user in the same workspace", team: testTeam, user: otherUser},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := newFakeBot()
			env := newTestEnv(t, b, func(c *Config) {
				c.Tenants = map[string]string{testTeam: testTenant, otherTeam: "beta"}
			})
			sink := newResponseSink(t)
			env.post(t, "/slack/commands", commandBody(t, "commands/question.form", sink.srv.URL, nil), nil)
			sink.waitFor(t, 1)
			click := interactionBodyWith(t, "interactivity/share.json", sink.srv.URL, func(p map[string]any) {
				p["team"] = map[string]any{"id": tt.team}
				p["user"] = map[string]any{"id": tt.user, "team_id": tt.team}
			})
			if status, _ := env.post(t, "/slack/interactivity", click, nil); status != http.StatusOK {
				t.Fatalf("status %d", status)
			}
			want := 3 // the answer, then the share and the private copy's removal
			if !tt.wantShared {
				want = 2 // the answer, then a private refusal
			}
			posts := sink.waitFor(t, want)
			env.drain(t)
			posts = sink.waitFor(t, want)
			shared := false
			for _, p := range posts[1:] {
				if p.ResponseType == responseInChannel {
					shared = true
				}
			}
			if shared != tt.wantShared {
				t.Fatalf("shared = %v, want %v; posts %s", shared, tt.wantShared, strings.Join(sink.rawPosts(), "\n"))
			}
			if !tt.wantShared {
				if got := posts[1]; got.ResponseType != responseEphemeral || !strings.Contains(got.Text, notice.ShareRefused) {
					t.Errorf("refusal = %+v", got)
				}
				if n := len(b.recorded()); n != 1 {
					t.Errorf("bot asked %d times, want 1 (the question itself)", n)
				}
			}
			if calls := env.slack.all("chat.postMessage"); len(calls) != 0 {
				t.Errorf("posted in a channel: %s", describe(calls))
			}
		})
	}
}

// TestReplayWithoutIDs: a signed request replayed within the window is
// answered once, also when it carries no event_id or trigger_id.
func TestReplayWithoutIDs(t *testing.T) {
	withoutEventID := func(t testing.TB) []byte {
		var m map[string]any
		if err := json.Unmarshal(readTestdata(t, "events/app_mention.json"), &m); err != nil {
			t.Fatal(err)
		}
		delete(m, "event_id")
		b, _ := json.Marshal(m)
		return b
	}
	tests := []struct {
		name string
		path string
		body func(t *testing.T, sink string) []byte
	}{
		{name: "event without event_id", path: "/slack/events", body: func(t *testing.T, _ string) []byte { return withoutEventID(t) }},
		{name: "command without trigger_id", path: "/slack/commands", body: func(t *testing.T, sink string) []byte {
			form, err := url.ParseQuery(string(commandBody(t, "commands/question.form", sink, nil)))
			if err != nil {
				t.Fatal(err)
			}
			form.Del("trigger_id")
			return []byte(form.Encode())
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := newFakeBot()
			env := newTestEnv(t, b, nil)
			sink := newResponseSink(t)
			req := tt.body(t, sink.srv.URL)
			// The same signed request, three times.
			ct := mediaJSON
			if tt.path != "/slack/events" {
				ct = mediaForm
			}
			signed := signedRequest(t, env.srv.URL, tt.path, ct, req, testSecret, testNow)
			for i := range 3 {
				again, err := http.NewRequest(http.MethodPost, signed.URL.String(), strings.NewReader(string(req)))
				if err != nil {
					t.Fatal(err)
				}
				again.Header = signed.Header.Clone()
				if status, _ := do(t, env.srv.Client(), again); status != http.StatusOK {
					t.Fatalf("delivery %d: status %d", i, status)
				}
			}
			env.drain(t)
			if n := len(b.recorded()); n != 1 {
				t.Errorf("answered %d times, want 1", n)
			}
		})
	}
}

// TestContentTypeChecked: each endpoint takes only the media type Slack
// sends it.
func TestContentTypeChecked(t *testing.T) {
	mention := readTestdata(t, "events/app_mention.json")
	tests := []struct {
		name, path, contentType string
		body                    func(t *testing.T) []byte
		want                    int
	}{
		{name: "events as JSON", path: "/slack/events", contentType: "application/json", want: http.StatusOK},
		{name: "events as JSON with charset", path: "/slack/events", contentType: "application/json; charset=utf-8", want: http.StatusOK},
		{name: "events as text", path: "/slack/events", contentType: "text/plain", want: http.StatusUnsupportedMediaType},
		{name: "events as a form", path: "/slack/events", contentType: mediaForm, want: http.StatusUnsupportedMediaType},
		{name: "events without a type", path: "/slack/events", contentType: "", want: http.StatusUnsupportedMediaType},
		{name: "command as JSON", path: "/slack/commands", contentType: "application/json", want: http.StatusUnsupportedMediaType},
		{name: "interaction as JSON", path: "/slack/interactivity", contentType: "application/json", want: http.StatusUnsupportedMediaType},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := newFakeBot()
			env := newTestEnv(t, b, nil)
			body := mention
			if tt.path != "/slack/events" {
				body = commandBody(t, "commands/question.form", "http://127.0.0.1:1/unused", nil)
			}
			req := signedRequest(t, env.srv.URL, tt.path, tt.contentType, body, testSecret, testNow)
			if tt.contentType == "" {
				req.Header.Del("Content-Type")
			}
			status, _ := do(t, env.srv.Client(), req)
			env.drain(t)
			if status != tt.want {
				t.Errorf("status %d, want %d", status, tt.want)
			}
			if tt.want != http.StatusOK && len(b.recorded()) != 0 {
				t.Errorf("bot asked despite %d", tt.want)
			}
		})
	}
}

// TestResponseURLRestricted: answers go to a response_url only on Slack's
// hosts (or the configured API base); elsewhere they go through the Web
// API as an ephemeral message.
func TestResponseURLRestricted(t *testing.T) {
	tests := []struct {
		name    string
		url     string
		allowed bool
	}{
		{name: "Slack's hooks host", url: "https://hooks.slack.com/commands/T061EG9R6/1/abc", allowed: true},
		{name: "hooks over http", url: "http://hooks.slack.com/commands/T061EG9R6/1/abc"},
		{name: "a lookalike host", url: "https://hooks.slack.com.evil.example/x"},
		{name: "credentials in the URL", url: "https://user:pw@hooks.slack.com/x"},
		{name: "another site", url: "https://attacker.example/collect"},
		{name: "metadata address", url: "http://169.254.169.254/latest/meta-data"},
		{name: "not a URL", url: "::not a url"},
	}
	env := newTestEnv(t, newFakeBot(), func(c *Config) { c.ResponseURLHosts = nil })
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := env.a.allowedResponseURL(tt.url); got != tt.allowed {
				t.Errorf("allowed(%q) = %v, want %v", tt.url, got, tt.allowed)
			}
		})
	}
	t.Run("the configured API base is allowed", func(t *testing.T) {
		if !env.a.allowedResponseURL(env.slack.url() + "respond") {
			t.Errorf("API base %s refused", env.slack.url())
		}
	})

	t.Run("a command with a foreign response_url is answered through the API", func(t *testing.T) {
		b := newFakeBot()
		env := newTestEnv(t, b, func(c *Config) { c.ResponseURLHosts = nil })
		sink := newResponseSink(t) // a local server, not Slack's
		env.post(t, "/slack/commands", commandBody(t, "commands/question.form", sink.srv.URL, nil), nil)
		env.slack.waitFor(t, "an ephemeral answer", func(c []apiCall) bool { return count(c, "chat.postEphemeral") == 1 })
		env.drain(t)
		if posts := sink.rawPosts(); len(posts) != 0 {
			t.Errorf("posted to a foreign response_url: %v", posts)
		}
	})
}
