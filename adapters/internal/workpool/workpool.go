// Package workpool is the bounded worker pool chat adapters answer on: a
// fixed number of workers take jobs from a bounded queue, so a burst of
// events costs queue slots, not goroutines, and acknowledging an event
// never waits for its answer.
package workpool

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
	// ErrBusy: every worker is busy and the queue is full.
	ErrBusy = errors.New("workpool: queue full")
	// ErrClosed: the pool is shutting down and takes no new work.
	ErrClosed = errors.New("workpool: shutting down")
)

// Pool runs jobs on a fixed number of workers. Each job runs under its own
// timeout, which starts when a worker takes it. It is safe for concurrent
// use.
type Pool struct {
	log      *slog.Logger
	platform string
	timeout  time.Duration

	// mu orders sends on jobs before its close: Submit holds it shared,
	// Shutdown exclusively, so acknowledgements never wait on each other.
	mu     sync.RWMutex
	closed atomic.Bool
	jobs   chan func()

	// runMu guards the cancel funcs of running jobs.
	runMu    sync.Mutex
	aborted  bool // Shutdown's deadline passed: queued jobs are dropped
	inflight map[uint64]context.CancelFunc
	nextID   uint64

	workers sync.WaitGroup
	// side tracks short goroutines started outside the queue (busy notices),
	// so Shutdown waits for them too.
	side sync.WaitGroup
	// sideSlots bounds those goroutines.
	sideSlots chan struct{}
}

// New starts workers workers over a queue of queue jobs; each job gets
// timeout. platform names the adapter in log lines.
func New(workers, queue int, timeout time.Duration, platform string, log *slog.Logger) *Pool {
	p := &Pool{
		log:       log,
		platform:  platform,
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

// Submit queues work without blocking; it returns ErrBusy when the queue is
// full and ErrClosed once Shutdown has begun. base carries the values of
// the request that brought the work, detached from its cancellation; work
// gets base with the job timeout.
func (p *Pool) Submit(base context.Context, work func(ctx context.Context)) error {
	job := func() {
		ctx, cancel := context.WithTimeout(base, p.timeout)
		id, ok := p.track(cancel)
		if !ok {
			cancel()
			p.log.Warn("job dropped at shutdown", "platform", p.platform, "stage", "worker")
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
		return ErrClosed
	}
	select {
	case p.jobs <- job:
		return nil
	default:
		return ErrBusy
	}
}

// GoSide runs a short task outside the queue when a side slot is free; it
// reports false when there is none (or the pool is closed).
func (p *Pool) GoSide(base context.Context, timeout time.Duration, work func(ctx context.Context)) bool {
	// Held exclusively: side.Go must not race with Shutdown's side.Wait.
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
func (p *Pool) run(ctx context.Context, work func(ctx context.Context)) {
	defer func() {
		if r := recover(); r != nil {
			p.log.Error("job panicked", "platform", p.platform, "stage", "worker", "panic", fmt.Sprint(r))
		}
	}()
	work(ctx)
}

// track registers a running job's cancel func; false once Shutdown has
// given up waiting.
func (p *Pool) track(cancel context.CancelFunc) (uint64, bool) {
	p.runMu.Lock()
	defer p.runMu.Unlock()
	if p.aborted {
		return 0, false
	}
	p.nextID++
	p.inflight[p.nextID] = cancel
	return p.nextID, true
}

func (p *Pool) untrack(id uint64) {
	p.runMu.Lock()
	defer p.runMu.Unlock()
	delete(p.inflight, id)
}

// Closing reports whether Shutdown has begun.
func (p *Pool) Closing() bool {
	return p.closed.Load()
}

// Shutdown stops taking work and waits for queued and running jobs until
// ctx ends; then it cancels what is still running and returns ctx's error.
func (p *Pool) Shutdown(ctx context.Context) error {
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
		return fmt.Errorf("workpool: shutdown: %w", ctx.Err())
	}
}
