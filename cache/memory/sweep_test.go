package memory

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/cewhq/cew/cache"
)

// sizes counts what the store holds, expired or not.
func (s *Store) sizes() [5]int {
	s.answersMu.Lock()
	a := s.answers.len()
	s.answersMu.Unlock()
	s.semanticMu.RLock()
	v := 0
	for _, items := range s.semantic {
		v += len(items)
	}
	s.semanticMu.RUnlock()
	s.sessionsMu.Lock()
	c := s.sessions.len()
	s.sessionsMu.Unlock()
	s.seenMu.Lock()
	e := len(s.seen)
	s.seenMu.Unlock()
	s.ratesMu.Lock()
	r := len(s.rates)
	s.ratesMu.Unlock()
	return [5]int{a, v, c, e, r}
}

type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// fill puts one short-lived and one long-lived item of every kind.
func fill(t *testing.T, s *Store) {
	t.Helper()
	ctx := context.Background()
	for i, ttl := range []time.Duration{time.Minute, time.Hour} {
		q := []string{"short", "long"}[i]
		k := cache.Key{Tenant: "acme", Generation: 1, Question: q}
		if err := s.Put(ctx, k, cache.Entry{Value: []byte(q), Vector: []float32{1, float32(i)}}, ttl); err != nil {
			t.Fatal(err)
		}
		if err := s.Append(ctx, q, cache.Turn{Question: q}, 3, ttl); err != nil {
			t.Fatal(err)
		}
		if _, err := s.FirstSeen(ctx, q, ttl); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Allow(ctx, q, 5, ttl); err != nil {
			t.Fatal(err)
		}
	}
}

func TestSweep(t *testing.T) {
	cases := []struct {
		name    string
		advance time.Duration
		want    [5]int
	}{
		{"nothing expired", 30 * time.Second, [5]int{2, 2, 2, 2, 2}},
		{"short-lived swept", time.Minute, [5]int{1, 1, 1, 1, 1}},
		{"everything swept", time.Hour, [5]int{0, 0, 0, 0, 0}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			clk := &clock{now: time.Date(2024, 5, 1, 9, 0, 0, 0, time.UTC)}
			s := New(Options{Now: clk.Now, SweepInterval: -1})
			defer s.Close()
			fill(t, s)
			clk.Advance(c.advance)
			s.sweep()
			if got := s.sizes(); got != c.want {
				t.Errorf("after sweep: answers, vectors, conversations, events, rate keys = %v, want %v", got, c.want)
			}
		})
	}
}

func TestBackgroundSweeper(t *testing.T) {
	clk := &clock{now: time.Date(2024, 5, 1, 9, 0, 0, 0, time.UTC)}
	s := New(Options{Now: clk.Now, SweepInterval: time.Millisecond})
	defer s.Close()
	fill(t, s)
	clk.Advance(2 * time.Hour)
	deadline := time.Now().Add(10 * time.Second)
	for s.sizes() != [5]int{} {
		if time.Now().After(deadline) {
			t.Fatalf("sweeper left %v", s.sizes())
		}
		time.Sleep(time.Millisecond)
	}
}

func TestLRUEntryOverBudgetNotKept(t *testing.T) {
	cases := []struct {
		name    string
		cost    int
		wantLen int
	}{
		{"fits", 10, 1},
		{"exactly the budget", 100, 1},
		{"over the budget", 101, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l := newLRU(100, func(string, int) int { return c.cost })
			l.put("k", 1, time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC))
			if l.len() != c.wantLen || l.used != c.cost*c.wantLen {
				t.Errorf("len = %d, used = %d; want %d, %d", l.len(), l.used, c.wantLen, c.cost*c.wantLen)
			}
		})
	}
}
