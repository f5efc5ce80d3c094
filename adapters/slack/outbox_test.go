package slack

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/cewhq/cew/adapters/internal/notice"
	"github.com/cewhq/cew/outbox"
	"github.com/cewhq/cew/outbox/disk"
)

// mentionEvent is an app_mention in channel, in the thread threadTS ("" =
// a new thread started by the mention itself).
func mentionEvent(t testing.TB, eventID, channel, threadTS, ts string) []byte {
	t.Helper()
	ev := map[string]any{
		"type": "app_mention", "user": testUser, "text": "<@" + testBotUser + "> What is the minimum trench depth for DC cables?",
		"ts": ts, "channel": channel, "team": testTeam, "event_ts": ts,
	}
	if threadTS != "" {
		ev["thread_ts"] = threadTS
	}
	b, err := json.Marshal(map[string]any{"type": "event_callback", "team_id": testTeam, "event_id": eventID, "event": ev})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// visible replays the successful chat calls into what a channel shows:
// message ts → its text and blocks.
func visible(calls []apiCall) map[string]string {
	shown := map[string]string{}
	for _, c := range calls {
		if c.Failed {
			continue
		}
		switch c.Method {
		case "chat.postMessage", "chat.update":
			shown[c.TS] = c.Form.Get("text") + "\n" + c.Form.Get("blocks")
		case "chat.delete":
			delete(shown, c.TS)
		}
	}
	return shown
}

type outboxEnv struct {
	*testEnv
	queue    outbox.Queue
	registry *prometheus.Registry
}

func newOutboxEnv(t *testing.T, b *fakeBot, deadline time.Duration) *outboxEnv {
	t.Helper()
	db, err := disk.Open(filepath.Join(t.TempDir(), "outbox.db"), disk.Options{})
	if err != nil {
		t.Fatal(err)
	}
	q, err := db.Queue("slack")
	if err != nil {
		t.Fatal(err)
	}
	reg := prometheus.NewRegistry()
	metrics, err := outbox.NewMetrics(reg)
	if err != nil {
		t.Fatal(err)
	}
	env := newTestEnv(t, b, func(c *Config) {
		c.Outbox, c.OutboxMetrics, c.DeliveryBackoff, c.DeliveryDeadline = q, metrics, 5*time.Millisecond, deadline
		c.Workers = 32 // every held answer has a worker, so every placeholder is posted
	})
	t.Cleanup(func() { db.Close() }) // after the adapter's Shutdown (cleanups run last-in first-out)
	return &outboxEnv{testEnv: env, queue: q, registry: reg}
}

func (e *outboxEnv) pending(t *testing.T) int {
	t.Helper()
	n, err := e.queue.(outbox.Counter).Len(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func (e *outboxEnv) waitPending(t *testing.T, what string, cond func(n int) bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond(e.pending(t)) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s; %d pending", what, e.pending(t))
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestOutageLosesNoAnswer: with every chat call failing (500) while
// answers are made, nothing is lost: after Slack recovers each answer is
// shown exactly once, in its thread, in the order answered, and in place of
// its placeholder when one was posted.
func TestOutageLosesNoAnswer(t *testing.T) {
	tests := []struct {
		name string
		// placeholders: Slack is up when the mentions arrive (placeholders
		// are posted) and goes down before the answers are ready.
		placeholders    bool
		threads, rounds int
	}{
		{name: "down from the first event, several answers per thread", threads: 8, rounds: 3},
		{name: "down after the placeholders were posted", placeholders: true, threads: 24, rounds: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := newFakeBot()
			if tt.placeholders {
				b.hold = make(chan struct{})
			}
			env := newOutboxEnv(t, b, time.Hour)
			if !tt.placeholders {
				env.slack.setDown(true)
			}
			threadOf := map[string]string{}
			var order []string // event ids in the order answered
			for r := range tt.rounds {
				for th := range tt.threads {
					thread := fmt.Sprintf("1700000%03d.000100", th)
					ts := thread
					if r > 0 {
						ts = fmt.Sprintf("1700000%03d.%06d", th, 200+r)
					}
					id := fmt.Sprintf("EvT%02dR%d", th, r)
					threadOf[id] = thread
					order = append(order, id)
					if status, _ := env.post(t, "/slack/events", mentionEvent(t, id, testChannel, thread, ts), nil); status != 200 {
						t.Fatalf("ack %d", status)
					}
				}
				if !tt.placeholders {
					// Each round is queued before the next is asked, so
					// each thread's order is known.
					want := (r + 1) * tt.threads
					env.waitPending(t, "the round's answers queued", func(n int) bool { return n == want })
				}
			}
			if tt.placeholders {
				env.slack.waitFor(t, "every placeholder", func(c []apiCall) bool { return count(c, "chat.postMessage") == tt.threads })
				env.slack.setDown(true)
				close(b.hold)
				env.waitPending(t, "every answer queued", func(n int) bool { return n == tt.threads })
			}
			// The outage lasts until attempts have failed.
			env.slack.waitFor(t, "failed attempts", func(c []apiCall) bool {
				failed := 0
				for _, x := range c {
					if x.Failed {
						failed++
					}
				}
				return failed >= 20
			})
			env.slack.setDown(false)
			env.waitPending(t, "every answer delivered", func(n int) bool { return n == 0 })
			env.drain(t)

			calls := env.slack.all()
			shown := visible(calls)
			placeholderTS := map[string]string{} // thread → its placeholder
			for _, c := range calls {
				if c.Method == "chat.postMessage" && !c.Failed && strings.Contains(c.Form.Get("text"), notice.Searching) {
					placeholderTS[c.Form.Get("thread_ts")] = c.TS
				}
			}
			for _, id := range order {
				var where []string
				for ts, text := range shown {
					if strings.Contains(text, "ans-"+id) {
						where = append(where, ts)
					}
				}
				if len(where) != 1 {
					t.Errorf("%s shown %d times, want once", id, len(where))
					continue
				}
				if tt.placeholders && where[0] != placeholderTS[threadOf[id]] {
					t.Errorf("%s posted as %s instead of replacing its placeholder %s", id, where[0], placeholderTS[threadOf[id]])
				}
			}
			for ts, text := range shown {
				if strings.Contains(text, notice.Searching) {
					t.Errorf("placeholder %s still shown", ts)
				}
				if strings.Contains(text, "could not deliver") {
					t.Errorf("a could-not-deliver notice was shown")
				}
			}
			// Order within each thread: the successful deliveries of a
			// thread's answers follow the order they were answered.
			delivered := map[string][]string{}
			for _, c := range calls {
				if c.Failed || (c.Method != "chat.postMessage" && c.Method != "chat.update") {
					continue
				}
				for _, id := range order {
					if strings.Contains(c.Form.Get("blocks"), "ans-"+id) {
						delivered[threadOf[id]] = append(delivered[threadOf[id]], id)
					}
				}
			}
			for _, id := range order {
				got := delivered[threadOf[id]]
				if len(got) == 0 || got[0] != id {
					t.Errorf("thread %s: delivered %v, expected %s next", threadOf[id], got, id)
					continue
				}
				delivered[threadOf[id]] = got[1:]
			}
			if n := testutil.ToFloat64(env.registryCounter(t, "cew_outbox_undelivered_total")); n != 0 {
				t.Errorf("undelivered = %v", n)
			}
		})
	}
}

// registryCounter sums a counter family of the env's registry.
func (e *outboxEnv) registryCounter(t *testing.T, name string) prometheus.Collector {
	t.Helper()
	total := 0.0
	mfs, err := e.registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() == name {
			for _, m := range mf.GetMetric() {
				total += m.GetCounter().GetValue()
			}
		}
	}
	c := prometheus.NewCounter(prometheus.CounterOpts{Name: "sum"})
	c.Add(total)
	return c
}

// TestDeliveryDeadline: an answer still failing at its deadline is given
// up: counted by reason, and the user is told (where Slack takes it) in
// place of the placeholder.
func TestDeliveryDeadline(t *testing.T) {
	b := newFakeBot()
	b.hold = make(chan struct{})
	env := newOutboxEnv(t, b, 100*time.Millisecond)
	env.post(t, "/slack/events", mentionEvent(t, "EvLate", testChannel, "", "1700000999.000100"), nil)
	env.slack.waitFor(t, "the placeholder", func(c []apiCall) bool { return count(c, "chat.postMessage") == 1 })
	placeholder := env.slack.all("chat.postMessage")[0].TS
	// Only the answer fails: Slack refuses any update carrying it.
	env.slack.setDown(true)
	close(b.hold)
	env.waitPending(t, "the answer given up", func(n int) bool {
		return testutil.ToFloat64(env.registryCounter(t, "cew_outbox_undelivered_total")) == 1
	})
	env.slack.setDown(false)
	env.drain(t)
	var notified bool
	for _, c := range env.slack.all("chat.update") {
		if c.TS == placeholder || c.Form.Get("ts") == placeholder {
			if strings.Contains(c.Form.Get("text"), "could not deliver") && strings.Contains(c.Form.Get("text"), "EvLate") {
				notified = true
			}
		}
	}
	if !notified {
		t.Errorf("no could-not-deliver notice was tried in place of the placeholder: %s", describe(env.slack.all()))
	}
	if n := env.pending(t); n != 0 {
		t.Errorf("%d left in the outbox", n)
	}
	mfs, _ := env.registry.Gather()
	for _, mf := range mfs {
		if mf.GetName() == "cew_outbox_undelivered_total" {
			for _, m := range mf.GetMetric() {
				for _, l := range m.GetLabel() {
					if l.GetName() == "reason" && l.GetValue() != outbox.ReasonDeadline {
						t.Errorf("reason %s", l.GetValue())
					}
				}
			}
		}
	}
}

// TestStoredDeliveryRoundTrip: what the outbox stores renders exactly the
// blocks the adapter rendered, for every golden answer.
func TestStoredDeliveryRoundTrip(t *testing.T) {
	for _, tc := range renderCases() {
		t.Run(tc.name, func(t *testing.T) {
			m := answerMessage(tc.ans, renderOptions{shareValue: "{}"})
			d, err := newDelivery(deliverThread, m)
			if err != nil {
				t.Fatal(err)
			}
			raw, _ := json.Marshal(d)
			var back delivery
			if err := json.Unmarshal(raw, &back); err != nil {
				t.Fatal(err)
			}
			got, err := back.message()
			if err != nil {
				t.Fatal(err)
			}
			want, _ := json.Marshal(m.blocks)
			have, _ := json.Marshal(got.blocks)
			if string(want) != string(have) || got.text != m.text {
				t.Errorf("round trip changed the message:\nwant %s\ngot  %s", want, have)
			}
		})
	}
}

// TestPrivateAnswerSurvivesOutage: a /cew answer whose response_url fails
// (500) is kept and shown once, privately, when it recovers.
func TestPrivateAnswerSurvivesOutage(t *testing.T) {
	var (
		down     atomic.Bool
		mu       sync.Mutex
		received []string
		failures atomic.Int32
	)
	down.Store(true)
	sink := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if down.Load() {
			failures.Add(1)
			w.WriteHeader(http.StatusInternalServerError)
			return
		}
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		received = append(received, string(body))
		mu.Unlock()
	}))
	defer sink.Close()
	env := newOutboxEnv(t, newFakeBot(), time.Hour)
	env.post(t, "/slack/commands", commandBody(t, "commands/question.form", sink.URL, nil), nil)
	env.waitPending(t, "the answer queued", func(n int) bool { return n == 1 })
	for failures.Load() < 3 {
		time.Sleep(5 * time.Millisecond)
	}
	down.Store(false)
	env.waitPending(t, "the answer delivered", func(n int) bool { return n == 0 })
	env.drain(t)
	mu.Lock()
	defer mu.Unlock()
	if len(received) != 1 || !strings.Contains(received[0], `"response_type":"ephemeral"`) || !strings.Contains(received[0], "800 mm") {
		t.Fatalf("response_url received %d posts: %v", len(received), received)
	}
	if calls := env.slack.all("chat.postEphemeral", "chat.postMessage"); len(calls) != 0 {
		t.Errorf("also sent through the Web API: %s", describe(calls))
	}
}
