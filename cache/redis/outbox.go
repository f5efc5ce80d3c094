package redis

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/cewhq/cew/outbox"
)

// outboxTimeout bounds one outbox call: these run in the background, not
// on an answer's path, and a claim may touch a few hundred keys.
const outboxTimeout = 2 * time.Second

// OutboxQueue is an outbox queue in Redis, shared by every replica: a list
// of messages per conversation, a sorted set of conversations by the time
// their head is due (a lease is a due time in the future), and a count.
// Every change is one Lua script, so replicas never claim the same head.
// Redis must persist (appendonly) for queued replies to survive a Redis
// restart.
type OutboxQueue struct {
	s    *Store
	base string // key prefix, with a Cluster hash tag
	ttl  time.Duration
}

var (
	_ outbox.Queue   = (*OutboxQueue)(nil)
	_ outbox.Counter = (*OutboxQueue)(nil)
)

// Outbox returns the queue named name (one per platform). Message ids are
// remembered for keep, so a reply pushed twice is queued once.
func (s *Store) Outbox(name string, keep time.Duration) *OutboxQueue {
	return &OutboxQueue{s: s, base: s.prefix + "outbox:{" + name + "}:", ttl: keep}
}

func (q *OutboxQueue) dueKey() string   { return q.base + "due" }
func (q *OutboxQueue) countKey() string { return q.base + "count" }
func (q *OutboxQueue) listPrefix() string {
	return q.base + "q:"
}
func (q *OutboxQueue) idKey(id string) string { return q.base + "id:" + id }

func (q *OutboxQueue) call(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, outboxTimeout)
}

func ms(t time.Time) string { return strconv.FormatInt(t.UnixMilli(), 10) }

// pushMessage: KEYS due, list, id, count; ARGV key, message, id ttl ms. A
// new conversation is due at once (score 0): no replica's clock is read.
var pushMessage = goredis.NewScript(`
if redis.call('SET', KEYS[3], '1', 'NX', 'PX', ARGV[3]) == false then
  return 0
end
redis.call('RPUSH', KEYS[2], ARGV[2])
redis.call('ZADD', KEYS[1], 'NX', 0, ARGV[1])
redis.call('INCR', KEYS[4])
return 1
`)

// Push appends m to its conversation's list.
func (q *OutboxQueue) Push(ctx context.Context, m outbox.Message) error {
	data, err := outbox.Encode(m)
	if err != nil {
		return err
	}
	cctx, cancel := q.call(ctx)
	defer cancel()
	keys := []string{q.dueKey(), q.listPrefix() + m.Key, q.idKey(m.ID), q.countKey()}
	if err := pushMessage.Run(cctx, q.s.client, keys, m.Key, data, q.ttl.Milliseconds()).Err(); err != nil {
		return q.s.fail(ctx, "outbox push", err)
	}
	return nil
}

// claimHeads: KEYS due; ARGV now ms, lease-until ms, max, list prefix.
// Returns key, message pairs.
var claimHeads = goredis.NewScript(`
local keys = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
local out = {}
for _, k in ipairs(keys) do
  local head = redis.call('LINDEX', ARGV[4] .. k, 0)
  if head then
    redis.call('ZADD', KEYS[1], ARGV[2], k)
    table.insert(out, head)
  else
    redis.call('ZREM', KEYS[1], k)
  end
end
return out
`)

// Claim leases the heads of up to max due conversations, longest due
// first.
func (q *OutboxQueue) Claim(ctx context.Context, now time.Time, lease time.Duration, max int) ([]outbox.Message, error) {
	cctx, cancel := q.call(ctx)
	defer cancel()
	res, err := claimHeads.Run(cctx, q.s.client, []string{q.dueKey()}, ms(now), ms(now.Add(lease)), max, q.listPrefix()).StringSlice()
	if err != nil {
		return nil, q.s.fail(ctx, "outbox claim", err)
	}
	out := make([]outbox.Message, 0, len(res))
	for _, raw := range res {
		m, err := outbox.Decode([]byte(raw))
		if err != nil {
			q.s.logger.Warn("cache/redis: unreadable outbox message skipped", "err", err)
			continue
		}
		out = append(out, m)
	}
	return out, nil
}

// settleHead: KEYS due, list, count; ARGV key, id, retry-at ms ("" =
// remove), message. The next message of the conversation is due at once.
var settleHead = goredis.NewScript(`
local head = redis.call('LINDEX', KEYS[2], 0)
if not head then return 0 end
local ok, decoded = pcall(cjson.decode, head)
if not ok or decoded['id'] ~= ARGV[2] then return 0 end
if ARGV[3] == '' then
  redis.call('LPOP', KEYS[2])
  redis.call('DECR', KEYS[3])
  if redis.call('LLEN', KEYS[2]) == 0 then
    redis.call('ZREM', KEYS[1], ARGV[1])
  else
    redis.call('ZADD', KEYS[1], 0, ARGV[1])
  end
else
  redis.call('LSET', KEYS[2], 0, ARGV[4])
  redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
end
return 1
`)

// Settle removes the head m, or stores it back due at retryAt.
func (q *OutboxQueue) Settle(ctx context.Context, m outbox.Message, retryAt time.Time) error {
	at, data := "", []byte(nil)
	if !retryAt.IsZero() {
		var err error
		if data, err = outbox.Encode(m); err != nil {
			return err
		}
		at = ms(retryAt)
	}
	cctx, cancel := q.call(ctx)
	defer cancel()
	keys := []string{q.dueKey(), q.listPrefix() + m.Key, q.countKey()}
	if err := settleHead.Run(cctx, q.s.client, keys, m.Key, m.ID, at, data).Err(); err != nil {
		return q.s.fail(ctx, "outbox settle", err)
	}
	return nil
}

// Len is how many messages the queue holds.
func (q *OutboxQueue) Len(ctx context.Context) (int, error) {
	cctx, cancel := q.call(ctx)
	defer cancel()
	n, err := q.s.client.Get(cctx, q.countKey()).Int()
	if errors.Is(err, goredis.Nil) {
		return 0, nil
	}
	if err != nil {
		return 0, q.s.fail(ctx, "outbox len", fmt.Errorf("count: %w", err))
	}
	return n, nil
}
