package slack

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"runtime"
	"runtime/pprof"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cewhq/cew/adapters/internal/notice"
	"github.com/prometheus/client_golang/prometheus"
)

// loadEvent builds the i-th event of a mixed load: mentions, DMs, bot
// messages (ignored) and redeliveries of an earlier event (dropped).
func loadEvent(i int) (body []byte, retry bool, answerable bool) {
	switch i % 10 {
	case 0, 1, 2, 3:
		return []byte(fmt.Sprintf(`{"type":"event_callback","team_id":%q,"event_id":"EvM%d","event":{"type":"app_mention","user":%q,"text":"<@%s> trench depth %d?","ts":"1700000000.%06d","channel":%q}}`,
			testTeam, i, testUser, testBotUser, i, i, testChannel)), false, true
	case 4, 5, 6:
		return []byte(fmt.Sprintf(`{"type":"event_callback","team_id":%q,"event_id":"EvD%d","event":{"type":"message","channel_type":"im","user":%q,"text":"cable size %d?","ts":"1700000001.%06d","channel":"D0PNCRP9N"}}`,
			testTeam, i, testUser, i, i)), false, true
	case 7, 8:
		return []byte(fmt.Sprintf(`{"type":"event_callback","team_id":%q,"event_id":"EvB%d","event":{"type":"message","subtype":"bot_message","bot_id":"B0REGSYNC1","text":"sync %d","ts":"1700000002.%06d","channel":%q,"channel_type":"channel"}}`,
			testTeam, i, i, i, testChannel)), false, false
	}
	prev := i - 9 // a mention sent earlier
	return []byte(fmt.Sprintf(`{"type":"event_callback","team_id":%q,"event_id":"EvM%d","event":{"type":"app_mention","user":%q,"text":"<@%s> trench depth %d?","ts":"1700000000.%06d","channel":%q}}`,
		testTeam, prev, testUser, testBotUser, prev, prev, testChannel)), true, false
}

// send delivers n events from the load, conc at a time, and returns each
// request's latency up to the acknowledgement.
func send(tb testing.TB, env *testEnv, client *http.Client, first, n, conc int, gen func(int) ([]byte, bool, bool)) []time.Duration {
	tb.Helper()
	lat := make([]time.Duration, n)
	var next atomic.Int64
	var failed atomic.Int64
	var wg sync.WaitGroup
	for range conc {
		wg.Go(func() {
			for {
				k := int(next.Add(1)) - 1
				if k >= n {
					return
				}
				body, retry, _ := gen(first + k)
				req := signedRequest(tb, env.srv.URL, "/slack/events", "application/json", body, testSecret, testNow)
				if retry {
					req.Header.Set(headerRetryNum, "1")
				}
				start := time.Now()
				resp, err := client.Do(req)
				lat[k] = time.Since(start)
				if err != nil || resp.StatusCode != http.StatusOK {
					failed.Add(1)
				}
				if resp != nil {
					resp.Body.Close()
				}
			}
		})
	}
	wg.Wait()
	if f := failed.Load(); f > 0 {
		tb.Fatalf("%d of %d events not acknowledged with 200", f, n)
	}
	return lat
}

// TestNoGoroutineLeak: after 10,000 events and Shutdown, the process is back
// to the goroutines it had before the adapter existed.
func TestNoGoroutineLeak(t *testing.T) {
	const events = 10_000
	baseline := runtime.NumGoroutine()

	b := newFakeBot()
	reg := prometheus.NewRegistry()
	env := newTestEnv(t, b, func(c *Config) { c.Workers, c.QueueSize, c.Registerer = 16, DefaultQueueSize, reg })
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	send(t, env, client, 0, events, 64, loadEvent)
	env.drain(t)
	env.srv.Close()
	client.CloseIdleConnections()
	env.slack.srv.Stop()

	answerable := 0
	for i := range events {
		if _, _, ok := loadEvent(i); ok {
			answerable++
		}
	}
	// Every question is either refused as busy or answered exactly once
	// (in place of its placeholder, or as a new message when a redelivery
	// overtook the original); the feedback value names the answer.
	busy, delivered := 0, map[string]int{}
	answerID := regexp.MustCompile(`"value":"ans-(Ev[A-Z0-9]+)"`)
	for _, c := range env.slack.all("chat.postMessage", "chat.update") {
		if c.Form.Get("text") == escape(notice.Busy) {
			busy++
		}
		if m := answerID.FindStringSubmatch(c.Form.Get("blocks")); m != nil {
			delivered[m[1]]++
		}
	}
	// Under this overload some busy notices are dropped too (bounded, logged
	// and counted): the counter has every refusal.
	refused := int(counterValue(t, reg, "cew_slack_dropped_total", "reason", "busy"))
	answered := b.recorded()
	if len(answered)+refused != answerable || busy > refused {
		t.Errorf("answered %d + refused as busy %d (%d told), want %d questions", len(answered), refused, busy, answerable)
	}
	t.Logf("%d events: %d questions answered, %d refused as busy (%d told so)", events, len(answered), refused, busy)
	for _, q := range answered {
		if delivered[q.EventID] != 1 {
			t.Errorf("event %s: answer delivered %d times", q.EventID, delivered[q.EventID])
		}
	}
	if len(delivered) != len(answered) {
		t.Errorf("%d answers delivered for %d questions", len(delivered), len(answered))
	}

	// Goroutines of closed connections need a moment to notice; wait for
	// them (this bounds the wait, it measures nothing).
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > baseline && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > baseline {
		var buf bytes.Buffer
		_ = pprof.Lookup("goroutine").WriteTo(&buf, 1)
		t.Errorf("%d goroutines after Shutdown, %d before:\n%s", n, baseline, buf.String())
	}
}

// BenchmarkEventAck measures how long Slack waits for the 200 of
// /slack/events while bursts of 200 events arrive at once and the workers
// answer them (fake bot, slacktest Web API). It reports percentiles over
// every request of two latencies: "ack" is the handler's own time, from
// the request reaching it to the 200 being written; "rtt" is the client's
// round trip, which adds connection handling and the scheduling of 200
// client goroutines on the same CPUs.
func BenchmarkEventAck(b *testing.B) {
	const burst = 200
	bt := newFakeBot()
	env := newTestEnv(b, bt, func(c *Config) { c.Workers, c.QueueSize = DefaultWorkers, 4*burst })
	var (
		mu  sync.Mutex
		ack []time.Duration
	)
	mux := http.NewServeMux()
	env.a.Routes(mux)
	env.srv.Close()
	env.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		mux.ServeHTTP(w, r)
		d := time.Since(start)
		mu.Lock()
		ack = append(ack, d)
		mu.Unlock()
	}))
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: burst}}
	defer client.CloseIdleConnections()
	var rtt []time.Duration
	first := 0
	for b.Loop() {
		rtt = append(rtt, send(b, env, client, first, burst, burst, questionEvent)...)
		first += burst
	}
	env.drain(b)
	mu.Lock()
	defer mu.Unlock()
	for _, m := range []struct {
		name string
		lat  []time.Duration
	}{{"ack", ack}, {"rtt", rtt}} {
		slices.Sort(m.lat)
		pct := func(p float64) float64 { return float64(m.lat[int(p*float64(len(m.lat)-1))].Microseconds()) }
		b.ReportMetric(pct(0.50), m.name+"-p50-µs")
		b.ReportMetric(pct(0.99), m.name+"-p99-µs")
	}
	b.ReportMetric(float64(len(rtt)), "events")
}

// questionEvent is the i-th of a load of mentions and DMs only: every one
// is queued and answered.
func questionEvent(i int) ([]byte, bool, bool) {
	return loadEvent(i/7*10 + i%7)
}

// counterValue reads one counter from a registry.
func counterValue(t *testing.T, reg *prometheus.Registry, name, label, value string) float64 {
	t.Helper()
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range families {
		if f.GetName() != name {
			continue
		}
		for _, m := range f.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == label && l.GetValue() == value {
					return m.GetCounter().GetValue()
				}
			}
		}
	}
	return 0
}
