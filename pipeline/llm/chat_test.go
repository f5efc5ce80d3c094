package llm_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"math"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cenkalti/backoff/v5"

	"github.com/cewhq/cew/pipeline/llm"
	"github.com/cewhq/cew/pipeline/llm/llmtest"
)

var fastRetry = llm.RetryPolicy{InitialInterval: time.Millisecond, MaxInterval: 2 * time.Millisecond, Jitter: 0.25, MaxTries: 3}

const answer = "The default total system loss is 14 % [S1]."

func TestChatComplete(t *testing.T) {
	tests := []struct {
		name    string
		script  []llmtest.Response
		stream  bool
		timeout time.Duration
		model   string
		// want
		wantText     string
		wantTokens   string // streamed deltas joined with "|"
		wantErr      error  // checked with errors.Is; nil means success
		wantStatus   int
		wantAttempts int
		wantCalls    int
	}{
		{
			name: "streamed answer", stream: true,
			script:   []llmtest.Response{{Chunks: []string{"The default ", "total system loss ", "is 14 % [S1]."}, PromptTokens: 120, CompletionTokens: 11}},
			wantText: answer, wantTokens: "The default |total system loss |is 14 % [S1].", wantAttempts: 1, wantCalls: 1,
		},
		{
			name:     "answer in one JSON body",
			script:   []llmtest.Response{llmtest.Answer(answer)},
			wantText: answer, wantAttempts: 1, wantCalls: 1,
		},
		{
			name: "429 then success", stream: true,
			script:   []llmtest.Response{llmtest.RateLimited("1"), llmtest.Answer(answer)},
			wantText: answer, wantTokens: strings.Join(strings.SplitAfter(answer, " "), "|"), wantAttempts: 2, wantCalls: 2,
		},
		{
			name:     "500 twice then success",
			script:   []llmtest.Response{llmtest.Error(500, "overloaded"), llmtest.Error(502, ""), llmtest.Answer(answer)},
			wantText: answer, wantAttempts: 3, wantCalls: 3,
		},
		{
			name:       "500 until the tries run out",
			script:     []llmtest.Response{llmtest.Error(500, "a"), llmtest.Error(500, "b"), llmtest.Error(500, "c"), llmtest.Answer(answer)},
			wantStatus: 500, wantAttempts: 3, wantCalls: 3,
		},
		{
			name:       "400 is not retried",
			script:     []llmtest.Response{llmtest.Error(400, "max_tokens is too large"), llmtest.Answer(answer)},
			wantStatus: 400, wantAttempts: 1, wantCalls: 1,
		},
		{
			name:     "timeout before the answer is retried",
			timeout:  40 * time.Millisecond,
			script:   []llmtest.Response{{Text: answer, Delay: 5 * time.Second}, llmtest.Answer(answer)},
			wantText: answer, wantAttempts: 2, wantCalls: 2,
		},
		{
			name: "timeout on every try", stream: true,
			timeout: 30 * time.Millisecond,
			script:  []llmtest.Response{{Text: answer, Delay: 5 * time.Second}, {Text: answer, Delay: 5 * time.Second}, {Text: answer, Delay: 5 * time.Second}},
			wantErr: context.DeadlineExceeded, wantAttempts: 3, wantCalls: 3,
		},
		{
			name: "slow stream within the timeout", stream: true,
			timeout:  5 * time.Second,
			script:   []llmtest.Response{{Chunks: []string{"The default ", "total system loss ", "is 14 % [S1]."}, ChunkDelay: 10 * time.Millisecond}},
			wantText: answer, wantTokens: "The default |total system loss |is 14 % [S1].", wantAttempts: 1, wantCalls: 1,
		},
		{
			name: "stalled stream is not retried once tokens were shown", stream: true,
			timeout:    50 * time.Millisecond,
			script:     []llmtest.Response{{Chunks: []string{"The default ", "total system loss ", "is 14 % [S1]."}, ChunkDelay: 5 * time.Second}, llmtest.Answer(answer)},
			wantTokens: "The default ", wantErr: llm.ErrStreamInterrupted, wantAttempts: 1, wantCalls: 1,
		},
		{
			name: "connection dropped before the answer is retried", stream: true,
			script:   []llmtest.Response{llmtest.Dropped(), llmtest.Answer(answer)},
			wantText: answer, wantTokens: strings.Join(strings.SplitAfter(answer, " "), "|"), wantAttempts: 2, wantCalls: 2,
		},
		{
			name: "connection dropped mid-stream", stream: true,
			script:     []llmtest.Response{{Chunks: []string{"The default ", "total system loss ", "is 14 % [S1]."}, DropAfter: 2}, llmtest.Answer(answer)},
			wantTokens: "The default |total system loss ", wantErr: llm.ErrStreamInterrupted, wantAttempts: 1, wantCalls: 1,
		},
		{
			name: "cut off at the token limit", stream: true,
			script:     []llmtest.Response{{Chunks: []string{"The default ", "total"}, FinishReason: "length"}, llmtest.Answer(answer)},
			wantTokens: "The default |total", wantErr: llm.ErrTruncated, wantAttempts: 1, wantCalls: 1,
		},
		{
			name: "endpoint that ignores streaming", stream: true,
			script:  []llmtest.Response{{Text: answer, JSON: true}, llmtest.Answer(answer)},
			wantErr: llm.ErrNotStreamed, wantAttempts: 1, wantCalls: 1,
		},
		{
			name:     "reasoning model",
			model:    "o3-mini",
			script:   []llmtest.Response{llmtest.Answer(answer)},
			wantText: answer, wantAttempts: 1, wantCalls: 1,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.NewServer(t)
			srv.Script(tc.script...)
			model := tc.model
			if model == "" {
				model = "test-model"
			}
			chat := llm.NewChat(llm.EndpointConfig{BaseURL: srv.URL, Model: model, APIKey: "test-key", Timeout: tc.timeout, Retry: fastRetry})
			var (
				mu     sync.Mutex
				tokens []string
			)
			req := llm.ChatRequest{System: "system prompt", User: "user prompt", MaxTokens: 300}
			if tc.stream {
				req.OnToken = func(s string) {
					mu.Lock()
					tokens = append(tokens, s)
					mu.Unlock()
				}
			}
			res, err := chat.Complete(context.Background(), req)

			wantFail := tc.wantErr != nil || tc.wantStatus != 0
			if (err != nil) != wantFail {
				t.Fatalf("err = %v, want failure %v", err, wantFail)
			}
			if tc.wantErr != nil && !errors.Is(err, tc.wantErr) {
				t.Errorf("err = %v, want %v", err, tc.wantErr)
			}
			if got := llm.StatusCode(err); got != tc.wantStatus {
				t.Errorf("status = %d, want %d", got, tc.wantStatus)
			}
			if err == nil && res.Text != tc.wantText {
				t.Errorf("text = %q, want %q", res.Text, tc.wantText)
			}
			if got := strings.Join(tokens, "|"); got != tc.wantTokens {
				t.Errorf("streamed %q, want %q", got, tc.wantTokens)
			}
			if res.Attempts != tc.wantAttempts {
				t.Errorf("attempts = %d, want %d", res.Attempts, tc.wantAttempts)
			}
			if got := srv.Calls(); got != tc.wantCalls {
				t.Errorf("server saw %d calls, want %d", got, tc.wantCalls)
			}
			if err == nil && (res.PromptTokens == 0 || res.CompletionTokens == 0) {
				t.Errorf("usage not recorded: %+v", res)
			}

			r := srv.Requests()[0]
			if r.System() != "system prompt" || r.User() != "user prompt" || r.Model != model {
				t.Errorf("request = model %q system %q user %q", r.Model, r.System(), r.User())
			}
			if r.Stream != tc.stream || r.IncludeUsage != tc.stream {
				t.Errorf("stream = %v, include_usage = %v, want %v", r.Stream, r.IncludeUsage, tc.stream)
			}
			if tc.model == "" {
				// Greedy, and a float32 logit divided by it (as llama.cpp
				// does) stays finite.
				if r.Temperature == nil || *r.Temperature > 1e-5 || *r.Temperature <= 0 ||
					math.IsInf(float64(float32(1000)/float32(*r.Temperature)), 0) || r.MaxTokens != 300 {
					t.Errorf("temperature = %v, max_tokens = %d; want greedy, finite logits and 300", r.Temperature, r.MaxTokens)
				}
			} else if r.Temperature != nil || r.MaxCompletionTokens != 300 || r.MaxTokens != 0 {
				t.Errorf("reasoning model: temperature = %v, max_completion_tokens = %d, max_tokens = %d", r.Temperature, r.MaxCompletionTokens, r.MaxTokens)
			}
		})
	}
}

func TestChatHonoursRetryAfterUpToMaxInterval(t *testing.T) {
	tests := []struct {
		name       string
		retryAfter string
		wantWait   bool
	}{
		{name: "seconds", retryAfter: "7", wantWait: true},
		{name: "HTTP date", retryAfter: time.Now().Add(time.Hour).UTC().Format(http.TimeFormat), wantWait: true},
		{name: "date in the past", retryAfter: "Mon, 02 Jan 2006 15:04:05 GMT"},
		{name: "unreadable", retryAfter: "soon"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.NewServer(t)
			srv.SetDefault(llmtest.RateLimited(tc.retryAfter))
			chat := llm.NewChat(llm.EndpointConfig{BaseURL: srv.URL, Model: "m", Retry: fastRetry})
			_, err := chat.Complete(context.Background(), llm.ChatRequest{System: "s", User: "u"})
			var wait *backoff.RetryAfterError
			if errors.As(err, &wait) != tc.wantWait {
				t.Fatalf("err = %v; Retry-After wait in its chain: %v, want %v", err, !tc.wantWait, tc.wantWait)
			}
			if tc.wantWait && wait.Duration != fastRetry.MaxInterval {
				t.Errorf("wait = %v, want the server's wait capped at %v", wait.Duration, fastRetry.MaxInterval)
			}
			if llm.StatusCode(err) != http.StatusTooManyRequests || srv.Calls() != 3 {
				t.Errorf("status %d after %d calls, want 429 after 3", llm.StatusCode(err), srv.Calls())
			}
		})
	}
}

func TestChatCallerCancellationIsNotRetried(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.SetDefault(llmtest.Response{Text: answer, Delay: 5 * time.Second})
	chat := llm.NewChat(llm.EndpointConfig{BaseURL: srv.URL, Model: "m", Retry: fastRetry})
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for srv.Calls() == 0 {
			time.Sleep(time.Millisecond)
		}
		cancel()
	}()
	_, err := chat.Complete(ctx, llm.ChatRequest{System: "s", User: "u"})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if srv.Calls() != 1 {
		t.Errorf("server saw %d calls, want 1", srv.Calls())
	}
}

func TestChatNeverRevealsTheKey(t *testing.T) {
	const key = "sk-live-0123456789abcdef"
	srv := llmtest.NewServer(t)
	srv.Script(
		llmtest.Error(http.StatusUnauthorized, "Incorrect API key provided: "+key+"."),
		llmtest.Error(http.StatusInternalServerError, "upstream rejected key "+key),
		llmtest.Error(http.StatusInternalServerError, "upstream rejected key "+key),
		llmtest.Error(http.StatusInternalServerError, "upstream rejected key "+key),
	)
	var logs bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	chat := llm.NewChat(llm.EndpointConfig{BaseURL: srv.URL, Model: "m", APIKey: key, Retry: fastRetry}, llm.WithLogger(logger))
	for i := range 2 {
		_, err := chat.Complete(context.Background(), llm.ChatRequest{System: "s", User: "u"})
		if err == nil {
			t.Fatalf("call %d succeeded, want an error", i)
		}
		if strings.Contains(err.Error(), key) {
			t.Errorf("error reveals the key: %v", err)
		}
		if !strings.Contains(err.Error(), "[redacted]") {
			t.Errorf("error %q lost the server's message", err)
		}
	}
	if got := srv.Requests()[0].Header.Get("Authorization"); got != "Bearer "+key {
		t.Errorf("Authorization = %q, want the key sent to the endpoint", got)
	}
	if logs.Len() == 0 || strings.Contains(logs.String(), key) {
		t.Errorf("logs reveal the key or are empty:\n%s", logs.String())
	}
}

// clock is a hand-moved clock for the breaker.
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
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

func TestChatBreaker(t *testing.T) {
	srv := llmtest.NewServer(t)
	clk := &clock{now: time.Unix(1_700_000_000, 0)}
	breaker := llm.NewBreaker(llm.BreakerConfig{Failures: 2, CoolDown: time.Minute, Now: clk.Now})
	retry := fastRetry
	retry.MaxTries = 2
	chat := llm.NewChat(llm.EndpointConfig{BaseURL: srv.URL, Model: "m", Retry: retry}, llm.WithBreaker(breaker))
	ask := func() error {
		_, err := chat.Complete(context.Background(), llm.ChatRequest{System: "s", User: "u"})
		return err
	}
	srv.Script(llmtest.Error(500, "a"), llmtest.Error(500, "b"), llmtest.Error(503, "c"), llmtest.Error(503, "d"))
	steps := []struct {
		name      string
		advance   time.Duration
		script    []llmtest.Response
		wantOK    bool
		wantOpen  bool // the call fails with ErrCircuitOpen
		wantCalls int
		wantState llm.BreakerState
	}{
		{name: "first failed call", wantCalls: 2, wantState: llm.BreakerClosed},
		{name: "second failed call opens", wantCalls: 4, wantState: llm.BreakerOpen},
		{name: "open: no request sent", wantOpen: true, wantCalls: 4, wantState: llm.BreakerOpen},
		{name: "trial after the cool-down closes", advance: time.Minute, script: []llmtest.Response{llmtest.Answer(answer)}, wantOK: true, wantCalls: 5, wantState: llm.BreakerClosed},
	}
	for _, s := range steps {
		clk.Advance(s.advance)
		srv.Script(s.script...)
		err := ask()
		if (err == nil) != s.wantOK || errors.Is(err, llm.ErrCircuitOpen) != s.wantOpen {
			t.Errorf("%s: err = %v, want ok %v, circuit open %v", s.name, err, s.wantOK, s.wantOpen)
		}
		if got := srv.Calls(); got != s.wantCalls {
			t.Errorf("%s: server saw %d calls, want %d", s.name, got, s.wantCalls)
		}
		if got := breaker.State(); got != s.wantState {
			t.Errorf("%s: breaker %v, want %v", s.name, got, s.wantState)
		}
	}
}

// TestChatBreakerSurvivesPanickingOnToken: a trial call whose OnToken
// panics must not leave the breaker half-open with a trial in flight, which
// would refuse every later call.
func TestChatBreakerSurvivesPanickingOnToken(t *testing.T) {
	srv := llmtest.NewServer(t)
	clk := &clock{now: time.Unix(1_700_000_000, 0)}
	breaker := llm.NewBreaker(llm.BreakerConfig{Failures: 1, CoolDown: time.Minute, Now: clk.Now})
	retry := fastRetry
	retry.MaxTries = 1
	chat := llm.NewChat(llm.EndpointConfig{BaseURL: srv.URL, Model: "m", Retry: retry}, llm.WithBreaker(breaker))

	srv.Script(llmtest.Error(500, "down"))
	if _, err := chat.Complete(context.Background(), llm.ChatRequest{System: "s", User: "u"}); err == nil {
		t.Fatal("failing call succeeded")
	}
	clk.Advance(time.Minute)
	srv.Script(llmtest.Answer(answer), llmtest.Answer(answer))
	func() {
		defer func() {
			if recover() == nil {
				t.Fatal("OnToken's panic was swallowed")
			}
		}()
		_, _ = chat.Complete(context.Background(), llm.ChatRequest{System: "s", User: "u", OnToken: func(string) { panic("renderer bug") }})
	}()
	if _, err := chat.Complete(context.Background(), llm.ChatRequest{System: "s", User: "u"}); err != nil {
		t.Fatalf("call after the panic: %v", err)
	}
	if got := breaker.State(); got != llm.BreakerClosed {
		t.Errorf("breaker %v, want closed", got)
	}
}
