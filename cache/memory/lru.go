package memory

import (
	"container/list"
	"time"
)

// lru is a map with expiring entries and a cost budget: when the total cost
// exceeds the budget, the least recently used entries go first. It is not
// safe for concurrent use; Store holds a lock around it.
type lru[V any] struct {
	budget int
	cost   func(key string, v V) int
	used   int
	items  map[string]*list.Element
	order  *list.List // front is the most recently used
}

type lruItem[V any] struct {
	key     string
	value   V
	cost    int
	expires time.Time
}

func newLRU[V any](budget int, cost func(string, V) int) *lru[V] {
	return &lru[V]{budget: budget, cost: cost, items: make(map[string]*list.Element), order: list.New()}
}

// get returns the live value under key and marks it used; an expired entry
// is dropped on the way.
func (c *lru[V]) get(key string, now time.Time) (V, bool) {
	el, ok := c.items[key]
	if !ok {
		var zero V
		return zero, false
	}
	it := el.Value.(*lruItem[V])
	if !now.Before(it.expires) {
		c.remove(el)
		var zero V
		return zero, false
	}
	c.order.MoveToFront(el)
	return it.value, true
}

// put stores value under key until expires, evicting the least recently
// used entries beyond the budget. An entry costing more than the whole
// budget is not kept at all.
func (c *lru[V]) put(key string, value V, expires time.Time) {
	cost := c.cost(key, value)
	if el, ok := c.items[key]; ok {
		c.remove(el)
	}
	if cost > c.budget {
		return
	}
	c.items[key] = c.order.PushFront(&lruItem[V]{key: key, value: value, cost: cost, expires: expires})
	c.used += cost
	for c.used > c.budget {
		c.remove(c.order.Back())
	}
}

func (c *lru[V]) remove(el *list.Element) {
	it := c.order.Remove(el).(*lruItem[V])
	delete(c.items, it.key)
	c.used -= it.cost
}

// sweep drops every expired entry.
func (c *lru[V]) sweep(now time.Time) {
	for el := c.order.Front(); el != nil; {
		next := el.Next()
		if !now.Before(el.Value.(*lruItem[V]).expires) {
			c.remove(el)
		}
		el = next
	}
}

func (c *lru[V]) len() int { return len(c.items) }
