package llm

import (
	"context"
	"encoding/json"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

var fastRetry = RetryPolicy{InitialInterval: time.Millisecond, MaxInterval: 2 * time.Millisecond, Jitter: 0.25, MaxTries: 3}

// embeddingServer answers /embeddings with vectors derived from each input's
// length, failing the first `failures` calls with status `failStatus`.
func embeddingServer(t *testing.T, failures int32, failStatus int) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := calls.Add(1)
		if n <= failures {
			w.WriteHeader(failStatus)
			_, _ = w.Write([]byte(`{"error":{"message":"scripted failure","type":"server_error"}}`))
			return
		}
		var req struct {
			Input []string `json:"input"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		type item struct {
			Object    string    `json:"object"`
			Index     int       `json:"index"`
			Embedding []float32 `json:"embedding"`
		}
		var data []item
		// Reverse order: clients must place vectors by index, not position.
		for i := len(req.Input) - 1; i >= 0; i-- {
			data = append(data, item{"embedding", i, []float32{float32(len(req.Input[i])), 0, 0}})
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data, "model": "m"})
	}))
	t.Cleanup(srv.Close)
	return srv, &calls
}

func TestEmbedder(t *testing.T) {
	tests := []struct {
		name       string
		failures   int32
		failStatus int
		inputs     int
		wantErr    bool
		wantCalls  int32
	}{
		{name: "ok in batches", inputs: 70, wantCalls: 3},
		{name: "retries 500", failures: 2, failStatus: 500, inputs: 1, wantCalls: 3},
		{name: "retries 429", failures: 1, failStatus: 429, inputs: 1, wantCalls: 2},
		{name: "no retry on 400", failures: 5, failStatus: 400, inputs: 1, wantErr: true, wantCalls: 1},
		{name: "gives up after max tries", failures: 5, failStatus: 503, inputs: 1, wantErr: true, wantCalls: 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv, calls := embeddingServer(t, tc.failures, tc.failStatus)
			e := NewEmbedder(EndpointConfig{BaseURL: srv.URL, Model: "m", APIKey: "k", Retry: fastRetry})
			texts := make([]string, tc.inputs)
			for i := range texts {
				texts[i] = string(make([]byte, i+1))
			}
			vecs, err := e.Embed(context.Background(), texts)
			if tc.wantErr != (err != nil) {
				t.Fatalf("err = %v, wantErr %v", err, tc.wantErr)
			}
			if got := calls.Load(); got != tc.wantCalls {
				t.Errorf("calls = %d, want %d", got, tc.wantCalls)
			}
			if tc.wantErr {
				return
			}
			if len(vecs) != tc.inputs {
				t.Fatalf("got %d vectors, want %d", len(vecs), tc.inputs)
			}
			for i, v := range vecs {
				if math.Abs(float64(v[0])-1) > 1e-6 {
					t.Fatalf("vector %d not normalised: %v", i, v)
				}
			}
		})
	}
}

func TestEmbedderNeverRevealsTheKey(t *testing.T) {
	const key = "sk-live-0123456789abcdef"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = w.Write([]byte(`{"error":{"message":"Incorrect API key provided: ` + key + `.","type":"invalid_request_error"}}`))
	}))
	t.Cleanup(srv.Close)
	e := NewEmbedder(EndpointConfig{BaseURL: srv.URL, Model: "m", APIKey: key, Retry: fastRetry})
	_, err := e.Embed(context.Background(), []string{"trench depth"})
	if err == nil {
		t.Fatal("Embed succeeded, want an error")
	}
	if strings.Contains(err.Error(), key) {
		t.Errorf("error reveals the key: %v", err)
	}
	if !strings.Contains(err.Error(), "[redacted]") || StatusCode(err) != http.StatusUnauthorized {
		t.Errorf("error %q (status %d) lost the server's message or status", err, StatusCode(err))
	}
}

func TestRetryable(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"nil", nil, false},
		{"canceled", context.Canceled, false},
		{"deadline", context.DeadlineExceeded, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Retryable(tc.err); got != tc.want {
				t.Errorf("Retryable(%v) = %v, want %v", tc.err, got, tc.want)
			}
		})
	}
}
