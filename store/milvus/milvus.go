// Package milvus is cew's production index: documents, chunks and vectors
// in a Milvus server, so that any number of stateless cew replicas answer
// from one truth. It implements store.Store and passes store/storetest
// against a real server.
//
// Two collections hold everything: the chunks collection (one row per
// chunk, the tenant as partition key, a BM25 sparse field filled by
// Milvus's own BM25 function, and a dense field when an embedder is
// configured) and the register collection beside it (one row per document
// revision plus one generation row per tenant). Both carry the layout
// version they were created with; Open refuses any other layout with a
// message saying what to run. Collections and indexes are created only by
// Migrate, never on the read path.
//
// Searching happens in Milvus: BM25 full-text search, dense search, or a
// hybrid search fused by Milvus's RRF ranker, always filtered to the tenant
// and to active revisions. Scores are on the scale every backend shares,
// 0..1, higher is better (see Search).
package milvus

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/milvus-io/milvus/client/v2/entity"
	"github.com/milvus-io/milvus/client/v2/milvusclient"

	"github.com/cewhq/cew/store"
)

var (
	_ store.Store       = (*Store)(nil)
	_ store.ChunkReader = (*Store)(nil)
)

// Errors of this backend, beside the store sentinels; check with errors.Is.
var (
	// ErrUnreachable is returned by Open when no Milvus answers at the
	// address or it refuses the credentials.
	ErrUnreachable = errors.New("cannot connect to Milvus")
	// ErrNotMigrated is returned by Open when the collections do not exist.
	ErrNotMigrated = errors.New("collection does not exist")
	// ErrLayout is returned by Open and Migrate when a collection exists
	// with a layout this version of cew cannot use.
	ErrLayout = errors.New("collection has another layout")
	// ErrClosed is returned by calls on a closed store.
	ErrClosed = errors.New("store is closed")
)

// Defaults of Options.
const (
	DefaultCollection = "cew_chunks"
	DefaultTimeout    = 10 * time.Second
	// DefaultConnectTimeout bounds the first connection, so an unreachable
	// server fails start-up quickly.
	DefaultConnectTimeout = 10 * time.Second
)

// Options configure Open and Migrate.
type Options struct {
	// Address is host:port or a URL (http://, https:// for TLS).
	Address string
	// Token is an API key or "user:password"; Username and Password are
	// the alternative. Neither ever appears in errors or logs.
	Token    string
	Username string
	Password string
	// Database is the Milvus database; "" means "default".
	Database string
	// Collection names the chunks collection; the register is
	// Collection+"_register". "" means DefaultCollection.
	Collection string
	// Consistency of searches and reads: "strong" (default), "bounded",
	// "session" or "eventually". Writes read their own register rows
	// strongly whatever this says.
	Consistency string
	// Timeout bounds each call to Milvus; 0 means DefaultTimeout.
	Timeout time.Duration
	// ConnectTimeout bounds the first connection; 0 means
	// DefaultConnectTimeout.
	ConnectTimeout time.Duration
	// RRFK is the k of Milvus's RRF ranker; 0 means store.RRFK.
	RRFK int
	// Dim is the dense field's dimension Migrate creates (the configured
	// embedder's); 0 creates no dense field. Open reads the dimension from
	// the collection and refuses one that differs from a non-zero Dim.
	Dim int
	// NoPartitionKey makes the tenant an ordinary field instead of the
	// partition key, in collections Migrate creates; Open refuses a
	// collection made the other way. Every filter names the tenant either
	// way, so isolation does not depend on it; the partition key only lets
	// Milvus skip other tenants' rows. It is for engines that cannot filter
	// a collection with a partition key (Milvus Lite's embedded 2.5 engine).
	NoPartitionKey bool
	// DenseIndex is the dense field's index type, IndexHNSW ("" too) or
	// IndexFlat (exact; for engines without HNSW). Open refuses a
	// collection with another.
	DenseIndex string
	// NoPartialUpdate makes writes flip the active and staged flags by
	// upserting whole rows (text, terms and vectors again) instead of a
	// partial update, which Milvus has only from 2.6.2 on. It doubles the
	// data a write sends, and flipping another revision reads its rows
	// back first.
	NoPartialUpdate bool
	// Logger receives connection and migration events; nil discards them.
	Logger *slog.Logger
}

func (o *Options) defaults() {
	if o.Collection == "" {
		o.Collection = DefaultCollection
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.ConnectTimeout <= 0 {
		o.ConnectTimeout = DefaultConnectTimeout
	}
	if o.RRFK <= 0 {
		o.RRFK = store.RRFK
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
}

// ParseConsistency maps a setting to a Milvus consistency level.
func ParseConsistency(s string) (entity.ConsistencyLevel, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "strong":
		return entity.ClStrong, nil
	case "bounded":
		return entity.ClBounded, nil
	case "session":
		return entity.ClSession, nil
	case "eventually":
		return entity.ClEventually, nil
	}
	return 0, fmt.Errorf("%w: consistency %q is not strong, bounded, session or eventually", store.ErrInvalid, s)
}

// Store is the Milvus backend. It is safe for concurrent use; writes from
// one Store are serialised, and the chunks of a revision become visible to
// search only once all of them are written.
type Store struct {
	c           *milvusclient.Client
	opts        Options
	chunks      string
	register    string
	dim         int
	denseIndex  string
	consistency entity.ConsistencyLevel
	log         *slog.Logger

	writeMu sync.Mutex
	mu      sync.RWMutex
	closed  bool

	vocabMu sync.Mutex
	vocab   map[string]vocabulary // tenant → words at a generation
}

// connect dials Milvus and checks that it answers and accepts the
// credentials.
func connect(ctx context.Context, opts Options) (*milvusclient.Client, error) {
	if strings.TrimSpace(opts.Address) == "" {
		return nil, fmt.Errorf("store/milvus: %w: MILVUS_ADDRESS is empty", store.ErrInvalid)
	}
	cfg := &milvusclient.ClientConfig{
		Address:  opts.Address,
		Username: opts.Username,
		Password: opts.Password,
		APIKey:   opts.Token,
		DBName:   opts.Database,
		// Fail fast at start-up rather than retrying for minutes.
		RetryRateLimit: &milvusclient.RetryRateLimitOption{MaxRetry: 2, MaxBackoff: time.Second},
	}
	ctx, cancel := context.WithTimeout(ctx, opts.ConnectTimeout)
	defer cancel()
	c, err := milvusclient.New(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("store/milvus: %w at %s: %s", ErrUnreachable, opts.Address, redact(err, opts))
	}
	if _, err := c.ListCollections(ctx, milvusclient.NewListCollectionOption()); err != nil {
		_ = c.Close(context.WithoutCancel(ctx))
		return nil, fmt.Errorf("store/milvus: %w at %s: %s", ErrUnreachable, opts.Address, redact(err, opts))
	}
	return c, nil
}

// redact keeps secrets out of error text, in case a server echoes them.
func redact(err error, opts Options) string {
	msg := err.Error()
	for _, secret := range []string{opts.Token, opts.Password} {
		if secret != "" {
			msg = strings.ReplaceAll(msg, secret, "[redacted]")
		}
	}
	return msg
}

// Open connects to Milvus and checks that both collections exist with this
// version's layout, and loads them. It never creates anything: a missing
// collection is ErrNotMigrated, another layout ErrLayout, each with the
// command to run.
func Open(ctx context.Context, opts Options) (*Store, error) {
	opts.defaults()
	consistency, err := ParseConsistency(opts.Consistency)
	if err != nil {
		return nil, fmt.Errorf("store/milvus: open: %w", err)
	}
	denseIndex, err := ParseDenseIndex(opts.DenseIndex)
	if err != nil {
		return nil, fmt.Errorf("store/milvus: open: %w", err)
	}
	c, err := connect(ctx, opts)
	if err != nil {
		return nil, err
	}
	s := &Store{c: c, opts: opts, chunks: opts.Collection, register: opts.Collection + "_register",
		denseIndex: denseIndex, consistency: consistency, log: opts.Logger}
	if err := s.checkLayout(ctx); err != nil {
		_ = c.Close(context.WithoutCancel(ctx))
		return nil, err
	}
	if err := s.load(ctx); err != nil {
		_ = c.Close(context.WithoutCancel(ctx))
		return nil, err
	}
	s.log.Info("milvus connected", "address", opts.Address, "collection", s.chunks, "dense_dim", s.dim,
		"dense_index", s.denseIndex, "partition_key", !opts.NoPartitionKey, "consistency", strings.ToLower(opts.Consistency))
	return s, nil
}

// Close releases the connection. Calls after Close return ErrClosed.
func (s *Store) Close() error {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	ctx, cancel := context.WithTimeout(context.Background(), s.opts.Timeout)
	defer cancel()
	if err := s.c.Close(ctx); err != nil {
		return fmt.Errorf("store/milvus: close: %w", err)
	}
	return nil
}

// Ping reports whether Milvus answers and the chunks collection is loaded,
// for readiness checks.
func (s *Store) Ping(ctx context.Context) error {
	if err := s.use(); err != nil {
		return fmt.Errorf("store/milvus: ping: %w", err)
	}
	defer s.mu.RUnlock()
	ctx, cancel := s.callContext(ctx)
	defer cancel()
	state, err := s.c.GetLoadState(ctx, milvusclient.NewGetLoadStateOption(s.chunks))
	if err != nil {
		return fmt.Errorf("store/milvus: ping %s: %w", s.chunks, err)
	}
	if state.State != entity.LoadStateLoaded {
		return fmt.Errorf("store/milvus: ping %s: collection is not loaded (state %v)", s.chunks, state.State)
	}
	return nil
}

// Dim is the dense field's dimension, 0 when the collection has none.
func (s *Store) Dim() int { return s.dim }

// use takes the read lock unless the store is closed; the caller releases
// it.
func (s *Store) use() error {
	s.mu.RLock()
	if s.closed {
		s.mu.RUnlock()
		return ErrClosed
	}
	return nil
}

// callContext bounds one call to Milvus.
func (s *Store) callContext(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, s.opts.Timeout)
}

// callError wraps a failed call with the collection and operation, and
// keeps the caller's cancellation visible to errors.Is.
func callError(ctx context.Context, op, collection string, err error) error {
	if ctxErr := ctx.Err(); ctxErr != nil && !errors.Is(err, ctxErr) {
		return fmt.Errorf("store/milvus: %s %s: %w (%v)", op, collection, ctxErr, err)
	}
	return fmt.Errorf("store/milvus: %s %s: %w", op, collection, err)
}

// newGeneration returns a fresh random generation. Replicas writing at the
// same time need no coordination: any change gives a value never seen
// before (with probability 1 - 2^-63 per write).
func newGeneration() int64 {
	var b [8]byte
	_, _ = rand.Read(b[:])
	g := int64(binary.BigEndian.Uint64(b[:]) >> 1)
	if g == 0 {
		g = 1
	}
	return g
}
