package rank

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cewhq/cew/store"
)

// rerankServer is a fake rerank endpoint that scores each text by a fixed
// table keyed by the text's first word, and answers in the shape the test
// asks for. It records what it received.
type rerankServer struct {
	format HTTPFormat
	// scores by first word of the chunk text; missing words score 0.
	scores map[string]float64
	// respond, when set, replaces the normal answer.
	respond func(w http.ResponseWriter, r *http.Request, texts []string)

	mu       sync.Mutex
	requests []recordedRequest
}

type recordedRequest struct {
	auth  string
	model string
	query string
	texts []string
	topN  int
}

func (s *rerankServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var req struct {
		Model     string   `json:"model"`
		Query     string   `json:"query"`
		Texts     []string `json:"texts"`
		Documents []string `json:"documents"`
		TopN      int      `json:"top_n"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, err.Error(), http.StatusUnprocessableEntity)
		return
	}
	texts := req.Texts
	if s.format == FormatCohere {
		texts = req.Documents
	}
	if (s.format == FormatTEI) != (req.Texts != nil) || (s.format == FormatCohere) != (req.Documents != nil) {
		http.Error(w, "wrong request shape for "+string(s.format), http.StatusUnprocessableEntity)
		return
	}
	s.mu.Lock()
	s.requests = append(s.requests, recordedRequest{auth: r.Header.Get("Authorization"), model: req.Model, query: req.Query, texts: texts, topN: req.TopN})
	s.mu.Unlock()
	if s.respond != nil {
		s.respond(w, r, texts)
		return
	}
	scoreKey := "score"
	if s.format == FormatCohere {
		scoreKey = "relevance_score"
	}
	results := make([]map[string]any, len(texts))
	for i, text := range texts {
		body := text[strings.IndexByte(text, '\n')+1:]
		results[i] = map[string]any{"index": i, scoreKey: s.scores[strings.Fields(body + " ?")[0]]}
	}
	// Both services answer best first, not in input order.
	slices.SortFunc(results, func(a, b map[string]any) int {
		return cmp.Compare(b[scoreKey].(float64), a[scoreKey].(float64))
	})
	w.Header().Set("Content-Type", "application/json")
	if s.format == FormatCohere {
		_ = json.NewEncoder(w).Encode(map[string]any{"results": results})
		return
	}
	_ = json.NewEncoder(w).Encode(results)
}

func titledChunk(id, text string) store.Chunk {
	return store.Chunk{ID: id, DocID: "d", Title: "PVWatts Version 5 Manual", Section: "System Losses", Text: text}
}

func TestHTTPRerank(t *testing.T) {
	hits := hitsOf(
		titledChunk("a", "alpha passage"),
		titledChunk("b", "bravo passage"),
		titledChunk("c", "charlie passage"),
		titledChunk("d", "delta passage"),
		titledChunk("e", "echo passage"),
	)
	tests := []struct {
		name      string
		format    HTTPFormat
		cfg       HTTPConfig
		scores    map[string]float64
		want      []string
		wantScore map[string]float64
		requests  int
	}{
		{
			name:      "tei probabilities",
			format:    FormatTEI,
			scores:    map[string]float64{"alpha": 0.1, "bravo": 0.9, "charlie": 0.5, "delta": 0.5, "echo": 0.2},
			want:      []string{"b", "c", "d", "e", "a"},
			wantScore: map[string]float64{"b": 0.9, "a": 0.1},
			requests:  1,
		},
		{
			name:      "cohere style with model and key",
			format:    FormatCohere,
			cfg:       HTTPConfig{Model: "jina-reranker-v2-base-multilingual", APIKey: "k-123"},
			scores:    map[string]float64{"alpha": 0.7, "bravo": 0.2, "charlie": 0.95, "delta": 0.01, "echo": 0.3},
			want:      []string{"c", "a", "e", "b", "d"},
			wantScore: map[string]float64{"c": 0.95},
			requests:  1,
		},
		{
			name:      "logits mapped through a sigmoid",
			format:    FormatTEI,
			scores:    map[string]float64{"alpha": -4, "bravo": 2.5, "charlie": 0, "delta": 7, "echo": -1},
			want:      []string{"d", "b", "c", "e", "a"},
			wantScore: map[string]float64{"c": 0.5, "d": 1 / (1 + math.Exp(-7)), "a": 1 / (1 + math.Exp(4))},
			requests:  1,
		},
		{
			name:      "forced logits",
			format:    FormatCohere,
			cfg:       HTTPConfig{Format: FormatCohere, Logits: true},
			scores:    map[string]float64{"alpha": 0.5, "bravo": 0, "charlie": 0.25, "delta": 1, "echo": 0.75},
			want:      []string{"d", "e", "a", "c", "b"},
			wantScore: map[string]float64{"b": 0.5},
			requests:  1,
		},
		{
			name:      "batches keep their offsets",
			format:    FormatTEI,
			cfg:       HTTPConfig{BatchSize: 2},
			scores:    map[string]float64{"alpha": 0.3, "bravo": 0.1, "charlie": 0.2, "delta": 0.9, "echo": 0.8},
			want:      []string{"d", "e", "a", "c", "b"},
			wantScore: map[string]float64{"e": 0.8},
			requests:  3,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := &rerankServer{format: tc.format, scores: tc.scores}
			ts := httptest.NewServer(srv)
			defer ts.Close()
			cfg := tc.cfg
			cfg.URL = ts.URL + "/rerank"
			in := slices.Clone(hits)
			got, err := NewHTTP(cfg).Rerank(context.Background(), "default system losses", hits)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(ids(got), tc.want) {
				t.Errorf("order = %v, want %v (scores %v)", ids(got), tc.want, scores(got))
			}
			for id, want := range tc.wantScore {
				if s := scoreOf(got, id); math.Abs(s-want) > 1e-9 {
					t.Errorf("score of %s = %v, want %v", id, s, want)
				}
			}
			assertSorted(t, got)
			if !slices.EqualFunc(in, hits, sameHit) {
				t.Error("input slice was modified")
			}
			if len(srv.requests) != tc.requests {
				t.Fatalf("server got %d requests, want %d", len(srv.requests), tc.requests)
			}
			r := srv.requests[0]
			if r.query != "default system losses" {
				t.Errorf("query sent = %q", r.query)
			}
			if !strings.HasPrefix(r.texts[0], "PVWatts Version 5 Manual — System Losses\n") {
				t.Errorf("text sent = %q, want title and section before the text", r.texts[0])
			}
			if tc.cfg.APIKey != "" && r.auth != "Bearer "+tc.cfg.APIKey {
				t.Errorf("Authorization = %q", r.auth)
			}
			if r.model != tc.cfg.Model {
				t.Errorf("model sent = %q, want %q", r.model, tc.cfg.Model)
			}
			if tc.format == FormatCohere && r.topN != len(r.texts) {
				t.Errorf("top_n = %d, want every text (%d)", r.topN, len(r.texts))
			}
		})
	}
}

func TestHTTPRerankFailures(t *testing.T) {
	hits := hitsOf(titledChunk("a", "alpha"), titledChunk("b", "bravo"))
	write := func(status int, body string) func(http.ResponseWriter, *http.Request, []string) {
		return func(w http.ResponseWriter, _ *http.Request, _ []string) {
			w.WriteHeader(status)
			_, _ = io.WriteString(w, body)
		}
	}
	tests := []struct {
		name    string
		cfg     HTTPConfig
		respond func(http.ResponseWriter, *http.Request, []string)
		// sentinel, when set, must be in the error chain.
		sentinel error
		contains string
	}{
		{name: "server error", respond: write(http.StatusInternalServerError, `{"error":"model not loaded"}`), contains: "500"},
		{name: "rate limited", respond: write(http.StatusTooManyRequests, "slow down"), contains: "429"},
		{name: "not json", respond: write(http.StatusOK, "<html>gateway</html>"), sentinel: ErrBadResponse},
		{name: "empty body", respond: write(http.StatusOK, ""), sentinel: ErrBadResponse},
		{name: "object without results", respond: write(http.StatusOK, `{"error":"none"}`), sentinel: ErrBadResponse},
		{name: "index out of range", respond: write(http.StatusOK, `[{"index":0,"score":0.1},{"index":5,"score":0.2}]`), sentinel: ErrBadResponse},
		{name: "negative index", respond: write(http.StatusOK, `[{"index":-1,"score":0.1},{"index":1,"score":0.2}]`), sentinel: ErrBadResponse},
		{name: "missing text", respond: write(http.StatusOK, `[{"index":0,"score":0.1}]`), sentinel: ErrBadResponse},
		{name: "repeated index", respond: write(http.StatusOK, `[{"index":0,"score":0.1},{"index":0,"score":0.2}]`), sentinel: ErrBadResponse},
		{name: "missing score", respond: write(http.StatusOK, `{"results":[{"index":0},{"index":1,"relevance_score":0.2}]}`), sentinel: ErrBadResponse},
		{name: "missing index", respond: write(http.StatusOK, `[{"score":0.1},{"index":1,"score":0.2}]`), sentinel: ErrBadResponse},
		{
			name: "timeout", cfg: HTTPConfig{Timeout: 20 * time.Millisecond},
			respond: func(_ http.ResponseWriter, r *http.Request, _ []string) {
				<-r.Context().Done() // hold the request until the client gives up
			},
			sentinel: context.DeadlineExceeded,
		},
		{name: "unknown format", cfg: HTTPConfig{Format: "soap"}, respond: write(http.StatusOK, "[]"), contains: "unknown format"},
		{name: "rejected key is not repeated", cfg: HTTPConfig{APIKey: "jina_0123456789abcdef"},
			respond: write(http.StatusUnauthorized, `{"detail":"invalid API key jina_0123456789abcdef"}`), contains: "invalid API key [redacted]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := &rerankServer{format: FormatTEI, respond: tc.respond}
			ts := httptest.NewServer(srv)
			defer ts.Close()
			cfg := tc.cfg
			cfg.URL = ts.URL
			got, err := NewHTTP(cfg).Rerank(context.Background(), "q", hits)
			if err == nil {
				t.Fatalf("no error; got %v", ids(got))
			}
			if tc.sentinel != nil && !errors.Is(err, tc.sentinel) {
				t.Errorf("err = %v, want %v in the chain", err, tc.sentinel)
			}
			if !strings.Contains(err.Error(), tc.contains) {
				t.Errorf("err = %v, want it to mention %q", err, tc.contains)
			}
			if !strings.HasPrefix(err.Error(), "rank: ") {
				t.Errorf("err = %v, want the package prefix", err)
			}
		})
	}
}

func TestHTTPRerankEdges(t *testing.T) {
	t.Run("no hits makes no request", func(t *testing.T) {
		srv := &rerankServer{format: FormatTEI}
		ts := httptest.NewServer(srv)
		defer ts.Close()
		got, err := NewHTTP(HTTPConfig{URL: ts.URL}).Rerank(context.Background(), "q", nil)
		if err != nil || len(got) != 0 || len(srv.requests) != 0 {
			t.Errorf("got %v, %v with %d requests; want nothing", got, err, len(srv.requests))
		}
	})
	t.Run("no url", func(t *testing.T) {
		if _, err := NewHTTP(HTTPConfig{}).Rerank(context.Background(), "q", hitsOf(chunk("a", "x"))); err == nil {
			t.Error("no error without a URL")
		}
	})
	t.Run("unreachable", func(t *testing.T) {
		ts := httptest.NewServer(http.NotFoundHandler())
		url := ts.URL
		ts.Close()
		if _, err := NewHTTP(HTTPConfig{URL: url}).Rerank(context.Background(), "q", hitsOf(chunk("a", "x"))); err == nil {
			t.Error("no error for a closed server")
		}
	})
	t.Run("long text truncated on a rune boundary", func(t *testing.T) {
		srv := &rerankServer{format: FormatTEI}
		ts := httptest.NewServer(srv)
		defer ts.Close()
		long := strings.Repeat("é", 100)
		if _, err := NewHTTP(HTTPConfig{URL: ts.URL, MaxChars: 51}).Rerank(context.Background(), "q",
			hitsOf(store.Chunk{ID: "a", Text: long})); err != nil {
			t.Fatal(err)
		}
		sent := srv.requests[0].texts[0]
		if sent != strings.Repeat("é", 25) {
			t.Errorf("sent %q (%d bytes), want 25 whole runes", sent, len(sent))
		}
	})
	t.Run("default format follows model", func(t *testing.T) {
		if f := NewHTTP(HTTPConfig{}).cfg.Format; f != FormatTEI {
			t.Errorf("format without model = %q, want tei", f)
		}
		if f := NewHTTP(HTTPConfig{Model: "m"}).cfg.Format; f != FormatCohere {
			t.Errorf("format with model = %q, want cohere", f)
		}
	})
}
