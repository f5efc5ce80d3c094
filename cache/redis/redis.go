// Package redis is the cache on Redis, shared by every bot replica: answers
// (exact and semantic), conversation memory, event de-duplication and rate
// limits. Every call is bounded by a short timeout and every Redis failure
// comes back wrapped in cache.ErrUnavailable, so a slow or dead Redis costs
// the bot its cache, never its answers.
package redis

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	goredis "github.com/redis/go-redis/v9"
	"github.com/redis/go-redis/v9/maintnotifications"

	"github.com/cewhq/cew/cache"
)

// Defaults for zero Options fields.
const (
	DefaultTimeout = 50 * time.Millisecond
	DefaultPrefix  = "cew:"
	// DefaultSemanticMax is smaller than the in-memory default because
	// Nearest fetches a tenant's whole set on every lookup: 256 vectors of
	// 1536 dimensions are 1.5 MiB per call.
	DefaultSemanticMax = 256
)

// maxSemanticCandidates caps how many answers above the threshold Nearest
// fetches at once: the best may have expired, the next still serves.
const maxSemanticCandidates = 8

var (
	_ cache.Answers         = (*Store)(nil)
	_ cache.SemanticAnswers = (*Store)(nil)
	_ cache.Sessions        = (*Store)(nil)
	_ cache.Deduper         = (*Store)(nil)
	_ cache.RateLimiter     = (*Store)(nil)
)

// Options configures a Store. The zero value is usable.
type Options struct {
	// Timeout bounds each call on the hot path; DefaultTimeout when zero.
	Timeout time.Duration
	// Prefix starts every key, so several deployments can share a Redis;
	// DefaultPrefix when empty.
	Prefix string
	// SemanticMax is how many question vectors are kept per tenant and
	// generation; the oldest is evicted first. DefaultSemanticMax when zero.
	SemanticMax int
	Logger      *slog.Logger
	// StartDegraded keeps a Redis that is down at Open from being an
	// error: Open logs a warning and returns the Store, whose calls fail
	// with cache.ErrUnavailable until Redis answers. A bot replica can then
	// start (and answer without the cache) during a Redis outage.
	StartDegraded bool
}

// Store implements every cache interface on Redis. It is safe for
// concurrent use.
type Store struct {
	client      *goredis.Client
	timeout     time.Duration
	prefix      string
	semanticMax int
	logger      *slog.Logger
}

// Open connects to the Redis at url (redis://[user:password@]host:port/db,
// rediss:// for TLS) and checks it answers within ctx. A Redis that is down
// at start-up is an error wrapping cache.ErrUnavailable, so the caller
// chooses between failing and running without it; once open, the client
// reconnects by itself after an outage.
func Open(ctx context.Context, url string, opts Options) (*Store, error) {
	ro, err := parseURL(url)
	if err != nil {
		return nil, fmt.Errorf("cache/redis: open: %w", err)
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.Prefix == "" {
		opts.Prefix = DefaultPrefix
	}
	if opts.SemanticMax <= 0 {
		opts.SemanticMax = DefaultSemanticMax
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}

	// Fail fast rather than queue: a call that cannot finish within the
	// timeout is worth less than answering without the cache.
	ro.ContextTimeoutEnabled = true
	ro.ReadTimeout = opts.Timeout
	ro.WriteTimeout = opts.Timeout
	ro.PoolTimeout = opts.Timeout
	ro.MaxRetries = 1 // once, for a pooled connection a restarted server closed
	ro.DialerRetries = 1
	// Dialing on a request is still bounded by the call's timeout; the
	// longer dial timeout lets the background reconnect finish a TLS
	// handshake to a distant Redis.
	ro.DialTimeout = max(10*opts.Timeout, time.Second)
	// Maintenance notifications are for Redis Enterprise cluster upgrades;
	// off, they cost no round trip on every new connection.
	ro.MaintNotificationsConfig = &maintnotifications.Config{Mode: maintnotifications.ModeDisabled}

	s := &Store{
		client:      goredis.NewClient(ro),
		timeout:     opts.Timeout,
		prefix:      opts.Prefix,
		semanticMax: opts.SemanticMax,
		logger:      opts.Logger,
	}
	if err := s.client.Ping(ctx).Err(); err != nil {
		err = s.fail(ctx, "open "+ro.Addr, err)
		if opts.StartDegraded {
			s.logger.Warn("redis cache unreachable at start; answering without it until it returns", "addr", ro.Addr, "err", err)
			return s, nil
		}
		_ = s.client.Close()
		return nil, err
	}
	s.logger.Info("redis cache connected", "addr", ro.Addr, "db", ro.DB, "tls", ro.TLSConfig != nil, "prefix", s.prefix)
	return s, nil
}

// parseURL wraps goredis.ParseURL so that a malformed URL's error never
// echoes the URL: it may carry the password.
func parseURL(url string) (*goredis.Options, error) {
	scheme, _, _ := strings.Cut(url, "://")
	switch scheme {
	case "redis", "rediss", "unix":
	default:
		return nil, errors.New("invalid URL: the scheme must be redis://, rediss:// (TLS) or unix://")
	}
	ro, err := goredis.ParseURL(url)
	if err != nil {
		if strings.Contains(url, "@") || strings.Contains(strings.ToLower(url), "password") {
			return nil, errors.New("invalid URL (details withheld as it carries credentials); want redis://[user:password@]host:port/db")
		}
		return nil, fmt.Errorf("invalid URL: %w", err)
	}
	return ro, nil
}

// ClientLog carries go-redis's own log lines (one per failed dial during an
// outage) into slog at debug level, so Health's warnings stay the one
// operator-facing signal of an outage. go-redis logs through a
// process-wide logger, so the composition root installs it once:
//
//	goredis.SetLogger(redis.ClientLog{Logger: logger})
type ClientLog struct {
	Logger *slog.Logger
}

// Printf implements go-redis's logging interface.
func (l ClientLog) Printf(ctx context.Context, format string, v ...any) {
	l.Logger.DebugContext(ctx, fmt.Sprintf(format, v...), "component", "go-redis")
}

// Ping checks that Redis answers within the call timeout.
func (s *Store) Ping(ctx context.Context) error {
	cctx, cancel := s.call(ctx)
	defer cancel()
	if err := s.client.Ping(cctx).Err(); err != nil {
		return s.fail(ctx, "ping", err)
	}
	return nil
}

// Close closes the connection pool.
func (s *Store) Close() error {
	if err := s.client.Close(); err != nil {
		return fmt.Errorf("cache/redis: close: %w", err)
	}
	return nil
}

// call returns the context one call runs under: the caller's, shortened to
// the store's timeout.
func (s *Store) call(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, s.timeout)
}

// fail wraps a Redis error. Anything Redis-side (refused, timed out, reset,
// an error reply) is cache.ErrUnavailable; a caller that gave up is only
// its own cancellation, which says nothing about Redis.
func (s *Store) fail(caller context.Context, op string, err error) error {
	if caller.Err() != nil {
		return fmt.Errorf("cache/redis: %s: %w", op, caller.Err())
	}
	return fmt.Errorf("cache/redis: %s: %w: %w", op, cache.ErrUnavailable, err)
}

func (s *Store) answerKey(hash string) string { return s.prefix + "answer:" + hash }

// semanticKeys name a tenant and generation's vector set: a hash of answer
// hash → unit vector, and a sorted set of the same answer hashes by
// insertion time that decides eviction. The braces keep both in one Redis
// Cluster slot, which the Lua script that updates them needs.
func (s *Store) semanticKeys(tenant string, generation uint64) []string {
	base := fmt.Sprintf("%ssemantic:{%s}:%d", s.prefix, tenant, generation)
	return []string{base + ":vectors", base + ":order"}
}

// Get returns the cached answer for key.
func (s *Store) Get(ctx context.Context, key cache.Key) (cache.Entry, bool, error) {
	if err := ctx.Err(); err != nil {
		return cache.Entry{}, false, fmt.Errorf("cache/redis: get: %w", err)
	}
	if key.Tenant == "" {
		return cache.Entry{}, false, fmt.Errorf("cache/redis: get: %w", cache.ErrNoTenant)
	}
	cctx, cancel := s.call(ctx)
	defer cancel()
	b, err := s.client.Get(cctx, s.answerKey(key.Hash())).Bytes()
	if errors.Is(err, goredis.Nil) {
		return cache.Entry{}, false, nil
	}
	if err != nil {
		return cache.Entry{}, false, s.fail(ctx, "get", err)
	}
	e, err := decodeEntry(b)
	if err != nil {
		s.logger.Warn("cache/redis: unreadable answer treated as a miss", "err", err)
		return cache.Entry{}, false, nil
	}
	return e, true, nil
}

// addVector stores one answer's unit vector in its tenant's set and evicts
// the oldest beyond the bound, atomically, so replicas adding at once never
// leave the set over its bound or the two keys out of step. Insertion time
// comes from the Redis server's clock, shared by every replica; it is built
// as a string because Lua numbers print with 14 digits only.
var addVector = goredis.NewScript(`
local t = redis.call('TIME')
local score = t[1] .. string.format('%06d', tonumber(t[2]))
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('ZADD', KEYS[2], score, ARGV[1])
local over = redis.call('ZCARD', KEYS[2]) - tonumber(ARGV[3])
if over > 0 then
  local evicted = redis.call('ZPOPMIN', KEYS[2], over)
  for i = 1, #evicted, 2 do
    redis.call('HDEL', KEYS[1], evicted[i])
  end
end
local ttl = tonumber(ARGV[4])
for _, k in ipairs(KEYS) do
  if redis.call('PTTL', k) < ttl then
    redis.call('PEXPIRE', k, ttl)
  end
end
return 0
`)

// Put caches e under key for ttl. An entry with a vector also joins its
// tenant and generation's semantic set, which lives as long as its
// longest-lived answer.
func (s *Store) Put(ctx context.Context, key cache.Key, e cache.Entry, ttl time.Duration) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("cache/redis: put: %w", err)
	}
	if key.Tenant == "" {
		return fmt.Errorf("cache/redis: put: %w", cache.ErrNoTenant)
	}
	if ttl <= 0 {
		return fmt.Errorf("cache/redis: put: ttl %v is not positive", ttl)
	}
	if e.CreatedAt.IsZero() {
		e.CreatedAt = time.Now()
	}
	hash := key.Hash()
	cctx, cancel := s.call(ctx)
	defer cancel()
	if err := s.client.Set(cctx, s.answerKey(hash), encodeEntry(e), roundUp(ttl)).Err(); err != nil {
		return s.fail(ctx, "put", err)
	}
	unit := cache.UnitVector(e.Vector)
	if unit == nil {
		return nil
	}
	args := []any{hash, appendVector(nil, unit), s.semanticMax, roundUp(ttl).Milliseconds()}
	if err := addVector.Run(cctx, s.client, s.semanticKeys(key.Tenant, key.Generation), args...).Err(); err != nil {
		return s.fail(ctx, "put vector", err)
	}
	return nil
}

// roundUp makes a sub-millisecond duration one millisecond, Redis's
// smallest expiry.
func roundUp(d time.Duration) time.Duration {
	return max(d.Round(time.Millisecond), time.Millisecond)
}

// Nearest returns the live answer of tenant and generation whose question
// vector is most similar to vec, if that similarity is at least
// minSimilarity. The set is small, so it is fetched whole and compared
// here rather than indexed in Redis.
func (s *Store) Nearest(ctx context.Context, tenant string, generation uint64, vec []float32, minSimilarity float64) (cache.Entry, float64, bool, error) {
	if err := ctx.Err(); err != nil {
		return cache.Entry{}, 0, false, fmt.Errorf("cache/redis: nearest: %w", err)
	}
	if tenant == "" {
		return cache.Entry{}, 0, false, fmt.Errorf("cache/redis: nearest: %w", cache.ErrNoTenant)
	}
	norm := cache.VectorNorm(vec)
	if norm == 0 {
		return cache.Entry{}, 0, false, nil
	}
	cctx, cancel := s.call(ctx)
	defer cancel()
	set, err := s.client.HGetAll(cctx, s.semanticKeys(tenant, generation)[0]).Result()
	if err != nil {
		return cache.Entry{}, 0, false, s.fail(ctx, "nearest", err)
	}
	var candidates []cache.Candidate
	for hash, stored := range set {
		if len(stored) != 4*len(vec) {
			continue
		}
		if sim := dotStored(stored, vec) / norm; sim >= minSimilarity {
			candidates = append(candidates, cache.Candidate{Hash: hash, Similarity: min(sim, 1)})
		}
	}
	if len(candidates) == 0 {
		return cache.Entry{}, 0, false, nil
	}
	cache.SortCandidates(candidates)
	candidates = candidates[:min(len(candidates), maxSemanticCandidates)]
	keys := make([]string, len(candidates))
	for i, c := range candidates {
		keys[i] = s.answerKey(c.Hash)
	}
	// The vectors outlive the answers that expired before the set did;
	// the answer keys are the authority on what is still live.
	values, err := s.client.MGet(cctx, keys...).Result()
	if err != nil {
		return cache.Entry{}, 0, false, s.fail(ctx, "nearest", err)
	}
	for i, v := range values {
		str, ok := v.(string)
		if !ok {
			continue
		}
		e, err := decodeEntry([]byte(str))
		if err != nil {
			s.logger.Warn("cache/redis: unreadable answer treated as a miss", "err", err)
			continue
		}
		return e, candidates[i].Similarity, true, nil
	}
	return cache.Entry{}, 0, false, nil
}

func (s *Store) sessionKey(conversation string) string { return s.prefix + "session:" + conversation }

// Turns returns the conversation's remembered turns, oldest first.
func (s *Store) Turns(ctx context.Context, conversation string) ([]cache.Turn, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("cache/redis: turns: %w", err)
	}
	cctx, cancel := s.call(ctx)
	defer cancel()
	raw, err := s.client.LRange(cctx, s.sessionKey(conversation), 0, -1).Result()
	if err != nil {
		return nil, s.fail(ctx, "turns", err)
	}
	turns := make([]cache.Turn, 0, len(raw))
	for _, r := range raw {
		var t cache.Turn
		if err := json.Unmarshal([]byte(r), &t); err != nil {
			s.logger.Warn("cache/redis: unreadable turn skipped", "err", err)
			continue
		}
		turns = append(turns, t)
	}
	return turns, nil
}

// Append adds t, keeps the newest keep turns and restarts the TTL, in one
// MULTI so a reader never sees the list untrimmed or without its TTL.
func (s *Store) Append(ctx context.Context, conversation string, t cache.Turn, keep int, ttl time.Duration) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("cache/redis: append: %w", err)
	}
	if keep <= 0 {
		return fmt.Errorf("cache/redis: append: keep %d is not positive", keep)
	}
	if ttl <= 0 {
		return fmt.Errorf("cache/redis: append: ttl %v is not positive", ttl)
	}
	b, err := json.Marshal(t)
	if err != nil {
		return fmt.Errorf("cache/redis: append: %w", err)
	}
	key := s.sessionKey(conversation)
	cctx, cancel := s.call(ctx)
	defer cancel()
	_, err = s.client.TxPipelined(cctx, func(p goredis.Pipeliner) error {
		p.RPush(cctx, key, b)
		p.LTrim(cctx, key, int64(-keep), -1)
		p.PExpire(cctx, key, roundUp(ttl))
		return nil
	})
	if err != nil {
		return s.fail(ctx, "append", err)
	}
	return nil
}

// FirstSeen reports whether id is new, and remembers it for ttl. SET NX
// makes exactly one replica the first.
func (s *Store) FirstSeen(ctx context.Context, id string, ttl time.Duration) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, fmt.Errorf("cache/redis: first seen: %w", err)
	}
	if ttl <= 0 {
		return false, fmt.Errorf("cache/redis: first seen: ttl %v is not positive", ttl)
	}
	cctx, cancel := s.call(ctx)
	defer cancel()
	first, err := s.client.SetNX(cctx, s.prefix+"seen:"+id, 1, roundUp(ttl)).Result()
	if err != nil {
		return false, s.fail(ctx, "first seen", err)
	}
	return first, nil
}

// countInWindow counts one event in a fixed window that starts with its
// first event and returns the count and the milliseconds the window has
// left. INCR and PEXPIRE in one script, so a replica dying between them
// cannot leave a counter that never expires.
var countInWindow = goredis.NewScript(`
local n = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {n, ttl}
`)

// Allow counts one event against key in a fixed window, atomically across
// replicas.
func (s *Store) Allow(ctx context.Context, key string, limit int, window time.Duration) (cache.Decision, error) {
	if err := ctx.Err(); err != nil {
		return cache.Decision{}, fmt.Errorf("cache/redis: allow: %w", err)
	}
	if limit <= 0 {
		return cache.Decision{}, fmt.Errorf("cache/redis: allow: limit %d is not positive", limit)
	}
	if window <= 0 {
		return cache.Decision{}, fmt.Errorf("cache/redis: allow: window %v is not positive", window)
	}
	cctx, cancel := s.call(ctx)
	defer cancel()
	res, err := countInWindow.Run(cctx, s.client, []string{s.prefix + "rate:" + key}, roundUp(window).Milliseconds()).Int64Slice()
	if err != nil {
		return cache.Decision{}, s.fail(ctx, "allow", err)
	}
	if len(res) != 2 {
		return cache.Decision{}, s.fail(ctx, "allow", fmt.Errorf("unexpected reply %v", res))
	}
	count, left := res[0], res[1]
	if count > int64(limit) {
		// PTTL rounds down: a window in its last millisecond still denies.
		return cache.Decision{RetryAfter: time.Duration(max(left, 1)) * time.Millisecond}, nil
	}
	return cache.Decision{Allowed: true, Remaining: limit - int(count)}, nil
}
