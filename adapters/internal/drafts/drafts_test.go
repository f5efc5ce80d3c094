package drafts

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestThrottler(t *testing.T) {
	var (
		mu      sync.Mutex
		updates []string
	)
	got := make(chan string, 10)
	update := func(_ context.Context, text string) error {
		mu.Lock()
		updates = append(updates, text)
		mu.Unlock()
		got <- text
		return nil
	}
	d := Start(context.Background(), time.Hour, update, slog.New(slog.NewTextHandler(io.Discard, nil)))
	d.Add("The depth ")
	if first := <-got; first != "The depth " {
		t.Errorf("first update %q", first)
	}
	// Within the interval nothing more is sent; what arrives accumulates.
	d.Add("is 800 mm")
	d.Add(" [S1].")
	d.Stop()
	mu.Lock()
	defer mu.Unlock()
	if len(updates) != 1 {
		t.Errorf("updates within one interval: %q", updates)
	}
	d.Add("late") // after Stop: nothing is sent, nothing blocks
	if len(got) != 0 {
		t.Errorf("update after Stop")
	}
}

func TestThrottlerSendsAccumulatedText(t *testing.T) {
	got := make(chan string, 10)
	d := Start(context.Background(), time.Nanosecond, func(_ context.Context, text string) error {
		got <- text
		return nil
	}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	defer d.Stop()
	d.Add("   ") // blank drafts are not shown
	d.Add("a")
	var prev string
	for text := range got {
		if strings.TrimSpace(text) == "" {
			t.Fatalf("blank draft sent")
		}
		if text == prev {
			t.Fatalf("draft %q sent twice", text)
		}
		prev = text
		if text == "   a" {
			d.Add("b")
		}
		if text == "   ab" {
			return
		}
	}
}
