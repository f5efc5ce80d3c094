package memory_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/cewhq/cew/cache"
	"github.com/cewhq/cew/cache/cachetest"
	"github.com/cewhq/cew/cache/memory"
)

// fakeClock is the time seam the suite advances.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// clockedStore is a Store with its clock exposed to the suite. In-process
// state belongs to one process, so a replica is the same Store.
type clockedStore struct {
	*memory.Store
	*fakeClock
}

func (s clockedStore) Replica(*testing.T) cachetest.Backend { return s }

func TestConformance(t *testing.T) {
	cachetest.Run(t, func(t *testing.T) cachetest.Backend {
		clock := &fakeClock{now: time.Date(2024, 5, 1, 9, 0, 0, 0, time.UTC)}
		s := memory.New(memory.Options{Now: clock.Now, SemanticMax: cachetest.SemanticMax})
		t.Cleanup(func() { _ = s.Close() })
		return clockedStore{Store: s, fakeClock: clock}
	})
}

func TestConformanceRealClock(t *testing.T) {
	// The real-time path of the suite, which Redis takes, must hold for the
	// in-memory store too.
	if testing.Short() {
		t.Skip("waits for real TTLs")
	}
	cachetest.Run(t, func(t *testing.T) cachetest.Backend {
		s := memory.New(memory.Options{SemanticMax: cachetest.SemanticMax})
		t.Cleanup(func() { _ = s.Close() })
		return s
	})
}

func TestAnswerBudgetEvictsLeastRecentlyUsed(t *testing.T) {
	ctx := context.Background()
	key := func(i int) cache.Key {
		return cache.Key{Tenant: "acme", Generation: 1, Question: fmt.Sprintf("question %d", i)}
	}
	value := make([]byte, 1000)
	// Room for about three entries of 1000 bytes plus bookkeeping.
	s := memory.New(memory.Options{MaxAnswerBytes: 3*1400 + 100, SweepInterval: -1})
	defer s.Close()
	for i := range 3 {
		if err := s.Put(ctx, key(i), cache.Entry{Value: value}, time.Hour); err != nil {
			t.Fatal(err)
		}
	}
	if _, ok, _ := s.Get(ctx, key(0)); !ok { // 0 becomes the most recently used
		t.Fatal("entry 0 missing before any eviction")
	}
	if err := s.Put(ctx, key(3), cache.Entry{Value: value}, time.Hour); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name    string
		i       int
		wantHit bool
	}{
		{"recently read survives", 0, true},
		{"least recently used is evicted", 1, false},
		{"newer survives", 2, true},
		{"newest survives", 3, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, ok, err := s.Get(ctx, key(c.i)); err != nil || ok != c.wantHit {
				t.Errorf("Get(%d) = %v, %v; want %v", c.i, ok, err, c.wantHit)
			}
		})
	}
}

func TestNearestFallsBackWhenBestAnswerEvicted(t *testing.T) {
	ctx := context.Background()
	s := memory.New(memory.Options{MaxAnswerBytes: 2*1400 + 100, SweepInterval: -1})
	defer s.Close()
	value := make([]byte, 1000)
	put := func(q string, vec []float32) {
		t.Helper()
		err := s.Put(ctx, cache.Key{Tenant: "acme", Generation: 1, Question: q}, cache.Entry{Value: value, Question: q, Vector: vec}, time.Hour)
		if err != nil {
			t.Fatal(err)
		}
	}
	put("good", []float32{0.97, 0.2431})
	put("best", []float32{1, 0})
	put("other", []float32{0, 1}) // evicts "good" from the answers (least recently used)
	cases := []struct {
		name  string
		query []float32
		want  string
	}{
		{"best answer present", []float32{1, 0}, "best"},
		{"other present", []float32{0, 1}, "other"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, _, ok, err := s.Nearest(ctx, "acme", 1, c.query, 0.95)
			if err != nil || !ok || got.Question != c.want {
				t.Errorf("Nearest = %q, %v, %v; want %q", got.Question, ok, err, c.want)
			}
		})
	}
	// "good" is still in the semantic set but its answer is gone: a query
	// nearest to it must fall through to the next live answer above the
	// threshold, never return nothing while "best" qualifies.
	got, _, ok, err := s.Nearest(ctx, "acme", 1, []float32{0.98, 0.199}, 0.95)
	if err != nil || !ok || got.Question != "best" {
		t.Errorf("Nearest near an evicted answer = %q, %v, %v; want %q", got.Question, ok, err, "best")
	}
}

func TestCloseStopsSweeper(t *testing.T) {
	cases := []struct {
		name     string
		interval time.Duration
	}{
		{"running sweeper", time.Millisecond},
		{"default interval", 0},
		{"sweeper disabled", -1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := memory.New(memory.Options{SweepInterval: c.interval})
			done := make(chan struct{})
			go func() {
				_ = s.Close()
				_ = s.Close() // idempotent
				close(done)
			}()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("Close did not return")
			}
			// Still usable after Close, only without the sweeper.
			if first, err := s.FirstSeen(context.Background(), "e", time.Minute); err != nil || !first {
				t.Errorf("FirstSeen after Close = %v, %v", first, err)
			}
		})
	}
}
