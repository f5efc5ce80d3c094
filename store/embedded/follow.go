package embedded

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/cewhq/cew/store"
)

// Readers and writers of one index file, across processes.
//
// bbolt locks the file with flock: a writer (Open) holds an exclusive lock
// for as long as it is open, readers a shared one. A snapshot (OpenSnapshot)
// takes the shared lock only while it loads the file into memory and then
// releases it, so any number of readers — `cew serve`, `cew ask`, `cew
// status` — run beside each other, and a writer (`cew ingest`) waits at
// most for a load to finish, never for a server to stop. A Follower keeps
// a snapshot current: it notices that the file changed (its size or
// modification time, then the tenants' generations inside it) and swaps in
// a new snapshot, so documents ingested while a server runs become
// answerable without a restart.

// ErrReadOnly is returned by writes to a snapshot.
var ErrReadOnly = errors.New("index snapshot is read-only")

// OpenSnapshot loads the index in dir into memory under a shared lock and
// releases the file: the store answers searches from what the file held
// when it was opened, and refuses writes with ErrReadOnly. A directory
// without an index is an empty snapshot; nothing is created. While a
// writer holds the file, OpenSnapshot waits up to opts.LockTimeout and
// then fails with ErrLocked.
func OpenSnapshot(dir string, opts Options) (*Store, error) {
	s, _, err := loadSnapshot(dir, opts, nil)
	return s, err
}

// loadSnapshot opens the file read-only. When known is not nil and every
// tenant's generation in the file equals known, it returns a nil store
// (nothing changed) without loading. gens are the file's generations.
func loadSnapshot(dir string, opts Options, known map[string]uint64) (s *Store, gens map[string]uint64, err error) {
	if dir == "" {
		return nil, nil, fmt.Errorf("store/embedded: open: %w: empty directory", store.ErrInvalid)
	}
	if opts.LockTimeout <= 0 {
		opts.LockTimeout = DefaultLockTimeout
	}
	path := filepath.Join(dir, FileName)
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: opts.LockTimeout, ReadOnly: true})
	switch {
	case errors.Is(err, fs.ErrNotExist):
		s = newStore(nil, opts.Logger)
		s.readOnly = true
		return s, map[string]uint64{}, nil
	case err != nil:
		return nil, nil, openError(path, err)
	}
	defer db.Close()
	gens, err = readGenerations(db)
	if err != nil {
		return nil, nil, fmt.Errorf("store/embedded: open %s: %w", path, err)
	}
	if known != nil && maps.Equal(gens, known) {
		return nil, gens, nil
	}
	s = newStore(db, opts.Logger)
	s.readOnly = true
	start := time.Now()
	if err := s.load(); err != nil {
		return nil, nil, fmt.Errorf("store/embedded: open %s: %w", path, err)
	}
	s.db = nil // the file is closed on return; the snapshot lives in memory
	s.log.Info("index snapshot loaded", "path", path, "tenants", len(s.tenants), "chunks", s.liveChunks(),
		"duration_ms", float64(time.Since(start).Microseconds())/1000)
	return s, gens, nil
}

// openError maps bbolt's open errors to this package's.
func openError(path string, err error) error {
	switch {
	case errors.Is(err, bolt.ErrTimeout):
		return fmt.Errorf("store/embedded: index %s is %w", path, ErrLocked)
	case errors.Is(err, bolt.ErrInvalid), errors.Is(err, bolt.ErrChecksum), errors.Is(err, bolt.ErrVersionMismatch):
		return fmt.Errorf("store/embedded: open %s: %w: %v", path, ErrCorrupt, err)
	}
	return fmt.Errorf("store/embedded: open %s: %w", path, err)
}

// readGenerations reads every tenant's generation without loading chunks.
// A damaged file gives an error, not a crash (see load).
func readGenerations(db *bolt.DB) (gens map[string]uint64, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: %v", ErrCorrupt, r)
		}
	}()
	gens = map[string]uint64{}
	err = db.View(func(tx *bolt.Tx) error {
		tenants := tx.Bucket(bucketTenants)
		if tenants == nil {
			return nil
		}
		return tenants.ForEachBucket(func(name []byte) error {
			g, err := tenantGeneration(tenants.Bucket(name))
			if err != nil {
				return fmt.Errorf("%w: tenant %q: %v", ErrCorrupt, name, err)
			}
			gens[string(name)] = g
			return nil
		})
	})
	return gens, err
}

// Follower is the index as a long-running reader holds it: a snapshot that
// follows the file. Reads go to the current snapshot; Refresh (or Run,
// which calls it on a ticker) loads a new one when a writer has changed the
// file, and swaps it in atomically — searches in flight finish on the
// snapshot they started with. Writes in this process (a sync job inside
// the server: PutDocument, or Write for a batch) go to the file and the
// snapshot together and are searchable at once.
//
// A snapshot costs the memory of the index; while a new one loads, two are
// held. Follower is safe for concurrent use and implements store.Store and
// store.Lexicon.
type Follower struct {
	dir  string
	opts Options
	log  *slog.Logger
	cur  atomic.Pointer[Store]

	// mu serialises Refresh and Write; the fields below are guarded by it.
	mu     sync.Mutex
	loaded bool
	stamp  fileStamp
	gens   map[string]uint64
	closed bool
	// lastErr is the last Refresh failure, cleared by a success.
	lastErr atomic.Pointer[error]
}

var (
	_ store.Store       = (*Follower)(nil)
	_ store.Lexicon     = (*Follower)(nil)
	_ store.ChunkReader = (*Follower)(nil)
)

// fileStamp is what a stat tells of the file: whether a writer may have
// touched it since.
type fileStamp struct {
	exists  bool
	size    int64
	modTime time.Time
}

func statIndex(path string) (fileStamp, error) {
	info, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fileStamp{}, nil
	case err != nil:
		return fileStamp{}, fmt.Errorf("store/embedded: stat %s: %w", path, err)
	}
	return fileStamp{exists: true, size: info.Size(), modTime: info.ModTime()}, nil
}

// OpenFollower loads the index in dir as OpenSnapshot does. When a writer
// holds the file it starts empty and not Loaded, and the next Refresh
// loads it: a server starts while `cew ingest` runs and reports itself not
// ready until then.
func OpenFollower(dir string, opts Options) (*Follower, error) {
	if dir == "" {
		return nil, fmt.Errorf("store/embedded: open: %w: empty directory", store.ErrInvalid)
	}
	f := &Follower{dir: dir, opts: opts, log: opts.Logger}
	if f.log == nil {
		f.log = slog.New(slog.DiscardHandler)
	}
	empty := newStore(nil, opts.Logger)
	empty.readOnly = true
	f.cur.Store(empty)
	if _, err := f.Refresh(context.Background()); err != nil && !errors.Is(err, ErrLocked) {
		return nil, err
	}
	return f, nil
}

// Refresh loads a new snapshot when the file changed since the current one
// was loaded, and reports whether it did. A file a writer holds fails with
// ErrLocked and leaves the current snapshot in place.
func (f *Follower) Refresh(ctx context.Context) (bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.refreshLocked(ctx)
}

func (f *Follower) refreshLocked(ctx context.Context) (changed bool, err error) {
	defer func() {
		if err != nil {
			f.lastErr.Store(&err)
		} else {
			f.lastErr.Store(nil)
		}
	}()
	if f.closed {
		return false, fmt.Errorf("store/embedded: refresh: %w", ErrClosed)
	}
	if err := ctx.Err(); err != nil {
		return false, fmt.Errorf("store/embedded: refresh: %w", err)
	}
	// The stamp is taken before the load: a write that lands during the
	// load changes the file again and is picked up by the next Refresh.
	stamp, err := statIndex(filepath.Join(f.dir, FileName))
	if err != nil {
		return false, err
	}
	if f.loaded && stamp == f.stamp {
		return false, nil
	}
	var known map[string]uint64
	if f.loaded {
		known = f.gens
	}
	snap, gens, err := loadSnapshot(f.dir, f.opts, known)
	if err != nil {
		return false, err
	}
	f.stamp, f.gens = stamp, gens
	if snap == nil {
		return false, nil // touched, but no tenant's generation moved
	}
	f.cur.Store(snap)
	f.loaded = true
	return true, nil
}

// Run calls Refresh every interval until ctx ends. A file held by a writer
// is tried again at the next tick; other failures are logged once until
// a Refresh succeeds.
func (f *Follower) Run(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	var failing bool
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		changed, err := f.Refresh(ctx)
		switch {
		case err == nil:
			if failing {
				f.log.Info("index readable again", "dir", f.dir)
			}
			failing = false
			if changed {
				f.log.Info("index changed: new documents are searchable", "dir", f.dir)
			}
		case errors.Is(err, ErrLocked):
			f.log.Debug("index held by a writer; trying again", "dir", f.dir)
		case ctx.Err() != nil:
			return
		case !failing:
			failing = true
			f.log.Warn("cannot reload the index; serving the last snapshot", "dir", f.dir, "err", err)
		}
	}
}

// Write runs fn with the index open for writing (an exclusive lock,
// waited for up to opts.LockTimeout while another writer or a load holds
// the file) and returns when what fn wrote is on disk and searchable. The
// store fn gets is the follower's own snapshot with the file attached: it
// is first brought up to date from the file when another process wrote
// since it was loaded, and every PutDocument writes the file and the
// snapshot together, so no write reloads the index. Several writes in one
// fn share one lock.
func (f *Follower) Write(ctx context.Context, fn func(w store.Store) error) (err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return fmt.Errorf("store/embedded: write: %w", ErrClosed)
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("store/embedded: write: %w", err)
	}
	if err := os.MkdirAll(f.dir, 0o750); err != nil {
		return fmt.Errorf("store/embedded: write: %w", err)
	}
	timeout := f.opts.LockTimeout
	if timeout <= 0 {
		timeout = DefaultLockTimeout
	}
	path := filepath.Join(f.dir, FileName)
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: timeout})
	if err != nil {
		return openError(path, err)
	}
	defer func() {
		if cerr := db.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("store/embedded: close: %w", cerr)
		}
		// The file now holds what the snapshot holds: no reload for it.
		if stamp, serr := statIndex(path); serr == nil {
			f.stamp = stamp
		}
	}()
	gens, err := readGenerations(db)
	if err != nil {
		return fmt.Errorf("store/embedded: write %s: %w", path, err)
	}
	cur := f.cur.Load()
	if !f.loaded || !maps.Equal(gens, f.gens) {
		// Another process wrote since the last load: start from the file.
		fresh := newStore(db, f.opts.Logger)
		if err := fresh.load(); err != nil {
			return fmt.Errorf("store/embedded: write %s: %w", path, err)
		}
		fresh.db, fresh.readOnly = nil, true
		f.cur.Store(fresh)
		f.loaded, f.gens = true, gens
		cur = fresh
	}
	cur.attach(db)
	defer func() {
		cur.attach(nil)
		f.gens = cur.generations()
	}()
	return fn(batchWriter{cur})
}

// batchWriter is the store a Write's fn writes through: the follower's
// snapshot, whose Close belongs to the follower.
type batchWriter struct{ *Store }

func (batchWriter) Close() error { return nil }

// attach lets a snapshot write to db (nil: read-only again).
func (s *Store) attach(db *bolt.DB) {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	s.db, s.readOnly = db, db == nil
}

// generations is every tenant's generation in memory.
func (s *Store) generations() map[string]uint64 {
	s.mu.RLock()
	defer s.mu.RUnlock()
	gens := make(map[string]uint64, len(s.tenants))
	for t, ix := range s.tenants {
		gens[t] = ix.generation
	}
	return gens
}

// Loaded reports whether a snapshot of the file has been loaded (false
// while a writer held the file since start-up). LastError is the last
// Refresh failure, nil after a success.
func (f *Follower) Loaded() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.loaded
}

// LastError is the error of the last Refresh, or nil when it succeeded.
func (f *Follower) LastError() error {
	if p := f.lastErr.Load(); p != nil {
		return *p
	}
	return nil
}

// Search implements store.Searcher on the current snapshot.
func (f *Follower) Search(ctx context.Context, req store.SearchRequest) ([]store.Hit, error) {
	return f.cur.Load().Search(ctx, req)
}

// Documents implements store.Catalog on the current snapshot.
func (f *Follower) Documents(ctx context.Context, tenant string) ([]store.Document, error) {
	return f.cur.Load().Documents(ctx, tenant)
}

// Generation implements store.Catalog: the current snapshot's generation,
// which moves when a new snapshot with changes is swapped in, so caches
// keyed on it drop answers from the old one.
func (f *Follower) Generation(ctx context.Context, tenant string) (uint64, error) {
	return f.cur.Load().Generation(ctx, tenant)
}

// Vocabulary implements store.Lexicon on the current snapshot.
func (f *Follower) Vocabulary(ctx context.Context, tenant string) (store.Vocabulary, error) {
	return f.cur.Load().Vocabulary(ctx, tenant)
}

// Chunks implements store.ChunkReader on the current snapshot.
func (f *Follower) Chunks(ctx context.Context, tenant string, ids []string) ([]store.Chunk, error) {
	return f.cur.Load().Chunks(ctx, tenant, ids)
}

// PutDocument implements store.Indexer as one Write: it takes the file's
// lock for the one document. Batches that want one lock call Write.
func (f *Follower) PutDocument(ctx context.Context, doc store.Document, chunks []store.Chunk) error {
	return f.Write(ctx, func(w store.Store) error { return w.PutDocument(ctx, doc, chunks) })
}

// Close stops Refresh and Write; reads keep answering from the last
// snapshot, which holds no file, until the process lets go of it.
func (f *Follower) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.closed = true
	return nil
}
