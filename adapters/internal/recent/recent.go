// Package recent is a small in-process map whose entries expire after a
// TTL and whose size is bounded by evicting the oldest entries. Adapters use
// it for delivery ids already taken (so a retry reaching the same replica
// is dropped before any work) and for answers kept for a while.
package recent

import (
	"sync"
	"time"
)

// Map holds values for ttl, at most limit of them. It is safe for
// concurrent use; time comes from the caller.
type Map[V any] struct {
	mu    sync.Mutex
	ttl   time.Duration
	limit int
	items map[string]item[V]
	order []key // insertion order, oldest first
}

type item[V any] struct {
	value V
	at    time.Time
}

type key struct {
	key string
	at  time.Time
}

// New returns an empty Map.
func New[V any](ttl time.Duration, limit int) *Map[V] {
	return &Map[V]{ttl: ttl, limit: limit, items: map[string]item[V]{}}
}

// Add stores value under k unless a fresh entry is already there; it
// reports whether it stored.
func (r *Map[V]) Add(k string, value V, now time.Time) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.expire(now)
	if it, ok := r.items[k]; ok && now.Sub(it.at) < r.ttl {
		return false
	}
	r.items[k] = item[V]{value: value, at: now}
	r.order = append(r.order, key{key: k, at: now})
	for len(r.items) > r.limit && len(r.order) > 0 {
		r.evictOldest()
	}
	return true
}

// Get returns the fresh value under k.
func (r *Map[V]) Get(k string, now time.Time) (V, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	it, ok := r.items[k]
	if !ok || now.Sub(it.at) >= r.ttl {
		var zero V
		return zero, false
	}
	return it.value, true
}

// expire drops entries older than ttl from the front of the order.
func (r *Map[V]) expire(now time.Time) {
	for len(r.order) > 0 && now.Sub(r.order[0].at) >= r.ttl {
		r.evictOldest()
	}
}

func (r *Map[V]) evictOldest() {
	k := r.order[0]
	r.order = r.order[1:]
	// A key re-added later has a newer entry; only its own entry goes.
	if it, ok := r.items[k.key]; ok && it.at.Equal(k.at) {
		delete(r.items, k.key)
	}
}

// Forget removes k, so a later delivery of it is taken again.
func (r *Map[V]) Forget(k string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.items, k)
}
