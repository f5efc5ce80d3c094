package outbox_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/cewhq/cew/outbox"
	"github.com/cewhq/cew/outbox/disk"
)

// platform is a scripted chat platform: fail decides each attempt's fate;
// what it accepted is recorded in order.
type platform struct {
	mu        sync.Mutex
	fail      func(m *outbox.Message, call int) error
	calls     int
	delivered []outbox.Message
	changed   chan struct{}
}

func newPlatform(fail func(m *outbox.Message, call int) error) *platform {
	return &platform{fail: fail, changed: make(chan struct{}, 1)}
}

func (p *platform) Send(_ context.Context, m *outbox.Message) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.calls++
	if p.fail != nil {
		if err := p.fail(m, p.calls); err != nil {
			return err
		}
	}
	p.delivered = append(p.delivered, *m)
	select {
	case p.changed <- struct{}{}:
	default:
	}
	return nil
}

func (p *platform) got() []outbox.Message {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]outbox.Message(nil), p.delivered...)
}

// until waits for cond; the deadline only stops a broken test.
func until(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

var errServer = errors.New("chat.postMessage answered 500")

type fixture struct {
	box      *outbox.Outbox
	queue    outbox.Queue
	path     string
	db       *disk.DB
	mu       sync.Mutex
	givenUp  map[string]string
	registry *prometheus.Registry
}

func newOutbox(t *testing.T, p outbox.Sender, tweak func(*outbox.Config)) *fixture {
	t.Helper()
	f := &fixture{path: filepath.Join(t.TempDir(), "outbox.db"), givenUp: map[string]string{}, registry: prometheus.NewRegistry()}
	f.open(t, p, tweak)
	return f
}

func (f *fixture) open(t *testing.T, p outbox.Sender, tweak func(*outbox.Config)) {
	t.Helper()
	db, err := disk.Open(f.path, disk.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	q, err := db.Queue("slack")
	if err != nil {
		t.Fatal(err)
	}
	metrics, err := outbox.NewMetrics(prometheus.NewRegistry())
	if f.box == nil {
		metrics, err = outbox.NewMetrics(f.registry)
	}
	if err != nil {
		t.Fatal(err)
	}
	cfg := outbox.Config{
		Queue: q, Sender: p, Platform: "slack", Initial: 5 * time.Millisecond, Max: 20 * time.Millisecond,
		Poll: 5 * time.Millisecond, Metrics: metrics,
		GiveUp: func(_ context.Context, m outbox.Message, reason string) {
			f.mu.Lock()
			f.givenUp[m.ID] = reason
			f.mu.Unlock()
		},
	}
	if tweak != nil {
		tweak(&cfg)
	}
	box, err := outbox.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	box.Start()
	t.Cleanup(func() { _ = box.Shutdown(context.Background()) })
	f.box, f.queue, f.db = box, q, db
}

func (f *fixture) stop(t *testing.T) {
	t.Helper()
	if err := f.box.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := f.db.Close(); err != nil {
		t.Fatal(err)
	}
}

func (f *fixture) gaveUp() map[string]string {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := map[string]string{}
	for k, v := range f.givenUp {
		out[k] = v
	}
	return out
}

func enqueue(t *testing.T, box *outbox.Outbox, keys, per int) {
	t.Helper()
	for n := range per {
		for k := range keys {
			id := fmt.Sprintf("K%d-%02d", k, n)
			if err := box.Enqueue(context.Background(), id, fmt.Sprintf("K%d", k), map[string]string{"text": id}); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// checkOnceInOrder: every reply delivered exactly once, each
// conversation's in the order pushed.
func checkOnceInOrder(t *testing.T, got []outbox.Message, keys, per int) {
	t.Helper()
	byKey := map[string][]string{}
	seen := map[string]int{}
	for _, m := range got {
		byKey[m.Key] = append(byKey[m.Key], m.ID)
		seen[m.ID]++
	}
	for id, n := range seen {
		if n != 1 {
			t.Errorf("%s delivered %d times", id, n)
		}
	}
	for k := range keys {
		key := fmt.Sprintf("K%d", k)
		if len(byKey[key]) != per {
			t.Errorf("%s: %d of %d delivered", key, len(byKey[key]), per)
			continue
		}
		for n, id := range byKey[key] {
			if want := fmt.Sprintf("%s-%02d", key, n); id != want {
				t.Errorf("%s: reply %d was %s, want %s (order)", key, n, id, want)
			}
		}
	}
}

// TestOutageThenRecovery: the platform fails every call for a while; every
// reply is delivered once, in order, after it recovers.
func TestOutageThenRecovery(t *testing.T) {
	tests := []struct {
		name string
		fail func(m *outbox.Message, call int) error
	}{
		{name: "server errors for the first 40 calls", fail: func(_ *outbox.Message, call int) error {
			if call <= 40 {
				return errServer
			}
			return nil
		}},
		{name: "rate limited every other call", fail: func(_ *outbox.Message, call int) error {
			if call%2 == 0 {
				return outbox.RetryAfter(errors.New("429"), 3*time.Millisecond)
			}
			return nil
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newPlatform(tt.fail)
			f := newOutbox(t, p, nil)
			const keys, per = 5, 10
			enqueue(t, f.box, keys, per)
			until(t, "every reply", func() bool { return len(p.got()) >= keys*per })
			f.stop(t)
			checkOnceInOrder(t, p.got(), keys, per)
			if g := f.gaveUp(); len(g) != 0 {
				t.Errorf("gave up: %v", g)
			}
			if n := testutil.ToFloat64(metric(t, f.registry, "cew_outbox_delivered_total")); n != keys*per {
				t.Errorf("delivered metric = %v", n)
			}
		})
	}
}

func metric(t *testing.T, reg *prometheus.Registry, name string) prometheus.Collector {
	t.Helper()
	return collectorFunc(func(ch chan<- prometheus.Metric) {
		mfs, err := reg.Gather()
		if err != nil {
			t.Fatal(err)
		}
		for _, mf := range mfs {
			if mf.GetName() != name {
				continue
			}
			total := 0.0
			for _, m := range mf.GetMetric() {
				total += m.GetCounter().GetValue()
			}
			ch <- prometheus.MustNewConstMetric(prometheus.NewDesc(name, "sum", nil, nil), prometheus.CounterValue, total)
		}
	})
}

type collectorFunc func(ch chan<- prometheus.Metric)

func (c collectorFunc) Describe(chan<- *prometheus.Desc)    {}
func (c collectorFunc) Collect(ch chan<- prometheus.Metric) { c(ch) }

// TestGiveUp: a reply still failing at its deadline, or refused for good,
// is given up once, with its reason, and leaves the queue.
func TestGiveUp(t *testing.T) {
	tests := []struct {
		name       string
		fail       error
		wantReason string
		maxCalls   int
	}{
		{name: "deadline", fail: errServer, wantReason: outbox.ReasonDeadline},
		{name: "refused", fail: outbox.Permanent(errors.New("channel_not_found")), wantReason: outbox.ReasonRejected, maxCalls: 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newPlatform(func(*outbox.Message, int) error { return tt.fail })
			f := newOutbox(t, p, func(c *outbox.Config) { c.Deadline = 150 * time.Millisecond })
			enqueue(t, f.box, 3, 1)
			until(t, "three given up", func() bool { return len(f.gaveUp()) == 3 })
			f.stop(t)
			for id, reason := range f.gaveUp() {
				if reason != tt.wantReason {
					t.Errorf("%s given up for %s, want %s", id, reason, tt.wantReason)
				}
			}
			if tt.maxCalls > 0 && p.calls > tt.maxCalls {
				t.Errorf("%d attempts at replies refused for good", p.calls)
			}
			if n, _ := f.queue.(outbox.Counter).Len(context.Background()); n != 0 {
				t.Errorf("%d left in the queue", n)
			}
			if n := testutil.ToFloat64(metric(t, f.registry, "cew_outbox_undelivered_total")); n != 3 {
				t.Errorf("undelivered metric = %v, want 3", n)
			}
		})
	}
}

// TestRetryAfterHonoured: a rate limit's wait is the retry time stored.
func TestRetryAfterHonoured(t *testing.T) {
	now := time.Date(2026, 8, 21, 9, 0, 0, 0, time.UTC)
	p := newPlatform(func(*outbox.Message, int) error { return outbox.RetryAfter(errors.New("429"), time.Hour) })
	f := newOutbox(t, p, func(c *outbox.Config) { c.Now = func() time.Time { return now }; c.Deadline = 2 * time.Hour })
	enqueue(t, f.box, 1, 1)
	until(t, "the first attempt", func() bool {
		p.mu.Lock()
		defer p.mu.Unlock()
		return p.calls == 1
	})
	f.stop(t)
	f.open(t, p, func(c *outbox.Config) { c.Now = func() time.Time { return now } }) // a restarted process
	f.box.Shutdown(context.Background())
	for _, at := range []struct {
		offset time.Duration
		want   int
	}{{59 * time.Minute, 0}, {61 * time.Minute, 1}} {
		msgs, err := f.queue.Claim(context.Background(), now.Add(at.offset), time.Second, 10)
		if err != nil || len(msgs) != at.want {
			t.Errorf("at +%v: %d claimed (%v), want %d", at.offset, len(msgs), err, at.want)
		}
	}
}

// TestRestartDeliversWhatWasQueued: replies queued when the process stops
// are delivered by the next one, with the payload a failed attempt left.
func TestRestartDeliversWhatWasQueued(t *testing.T) {
	down := newPlatform(func(m *outbox.Message, _ int) error {
		var p map[string]any
		_ = json.Unmarshal(m.Payload, &p)
		p["placeholder_gone"] = true
		m.Payload, _ = json.Marshal(p)
		return errServer
	})
	f := newOutbox(t, down, nil)
	enqueue(t, f.box, 2, 3)
	until(t, "attempts", func() bool {
		down.mu.Lock()
		defer down.mu.Unlock()
		return down.calls >= 2
	})
	f.stop(t)

	up := newPlatform(nil)
	f.open(t, up, nil)
	until(t, "every reply", func() bool { return len(up.got()) >= 6 })
	f.stop(t)
	checkOnceInOrder(t, up.got(), 2, 3)
	rewritten := 0
	for _, m := range up.got() {
		if string(m.Payload) != fmt.Sprintf(`{"text":%q}`, m.ID) {
			rewritten++
		}
	}
	if rewritten == 0 {
		t.Errorf("no reply kept the payload its failed attempt rewrote")
	}
}

// brokenQueue is a queue that is down (Redis killed).
type brokenQueue struct{}

var errDown = errors.New("redis: connection refused")

func (brokenQueue) Push(context.Context, outbox.Message) error { return errDown }
func (brokenQueue) Claim(context.Context, time.Time, time.Duration, int) ([]outbox.Message, error) {
	return nil, errDown
}
func (brokenQueue) Settle(context.Context, outbox.Message, time.Time) error { return errDown }

// TestFallbackWhilePrimaryIsDown: with Redis down, replies go to the data
// directory and are delivered from there.
func TestFallbackWhilePrimaryIsDown(t *testing.T) {
	p := newPlatform(nil)
	f := newOutbox(t, p, nil)
	f.box.Shutdown(context.Background())
	box, err := outbox.New(outbox.Config{Queue: outbox.Fallback(brokenQueue{}, f.queue), Sender: p, Platform: "slack", Poll: 5 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	box.Start()
	defer box.Shutdown(context.Background())
	enqueue(t, box, 3, 4)
	until(t, "every reply", func() bool { return len(p.got()) >= 12 })
	checkOnceInOrder(t, p.got(), 3, 4)
	if err := outbox.Fallback(brokenQueue{}, brokenQueue{}).Push(context.Background(), outbox.Message{ID: "x"}); !errors.Is(err, errDown) {
		t.Errorf("both queues down: %v", err)
	}
}
