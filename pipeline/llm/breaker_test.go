package llm

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// fakeClock is a clock tests move by hand.
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
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

func TestBreaker(t *testing.T) {
	serverErr := &openai.APIError{HTTPStatusCode: http.StatusInternalServerError, Message: "boom"}
	badRequest := &openai.APIError{HTTPStatusCode: http.StatusBadRequest, Message: "bad"}
	// A step either advances the clock or makes one call with an outcome.
	type step struct {
		advance time.Duration
		outcome error
		// wantAllowed says whether the breaker let the call through.
		wantAllowed bool
		wantState   BreakerState // after the step
	}
	call := func(outcome error, allowed bool, state BreakerState) step {
		return step{outcome: outcome, wantAllowed: allowed, wantState: state}
	}
	wait := func(d time.Duration, state BreakerState) step {
		return step{advance: d, wantState: state}
	}
	tests := []struct {
		name  string
		steps []step
	}{
		{name: "opens after three failures in a row", steps: []step{
			call(serverErr, true, BreakerClosed),
			call(serverErr, true, BreakerClosed),
			call(serverErr, true, BreakerOpen),
			call(nil, false, BreakerOpen),
		}},
		{name: "a success resets the count", steps: []step{
			call(serverErr, true, BreakerClosed),
			call(serverErr, true, BreakerClosed),
			call(nil, true, BreakerClosed),
			call(serverErr, true, BreakerClosed),
			call(serverErr, true, BreakerClosed),
		}},
		{name: "400 does not count", steps: []step{
			call(serverErr, true, BreakerClosed),
			call(serverErr, true, BreakerClosed),
			call(badRequest, true, BreakerClosed),
			call(serverErr, true, BreakerClosed),
		}},
		{name: "half-open after the cool-down, closed by a good trial", steps: []step{
			call(serverErr, true, BreakerClosed),
			call(serverErr, true, BreakerClosed),
			call(serverErr, true, BreakerOpen),
			wait(59*time.Second, BreakerOpen),
			call(nil, false, BreakerOpen),
			wait(time.Second, BreakerHalfOpen),
			call(nil, true, BreakerClosed),
			call(nil, true, BreakerClosed),
		}},
		{name: "a failed trial re-opens for another cool-down", steps: []step{
			call(serverErr, true, BreakerClosed),
			call(serverErr, true, BreakerClosed),
			call(serverErr, true, BreakerOpen),
			wait(time.Minute, BreakerHalfOpen),
			call(serverErr, true, BreakerOpen),
			call(nil, false, BreakerOpen),
			wait(30*time.Second, BreakerOpen),
			wait(30*time.Second, BreakerHalfOpen),
			call(nil, true, BreakerClosed),
		}},
		{name: "a cancelled trial lets another one through", steps: []step{
			call(serverErr, true, BreakerClosed),
			call(serverErr, true, BreakerClosed),
			call(serverErr, true, BreakerOpen),
			wait(time.Minute, BreakerHalfOpen),
			call(context.Canceled, true, BreakerHalfOpen),
			call(nil, true, BreakerClosed),
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			clock := &fakeClock{now: time.Unix(1_700_000_000, 0)}
			b := NewBreaker(BreakerConfig{Failures: 3, CoolDown: time.Minute, Now: clock.Now})
			for i, s := range tc.steps {
				if s.advance > 0 {
					clock.Advance(s.advance)
				} else {
					done, err := b.Allow()
					if allowed := err == nil; allowed != s.wantAllowed {
						t.Fatalf("step %d: allowed = %v, want %v", i, allowed, s.wantAllowed)
					}
					if err != nil && !errors.Is(err, ErrCircuitOpen) {
						t.Fatalf("step %d: err = %v, want ErrCircuitOpen", i, err)
					}
					if done != nil {
						done(s.outcome)
					}
				}
				if got := b.State(); got != s.wantState {
					t.Fatalf("step %d: state = %v, want %v", i, got, s.wantState)
				}
			}
		})
	}
}

func TestBreakerOneTrialAtATime(t *testing.T) {
	clock := &fakeClock{now: time.Unix(1_700_000_000, 0)}
	var (
		mu          sync.Mutex
		transitions []string
	)
	b := NewBreaker(BreakerConfig{Failures: 1, CoolDown: time.Second, Now: clock.Now, OnStateChange: func(from, to BreakerState) {
		mu.Lock()
		transitions = append(transitions, fmt.Sprintf("%v>%v", from, to))
		mu.Unlock()
	}})
	done, _ := b.Allow()
	done(errors.New("connection reset"))
	clock.Advance(time.Second)

	trial, err := b.Allow()
	if err != nil {
		t.Fatalf("trial rejected: %v", err)
	}
	var wg sync.WaitGroup
	rejected := make([]bool, 8)
	for i := range rejected {
		wg.Go(func() {
			_, err := b.Allow()
			rejected[i] = errors.Is(err, ErrCircuitOpen)
		})
	}
	wg.Wait()
	if slices.Contains(rejected, false) {
		t.Errorf("a second call went through while the trial was in flight: %v", rejected)
	}
	trial(nil)
	trial(errors.New("reported twice")) // ignored: done counts once
	if got := b.State(); got != BreakerClosed {
		t.Errorf("state = %v after a good trial, want closed", got)
	}
	want := []string{"closed>open", "open>half-open", "half-open>closed"}
	mu.Lock()
	defer mu.Unlock()
	if !slices.Equal(transitions, want) {
		t.Errorf("transitions = %v, want %v", transitions, want)
	}
}

func TestBreakerIgnoresStaleOutcome(t *testing.T) {
	clock := &fakeClock{now: time.Unix(1_700_000_000, 0)}
	b := NewBreaker(BreakerConfig{Failures: 1, CoolDown: time.Second, Now: clock.Now})
	slow, _ := b.Allow() // started while closed, finishes late
	fast, _ := b.Allow()
	fast(errors.New("timeout"))
	clock.Advance(time.Second)
	slow(nil) // from the closed generation: must not close the breaker
	if got := b.State(); got != BreakerHalfOpen {
		t.Errorf("state = %v, want half-open", got)
	}
}
