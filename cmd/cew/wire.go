package main

import (
	"github.com/cewhq/cew/pipeline"
	"github.com/cewhq/cew/pipeline/generate"
	"github.com/cewhq/cew/pipeline/guard"
	"github.com/cewhq/cew/pipeline/llm"
	"github.com/cewhq/cew/pipeline/rank"
)

// pipeline wires the answer pipeline from configuration: the store, an
// embedder when configured, the HTTP reranker when configured, and the LLM
// generator (falling back to extractive) when a chat model is configured.
func (a *app) pipeline() (*pipeline.Pipeline, error) {
	st, err := a.openStore()
	if err != nil {
		return nil, err
	}
	cfg := pipeline.Config{
		Searcher: st,
		Catalog:  st,
		Validate: guard.ValidateOptions{MaxChars: a.cfg.MaxQuestionChars},
		Pre:      guard.DefaultPreOptions,
		Post:     guard.DefaultPostOptions,
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
		chat := llm.NewChat(llm.EndpointConfig{
			BaseURL: a.cfg.LLMBaseURL, Model: a.cfg.LLMModel, APIKey: a.cfg.OpenAIKey, Timeout: a.cfg.LLMTimeout,
		})
		cfg.Generator = generate.NewLLM(chat, extractive, generate.LLMOptions{MaxTokens: a.cfg.LLMMaxTokens, Logger: a.logger})
	}
	return pipeline.New(cfg)
}
