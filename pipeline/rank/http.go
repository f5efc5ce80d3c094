package rank

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/cewhq/cew/store"
)

// ErrBadResponse is returned when a rerank endpoint answers with something
// that is not a score for every text sent.
var ErrBadResponse = errors.New("rank: bad rerank response")

// HTTPFormat is the wire format of a rerank endpoint.
type HTTPFormat string

const (
	// FormatTEI is Hugging Face Text Embeddings Inference:
	// POST {query, texts} → [{index, score}].
	FormatTEI HTTPFormat = "tei"
	// FormatCohere is the Cohere / Jina / vLLM / llama.cpp style:
	// POST {model, query, documents, top_n} → {results: [{index, relevance_score}]}.
	FormatCohere HTTPFormat = "cohere"
)

// Defaults of HTTPConfig.
const (
	DefaultHTTPTimeout = 5 * time.Second
	// DefaultBatchSize matches TEI's default --max-client-batch-size (32);
	// larger requests are refused there.
	DefaultBatchSize = 32
	// DefaultMaxChars bounds each text sent; cross-encoders read about 512
	// tokens, so more only costs bandwidth.
	DefaultMaxChars = 4000
	// maxParallelBatches bounds concurrent requests for one rerank.
	maxParallelBatches = 4
	// errorBodyBytes is how much of an error response is quoted.
	errorBodyBytes = 512
)

// HTTPConfig configures a cross-encoder behind an HTTP rerank endpoint.
type HTTPConfig struct {
	// URL is the full endpoint, e.g. http://tei:8080/rerank or
	// https://api.jina.ai/v1/rerank.
	URL string
	// Format is the wire format; empty means FormatCohere when Model is
	// set, FormatTEI otherwise (TEI serves one model and takes no name).
	Format HTTPFormat
	Model  string
	// APIKey is sent as a bearer token when set.
	APIKey string
	// Timeout bounds one Rerank call, all batches included; 0 means
	// DefaultHTTPTimeout.
	Timeout time.Duration
	// BatchSize is the most texts per request; 0 means DefaultBatchSize.
	BatchSize int
	// MaxChars truncates each text; 0 means DefaultMaxChars.
	MaxChars int
	// Logits says the endpoint returns raw logits, always mapped through a
	// sigmoid. Otherwise scores already in [0,1] are kept and any list with
	// a score outside it is taken to be logits.
	Logits bool
	// Client is the HTTP client; nil means a new one (the timeout comes
	// from the context, not the client).
	Client *http.Client
}

// HTTP reranks with a remote cross-encoder. Any failure is returned as an
// error so the caller can fall back to the lexical reranker. It is safe for
// concurrent use.
type HTTP struct {
	cfg HTTPConfig
}

var _ Reranker = (*HTTP)(nil)

// NewHTTP returns a reranker for the endpoint cfg describes.
func NewHTTP(cfg HTTPConfig) *HTTP {
	if cfg.Format == "" {
		cfg.Format = FormatTEI
		if cfg.Model != "" {
			cfg.Format = FormatCohere
		}
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultHTTPTimeout
	}
	if cfg.BatchSize <= 0 {
		cfg.BatchSize = DefaultBatchSize
	}
	if cfg.MaxChars <= 0 {
		cfg.MaxChars = DefaultMaxChars
	}
	if cfg.Client == nil {
		cfg.Client = &http.Client{}
	}
	return &HTTP{cfg: cfg}
}

// Rerank scores every hit with the endpoint and returns them best first.
func (h *HTTP) Rerank(ctx context.Context, query string, hits []store.Hit) ([]store.Hit, error) {
	out := slices.Clone(hits)
	if len(out) == 0 {
		return out, nil
	}
	if h.cfg.URL == "" {
		return nil, fmt.Errorf("rank: http: no endpoint URL configured")
	}
	if h.cfg.Format != FormatTEI && h.cfg.Format != FormatCohere {
		return nil, fmt.Errorf("rank: http: unknown format %q", h.cfg.Format)
	}
	ctx, cancel := context.WithTimeout(ctx, h.cfg.Timeout)
	defer cancel()

	texts := make([]string, len(out))
	for i := range out {
		texts[i] = rerankText(&out[i].Chunk, h.cfg.MaxChars)
	}
	scores := make([]float64, len(out))
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		firstErr error
		sem      = make(chan struct{}, maxParallelBatches)
	)
	for from := 0; from < len(texts); from += h.cfg.BatchSize {
		to := min(from+h.cfg.BatchSize, len(texts))
		wg.Go(func() {
			select {
			case sem <- struct{}{}:
				defer func() { <-sem }()
			case <-ctx.Done():
				return
			}
			batch, err := h.call(ctx, query, texts[from:to])
			if err != nil {
				mu.Lock()
				if firstErr == nil {
					firstErr = err
					cancel()
				}
				mu.Unlock()
				return
			}
			copy(scores[from:to], batch)
		})
	}
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("rank: http: %w", err)
	}
	logits := h.cfg.Logits
	for _, s := range scores {
		if s < 0 || s > 1 {
			logits = true
		}
	}
	for i := range out {
		s := scores[i]
		if logits {
			s = 1 / (1 + math.Exp(-s))
		}
		out[i].Score = clamp01(s)
	}
	sortHits(out)
	return out, nil
}

// rerankText is what the cross-encoder reads for a chunk: where it comes
// from, then its text, cut on a character boundary.
func rerankText(c *store.Chunk, maxChars int) string {
	var b strings.Builder
	for _, f := range [...]string{c.Title, c.Section, c.Sheet} {
		if f == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteString(" — ")
		}
		b.WriteString(f)
	}
	if b.Len() > 0 {
		b.WriteString("\n")
	}
	b.WriteString(c.Text)
	s := b.String()
	if len(s) <= maxChars {
		return s
	}
	cut := maxChars
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut]
}

type teiRequest struct {
	Query    string   `json:"query"`
	Texts    []string `json:"texts"`
	Truncate bool     `json:"truncate"`
}

type cohereRequest struct {
	Model     string   `json:"model,omitempty"`
	Query     string   `json:"query"`
	Documents []string `json:"documents"`
	TopN      int      `json:"top_n"`
}

// rerankResult accepts both response shapes' entries.
type rerankResult struct {
	Index          *int     `json:"index"`
	Score          *float64 `json:"score"`
	RelevanceScore *float64 `json:"relevance_score"`
}

// call sends one batch and returns a score per text, in the texts' order.
func (h *HTTP) call(ctx context.Context, query string, texts []string) ([]float64, error) {
	var body any = teiRequest{Query: query, Texts: texts, Truncate: true}
	if h.cfg.Format == FormatCohere {
		body = cohereRequest{Model: h.cfg.Model, Query: query, Documents: texts, TopN: len(texts)}
	}
	payload, err := json.Marshal(body)
	if err != nil {
		return nil, fmt.Errorf("rank: http: encode request: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, h.cfg.URL, bytes.NewReader(payload))
	if err != nil {
		return nil, fmt.Errorf("rank: http: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if h.cfg.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+h.cfg.APIKey)
	}
	resp, err := h.cfg.Client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("rank: http: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		snippet, _ := io.ReadAll(io.LimitReader(resp.Body, errorBodyBytes))
		return nil, fmt.Errorf("rank: http: %s: %s", resp.Status, h.redact(strings.TrimSpace(string(snippet))))
	}
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("rank: http: read response: %w", err)
	}
	results, err := decodeResults(raw)
	if err != nil {
		return nil, err
	}
	return scoresByIndex(results, len(texts))
}

// minSecretLen keeps redaction from mangling messages when a local server
// is configured with a placeholder key such as "x".
const minSecretLen = 6

// redact removes the API key from an endpoint's error text: some servers
// echo a rejected key, and the pipeline logs reranker errors.
func (h *HTTP) redact(s string) string {
	if len(h.cfg.APIKey) < minSecretLen {
		return s
	}
	return strings.ReplaceAll(s, h.cfg.APIKey, "[redacted]")
}

// decodeResults reads either a bare list (TEI) or an object with a results
// list (Cohere, Jina, vLLM, llama.cpp).
func decodeResults(raw []byte) ([]rerankResult, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return nil, fmt.Errorf("%w: empty body", ErrBadResponse)
	}
	var results []rerankResult
	switch raw[0] {
	case '[':
		if err := json.Unmarshal(raw, &results); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrBadResponse, err)
		}
	case '{':
		var obj struct {
			Results *[]rerankResult `json:"results"`
			Data    *[]rerankResult `json:"data"`
		}
		if err := json.Unmarshal(raw, &obj); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrBadResponse, err)
		}
		switch {
		case obj.Results != nil:
			results = *obj.Results
		case obj.Data != nil:
			results = *obj.Data
		default:
			return nil, fmt.Errorf("%w: no results list", ErrBadResponse)
		}
	default:
		return nil, fmt.Errorf("%w: not JSON", ErrBadResponse)
	}
	return results, nil
}

// scoresByIndex places each result's score at its index and checks that
// every text got exactly one finite score.
func scoresByIndex(results []rerankResult, n int) ([]float64, error) {
	scores := make([]float64, n)
	seen := make([]bool, n)
	for _, r := range results {
		if r.Index == nil {
			return nil, fmt.Errorf("%w: result without index", ErrBadResponse)
		}
		i := *r.Index
		if i < 0 || i >= n {
			return nil, fmt.Errorf("%w: index %d out of range [0,%d)", ErrBadResponse, i, n)
		}
		if seen[i] {
			return nil, fmt.Errorf("%w: index %d repeated", ErrBadResponse, i)
		}
		var s *float64
		switch {
		case r.RelevanceScore != nil:
			s = r.RelevanceScore
		case r.Score != nil:
			s = r.Score
		default:
			return nil, fmt.Errorf("%w: index %d has no score", ErrBadResponse, i)
		}
		if math.IsNaN(*s) || math.IsInf(*s, 0) {
			return nil, fmt.Errorf("%w: index %d score is not finite", ErrBadResponse, i)
		}
		seen[i] = true
		scores[i] = *s
	}
	for i, ok := range seen {
		if !ok {
			return nil, fmt.Errorf("%w: no score for text %d of %d", ErrBadResponse, i, n)
		}
	}
	return scores, nil
}
