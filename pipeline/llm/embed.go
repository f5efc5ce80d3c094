package llm

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// EndpointConfig addresses an OpenAI-compatible endpoint.
type EndpointConfig struct {
	// BaseURL such as https://api.openai.com/v1 or http://localhost:11434/v1;
	// "" means OpenAI's.
	BaseURL string
	Model   string
	// APIKey may be empty for local servers. It is never logged.
	APIKey string
	// Timeout bounds one HTTP call; 0 means 30 s.
	Timeout time.Duration
	Retry   RetryPolicy
	// HTTPClient overrides the transport (tests); nil means a plain client.
	// Timeout is applied per call through the context, not by the client.
	HTTPClient *http.Client
}

func (c EndpointConfig) client() *openai.Client {
	cfg := openai.DefaultConfig(c.APIKey)
	if c.BaseURL != "" {
		cfg.BaseURL = c.BaseURL
	}
	if c.HTTPClient != nil {
		cfg.HTTPClient = c.HTTPClient
	} else {
		cfg.HTTPClient = &http.Client{}
	}
	return openai.NewClientWithConfig(cfg)
}

func (c EndpointConfig) timeout() time.Duration {
	if c.Timeout <= 0 {
		return 30 * time.Second
	}
	return c.Timeout
}

// Embedder calls /v1/embeddings in batches, retrying transient failures, and
// returns unit-length vectors so cosine similarity is a dot product.
type Embedder struct {
	cfg    EndpointConfig
	client *openai.Client
	batch  int
}

// maxEmbedBatch keeps one request well under the input limits of common
// servers (OpenAI accepts 2048 inputs; TEI defaults to 32 per batch).
const maxEmbedBatch = 32

// NewEmbedder returns an Embedder for the endpoint.
func NewEmbedder(cfg EndpointConfig) *Embedder {
	if cfg.Retry.MaxTries == 0 {
		cfg.Retry = DefaultRetryPolicy
	}
	return &Embedder{cfg: cfg, client: cfg.client(), batch: maxEmbedBatch}
}

// Embed returns one vector per text, in order.
func (e *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, 0, len(texts))
	for start := 0; start < len(texts); start += e.batch {
		end := min(start+e.batch, len(texts))
		vecs, err := retry(ctx, e.cfg.Retry, func(ctx context.Context) ([][]float32, error) {
			return e.embedOnce(ctx, texts[start:end])
		})
		if err != nil {
			// Some servers echo a rejected key in their error text.
			return nil, redactError(e.cfg.APIKey, "llm: embeddings with "+e.cfg.Model, err)
		}
		out = append(out, vecs...)
	}
	return out, nil
}

func (e *Embedder) embedOnce(ctx context.Context, texts []string) ([][]float32, error) {
	ctx, cancel := context.WithTimeout(ctx, e.cfg.timeout())
	defer cancel()
	resp, err := e.client.CreateEmbeddings(ctx, openai.EmbeddingRequestStrings{
		Input: texts,
		Model: openai.EmbeddingModel(e.cfg.Model),
	})
	if err != nil {
		return nil, err
	}
	if len(resp.Data) != len(texts) {
		return nil, fmt.Errorf("endpoint returned %d embeddings for %d inputs", len(resp.Data), len(texts))
	}
	vecs := make([][]float32, len(texts))
	for _, d := range resp.Data {
		if d.Index < 0 || d.Index >= len(texts) || vecs[d.Index] != nil {
			return nil, fmt.Errorf("endpoint returned an embedding with index %d for %d inputs", d.Index, len(texts))
		}
		vecs[d.Index] = normalise(d.Embedding)
	}
	return vecs, nil
}

func normalise(v []float32) []float32 {
	var sum float64
	for _, x := range v {
		sum += float64(x) * float64(x)
	}
	if sum == 0 {
		return v
	}
	inv := float32(1 / math.Sqrt(sum))
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = x * inv
	}
	return out
}
