package cache_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/cewhq/cew/cache"
)

// records keeps what a Health logged, as "LEVEL message" lines.
type records struct {
	mu    sync.Mutex
	lines []string
}

func (r *records) Enabled(context.Context, slog.Level) bool { return true }
func (r *records) Handle(_ context.Context, rec slog.Record) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.lines = append(r.lines, rec.Level.String()+" "+rec.Message)
	return nil
}
func (r *records) WithAttrs([]slog.Attr) slog.Handler { return r }
func (r *records) WithGroup(string) slog.Handler      { return r }

func TestHealth(t *testing.T) {
	down := fmt.Errorf("cache/redis: get: %w: dial tcp: connection refused", cache.ErrUnavailable)
	cancelled := fmt.Errorf("cache/redis: get: %w: %w", cache.ErrUnavailable, context.Canceled)
	invalid := errors.New("cache/redis: put: ttl must be positive")
	const (
		warn      = "WARN cache backend unavailable; answering without it"
		recovered = "INFO cache backend recovered"
	)

	// step advances the clock by after, then observes err.
	type step struct {
		after time.Duration
		err   error
	}
	cases := []struct {
		name         string
		steps        []step
		wantDegraded bool
		wantLines    []string
	}{
		{name: "healthy stays quiet", steps: []step{{0, nil}, {time.Second, nil}}},
		{
			name:         "first failure warns at once",
			steps:        []step{{0, down}},
			wantDegraded: true,
			wantLines:    []string{warn},
		},
		{
			name:         "repeated failures warn once per interval",
			steps:        []step{{0, down}, {10 * time.Second, down}, {19 * time.Second, down}, {time.Second, down}, {29 * time.Second, down}},
			wantDegraded: true,
			wantLines:    []string{warn, warn},
		},
		{
			name:      "success after failure logs recovery once",
			steps:     []step{{0, down}, {time.Second, down}, {time.Second, nil}, {time.Second, nil}},
			wantLines: []string{warn, recovered},
		},
		{
			name:         "a new outage warns again at once",
			steps:        []step{{0, down}, {time.Second, nil}, {time.Second, down}},
			wantDegraded: true,
			wantLines:    []string{warn, recovered, warn},
		},
		{
			name:  "caller cancellation is not a backend failure",
			steps: []step{{0, cancelled}},
		},
		{
			name:  "rejected arguments are not a backend failure",
			steps: []step{{0, invalid}},
		},
		{
			name:         "ignored errors do not end an outage",
			steps:        []step{{0, down}, {time.Second, invalid}, {time.Second, cancelled}},
			wantDegraded: true,
			wantLines:    []string{warn},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			now := time.Date(2024, 5, 1, 9, 0, 0, 0, time.UTC)
			rec := &records{}
			h := cache.NewHealth(cache.HealthOptions{
				Backend: "redis",
				Now:     func() time.Time { return now },
				Logger:  slog.New(rec),
			})
			for _, s := range c.steps {
				now = now.Add(s.after)
				h.Observe(s.err)
			}
			if got := h.Degraded(); got != c.wantDegraded {
				t.Errorf("Degraded() = %v, want %v", got, c.wantDegraded)
			}
			if !slices.Equal(rec.lines, c.wantLines) {
				t.Errorf("logged %q, want %q", rec.lines, c.wantLines)
			}
		})
	}
}

func TestHealthConcurrentObserve(t *testing.T) {
	h := cache.NewHealth(cache.HealthOptions{})
	down := fmt.Errorf("get: %w", cache.ErrUnavailable)
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Go(func() {
			if i%2 == 0 {
				h.Observe(down)
			} else {
				h.Observe(nil)
			}
			_ = h.Degraded()
		})
	}
	wg.Wait()
	h.Observe(nil)
	if h.Degraded() {
		t.Error("Degraded() = true after a final success")
	}
}
