// Package drafts throttles the updates of a streamed draft answer: tokens
// accumulate as the model writes them, and the platform message is
// updated at most once per interval with everything that has arrived.
package drafts

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"time"
)

// Update shows the draft so far; errors are logged and the next update
// tries again.
type Update func(ctx context.Context, text string) error

// Throttler receives streamed text and updates the draft. Add never
// blocks the generator.
type Throttler struct {
	update   Update
	log      *slog.Logger
	interval time.Duration

	mu   sync.Mutex
	text strings.Builder

	wake   chan struct{}
	done   chan struct{}
	exited chan struct{}
}

// Start begins throttled updates until Stop or until ctx ends.
func Start(ctx context.Context, interval time.Duration, update Update, log *slog.Logger) *Throttler {
	d := &Throttler{
		update: update, log: log, interval: interval,
		wake: make(chan struct{}, 1), done: make(chan struct{}), exited: make(chan struct{}),
	}
	go d.loop(ctx)
	return d
}

// Add receives one streamed delta.
func (d *Throttler) Add(delta string) {
	d.mu.Lock()
	d.text.WriteString(delta)
	d.mu.Unlock()
	select {
	case d.wake <- struct{}{}:
	default:
	}
}

// Stop ends the drafts and waits for an update in flight, so no draft can
// land after the final answer.
func (d *Throttler) Stop() {
	close(d.done)
	<-d.exited
}

func (d *Throttler) loop(ctx context.Context) {
	defer close(d.exited)
	var (
		last time.Time
		sent string
	)
	for {
		select {
		case <-d.done:
			return
		case <-ctx.Done():
			return
		case <-d.wake:
		}
		if wait := d.interval - time.Since(last); !last.IsZero() && wait > 0 {
			t := time.NewTimer(wait)
			select {
			case <-d.done:
				t.Stop()
				return
			case <-ctx.Done():
				t.Stop()
				return
			case <-t.C:
			}
		}
		d.mu.Lock()
		text := d.text.String()
		d.mu.Unlock()
		// A wake-up that brought nothing new (its text was already
		// shown by the update before it) sends nothing.
		if strings.TrimSpace(text) == "" || text == sent {
			continue
		}
		if err := d.update(ctx, text); err != nil {
			d.log.Debug("draft not updated", "stage", "draft", "err", err)
		} else {
			sent = text
		}
		last = time.Now()
	}
}
