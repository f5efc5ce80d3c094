package slack

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"
)

var (
	// errBusy: every worker is busy and the queue is full.
	errBusy = errors.New("adapters/slack: worker queue full")
	// errClosed: the adapter is shutting down and takes no new work.
	errClosed = errors.New("adapters/slack: shutting down")
)

// pool is a bounded worker pool: a fixed number of workers take jobs from
// a bounded queue, so a burst of events costs queue slots, not goroutines.
// Each job runs under its own timeout, which starts when a worker takes it.
type pool struct {
	log     *slog.Logger
	timeout time.Duration

	// mu orders sends on jobs before its close: submit holds it shared,
	// shutdown exclusively, so acknowledgements never wait on each other.
	mu     sync.RWMutex
	closed atomic.Bool
	jobs   chan func()

	// running tracks the cancel funcs of running jobs.
	runMu    sync.Mutex
	aborted  bool // shutdown's deadline passed: queued jobs are dropped
	inflight map[uint64]context.CancelFunc
	nextID   uint64

	workers sync.WaitGroup
	// side tracks short goroutines started outside the queue (busy notices),
	// so Shutdown waits for them too.
	side sync.WaitGroup
	// sideSlots bounds those goroutines.
	sideSlots chan struct{}
}

func newPool(workers, queue int, timeout time.Duration, log *slog.Logger) *pool {
	p := &pool{
		log:       log,
		timeout:   timeout,
		jobs:      make(chan func(), queue),
		inflight:  map[uint64]context.CancelFunc{},
		sideSlots: make(chan struct{}, workers),
	}
	for range workers {
		p.workers.Go(func() {
			for job := range p.jobs {
				job()
			}
		})
	}
	return p
}

// submit queues work without blocking. base carries the values of the
// request that brought the work, detached from its cancellation; work gets
// base with the job timeout.
func (p *pool) submit(base context.Context, work func(ctx context.Context)) error {
	job := func() {
		ctx, cancel := context.WithTimeout(base, p.timeout)
		id, ok := p.track(cancel)
		if !ok {
			cancel()
			p.log.Warn("job dropped at shutdown", "platform", "slack", "stage", "worker")
			return
		}
		defer func() {
			p.untrack(id)
			cancel()
		}()
		p.run(ctx, work)
	}
	p.mu.RLock()
	defer p.mu.RUnlock()
	if p.closed.Load() {
		return errClosed
	}
	select {
	case p.jobs <- job:
		return nil
	default:
		return errBusy
	}
}

// goSide runs a short task outside the queue when a side slot is free; it
// reports false when there is none (or the pool is closed).
func (p *pool) goSide(base context.Context, timeout time.Duration, work func(ctx context.Context)) bool {
	// Held exclusively: side.Go must not race with shutdown's side.Wait.
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed.Load() {
		return false
	}
	select {
	case p.sideSlots <- struct{}{}:
	default:
		return false
	}
	p.side.Go(func() {
		defer func() { <-p.sideSlots }()
		ctx, cancel := context.WithTimeout(base, timeout)
		defer cancel()
		p.run(ctx, work)
	})
	return true
}

// run keeps a panicking job from taking the process down.
func (p *pool) run(ctx context.Context, work func(ctx context.Context)) {
	defer func() {
		if r := recover(); r != nil {
			p.log.Error("job panicked", "platform", "slack", "stage", "worker", "panic", fmt.Sprint(r))
		}
	}()
	work(ctx)
}

// track registers a running job's cancel func; false once shutdown has
// given up waiting.
func (p *pool) track(cancel context.CancelFunc) (uint64, bool) {
	p.runMu.Lock()
	defer p.runMu.Unlock()
	if p.aborted {
		return 0, false
	}
	p.nextID++
	p.inflight[p.nextID] = cancel
	return p.nextID, true
}

func (p *pool) untrack(id uint64) {
	p.runMu.Lock()
	defer p.runMu.Unlock()
	delete(p.inflight, id)
}

// closing reports whether shutdown has begun.
func (p *pool) closing() bool {
	return p.closed.Load()
}

// shutdown stops taking work and waits for queued and running jobs until
// ctx ends; then it cancels what is still running and returns ctx's error.
func (p *pool) shutdown(ctx context.Context) error {
	p.mu.Lock()
	if !p.closed.Load() {
		p.closed.Store(true)
		close(p.jobs)
	}
	p.mu.Unlock()

	done := make(chan struct{})
	go func() {
		p.workers.Wait()
		p.side.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		p.runMu.Lock()
		p.aborted = true
		for _, cancel := range p.inflight {
			cancel()
		}
		p.runMu.Unlock()
		return fmt.Errorf("adapters/slack: shutdown: %w", ctx.Err())
	}
}
