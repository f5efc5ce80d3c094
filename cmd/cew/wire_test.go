package main

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cewhq/cew/embed/onnx"
	"github.com/cewhq/cew/pipeline/llm"
	"github.com/cewhq/cew/store"
	"github.com/cewhq/cew/store/embedded"
)

// TestCacheModel: every setting that changes answers changes the model part
// of the cache key, so a configuration change never serves old answers.
func TestCacheModel(t *testing.T) {
	base := Config{Embed: "auto", ModelsDir: t.TempDir()}
	tests := []struct {
		name   string
		change func(*Config)
	}{
		{"chat model", func(c *Config) { c.LLMModel = "gpt-4o" }},
		{"embedding model", func(c *Config) { c.EmbedModel = "text-embedding-3-small" }},
		{"same model name, local", func(c *Config) { c.Embed, c.ModelsDir = "local", installedModels(t) }},
		{"same model name, http", func(c *Config) {
			c.Embed, c.EmbedBaseURL, c.EmbedModel = "http", "http://127.0.0.1:1/v1", onnx.ModelName
		}},
		{"reranker endpoint", func(c *Config) { c.RerankURL = "http://localhost:8081/rerank" }},
		{"reranker model", func(c *Config) { c.RerankURL, c.RerankModel = "http://localhost:8081/rerank", "bge-reranker-v2-m3" }},
	}
	seen := map[string]string{(&app{cfg: base}).cacheModel(): "defaults"}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := base
			tc.change(&cfg)
			if cfg.Embed == "local" && cfg.ModelsDir == "" {
				t.Skip("local model not installed (make models)")
			}
			a := &app{cfg: cfg}
			defer a.close()
			m := a.cacheModel()
			if prev, ok := seen[m]; ok {
				t.Errorf("cache model %q is the same as with %s", m, prev)
			}
			seen[m] = tc.name
		})
	}
}

// TestOneChatClient: the rewriter, the generator and the verifier use one
// client, so one circuit breaker sees every failure of the endpoint.
func TestOneChatClient(t *testing.T) {
	a := &app{cfg: Config{LLMModel: "gpt-4o", OpenAIKey: "sk-test"}}
	if a.chat() == nil || a.chat() != a.chat() {
		t.Errorf("each use of the chat endpoint gets its own client")
	}
}

// installedModels is where `make models` put the local model, or "" when it
// is not installed (CI installs it, so there the local cases must run).
func installedModels(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("CEW_MODELS_DIR")
	if dir == "" {
		dir = onnx.DefaultDir()
	}
	if _, err := os.Stat(filepath.Join(dir, onnx.ModelSubdir, "model.onnx")); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("local model not installed in %s (.ci/run runs make models)", dir)
		}
		return ""
	}
	return dir
}

// newLocalModelCLI is a CLI with CEW_EMBED=local on one thread; it skips
// where the local model is not installed (and fails in CI, see
// installedModels).
func newLocalModelCLI(t *testing.T) *cli {
	t.Helper()
	models := installedModels(t)
	if models == "" {
		t.Skip("local model not installed (make models)")
	}
	c := newCLI(t)
	c.env["CEW_EMBED"], c.env["CEW_MODELS_DIR"], c.env["CEW_EMBED_THREADS"] = "local", models, "1"
	return c
}

// TestEmbedderWiring: CEW_EMBED picks the local model, the HTTP endpoint or
// none, and says why it cannot.
func TestEmbedderWiring(t *testing.T) {
	empty := t.TempDir()
	models := installedModels(t)
	tests := []struct {
		name      string
		cfg       Config
		needModel bool
		kind      string
		model     string
		err       error
	}{
		{name: "none", cfg: Config{Embed: "none", ModelsDir: models}, kind: embedNone},
		{name: "auto without a model", cfg: Config{Embed: "auto", ModelsDir: empty}, kind: embedNone},
		{name: "local without a model", cfg: Config{Embed: "local", ModelsDir: empty}, err: onnx.ErrNotInstalled},
		{name: "http", cfg: Config{Embed: "http", EmbedBaseURL: "http://127.0.0.1:1/v1", EmbedModel: "all-MiniLM-L6-v2", ModelsDir: models}, kind: embedHTTP, model: "all-MiniLM-L6-v2"},
		{name: "auto with an endpoint", cfg: Config{Embed: "auto", EmbedBaseURL: "http://127.0.0.1:1/v1", EmbedModel: "all-MiniLM-L6-v2", ModelsDir: models}, kind: embedHTTP, model: "all-MiniLM-L6-v2"},
		{name: "auto with the model installed", cfg: Config{Embed: "auto", ModelsDir: models}, needModel: true, kind: embedLocal, model: onnx.ModelName},
		{name: "local", cfg: Config{Embed: "local", ModelsDir: models, EmbedThreads: 1}, needModel: true, kind: embedLocal, model: onnx.ModelName},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.needModel && models == "" {
				t.Skip("local model not installed (make models)")
			}
			a := &app{cfg: tc.cfg, logger: slog.New(slog.DiscardHandler)}
			defer a.close()
			e, err := a.embedding()
			if tc.err != nil {
				if !errors.Is(err, tc.err) {
					t.Fatalf("err = %v, want %v", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if e.kind != tc.kind || e.model != tc.model {
				t.Fatalf("embedding = %s %q, want %s %q", e.kind, e.model, tc.kind, tc.model)
			}
			if (e.query == nil) != (tc.kind == embedNone) || (e.passage == nil) != (tc.kind == embedNone) {
				t.Fatalf("query %T, passage %T for %s", e.query, e.passage, tc.kind)
			}
			switch tc.kind {
			case embedLocal:
				if _, ok := e.query.(onnx.Queries); !ok {
					t.Errorf("questions embedded by %T, want onnx.Queries", e.query)
				}
				if _, ok := e.passage.(onnx.Passages); !ok {
					t.Errorf("passages embedded by %T, want onnx.Passages", e.passage)
				}
			case embedHTTP:
				if _, ok := e.query.(*llm.Embedder); !ok {
					t.Errorf("questions embedded by %T, want *llm.Embedder", e.query)
				}
			}
			if again, _ := a.embedding(); again.query != e.query {
				t.Error("the embedder is opened again on a second use")
			}
			// The local model scores different questions higher than HTTP
			// models do: the semantic cache needs a closer match with it.
			wantThreshold := 0.0
			if tc.kind == embedLocal {
				wantThreshold = onnx.SameQuestionCosine
			}
			if got := a.semanticThreshold(); got != wantThreshold {
				t.Errorf("semantic threshold %v, want %v", got, wantThreshold)
			}
			a.cfg.SemanticThreshold = 0.99
			if got := a.semanticThreshold(); got != 0.99 {
				t.Errorf("CEW_SEMANTIC_THRESHOLD=0.99 gives %v", got)
			}
		})
	}
}

// TestDenseOffForAnotherModel: with CEW_RETRIEVAL=hybrid, an index
// embedded by another model gets no query vectors (two models' vectors
// never meet); one embedded by the configured model, or not embedded at
// all, does. With the default bm25 retrieval none does.
func TestDenseOffForAnotherModel(t *testing.T) {
	tests := []struct {
		name      string
		retrieval string
		indexedBy string
		dense     bool
	}{
		{"same model", retrievalHybrid, "all-MiniLM-L6-v2", true},
		{"no embeddings", retrievalHybrid, "", true},
		{"another model", retrievalHybrid, "e5-small-v2-q", false},
		{"bm25 retrieval", retrievalBM25, "all-MiniLM-L6-v2", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st, err := embedded.Open(t.TempDir(), embedded.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			doc := store.Document{Tenant: "acme", ID: "d1", Number: "D1", Revision: "1", Title: "Trenches", File: "d1.md", EmbedModel: tc.indexedBy}
			chunk := store.Chunk{ID: "d1/1/0", Tenant: "acme", DocID: "d1", Revision: "1", Text: "DC cables at 800 mm", Page: 1}
			if tc.indexedBy != "" {
				chunk.Vector = []float32{1, 0, 0}
			}
			if err := st.PutDocument(context.Background(), doc, []store.Chunk{chunk}); err != nil {
				t.Fatal(err)
			}
			a := &app{cfg: Config{Embed: "http", Retrieval: tc.retrieval, Tenant: "acme", EmbedBaseURL: "http://127.0.0.1:1/v1",
				EmbedModel: "all-MiniLM-L6-v2"}, logger: slog.New(slog.DiscardHandler)}
			q, err := a.queryEmbedder(context.Background(), st)
			if err != nil {
				t.Fatal(err)
			}
			if (q != nil) != tc.dense {
				t.Fatalf("query embedder %T, want dense=%v", q, tc.dense)
			}
			if _, on := a.denseEmbedding(); on != tc.dense {
				t.Errorf("cache keys name dense retrieval %v, want %v", on, tc.dense)
			}
		})
	}
}

// TestLocalEmbedderEndToEnd: with CEW_EMBED=local and CEW_RETRIEVAL=hybrid,
// ingest embeds the chunks, dense search finds a passage by meaning alone,
// and switching the embedder off re-indexes the documents without vectors.
func TestLocalEmbedderEndToEnd(t *testing.T) {
	c := newLocalModelCLI(t)
	c.env["CEW_RETRIEVAL"] = retrievalHybrid
	dir := t.TempDir()
	docs := map[string]string{
		"277-100 Rev 1 Cable trenches.md": "# Cable trenches\n\nDC cables are buried 800 mm below finished ground level.\n",
		"277-200 Rev 1 Inverter room.md":  "# Inverter room\n\nThe inverter room is ventilated by two extract fans rated 1200 m³/h each.\n",
		"277-300 Rev 1 Fencing.md":        "# Perimeter fence\n\nThe perimeter fence is 2.4 m high galvanised steel mesh with a barbed wire top.\n",
	}
	for name, text := range docs {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, _, code := c.run(t, "", "ingest", dir)
	if code != 0 || !strings.Contains(out, "embeddings: e5-small-v2-q (local)") {
		t.Fatalf("ingest exit %d:\n%s", code, out)
	}
	// No word of the query but "how" is in the answer's passage: only the
	// dense side can find it.
	out, _, code = c.run(t, "", "search", "--json", "--mode", "dense", "-k", "1", "how deep are the electrical lines laid underground")
	if code != 0 || !strings.Contains(out, "277-100") {
		t.Fatalf("dense search exit %d, want the trench document first:\n%s", code, out)
	}

	c.env["CEW_EMBED"] = "none"
	out, _, code = c.run(t, "", "ingest", dir)
	if code != 0 || strings.Count(out, "indexed ") != 3 || !strings.Contains(out, "embeddings: none") {
		t.Fatalf("switching the embedder off did not re-index the documents (exit %d):\n%s", code, out)
	}
}

// TestBM25RetrievalSkipsChunkEmbeddings: by default (CEW_RETRIEVAL=bm25)
// the local model is not run over the chunks at ingest — only the reader and
// the semantic cache use it — and a question is still answered.
func TestBM25RetrievalSkipsChunkEmbeddings(t *testing.T) {
	c := newLocalModelCLI(t)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "277-100 Rev 1 Cable trenches.md"),
		[]byte("# Cable trenches\n\nDC cables are buried 800 mm below finished ground level.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, code := c.run(t, "", "ingest", dir)
	if code != 0 || !strings.Contains(out, "embeddings: none") {
		t.Fatalf("ingest exit %d, want no chunk embeddings:\n%s", code, out)
	}
	// Whether the one sentence is shown is the calibrated confidence's
	// call; the question must reach it through keyword retrieval with the
	// reader's embedder, not fail.
	out, _, code = c.run(t, "", "ask", "--json", "how deep are DC cables buried?")
	if code == 2 || !strings.Contains(out, `"doc_id":"277-100"`) || strings.Contains(out, `"status":"error"`) {
		t.Fatalf("ask exit %d, want the trench document as source or related:\n%s", code, out)
	}
}
