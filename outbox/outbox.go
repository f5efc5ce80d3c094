// Package outbox delivers chat replies durably: a reply is stored before it
// is sent, sent in order with the other replies of its conversation,
// retried with exponential backoff (or as long as the platform's
// Retry-After says) through an outage of minutes, and given up only at its
// deadline, when the adapter says it could not be delivered. The queue is
// Redis when configured (shared by every replica), the data directory
// otherwise.
package outbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Message is one reply waiting to be delivered.
type Message struct {
	// ID names the reply; a second Push of the same ID is a no-op in the
	// queues that can tell (the disk queue, Redis).
	ID string `json:"id"`
	// Key orders replies: those with the same key (a Slack thread, a Teams
	// conversation) are delivered one after another in the order pushed.
	Key string `json:"key"`
	// Payload is what the Sender reads. A Sender may rewrite it between
	// attempts (e.g. "the placeholder is gone, post instead").
	Payload  json.RawMessage `json:"payload"`
	Created  time.Time       `json:"created"`
	Deadline time.Time       `json:"deadline"`
	Attempts int             `json:"attempts,omitempty"`
	// LastError is the last failure, for logs; never a secret (Senders
	// return errors that name methods and statuses only).
	LastError string `json:"last_error,omitempty"`
	// NotBefore is when a retried message is due; queues that keep the
	// schedule elsewhere may leave it zero.
	NotBefore time.Time `json:"not_before,omitzero"`

	// origin is the queue of a Fallback the message came from.
	origin int
}

// Queue stores messages by key, each key's messages in order. It is the
// one interface the disk and Redis queues implement; outboxtest.Run is its
// conformance suite.
type Queue interface {
	// Push appends m to its key's queue; the key is due at once unless it
	// is already scheduled or leased.
	Push(ctx context.Context, m Message) error
	// Claim returns the first message of up to max keys that are due at
	// now and leases each key until now+lease: no other Claim returns a
	// message of that key until the lease ends or the message is settled.
	Claim(ctx context.Context, now time.Time, lease time.Duration, max int) ([]Message, error)
	// Settle finishes a claimed message. A zero retryAt removes it (it was
	// delivered or given up), making the key's next message due; otherwise
	// m is stored back in place (attempts, payload, last error) and its key
	// is due again at retryAt. Settling a message that is no longer the
	// head of its key (another replica settled it, or the queue lost it) is
	// not an error and changes nothing.
	Settle(ctx context.Context, m Message, retryAt time.Time) error
}

// Counter is implemented by queues that can count what they hold.
type Counter interface {
	Len(ctx context.Context) (int, error)
}

// ErrFull is returned by Push when a queue holds as many messages as it
// may.
var ErrFull = errors.New("outbox: queue full")

// permanent marks a failure that retrying cannot fix.
type permanent struct{ err error }

func (p permanent) Error() string { return p.err.Error() }
func (p permanent) Unwrap() error { return p.err }

// Permanent marks err as a failure no retry can fix (the platform refused
// the message: a channel that no longer exists, a bad request). The message
// is given up at once and counted as "rejected".
func Permanent(err error) error {
	if err == nil {
		return nil
	}
	return permanent{err}
}

// retryAfter marks a failure with the wait the platform asked for.
type retryAfter struct {
	err  error
	wait time.Duration
}

func (r retryAfter) Error() string { return r.err.Error() }
func (r retryAfter) Unwrap() error { return r.err }

// RetryAfter marks err as a rate limit: the message is tried again after
// wait, and the outbox pauses for that long.
func RetryAfter(err error, wait time.Duration) error {
	if err == nil {
		return nil
	}
	return retryAfter{err: err, wait: wait}
}

// IsPermanent reports whether err was marked Permanent.
func IsPermanent(err error) bool {
	var p permanent
	return errors.As(err, &p)
}

// waitOf returns the wait a RetryAfter asked for.
func waitOf(err error) (time.Duration, bool) {
	var r retryAfter
	if errors.As(err, &r) {
		return r.wait, true
	}
	return 0, false
}

// Encode is how queues store a message.
func Encode(m Message) ([]byte, error) {
	data, err := json.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("outbox: encode %s: %w", m.ID, err)
	}
	return data, nil
}

// Decode reads a message stored with Encode.
func Decode(data []byte) (Message, error) {
	var m Message
	if err := json.Unmarshal(data, &m); err != nil {
		return Message{}, fmt.Errorf("outbox: stored message: %w", err)
	}
	return m, nil
}
