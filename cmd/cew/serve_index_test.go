package main

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/slack-go/slack/slacktest"
)

// TestServeBesideTheCLI: while cew serve runs, status, search and ask
// work, cew ingest adds a document, and the server answers from it without
// a restart.
func TestServeBesideTheCLI(t *testing.T) {
	dataDir, docs, later := t.TempDir(), t.TempDir(), t.TempDir()
	write := func(dir, name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(docs, "277-007-D-C-40327 Rev 03 Trenches crossing layout.md", "# 4.2 Cable trenches\n\nThe minimum trench depth for DC cables is 800 mm from finished ground level.\n")
	write(later, "277-007-D-C-40400 Rev 01 AC trench layout.md", "# 4.3 AC cable trenches\n\nThe minimum trench depth for AC cables is 1000 mm from finished ground level.\n")

	slack := newSlackRecorder(t)
	addr := freeAddr(t)
	env := map[string]string{
		"CEW_DATA_DIR": dataDir, "CEW_ADDR": addr, "SLACK_BOT_TOKEN": testBotToken, "CEW_EMBED": "none",
		"SLACK_SIGNING_SECRET": testSigningSecret, "CEW_SLACK_API_URL": slack.srv.GetAPIURL(), "CEW_INDEX_POLL": "20ms",
	}
	run := runWith(env)
	if out, err := run(context.Background(), "ingest", docs); err != nil {
		t.Fatalf("ingest: %v\n%s", err, out)
	}
	base, stop := serveInBackground(t, addr, run)
	defer stop()

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"status"}, "277-007-D-C-40327"},
		{[]string{"search", "trench depth"}, "800 mm"},
		{[]string{"ask", "What is the minimum trench depth for DC cables?"}, "800 mm"},
		{[]string{"ingest", later}, "1 indexed"},
		{[]string{"status", "AC trench"}, "277-007-D-C-40400"},
	} {
		out, err := run(context.Background(), tc.args...)
		if err != nil || !strings.Contains(out, tc.want) {
			t.Fatalf("cew %s while serving: %v\n%s", strings.Join(tc.args, " "), err, out)
		}
	}

	// The server answers from the document ingested while it ran. Each
	// mention is a new thread; ask until one is answered from it (the
	// server reloads within CEW_INDEX_POLL).
	for i := 1; ; i++ {
		if i > 500 {
			t.Fatal("the server never answered from the document ingested while it ran")
		}
		thread := fmt.Sprintf("1700000100.%06d", i)
		event := []byte(fmt.Sprintf(`{"type":"event_callback","team_id":"T1","event_id":"EvIdx%d","event":{"type":"app_mention","user":"U123",
			"text":"<@UCEW> What is the minimum trench depth for AC cables?","ts":%q,"channel":"C1","event_ts":%q}}`, i, thread, thread))
		resp, err := http.DefaultClient.Do(signedEvent(t, base, event, testSigningSecret, 0))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		var reply string
		waitFor(t, "a reply", func() bool {
			reply = slack.finalReply(thread)
			return reply != ""
		})
		if strings.Contains(reply, "1000 mm") {
			if !strings.Contains(reply, "277-007-D-C-40400") {
				t.Errorf("the answer does not cite the new document: %s", reply)
			}
			return
		}
	}
}

// finalReply is the answer cew gave in a thread: the placeholder it posted
// there as updated, or "" while it is still searching.
func (r *slackRecorder) finalReply(thread string) string {
	calls := r.calls()
	for i, c := range calls {
		if c.Get("method") != "chat.postMessage" || c.Get("thread_ts") != thread {
			continue
		}
		placeholder := fmt.Sprintf("1700000001.%06d", i+1) // the ts the recorder gave it
		for _, u := range calls[i+1:] {
			if u.Get("method") == "chat.update" && u.Get("ts") == placeholder {
				return u.Get("text") + u.Get("blocks")
			}
		}
	}
	return ""
}

// TestServeStartsWhileSlackIsDown: with Slack's auth.test failing at
// start-up, cew serve runs, /readyz says not ready (503, naming Slack), and
// it becomes ready once Slack answers.
func TestServeStartsWhileSlackIsDown(t *testing.T) {
	var slackUp atomic.Bool
	slack := slacktest.NewTestServer(func(c slacktest.Customize) {
		c.Handle("/auth.test", func(w http.ResponseWriter, _ *http.Request) {
			if !slackUp.Load() {
				http.Error(w, "upstream unavailable", http.StatusBadGateway)
				return
			}
			fmt.Fprint(w, `{"ok":true,"team":"Project","user":"cew","team_id":"T1","user_id":"UCEW","bot_id":"BCEW"}`)
		})
	})
	slack.Start()
	t.Cleanup(slack.Stop)
	addr := freeAddr(t)
	env := map[string]string{
		"CEW_DATA_DIR": t.TempDir(), "CEW_ADDR": addr, "SLACK_BOT_TOKEN": testBotToken, "CEW_EMBED": "none",
		"SLACK_SIGNING_SECRET": testSigningSecret, "CEW_SLACK_API_URL": slack.GetAPIURL(),
	}
	base, stop := serveInBackground(t, addr, runWith(env))
	defer stop()
	ready := func() (int, readiness) { return getReadiness(t, base) }
	if code, r := ready(); code != http.StatusServiceUnavailable || !strings.HasPrefix(r.Checks["slack"], "not ready") {
		t.Errorf("readyz while Slack is down = %d %+v, want 503 naming slack", code, r)
	}
	slackUp.Store(true)
	waitFor(t, "ready once Slack answers", func() bool {
		code, r := ready()
		return code == http.StatusOK && r.Checks["slack"] == "ok"
	})
}
