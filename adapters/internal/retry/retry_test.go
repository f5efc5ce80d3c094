package retry

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
)

var errTemporary = errors.New("temporary")

func TestDo(t *testing.T) {
	tests := []struct {
		name      string
		fails     int // calls that fail before one succeeds
		verdict   Verdict
		wantErr   bool
		wantCalls int
		wantWaits []time.Duration
	}{
		{"success at once", 0, Verdict{}, false, 1, nil},
		{"retries honour the wait", 2, Verdict{Kind: KindRateLimited, Wait: 3 * time.Second, Retryable: true}, false, 3, []time.Duration{3 * time.Second, 3 * time.Second}},
		{"final failure is not retried", 5, Verdict{Kind: KindAPI}, true, 1, nil},
		{"attempts run out", 10, Verdict{Kind: KindServer, Wait: time.Millisecond, Retryable: true}, true, 4, []time.Duration{time.Millisecond, time.Millisecond, time.Millisecond}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var waits []time.Duration
			var seen []Attempt
			calls := 0
			p := Policy{
				Classify: func(error, func() time.Duration) Verdict { return tt.verdict },
				Sleep:    func(_ context.Context, d time.Duration) error { waits = append(waits, d); return nil },
				Observe:  func(a Attempt) { seen = append(seen, a) },
			}
			err := p.Do(context.Background(), "send", func(ctx context.Context) error {
				calls++
				if _, ok := ctx.Deadline(); !ok {
					t.Error("call without a deadline")
				}
				if calls <= tt.fails {
					return errTemporary
				}
				return nil
			})
			if (err != nil) != tt.wantErr || (err != nil && !errors.Is(err, errTemporary)) {
				t.Errorf("err = %v", err)
			}
			if calls != tt.wantCalls {
				t.Errorf("calls = %d, want %d", calls, tt.wantCalls)
			}
			if len(waits) != len(tt.wantWaits) {
				t.Fatalf("waits = %v, want %v", waits, tt.wantWaits)
			}
			for i := range waits {
				if waits[i] != tt.wantWaits[i] {
					t.Errorf("wait %d = %v, want %v", i, waits[i], tt.wantWaits[i])
				}
			}
			if tt.wantErr && (len(seen) == 0 || !seen[len(seen)-1].Final) {
				t.Errorf("last attempt not reported final: %+v", seen)
			}
		})
	}
}

func TestDoStopsWhenContextEnds(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	calls := 0
	p := Policy{Classify: func(error, func() time.Duration) Verdict {
		return Verdict{Kind: KindServer, Wait: time.Hour, Retryable: true}
	}}
	go cancel()
	err := p.Do(ctx, "send", func(context.Context) error { calls++; return errTemporary })
	if err == nil || calls > 2 {
		t.Errorf("err = %v after %d calls", err, calls)
	}
}

func TestHTTPStatus(t *testing.T) {
	next := func() time.Duration { return 500 * time.Millisecond }
	tests := []struct {
		name       string
		code       int
		retryAfter time.Duration
		want       Verdict
	}{
		{"429 with Retry-After", 429, 7 * time.Second, Verdict{KindRateLimited, 7 * time.Second, true}},
		{"429 without waits at least a second", 429, 0, Verdict{KindRateLimited, time.Second, true}},
		{"429 asking for too long gives up", 429, 2 * time.Hour, Verdict{KindRateLimited, 2 * time.Hour, false}},
		{"503 backs off", 503, 0, Verdict{KindServer, 500 * time.Millisecond, true}},
		{"503 with Retry-After", 503, 2 * time.Second, Verdict{KindServer, 2 * time.Second, true}},
		{"408 is network", 408, 0, Verdict{KindNetwork, 500 * time.Millisecond, true}},
		{"401 is final", http.StatusUnauthorized, 0, Verdict{Kind: KindAPI}},
		{"400 is final", 400, 0, Verdict{Kind: KindAPI}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := HTTPStatus(tt.code, tt.retryAfter, next); got != tt.want {
				t.Errorf("HTTPStatus = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestRetryAfter(t *testing.T) {
	now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name, in string
		want     time.Duration
	}{
		{"seconds", "12", 12 * time.Second},
		{"http date", "Sat, 01 Mar 2025 12:00:30 GMT", 30 * time.Second},
		{"date in the past", "Sat, 01 Mar 2025 11:00:00 GMT", 0},
		{"negative", "-3", 0},
		{"garbage", "soon", 0},
		{"absent", "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := RetryAfter(tt.in, now); got != tt.want {
				t.Errorf("RetryAfter(%q) = %v, want %v", tt.in, got, tt.want)
			}
		})
	}
}

func TestLogged(t *testing.T) {
	var buf bytes.Buffer
	var counted []string
	observe := Logged(slog.New(slog.NewTextHandler(&buf, nil)), "teams", "connector", func(method, kind string) {
		counted = append(counted, method+"/"+kind)
	})
	p := Policy{
		Attempts: 2,
		Classify: func(error, func() time.Duration) Verdict {
			return Verdict{Kind: KindServer, Wait: 2 * time.Second, Retryable: true}
		},
		Sleep:   func(context.Context, time.Duration) error { return nil },
		Observe: observe,
	}
	if err := p.Do(context.Background(), "send_message", func(context.Context) error { return errTemporary }); !errors.Is(err, errTemporary) {
		t.Fatalf("Do = %v", err)
	}
	if want := []string{"send_message/server", "send_message/server"}; !slices.Equal(counted, want) {
		t.Errorf("counted %v, want %v", counted, want)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("logged %d lines, want 2:\n%s", len(lines), buf.String())
	}
	for i, want := range []string{
		`level=INFO msg="connector call failed; retrying" platform=teams stage=api method=send_message attempt=1 kind=server wait_ms=2000 err=temporary`,
		`level=WARN msg="connector call failed" platform=teams stage=api method=send_message attempt=2 kind=server err=temporary`,
	} {
		if !strings.Contains(lines[i], want) {
			t.Errorf("line %d = %s, want it to contain %s", i, lines[i], want)
		}
	}
}
