package outbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"sync"
	"time"
)

// Sender delivers one message to its platform: one attempt, bounded by
// ctx. It returns nil once the platform has the reply, a Permanent error
// when it refused it for good, a RetryAfter error when it asked to wait,
// and any other error for a failure worth retrying. It may rewrite
// m.Payload to change what the next attempt does.
type Sender interface {
	Send(ctx context.Context, m *Message) error
}

// Reasons a reply was not delivered, as counted.
const (
	// ReasonDeadline: still failing when its deadline passed.
	ReasonDeadline = "deadline"
	// ReasonRejected: the platform refused it (a Permanent error).
	ReasonRejected = "rejected"
	// ReasonUnqueued: no queue could store it and the direct attempt
	// failed too.
	ReasonUnqueued = "unqueued"
)

// Defaults of a Config.
const (
	DefaultDeadline    = 15 * time.Minute
	DefaultInitial     = time.Second
	DefaultConcurrency = 8
	DefaultLease       = 2 * time.Minute
	DefaultPoll        = 500 * time.Millisecond
)

// Config configures an Outbox. Zero values are the defaults.
type Config struct {
	Queue  Queue
	Sender Sender
	// Platform names the outbox in logs and metrics ("slack", "teams").
	Platform string
	// Deadline is how long a reply is retried before it is given up.
	Deadline time.Duration
	// Initial and Max bound the exponential backoff between attempts
	// (±20 % jitter); a Retry-After wait is honoured as given. Max
	// defaults to ten times Initial.
	Initial, Max time.Duration
	// Concurrency is how many replies are sent at once.
	Concurrency int
	// Lease is how long a claimed reply is hidden from other replicas; a
	// Send is bounded by half of it.
	Lease time.Duration
	// Poll is how often the queue is looked at when nothing wakes the
	// outbox (replies pushed by other replicas, retries falling due);
	// it defaults to Initial, at most DefaultPoll.
	Poll time.Duration
	// GiveUp is told of a reply given up (ReasonDeadline or
	// ReasonRejected), once, before it is removed; the adapter says "could
	// not deliver" where it can.
	GiveUp  func(ctx context.Context, m Message, reason string)
	Logger  *slog.Logger
	Metrics *Metrics
	Now     func() time.Time
}

// Outbox sends the replies of one platform. It is safe for concurrent use.
type Outbox struct {
	cfg  Config
	log  *slog.Logger
	wake chan struct{}
	stop chan struct{}
	done chan struct{}
	// cancel ends the sends in flight when Shutdown's deadline passes.
	cancel context.CancelFunc

	mu       sync.Mutex
	inflight int
	sends    sync.WaitGroup
	// streak counts consecutive retryable failures: while it is above
	// zero the outbox sends one reply at a time (a probe) after a pause,
	// instead of every reply hammering a platform that is down.
	streak      int
	pausedUntil time.Time
	// delivered remembers replies this process delivered whose removal
	// from the queue has not been confirmed, so a reply whose lease ran out
	// while the queue was unreachable is not sent twice.
	delivered map[string]time.Time
}

// New checks cfg; Start begins delivering.
func New(cfg Config) (*Outbox, error) {
	if cfg.Queue == nil || cfg.Sender == nil || cfg.Platform == "" {
		return nil, errors.New("outbox: a queue, a sender and a platform are required")
	}
	if cfg.Deadline <= 0 {
		cfg.Deadline = DefaultDeadline
	}
	if cfg.Initial <= 0 {
		cfg.Initial = DefaultInitial
	}
	if cfg.Max <= 0 {
		cfg.Max = 10 * cfg.Initial
	}
	if cfg.Concurrency <= 0 {
		cfg.Concurrency = DefaultConcurrency
	}
	if cfg.Lease <= 0 {
		cfg.Lease = DefaultLease
	}
	if cfg.Poll <= 0 {
		cfg.Poll = min(cfg.Initial, DefaultPoll)
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Outbox{
		cfg:       cfg,
		log:       cfg.Logger.With("platform", cfg.Platform, "stage", "outbox"),
		wake:      make(chan struct{}, 1),
		stop:      make(chan struct{}),
		done:      make(chan struct{}),
		delivered: map[string]time.Time{},
	}, nil
}

// Start begins delivering in the background; Shutdown stops it.
func (o *Outbox) Start() {
	ctx, cancel := context.WithCancel(context.Background())
	o.cancel = cancel
	go o.run(ctx)
}

// Enqueue stores a reply for delivery: id names it (a redelivered event
// gives the same id), key orders it among its conversation's replies, and
// payload is what the Sender will read. An error means no queue could
// store it; the caller then delivers it itself.
func (o *Outbox) Enqueue(ctx context.Context, id, key string, payload any) error {
	raw, err := json.Marshal(payload)
	if err != nil {
		return fmt.Errorf("outbox: %s: payload: %w", o.cfg.Platform, err)
	}
	now := o.cfg.Now()
	m := Message{ID: id, Key: key, Payload: raw, Created: now, Deadline: now.Add(o.cfg.Deadline)}
	if err := o.cfg.Queue.Push(ctx, m); err != nil {
		return fmt.Errorf("outbox: %s: %w", o.cfg.Platform, err)
	}
	o.cfg.Metrics.enqueued(o.cfg.Platform)
	o.poke()
	return nil
}

// Unqueued counts a reply that could not be queued and whose direct
// delivery failed.
func (o *Outbox) Unqueued() { o.cfg.Metrics.undelivered(o.cfg.Platform, ReasonUnqueued) }

func (o *Outbox) poke() {
	select {
	case o.wake <- struct{}{}:
	default:
	}
}

// Shutdown stops claiming replies and waits for the sends in flight until
// ctx ends, then cancels them. Replies still queued stay in the queue for
// the next start (or another replica).
func (o *Outbox) Shutdown(ctx context.Context) error {
	select {
	case <-o.stop:
	default:
		close(o.stop)
	}
	if o.cancel == nil { // never started
		return nil
	}
	<-o.done
	idle := make(chan struct{})
	go func() { o.sends.Wait(); close(idle) }()
	select {
	case <-idle:
		o.cancel()
		return nil
	case <-ctx.Done():
		o.cancel()
		<-idle
		return fmt.Errorf("outbox: %s: shutdown: %w", o.cfg.Platform, ctx.Err())
	}
}

func (o *Outbox) run(ctx context.Context) {
	defer close(o.done)
	timer := time.NewTimer(0)
	defer timer.Stop()
	lastCount := time.Time{}
	for {
		select {
		case <-o.stop:
			return
		case <-o.wake:
		case <-timer.C:
		}
		now := o.cfg.Now()
		if now.Sub(lastCount) >= 5*time.Second {
			lastCount = now
			o.count(ctx)
		}
		wait := o.claim(ctx, now)
		if !timer.Stop() {
			select {
			case <-timer.C:
			default:
			}
		}
		timer.Reset(wait)
	}
}

// claim takes as many due replies as there are free slots and starts
// sending them; it returns how long to wait before looking again.
func (o *Outbox) claim(ctx context.Context, now time.Time) time.Duration {
	o.mu.Lock()
	free := o.cfg.Concurrency - o.inflight
	if o.streak > 0 {
		if now.Before(o.pausedUntil) {
			wait := o.pausedUntil.Sub(now)
			o.mu.Unlock()
			return wait
		}
		free = 1 - o.inflight
	}
	o.mu.Unlock()
	if free <= 0 {
		return o.cfg.Poll
	}
	msgs, err := o.cfg.Queue.Claim(ctx, now, o.cfg.Lease, free)
	if err != nil {
		o.log.Warn("outbox queue unreachable; retrying", "err", err)
		return o.cfg.Poll
	}
	for _, m := range msgs {
		o.mu.Lock()
		o.inflight++
		o.mu.Unlock()
		o.sends.Add(1)
		go o.process(ctx, m)
	}
	if len(msgs) == free {
		return 0 // more may be due
	}
	return o.cfg.Poll
}

// process makes one attempt at m and settles it.
func (o *Outbox) process(ctx context.Context, m Message) {
	defer func() {
		o.mu.Lock()
		o.inflight--
		o.mu.Unlock()
		o.sends.Done()
		o.poke()
	}()
	log := o.log.With("delivery_id", m.ID, "attempt", m.Attempts+1)
	if o.alreadyDelivered(m.ID) {
		o.settle(ctx, log, m, time.Time{})
		return
	}
	m.Attempts++
	sendCtx, cancel := context.WithTimeout(ctx, o.cfg.Lease/2)
	err := o.cfg.Sender.Send(sendCtx, &m)
	cancel()
	now := o.cfg.Now()
	if err == nil {
		o.succeeded()
		o.markDelivered(m.ID, now)
		o.cfg.Metrics.deliveredAfter(o.cfg.Platform, m.Attempts > 1, now.Sub(m.Created))
		if m.Attempts > 1 {
			log.Info("reply delivered after retries", "delay_ms", now.Sub(m.Created).Milliseconds())
		}
		o.settle(ctx, log, m, time.Time{})
		return
	}
	if ctx.Err() != nil { // shutting down: the lease runs out and it is sent later
		return
	}
	m.LastError = err.Error()
	o.cfg.Metrics.failed(o.cfg.Platform)
	if IsPermanent(err) {
		log.Warn("reply refused by the platform; giving up", "err", err)
		o.giveUp(ctx, m, ReasonRejected)
		o.settle(ctx, log, m, time.Time{})
		return
	}
	wait := o.failed(now, m.Attempts, err)
	next := now.Add(wait)
	if !now.Before(m.Deadline) {
		log.Warn("reply not delivered by its deadline; giving up", "err", err, "created", m.Created)
		o.giveUp(ctx, m, ReasonDeadline)
		o.settle(ctx, log, m, time.Time{})
		return
	}
	if next.After(m.Deadline) {
		next = m.Deadline // one last try at the deadline
	}
	log.Info("reply not delivered; will retry", "err", err, "wait_ms", wait.Milliseconds())
	o.settle(ctx, log, m, next)
}

// failed records a retryable failure and returns the wait before m's next
// attempt: the platform's Retry-After, else exponential backoff.
func (o *Outbox) failed(now time.Time, attempts int, err error) time.Duration {
	wait, asked := waitOf(err)
	o.mu.Lock()
	defer o.mu.Unlock()
	o.streak++
	pause := o.backoff(o.streak)
	if asked {
		pause = max(wait, pause)
	}
	if until := now.Add(pause); until.After(o.pausedUntil) {
		o.pausedUntil = until
	}
	if asked {
		return wait
	}
	return o.backoff(attempts)
}

// Failing reports whether the platform is failing now: the last attempt
// failed and no attempt has succeeded since. Adapters skip work that
// would only wait on it (a placeholder, a typing indicator).
func (o *Outbox) Failing() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.streak > 0
}

func (o *Outbox) succeeded() {
	o.mu.Lock()
	o.streak, o.pausedUntil = 0, time.Time{}
	o.mu.Unlock()
}

// backoff is Initial·2^(n-1), at most Max, with ±20 % jitter.
func (o *Outbox) backoff(n int) time.Duration {
	d := o.cfg.Initial
	for i := 1; i < n && d < o.cfg.Max; i++ {
		d *= 2
	}
	d = min(d, o.cfg.Max)
	return time.Duration(float64(d) * (0.8 + 0.4*rand.Float64()))
}

func (o *Outbox) giveUp(ctx context.Context, m Message, reason string) {
	o.cfg.Metrics.undelivered(o.cfg.Platform, reason)
	if o.cfg.GiveUp != nil {
		o.cfg.GiveUp(ctx, m, reason)
	}
}

// settle finishes m in the queue, retrying while the queue is unreachable
// (a delivered reply must not be sent again when its lease runs out).
func (o *Outbox) settle(ctx context.Context, log *slog.Logger, m Message, retryAt time.Time) {
	wait := 50 * time.Millisecond
	for {
		err := o.cfg.Queue.Settle(ctx, m, retryAt)
		if err == nil {
			if retryAt.IsZero() {
				o.forgetDelivered(m.ID)
			}
			return
		}
		log.Warn("outbox queue unreachable while settling a reply; retrying", "err", err)
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		wait = min(2*wait, 5*time.Second)
	}
}

// deliveredLimit bounds the replies remembered as delivered but not yet
// removed from their queue.
const deliveredLimit = 100_000

func (o *Outbox) markDelivered(id string, now time.Time) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if len(o.delivered) >= deliveredLimit {
		for k, at := range o.delivered {
			if now.Sub(at) > o.cfg.Deadline+o.cfg.Lease {
				delete(o.delivered, k)
			}
		}
	}
	if len(o.delivered) < deliveredLimit {
		o.delivered[id] = now
	}
}

func (o *Outbox) alreadyDelivered(id string) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	_, ok := o.delivered[id]
	return ok
}

func (o *Outbox) forgetDelivered(id string) {
	o.mu.Lock()
	delete(o.delivered, id)
	o.mu.Unlock()
}

// count updates the pending gauge when the queue can count.
func (o *Outbox) count(ctx context.Context) {
	c, ok := o.cfg.Queue.(Counter)
	if !ok || o.cfg.Metrics == nil {
		return
	}
	cctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	if n, err := c.Len(cctx); err == nil {
		o.cfg.Metrics.pendingNow(o.cfg.Platform, n)
	}
}
