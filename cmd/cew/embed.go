package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/cewhq/cew/embed/onnx"
	"github.com/cewhq/cew/pipeline/llm"
	"github.com/cewhq/cew/store"
)

// textEmbedder is the one-method interface every consumer of embeddings
// (pipeline, bot, ingest, evaluations) declares for itself.
type textEmbedder interface {
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// The values of CEW_RETRIEVAL.
const (
	retrievalBM25   = "bm25"
	retrievalHybrid = "hybrid"
)

// The values of CEW_EMBED.
const (
	embedAuto  = "auto"
	embedLocal = "local"
	embedHTTP  = "http"
	embedNone  = "none"
)

// embedding is the embedder chosen by CEW_EMBED: questions and passages
// (the local e5 model embeds them differently; an HTTP endpoint does not)
// and the name of the model, which the index records per document and
// answer-cache keys include.
type embedding struct {
	kind    string // embedLocal, embedHTTP or embedNone
	model   string // "" for none
	query   textEmbedder
	passage textEmbedder
}

// embedding resolves CEW_EMBED once per process: auto is the HTTP endpoint
// when CEW_EMBED_MODEL is set, else the local model when installed, else
// none (BM25 only, said once in the log).
func (a *app) embedding() (embedding, error) {
	if a.embed != nil {
		return *a.embed, nil
	}
	e, err := a.openEmbedding()
	if err != nil {
		return embedding{}, err
	}
	a.embed = &e
	return e, nil
}

func (a *app) openEmbedding() (embedding, error) {
	mode := a.cfg.Embed
	if mode == "" {
		mode = embedAuto
	}
	if mode == embedAuto && a.cfg.EmbedModel != "" {
		mode = embedHTTP
	}
	switch mode {
	case embedNone:
		return embedding{kind: embedNone}, nil
	case embedHTTP:
		h := llm.NewEmbedder(llm.EndpointConfig{
			BaseURL: a.cfg.EmbedBaseURL, Model: a.cfg.EmbedModel, APIKey: a.cfg.OpenAIKey, Timeout: a.cfg.LLMTimeout,
		})
		return embedding{kind: embedHTTP, model: a.cfg.EmbedModel, query: h, passage: h}, nil
	}
	logger := a.logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	local, err := onnx.Open(a.cfg.ModelsDir, onnx.Options{Threads: a.cfg.EmbedThreads, Logger: logger})
	if err != nil {
		if mode == embedAuto && errors.Is(err, onnx.ErrNotInstalled) {
			logger.Info("no local embedding model: BM25 only (`make models` installs it)", "models_dir", a.cfg.ModelsDir, "reason", err)
			return embedding{kind: embedNone}, nil
		}
		return embedding{}, fmt.Errorf("CEW_EMBED=%s: %w", mode, err)
	}
	a.closers = append(a.closers, local.Close)
	return embedding{kind: embedLocal, model: local.Model(), query: onnx.Queries{E: local}, passage: onnx.Passages{E: local}}, nil
}

// semanticThreshold is the cosine from which the bot serves a cached answer
// for another question: CEW_SEMANTIC_THRESHOLD, else the embedder's. How
// close two different questions come depends on the model: e5 scores
// distinct questions higher than the models the bot's default was set for
// (see onnx.SameQuestionCosine); 0 leaves the bot's default.
func (a *app) semanticThreshold() float64 {
	if a.cfg.SemanticThreshold > 0 {
		return a.cfg.SemanticThreshold
	}
	if e, err := a.embedding(); err == nil && e.kind == embedLocal {
		return onnx.SameQuestionCosine
	}
	return 0
}

// retrievalEmbedding is the embedding dense retrieval uses — the chunks'
// vectors at ingest, the question's at search — or none with
// CEW_RETRIEVAL=bm25. On the tune split of the domain dev set BM25 with the
// embedder ordering the reader's candidates answered more questions right
// and fewer wrong than hybrid retrieval (see the README), and it spares
// ingest the embedding of every chunk.
func (a *app) retrievalEmbedding() (embedding, error) {
	if a.cfg.Retrieval != retrievalHybrid {
		return embedding{kind: embedNone}, nil
	}
	return a.embedding()
}

// denseState remembers whether dense retrieval runs in this process.
type denseState struct {
	query textEmbedder // nil: BM25 only
}

// queryEmbedder is the question side for search, the pipeline and the bot,
// or nil for BM25 only — also when the index was embedded by another model
// than the configured one: comparing vectors from two models would rank
// nonsense, so dense retrieval waits until `cew ingest` has re-embedded the
// documents (said once, in the log). Decided once per process.
func (a *app) queryEmbedder(ctx context.Context, st store.Catalog) (textEmbedder, error) {
	if a.dense != nil {
		return a.dense.query, nil
	}
	e, err := a.retrievalEmbedding()
	if err != nil {
		return nil, err
	}
	a.dense = &denseState{query: e.query}
	if e.query == nil {
		return nil, nil
	}
	if other := a.indexEmbedModels(ctx, st, e.model); len(other) > 0 {
		a.logger.Warn("the index was embedded with another model: dense retrieval is off until `cew ingest` embeds the documents again",
			"configured", e.model, "index", strings.Join(other, ", "))
		a.dense.query = nil
	}
	return a.dense.query, nil
}

// denseEmbedding is the embedding behind dense retrieval, if it runs: what
// answer-cache keys and evaluation reports name.
func (a *app) denseEmbedding() (embedding, bool) {
	e, err := a.retrievalEmbedding()
	if err != nil || e.query == nil || (a.dense != nil && a.dense.query == nil) {
		return embedding{}, false
	}
	return e, true
}

// indexEmbedModels lists the models other than model that embedded the
// active documents of the configured tenants. A document indexed without
// embeddings has no vectors to mix and is not listed.
func (a *app) indexEmbedModels(ctx context.Context, st store.Catalog, model string) []string {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	seen := map[string]bool{}
	var other []string
	for _, tenant := range a.tenants() {
		docs, err := st.Documents(ctx, tenant)
		if err != nil {
			a.logger.Warn("cannot list the index's documents to check their embedding model", "tenant", tenant, "err", err)
			continue
		}
		for _, d := range docs {
			if d.Active && d.EmbedModel != "" && d.EmbedModel != model && !seen[d.EmbedModel] {
				seen[d.EmbedModel] = true
				other = append(other, d.EmbedModel)
			}
		}
	}
	return other
}

// tenants are the tenants this process answers for: CEW_TENANT and those
// CEW_SLACK_TENANTS maps to.
func (a *app) tenants() []string {
	out := []string{a.cfg.Tenant}
	m, _ := parseTenantMap(a.cfg.SlackTenants)
	for _, t := range m {
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}
