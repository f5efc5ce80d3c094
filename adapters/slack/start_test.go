package slack

import (
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/slack-go/slack/slacktest"
)

// TestStartsWhileSlackIsDown: auth.test failing at start-up (5xx, then a
// refused connection would look the same) does not stop the adapter: it
// is not ready, events get 503 so Slack delivers them again, a slash
// command is told to wait; it retries with backoff and, once Slack
// answers, is ready and answers the redelivered mention.
func TestStartsWhileSlackIsDown(t *testing.T) {
	var authCalls atomic.Int32
	const failures = 2
	fs := newFakeSlack(t, func(c slacktest.Customize) {
		c.Handle("/auth.test", func(w http.ResponseWriter, _ *http.Request) {
			if authCalls.Add(1) <= failures {
				http.Error(w, "service unavailable", http.StatusServiceUnavailable)
				return
			}
			fmt.Fprintf(w, `{"ok":true,"team":"Project","user":"cew","team_id":%q,"user_id":%q,"bot_id":%q}`, testTeam, testBotUser, testBotID)
		})
	})
	b := newFakeBot()
	env := newTestEnvOn(t, fs, b, nil)
	if err := env.a.Ready(); err == nil || !strings.Contains(err.Error(), "connecting to Slack") {
		t.Fatalf("Ready = %v right after a failed auth.test, want not ready", err)
	}
	mention := readTestdata(t, "events/app_mention.json")
	if status, _ := env.post(t, "/slack/events", mention, nil); status != http.StatusServiceUnavailable {
		t.Errorf("event while not ready: status %d, want 503 so Slack delivers it again", status)
	}
	status, body := env.post(t, "/slack/commands", commandBody(t, "commands/question.form", "http://127.0.0.1:1/unused", nil), nil)
	if status != http.StatusOK || !strings.Contains(body, "starting") {
		t.Errorf("slash command while not ready: %d %s", status, body)
	}
	if len(b.recorded()) != 0 {
		t.Fatalf("the bot was asked before the adapter was ready: %v", b.recorded())
	}

	select {
	case <-env.a.ready:
	case <-time.After(30 * time.Second): // only stops a broken test
		t.Fatalf("never ready: %v", env.a.Ready())
	}
	if err := env.a.Ready(); err != nil {
		t.Fatalf("Ready = %v after Slack answered", err)
	}
	if n := authCalls.Load(); n != failures+1 {
		t.Errorf("auth.test called %d times, want %d", n, failures+1)
	}
	if status, _ := env.post(t, "/slack/events", mention, nil); status != http.StatusOK {
		t.Fatalf("redelivered event: status %d", status)
	}
	env.slack.waitFor(t, "the answer", func(c []apiCall) bool { return count(c, "chat.update") == 1 })
	if q := b.recorded(); len(q) != 1 || q[0].Text != "What is the minimum trench depth for DC cables?" {
		t.Errorf("questions = %v: the mention must be stripped once the bot user is known", q)
	}
}
