package workpool

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"
)

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func TestSubmitRunsEveryJob(t *testing.T) {
	p := New(3, 100, time.Minute, "test", quiet())
	var n atomic.Int64
	for range 50 {
		if err := p.Submit(context.Background(), func(ctx context.Context) {
			if _, ok := ctx.Deadline(); !ok {
				t.Error("job without a timeout")
			}
			n.Add(1)
		}); err != nil {
			t.Fatal(err)
		}
	}
	if err := p.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n.Load() != 50 {
		t.Errorf("ran %d of 50 jobs", n.Load())
	}
	if err := p.Submit(context.Background(), func(context.Context) {}); !errors.Is(err, ErrClosed) {
		t.Errorf("Submit after Shutdown = %v, want ErrClosed", err)
	}
	if p.GoSide(context.Background(), time.Second, func(context.Context) {}) {
		t.Error("GoSide after Shutdown ran")
	}
	if !p.Closing() {
		t.Error("Closing = false after Shutdown")
	}
}

func TestBusyWhenQueueFull(t *testing.T) {
	p := New(1, 1, time.Minute, "test", quiet())
	release := make(chan struct{})
	started := make(chan struct{})
	block := func(context.Context) { close(started); <-release }
	if err := p.Submit(context.Background(), block); err != nil {
		t.Fatal(err)
	}
	<-started
	if err := p.Submit(context.Background(), func(context.Context) {}); err != nil {
		t.Fatalf("queue slot: %v", err)
	}
	if err := p.Submit(context.Background(), func(context.Context) {}); !errors.Is(err, ErrBusy) {
		t.Errorf("Submit on a full queue = %v, want ErrBusy", err)
	}
	close(release)
	if err := p.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func TestPanicDoesNotKillTheWorker(t *testing.T) {
	p := New(1, 10, time.Minute, "test", quiet())
	ran := make(chan struct{})
	_ = p.Submit(context.Background(), func(context.Context) { panic("boom") })
	_ = p.Submit(context.Background(), func(context.Context) { close(ran) })
	<-ran
	if err := p.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func TestShutdownDeadlineCancelsRunningJobs(t *testing.T) {
	p := New(1, 10, time.Hour, "test", quiet())
	started := make(chan struct{})
	cancelled := make(chan struct{})
	_ = p.Submit(context.Background(), func(ctx context.Context) {
		close(started)
		<-ctx.Done()
		close(cancelled)
	})
	queuedRan := atomic.Bool{}
	_ = p.Submit(context.Background(), func(context.Context) { queuedRan.Store(true) })
	<-started
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := p.Shutdown(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Shutdown = %v, want context.Canceled", err)
	}
	<-cancelled
	if err := p.Shutdown(context.Background()); err != nil {
		t.Errorf("second Shutdown: %v", err)
	}
	if queuedRan.Load() {
		t.Error("queued job ran after shutdown gave up")
	}
}

func TestGoSideIsBounded(t *testing.T) {
	p := New(1, 1, time.Minute, "test", quiet())
	release := make(chan struct{})
	if !p.GoSide(context.Background(), time.Minute, func(context.Context) { <-release }) {
		t.Fatal("first side task refused")
	}
	if p.GoSide(context.Background(), time.Minute, func(context.Context) {}) {
		t.Error("side task beyond the slots ran")
	}
	close(release)
	if err := p.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
}
