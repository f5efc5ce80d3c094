package main

import (
	"context"
	"path/filepath"

	goredis "github.com/redis/go-redis/v9"

	"github.com/cewhq/cew/answer"
	"github.com/cewhq/cew/bot"
	"github.com/cewhq/cew/cache"
	"github.com/cewhq/cew/cache/memory"
	"github.com/cewhq/cew/cache/redis"
	"github.com/cewhq/cew/pipeline"
	"github.com/cewhq/cew/pipeline/confidence"
	"github.com/cewhq/cew/pipeline/generate"
	"github.com/cewhq/cew/pipeline/guard"
	"github.com/cewhq/cew/pipeline/llm"
	"github.com/cewhq/cew/pipeline/rank"
	"github.com/cewhq/cew/prompts"
	"github.com/cewhq/cew/store"
)

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
	qe, err := a.queryEmbedder(context.Background(), st)
	if err != nil {
		return nil, err
	}
	if qe != nil {
		cfg.Embedder = qe
	}
	if a.cfg.RerankURL != "" {
		cfg.Reranker = rank.NewHTTP(rank.HTTPConfig{URL: a.cfg.RerankURL, Model: a.cfg.RerankModel, APIKey: a.cfg.RerankKey})
	}
	emb, err := a.embedding()
	if err != nil {
		return nil, err
	}
	extractive := generate.NewExtractive(generate.ExtractiveOptions{Queries: emb.query, Passages: emb.passage, Logger: a.logger})
	cfg.Generator = extractive
	model, err := confidence.Extractive()
	if err != nil {
		return nil, err
	}
	lexical, err := confidence.ExtractiveLexical()
	if err != nil {
		return nil, err
	}
	if emb.passage == nil {
		// Reading by words alone: the model fitted that way judges.
		model = lexical
	}
	cfg.Confidence, cfg.ConfidenceFallback, cfg.KeepUnconfident = &model, &lexical, a.keepUnconfident
	if a.cfg.LLMModel != "" {
		cfg.Generator = generate.NewLLM(a.chat(), extractive, generate.LLMOptions{MaxTokens: a.cfg.LLMMaxTokens, Logger: a.logger})
		cfg.Post.Verifier = generate.NewVerifier(a.chat())
	}
	return pipeline.New(cfg)
}

// chat is the one client of the chat endpoint, with one circuit breaker:
// the generator, the post-guard's verifier and the follow-up rewriter fail
// over together when the model is down instead of each waiting out its own
// retries and timeouts.
func (a *app) chat() *llm.Chat {
	if a.llmChat == nil {
		a.llmChat = llm.NewChat(a.chatEndpoint(), llm.WithLogger(a.logger))
	}
	return a.llmChat
}

func (a *app) chatEndpoint() llm.EndpointConfig {
	return llm.EndpointConfig{BaseURL: a.cfg.LLMBaseURL, Model: a.cfg.LLMModel, APIKey: a.cfg.OpenAIKey, Timeout: a.cfg.LLMTimeout}
}

// answerConfig names what answers are made with besides the prompts and
// the index: the generator, the retrieval and the reranker.
func (a *app) answerConfig() (gen, retrieval, reranker string) {
	gen = "extractive"
	if a.cfg.LLMModel != "" {
		gen = "llm:" + a.cfg.LLMModel
	}
	// The extractive reader (also the LLM's fallback) scores sentences with
	// the embedder, whether or not dense retrieval runs.
	if e, err := a.embedding(); err == nil && e.model != "" {
		gen += "+" + e.kind + ":" + e.model
	}
	retrieval = "bm25"
	if e, ok := a.denseEmbedding(); ok {
		retrieval = "hybrid:" + e.kind + ":" + e.model
	}
	reranker = "lexical"
	if a.cfg.RerankURL != "" {
		reranker = "http:" + a.cfg.RerankModel
	}
	return gen, retrieval, reranker
}

// cacheModel is the model part of answer cache keys: every component that
// changes answers, so switching any of them never serves an answer made
// with the previous one.
func (a *app) cacheModel() string {
	gen, retrieval, reranker := a.answerConfig()
	return gen + " " + retrieval + " " + reranker
}

// pipelineConfigSummary names the configuration an evaluation ran with.
func (a *app) pipelineConfigSummary() map[string]any {
	gen, retrieval, reranker := a.answerConfig()
	return map[string]any{
		"generator": gen, "retrieval": retrieval, "reranker": reranker,
		"pre_guard": guard.DefaultPreOptions(), "post_guard_min_support": guard.DefaultPostOptions().MinSupport,
	}
}

// cacheBackend is every cache interface one backend provides.
type cacheBackend interface {
	cache.Answers
	cache.SemanticAnswers
	cache.Sessions
	cache.Deduper
	cache.RateLimiter
	Close() error
}

// openCache returns Redis when CEW_REDIS_URL is set, else the in-process
// cache. A Redis that is down at start-up does not stop cew: it answers
// without the cache and reconnects when Redis comes back.
func (a *app) openCache(ctx context.Context) (cacheBackend, error) {
	if a.cfg.RedisURL == "" {
		m := memory.New(memory.Options{})
		a.closers = append(a.closers, m.Close)
		return m, nil
	}
	// go-redis reports every failed dial through a process-wide logger;
	// route it to ours at debug level so an outage does not flood the logs.
	goredis.SetLogger(redis.ClientLog{Logger: a.logger})
	r, err := redis.Open(ctx, a.cfg.RedisURL, redis.Options{Timeout: a.cfg.RedisTimeout, Logger: a.logger, StartDegraded: true})
	if err != nil {
		return nil, err
	}
	a.closers = append(a.closers, r.Close)
	return r, nil
}

// newBot wires the bot: pipeline, cache backend, follow-up rewriter, audit
// log under the data directory, and metrics (nil for the CLI).
// The CLI has no rate limit: it is one person at a terminal or a script.
func (a *app) newBot(ctx context.Context, st store.Store, metrics *bot.Metrics, platform answer.Platform) (*bot.Bot, error) {
	p, err := a.newPipeline(st)
	if err != nil {
		return nil, err
	}
	c, err := a.openCache(ctx)
	if err != nil {
		return nil, err
	}
	a.cache = c
	audit, err := bot.OpenFileAudit(filepath.Join(a.cfg.DataDir, "audit", "audit.jsonl"), bot.FileAuditOptions{
		MaxBytes: int64(a.cfg.AuditMaxMB) << 20, Keep: a.cfg.AuditKeep,
	})
	if err != nil {
		return nil, err
	}
	a.closers = append(a.closers, audit.Close)
	backend := "memory"
	if a.cfg.RedisURL != "" {
		backend = "redis"
	}
	a.health = cache.NewHealth(cache.HealthOptions{Backend: backend, Logger: a.logger})
	cfg := bot.Config{
		Pipeline: p, Generations: st,
		Answers: c, Sessions: c, Deduper: c, Limiter: c,
		Health:            a.health,
		Audit:             audit,
		Metrics:           metrics,
		Logger:            a.logger,
		PromptSet:         prompts.SetHash(),
		SemanticThreshold: a.semanticThreshold(),
		Model:             a.cacheModel(),
		CacheTTL:          a.cfg.CacheTTL, SessionTurns: a.cfg.SessionTurns, SessionTTL: a.cfg.SessionTTL,
		UserLimit: a.cfg.RateLimitUser, TenantLimit: a.cfg.RateLimitTenant, LimitWindow: a.cfg.RateLimitWindow,
	}
	if platform == answer.PlatformCLI {
		cfg.Limiter = nil
	}
	// The semantic cache compares questions with each other, not with the
	// index: it needs the embedder, not dense retrieval.
	e, err := a.embedding()
	if err != nil {
		return nil, err
	}
	if e.query != nil {
		cfg.Embedder = e.query
	}
	if a.cfg.LLMModel != "" {
		cfg.Rewriter = bot.NewLLMRewriter(a.chat())
	}
	return bot.New(cfg)
}
