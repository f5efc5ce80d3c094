// Package outboxtest is the conformance suite of outbox.Queue: every
// queue (the data directory's, Redis's) runs the very same tests.
package outboxtest

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/cewhq/cew/outbox"
)

// Factory makes an empty queue for one test. Reopen, when not nil, opens
// the same storage again (a restarted process) after closing the first.
type Factory func(t *testing.T) (q outbox.Queue, reopen func() outbox.Queue)

// base is the suite's clock: queues take time from the caller.
var base = time.Date(2026, 8, 21, 9, 0, 0, 0, time.UTC)

const lease = time.Minute

func msg(key string, n int) outbox.Message {
	id := fmt.Sprintf("%s-%d", key, n)
	payload, _ := json.Marshal(map[string]any{"text": id})
	return outbox.Message{ID: id, Key: key, Payload: payload, Created: base, Deadline: base.Add(15 * time.Minute)}
}

func push(t *testing.T, q outbox.Queue, msgs ...outbox.Message) {
	t.Helper()
	for _, m := range msgs {
		if err := q.Push(context.Background(), m); err != nil {
			t.Fatalf("push %s: %v", m.ID, err)
		}
	}
}

func claim(t *testing.T, q outbox.Queue, now time.Time, max int) []string {
	t.Helper()
	msgs, err := q.Claim(context.Background(), now, lease, max)
	if err != nil {
		t.Fatalf("claim: %v", err)
	}
	ids := make([]string, len(msgs))
	for i, m := range msgs {
		ids[i] = m.ID
	}
	sort.Strings(ids)
	return ids
}

func claimOne(t *testing.T, q outbox.Queue, now time.Time) (outbox.Message, bool) {
	t.Helper()
	msgs, err := q.Claim(context.Background(), now, lease, 1)
	if err != nil {
		t.Fatalf("claim: %v", err)
	}
	if len(msgs) == 0 {
		return outbox.Message{}, false
	}
	return msgs[0], true
}

func settle(t *testing.T, q outbox.Queue, m outbox.Message, retryAt time.Time) {
	t.Helper()
	if err := q.Settle(context.Background(), m, retryAt); err != nil {
		t.Fatalf("settle %s: %v", m.ID, err)
	}
}

func same(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Run runs the suite.
func Run(t *testing.T, newQueue Factory) {
	t.Run("one head per conversation, in push order", func(t *testing.T) {
		q, _ := newQueue(t)
		push(t, q, msg("A", 1), msg("A", 2), msg("B", 1), msg("A", 3))
		if got := claim(t, q, base, 10); !same(got, []string{"A-1", "B-1"}) {
			t.Fatalf("first claim = %v, want the heads A-1 and B-1", got)
		}
		if got := claim(t, q, base, 10); len(got) != 0 {
			t.Fatalf("leased conversations claimed again: %v", got)
		}
		for _, want := range []string{"A-1", "A-2", "A-3"} {
			m, ok := claimOne(t, q, base.Add(2*lease))
			for ok && m.Key != "A" { // B's lease ran out too
				settle(t, q, m, time.Time{})
				m, ok = claimOne(t, q, base.Add(2*lease))
			}
			if !ok || m.ID != want {
				t.Fatalf("claimed %q (%v), want %s", m.ID, ok, want)
			}
			settle(t, q, m, time.Time{})
		}
		if got := claim(t, q, base.Add(3*lease), 10); len(got) > 1 || (len(got) == 1 && got[0] != "B-1") {
			t.Errorf("left over: %v, want at most B-1", got)
		}
	})

	t.Run("a lease hides the conversation until it ends", func(t *testing.T) {
		q, _ := newQueue(t)
		push(t, q, msg("A", 1))
		claim(t, q, base, 1)
		if got := claim(t, q, base.Add(lease-time.Second), 1); len(got) != 0 {
			t.Fatalf("claimed during the lease: %v", got)
		}
		if got := claim(t, q, base.Add(lease+time.Second), 1); !same(got, []string{"A-1"}) {
			t.Fatalf("after the lease: %v, want A-1 again", got)
		}
	})

	t.Run("a retry keeps its place, its attempts and its new payload", func(t *testing.T) {
		q, _ := newQueue(t)
		push(t, q, msg("A", 1), msg("A", 2))
		m, _ := claimOne(t, q, base)
		m.Attempts, m.LastError, m.Payload = 1, "chat.update answered 500", json.RawMessage(`{"text":"A-1","placeholder_gone":true}`)
		settle(t, q, m, base.Add(10*time.Second))
		if got := claim(t, q, base.Add(5*time.Second), 10); len(got) != 0 {
			t.Fatalf("claimed before its retry time: %v", got)
		}
		again, ok := claimOne(t, q, base.Add(11*time.Second))
		if !ok || again.ID != "A-1" || again.Attempts != 1 || again.LastError == "" || string(again.Payload) != `{"text":"A-1","placeholder_gone":true}` {
			t.Fatalf("retried message = %+v", again)
		}
		if !again.Deadline.Equal(m.Deadline) || !again.Created.Equal(m.Created) {
			t.Errorf("times changed: %v %v", again.Created, again.Deadline)
		}
	})

	t.Run("claim takes at most max", func(t *testing.T) {
		q, _ := newQueue(t)
		for _, k := range []string{"A", "B", "C", "D", "E"} {
			push(t, q, msg(k, 1))
		}
		if got := claim(t, q, base, 2); len(got) != 2 {
			t.Fatalf("claimed %v, want 2", got)
		}
		if got := claim(t, q, base, 10); len(got) != 3 {
			t.Fatalf("claimed %v, want the other 3", got)
		}
	})

	t.Run("the same id is queued once", func(t *testing.T) {
		q, _ := newQueue(t)
		push(t, q, msg("A", 1), msg("A", 1), msg("A", 2))
		for _, want := range []string{"A-1", "A-2"} {
			m, ok := claimOne(t, q, base)
			if !ok || m.ID != want {
				t.Fatalf("claimed %q, want %s", m.ID, want)
			}
			settle(t, q, m, time.Time{})
		}
		if _, ok := claimOne(t, q, base); ok {
			t.Errorf("a duplicate was queued")
		}
	})

	t.Run("settling what is not the head changes nothing", func(t *testing.T) {
		q, _ := newQueue(t)
		push(t, q, msg("A", 1), msg("A", 2))
		settle(t, q, msg("A", 2), time.Time{})         // not the head
		settle(t, q, msg("Z", 1), time.Time{})         // unknown conversation
		settle(t, q, msg("A", 9), base.Add(time.Hour)) // unknown id
		m, ok := claimOne(t, q, base)
		if !ok || m.ID != "A-1" {
			t.Fatalf("head = %q, want A-1", m.ID)
		}
		settle(t, q, m, time.Time{})
		settle(t, q, m, time.Time{}) // twice: A-2 stays
		if m, ok := claimOne(t, q, base); !ok || m.ID != "A-2" {
			t.Fatalf("head = %q, want A-2", m.ID)
		}
	})

	t.Run("len counts messages", func(t *testing.T) {
		q, _ := newQueue(t)
		c, ok := q.(outbox.Counter)
		if !ok {
			t.Skip("queue cannot count")
		}
		push(t, q, msg("A", 1), msg("A", 2), msg("B", 1))
		m, _ := claimOne(t, q, base)
		settle(t, q, m, time.Time{})
		if n, err := c.Len(context.Background()); err != nil || n != 2 {
			t.Errorf("len = %d %v, want 2", n, err)
		}
	})

	t.Run("concurrent claimers deliver each message once, in order", func(t *testing.T) {
		q, _ := newQueue(t)
		const keys, per = 12, 6
		for n := 1; n <= per; n++ {
			for k := range keys {
				push(t, q, msg(fmt.Sprintf("K%02d", k), n))
			}
		}
		var (
			mu   sync.Mutex
			seen = map[string][]string{}
			wg   sync.WaitGroup
			errs = make(chan error, 4)
		)
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for idle := 0; idle < 50; {
					msgs, err := q.Claim(context.Background(), base, lease, 3)
					if err != nil {
						errs <- err
						return
					}
					if len(msgs) == 0 {
						idle++
						time.Sleep(time.Millisecond)
						continue
					}
					idle = 0
					for _, m := range msgs {
						mu.Lock()
						seen[m.Key] = append(seen[m.Key], m.ID)
						mu.Unlock()
						if err := q.Settle(context.Background(), m, time.Time{}); err != nil {
							errs <- err
							return
						}
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		for k := range keys {
			key := fmt.Sprintf("K%02d", k)
			var want []string
			for n := 1; n <= per; n++ {
				want = append(want, fmt.Sprintf("%s-%d", key, n))
			}
			if !same(seen[key], want) {
				t.Errorf("%s delivered %v, want %v", key, seen[key], want)
			}
		}
	})

	t.Run("what is queued survives a restart", func(t *testing.T) {
		q, reopen := newQueue(t)
		if reopen == nil {
			t.Skip("queue cannot be reopened")
		}
		push(t, q, msg("A", 1), msg("A", 2), msg("B", 1))
		m, _ := claimOne(t, q, base)
		m.Attempts = 2
		settle(t, q, m, base.Add(time.Second))
		q = reopen()
		var got []string
		for {
			m, ok := claimOne(t, q, base.Add(2*lease))
			if !ok {
				break
			}
			got = append(got, m.ID)
			settle(t, q, m, time.Time{})
		}
		sort.Strings(got)
		if !same(got, []string{"A-1", "A-2", "B-1"}) {
			t.Errorf("after a restart: %v", got)
		}
	})
}
