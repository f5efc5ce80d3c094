package teams

import (
	"context"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cewhq/cew/outbox/disk"
)

// TestOutageLosesNoReply: with the Bot Connector answering 503 while
// replies are made, every reply is delivered once after it recovers, in
// order per conversation; typing indicators are not queued (and not sent
// while the connector is failing).
func TestOutageLosesNoReply(t *testing.T) {
	db, err := disk.Open(filepath.Join(t.TempDir(), "outbox.db"), disk.Options{})
	if err != nil {
		t.Fatal(err)
	}
	q, err := db.Queue("teams")
	if err != nil {
		t.Fatal(err)
	}
	env := newTestEnv(t, func(c *Config) { c.Outbox, c.DeliveryBackoff, c.DeliveryDeadline = q, 5*time.Millisecond, time.Hour })
	t.Cleanup(func() { db.Close() })
	env.connector.setDown(true)
	pending := func() int {
		n, err := q.Len(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	waitFor := func(what string, cond func() bool) {
		t.Helper()
		deadline := time.Now().Add(30 * time.Second)
		for !cond() {
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for %s", what)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	var order []string
	for i := range 4 {
		for _, kind := range []string{"personal", "channel"} {
			id := fmt.Sprintf("act-%s-%d", kind, i)
			act := env.activity(id, kind, "What is the minimum trench depth for DC cables?")
			if kind == "channel" {
				act.Text = "<at>cew</at> " + act.Text
				act.Entities = []Entity{mention("<at>cew</at>")}
			}
			if status, _ := env.post(t, act); status != http.StatusOK {
				t.Fatalf("ack %d", status)
			}
			order = append(order, id)
			want := len(order)
			waitFor("the reply queued", func() bool { return pending() == want })
		}
	}
	waitFor("failed attempts", func() bool {
		failed := 0
		for _, c := range env.connector.all() {
			if c.Status >= 500 && c.Activity.Type == "message" {
				failed++
			}
		}
		return failed >= 5
	})
	env.connector.setDown(false)
	waitFor("every reply delivered", func() bool { return pending() == 0 })
	env.drain(t)

	delivered := map[string][]string{} // conversation → activity ids replied to, in order
	count := map[string]int{}
	for _, c := range env.connector.replies() {
		if c.Status != http.StatusCreated {
			continue
		}
		for _, id := range order {
			if strings.HasSuffix(c.Path, "/"+id) {
				conv := c.Activity.Conversation.ID
				delivered[conv] = append(delivered[conv], id)
				count[id]++
			}
		}
	}
	for _, id := range order {
		if count[id] != 1 {
			t.Errorf("reply to %s delivered %d times, want once", id, count[id])
		}
	}
	for conv, ids := range delivered {
		kind := "personal"
		if strings.Contains(conv, "thread") {
			kind = "channel"
		}
		for i, id := range ids {
			if want := fmt.Sprintf("act-%s-%d", kind, i); id != want {
				t.Errorf("%s: reply %d went to %s, want %s", conv, i, id, want)
			}
		}
	}
	var typing int
	for _, c := range env.connector.all() {
		if c.Activity.Type == "typing" {
			typing++
		}
	}
	// One attempt at most per message (none once the connector is known
	// to be failing): typing indicators are never queued or retried.
	if typing < 1 || typing > len(order) {
		t.Errorf("%d typing indicators for %d messages", typing, len(order))
	}
}
