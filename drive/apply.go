package drive

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"

	gdrive "google.golang.org/api/drive/v3"
	"google.golang.org/api/googleapi"

	"github.com/cewhq/cew/ingest"
	"github.com/cewhq/cew/store"
)

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
			if errors.Is(err, ErrTooLarge) || refused(err) {
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

// refused reports a download Drive will refuse again until the file
// changes (an export over Drive's size limit, a file that cannot be
// downloaded): a 4xx that is neither a rate limit nor a vanished file.
// It is reported as failed, not tried at every sync.
func refused(err error) bool {
	var ge *googleapi.Error
	if !errors.As(err, &ge) || ge.Code < 400 || ge.Code >= 500 {
		return false
	}
	switch ge.Code {
	case http.StatusNotFound, http.StatusRequestTimeout, http.StatusTooManyRequests:
		return false
	}
	return !hasReason(ge, "userRateLimitExceeded", "rateLimitExceeded")
}
