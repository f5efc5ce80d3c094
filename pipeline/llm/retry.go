// Package llm talks to OpenAI-compatible model endpoints (OpenAI, Azure
// OpenAI, Groq, Ollama, vLLM, TEI): embeddings and chat completions, with one
// retry policy for both.
package llm

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"

	"github.com/cenkalti/backoff/v5"
	openai "github.com/sashabaranov/go-openai"
)

// RetryPolicy is exponential backoff with jitter: InitialInterval, doubling,
// capped at MaxInterval, each wait randomised by ±Jitter, at most MaxTries
// attempts in all.
type RetryPolicy struct {
	InitialInterval time.Duration
	MaxInterval     time.Duration
	Jitter          float64
	MaxTries        uint
}

// DefaultRetryPolicy waits 1 s, 2 s, 4 s … capped at 10 s, ±25 %.
var DefaultRetryPolicy = RetryPolicy{InitialInterval: time.Second, MaxInterval: 10 * time.Second, Jitter: 0.25, MaxTries: 4}

func (p RetryPolicy) options() []backoff.RetryOption {
	b := backoff.NewExponentialBackOff()
	b.InitialInterval = p.InitialInterval
	b.MaxInterval = p.MaxInterval
	b.RandomizationFactor = p.Jitter
	b.Multiplier = 2
	tries := p.MaxTries
	if tries == 0 {
		tries = 1
	}
	return []backoff.RetryOption{backoff.WithBackOff(b), backoff.WithMaxTries(tries), backoff.WithMaxElapsedTime(0)}
}

// retry runs op under the policy; errors that retrying cannot fix (400, 401,
// 403, 404, 422, cancellation) end it at once.
func retry[T any](ctx context.Context, p RetryPolicy, op func(context.Context) (T, error)) (T, error) {
	return backoff.Retry(ctx, func() (T, error) {
		v, err := op(ctx)
		if err != nil && !Retryable(err) {
			return v, backoff.Permanent(err)
		}
		return v, err
	}, p.options()...)
}

// Retryable reports whether an endpoint error is worth another attempt:
// rate limits, server errors, timeouts and network failures are; client
// errors and the caller's own cancellation are not.
func Retryable(err error) bool {
	if err == nil || errors.Is(err, context.Canceled) {
		return false
	}
	if status := StatusCode(err); status != 0 {
		return status == http.StatusTooManyRequests || status == http.StatusRequestTimeout || status >= 500
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return true
	}
	var netErr net.Error
	if errors.As(err, &netErr) {
		return true
	}
	// Connection resets and truncated bodies surface as plain errors from
	// net/http; without a status code they are transport failures.
	return true
}

// StatusCode extracts the HTTP status of an endpoint error, or 0.
func StatusCode(err error) int {
	var apiErr *openai.APIError
	if errors.As(err, &apiErr) {
		return apiErr.HTTPStatusCode
	}
	var reqErr *openai.RequestError
	if errors.As(err, &reqErr) {
		return reqErr.HTTPStatusCode
	}
	return 0
}
