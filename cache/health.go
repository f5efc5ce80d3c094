package cache

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"
)

// DefaultHealthInterval is how often Health repeats its warning while a
// backend keeps failing: often enough to show in any log window, rarely
// enough that a dead Redis under load does not flood the logs.
const DefaultHealthInterval = 30 * time.Second

// HealthOptions configures a Health.
type HealthOptions struct {
	// Backend names the backend in log lines ("redis").
	Backend string
	// Interval between repeated warnings; DefaultHealthInterval when zero.
	Interval time.Duration
	// Now is the clock; time.Now when nil.
	Now    func() time.Time
	Logger *slog.Logger
}

// Health tracks whether a cache backend is currently failing. Callers report
// the result of every backend call with Observe; the bot keeps answering
// without the cache while Degraded is true, and operators see one warning
// per interval instead of one per request.
type Health struct {
	backend  string
	interval time.Duration
	now      func() time.Time
	logger   *slog.Logger

	mu          sync.Mutex
	degraded    bool
	since       time.Time // first failure of the current outage
	lastWarning time.Time
	failures    int // failures since the last warning
	total       int // failures in the current outage
}

// NewHealth returns a Health that starts healthy.
func NewHealth(opts HealthOptions) *Health {
	h := &Health{backend: opts.Backend, interval: opts.Interval, now: opts.Now, logger: opts.Logger}
	if h.backend == "" {
		h.backend = "cache"
	}
	if h.interval <= 0 {
		h.interval = DefaultHealthInterval
	}
	if h.now == nil {
		h.now = time.Now
	}
	if h.logger == nil {
		h.logger = slog.New(slog.DiscardHandler)
	}
	return h
}

// Observe records the result of one backend call. nil is a success. Only
// errors wrapping ErrUnavailable count as failures: a caller's own
// cancellation or a rejected argument says nothing about the backend, so
// those are ignored.
func (h *Health) Observe(err error) {
	if err != nil && (!errors.Is(err, ErrUnavailable) || errors.Is(err, context.Canceled)) {
		return
	}
	now := h.now()
	h.mu.Lock()
	defer h.mu.Unlock()
	if err == nil {
		if !h.degraded {
			return
		}
		h.logger.Info("cache backend recovered",
			"backend", h.backend,
			"outage", now.Sub(h.since),
			"failures", h.total)
		h.degraded, h.failures, h.total = false, 0, 0
		return
	}
	h.failures++
	h.total++
	if !h.degraded {
		h.degraded, h.since = true, now
	} else if now.Sub(h.lastWarning) < h.interval {
		return
	}
	h.logger.Warn("cache backend unavailable; answering without it",
		"backend", h.backend,
		"failures", h.failures,
		"since", h.since,
		"err", err)
	h.lastWarning, h.failures = now, 0
}

// Degraded reports whether the latest verdict was a failure.
func (h *Health) Degraded() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.degraded
}
