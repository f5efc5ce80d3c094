package ingest

import (
	"context"
	"fmt"
	"strings"

	"github.com/cewhq/cew/store"
)

// SourceFile is a file fetched from a document source that knows its
// identity (Google Drive): a local copy to read, the address the document
// records, and the identity the source gives it.
type SourceFile struct {
	// Path is the local copy. Its base name is the file's name at the
	// source (with the extension its format needs), which fills whatever
	// Entry leaves empty.
	Path string
	// Source is what the document records as its file ("drive:<id>"): an
	// address with a scheme, so it is never mistaken for a local path.
	Source string
	// Entry is the identity: from the source's register, or from its file
	// name and metadata. Empty fields are read from the file name.
	Entry RegisterEntry
	// PageLinks appends "#page=N" to the Drive link of a PDF's chunks, so
	// a citation opens the viewer at its page.
	PageLinks bool
}

// IngestSources indexes files fetched from a source, as Ingest does local
// ones: unchanged files (same content hash and identity) are no-ops, a
// newer revision supersedes the older, and a file that cannot be read is
// reported and skipped. live says whether the source still holds a file a
// revision was indexed from (its recorded Source): a revision whose file is
// gone may be taken over by another file; one whose file is still there
// may not (ErrDuplicate).
func (in *Ingester) IngestSources(ctx context.Context, tenant string, files []SourceFile, live func(source string) bool, progress Progress) (Report, error) {
	start := in.cfg.Now()
	if tenant == "" {
		return Report{}, store.ErrNoTenant
	}
	inputs := make([]input, 0, len(files))
	var results []FileResult
	for _, f := range files {
		if !isSource(f.Source) {
			results = append(results, FileResult{Path: f.Path, Outcome: Failed,
				Err: fmt.Errorf("ingest: source %q is not an address such as drive:<id>", f.Source)})
			continue
		}
		entry := f.Entry
		inputs = append(inputs, input{path: f.Path, entry: &entry, source: f.Source, pageLinks: f.PageLinks})
	}
	return in.run(ctx, tenant, inputs, results, live, progress, start)
}

// Withdrawal takes one document revision out of search, with the status
// that says why (one store.Withdrawn recognises, such as "Withdrawn:
// trashed in Drive").
type Withdrawal struct {
	DocID    string
	Revision string
	Status   string
}

// Withdraw takes revisions out of search because the files they came from
// are gone: each is stored again with its withdrawal's status and no
// chunks. The register keeps them, so `cew status` says what happened; a
// revision already withdrawn with that status, or not indexed at all, is
// left alone.
func (in *Ingester) Withdraw(ctx context.Context, tenant string, ws []Withdrawal) error {
	if tenant == "" {
		return store.ErrNoTenant
	}
	if len(ws) == 0 {
		return nil
	}
	want := map[string]string{}
	for _, w := range ws {
		if !store.Withdrawn(w.Status) {
			return fmt.Errorf("ingest: withdraw %s revision %s: status %q does not withdraw a revision", w.DocID, w.Revision, w.Status)
		}
		want[w.DocID+"\x00"+w.Revision] = w.Status
	}
	docs, err := in.cfg.Store.Documents(ctx, tenant)
	if err != nil {
		return fmt.Errorf("ingest: withdraw: %w", err)
	}
	for _, d := range docs {
		status, ok := want[d.ID+"\x00"+d.Revision]
		if !ok || d.Status == status {
			continue
		}
		d.Status = status
		d.Pages, d.Rows, d.Chunks = 0, 0, 0
		d.IndexedAt = in.cfg.Now().UTC()
		if err := in.cfg.Store.PutDocument(ctx, d, nil); err != nil {
			return fmt.Errorf("ingest: withdraw %s revision %s: %w", d.ID, d.Revision, err)
		}
		in.cfg.Logger.Info("revision withdrawn", "tenant", tenant, "doc_id", d.ID, "revision", d.Revision, "status", status)
	}
	return nil
}

// Register is a loaded document register: it finds a file's entry by the
// file's path relative to the register's folder, or by its base name when
// the register lists that name once.
type Register struct {
	idx *registerIndex
}

// NewRegister indexes register entries.
func NewRegister(entries []RegisterEntry) *Register {
	return &Register{idx: newRegisterIndex("", "register", entries)}
}

// Lookup returns the entry of the file at rel, a slash-separated path
// relative to the register's folder.
func (r *Register) Lookup(rel string) (RegisterEntry, bool) {
	if r == nil {
		return RegisterEntry{}, false
	}
	e := r.idx.lookupRel(rel)
	if e == nil {
		return RegisterEntry{}, false
	}
	return *e, true
}

// IsRegisterName reports whether a file name is one a folder's register
// has (register.csv, register.xlsx, any case).
func IsRegisterName(name string) bool {
	return isRegisterName(name)
}

// IsStrayName reports whether a file name is a licence, read-me or
// provenance note that, without a register, is not indexed (ErrStrayFile).
func IsStrayName(name string) bool {
	return isStrayName(name)
}

// Supported reports whether ingestion reads files with this name's
// extension.
func Supported(name string) bool {
	_, ok := parserFor(strings.TrimSpace(name))
	return ok
}
