package llm

import (
	"context"
	"errors"
	"sync"
	"time"
)

// ErrCircuitOpen is returned, without calling the endpoint, while the
// breaker is open or while its one half-open trial call is in flight.
var ErrCircuitOpen = errors.New("llm: circuit breaker is open")

// BreakerState is the state of a Breaker.
type BreakerState int

const (
	// BreakerClosed lets every call through.
	BreakerClosed BreakerState = iota
	// BreakerOpen rejects every call until the cool-down ends.
	BreakerOpen
	// BreakerHalfOpen lets one trial call through; its outcome closes or
	// re-opens the breaker.
	BreakerHalfOpen
)

// String names the state for logs.
func (s BreakerState) String() string {
	switch s {
	case BreakerClosed:
		return "closed"
	case BreakerOpen:
		return "open"
	case BreakerHalfOpen:
		return "half-open"
	}
	return "unknown"
}

// BreakerConfig tunes a Breaker. Zero values take the defaults.
type BreakerConfig struct {
	// Failures is how many consecutive failed calls open the breaker
	// (default 5).
	Failures int
	// CoolDown is how long the breaker stays open before one trial call
	// may go through (default 30 s).
	CoolDown time.Duration
	// IsFailure decides which call errors count against the endpoint. The
	// default counts what Retryable accepts (rate limits, server errors,
	// timeouts, network failures) and not client errors such as 400 or an
	// answer cut off at the token limit: a server that answers those is up.
	IsFailure func(error) bool
	// OnStateChange, when set, is told of every transition (for logs and
	// metrics). It is called without the breaker's lock held.
	OnStateChange func(from, to BreakerState)
	// Now is the clock; nil means time.Now. Tests inject their own.
	Now func() time.Time
}

// Default breaker settings: five failures in a row is an outage rather than
// a blip that retries already absorbed; 30 s keeps a dead endpoint from
// adding its timeout to every question while it recovers.
const (
	defaultBreakerFailures = 5
	defaultBreakerCoolDown = 30 * time.Second
)

// Breaker is a circuit breaker for one endpoint: after Failures consecutive
// failed calls it opens and rejects calls for CoolDown, then lets a single
// trial call through (half-open); a successful trial closes it, a failed
// one opens it for another cool-down. It is safe for concurrent use.
//
// It is written here rather than taken from github.com/sony/gobreaker
// because gobreaker reads time.Now directly, which would force the
// cool-down tests to sleep; the state machine is small.
type Breaker struct {
	cfg BreakerConfig

	mu         sync.Mutex
	state      BreakerState
	failures   int
	openedAt   time.Time
	trial      bool   // the half-open trial call is in flight
	generation uint64 // bumped on every transition; stale outcomes are ignored
}

// NewBreaker returns a closed Breaker.
func NewBreaker(cfg BreakerConfig) *Breaker {
	if cfg.Failures <= 0 {
		cfg.Failures = defaultBreakerFailures
	}
	if cfg.CoolDown <= 0 {
		cfg.CoolDown = defaultBreakerCoolDown
	}
	if cfg.IsFailure == nil {
		cfg.IsFailure = endpointFailure
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Breaker{cfg: cfg}
}

// State reports the current state, moving an open breaker whose cool-down
// has ended to half-open.
func (b *Breaker) State() BreakerState {
	b.mu.Lock()
	from := b.state
	b.advance()
	to := b.state
	b.mu.Unlock()
	b.notify(from, to)
	return to
}

// Allow asks to make one call. It returns ErrCircuitOpen when the call must
// not be made. Otherwise the caller makes the call and then calls done
// exactly once with the call's error (nil on success).
func (b *Breaker) Allow() (done func(callErr error), err error) {
	b.mu.Lock()
	from := b.state
	b.advance()
	switch {
	case b.state == BreakerOpen, b.state == BreakerHalfOpen && b.trial:
		to := b.state
		b.mu.Unlock()
		b.notify(from, to)
		return nil, ErrCircuitOpen
	case b.state == BreakerHalfOpen:
		b.trial = true
	}
	gen := b.generation
	to := b.state
	b.mu.Unlock()
	b.notify(from, to)

	var once sync.Once
	return func(callErr error) { once.Do(func() { b.record(gen, callErr) }) }, nil
}

// advance opens the half-open window when the cool-down is over. The caller
// holds the lock.
func (b *Breaker) advance() {
	if b.state == BreakerOpen && !b.cfg.Now().Before(b.openedAt.Add(b.cfg.CoolDown)) {
		b.setState(BreakerHalfOpen)
	}
}

func (b *Breaker) record(gen uint64, callErr error) {
	b.mu.Lock()
	from := b.state
	if gen == b.generation {
		switch {
		case callErr != nil && b.cfg.IsFailure(callErr):
			b.failures++
			if b.state == BreakerHalfOpen || b.failures >= b.cfg.Failures {
				b.openedAt = b.cfg.Now()
				b.setState(BreakerOpen)
			}
		case errors.Is(callErr, context.Canceled):
			// The caller gave up; the call says nothing about the
			// endpoint. A half-open breaker lets another trial through.
			b.trial = false
		default:
			b.failures = 0
			if b.state == BreakerHalfOpen {
				b.setState(BreakerClosed)
			}
		}
	}
	to := b.state
	b.mu.Unlock()
	b.notify(from, to)
}

// setState moves to s and starts a new generation. The caller holds the
// lock.
func (b *Breaker) setState(s BreakerState) {
	b.state = s
	b.trial = false
	b.generation++
	if s == BreakerClosed {
		b.failures = 0
	}
}

func (b *Breaker) notify(from, to BreakerState) {
	if from != to && b.cfg.OnStateChange != nil {
		b.cfg.OnStateChange(from, to)
	}
}

func endpointFailure(err error) bool {
	return Retryable(err) && !errors.Is(err, ErrTruncated)
}
