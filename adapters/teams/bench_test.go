package teams

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"
)

// BenchmarkActivityAck sends bursts of 200 concurrent authenticated
// activities and reports the acknowledgement latency (token check,
// reading, de-duplication, queueing) at p50 and p99, measured in the
// handler (ack) and at the client (rtt).
func BenchmarkActivityAck(b *testing.B) {
	const burst = 200
	env := newTestEnv(b, func(c *Config) { c.Workers, c.QueueSize = DefaultWorkers, 4*burst })
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
	token := mint(b, env.key, env.connector.url(), nil)
	// Warm up: the signing keys are fetched once, on the first activity.
	if code, _ := env.postWith(b, env.activity("warm-up", "personal", "help"), token); code != http.StatusOK {
		b.Fatalf("warm-up status %d", code)
	}
	mu.Lock()
	ack = ack[:0]
	mu.Unlock()
	var rtt []time.Duration
	n := 0
	for b.Loop() {
		bodies := make([][]byte, burst)
		for i := range bodies {
			act := env.activity(fmt.Sprintf("bench-%d", n), "personal", "What is the minimum trench depth for DC cables?")
			n++
			bodies[i], _ = json.Marshal(act)
		}
		times := make([]time.Duration, burst)
		var wg sync.WaitGroup
		for i := range burst {
			wg.Go(func() {
				req, _ := http.NewRequest(http.MethodPost, env.srv.URL+"/api/messages", bytes.NewReader(bodies[i]))
				req.Header.Set("Authorization", token)
				start := time.Now()
				resp, err := client.Do(req)
				times[i] = time.Since(start)
				if err != nil {
					b.Error(err)
					return
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					b.Errorf("status %d", resp.StatusCode)
				}
			})
		}
		wg.Wait()
		rtt = append(rtt, times...)
	}
	b.StopTimer()
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
	b.ReportMetric(float64(len(rtt)), "activities")
}
