package redis_test

import (
	"testing"
	"time"

	"github.com/cewhq/cew/cache/redis"
	"github.com/cewhq/cew/outbox"
	"github.com/cewhq/cew/outbox/outboxtest"
)

func TestOutboxConformance(t *testing.T) {
	url := testURL(t)
	outboxtest.Run(t, func(t *testing.T) (outbox.Queue, func() outbox.Queue) {
		prefix := uniquePrefix()
		s := open(t, url, redis.Options{Prefix: prefix})
		return s.Outbox("slack", time.Hour), func() outbox.Queue {
			// Another process: a new connection pool on the same server.
			return open(t, url, redis.Options{Prefix: prefix}).Outbox("slack", time.Hour)
		}
	})
}
