// Package retry is how chat adapters call a platform API: each call under
// its own timeout, rate limits waited out exactly as the platform's
// Retry-After says, server and network failures retried with exponential
// backoff and jitter, and everything else given up at once.
package retry

import (
	"context"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/cenkalti/backoff/v5"

	"github.com/cewhq/cew/outbox"
)

// Failure kinds, as logged and counted.
const (
	KindRateLimited = "rate_limited"
	KindServer      = "server"
	KindNetwork     = "network"
	KindAPI         = "api"
)

// Defaults of a Policy.
const (
	DefaultAttempts    = 4
	DefaultCallTimeout = 10 * time.Second
	// MinRateLimitWait is waited on a rate limit that names no Retry-After.
	MinRateLimitWait = time.Second
	// MaxRetryAfter caps a Retry-After wait: a platform asking for longer
	// than this is treated as down for this delivery.
	MaxRetryAfter = time.Minute
)

// Verdict is what a failed call means for the next attempt.
type Verdict struct {
	Kind      string
	Wait      time.Duration
	Retryable bool
}

// Attempt describes one failed call, for logs and metrics.
type Attempt struct {
	Method string
	N      int
	Kind   string
	Wait   time.Duration
	// Final: no further attempt follows.
	Final bool
	Err   error
}

// Policy says how to retry. The zero value of each field means its default.
type Policy struct {
	Attempts    int
	CallTimeout time.Duration
	// Initial and Max bound the exponential backoff (defaults 250 ms, 4 s).
	Initial, Max time.Duration
	// Classify judges a failure; next returns the backoff's next wait. nil
	// means every failure is final.
	Classify func(err error, next func() time.Duration) Verdict
	// Sleep waits between attempts (a seam for tests); nil means Sleep.
	Sleep func(ctx context.Context, d time.Duration) error
	// Observe hears of every failed attempt.
	Observe func(Attempt)
}

// Do runs call until it succeeds, fails permanently, the attempts run out
// or ctx ends, and returns the last error.
func (p Policy) Do(ctx context.Context, method string, call func(ctx context.Context) error) error {
	attempts := p.Attempts
	if attempts <= 0 {
		attempts = DefaultAttempts
	}
	callTimeout := p.CallTimeout
	if callTimeout <= 0 {
		callTimeout = DefaultCallTimeout
	}
	sleep := p.Sleep
	if sleep == nil {
		sleep = Sleep
	}
	b := backoff.NewExponentialBackOff()
	b.InitialInterval, b.MaxInterval = 250*time.Millisecond, 4*time.Second
	if p.Initial > 0 {
		b.InitialInterval = p.Initial
	}
	if p.Max > 0 {
		b.MaxInterval = p.Max
	}
	for n := 1; ; n++ {
		callCtx, cancel := context.WithTimeout(ctx, callTimeout)
		err := call(callCtx)
		cancel()
		if err == nil {
			return nil
		}
		v := Verdict{Kind: KindAPI}
		if p.Classify != nil {
			v = p.Classify(err, b.NextBackOff)
		}
		final := !v.Retryable || n >= attempts || ctx.Err() != nil
		if p.Observe != nil {
			p.Observe(Attempt{Method: method, N: n, Kind: v.Kind, Wait: v.Wait, Final: final, Err: err})
		}
		if final {
			return err
		}
		if err := sleep(ctx, v.Wait); err != nil {
			return err
		}
	}
}

// Logged is an Observe for one platform's API calls: every failed
// attempt is counted with count (by method and kind) and logged, at Warn
// when it is final and at Info when a retry follows. what names the API
// in the message ("slack", "connector").
func Logged(log *slog.Logger, platform, what string, count func(method, kind string)) func(Attempt) {
	return func(at Attempt) {
		count(at.Method, at.Kind)
		if at.Final {
			log.Warn(what+" call failed", "platform", platform, "stage", "api", "method", at.Method,
				"attempt", at.N, "kind", at.Kind, "err", at.Err)
			return
		}
		log.Info(what+" call failed; retrying", "platform", platform, "stage", "api", "method", at.Method,
			"attempt", at.N, "kind", at.Kind, "wait_ms", at.Wait.Milliseconds(), "err", at.Err)
	}
}

// Sleep waits d or until ctx ends.
func Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// HTTPStatus judges an HTTP response status: 429 waits retryAfter (at
// least MinRateLimitWait), 5xx backs off, 408 is a network failure, any
// other status is final.
func HTTPStatus(code int, retryAfter time.Duration, next func() time.Duration) Verdict {
	switch {
	case code == http.StatusTooManyRequests:
		wait := retryAfter
		if wait <= 0 {
			wait = next()
		}
		return Verdict{Kind: KindRateLimited, Wait: max(wait, MinRateLimitWait), Retryable: retryAfter <= MaxRetryAfter}
	case code == http.StatusRequestTimeout:
		return Verdict{Kind: KindNetwork, Wait: next(), Retryable: true}
	case code >= 500:
		// A 5xx may carry Retry-After too (503 during maintenance).
		wait := next()
		if retryAfter > 0 {
			wait = retryAfter
		}
		return Verdict{Kind: KindServer, Wait: wait, Retryable: retryAfter <= MaxRetryAfter}
	}
	return Verdict{Kind: KindAPI}
}

// RetryAfter reads a Retry-After header: delay seconds or an HTTP date
// (RFC 9110 §10.2.3). 0 means absent or unreadable.
func RetryAfter(value string, now time.Time) time.Duration {
	value = strings.TrimSpace(value)
	if value == "" {
		return 0
	}
	if secs, err := strconv.Atoi(value); err == nil {
		if secs < 0 {
			return 0
		}
		return time.Duration(min(secs, 24*3600)) * time.Second
	}
	if t, err := http.ParseTime(value); err == nil {
		return max(t.Sub(now), 0)
	}
	return 0
}

// ForOutbox turns one failed attempt into what the outbox needs to know:
// a failure classify calls final is outbox.Permanent, a wait it names (a
// rate limit) is outbox.RetryAfter, anything else is retried with the
// outbox's own backoff.
func ForOutbox(err error, classify func(err error, next func() time.Duration) Verdict) error {
	if err == nil {
		return nil
	}
	v := classify(err, func() time.Duration { return 0 })
	switch {
	case !v.Retryable:
		return outbox.Permanent(err)
	case v.Wait > 0:
		return outbox.RetryAfter(err, v.Wait)
	}
	return err
}
