package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// soakSlack is a Slack Web API stand-in that keeps what a channel shows
// (messages by ts, per thread) and can be switched into an outage in which
// every chat call answers 500.
type soakSlack struct {
	srv  *httptest.Server
	down atomic.Bool

	mu       sync.Mutex
	next     int
	messages map[string]soakMessage // ts → message
	calls    atomic.Int64
	failed   atomic.Int64
}

type soakMessage struct {
	thread string
	text   string
}

func newSoakSlack() *soakSlack {
	s := &soakSlack{messages: map[string]soakMessage{}}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		method := strings.TrimPrefix(r.URL.Path, "/")
		w.Header().Set("Content-Type", "application/json")
		if method == "auth.test" {
			fmt.Fprint(w, `{"ok":true,"team":"Project","user":"cew","team_id":"T1","user_id":"UCEW","bot_id":"BCEW"}`)
			return
		}
		s.calls.Add(1)
		if s.down.Load() {
			s.failed.Add(1)
			w.WriteHeader(http.StatusInternalServerError)
			return
		}
		f := r.PostForm
		s.mu.Lock()
		defer s.mu.Unlock()
		ts := f.Get("ts")
		switch method {
		case "chat.postMessage":
			s.next++
			ts = fmt.Sprintf("1800000000.%06d", s.next)
			s.messages[ts] = soakMessage{thread: f.Get("thread_ts"), text: f.Get("text")}
		case "chat.update":
			m, ok := s.messages[ts]
			if !ok {
				fmt.Fprint(w, `{"ok":false,"error":"message_not_found"}`)
				return
			}
			m.text = f.Get("text")
			s.messages[ts] = m
		case "chat.delete":
			if _, ok := s.messages[ts]; !ok {
				fmt.Fprint(w, `{"ok":false,"error":"message_not_found"}`)
				return
			}
			delete(s.messages, ts)
		}
		fmt.Fprintf(w, `{"ok":true,"channel":%q,"ts":%q}`, f.Get("channel"), ts)
	}))
	return s
}

// shown counts, per thread, the replies (anything but the placeholder),
// the busy notices among them, and the placeholders a channel shows.
func (s *soakSlack) shown() (answers, busy, placeholders map[string]int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	answers, busy, placeholders = map[string]int{}, map[string]int{}, map[string]int{}
	for ts, m := range s.messages {
		thread := m.thread
		if thread == "" {
			thread = ts
		}
		switch {
		case strings.Contains(m.text, "Searching the documents"):
			placeholders[thread]++
		case strings.Contains(m.text, "is busy answering"):
			busy[thread]++
			answers[thread]++
		default:
			answers[thread]++
		}
	}
	return answers, busy, placeholders
}

// redisProcess is a redis-server this benchmark starts, kills and
// restarts, with append-only persistence as deploy/ configures it.
type redisProcess struct {
	port int
	dir  string
	cmd  *exec.Cmd
}

func (r *redisProcess) start(b *testing.B) {
	b.Helper()
	r.cmd = exec.Command("redis-server", "--bind", "127.0.0.1", "--port", strconv.Itoa(r.port), "--save", "",
		"--appendonly", "yes", "--appendfsync", "everysec", "--dir", r.dir)
	if err := r.cmd.Start(); err != nil {
		b.Fatal(err)
	}
	for range 200 {
		c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", r.port))
		if err == nil {
			c.Close()
			return
		}
		time.Sleep(25 * time.Millisecond)
	}
	b.Fatal("redis-server did not start")
}

// kill is a crash: SIGKILL, no shutdown save.
func (r *redisProcess) kill() {
	_ = r.cmd.Process.Kill()
	_ = r.cmd.Wait()
}

func rssMB() float64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(data), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmRSS:" {
			kb, _ := strconv.ParseFloat(f[1], 64)
			return kb / 1024
		}
	}
	return 0
}

// BenchmarkSoak sends 10,000 signed mentions at 100/s to cew serve (Redis
// for the cache and the outbox) while Slack answers 500 to every chat call
// for 60 s and Redis is killed (SIGKILL) and restarted in the middle of that
// outage; it reports answers lost and duplicated (target 0 and 0), the ack
// latency, how long after Slack's recovery every answer was shown, and
// goroutines and RSS before and after. redis-server must be installed.
//
//	CEW_BENCH_FULL=1 go test -run '^$' -bench Soak -benchtime 1x -timeout 30m ./cmd/cew
//
// Without CEW_BENCH_FULL: 1,000 mentions, a 6 s outage.
func BenchmarkSoak(b *testing.B) {
	if _, err := exec.LookPath("redis-server"); err != nil {
		b.Skip("redis-server is not installed (scripts/redis-test-server.sh installs it)")
	}
	events, rate, outageStart, outage := 1_000, 100, 3*time.Second, 6*time.Second
	if fullScale() {
		events, outageStart, outage = 10_000, 30*time.Second, 60*time.Second
	}
	for b.Loop() {
		soakOnce(b, events, rate, outageStart, outage)
	}
}

func soakOnce(b *testing.B, events, rate int, outageStart, outage time.Duration) {
	dataDir, docs := b.TempDir(), b.TempDir()
	spec := "# 4.2 Cable trenches\n\nThe minimum trench depth for DC cables is 800 mm from finished ground level.\n\nAC cables are laid at 1000 mm.\n"
	if err := os.WriteFile(filepath.Join(docs, "277-007-D-C-40327 Rev 03 Trenches.md"), []byte(spec), 0o644); err != nil {
		b.Fatal(err)
	}
	slack := newSoakSlack()
	defer slack.srv.Close()
	l, _ := net.Listen("tcp", "127.0.0.1:0")
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	redis := &redisProcess{port: port, dir: b.TempDir()}
	redis.start(b)
	defer redis.kill()

	addr := freeAddr(b)
	env := map[string]string{
		"CEW_DATA_DIR": dataDir, "CEW_ADDR": addr, "CEW_EMBED": "none", "CEW_LOG_LEVEL": "error",
		"CEW_REDIS_URL": fmt.Sprintf("redis://127.0.0.1:%d/0", port), "SLACK_BOT_TOKEN": testBotToken,
		"SLACK_SIGNING_SECRET": testSigningSecret, "CEW_SLACK_API_URL": slack.srv.URL + "/",
		"CEW_RATE_LIMIT_USER": "1000000", "CEW_RATE_LIMIT_TENANT": "1000000", "CEW_SLACK_WORKERS": "16",
	}
	run := runWith(env)
	if out, err := run(context.Background(), "ingest", docs); err != nil {
		b.Fatalf("ingest: %v\n%s", err, out)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	var logs string
	go func() {
		var err error
		logs, err = run(ctx, "serve")
		served <- err
	}()
	base := "http://" + addr
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	for deadline := time.Now().Add(30 * time.Second); ; {
		resp, err := client.Get(base + "/healthz")
		if err == nil {
			resp.Body.Close()
			break
		}
		if time.Now().After(deadline) {
			b.Fatal("serve did not start")
		}
		time.Sleep(20 * time.Millisecond)
	}
	questions := []string{"What is the minimum trench depth for DC cables?", "How deep are AC cables laid?", "trench depth for DC cables"}
	send := func(i int) time.Duration {
		thread := fmt.Sprintf("1700000000.%06d", i)
		body := fmt.Sprintf(`{"type":"event_callback","team_id":"T1","event_id":"EvSoak%06d","event":{"type":"app_mention","user":"U%05d","text":"<@UCEW> %s","ts":%q,"channel":"C1","event_ts":%q}}`,
			i, i%500, questions[i%len(questions)], thread, thread)
		start := time.Now()
		resp, err := client.Do(signedEvent(b, base, []byte(body), testSigningSecret, 0))
		ack := time.Since(start)
		if err != nil {
			b.Errorf("event %d: %v", i, err)
			return ack
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			b.Errorf("event %d: status %d", i, resp.StatusCode)
		}
		return ack
	}
	// Warm-up, then the baseline.
	for i := range 50 {
		send(events + i)
	}
	time.Sleep(2 * time.Second)
	runtime.GC()
	debug.FreeOSMemory()
	goroutinesBefore, rssBefore := runtime.NumGoroutine(), rssMB()

	var (
		acks      []time.Duration
		acksMu    sync.Mutex
		wg        sync.WaitGroup
		recovered time.Time
	)
	start := time.Now()
	go func() {
		time.Sleep(outageStart)
		slack.down.Store(true)
		time.Sleep(outage / 2)
		redis.kill() // Redis crashes in the middle of the outage…
		time.Sleep(outage / 12)
		redis.start(b) // …and comes back with what it had written to its log.
		time.Sleep(outage/2 - outage/12)
		slack.down.Store(false)
		recovered = time.Now()
	}()
	tick := time.NewTicker(time.Second / time.Duration(rate))
	for i := range events {
		<-tick.C
		wg.Add(1)
		go func() {
			defer wg.Done()
			d := send(i)
			acksMu.Lock()
			acks = append(acks, d)
			acksMu.Unlock()
		}()
	}
	tick.Stop()
	wg.Wait()
	sent := time.Since(start)
	for time.Now().Before(start.Add(outageStart + outage + time.Second)) {
		time.Sleep(100 * time.Millisecond)
	}
	var all time.Time
	deadline := time.Now().Add(15 * time.Minute)
	for {
		answers, _, _ := slack.shown()
		done := 0
		for i := range events {
			if answers[fmt.Sprintf("1700000000.%06d", i)] > 0 {
				done++
			}
		}
		if done == events {
			all = time.Now()
			break
		}
		if time.Now().After(deadline) {
			b.Errorf("%d of %d answers shown after 15 min", done, events)
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	answers, busy, placeholders := slack.shown()
	lost, duplicated, stale := 0, 0, 0
	for i := range events {
		thread := fmt.Sprintf("1700000000.%06d", i)
		switch n := answers[thread]; {
		case n == 0:
			lost++
		case n > 1:
			duplicated += n - 1
		}
		stale += placeholders[thread]
	}
	// Idle, then what is left running.
	time.Sleep(10 * time.Second)
	client.CloseIdleConnections()
	runtime.GC()
	debug.FreeOSMemory()
	goroutinesAfter, rssAfter := runtime.NumGoroutine(), rssMB()
	cancel()
	if err := <-served; err != nil {
		b.Errorf("serve: %v\n%s", err, logs)
	}
	slices.Sort(acks)
	p := func(q float64) time.Duration { return acks[min(len(acks)-1, int(q*float64(len(acks))))] }
	b.ReportMetric(float64(lost), "lost")
	b.ReportMetric(float64(duplicated), "duplicated")
	b.ReportMetric(float64(stale), "placeholders-left")
	b.ReportMetric(float64(len(busy)), "busy-notices")
	b.ReportMetric(float64(p(0.99).Microseconds())/1000, "ack-p99-ms")
	if !recovered.IsZero() && !all.IsZero() {
		b.ReportMetric(all.Sub(recovered).Seconds(), "s-to-deliver-after-recovery")
	}
	b.ReportMetric(float64(goroutinesAfter-goroutinesBefore), "goroutines-added")
	b.ReportMetric(rssAfter-rssBefore, "RSS-MB-added")
	b.Logf("%d events in %.1f s (%d/s), Slack down %v from +%v, Redis SIGKILLed and restarted mid-outage; Slack calls %d (%d failed)",
		events, sent.Seconds(), rate, outage, outageStart, slack.calls.Load(), slack.failed.Load())
	b.Logf("lost %d, duplicated %d, placeholders left %d, busy notices instead of answers %d; ack p50 %v p99 %v max %v; goroutines %d → %d; RSS %.0f → %.0f MB",
		lost, duplicated, stale, len(busy), p(0.5), p(0.99), acks[len(acks)-1], goroutinesBefore, goroutinesAfter, rssBefore, rssAfter)
	if lost != 0 || duplicated != 0 {
		b.Errorf("lost %d, duplicated %d", lost, duplicated)
	}
}
