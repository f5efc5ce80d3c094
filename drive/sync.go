// Package drive makes Google Drive folders and shared drives a document
// source: it lists them (subfolders included), downloads or exports what
// cew reads, takes each document's identity from the folder's register or
// from file names and Drive metadata, and keeps the index in step with
// Drive through the Changes feed — new and replaced files indexed, trashed
// and deleted ones withdrawn — resuming where an interrupted sync stopped.
package drive

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	gdrive "google.golang.org/api/drive/v3"
	"google.golang.org/api/googleapi"

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

// full lists the whole tree. The Changes feed position is taken first, so
// whatever changes during the listing is read again next time.
func (r *run) full(ctx context.Context) error {
	c, st := r.s.opts.Client, r.st
	root, err := c.Root(ctx, st.Root)
	if err != nil {
		return err
	}
	st.Name, st.DriveID = root.Name, root.DriveID
	if st.Listing == "" {
		if st.Listing, err = c.StartPageToken(ctx, st.DriveID); err != nil {
			return err
		}
		if err := st.save(r.s.opts.Dir); err != nil {
			return err
		}
	}
	st.Folders = map[string]folderState{st.Root: {Name: root.Name}}
	if err := r.list(ctx, st.Root); err != nil {
		return err
	}
	// Whatever the state knows that the listing did not find has left.
	for id := range st.Files {
		if _, ok := r.cands[id]; !ok {
			r.gone[id] = "no longer in the synced folder (deleted, moved out, or no longer shared)"
		}
	}
	if st.Register != nil {
		if _, ok := r.cands[st.Register.FileID]; !ok {
			r.gone[st.Register.FileID] = "removed"
		}
	}
	if err := r.process(ctx); err != nil {
		return err
	}
	st.PageToken, st.Listing = st.Listing, ""
	return st.save(r.s.opts.Dir)
}

// list adds a folder's subtree to the state's folders and its files to the
// candidates.
func (r *run) list(ctx context.Context, folder string) error {
	queue := []string{folder}
	for len(queue) > 0 {
		id := queue[0]
		queue = queue[1:]
		err := r.s.opts.Client.Children(ctx, id, r.st.DriveID, func(f *gdrive.File) error {
			if f.MimeType == mimeFolder {
				if !r.st.inTree(f.Id) {
					queue = append(queue, f.Id)
				}
				r.st.Folders[f.Id] = folderState{Name: f.Name, Parent: id}
				return nil
			}
			r.cands[f.Id] = remoteOf(f, id)
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// incremental applies the Changes feed since the last sync.
func (r *run) incremental(ctx context.Context) error {
	c, st := r.s.opts.Client, r.st
	var changes []*gdrive.Change
	next, err := c.Changes(ctx, st.PageToken, st.DriveID, func(ch *gdrive.Change) error {
		if ch.ChangeType == "" || ch.ChangeType == "file" {
			changes = append(changes, ch)
		}
		return nil
	})
	if expiredPosition(err) {
		// Drive no longer knows the stored position: list the folder
		// again (files already indexed are found unchanged).
		st.PageToken = ""
		if serr := st.save(r.s.opts.Dir); serr != nil {
			return serr
		}
		return fmt.Errorf("drive: the Changes feed position expired; the next sync lists the folder again: %w", err)
	}
	if err != nil {
		return err
	}
	for _, ch := range changes {
		if ch.FileId != st.Root {
			continue
		}
		if ch.Removed || ch.File == nil || ch.File.Trashed {
			return r.rootGone(ctx, ch)
		}
		st.Name = ch.File.Name
	}
	added := r.applyFolders(changes)
	for _, id := range added {
		if err := r.list(ctx, id); err != nil {
			return err
		}
	}
	for _, ch := range changes {
		f := ch.File
		if ch.FileId == st.Root || (f != nil && f.MimeType == mimeFolder) || st.inTree(ch.FileId) {
			continue
		}
		_, known := st.Files[ch.FileId]
		known = known || (st.Register != nil && st.Register.FileID == ch.FileId)
		switch parent := r.parentInTree(f); {
		case ch.Removed || f == nil:
			if known {
				r.gone[ch.FileId] = "deleted from Drive or no longer shared"
			}
		case f.Trashed:
			if known {
				r.gone[ch.FileId] = "trashed in Drive"
			}
		case parent == "":
			if known {
				r.gone[ch.FileId] = "moved out of the synced folder"
			}
		default:
			r.cands[ch.FileId] = remoteOf(f, parent)
			delete(r.gone, ch.FileId)
		}
	}
	// Files of folders that left the tree leave with them.
	for id, fs := range st.Files {
		if _, cand := r.cands[id]; !cand && !st.inTree(fs.Parent) {
			if _, g := r.gone[id]; !g {
				r.gone[id] = "its folder was trashed, deleted or moved out of the synced folder"
			}
		}
	}
	if err := r.retries(ctx); err != nil {
		return err
	}
	if err := r.process(ctx); err != nil {
		return err
	}
	st.PageToken = next
	return st.save(r.s.opts.Dir)
}

// expiredPosition reports Drive refusing a stored page token.
func expiredPosition(err error) bool {
	var ge *googleapi.Error
	return errors.As(err, &ge) && (ge.Code == http.StatusGone || ge.Code == http.StatusNotFound ||
		(ge.Code == http.StatusBadRequest && strings.Contains(strings.ToLower(ge.Message), "pagetoken")))
}

// rootGone withdraws everything when the synced folder itself is trashed
// or deleted, and forgets the state: the next sync starts over (and fails
// until the folder is back).
func (r *run) rootGone(ctx context.Context, ch *gdrive.Change) error {
	why := "the synced folder was deleted or is no longer shared"
	if ch.File != nil && ch.File.Trashed {
		why = "the synced folder was trashed"
	}
	for id := range r.st.Files {
		r.gone[id] = why
	}
	if err := r.withdrawGone(ctx); err != nil {
		return err
	}
	fresh := newState(r.st.Tenant, r.st.Root)
	fresh.Name = r.st.Name
	*r.st = *fresh
	return r.st.save(r.s.opts.Dir)
}

// parentInTree is the first of a file's parents that is in the synced
// tree, or "".
func (r *run) parentInTree(f *gdrive.File) string {
	if f == nil {
		return ""
	}
	for _, p := range f.Parents {
		if r.st.inTree(p) {
			return p
		}
	}
	return ""
}

// applyFolders applies folder changes to the tree until it settles (a
// folder may come before its new parent in the feed) and returns the
// folders that joined it, whose contents must be listed: a folder moved
// in brings files the feed does not mention.
func (r *run) applyFolders(changes []*gdrive.Change) []string {
	st := r.st
	joined := map[string]bool{}
	for pass := 0; pass <= len(changes); pass++ {
		moved := false
		for _, ch := range changes {
			f := ch.File
			if ch.FileId == st.Root {
				continue
			}
			isFolder := (f != nil && f.MimeType == mimeFolder) || (f == nil && st.inTree(ch.FileId))
			if !isFolder {
				continue
			}
			parent := r.parentInTree(f)
			in := !ch.Removed && f != nil && !f.Trashed && parent != ""
			switch {
			case in && !st.inTree(ch.FileId):
				st.Folders[ch.FileId] = folderState{Name: f.Name, Parent: parent}
				joined[ch.FileId], moved = true, true
			case in:
				cur := st.Folders[ch.FileId]
				if cur.Name != f.Name || cur.Parent != parent {
					st.Folders[ch.FileId] = folderState{Name: f.Name, Parent: parent}
					moved = true
				}
			case st.inTree(ch.FileId):
				st.dropFolder(ch.FileId)
				delete(joined, ch.FileId)
				moved = true
			}
		}
		if !moved {
			break
		}
	}
	out := make([]string, 0, len(joined))
	for id := range joined {
		if st.inTree(id) && !joined[st.Folders[id].Parent] {
			out = append(out, id) // listing it lists the joined folders below
		}
	}
	sort.Strings(out)
	return out
}

// retries looks again at files whose last download failed for a passing
// reason, and at duplicates whose rival file has gone.
func (r *run) retries(ctx context.Context) error {
	st := r.st
	ids := slices.Sorted(maps.Keys(st.Retry))
	for _, id := range ids {
		if _, ok := r.cands[id]; ok {
			continue
		}
		if _, ok := r.gone[id]; ok {
			continue
		}
		f, err := r.s.opts.Client.File(ctx, id)
		switch {
		case errors.Is(err, ErrNotFound):
			delete(st.Retry, id)
			if _, known := st.Files[id]; known {
				r.gone[id] = "deleted from Drive or no longer shared"
			}
			continue
		case err != nil:
			return err
		}
		parent := r.parentInTree(f)
		if f.Trashed || parent == "" {
			delete(st.Retry, id)
			if _, known := st.Files[id]; known {
				r.gone[id] = "trashed in Drive or moved out of the synced folder"
			}
			continue
		}
		r.cands[id] = remoteOf(f, parent)
	}
	for id, fs := range st.Files {
		if fs.Conflict == "" {
			continue
		}
		if _, ok := r.cands[id]; ok {
			continue
		}
		if _, ok := r.gone[id]; !ok && !r.live(fs.Conflict) {
			r.cands[id] = remoteFromState(id, fs)
		}
	}
	return nil
}

// live reports whether the file a revision was indexed from still exists:
// a Drive file this sync or another root's knows and is not removing, or a
// local file on disk.
func (r *run) live(source string) bool {
	id, ok := strings.CutPrefix(source, sourcePrefix)
	if !ok {
		_, err := os.Stat(source)
		return !errors.Is(err, os.ErrNotExist)
	}
	if _, g := r.gone[id]; g {
		return false
	}
	_, known := r.st.Files[id]
	_, cand := r.cands[id]
	return known || cand || r.others[id]
}

// pending is a file to download and index.
type pending struct {
	r          remote
	path       string
	localName  string
	exportMIME string
	entry      ingest.RegisterEntry
}

// process brings the candidates into the index and withdraws what left.
func (r *run) process(ctx context.Context) error {
	st := r.st
	r.rep.Seen += len(r.cands)
	if err := r.syncRegister(ctx); err != nil {
		return err
	}
	// By path, so reports and batches follow the folder's order.
	ids := slices.SortedFunc(maps.Keys(r.cands), func(a, b string) int {
		ra, rb := r.cands[a], r.cands[b]
		return cmp.Or(strings.Compare(st.path(ra.Parent, ra.Name), st.path(rb.Parent, rb.Name)), strings.Compare(a, b))
	})
	var todo []pending
	for _, id := range ids {
		rem := r.cands[id]
		if rem.Parent == st.Root && isRegisterFile(rem) {
			continue
		}
		p, err := r.plan(ctx, rem)
		if err != nil {
			return err
		}
		if p != nil {
			todo = append(todo, *p)
		}
	}
	for start := 0; start < len(todo); start += r.s.opts.BatchFiles {
		batch := todo[start:min(start+r.s.opts.BatchFiles, len(todo))]
		if err := r.fetchAndIndex(ctx, batch); err != nil {
			return err
		}
		// The state forgets revisions only once their withdrawal is written.
		if err := r.flushWithdrawals(ctx); err != nil {
			return err
		}
		if err := st.save(r.s.opts.Dir); err != nil {
			return err
		}
	}
	return r.withdrawGone(ctx)
}

// syncRegister reads the root's register when it is new or changed, and
// forgets it when it is gone. Either way every file's identity may have
// changed, so every known file becomes a candidate (downloaded again only
// if its identity did change). A register that cannot be read is
// reported; the one read before stays in force.
func (r *run) syncRegister(ctx context.Context) error {
	st := r.st
	var cand *remote
	ids := slices.Sorted(maps.Keys(r.cands))
	for _, id := range ids {
		if c := r.cands[id]; c.Parent == st.Root && isRegisterFile(c) {
			cand = &c
			break
		}
	}
	changed := false
	if reg := st.Register; reg != nil {
		c, isCand := r.cands[reg.FileID]
		_, gone := r.gone[reg.FileID]
		if gone || (isCand && (c.Parent != st.Root || !isRegisterFile(c))) {
			st.Register, r.reg, changed = nil, nil, true
			r.rep.Files = append(r.rep.Files, FileResult{ID: reg.FileID, Path: "register", Outcome: Withdrawn,
				Err: errors.New("the register was removed: identities come from file names")})
		}
	}
	if cand != nil && (st.Register == nil || st.Register.FileID != cand.ID || st.Register.Key != cand.key()) {
		entries, err := r.fetchRegister(ctx, *cand)
		if ctx.Err() != nil {
			return fmt.Errorf("drive: %w", ctx.Err())
		}
		path := st.path(cand.Parent, cand.Name)
		if err != nil {
			r.rep.Files = append(r.rep.Files, FileResult{ID: cand.ID, Path: path, Outcome: string(ingest.Failed), Err: err})
			if st.Register != nil && st.Register.FileID == cand.ID {
				// Keep the entries in force; try again when it changes.
				st.Register.Key, st.Register.Err = cand.key(), err.Error()
			}
		} else {
			st.Register = &registerState{FileID: cand.ID, Key: cand.key(), Entries: entries}
			r.reg, changed = ingest.NewRegister(entries), true
			r.rep.Files = append(r.rep.Files, FileResult{ID: cand.ID, Path: path, Outcome: RegisterRead, Rows: len(entries)})
		}
	}
	if changed {
		for id, fs := range st.Files {
			_, isCand := r.cands[id]
			_, gone := r.gone[id]
			if !isCand && !gone && st.inTree(fs.Parent) {
				r.cands[id] = remoteFromState(id, fs)
			}
		}
	}
	return nil
}

// fetchRegister downloads (or exports) the register and reads its entries.
func (r *run) fetchRegister(ctx context.Context, rem remote) ([]ingest.RegisterEntry, error) {
	localName, exportMIME, ok, why := format(rem)
	if !ok {
		return nil, errors.New(why)
	}
	dir, err := os.MkdirTemp(r.downloadDir(), "register-")
	if err != nil {
		return nil, fmt.Errorf("drive: downloads: %w", err)
	}
	defer os.RemoveAll(dir)
	local := filepath.Join(dir, localName)
	n, err := r.download(ctx, pending{r: rem, localName: localName, exportMIME: exportMIME}, local)
	r.rep.Bytes += n
	if err != nil {
		return nil, err
	}
	r.rep.Downloaded++
	reg, err := ingest.LoadRegister(local)
	if err != nil {
		return nil, err
	}
	return reg, nil
}

// plan decides what to do with one file: nothing (unchanged, or a
// duplicate whose rival is still there), record it as skipped or ignored,
// or download and index it.
func (r *run) plan(ctx context.Context, rem remote) (*pending, error) {
	st := r.st
	prev := st.Files[rem.ID]
	relPath := st.path(rem.Parent, rem.Name)
	localName, exportMIME, ok, why := format(rem)
	record := func(outcome string, err error, entry ingest.RegisterEntry) {
		fs := r.stateFor(rem, prev)
		fs.Outcome, fs.Entry, fs.Err, fs.Conflict = outcome, entry, errString(err), ""
		st.Files[rem.ID] = fs
		delete(st.Retry, rem.ID)
		if prev == nil || prev.Outcome != outcome || prev.Key != rem.key() || prev.Entry != entry {
			r.rep.Files = append(r.rep.Files, FileResult{ID: rem.ID, Path: relPath, Outcome: outcome, Number: entry.Number, Revision: entry.Revision, Err: err})
		}
	}
	if !ok {
		record(Skipped, errors.New(why), ingest.RegisterEntry{})
		return nil, r.retire(ctx, rem.ID, docRevision{}, "Withdrawn: its Drive file is of a type cew does not read")
	}
	if rem.Size > r.s.opts.MaxFileSize {
		err := fmt.Errorf("%w (%d MB, the limit is %d MB)", ingest.ErrTooLarge, rem.Size>>20, r.s.opts.MaxFileSize>>20)
		record(string(ingest.Failed), err, ingest.RegisterEntry{})
		return nil, nil
	}
	if r.reg == nil && ingest.IsStrayName(localName) {
		record(string(ingest.Ignored), ingest.ErrStrayFile, ingest.RegisterEntry{})
		return nil, r.retire(ctx, rem.ID, docRevision{}, "Withdrawn: a licence, read-me or provenance file, not a project document")
	}
	entry, listed := identity(rem, localName, relPath, r.reg, prev)
	if !listed {
		record(string(ingest.Ignored), errors.New("not listed in the folder's register"), entry)
		return nil, r.retire(ctx, rem.ID, docRevision{}, "Withdrawn: not listed in the Drive folder's register")
	}
	_, retry := st.Retry[rem.ID]
	if prev != nil && !retry && prev.Key == rem.key() && prev.Entry == entry {
		if prev.Conflict == "" || r.live(prev.Conflict) {
			// Unchanged: not downloaded again. A new name or folder is
			// remembered for paths.
			prev.Name, prev.Parent, prev.Version, prev.ModifiedTime = rem.Name, rem.Parent, rem.Version, rem.Modified
			return nil, nil
		}
	}
	return &pending{r: rem, path: relPath, localName: localName, exportMIME: exportMIME, entry: entry}, nil
}

// stateFor is the state of a file about to be recorded: its metadata now,
// with the revisions it supplied before.
func (r *run) stateFor(rem remote, prev *fileState) *fileState {
	fs := &fileState{Name: rem.Name, Parent: rem.Parent, MimeType: rem.MimeType, Key: rem.key(),
		Version: rem.Version, ModifiedTime: rem.Modified, Link: rem.Link}
	if prev != nil {
		fs.Revisions = prev.Revisions
	}
	return fs
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// fetchAndIndex downloads a batch and indexes it together (embedding
// requests span files).
func (r *run) fetchAndIndex(ctx context.Context, batch []pending) error {
	st := r.st
	dir, err := os.MkdirTemp(r.downloadDir(), "batch-")
	if err != nil {
		return fmt.Errorf("drive: downloads: %w", err)
	}
	defer os.RemoveAll(dir)
	var (
		files  []ingest.SourceFile
		byPath = map[string]pending{}
	)
	for i, p := range batch {
		local := filepath.Join(dir, fmt.Sprint(i), p.localName)
		if err := os.MkdirAll(filepath.Dir(local), 0o755); err != nil {
			return fmt.Errorf("drive: downloads: %w", err)
		}
		n, err := r.download(ctx, p, local)
		r.rep.Bytes += n
		if err != nil {
			if ctx.Err() != nil {
				return fmt.Errorf("drive: %w", ctx.Err())
			}
			prev := st.Files[p.r.ID]
			if errors.Is(err, ErrTooLarge) {
				fs := r.stateFor(p.r, prev)
				fs.Outcome, fs.Entry, fs.Err = string(ingest.Failed), p.entry, err.Error()
				st.Files[p.r.ID] = fs
				r.rep.Files = append(r.rep.Files, FileResult{ID: p.r.ID, Path: p.path, Outcome: string(ingest.Failed), Number: p.entry.Number, Revision: p.entry.Revision, Err: err})
				continue
			}
			st.Retry[p.r.ID] = err.Error()
			r.rep.Files = append(r.rep.Files, FileResult{ID: p.r.ID, Path: p.path, Outcome: Deferred, Number: p.entry.Number, Revision: p.entry.Revision, Err: err})
			r.s.log.Warn("drive download deferred to the next sync", "tenant", st.Tenant, "file", p.path, "err", err)
			continue
		}
		r.rep.Downloaded++
		files = append(files, ingest.SourceFile{Path: local, Source: Source(p.r.ID), Entry: p.entry, PageLinks: true})
		byPath[local] = p
	}
	if len(files) == 0 {
		return nil
	}
	rep, err := r.s.opts.Ingester.IngestSources(ctx, st.Tenant, files, r.live, nil)
	for _, res := range rep.Files {
		p, ok := byPath[res.Path]
		if !ok {
			continue
		}
		if err := r.recordIngest(ctx, p, res); err != nil {
			return err
		}
	}
	if err != nil {
		return fmt.Errorf("drive: index: %w", err)
	}
	return nil
}

func (r *run) downloadDir() string {
	d := filepath.Join(r.s.opts.Dir, r.st.Tenant, ".downloads")
	_ = os.MkdirAll(d, 0o755)
	return d
}

func (r *run) download(ctx context.Context, p pending, local string) (int64, error) {
	f, err := os.Create(local)
	if err != nil {
		return 0, fmt.Errorf("drive: downloads: %w", err)
	}
	defer f.Close()
	meta := &gdrive.File{Id: p.r.ID, Md5Checksum: p.r.MD5}
	return r.s.opts.Client.Download(ctx, meta, p.exportMIME, f, r.s.opts.MaxFileSize)
}

// recordIngest records what indexing did with one file, and retires the
// revisions it no longer supplies.
func (r *run) recordIngest(ctx context.Context, p pending, res ingest.FileResult) error {
	st := r.st
	prev := st.Files[p.r.ID]
	fs := r.stateFor(p.r, prev)
	fs.Outcome, fs.Entry, fs.Err = string(res.Outcome), p.entry, errString(res.Err)
	delete(st.Retry, p.r.ID)
	r.rep.Files = append(r.rep.Files, FileResult{ID: p.r.ID, Path: p.path, Outcome: string(res.Outcome), Number: res.Number,
		Revision: res.Revision, Pages: res.Pages, Rows: res.Rows, Chunks: res.Chunks, Unreadable: res.Unreadable, Err: res.Err})
	st.Files[p.r.ID] = fs
	switch {
	case res.Outcome == ingest.Indexed || res.Outcome == ingest.Unchanged:
		cur := docRevision{DocID: ingest.DocID(res.Number), Revision: res.Revision}
		kept := make([]docRevision, 0, len(fs.Revisions)+1)
		for _, old := range fs.Revisions {
			if old != cur {
				kept = append(kept, old)
			}
		}
		fs.Revisions = append(kept, cur)
		return r.retire(ctx, p.r.ID, cur, "Withdrawn: its Drive file now holds another document")
	case errors.Is(res.Err, ingest.ErrDuplicate):
		fs.Conflict = res.Conflict
	}
	return nil
}

// retire withdraws the revisions a file supplied that it no longer should:
// those of another document, or a higher revision of the same one (so its
// current revision is the active one). Lower revisions of the same
// document stay, superseded, as history. A revision another live file
// supplies is left to it.
func (r *run) retire(ctx context.Context, id string, cur docRevision, status string) error {
	fs, ok := r.st.Files[id]
	if !ok {
		return nil
	}
	var kept []docRevision
	for _, old := range fs.Revisions {
		if old == cur || (old.DocID == cur.DocID && store.CompareRevisions(old.Revision, cur.Revision) < 0) {
			kept = append(kept, old)
			continue
		}
		if r.suppliedByOther(old, id) {
			continue
		}
		r.withdrawals = append(r.withdrawals, ingest.Withdrawal{DocID: old.DocID, Revision: old.Revision, Status: status})
		r.rep.Files = append(r.rep.Files, FileResult{ID: id, Path: r.st.path(fs.Parent, fs.Name), Outcome: Withdrawn, Number: old.DocID, Revision: old.Revision, Err: errors.New(status)})
	}
	fs.Revisions = kept
	return nil
}

// suppliedByOther reports whether a live file other than id supplies the
// revision now.
func (r *run) suppliedByOther(rev docRevision, id string) bool {
	for other, fs := range r.st.Files {
		if other == id {
			continue
		}
		if _, g := r.gone[other]; g {
			continue
		}
		if cur, ok := fs.current(); ok && cur == rev {
			return true
		}
	}
	return false
}

// withdrawGone takes the revisions of files that left Drive out of search,
// unless another live file supplies them now, and forgets the files.
func (r *run) withdrawGone(ctx context.Context) error {
	st := r.st
	ids := slices.Sorted(maps.Keys(r.gone))
	for _, id := range ids {
		fs, ok := st.Files[id]
		if !ok {
			continue
		}
		why := r.gone[id]
		status := "Withdrawn: " + why
		path := st.path(fs.Parent, fs.Name)
		for _, rev := range fs.Revisions {
			if r.suppliedByOther(rev, id) {
				continue
			}
			r.withdrawals = append(r.withdrawals, ingest.Withdrawal{DocID: rev.DocID, Revision: rev.Revision, Status: status})
		}
		r.rep.Files = append(r.rep.Files, FileResult{ID: id, Path: path, Outcome: Withdrawn, Number: fs.Entry.Number, Revision: fs.Entry.Revision, Err: errors.New(why)})
		delete(st.Files, id)
		delete(st.Retry, id)
	}
	r.gone = map[string]string{}
	return r.flushWithdrawals(ctx)
}

// flushWithdrawals writes the withdrawals collected so far.
func (r *run) flushWithdrawals(ctx context.Context) error {
	ws := r.withdrawals
	r.withdrawals = nil
	if err := r.s.opts.Ingester.Withdraw(ctx, r.st.Tenant, ws); err != nil {
		return fmt.Errorf("drive: %w", err)
	}
	return nil
}
