// Package bot is cew's platform-neutral conversation logic. Adapters (Slack,
// Teams, the CLI) turn platform events into a Query and render the Answer;
// the bot de-duplicates deliveries, applies rate limits, remembers the
// conversation to rewrite follow-ups, serves and fills the answer cache,
// runs the pipeline, and records every answer and feedback for audit.
//
// Shared state (cache, memory, dedupe, rate limits) is optional and
// best-effort: when its backend is down the bot answers without it.
package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	"github.com/cewhq/cew/answer"
	"github.com/cewhq/cew/cache"
	"github.com/cewhq/cew/pipeline"
	"github.com/cewhq/cew/store/analysis"
)

// ErrDuplicate is returned by Handle for an event id already handled (a
// platform retry, or another replica got it first). Adapters drop it.
var ErrDuplicate = errors.New("bot: duplicate event")

// Query is one message to the bot, normalised by an adapter.
type Query struct {
	// EventID is the platform's delivery id, for de-duplication; "" skips it.
	EventID  string
	Platform answer.Platform
	// Tenant is the cew tenant the adapter resolved from the workspace.
	Tenant  string
	Channel string
	// Thread identifies the conversation inside the channel (a thread ts, a
	// Teams conversation id); with Channel it keys the session memory.
	Thread string
	User   string
	Text   string
	// OnToken receives a draft of the answer as it is generated (LLM only);
	// the final Answer may differ (the post-guard may reject the draft).
	OnToken func(string)
}

// conversation keys session memory.
func (q Query) conversation() string {
	return string(q.Platform) + ":" + q.Tenant + ":" + q.Channel + ":" + q.Thread
}

// Answerer is the pipeline as the bot uses it.
type Answerer interface {
	Answer(ctx context.Context, req pipeline.Request) (answer.Answer, error)
	Status(ctx context.Context, tenant, query string) (answer.Answer, error)
}

// Generations reports a tenant's index generation, which cache keys carry.
type Generations interface {
	Generation(ctx context.Context, tenant string) (uint64, error)
}

// Embedder embeds questions for the semantic cache.
type Embedder interface {
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// Config wires a Bot. Pipeline and Generations are required; every cache
// part is optional.
type Config struct {
	Pipeline    Answerer
	Generations Generations
	Answers     cache.Answers
	Sessions    cache.Sessions
	Deduper     cache.Deduper
	Limiter     cache.RateLimiter
	// Health is told the outcome of every cache call (degraded state and
	// rate-limited warnings); nil means a private one.
	Health *cache.Health
	// Embedder enables semantic cache hits when Answers also implements
	// cache.SemanticAnswers.
	Embedder Embedder
	// Rewriter rewrites follow-ups with an LLM; nil means the heuristic.
	Rewriter Rewriter
	Audit    AuditSink
	Metrics  *Metrics
	Logger   *slog.Logger

	// PromptSet and Model go into cache keys.
	PromptSet string
	Model     string

	CacheTTL          time.Duration
	SemanticThreshold float64
	SessionTurns      int
	SessionTTL        time.Duration
	DedupeTTL         time.Duration
	UserLimit         int
	TenantLimit       int
	LimitWindow       time.Duration
	Now               func() time.Time
}

// Defaults for the optional settings.
const (
	DefaultCacheTTL          = time.Hour
	DefaultSemanticThreshold = 0.95
	DefaultSessionTurns      = 6
	DefaultSessionTTL        = 24 * time.Hour
	// DefaultDedupeTTL covers Slack's retry schedule (three retries within
	// about five minutes) with room to spare.
	DefaultDedupeTTL = 15 * time.Minute
)

// Bot handles queries. It is safe for concurrent use.
type Bot struct {
	cfg Config
}

// New returns a Bot.
func New(cfg Config) (*Bot, error) {
	if cfg.Pipeline == nil || cfg.Generations == nil {
		return nil, errors.New("bot: Pipeline and Generations are required")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if cfg.Health == nil {
		cfg.Health = cache.NewHealth(cache.HealthOptions{Logger: cfg.Logger})
	}
	if cfg.CacheTTL <= 0 {
		cfg.CacheTTL = DefaultCacheTTL
	}
	if cfg.SemanticThreshold <= 0 {
		cfg.SemanticThreshold = DefaultSemanticThreshold
	}
	if cfg.SessionTurns <= 0 {
		cfg.SessionTurns = DefaultSessionTurns
	}
	if cfg.SessionTTL <= 0 {
		cfg.SessionTTL = DefaultSessionTTL
	}
	if cfg.DedupeTTL <= 0 {
		cfg.DedupeTTL = DefaultDedupeTTL
	}
	if cfg.LimitWindow <= 0 {
		cfg.LimitWindow = time.Minute
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Bot{cfg: cfg}, nil
}

// Degraded reports whether shared state is currently unavailable.
func (b *Bot) Degraded() bool { return b.cfg.Health.Degraded() }

// Handle answers one query. It returns ErrDuplicate for a delivery already
// handled; otherwise the Answer is always usable, and the error is non-nil
// only when the pipeline itself failed (the Answer then apologises with a
// reference).
func (b *Bot) Handle(ctx context.Context, q Query) (answer.Answer, error) {
	start := b.cfg.Now()
	if q.EventID != "" && b.cfg.Deduper != nil {
		first, err := b.cfg.Deduper.FirstSeen(ctx, string(q.Platform)+":"+q.EventID, b.cfg.DedupeTTL)
		b.cfg.Health.Observe(err)
		if err == nil && !first {
			return answer.Answer{}, ErrDuplicate
		}
	}
	if ans, limited := b.rateLimit(ctx, q); limited {
		b.record(ctx, q, ans, start)
		return ans, nil
	}

	standalone := b.standalone(ctx, q)
	ans, err := b.answer(ctx, q, standalone)
	ans.Question, ans.StandaloneQuestion = q.Text, standalone
	if err == nil {
		b.remember(ctx, q, ans)
	}
	b.record(ctx, q, ans, start)
	return ans, err
}

// StatusLookup answers "/cew status <document>" from the register.
func (b *Bot) StatusLookup(ctx context.Context, q Query) (answer.Answer, error) {
	start := b.cfg.Now()
	ans, limited := b.rateLimit(ctx, q)
	var err error
	if !limited {
		ans, err = b.cfg.Pipeline.Status(ctx, q.Tenant, q.Text)
	}
	ans.Question, ans.StandaloneQuestion = "status "+q.Text, "status "+q.Text
	b.record(ctx, q, ans, start)
	return ans, err
}

// answer serves from the cache when it can, otherwise runs the pipeline and
// caches what is safe to cache.
func (b *Bot) answer(ctx context.Context, q Query, standalone string) (answer.Answer, error) {
	req := pipeline.Request{Tenant: q.Tenant, Platform: q.Platform, Question: standalone, OnToken: q.OnToken}
	if b.cfg.Answers == nil {
		return b.cfg.Pipeline.Answer(ctx, req)
	}
	gen, err := b.cfg.Generations.Generation(ctx, q.Tenant)
	if err != nil {
		return b.cfg.Pipeline.Answer(ctx, req)
	}
	key := cache.Key{Tenant: q.Tenant, Generation: gen, Question: standalone, PromptSet: b.cfg.PromptSet, Model: b.cfg.Model}
	lookupStart := b.cfg.Now()
	hit := func(ans answer.Answer) (answer.Answer, error) {
		took := ms(b.cfg.Now().Sub(lookupStart))
		ans.TimingsMS = map[string]float64{"cache": took, "total": took}
		b.cfg.Metrics.cacheLookup(true)
		return ans, nil
	}
	if ans, ok := b.cached(ctx, key); ok {
		return hit(ans)
	}
	vec, embedFailed := b.semanticVector(ctx, standalone)
	if vec != nil {
		if ans, ok := b.semanticHit(ctx, key, vec); ok {
			return hit(ans)
		}
	}
	b.cfg.Metrics.cacheLookup(false)
	req.Vector, req.EmbedFailed = vec, embedFailed
	ans, err := b.cfg.Pipeline.Answer(ctx, req)
	if err == nil && cacheable(ans) {
		b.store(ctx, key, standalone, vec, ans)
	}
	return ans, err
}

// cacheable: answers and refusals are cached (the generation protects
// refusals from going stale); errors, blocked questions and anything
// produced while a dependency was degraded are not.
func cacheable(ans answer.Answer) bool {
	return (ans.Status == answer.StatusAnswered || ans.Status == answer.StatusNotFound) && len(ans.Trace.Degraded) == 0
}

func (b *Bot) cached(ctx context.Context, key cache.Key) (answer.Answer, bool) {
	e, ok, err := b.cfg.Answers.Get(ctx, key)
	b.cfg.Health.Observe(err)
	if err != nil || !ok {
		return answer.Answer{}, false
	}
	return b.decodeCached(e.Value)
}

// semanticVector embeds the question for a semantic cache lookup. failed
// reports an embedder that was tried and failed, so the pipeline does not
// wait on it a second time for the same question.
func (b *Bot) semanticVector(ctx context.Context, question string) (vec []float32, failed bool) {
	if b.cfg.Embedder == nil {
		return nil, false
	}
	if _, ok := b.cfg.Answers.(cache.SemanticAnswers); !ok {
		return nil, false
	}
	vecs, err := b.cfg.Embedder.Embed(ctx, []string{pipeline.EmbeddingText(question)})
	if err != nil || len(vecs) != 1 {
		b.cfg.Logger.Warn("question embedding failed; no semantic cache, keyword search only", "err", err)
		return nil, true
	}
	return vecs[0], false
}

func (b *Bot) semanticHit(ctx context.Context, key cache.Key, vec []float32) (answer.Answer, bool) {
	sem := b.cfg.Answers.(cache.SemanticAnswers)
	e, _, ok, err := sem.Nearest(ctx, key.Tenant, key.Generation, vec, b.cfg.SemanticThreshold)
	b.cfg.Health.Observe(err)
	if err != nil || !ok || !sameSpecifics(key.Question, e.Question) {
		return answer.Answer{}, false
	}
	return b.decodeCached(e.Value)
}

// sameSpecifics reports whether two questions name the same identifiers,
// numbers and acronyms. Embeddings put "trench depth for DC cables" and
// "… for AC cables", or "Inverter 4" and "Inverter 42", above any useful
// similarity threshold; serving one's answer for the other would be a
// wrong value, so a semantic hit needs these to match exactly.
func sameSpecifics(a, b string) bool {
	sa, sb := specifics(a), specifics(b)
	if len(sa) != len(sb) {
		return false
	}
	for t := range sa {
		if !sb[t] {
			return false
		}
	}
	return true
}

func specifics(q string) map[string]bool {
	out := map[string]bool{}
	for _, t := range analysis.Tokens(q) {
		surface := q[t.Start:t.End]
		switch {
		case t.Kind == analysis.Number || t.Kind == analysis.Identifier:
			out[t.Text] = true
		case len(surface) >= 2 && strings.ToUpper(surface) == surface && strings.ToLower(surface) != surface:
			out[t.Text] = true // an acronym: AC, DC, LV, MV, PVWatts-style codes
		}
	}
	return out
}

// cachedAnswer is what the answer cache holds: the answer contract plus
// the chunk ids behind its sources, which the audit trail records for a
// cache hit as for the answer it repeats, and the prompt set and model that
// produced it.
type cachedAnswer struct {
	answer.Answer
	CitedChunks []string `json:"cited_chunks,omitempty"`
	PromptSet   string   `json:"prompt_set"`
	Model       string   `json:"model"`
}

// decodeCached reads a cache entry. A semantic match is found by tenant and
// generation alone, so the prompt set and model are checked here: an answer
// made before either changed is not served.
func (b *Bot) decodeCached(data []byte) (answer.Answer, bool) {
	var c cachedAnswer
	if err := json.Unmarshal(data, &c); err != nil || c.PromptSet != b.cfg.PromptSet || c.Model != b.cfg.Model {
		return answer.Answer{}, false
	}
	ans := c.Answer
	ans.Trace.CitedChunks = c.CitedChunks
	ans.Cached = true
	return ans, true
}

func (b *Bot) store(ctx context.Context, key cache.Key, question string, vec []float32, ans answer.Answer) {
	data, err := json.Marshal(cachedAnswer{Answer: ans, CitedChunks: ans.Trace.CitedChunks, PromptSet: b.cfg.PromptSet, Model: b.cfg.Model})
	if err != nil {
		return
	}
	err = b.cfg.Answers.Put(ctx, key, cache.Entry{Value: data, Question: question, Vector: vec, CreatedAt: b.cfg.Now()}, b.cfg.CacheTTL)
	b.cfg.Health.Observe(err)
}

// rateLimit applies the per-user then the per-tenant limit. A limiter that
// is down lets the question through: failing open keeps the bot answering,
// and the pipeline's own cost is bounded by the worker pool.
func (b *Bot) rateLimit(ctx context.Context, q Query) (answer.Answer, bool) {
	if b.cfg.Limiter == nil {
		return answer.Answer{}, false
	}
	checks := []struct {
		key   string
		limit int
		who   string
	}{
		{"user:" + q.Tenant + ":" + string(q.Platform) + ":" + q.User, b.cfg.UserLimit, "you"},
		{"tenant:" + q.Tenant, b.cfg.TenantLimit, "your team"},
	}
	for _, c := range checks {
		if c.limit <= 0 || (c.who == "you" && q.User == "") {
			continue
		}
		d, err := b.cfg.Limiter.Allow(ctx, c.key, c.limit, b.cfg.LimitWindow)
		b.cfg.Health.Observe(err)
		if err != nil || d.Allowed {
			continue
		}
		wait := max(1, int(d.RetryAfter.Round(time.Second)/time.Second))
		msg := fmt.Sprintf("That is more questions than %s can ask per %s (%d). Please wait %d s and ask again.",
			c.who, b.cfg.LimitWindow, c.limit, wait)
		return answer.Answer{
			ID: "", Status: answer.StatusBlocked, Reason: answer.ReasonRateLimited, Answer: msg, Sources: []answer.Source{},
			Confidence: answer.Confidence{Level: "low", Reason: "rate limited"}, TimingsMS: map[string]float64{},
			Question: q.Text, StandaloneQuestion: q.Text,
		}, true
	}
	return answer.Answer{}, false
}

func (b *Bot) turns(ctx context.Context, q Query) []cache.Turn {
	if b.cfg.Sessions == nil || (q.Channel == "" && q.Thread == "") {
		return nil
	}
	turns, err := b.cfg.Sessions.Turns(ctx, q.conversation())
	b.cfg.Health.Observe(err)
	return turns
}

func (b *Bot) remember(ctx context.Context, q Query, ans answer.Answer) {
	if b.cfg.Sessions == nil || (q.Channel == "" && q.Thread == "") {
		return
	}
	if ans.Status != answer.StatusAnswered && ans.Status != answer.StatusNotFound {
		return
	}
	t := cache.Turn{Question: q.Text, Standalone: ans.StandaloneQuestion, Answer: summary(ans.Answer), At: b.cfg.Now()}
	for _, s := range ans.Sources {
		t.DocIDs = append(t.DocIDs, s.DocID)
	}
	err := b.cfg.Sessions.Append(ctx, q.conversation(), t, b.cfg.SessionTurns, b.cfg.SessionTTL)
	b.cfg.Health.Observe(err)
}

// summaryRunes bounds what memory keeps of an answer.
const summaryRunes = 400

func summary(s string) string {
	return answer.Snippet(s, summaryRunes)
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// standalone rewrites a follow-up into a standalone question, by the LLM
// when one is configured (falling back to the heuristic on failure). Only a
// follow-up reads the conversation memory.
func (b *Bot) standalone(ctx context.Context, q Query) string {
	question := q.Text
	if !IsFollowUp(question) {
		return question
	}
	turns := b.turns(ctx, q)
	if len(turns) == 0 {
		return question
	}
	if b.cfg.Rewriter != nil {
		rewritten, err := b.cfg.Rewriter.Rewrite(ctx, question, turns)
		if err == nil && strings.TrimSpace(rewritten) != "" {
			return strings.TrimSpace(rewritten)
		}
		b.cfg.Logger.Warn("follow-up rewrite failed; heuristic rewrite", "err", err)
	}
	return RewriteFollowUp(question, turns[len(turns)-1])
}

// InConversation reports whether the bot has answered in this conversation
// (channel + thread) recently, so a thread reply without a mention can be
// taken as a follow-up addressed to it.
func (b *Bot) InConversation(ctx context.Context, q Query) bool {
	return len(b.turns(ctx, q)) > 0
}
