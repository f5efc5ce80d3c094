// Package disk is the outbox queue in the data directory: one bbolt file
// (crash-safe transactions, synced to disk before Push returns) holding the
// replies of every platform, each in its own bucket, with the order and
// schedule of each conversation kept in memory and rebuilt at Open. It is
// one process's: a second cew on the same data directory waits for the
// file's lock, then fails.
package disk

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/cewhq/cew/outbox"
)

// DefaultMaxMessages bounds what one queue holds; Push then fails with
// outbox.ErrFull.
const DefaultMaxMessages = 100_000

// Options configures the file. Zero values are the defaults.
type Options struct {
	// MaxMessages bounds each queue.
	MaxMessages int
	// LockTimeout is how long Open waits for another process to let go of
	// the file (default 2 s).
	LockTimeout time.Duration
}

// DB is the outbox file. Its queues are safe for concurrent use.
type DB struct {
	db   *bolt.DB
	opts Options

	mu     sync.Mutex
	queues map[string]*Queue
}

// Open opens (creating) the outbox file at path.
func Open(path string, opts Options) (*DB, error) {
	if opts.MaxMessages <= 0 {
		opts.MaxMessages = DefaultMaxMessages
	}
	if opts.LockTimeout <= 0 {
		opts.LockTimeout = 2 * time.Second
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("outbox/disk: %w", err)
	}
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: opts.LockTimeout})
	if errors.Is(err, bolt.ErrTimeout) {
		return nil, fmt.Errorf("outbox/disk: %s is in use by another cew serve on this data directory", path)
	}
	if err != nil {
		return nil, fmt.Errorf("outbox/disk: open %s: %w", path, err)
	}
	return &DB{db: db, opts: opts, queues: map[string]*Queue{}}, nil
}

// Close closes the file.
func (d *DB) Close() error {
	if err := d.db.Close(); err != nil {
		return fmt.Errorf("outbox/disk: close: %w", err)
	}
	return nil
}

// Queue returns the queue named name (one per platform), loading what an
// earlier run left in it.
func (d *DB) Queue(name string) (*Queue, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if q, ok := d.queues[name]; ok {
		return q, nil
	}
	q := &Queue{db: d.db, bucket: []byte("outbox:" + name), max: d.opts.MaxMessages, keys: map[string]*keyState{}, ids: map[string]uint64{}}
	if err := q.load(); err != nil {
		return nil, err
	}
	d.queues[name] = q
	return q, nil
}

// Queue is one platform's replies.
type Queue struct {
	db     *bolt.DB
	bucket []byte
	max    int

	mu   sync.Mutex
	keys map[string]*keyState
	ids  map[string]uint64 // message id → its sequence number
	n    int
}

var _ outbox.Queue = (*Queue)(nil)
var _ outbox.Counter = (*Queue)(nil)

// keyState is one conversation: its messages in order and when its head
// may be claimed (zero: now). A lease is a due time in the future.
type keyState struct {
	seqs []uint64
	due  time.Time
}

func seqKey(seq uint64) []byte {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], seq)
	return b[:]
}

// load rebuilds the conversations from the file, in push order; every
// conversation is due at once (leases of a previous run are void) unless
// its head waits for a retry time.
func (q *Queue) load() error {
	return q.db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(q.bucket)
		if err != nil {
			return fmt.Errorf("outbox/disk: %s: %w", q.bucket, err)
		}
		return b.ForEach(func(k, v []byte) error {
			m, err := outbox.Decode(v)
			if err != nil {
				return fmt.Errorf("outbox/disk: %s: %w", q.bucket, err)
			}
			seq := binary.BigEndian.Uint64(k)
			q.append(m, seq)
			if ks := q.keys[m.Key]; len(ks.seqs) == 1 {
				ks.due = m.NotBefore // a retry keeps its time
			}
			return nil
		})
	})
}

func (q *Queue) append(m outbox.Message, seq uint64) {
	ks, ok := q.keys[m.Key]
	if !ok {
		ks = &keyState{}
		q.keys[m.Key] = ks
	}
	// Pushes that share a batch come back in any order: keep the
	// sequence order, but never in front of the head, which may be out
	// for delivery.
	i := len(ks.seqs)
	for i > 1 && ks.seqs[i-1] > seq {
		i--
	}
	ks.seqs = append(ks.seqs, 0)
	copy(ks.seqs[i+1:], ks.seqs[i:])
	ks.seqs[i] = seq
	q.ids[m.ID] = seq
	q.n++
}

// Push stores m, synced to disk, then queues it behind its conversation.
// A message whose id is already queued is not stored again.
func (q *Queue) Push(ctx context.Context, m outbox.Message) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("outbox/disk: push: %w", err)
	}
	data, err := outbox.Encode(m)
	if err != nil {
		return err
	}
	q.mu.Lock()
	if _, dup := q.ids[m.ID]; dup {
		q.mu.Unlock()
		return nil
	}
	if q.n >= q.max {
		q.mu.Unlock()
		return fmt.Errorf("outbox/disk: push: %w", outbox.ErrFull)
	}
	// Reserve the id so a concurrent push of the same one waits out this.
	q.ids[m.ID] = 0
	q.mu.Unlock()
	var seq uint64
	err = q.db.Batch(func(tx *bolt.Tx) error {
		b := tx.Bucket(q.bucket)
		var err error
		if seq, err = b.NextSequence(); err != nil {
			return err
		}
		return b.Put(seqKey(seq), data)
	})
	q.mu.Lock()
	defer q.mu.Unlock()
	if err != nil {
		delete(q.ids, m.ID)
		return fmt.Errorf("outbox/disk: push: %w", err)
	}
	q.append(m, seq)
	return nil
}

// Claim leases the heads of up to max due conversations, longest waiting
// first.
func (q *Queue) Claim(ctx context.Context, now time.Time, lease time.Duration, max int) ([]outbox.Message, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("outbox/disk: claim: %w", err)
	}
	q.mu.Lock()
	type due struct {
		key string
		at  time.Time
		seq uint64
	}
	var ready []due
	for k, ks := range q.keys {
		if len(ks.seqs) > 0 && !ks.due.After(now) {
			ready = append(ready, due{key: k, at: ks.due, seq: ks.seqs[0]})
		}
	}
	sort.Slice(ready, func(i, j int) bool {
		if !ready[i].at.Equal(ready[j].at) {
			return ready[i].at.Before(ready[j].at)
		}
		return ready[i].seq < ready[j].seq
	})
	if len(ready) > max {
		ready = ready[:max]
	}
	for _, r := range ready {
		q.keys[r.key].due = now.Add(lease)
	}
	q.mu.Unlock()

	out := make([]outbox.Message, 0, len(ready))
	err := q.db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(q.bucket)
		for _, r := range ready {
			v := b.Get(seqKey(r.seq))
			if v == nil {
				continue
			}
			m, err := outbox.Decode(v)
			if err != nil {
				return err
			}
			out = append(out, m)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("outbox/disk: claim: %w", err)
	}
	return out, nil
}

// Settle removes m or stores it back to be retried at retryAt.
func (q *Queue) Settle(ctx context.Context, m outbox.Message, retryAt time.Time) error {
	q.mu.Lock()
	ks, ok := q.keys[m.Key]
	seq, known := q.ids[m.ID]
	if !ok || !known || len(ks.seqs) == 0 || ks.seqs[0] != seq {
		q.mu.Unlock()
		return nil // no longer this conversation's head
	}
	q.mu.Unlock()
	var data []byte
	if !retryAt.IsZero() {
		m.NotBefore = retryAt
		var err error
		if data, err = outbox.Encode(m); err != nil {
			return err
		}
	}
	err := q.db.Batch(func(tx *bolt.Tx) error {
		b := tx.Bucket(q.bucket)
		if data == nil {
			return b.Delete(seqKey(seq))
		}
		return b.Put(seqKey(seq), data)
	})
	if err != nil {
		return fmt.Errorf("outbox/disk: settle: %w", err)
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(ks.seqs) == 0 || ks.seqs[0] != seq {
		return nil
	}
	if data != nil {
		ks.due = retryAt
		return nil
	}
	ks.seqs, ks.due = ks.seqs[1:], time.Time{}
	delete(q.ids, m.ID)
	q.n--
	if len(ks.seqs) == 0 {
		delete(q.keys, m.Key)
	}
	return nil
}

// Len is how many messages the queue holds.
func (q *Queue) Len(context.Context) (int, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.n, nil
}
