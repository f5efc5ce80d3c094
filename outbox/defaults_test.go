package outbox

import (
	"context"
	"testing"
	"time"
)

type nopSender struct{}

func (nopSender) Send(context.Context, *Message) error { return nil }

func TestNewBackoffDefaults(t *testing.T) {
	tests := []struct {
		name               string
		initial, max, poll time.Duration
		want               [3]time.Duration // initial, max, poll
	}{
		{"all defaults", 0, 0, 0, [3]time.Duration{time.Second, 10 * time.Second, DefaultPoll}},
		{"max and poll follow a short initial", 100 * time.Millisecond, 0, 0, [3]time.Duration{100 * time.Millisecond, time.Second, 100 * time.Millisecond}},
		{"poll stays at its default past it", 2 * time.Second, 0, 0, [3]time.Duration{2 * time.Second, 20 * time.Second, DefaultPoll}},
		{"given values are kept", 5 * time.Millisecond, 20 * time.Millisecond, 7 * time.Millisecond, [3]time.Duration{5 * time.Millisecond, 20 * time.Millisecond, 7 * time.Millisecond}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, err := New(Config{Queue: Fallback(nil, nil), Sender: nopSender{}, Platform: "slack", Initial: tt.initial, Max: tt.max, Poll: tt.poll})
			if err != nil {
				t.Fatal(err)
			}
			if got := [3]time.Duration{o.cfg.Initial, o.cfg.Max, o.cfg.Poll}; got != tt.want {
				t.Errorf("initial, max, poll = %v, want %v", got, tt.want)
			}
		})
	}
}
