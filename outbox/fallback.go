package outbox

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Fallback stores replies in primary (Redis, shared by the replicas) and,
// while primary cannot take them, in secondary (this replica's data
// directory), so a Redis outage loses no reply. Both are drained. Replies
// of one conversation split across the two (pushed while Redis was going
// down) may be delivered out of order; nothing is lost.
func Fallback(primary, secondary Queue) Queue {
	return &fallback{queues: [2]Queue{primary, secondary}}
}

type fallback struct {
	queues [2]Queue
}

func (f *fallback) Push(ctx context.Context, m Message) error {
	err := f.queues[0].Push(ctx, m)
	if err == nil {
		return nil
	}
	if err2 := f.queues[1].Push(ctx, m); err2 != nil {
		return errors.Join(err, err2)
	}
	return nil
}

func (f *fallback) Claim(ctx context.Context, now time.Time, lease time.Duration, max int) ([]Message, error) {
	var (
		out  []Message
		errs []error
	)
	for i, q := range f.queues {
		if len(out) >= max {
			break
		}
		msgs, err := q.Claim(ctx, now, lease, max-len(out))
		if err != nil {
			errs = append(errs, err)
			continue
		}
		for _, m := range msgs {
			m.origin = i
			out = append(out, m)
		}
	}
	if len(errs) == len(f.queues) {
		return nil, errors.Join(errs...)
	}
	return out, nil
}

func (f *fallback) Settle(ctx context.Context, m Message, retryAt time.Time) error {
	if m.origin < 0 || m.origin >= len(f.queues) {
		return fmt.Errorf("outbox: settle %s: unknown queue", m.ID)
	}
	return f.queues[m.origin].Settle(ctx, m, retryAt)
}

// Len counts both queues; one that cannot be counted counts as empty
// unless neither can.
func (f *fallback) Len(ctx context.Context) (int, error) {
	total, counted := 0, false
	var errs []error
	for _, q := range f.queues {
		c, ok := q.(Counter)
		if !ok {
			continue
		}
		n, err := c.Len(ctx)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		total, counted = total+n, true
	}
	if !counted && len(errs) > 0 {
		return 0, errors.Join(errs...)
	}
	return total, nil
}
