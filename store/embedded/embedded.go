// Package embedded is cew's default index: an on-disk, in-process store of
// documents and chunks with BM25 keyword search and exact dense-vector
// search, for one machine and for development.
//
// Documents and chunks persist in a bbolt file (dir/index.db), one bucket
// per tenant; every write is one transaction. At Open the chunks are loaded
// into a per-tenant in-memory inverted index (BM25, k1=0.9, b=0.4, over
// title + section + sheet + text, terms from store/analysis) and a flat
// array of normalised float32 vectors. Each chunk record keeps its
// analysed terms as ids of a per-tenant term dictionary, so Open rebuilds
// the postings without analysing the text again; records made by another
// analysis.Version, or whose terms a spot check finds stale, are analysed
// afresh.
//
// Scores are on one scale, 0..1, higher is better:
//   - keyword: the BM25 score divided by the query's maximum attainable
//     score, the sum over distinct query terms of idf·(k1+1), clipped
//     to [0,1];
//   - dense: max(0, cosine similarity);
//   - hybrid with a query vector: reciprocal rank fusion, the sum of
//     1/(RRFK+rank) over the keyword and the dense list (each cut at
//     max(K, store.DefaultK)), divided by its maximum 2/(RRFK+1);
//   - hybrid without a query vector: the keyword score.
//
// Ties are broken by chunk id, so results are deterministic. BM25
// statistics (document count, document frequencies, average length) cover
// every stored chunk of the tenant, superseded revisions included, as a
// Lucene index holding them would.
//
// Re-putting a revision removes its old chunks from the posting lists at
// once (so they can never score and document frequencies stay exact) and
// leaves holes in the per-slot arrays, which are compacted once there are
// more than 1024 of them and they outnumber half the live chunks.
package embedded

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/cewhq/cew/store"
	"github.com/cewhq/cew/store/analysis"
)

var (
	_ store.Store       = (*Store)(nil)
	_ store.ChunkReader = (*Store)(nil)
)

// Errors of this backend, beside the store sentinels; check with errors.Is.
// Their text reads as the end of the wrapping message ("store/embedded:
// index /data/index.db is in use by another cew process").
var (
	// ErrLocked is returned by Open when another process holds the index.
	ErrLocked = errors.New("in use by another cew process")
	// ErrCorrupt is returned by Open when the index file cannot be read.
	ErrCorrupt = errors.New("index file is corrupt")
	// ErrClosed is returned by calls on a closed store.
	ErrClosed = errors.New("store is closed")
)

// FileName is the name of the index file inside the directory given to Open.
const FileName = "index.db"

// DefaultLockTimeout is how long Open waits for another process to release
// the index before giving up with ErrLocked.
const DefaultLockTimeout = time.Second

// Options configure Open.
type Options struct {
	// Logger receives load statistics; nil discards them.
	Logger *slog.Logger
	// LockTimeout bounds the wait for the file lock; 0 means
	// DefaultLockTimeout.
	LockTimeout time.Duration
}

// Store is the embedded backend. It is safe for concurrent use: searches
// run in parallel with each other, and see a write either entirely or not
// at all.
type Store struct {
	db  *bolt.DB // nil for an in-memory store (benchmarks) and a snapshot
	log *slog.Logger
	// readOnly marks a snapshot (OpenSnapshot): writes fail with ErrReadOnly.
	readOnly bool

	// writeMu serialises writers, which read the in-memory state without mu
	// (only writers change it) while their bbolt transaction runs, and take
	// mu only to publish the result.
	writeMu sync.Mutex
	mu      sync.RWMutex
	tenants map[string]*tenantIndex
	closed  bool

	// vocabMu guards vocab, which readers fill under mu's read lock.
	vocabMu sync.Mutex
	vocab   map[string]vocabularyCache
}

// Open opens or creates the index in dir for writing and loads it into
// memory. It holds the file (an exclusive lock) until Close: readers that
// need not write use OpenSnapshot or a Follower instead.
func Open(dir string, opts Options) (*Store, error) {
	if dir == "" {
		return nil, fmt.Errorf("store/embedded: open: %w: empty directory", store.ErrInvalid)
	}
	if opts.LockTimeout <= 0 {
		opts.LockTimeout = DefaultLockTimeout
	}
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return nil, fmt.Errorf("store/embedded: open: %w", err)
	}
	path := filepath.Join(dir, FileName)
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: opts.LockTimeout})
	if err != nil {
		return nil, openError(path, err)
	}
	s := newStore(db, opts.Logger)
	start := time.Now()
	if err := s.load(); err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("store/embedded: open %s: %w", path, err)
	}
	s.log.Info("index loaded", "path", path, "tenants", len(s.tenants), "chunks", s.liveChunks(),
		"duration_ms", float64(time.Since(start).Microseconds())/1000)
	return s, nil
}

// liveChunks counts the stored chunks of every tenant.
func (s *Store) liveChunks() int {
	n := 0
	for _, ix := range s.tenants {
		n += ix.live
	}
	return n
}

func newStore(db *bolt.DB, log *slog.Logger) *Store {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Store{db: db, log: log, tenants: make(map[string]*tenantIndex)}
}

// Close releases the index file. Calls after Close return ErrClosed.
func (s *Store) Close() error {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	s.tenants = nil
	if s.db == nil {
		return nil
	}
	if err := s.db.Close(); err != nil {
		return fmt.Errorf("store/embedded: close: %w", err)
	}
	return nil
}

// Search implements store.Searcher.
func (s *Store) Search(ctx context.Context, req store.SearchRequest) ([]store.Hit, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("store/embedded: search: %w", err)
	}
	if req.Tenant == "" {
		return nil, fmt.Errorf("store/embedded: search: %w", store.ErrNoTenant)
	}
	k, mode, query, err := store.CheckSearch(req)
	if err != nil {
		return nil, fmt.Errorf("store/embedded: search %s: %w", req.Tenant, err)
	}
	// Analyse before taking the lock; it is the costliest per-query step
	// that needs no shared state.
	terms := distinctTerms(analysis.Terms(req.Query))

	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return nil, fmt.Errorf("store/embedded: search %s: %w", req.Tenant, ErrClosed)
	}
	ix, ok := s.tenants[req.Tenant]
	if !ok {
		return nil, nil
	}
	if query != nil && ix.dim > 0 && len(query) != ix.dim {
		return nil, fmt.Errorf("store/embedded: search %s: %w: query vector has %d dimensions, the index has %d",
			req.Tenant, store.ErrInvalid, len(query), ix.dim)
	}
	allowed := ix.allowedRevisions(req)
	var hits []store.Hit
	switch {
	case mode == store.ModeKeyword || (mode == store.ModeHybrid && query == nil):
		for i, h := range ix.keyword(terms, allowed, k) {
			hits = append(hits, store.Hit{Chunk: ix.chunks[h.slot], Score: h.score, KeywordRank: i + 1})
		}
	case mode == store.ModeDense:
		for i, h := range ix.dense(query, allowed, k) {
			hits = append(hits, store.Hit{Chunk: ix.chunks[h.slot], Score: h.score, DenseRank: i + 1})
		}
	default:
		depth := max(k, store.DefaultK)
		hits = fuse(ix.keyword(terms, allowed, depth), ix.dense(query, allowed, depth), ix.chunks)
		if len(hits) > k {
			hits = hits[:k]
		}
	}
	return hits, nil
}

// Documents implements store.Catalog.
func (s *Store) Documents(ctx context.Context, tenant string) ([]store.Document, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("store/embedded: documents: %w", err)
	}
	if tenant == "" {
		return nil, fmt.Errorf("store/embedded: documents: %w", store.ErrNoTenant)
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return nil, fmt.Errorf("store/embedded: documents %s: %w", tenant, ErrClosed)
	}
	ix, ok := s.tenants[tenant]
	if !ok {
		return []store.Document{}, nil
	}
	docs := make([]store.Document, 0, len(ix.revs))
	for _, rv := range ix.revs {
		docs = append(docs, rv.doc)
	}
	slices.SortFunc(docs, store.CompareDocuments)
	return docs, nil
}

// Chunks implements store.ChunkReader: it reads the slots of the
// revisions the ids name, not every chunk of the tenant.
func (s *Store) Chunks(ctx context.Context, tenant string, ids []string) ([]store.Chunk, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("store/embedded: chunks: %w", err)
	}
	if tenant == "" {
		return nil, fmt.Errorf("store/embedded: chunks: %w", store.ErrNoTenant)
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return nil, fmt.Errorf("store/embedded: chunks %s: %w", tenant, ErrClosed)
	}
	ix, ok := s.tenants[tenant]
	if !ok || len(ids) == 0 {
		return []store.Chunk{}, nil
	}
	found := make(map[string]store.Chunk, len(ids))
	for _, rv := range ix.revs {
		prefix := rv.doc.ID + "/" + rv.doc.Revision + "/"
		if !slices.ContainsFunc(ids, func(id string) bool { return strings.HasPrefix(id, prefix) }) {
			continue
		}
		for _, slot := range rv.slots {
			c := ix.chunks[slot]
			if slices.Contains(ids, c.ID) {
				found[c.ID] = c
			}
		}
	}
	return store.InOrder(ids, found), nil
}

// Generation implements store.Catalog. A tenant with nothing indexed is at
// generation 0.
func (s *Store) Generation(ctx context.Context, tenant string) (uint64, error) {
	if err := ctx.Err(); err != nil {
		return 0, fmt.Errorf("store/embedded: generation: %w", err)
	}
	if tenant == "" {
		return 0, fmt.Errorf("store/embedded: generation: %w", store.ErrNoTenant)
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return 0, fmt.Errorf("store/embedded: generation %s: %w", tenant, ErrClosed)
	}
	if ix, ok := s.tenants[tenant]; ok {
		return ix.generation, nil
	}
	return 0, nil
}
