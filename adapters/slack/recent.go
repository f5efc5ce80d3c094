package slack

import (
	"sync"
	"time"
)

// recent is a small in-process map whose entries expire after ttl and
// whose size is bounded by evicting the oldest entries. The adapter uses it
// for delivery ids already taken (so a retry reaching the same replica is
// dropped before any work) and for answers that may still be shared.
type recent[V any] struct {
	mu    sync.Mutex
	ttl   time.Duration
	limit int
	items map[string]recentItem[V]
	order []recentKey // insertion order, oldest first
}

type recentItem[V any] struct {
	value V
	at    time.Time
}

type recentKey struct {
	key string
	at  time.Time
}

func newRecent[V any](ttl time.Duration, limit int) *recent[V] {
	return &recent[V]{ttl: ttl, limit: limit, items: map[string]recentItem[V]{}}
}

// add stores value under key unless a fresh entry is already there; it
// reports whether it stored.
func (r *recent[V]) add(key string, value V, now time.Time) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.expire(now)
	if it, ok := r.items[key]; ok && now.Sub(it.at) < r.ttl {
		return false
	}
	r.items[key] = recentItem[V]{value: value, at: now}
	r.order = append(r.order, recentKey{key: key, at: now})
	for len(r.items) > r.limit && len(r.order) > 0 {
		r.evictOldest()
	}
	return true
}

// get returns the fresh value under key.
func (r *recent[V]) get(key string, now time.Time) (V, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	it, ok := r.items[key]
	if !ok || now.Sub(it.at) >= r.ttl {
		var zero V
		return zero, false
	}
	return it.value, true
}

// expire drops entries older than ttl from the front of the order.
func (r *recent[V]) expire(now time.Time) {
	for len(r.order) > 0 && now.Sub(r.order[0].at) >= r.ttl {
		r.evictOldest()
	}
}

func (r *recent[V]) evictOldest() {
	k := r.order[0]
	r.order = r.order[1:]
	// A key re-added later has a newer entry; only its own entry goes.
	if it, ok := r.items[k.key]; ok && it.at.Equal(k.at) {
		delete(r.items, k.key)
	}
}

// forget removes key, so a later delivery of it is taken again.
func (r *recent[V]) forget(key string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.items, key)
}
