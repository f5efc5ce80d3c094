package main

import (
	"github.com/cewhq/cew/ingest"
	"github.com/cewhq/cew/pipeline"
	"github.com/cewhq/cew/pipeline/generate"
	"github.com/cewhq/cew/pipeline/guard"
	"github.com/cewhq/cew/pipeline/llm"
	"github.com/cewhq/cew/pipeline/rank"
	"github.com/cewhq/cew/store"
)

// pipeline wires the answer pipeline on the configured store.
func (a *app) pipeline() (*pipeline.Pipeline, error) {
	st, err := a.openStore()
	if err != nil {
		return nil, err
	}
	return a.newPipeline(st)
}

// newPipeline wires the answer pipeline from configuration: an embedder when
// configured, the HTTP reranker when configured, and the LLM generator
// (falling back to extractive) when a chat model is configured.
func (a *app) newPipeline(st store.Store) (*pipeline.Pipeline, error) {
	cfg := pipeline.Config{
		Searcher: st,
		Catalog:  st,
		Validate: guard.ValidateOptions{MaxChars: a.cfg.MaxQuestionChars},
		Pre:      guard.DefaultPreOptions(),
		Post:     guard.DefaultPostOptions(),
		Logger:   a.logger,
	}
	if e := a.embedder(); e != nil {
		cfg.Embedder = e
	}
	if a.cfg.RerankURL != "" {
		cfg.Reranker = rank.NewHTTP(rank.HTTPConfig{URL: a.cfg.RerankURL, Model: a.cfg.RerankModel, APIKey: a.cfg.OpenAIKey})
	}
	extractive := generate.NewExtractive(generate.ExtractiveOptions{})
	cfg.Generator = extractive
	if a.cfg.LLMModel != "" {
		chat := llm.NewChat(a.chatEndpoint())
		cfg.Generator = generate.NewLLM(chat, extractive, generate.LLMOptions{MaxTokens: a.cfg.LLMMaxTokens, Logger: a.logger})
	}
	return pipeline.New(cfg)
}

func (a *app) chatEndpoint() llm.EndpointConfig {
	return llm.EndpointConfig{BaseURL: a.cfg.LLMBaseURL, Model: a.cfg.LLMModel, APIKey: a.cfg.OpenAIKey, Timeout: a.cfg.LLMTimeout}
}

// pipelineConfigSummary names the configuration an evaluation ran with.
func (a *app) pipelineConfigSummary() map[string]any {
	gen := "extractive"
	if a.cfg.LLMModel != "" {
		gen = "llm:" + a.cfg.LLMModel
	}
	retrieval := "bm25"
	if a.cfg.EmbedModel != "" {
		retrieval = "hybrid:" + a.cfg.EmbedModel
	}
	reranker := "lexical"
	if a.cfg.RerankURL != "" {
		reranker = "http"
	}
	return map[string]any{
		"generator": gen, "retrieval": retrieval, "reranker": reranker,
		"pre_guard": guard.DefaultPreOptions(), "post_guard_min_support": guard.DefaultPostOptions().MinSupport,
	}
}

// ingestEmbedder converts an optional embedder without creating a non-nil
// interface around a nil pointer.
func ingestEmbedder(e *llm.Embedder) ingest.Embedder {
	if e == nil {
		return nil
	}
	return e
}
