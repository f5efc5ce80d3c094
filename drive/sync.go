// Package drive makes Google Drive folders and shared drives a document
// source: it lists them (subfolders included), downloads or exports what
// cew reads, takes each document's identity from the folder's register or
// from file names and Drive metadata, and keeps the index in step with
// Drive through the Changes feed — new and replaced files indexed, trashed
// and deleted ones withdrawn — resuming where an interrupted sync stopped.
package drive

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cewhq/cew/ingest"
	"github.com/cewhq/cew/store"
)

// Ingester is what the sync needs from ingestion.
type Ingester interface {
	IngestSources(ctx context.Context, tenant string, files []ingest.SourceFile, live func(source string) bool, progress ingest.Progress) (ingest.Report, error)
	Withdraw(ctx context.Context, tenant string, ws []ingest.Withdrawal) error
}

// ErrBusy is returned when another process is syncing the same folder.
var ErrBusy = errors.New("drive: another cew process is syncing this folder now")

// sourcePrefix starts the address a document records for a Drive file.
const sourcePrefix = "drive:"

// Source is the address a document records for a Drive file.
func Source(fileID string) string { return sourcePrefix + fileID }

// DefaultBatchFiles is how many files are downloaded, then indexed
// together, between two saves of the sync state.
const DefaultBatchFiles = 16

// Options configures a Syncer.
type Options struct {
	Client   *Client
	Ingester Ingester
	// Dir holds the sync state (one JSON file per tenant and root) and the
	// downloads in flight.
	Dir string
	// MaxFileSize in bytes; bigger files are reported, not downloaded.
	MaxFileSize int64
	BatchFiles  int
	Logger      *slog.Logger
	Now         func() time.Time
}

// Syncer syncs Drive folders into the index. One Syncer must not sync the
// same tenant from two goroutines at once.
type Syncer struct {
	opts Options
	log  *slog.Logger
}

// NewSyncer returns a Syncer. Client, Ingester and Dir are required.
func NewSyncer(opts Options) (*Syncer, error) {
	if opts.Client == nil || opts.Ingester == nil || opts.Dir == "" {
		return nil, errors.New("drive: a syncer needs a client, an ingester and a state directory")
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.MaxFileSize <= 0 {
		opts.MaxFileSize = ingest.DefaultMaxFileSize
	}
	if opts.BatchFiles <= 0 {
		opts.BatchFiles = DefaultBatchFiles
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Syncer{opts: opts, log: opts.Logger}, nil
}

// Outcomes of a file in a sync, besides ingest's (indexed, unchanged,
// failed, ignored).
const (
	// Skipped: a type cew does not read.
	Skipped = "skipped"
	// Withdrawn: the file left Drive (trashed, deleted, moved out, no
	// longer shared); its revisions left search.
	Withdrawn = "withdrawn"
	// Deferred: the download failed for a reason that may pass; the next
	// sync tries again.
	Deferred = "deferred"
	// RegisterRead: the root's register was read (Rows entries).
	RegisterRead = "register"
)

// FileResult is what a sync did with one file.
type FileResult struct {
	ID string
	// Path is the file's path below the synced root.
	Path     string
	Outcome  string
	Number   string
	Revision string
	Pages    int
	Rows     int
	Chunks   int
	// Unreadable lists pages of an indexed PDF that yielded no text.
	Unreadable []int
	Err        error
}

// Report is one sync of one root.
type Report struct {
	Tenant string
	Root   string
	Name   string
	// Full is true for a listing of the whole tree (the first sync, or
	// one resumed), false for an incremental sync from the Changes feed.
	Full bool
	// Seen is the number of files listed or changed.
	Seen int
	// Downloaded is the number of files downloaded or exported, Bytes
	// their size.
	Downloaded int
	Bytes      int64
	// Calls is the number of requests sent to the Drive API, Retries the
	// ones repeated after a rate limit or failure.
	Calls    int64
	Retries  int64
	Files    []FileResult
	Duration time.Duration
}

// Count returns how many files ended with the outcome.
func (r Report) Count(outcome string) int {
	n := 0
	for _, f := range r.Files {
		if f.Outcome == outcome {
			n++
		}
	}
	return n
}

// Changed reports whether the sync changed the index.
func (r Report) Changed() bool {
	return r.Count(string(ingest.Indexed)) > 0 || r.Count(Withdrawn) > 0
}

// run is one Sync call's working set.
type run struct {
	s      *Syncer
	st     *state
	rep    *Report
	others map[string]bool // live files of the tenant's other roots
	// gone maps files leaving the index to why; they are no longer live.
	gone map[string]string
	// cands are files to look at, by id.
	cands map[string]remote
	reg   *ingest.Register
	// withdrawals wait for the end of the batch, to be written together.
	withdrawals []ingest.Withdrawal
}

// Sync brings one root's documents in the index up to date with Drive and
// returns what it did. The first sync lists the whole tree; later ones
// read the Changes feed from where the last one stopped. State is saved
// after every batch, so a sync cut short (an error, a crash, a cancelled
// context) resumes next time without downloading or indexing twice. The
// error is non-nil when the sync could not finish; files already done are
// in the report and the state.
func (s *Syncer) Sync(ctx context.Context, tenant, rootID string) (Report, error) {
	start := s.opts.Now()
	before := s.opts.Client.Stats()
	rep := Report{Tenant: tenant, Root: rootID}
	finish := func(err error) (Report, error) {
		after := s.opts.Client.Stats()
		rep.Calls, rep.Retries = after.Calls-before.Calls, after.Retries-before.Retries
		rep.Duration = s.opts.Now().Sub(start)
		return rep, err
	}
	if tenant == "" {
		return finish(store.ErrNoTenant)
	}
	if !validID(rootID) {
		return finish(fmt.Errorf("drive: %q is not a Drive folder or shared drive id", rootID))
	}
	unlock, err := lockRoot(s.opts.Dir, tenant, rootID)
	if err != nil {
		return finish(err)
	}
	defer unlock()
	st, err := loadState(s.opts.Dir, tenant, rootID)
	if err != nil {
		return finish(err)
	}
	others, err := s.otherLiveFiles(tenant, rootID)
	if err != nil {
		return finish(err)
	}
	r := &run{s: s, st: st, rep: &rep, others: others, gone: map[string]string{}, cands: map[string]remote{}}
	if st.Register != nil {
		r.reg = ingest.NewRegister(st.Register.Entries)
	}
	rep.Name = st.Name
	if st.PageToken == "" {
		rep.Full = true
		err = r.full(ctx)
	} else {
		err = r.incremental(ctx)
	}
	rep.Name = st.Name
	if err != nil {
		s.log.Warn("drive sync stopped", "tenant", tenant, "root", rootID, "err", err)
	}
	return finish(err)
}

// validID accepts what Drive ids are made of, so an id is safe in a query
// and as a file name.
func validID(id string) bool {
	if id == "" || len(id) > 200 {
		return false
	}
	for _, c := range id {
		if !(c == '-' || c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}

// otherLiveFiles is every Drive file the tenant's other synced roots hold:
// a revision indexed from one of them belongs to it while it exists.
func (s *Syncer) otherLiveFiles(tenant, root string) (map[string]bool, error) {
	out := map[string]bool{}
	entries, err := os.ReadDir(filepath.Join(s.opts.Dir, tenant))
	if err != nil {
		return out, nil
	}
	for _, e := range entries {
		other, ok := strings.CutSuffix(e.Name(), ".json")
		if !ok || other == root || e.IsDir() {
			continue
		}
		st, err := loadState(s.opts.Dir, tenant, other)
		if err != nil {
			return nil, err
		}
		for id := range st.Files {
			out[id] = true
		}
	}
	return out, nil
}
