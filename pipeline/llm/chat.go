package llm

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/cenkalti/backoff/v5"
	openai "github.com/sashabaranov/go-openai"
)

// Errors of a chat call, beyond the endpoint's own; check with errors.Is.
var (
	// ErrStreamInterrupted wraps a failure that happened after some of the
	// answer had been streamed to OnToken. Such a call is never retried:
	// the reader has already seen the first attempt's words.
	ErrStreamInterrupted = errors.New("llm: stream interrupted after tokens were delivered")
	// ErrTruncated is returned when the model stopped at the token limit,
	// so the answer is cut off mid-way.
	ErrTruncated = errors.New("llm: answer cut off at the token limit")
	// ErrNotStreamed is returned when the endpoint answered a streaming
	// request with one JSON body, as servers without streaming support do.
	// Retrying cannot help; configure an endpoint that streams.
	ErrNotStreamed = errors.New("llm: endpoint does not stream: it answered a streaming request with one JSON body")
)

// ChatRequest is one chat completion: a system prompt and a user prompt.
type ChatRequest struct {
	System, User string
	// MaxTokens caps the answer's length; 0 leaves it to the server.
	MaxTokens int
	// OnToken, when set, receives the answer as it streams, one delta per
	// call, from the calling goroutine.
	OnToken func(string)
}

// ChatResult is a completed answer with its token usage (as the server
// reported it; 0 when it did not) and the number of HTTP attempts made.
type ChatResult struct {
	Text                           string
	PromptTokens, CompletionTokens int
	Attempts                       int
}

// Chat calls /v1/chat/completions at temperature 0, retrying transient
// failures under the endpoint's RetryPolicy behind a circuit breaker. It is
// safe for concurrent use.
type Chat struct {
	cfg     EndpointConfig
	client  *openai.Client
	breaker *Breaker
	logger  *slog.Logger
}

// ChatOption configures a Chat.
type ChatOption func(*Chat)

// WithBreaker sets the circuit breaker (by default one with
// BreakerConfig's defaults); share one Breaker between the Chats of one
// endpoint.
func WithBreaker(b *Breaker) ChatOption { return func(c *Chat) { c.breaker = b } }

// WithLogger sets the logger for failed attempts and breaker transitions.
// Prompts, answers and keys are never logged.
func WithLogger(l *slog.Logger) ChatOption { return func(c *Chat) { c.logger = l } }

// NewChat returns a Chat for the endpoint.
func NewChat(cfg EndpointConfig, opts ...ChatOption) *Chat {
	if cfg.Retry.MaxTries == 0 {
		cfg.Retry = DefaultRetryPolicy
	}
	c := &Chat{cfg: cfg}
	for _, o := range opts {
		o(c)
	}
	if c.logger == nil {
		c.logger = slog.New(slog.DiscardHandler)
	}
	if c.breaker == nil {
		c.breaker = NewBreaker(BreakerConfig{OnStateChange: func(from, to BreakerState) {
			c.logger.Warn("chat circuit breaker", "model", cfg.Model, "from", from.String(), "to", to.String())
		}})
	}
	base := cfg.HTTPClient
	if base == nil {
		base = &http.Client{}
	}
	hc := *base
	transport := hc.Transport
	if transport == nil {
		transport = http.DefaultTransport
	}
	hc.Transport = observingTransport{base: transport}
	cfg.HTTPClient = &hc
	c.client = cfg.client()
	return c
}

// Complete sends the prompts and returns the answer. With OnToken set the
// answer is streamed; otherwise it comes back in one response. Each attempt
// is bounded by the endpoint's Timeout, which also ends a stream that
// stalls. Rate limits (honouring Retry-After up to the policy's
// MaxInterval), server errors, timeouts and network failures are retried;
// client errors such as 400 are not, and neither is any failure after a
// token has reached OnToken. While the breaker is open Complete fails at
// once with ErrCircuitOpen.
func (c *Chat) Complete(ctx context.Context, req ChatRequest) (ChatResult, error) {
	done, err := c.breaker.Allow()
	if err != nil {
		return ChatResult{}, c.wrap(err)
	}
	// Only reached when OnToken panics (done runs once): a half-open trial
	// left in flight would keep the breaker from ever closing.
	defer done(context.Canceled)
	var (
		attempts int
		streamed bool
	)
	res, err := retry(ctx, c.cfg.Retry, func(ctx context.Context) (ChatResult, error) {
		attempts++
		start := time.Now()
		r, err := c.attempt(ctx, req, &streamed)
		if err != nil {
			c.logger.Warn("chat attempt failed", "model", c.cfg.Model, "attempt", attempts,
				"status", StatusCode(err), "streamed", streamed, "elapsed_ms", time.Since(start).Milliseconds(),
				"err", c.redact(err.Error()))
			if streamed && !errors.Is(err, ErrTruncated) {
				return r, backoff.Permanent(fmt.Errorf("%w: %w", ErrStreamInterrupted, err))
			}
		}
		return r, err
	})
	done(err)
	res.Attempts = attempts
	if err != nil {
		return res, c.wrap(err)
	}
	return res, nil
}

// attempt makes one HTTP call under the per-call timeout.
func (c *Chat) attempt(ctx context.Context, req ChatRequest, streamed *bool) (ChatResult, error) {
	timeout := c.cfg.timeout()
	callCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	notes := new(callNotes)
	callCtx = context.WithValue(callCtx, callNotesKey{}, notes)

	var (
		res ChatResult
		err error
	)
	if req.OnToken == nil {
		res, err = c.once(callCtx, c.request(req))
	} else {
		res, err = c.stream(callCtx, c.request(req), req.OnToken, streamed)
		if err != nil && !*streamed && notes.jsonBody.Load() {
			err = ErrNotStreamed
		}
	}
	if err == nil {
		return res, nil
	}
	if ctx.Err() == nil && errors.Is(callCtx.Err(), context.DeadlineExceeded) {
		// A stalled stream surfaces as whatever the body read returned;
		// name the cause so callers can tell a timeout from a failure.
		err = fmt.Errorf("no answer within %s: %w", timeout, context.DeadlineExceeded)
	}
	if d := time.Duration(notes.retryAfter.Load()); d > 0 {
		err = &retryAfterError{err: err, wait: &backoff.RetryAfterError{Duration: min(d, c.cfg.Retry.MaxInterval)}}
	}
	if errors.Is(err, ErrTruncated) || errors.Is(err, ErrNotStreamed) {
		err = backoff.Permanent(err)
	}
	return res, err
}

// greedyTemperature stands for temperature 0, which go-openai cannot send
// (it drops a zero temperature from the JSON, and servers then default to
// 0.8 or 1). It must be small enough that sampling is greedy, and large
// enough that a server dividing logits by it stays finite: llama.cpp
// divides by it in float32, and the smallest positive float32 overflowed
// every logit to ±Inf, so its softmax was NaN and the "sampled" answers
// were rambling nonsense. vLLM treats any temperature below 1e-5 as greedy.
const greedyTemperature = 1e-6

// request builds the completion request at (effectively) temperature 0,
// which keeps answers repeatable. Reasoning models accept neither a
// temperature nor max_tokens.
func (c *Chat) request(req ChatRequest) openai.ChatCompletionRequest {
	r := openai.ChatCompletionRequest{
		Model: c.cfg.Model,
		Messages: []openai.ChatCompletionMessage{
			{Role: openai.ChatMessageRoleSystem, Content: req.System},
			{Role: openai.ChatMessageRoleUser, Content: req.User},
		},
	}
	if reasoningModel(c.cfg.Model) {
		r.MaxCompletionTokens = req.MaxTokens
	} else {
		r.Temperature = greedyTemperature
		r.MaxTokens = req.MaxTokens
	}
	if req.OnToken != nil {
		r.StreamOptions = &openai.StreamOptions{IncludeUsage: true}
	}
	return r
}

// reasoningModel matches the OpenAI model families that reject sampling
// parameters, as go-openai's own request validator does.
func reasoningModel(model string) bool {
	for _, p := range []string{"o1", "o3", "o4", "gpt-5", "gpt-6"} {
		if strings.HasPrefix(model, p) {
			return true
		}
	}
	return false
}

func (c *Chat) once(ctx context.Context, req openai.ChatCompletionRequest) (ChatResult, error) {
	resp, err := c.client.CreateChatCompletion(ctx, req)
	if err != nil {
		return ChatResult{}, err
	}
	if len(resp.Choices) == 0 {
		return ChatResult{}, errors.New("endpoint returned no choices")
	}
	res := ChatResult{
		Text:             resp.Choices[0].Message.Content,
		PromptTokens:     resp.Usage.PromptTokens,
		CompletionTokens: resp.Usage.CompletionTokens,
	}
	if resp.Choices[0].FinishReason == openai.FinishReasonLength {
		return res, ErrTruncated
	}
	return res, nil
}

func (c *Chat) stream(ctx context.Context, req openai.ChatCompletionRequest, onToken func(string), streamed *bool) (ChatResult, error) {
	s, err := c.client.CreateChatCompletionStream(ctx, req)
	if err != nil {
		return ChatResult{}, err
	}
	defer s.Close()
	var (
		text   strings.Builder
		res    ChatResult
		finish openai.FinishReason
	)
	for {
		resp, err := s.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			res.Text = text.String()
			return res, err
		}
		if resp.Usage != nil {
			res.PromptTokens, res.CompletionTokens = resp.Usage.PromptTokens, resp.Usage.CompletionTokens
		}
		for _, ch := range resp.Choices {
			if ch.Index != 0 {
				continue
			}
			if ch.Delta.Content != "" {
				text.WriteString(ch.Delta.Content)
				*streamed = true
				onToken(ch.Delta.Content)
			}
			if ch.FinishReason != "" {
				finish = ch.FinishReason
			}
		}
	}
	res.Text = text.String()
	switch finish {
	case "":
		// The body ended cleanly but the answer never did: a proxy or
		// server that closed the stream early.
		return res, io.ErrUnexpectedEOF
	case openai.FinishReasonLength:
		return res, ErrTruncated
	}
	return res, nil
}

// wrap names the package and model and removes the API key from the
// message: some servers echo a rejected key in their error text.
func (c *Chat) wrap(err error) error {
	return redactError(c.cfg.APIKey, fmt.Sprintf("llm: chat with %s", c.cfg.Model), err)
}

func (c *Chat) redact(s string) string { return redact(c.cfg.APIKey, s) }

// redactError prefixes err's message and removes key from it, keeping err
// for errors.Is and errors.As.
func redactError(key, prefix string, err error) error {
	return &redactedError{msg: redact(key, prefix+": "+err.Error()), err: err}
}

// minSecretLen keeps redaction from mangling messages when a local server
// is configured with a placeholder key such as "x".
const minSecretLen = 6

func redact(key, s string) string {
	if len(key) < minSecretLen {
		return s
	}
	return strings.ReplaceAll(s, key, "[redacted]")
}

// redactedError carries a cleaned message while keeping the original error
// for errors.Is and errors.As.
type redactedError struct {
	msg string
	err error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }

// retryAfterError joins an endpoint error with the wait its Retry-After
// header asked for, which backoff.Retry honours in place of its own.
type retryAfterError struct {
	err  error
	wait *backoff.RetryAfterError
}

func (e *retryAfterError) Error() string   { return e.err.Error() }
func (e *retryAfterError) Unwrap() []error { return []error{e.err, e.wait} }

// callNotesKey carries, in a request's context, the callNotes the
// transport fills in: go-openai's errors and stream keep no response
// headers.
type callNotesKey struct{}

// callNotes is what the transport saw of one attempt's response.
type callNotes struct {
	// retryAfter is the wait a 429 or 503 asked for.
	retryAfter atomic.Int64
	// jsonBody is set when a 200 came back as JSON rather than as an
	// event stream.
	jsonBody atomic.Bool
}

type observingTransport struct{ base http.RoundTripper }

func (t observingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		return resp, err
	}
	notes, ok := req.Context().Value(callNotesKey{}).(*callNotes)
	if !ok {
		return resp, nil
	}
	switch resp.StatusCode {
	case http.StatusTooManyRequests, http.StatusServiceUnavailable:
		if d, ok := parseRetryAfter(resp.Header.Get("Retry-After"), time.Now()); ok {
			notes.retryAfter.Store(int64(d))
		}
	case http.StatusOK:
		if strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
			notes.jsonBody.Store(true)
		}
	}
	return resp, nil
}

// parseRetryAfter reads delay-seconds or an HTTP date (RFC 9110, 10.2.3).
func parseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.Atoi(v); err == nil {
		if secs < 0 {
			return 0, false
		}
		return time.Duration(secs) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := t.Sub(now); d > 0 {
			return d, true
		}
	}
	return 0, false
}
