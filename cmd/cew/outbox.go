package main

import (
	"path/filepath"
	"time"

	"github.com/cewhq/cew/cache/redis"
	"github.com/cewhq/cew/outbox"
	"github.com/cewhq/cew/outbox/disk"
)

// outboxKeep is how long Redis remembers a delivered reply's id, so a
// reply queued twice (a redelivered event on another replica) is sent
// once: well past any delivery deadline.
const outboxKeep = 24 * time.Hour

// outboxQueue is where the server keeps replies until their platform has
// them: Redis when configured (every replica drains it), falling back to
// the data directory while Redis cannot take them; the data directory
// alone otherwise. Call after newBot (which opens the cache).
func (a *app) outboxQueue(name string) (outbox.Queue, error) {
	if a.outboxDB == nil {
		db, err := disk.Open(filepath.Join(a.cfg.DataDir, "outbox", "outbox.db"), disk.Options{})
		if err != nil {
			return nil, err
		}
		a.outboxDB = db
		a.closers = append(a.closers, db.Close)
	}
	local, err := a.outboxDB.Queue(name)
	if err != nil {
		return nil, err
	}
	if r, ok := a.cache.(*redis.Store); ok {
		return outbox.Fallback(r.Outbox(name, max(outboxKeep, 2*a.cfg.DeliveryDeadline)), local), nil
	}
	return local, nil
}
