package main

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/slack-go/slack/slacktest"
)

const (
	testSigningSecret = "test-signing-secret"
	testBotToken      = "xoxb-test-token"
)

// slackRecorder is slack-go's slacktest server with the chat methods
// recorded.
type slackRecorder struct {
	srv *slacktest.Server

	mu    sync.Mutex
	posts []url.Values
}

func newSlackRecorder(t *testing.T) *slackRecorder {
	r := &slackRecorder{}
	r.srv = slacktest.NewTestServer(func(c slacktest.Customize) {
		c.Handle("/auth.test", func(w http.ResponseWriter, _ *http.Request) {
			fmt.Fprint(w, `{"ok":true,"team":"Project","user":"cew","team_id":"T1","user_id":"UCEW","bot_id":"BCEW"}`)
		})
		for _, m := range []string{"chat.postMessage", "chat.update", "chat.postEphemeral", "chat.delete"} {
			method := m
			c.Handle("/"+method, func(w http.ResponseWriter, req *http.Request) {
				_ = req.ParseForm()
				form := req.PostForm
				form.Set("method", method)
				r.mu.Lock()
				r.posts = append(r.posts, form)
				n := len(r.posts)
				r.mu.Unlock()
				ts := form.Get("ts")
				if ts == "" {
					ts = fmt.Sprintf("1700000001.%06d", n)
				}
				fmt.Fprintf(w, `{"ok":true,"channel":%q,"ts":%q}`, form.Get("channel"), ts)
			})
		}
	})
	r.srv.Start()
	t.Cleanup(r.srv.Stop)
	return r
}

func (r *slackRecorder) calls() []url.Values {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]url.Values(nil), r.posts...)
}

// waitFor polls until cond holds; the deadline only stops a broken test.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// getReadiness fetches and decodes /readyz.
func getReadiness(t *testing.T, base string) (int, readiness) {
	t.Helper()
	resp, err := http.Get(base + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var r readiness
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, r
}

// runWith runs cew in-process with env as its environment and returns
// stdout and stderr together.
func runWith(env map[string]string) func(ctx context.Context, args ...string) (string, error) {
	return func(ctx context.Context, args ...string) (string, error) {
		var out, errOut bytes.Buffer
		err := execute(ctx, strings.NewReader(""), &out, &errOut, func(k string) string { return env[k] }, args)
		return out.String() + errOut.String(), err
	}
}

func freeAddr(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

func signedEvent(t testing.TB, base string, body []byte, secret string, retry int) *http.Request {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, base+"/slack/events", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	mac := hmac.New(sha256.New, []byte(secret))
	fmt.Fprintf(mac, "v0:%s:%s", ts, body)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Slack-Request-Timestamp", ts)
	req.Header.Set("X-Slack-Signature", "v0="+hex.EncodeToString(mac.Sum(nil)))
	if retry > 0 {
		req.Header.Set("X-Slack-Retry-Num", strconv.Itoa(retry))
	}
	return req
}

// TestServe runs `cew serve` against slacktest: health and readiness, a
// mention answered once in its thread despite retries, a bad signature
// refused, and a graceful shutdown.
func TestServe(t *testing.T) {
	dataDir := t.TempDir()
	docs := t.TempDir()
	spec := "# 4.2 Cable trenches\n\nThe minimum trench depth for DC cables is 800 mm from finished ground level.\n"
	if err := os.WriteFile(filepath.Join(docs, "277-007-D-C-40327 Rev 03 Trenches crossing layout.md"), []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	slack := newSlackRecorder(t)
	addr := freeAddr(t)
	env := map[string]string{
		"CEW_DATA_DIR": dataDir, "CEW_ADDR": addr, "SLACK_BOT_TOKEN": testBotToken,
		"SLACK_SIGNING_SECRET": testSigningSecret, "CEW_SLACK_API_URL": slack.srv.GetAPIURL(), "CEW_LOG_LEVEL": "debug",
	}
	run := runWith(env)
	if out, err := run(context.Background(), "ingest", docs); err != nil {
		t.Fatalf("ingest: %v\n%s", err, out)
	}

	base, stop := serveInBackground(t, addr, run)

	t.Run("readyz", func(t *testing.T) {
		code, r := getReadiness(t, base)
		if code != http.StatusOK || r.Status != "ready" || r.Checks["store"] != "ok" || r.Checks["cache"] != "memory" {
			t.Errorf("readyz = %d %+v", code, r)
		}
	})

	t.Run("mention answered once in its thread", func(t *testing.T) {
		event := []byte(`{"token":"x","team_id":"T1","api_app_id":"A1","type":"event_callback","event_id":"Ev0001","event_time":1700000000,
			"event":{"type":"app_mention","user":"U123","text":"<@UCEW> What is the minimum trench depth for DC cables?","ts":"1700000000.000100","channel":"C1","event_ts":"1700000000.000100"}}`)
		for retry := range 4 {
			resp, err := http.DefaultClient.Do(signedEvent(t, base, event, testSigningSecret, retry))
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("delivery %d: status %d", retry, resp.StatusCode)
			}
		}
		final := func() []url.Values {
			var out []url.Values
			for _, c := range slack.calls() {
				if strings.Contains(c.Get("blocks"), "800 mm") || strings.Contains(c.Get("text"), "800 mm") {
					out = append(out, c)
				}
			}
			return out
		}
		waitFor(t, "the answer", func() bool { return len(final()) > 0 })
		answers := final()
		if len(answers) != 1 {
			t.Fatalf("the answer was posted %d times", len(answers))
		}
		a := answers[0]
		if a.Get("channel") != "C1" || (a.Get("thread_ts") != "1700000000.000100" && a.Get("method") != "chat.update") {
			t.Errorf("answer not in the mention's thread: %v", a)
		}
		if !strings.Contains(a.Get("blocks"), "Open in Drive") && !strings.Contains(a.Get("blocks"), "277-007-D-C-40327") {
			t.Errorf("answer blocks lack the source: %s", a.Get("blocks"))
		}
	})

	t.Run("bad signature refused", func(t *testing.T) {
		event := []byte(`{"type":"event_callback","team_id":"T1","event_id":"Ev0002","event":{"type":"app_mention","user":"U1","text":"<@UCEW> hi","ts":"1.2","channel":"C1"}}`)
		resp, err := http.DefaultClient.Do(signedEvent(t, base, event, "wrong-secret", 0))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("status %d, want 401", resp.StatusCode)
		}
	})

	t.Run("metrics", func(t *testing.T) {
		resp, err := http.Get(base + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		for _, want := range []string{"cew_answers_total", "cew_stage_duration_seconds", "cew_slack_ack_seconds"} {
			if !strings.Contains(string(body), want) {
				t.Errorf("/metrics lacks %s", want)
			}
		}
	})

	logs := stop()
	if strings.Contains(logs, testBotToken) || strings.Contains(logs, testSigningSecret) {
		t.Errorf("a secret reached the logs")
	}
}

// TestServeStopsWhenSocketModeFails: when Slack refuses the Socket Mode
// connection, serve returns the error and no longer serves HTTP.
func TestServeStopsWhenSocketModeFails(t *testing.T) {
	slack := slacktest.NewTestServer(func(c slacktest.Customize) {
		c.Handle("/auth.test", func(w http.ResponseWriter, _ *http.Request) {
			fmt.Fprint(w, `{"ok":true,"team":"Project","user":"cew","team_id":"T1","user_id":"UCEW","bot_id":"BCEW"}`)
		})
		c.Handle("/apps.connections.open", func(w http.ResponseWriter, _ *http.Request) {
			fmt.Fprint(w, `{"ok":false,"error":"invalid_auth"}`)
		})
	})
	slack.Start()
	t.Cleanup(slack.Stop)
	addr := freeAddr(t)
	env := map[string]string{
		"CEW_DATA_DIR": t.TempDir(), "CEW_ADDR": addr, "SLACK_BOT_TOKEN": testBotToken,
		"SLACK_APP_TOKEN": "xapp-revoked", "CEW_SLACK_API_URL": slack.GetAPIURL(),
	}
	served := make(chan error, 1)
	go func() {
		var out bytes.Buffer
		served <- execute(context.Background(), strings.NewReader(""), &out, &out, func(k string) string { return env[k] }, []string{"serve"})
	}()
	select {
	case err := <-served:
		if err == nil || !strings.Contains(err.Error(), "socket mode") {
			t.Fatalf("serve returned %v, want the socket mode error", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("serve kept running after Socket Mode failed")
	}
	if resp, err := http.Get("http://" + addr + "/healthz"); err == nil {
		resp.Body.Close()
		t.Errorf("the HTTP server is still up after serve returned")
	}
}
