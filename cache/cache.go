// Package cache keeps the bot's shared state: cached answers (exact and
// semantic), conversation memory, event de-duplication and rate limits. Each
// concern is a small interface with an in-process implementation (the
// default, cache/memory) and a Redis one (cache/redis) for deployments with
// several replicas; cache/cachetest is the conformance suite both pass.
//
// Values are opaque bytes: the cache does not know the answer contract, so
// it never needs to change when the contract does.
package cache

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strconv"
	"strings"
	"time"
)

// ErrUnavailable wraps backend failures (Redis down or slow). Callers treat
// it as a miss and carry on without the cache.
var ErrUnavailable = errors.New("cache: backend unavailable")

// ErrNoTenant is returned by calls that are not scoped to a tenant.
var ErrNoTenant = errors.New("cache: tenant is required")

// Key identifies a cached answer. Everything that can change an answer is
// in it, so a stale answer is never served: re-ingesting bumps Generation,
// editing a prompt changes PromptSet, switching models changes Model.
type Key struct {
	Tenant     string
	Generation uint64
	// Question is the standalone question; Hash normalises it.
	Question  string
	PromptSet string
	Model     string
}

// Hash is the exact-match key: SHA-256 over the normalised fields.
func (k Key) Hash() string {
	h := sha256.New()
	for _, part := range []string{k.Tenant, strconv.FormatUint(k.Generation, 10), NormaliseQuestion(k.Question), k.PromptSet, k.Model} {
		h.Write([]byte(part))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// NormaliseQuestion folds case, whitespace and trailing punctuation so
// "What is X?" and "what is x" share a cache entry.
func NormaliseQuestion(q string) string {
	q = strings.ToLower(strings.Join(strings.Fields(q), " "))
	return strings.TrimRight(q, " ?!.")
}

// Entry is a cached answer.
type Entry struct {
	// Value is the serialised answer.
	Value []byte
	// Question is the question as cached (for semantic matches).
	Question string
	// Vector is the question embedding, when semantic caching is on.
	Vector    []float32
	CreatedAt time.Time
}

// Answers is the exact-match answer cache.
type Answers interface {
	Get(ctx context.Context, key Key) (Entry, bool, error)
	Put(ctx context.Context, key Key, e Entry, ttl time.Duration) error
}

// SemanticAnswers is the optional similarity lookup of an answer cache:
// the best cached entry of the same tenant and generation whose question
// vector has cosine similarity ≥ minSimilarity with vec. Implementations keep
// a bounded set of vectors per tenant, evicting the oldest.
type SemanticAnswers interface {
	Nearest(ctx context.Context, tenant string, generation uint64, vec []float32, minSimilarity float64) (Entry, float64, bool, error)
}

// Turn is one exchange of a conversation.
type Turn struct {
	Question   string    `json:"question"`
	Standalone string    `json:"standalone"`
	Answer     string    `json:"answer"`
	DocIDs     []string  `json:"doc_ids,omitempty"`
	At         time.Time `json:"at"`
}

// Sessions is conversation memory, keyed by conversation id (platform +
// channel + thread, or the DM).
type Sessions interface {
	// Turns returns the remembered turns, oldest first.
	Turns(ctx context.Context, conversation string) ([]Turn, error)
	// Append adds a turn, keeps the newest keep turns and (re)sets the TTL.
	Append(ctx context.Context, conversation string, t Turn, keep int, ttl time.Duration) error
}

// Deduper answers "is this the first time anyone has seen this event id?",
// atomically across replicas.
type Deduper interface {
	FirstSeen(ctx context.Context, id string, ttl time.Duration) (bool, error)
}

// Decision is a rate limiter's verdict.
type Decision struct {
	Allowed    bool
	Remaining  int
	RetryAfter time.Duration
}

// RateLimiter counts events per key in fixed windows, atomically across
// replicas.
type RateLimiter interface {
	Allow(ctx context.Context, key string, limit int, window time.Duration) (Decision, error)
}
