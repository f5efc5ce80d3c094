// Package memory is the in-process cache: answers, conversation memory,
// event de-duplication and rate limits for a single bot process, with no
// set-up. Every map is bounded or swept, so a long-running process does not
// grow without limit.
package memory

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/cewhq/cew/cache"
)

// Defaults for zero Options fields.
const (
	DefaultMaxAnswerBytes   = 64 << 20
	DefaultSemanticMax      = 1000
	DefaultMaxConversations = 10000
	DefaultSweepInterval    = time.Minute
)

// entryOverhead approximates an answer's bookkeeping (list element, map
// slot, struct, hash key) so many tiny entries still count against the
// budget.
const entryOverhead = 256

var (
	_ cache.Answers         = (*Store)(nil)
	_ cache.SemanticAnswers = (*Store)(nil)
	_ cache.Sessions        = (*Store)(nil)
	_ cache.Deduper         = (*Store)(nil)
	_ cache.RateLimiter     = (*Store)(nil)
)

// Options configures a Store. The zero value is usable.
type Options struct {
	// Now is the clock every TTL and window is measured on; time.Now when nil.
	Now func() time.Time
	// MaxAnswerBytes bounds the answer cache (values, questions and
	// vectors); the least recently used answers are evicted beyond it.
	MaxAnswerBytes int
	// SemanticMax is how many question vectors are kept per tenant; the
	// oldest is evicted first.
	SemanticMax int
	// MaxConversations bounds session memory; the least recently active
	// conversations are forgotten first.
	MaxConversations int
	// SweepInterval is how often expired entries are swept in the
	// background; negative disables the sweeper (expired entries are still
	// dropped when touched).
	SweepInterval time.Duration
}

// Store implements every cache interface in process. It is safe for
// concurrent use; Close stops its background sweeper.
type Store struct {
	now         func() time.Time
	semanticMax int

	answersMu sync.Mutex
	answers   *lru[cache.Entry]

	semanticMu sync.RWMutex
	semantic   map[string][]vectorItem // by tenant, oldest first

	sessionsMu sync.Mutex
	sessions   *lru[[]cache.Turn]

	seenMu sync.Mutex
	seen   map[string]time.Time // event id → forget at

	ratesMu sync.Mutex
	rates   map[string]rateWindow

	stop      chan struct{}
	stopped   chan struct{}
	closeOnce sync.Once
}

type vectorItem struct {
	hash       string
	generation uint64
	unit       []float32 // normalised, so cosine is a dot product
	expires    time.Time
}

type rateWindow struct {
	count int
	ends  time.Time
}

// New returns a Store and starts its sweeper.
func New(opts Options) *Store {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.MaxAnswerBytes <= 0 {
		opts.MaxAnswerBytes = DefaultMaxAnswerBytes
	}
	if opts.SemanticMax <= 0 {
		opts.SemanticMax = DefaultSemanticMax
	}
	if opts.MaxConversations <= 0 {
		opts.MaxConversations = DefaultMaxConversations
	}
	if opts.SweepInterval == 0 {
		opts.SweepInterval = DefaultSweepInterval
	}
	s := &Store{
		now:         opts.Now,
		semanticMax: opts.SemanticMax,
		answers:     newLRU(opts.MaxAnswerBytes, answerCost),
		semantic:    make(map[string][]vectorItem),
		sessions:    newLRU(opts.MaxConversations, func(string, []cache.Turn) int { return 1 }),
		seen:        make(map[string]time.Time),
		rates:       make(map[string]rateWindow),
		stop:        make(chan struct{}),
		stopped:     make(chan struct{}),
	}
	if opts.SweepInterval > 0 {
		go s.sweepEvery(opts.SweepInterval)
	} else {
		close(s.stopped)
	}
	return s
}

func answerCost(hash string, e cache.Entry) int {
	return entryOverhead + len(hash) + len(e.Value) + len(e.Question) + 4*len(e.Vector)
}

// Close stops the sweeper. The Store keeps working without it.
func (s *Store) Close() error {
	s.closeOnce.Do(func() { close(s.stop) })
	<-s.stopped
	return nil
}

func (s *Store) sweepEvery(interval time.Duration) {
	defer close(s.stopped)
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-tick.C:
			s.sweep()
		}
	}
}

// sweep drops everything expired, so keys that are never touched again do
// not stay in memory.
func (s *Store) sweep() {
	now := s.now()

	s.answersMu.Lock()
	s.answers.sweep(now)
	s.answersMu.Unlock()

	s.semanticMu.Lock()
	for tenant, items := range s.semantic {
		items = slices.DeleteFunc(items, func(it vectorItem) bool { return !now.Before(it.expires) })
		if len(items) == 0 {
			delete(s.semantic, tenant)
		} else {
			s.semantic[tenant] = items
		}
	}
	s.semanticMu.Unlock()

	s.sessionsMu.Lock()
	s.sessions.sweep(now)
	s.sessionsMu.Unlock()

	s.seenMu.Lock()
	for id, forget := range s.seen {
		if !now.Before(forget) {
			delete(s.seen, id)
		}
	}
	s.seenMu.Unlock()

	s.ratesMu.Lock()
	for key, w := range s.rates {
		if !now.Before(w.ends) {
			delete(s.rates, key)
		}
	}
	s.ratesMu.Unlock()
}

// Get returns the cached answer for key.
func (s *Store) Get(ctx context.Context, key cache.Key) (cache.Entry, bool, error) {
	if err := ctx.Err(); err != nil {
		return cache.Entry{}, false, fmt.Errorf("cache/memory: get: %w", err)
	}
	if key.Tenant == "" {
		return cache.Entry{}, false, fmt.Errorf("cache/memory: get: %w", cache.ErrNoTenant)
	}
	return s.lookup(key.Hash())
}

func (s *Store) lookup(hash string) (cache.Entry, bool, error) {
	s.answersMu.Lock()
	e, ok := s.answers.get(hash, s.now())
	s.answersMu.Unlock()
	if !ok {
		return cache.Entry{}, false, nil
	}
	return cloneEntry(e), true, nil
}

// Put caches e under key for ttl. An entry with a vector also joins its
// tenant's semantic set.
func (s *Store) Put(ctx context.Context, key cache.Key, e cache.Entry, ttl time.Duration) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("cache/memory: put: %w", err)
	}
	if key.Tenant == "" {
		return fmt.Errorf("cache/memory: put: %w", cache.ErrNoTenant)
	}
	if ttl <= 0 {
		return fmt.Errorf("cache/memory: put: ttl %v is not positive", ttl)
	}
	now := s.now()
	if e.CreatedAt.IsZero() {
		e.CreatedAt = now
	}
	e = cloneEntry(e)
	hash, expires := key.Hash(), now.Add(ttl)

	s.answersMu.Lock()
	s.answers.put(hash, e, expires)
	s.answersMu.Unlock()

	unit := cache.UnitVector(e.Vector)
	if unit == nil {
		return nil
	}
	s.semanticMu.Lock()
	defer s.semanticMu.Unlock()
	items := slices.DeleteFunc(s.semantic[key.Tenant], func(it vectorItem) bool { return it.hash == hash })
	items = append(items, vectorItem{hash: hash, generation: key.Generation, unit: unit, expires: expires})
	if over := len(items) - s.semanticMax; over > 0 {
		items = slices.Delete(items, 0, over)
	}
	s.semantic[key.Tenant] = items
	return nil
}

// Nearest returns the live answer of tenant and generation whose question
// vector is most similar to vec, if that similarity is at least
// minSimilarity.
func (s *Store) Nearest(ctx context.Context, tenant string, generation uint64, vec []float32, minSimilarity float64) (cache.Entry, float64, bool, error) {
	if err := ctx.Err(); err != nil {
		return cache.Entry{}, 0, false, fmt.Errorf("cache/memory: nearest: %w", err)
	}
	if tenant == "" {
		return cache.Entry{}, 0, false, fmt.Errorf("cache/memory: nearest: %w", cache.ErrNoTenant)
	}
	norm := cache.VectorNorm(vec)
	if norm == 0 {
		return cache.Entry{}, 0, false, nil
	}
	now := s.now()
	var candidates []cache.Candidate
	s.semanticMu.RLock()
	for _, it := range s.semantic[tenant] {
		if it.generation != generation || len(it.unit) != len(vec) || !now.Before(it.expires) {
			continue
		}
		if sim := dot(it.unit, vec) / norm; sim >= minSimilarity {
			candidates = append(candidates, cache.Candidate{Hash: it.hash, Similarity: sim})
		}
	}
	s.semanticMu.RUnlock()

	// The best vector's answer may have been evicted from the byte-bounded
	// answer cache; the next best still serves.
	cache.SortCandidates(candidates)
	for _, c := range candidates {
		if e, ok, _ := s.lookup(c.Hash); ok {
			return e, min(c.Similarity, 1), true, nil
		}
	}
	return cache.Entry{}, 0, false, nil
}

// Turns returns the conversation's remembered turns, oldest first.
func (s *Store) Turns(ctx context.Context, conversation string) ([]cache.Turn, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("cache/memory: turns: %w", err)
	}
	s.sessionsMu.Lock()
	turns, _ := s.sessions.get(conversation, s.now())
	out := make([]cache.Turn, len(turns))
	for i, t := range turns {
		out[i] = cloneTurn(t)
	}
	s.sessionsMu.Unlock()
	return out, nil
}

// Append adds t, keeps the newest keep turns and restarts the TTL.
func (s *Store) Append(ctx context.Context, conversation string, t cache.Turn, keep int, ttl time.Duration) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("cache/memory: append: %w", err)
	}
	if keep <= 0 {
		return fmt.Errorf("cache/memory: append: keep %d is not positive", keep)
	}
	if ttl <= 0 {
		return fmt.Errorf("cache/memory: append: ttl %v is not positive", ttl)
	}
	now := s.now()
	s.sessionsMu.Lock()
	defer s.sessionsMu.Unlock()
	turns, _ := s.sessions.get(conversation, now)
	if drop := len(turns) + 1 - keep; drop > 0 {
		turns = turns[drop:]
	}
	// A fresh slice rather than trimming in place, so dropped turns do not
	// stay reachable through the old backing array.
	next := make([]cache.Turn, 0, len(turns)+1)
	next = append(next, turns...)
	next = append(next, cloneTurn(t))
	s.sessions.put(conversation, next, now.Add(ttl))
	return nil
}

// FirstSeen reports whether id is new, and remembers it for ttl.
func (s *Store) FirstSeen(ctx context.Context, id string, ttl time.Duration) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, fmt.Errorf("cache/memory: first seen: %w", err)
	}
	if ttl <= 0 {
		return false, fmt.Errorf("cache/memory: first seen: ttl %v is not positive", ttl)
	}
	now := s.now()
	s.seenMu.Lock()
	defer s.seenMu.Unlock()
	if forget, ok := s.seen[id]; ok && now.Before(forget) {
		return false, nil
	}
	s.seen[id] = now.Add(ttl)
	return true, nil
}

// Allow counts one event against key in a fixed window that starts with
// the window's first event.
func (s *Store) Allow(ctx context.Context, key string, limit int, window time.Duration) (cache.Decision, error) {
	if err := ctx.Err(); err != nil {
		return cache.Decision{}, fmt.Errorf("cache/memory: allow: %w", err)
	}
	if limit <= 0 {
		return cache.Decision{}, fmt.Errorf("cache/memory: allow: limit %d is not positive", limit)
	}
	if window <= 0 {
		return cache.Decision{}, fmt.Errorf("cache/memory: allow: window %v is not positive", window)
	}
	now := s.now()
	s.ratesMu.Lock()
	defer s.ratesMu.Unlock()
	w, ok := s.rates[key]
	if !ok || !now.Before(w.ends) {
		w = rateWindow{ends: now.Add(window)}
	}
	w.count++
	s.rates[key] = w
	if w.count > limit {
		return cache.Decision{RetryAfter: w.ends.Sub(now)}, nil
	}
	return cache.Decision{Allowed: true, Remaining: limit - w.count}, nil
}

func cloneEntry(e cache.Entry) cache.Entry {
	e.Value = slices.Clone(e.Value)
	e.Vector = slices.Clone(e.Vector)
	return e
}

func cloneTurn(t cache.Turn) cache.Turn {
	t.DocIDs = slices.Clone(t.DocIDs)
	return t
}

// dot runs eight float32 accumulators so the CPU can pipeline the adds;
// over a few hundred dimensions of unit vectors the rounding stays near
// 1e-6, far below any meaningful similarity threshold, and it is about
// twice as fast as accumulating in float64.
func dot(a, b []float32) float64 {
	b = b[:len(a)]
	var s0, s1, s2, s3, s4, s5, s6, s7 float32
	i := 0
	for ; i+8 <= len(a); i += 8 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
		s4 += a[i+4] * b[i+4]
		s5 += a[i+5] * b[i+5]
		s6 += a[i+6] * b[i+6]
		s7 += a[i+7] * b[i+7]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return float64(s0+s1+s2+s3) + float64(s4+s5+s6+s7)
}
