package slack

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/slack-go/slack/slacktest"
)

// socketServer is Slack's side of a Socket Mode connection, served by the
// slacktest server at the URL apps.connections.open hands out.
type socketServer struct {
	envelopes chan string         // sent to the app, in order
	acks      chan map[string]any // what the app acknowledged
}

func (s *socketServer) bind(c slacktest.Customize) {
	c.Handle("/ws", func(w http.ResponseWriter, r *http.Request) {
		// Slack's client sends Origin: https://api.slack.com.
		up := websocket.Upgrader{CheckOrigin: func(*http.Request) bool { return true }}
		conn, err := up.Upgrade(w, r, nil)
		if err != nil {
			return
		}
		defer conn.Close()
		if err := conn.WriteJSON(map[string]any{"type": "hello", "num_connections": 1,
			"connection_info": map[string]string{"app_id": "A0MDYCDME"}}); err != nil {
			return
		}
		done := make(chan struct{})
		defer close(done)
		go func() {
			for {
				select {
				case env := <-s.envelopes:
					if conn.WriteMessage(websocket.TextMessage, []byte(env)) != nil {
						return
					}
				case <-done:
					return
				}
			}
		}()
		for {
			var m map[string]any
			if err := conn.ReadJSON(&m); err != nil {
				return
			}
			s.acks <- m
		}
	})
}

func (s *socketServer) ack(t *testing.T) map[string]any {
	t.Helper()
	select {
	case a := <-s.acks:
		return a
	case <-time.After(20 * time.Second):
		t.Fatal("no acknowledgement")
		return nil
	}
}

func envelope(t *testing.T, id, typ string, payload []byte, retry int) string {
	t.Helper()
	b, err := json.Marshal(map[string]any{"envelope_id": id, "type": typ, "payload": json.RawMessage(payload),
		"accepts_response_payload": typ == "slash_commands", "retry_attempt": retry, "retry_reason": ""})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestSocketMode(t *testing.T) {
	ss := &socketServer{envelopes: make(chan string, 8), acks: make(chan map[string]any, 8)}
	fs := newFakeSlack(t, ss.bind)
	b := newFakeBot()
	env := newTestEnvOn(t, fs, b, func(c *Config) {
		c.AppToken, c.SigningSecret = "xapp-1-A0MDYCDME-test", ""
	})
	sink := newResponseSink(t)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	runErr := make(chan error, 1)
	go func() { runErr <- env.a.RunSocketMode(ctx) }()

	// A mention: acknowledged with no payload, answered in its thread.
	mention := readTestdata(t, "events/app_mention.json")
	ss.envelopes <- envelope(t, "env-1", "events_api", mention, 0)
	if a := ss.ack(t); a["envelope_id"] != "env-1" || a["payload"] != nil {
		t.Errorf("ack = %v", a)
	}
	fs.waitFor(t, "the answer", func(c []apiCall) bool {
		return count(c, "chat.update") == 1 && strings.Contains(c[len(c)-1].Form.Get("blocks"), "800 mm")
	})

	// Its redelivery is acknowledged and dropped.
	ss.envelopes <- envelope(t, "env-2", "events_api", mention, 1)
	if a := ss.ack(t); a["envelope_id"] != "env-2" {
		t.Errorf("ack = %v", a)
	}

	// A slash command: the ack carries the ephemeral "Searching…".
	cmd, _ := json.Marshal(map[string]string{
		"team_id": testTeam, "channel_id": testChannel, "user_id": testUser, "command": "/cew",
		"text": "What is the minimum trench depth for DC cables?", "response_url": sink.srv.URL, "trigger_id": "socket.trigger.1",
	})
	ss.envelopes <- envelope(t, "env-3", "slash_commands", cmd, 0)
	a := ss.ack(t)
	if p, _ := json.Marshal(a["payload"]); a["envelope_id"] != "env-3" || !strings.Contains(string(p), "Searching the documents for") ||
		!strings.Contains(string(p), `"response_type":"ephemeral"`) {
		t.Errorf("slash ack = %v", a)
	}
	if posts := sink.waitFor(t, 1); posts[0].ResponseType != responseEphemeral || !strings.Contains(sink.rawPosts()[0], "800 mm") {
		t.Errorf("ephemeral answer = %s", sink.rawPosts()[0])
	}

	// A 👍 click.
	var click map[string]any
	_ = json.Unmarshal(readTestdata(t, "interactivity/feedback_up.json"), &click)
	click["response_url"] = sink.srv.URL
	payload, _ := json.Marshal(click)
	ss.envelopes <- envelope(t, "env-4", "interactive", payload, 0)
	if a := ss.ack(t); a["envelope_id"] != "env-4" {
		t.Errorf("ack = %v", a)
	}
	sink.waitFor(t, 2)

	cancel()
	if err := <-runErr; err != nil {
		t.Errorf("RunSocketMode = %v, want nil after cancel", err)
	}
	env.drain(t)
	if n := len(b.recorded()); n != 2 {
		t.Errorf("bot asked %d times, want 2 (mention, command)", n)
	}
	if v := b.votes(); len(v) != 1 || !v[0].Up || v[0].AnswerID != "ans-Ev0LAN670R" {
		t.Errorf("votes = %+v", v)
	}
	if n := count(fs.all(), "chat.postMessage"); n != 1 {
		t.Errorf("%d messages posted, want the one placeholder:%s", n, describe(fs.all()))
	}
}

func TestSocketModeNeedsAppToken(t *testing.T) {
	env := newTestEnv(t, newFakeBot(), nil)
	if err := env.a.RunSocketMode(context.Background()); err == nil || !strings.Contains(err.Error(), "SLACK_APP_TOKEN") {
		t.Errorf("RunSocketMode = %v", err)
	}
}

func TestNewRejectsBadConfig(t *testing.T) {
	tests := []struct {
		name  string
		cfg   Config
		bot   Bot
		wants []string
	}{
		{name: "nothing", cfg: Config{}, wants: []string{"a bot is required", "BotToken", "SigningSecret", "DefaultTenant"}},
		{name: "user token as app token", bot: newFakeBot(),
			cfg:   Config{BotToken: "xoxb-1", AppToken: "xoxp-1", DefaultTenant: "t"},
			wants: []string{`starting with "xapp-"`}},
		{name: "negative sizes", bot: newFakeBot(),
			cfg:   Config{BotToken: "xoxb-1", SigningSecret: "s", DefaultTenant: "t", Workers: -1},
			wants: []string{"cannot be negative"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(context.Background(), tt.cfg, tt.bot)
			if err == nil {
				t.Fatal("New accepted a bad config")
			}
			for _, w := range tt.wants {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			if strings.Contains(err.Error(), "xoxb-1") || strings.Contains(err.Error(), "xoxp-1") {
				t.Errorf("error echoes a token: %v", err)
			}
		})
	}
}

func TestNewFailsOnRevokedToken(t *testing.T) {
	fs := newFakeSlack(t, func(c slacktest.Customize) {
		c.Handle("/auth.test", func(w http.ResponseWriter, _ *http.Request) {
			fmt.Fprint(w, `{"ok":false,"error":"token_revoked"}`)
		})
	})
	_, err := New(context.Background(), Config{BotToken: "xoxb-revoked", SigningSecret: testSecret, APIURL: fs.url(),
		DefaultTenant: testTenant}, newFakeBot())
	if err == nil || !strings.Contains(err.Error(), "token_revoked") || strings.Contains(err.Error(), "xoxb-revoked") {
		t.Errorf("New = %v", err)
	}
}
