package ingest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"

	"github.com/cewhq/cew/store"
)

// Store is what ingestion needs from the index.
type Store interface {
	store.Indexer
	store.Catalog
}

// Embedder turns chunk texts into vectors; nil means keyword search only.
type Embedder interface {
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// DefaultMaxFileSize bounds what one file may weigh; bigger files are
// skipped with ErrTooLarge rather than exhausting memory.
const DefaultMaxFileSize = 100 << 20

// registerNames are the file names a folder's document register may have.
var registerNames = []string{"register.csv", "register.xlsx"}

// Config holds an Ingester's collaborators and limits.
type Config struct {
	Store    Store
	Embedder Embedder // optional
	// EmbedModel names the embedder's model; a document embedded with
	// another model (or none) is indexed again.
	EmbedModel string
	// EmbedProgress, when set, is told after each embedding request how
	// many of the chunks being embedded together are done.
	EmbedProgress func(done, total int)
	PDF           *PDF
	Logger        *slog.Logger
	// MaxFileSize in bytes; 0 means DefaultMaxFileSize.
	MaxFileSize int64
	// Limits bound what reading one file may cost; zero means
	// LimitsFor(DefaultMaxIngestMB).
	Limits   Limits
	Chunking ChunkOptions
	// Now stamps IndexedAt; nil means time.Now.
	Now func() time.Time
}

// Ingester reads files, identifies them as document revisions and indexes
// new or changed ones.
type Ingester struct {
	cfg Config
}

// New returns an Ingester. Store and PDF are required.
func New(cfg Config) *Ingester {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if cfg.MaxFileSize <= 0 {
		cfg.MaxFileSize = DefaultMaxFileSize
	}
	if cfg.Chunking.MaxWords <= 0 {
		cfg.Chunking = DefaultChunkOptions
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Limits == (Limits{}) {
		cfg.Limits = LimitsFor(DefaultMaxIngestMB)
	}
	return &Ingester{cfg: cfg}
}

// Outcome is what happened to one input.
type Outcome string

const (
	Indexed   Outcome = "indexed"
	Unchanged Outcome = "unchanged"
	Failed    Outcome = "failed"
	// Ignored files are not project documents: a register in their folder
	// does not list them (the register is the controlled list of what the
	// project issues; ErrNotInRegister), a .cewignore pattern excludes
	// them (ErrIgnoredByRule), or, without a register, they are licences,
	// read-mes or provenance notes (ErrStrayFile).
	Ignored Outcome = "ignored"
)

// legacyUnknownRevision is what indexes built before unknown revisions
// were kept unknown stored for a file that names none; such a document
// keeps it until the file changes name (see prepareFile).
const legacyUnknownRevision = "0"

// FileResult reports one file (or one path that yielded no file).
type FileResult struct {
	Path     string
	Outcome  Outcome
	Number   string
	Revision string
	Pages    int
	Rows     int
	Chunks   int
	// Unreadable lists the pages of an indexed file that could not be
	// parsed or yielded no text: it was only partly read.
	Unreadable []int
	// Err says why the file failed; nil otherwise.
	Err error
	// Conflict, for a file that failed with ErrDuplicate, is the file that
	// holds its number and revision (a path, or a source such as
	// "drive:<id>").
	Conflict string
}

// Partial reports whether the file was indexed with pages it could not
// read.
func (f FileResult) Partial() bool { return f.Outcome == Indexed && len(f.Unreadable) > 0 }

// Report summarises a batch.
type Report struct {
	Files    []FileResult
	Duration time.Duration
}

// Count returns how many files ended with the given outcome.
func (r Report) Count(o Outcome) int {
	n := 0
	for _, f := range r.Files {
		if f.Outcome == o {
			n++
		}
	}
	return n
}

// Partial counts the files indexed with pages they could not read.
func (r Report) Partial() int {
	n := 0
	for _, f := range r.Files {
		if f.Partial() {
			n++
		}
	}
	return n
}

// Totals sums pages, rows and chunks over indexed files.
func (r Report) Totals() (pages, rows, chunks int) {
	for _, f := range r.Files {
		if f.Outcome == Indexed {
			pages += f.Pages
			rows += f.Rows
			chunks += f.Chunks
		}
	}
	return pages, rows, chunks
}

// Progress is told about each file as it finishes; done counts from 1.
type Progress func(done, total int, res FileResult)

// input is one file to ingest with its register entry, if any.
type input struct {
	path  string
	entry *RegisterEntry
	// source, when set, is what the document records as its file instead
	// of path (a remote file's address, path being its local copy).
	source string
	// pageLinks appends "#page=N" to the Drive link of a PDF's chunks.
	pageLinks bool
}

// display names the input in messages: its source, or its path as given.
func (inp input) display() string {
	if inp.source != "" {
		return inp.source
	}
	return inp.path
}

// recorded is what Document.File holds for the input: its source, or its
// path made absolute so a later run from another working directory still
// recognises it (see samePath).
func (inp input) recorded() string {
	if inp.source != "" {
		return inp.source
	}
	if abs, err := filepath.Abs(inp.path); err == nil {
		return abs
	}
	return inp.path
}

// Ingest indexes the files and folders in paths for tenant. A file that
// cannot be read is reported and skipped; the rest of the batch goes on and
// nothing already indexed is touched. The error is non-nil only when the
// batch as a whole could not run (no tenant, store failure, cancellation).
func (in *Ingester) Ingest(ctx context.Context, tenant string, paths []string, progress Progress) (Report, error) {
	start := in.cfg.Now()
	if tenant == "" {
		return Report{}, store.ErrNoTenant
	}
	inputs, results := in.collect(paths)
	return in.run(ctx, tenant, inputs, results, nil, progress, start)
}

// run indexes collected inputs after the results already known. live,
// when not nil, says whether a remote source still holds a file (see
// batch.stillThere).
func (in *Ingester) run(ctx context.Context, tenant string, inputs []input, results []FileResult, live func(string) bool, progress Progress, start time.Time) (Report, error) {
	existing, err := in.cfg.Store.Documents(ctx, tenant)
	if err != nil {
		return Report{}, fmt.Errorf("ingest: list documents: %w", err)
	}
	known := make(map[string]store.Document, len(existing))
	for _, d := range existing {
		known[d.ID+"\x00"+d.Revision] = d
	}
	b := &batch{in: in, known: known, claimed: map[string]string{}, results: results, progress: progress, total: len(inputs), live: live}
	for _, inp := range inputs {
		if err := ctx.Err(); err != nil {
			return b.stopped(ctx, err)
		}
		res, p, err := b.prepareFile(ctx, tenant, inp)
		if err != nil {
			b.results = append(b.results, res)
			return b.stopped(ctx, err)
		}
		if p == nil {
			b.finish(res)
			b.results = append(b.results, res)
			continue
		}
		p.slot = len(b.results)
		b.results = append(b.results, res)
		b.pending = append(b.pending, *p)
		b.pendingChunks += len(p.chunks)
		// Chunks are embedded across documents, embedBatch at a time, so
		// many small files do not each cost a request (or a model call
		// with one short text).
		if in.cfg.Embedder == nil || b.pendingChunks >= embedBatch {
			if err := b.flush(ctx); err != nil {
				return b.stopped(ctx, err)
			}
		}
	}
	if err := b.flush(ctx); err != nil {
		return b.stopped(ctx, err)
	}
	return Report{Files: b.results, Duration: in.cfg.Now().Sub(start)}, nil
}

// ErrCancelled: the batch was stopped (SIGINT, SIGTERM) before this file
// was indexed; what was indexed before it stays, and it is not in the
// index at all.
var ErrCancelled = errors.New("not indexed: stopped before it was written (run cew ingest again)")

// stopped ends a batch cut short: every file not finished says so, never
// a failure without a reason, and the batch error is returned.
func (b *batch) stopped(ctx context.Context, err error) (Report, error) {
	reason := ErrCancelled
	if ctx.Err() == nil {
		reason = fmt.Errorf("not indexed: %w", err)
	}
	for i := range b.results {
		if r := &b.results[i]; r.Outcome == Failed && r.Err == nil {
			r.Err = reason
		}
	}
	if ctx.Err() != nil && !errors.Is(err, ctx.Err()) {
		err = fmt.Errorf("ingest: %w", ctx.Err())
	}
	return Report{Files: b.results}, err
}

// pendingDoc is a parsed and chunked file waiting for its embeddings.
type pendingDoc struct {
	slot   int // index of its result in the batch's results
	key    string
	doc    store.Document
	chunks []store.Chunk
	parsed Parsed
}

// batch is one Ingest call's state: results in input order, the parsed
// files waiting to be embedded and stored, and what is claimed so far.
type batch struct {
	in            *Ingester
	known         map[string]store.Document
	claimed       map[string]string // doc id + revision → path, within this batch
	results       []FileResult
	pending       []pendingDoc
	pendingChunks int
	progress      Progress
	total, done   int
	live          func(source string) bool
}

// stillThere reports whether the file a revision was indexed from may
// still exist: a remote source (an address with a scheme, such as
// "drive:…") asks live, a local path the file system.
func (b *batch) stillThere(file string) bool {
	if b.live != nil && isSource(file) {
		return b.live(file)
	}
	return fileExists(file)
}

// isSource reports whether a recorded file is a remote address
// ("drive:1AbC…") rather than a local path.
func isSource(file string) bool {
	scheme, _, ok := strings.Cut(file, ":")
	return ok && len(scheme) > 1 && !filepath.IsAbs(file) && !strings.ContainsAny(scheme, `/\.`)
}

// finish reports a file whose outcome is known. A failure is logged at
// debug level only: the Report is the record callers show (cew ingest
// prints it), so a warning here would say everything twice.
func (b *batch) finish(res FileResult) {
	if res.Err != nil {
		b.in.cfg.Logger.Debug("file skipped", "file", res.Path, "reason", res.Err)
	}
	b.done++
	if b.progress != nil {
		b.progress(b.done, b.total, res)
	}
}

// flush embeds the pending files' chunks together and stores each file. An
// embedding failure fails every pending file (they shared the requests);
// only store and context failures are returned as errors.
func (b *batch) flush(ctx context.Context) error {
	pending := b.pending
	b.pending, b.pendingChunks = nil, 0
	if len(pending) == 0 {
		return nil
	}
	var embedErr error
	if b.in.cfg.Embedder != nil {
		var all []store.Chunk
		for _, p := range pending {
			all = append(all, p.chunks...)
		}
		if err := EmbedChunks(ctx, b.in.cfg.Embedder, all, b.in.cfg.EmbedProgress); err != nil {
			if ctx.Err() != nil {
				return fmt.Errorf("ingest: %w", ctx.Err())
			}
			embedErr = err
		}
		for i := 0; len(all) > 0 && i < len(pending); i++ {
			n := len(pending[i].chunks)
			pending[i].chunks, all = all[:n:n], all[n:]
		}
	}
	for _, p := range pending {
		if err := ctx.Err(); err != nil {
			// Stop between documents: each is written whole or not at all.
			return fmt.Errorf("ingest: %w", err)
		}
		res := b.results[p.slot]
		if embedErr != nil {
			res.Err = embedErr
			delete(b.claimed, p.key)
		} else if err := b.in.store(ctx, &res, p); err != nil {
			b.results[p.slot] = res
			return err
		} else if res.Err == nil {
			b.known[p.key] = p.doc
		} else {
			delete(b.claimed, p.key)
		}
		b.results[p.slot] = res
		b.finish(res)
	}
	return nil
}

// collect expands paths into files with their register entries. Paths that
// yield nothing become failed results.
func (in *Ingester) collect(paths []string) ([]input, []FileResult) {
	var (
		inputs  []input
		results []FileResult
		seen    = map[string]bool{}
		// registers of the folders of files named one by one (a shell glob
		// such as docs/*.pdf), so each register is read once
		registers = map[string]*registerIndex{}
	)
	fail := func(p string, err error) {
		results = append(results, FileResult{Path: p, Outcome: Failed, Err: err})
	}
	ignore := func(p string, err error) {
		results = append(results, FileResult{Path: p, Outcome: Ignored, Err: err})
	}
	add := func(p string, reg *registerIndex) {
		abs, err := filepath.Abs(p)
		if err == nil && seen[abs] {
			return
		}
		seen[abs] = true
		entry := reg.lookup(p)
		if reg != nil && entry == nil {
			err := fmt.Errorf("%w (%s)", ErrNotInRegister, reg.name)
			if e, ok := reg.byBase[strings.ToLower(filepath.Base(p))]; ok && e == nil {
				err = fmt.Errorf("%w (%s) at this path, and several of its entries have this file name", ErrNotInRegister, reg.name)
			}
			ignore(p, err)
			return
		}
		inputs = append(inputs, input{path: p, entry: entry})
	}
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			fail(p, fmt.Errorf("cannot read path: %w", unwrapPathError(err)))
			continue
		}
		if !info.IsDir() {
			dir := filepath.Dir(p)
			reg, ok := registers[dir]
			if !ok {
				if reg, err = loadRegisterIn(dir); err != nil {
					fail(p, err)
					continue
				}
				registers[dir] = reg
			}
			add(p, reg)
			continue
		}
		reg, err := loadRegisterIn(p)
		if err != nil {
			fail(p, err)
			continue
		}
		before, reported := len(inputs), len(results)
		rules := &ignoreRules{root: p}
		err = filepath.WalkDir(p, func(fp string, d fs.DirEntry, err error) error {
			if err != nil {
				fail(fp, fmt.Errorf("cannot read: %w", unwrapPathError(err)))
				if d != nil && d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			name := d.Name()
			if strings.HasPrefix(name, ".") && fp != p {
				if d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			if fp != p {
				// .cewignore first: what the user excluded is never read,
				// register or not.
				m, source := rules.match(fp, d.IsDir())
				if m == gitignore.Exclude {
					if _, ok := parserFor(name); ok || d.IsDir() {
						ignore(fp, fmt.Errorf("%w (%s)", ErrIgnoredByRule, source))
					}
					if d.IsDir() {
						return fs.SkipDir
					}
					return nil
				}
				if m == gitignore.NoMatch && reg == nil && !d.IsDir() && isStrayName(name) {
					if _, ok := parserFor(name); ok {
						ignore(fp, fmt.Errorf("%w; to index it, list it in a register or add !%s to %s", ErrStrayFile, name, IgnoreFileName))
					}
					return nil
				}
			}
			if d.IsDir() {
				if err := rules.load(fp); err != nil {
					fail(fp, err)
					return fs.SkipDir
				}
				return nil
			}
			if isRegisterName(name) || strings.HasPrefix(name, "~$") {
				return nil
			}
			if _, ok := parserFor(name); !ok {
				return nil
			}
			add(fp, reg)
			return nil
		})
		if err != nil {
			fail(p, err)
		}
		if len(inputs) == before && !hasIgnored(results[reported:]) {
			fail(p, fmt.Errorf("no supported files in folder (supported: %s)", strings.Join(SupportedExtensions(), ", ")))
		}
	}
	return inputs, results
}

func hasIgnored(results []FileResult) bool {
	for _, r := range results {
		if r.Outcome == Ignored {
			return true
		}
	}
	return false
}

func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func isRegisterName(name string) bool {
	for _, r := range registerNames {
		if strings.EqualFold(name, r) {
			return true
		}
	}
	return false
}

// registerIndex finds a file's register entry by its path relative to the
// register's folder, or failing that by its base name when the register
// lists that name only once.
type registerIndex struct {
	dir    string
	name   string
	byPath map[string]*RegisterEntry
	byBase map[string]*RegisterEntry
}

func loadRegisterIn(dir string) (*registerIndex, error) {
	for _, name := range registerNames {
		p := filepath.Join(dir, name)
		if _, err := os.Stat(p); err != nil {
			continue
		}
		entries, err := LoadRegister(p)
		if err != nil {
			return nil, err
		}
		return newRegisterIndex(dir, name, entries), nil
	}
	return nil, nil
}

func newRegisterIndex(dir, name string, entries []RegisterEntry) *registerIndex {
	idx := &registerIndex{dir: dir, name: name, byPath: map[string]*RegisterEntry{}, byBase: map[string]*RegisterEntry{}}
	for i := range entries {
		e := &entries[i]
		if e.File == "" {
			continue
		}
		rel := filepath.ToSlash(filepath.Clean(e.File))
		idx.byPath[strings.ToLower(rel)] = e
		base := strings.ToLower(path.Base(rel))
		if _, dup := idx.byBase[base]; dup {
			// Several entries share the name: a file found elsewhere
			// cannot tell which (if any) it is.
			idx.byBase[base] = nil
			continue
		}
		idx.byBase[base] = e
	}
	return idx
}

func (r *registerIndex) lookup(path string) *RegisterEntry {
	if r == nil {
		return nil
	}
	rel, err := filepath.Rel(r.dir, path)
	if err != nil {
		rel = filepath.Base(path)
	}
	return r.lookupRel(filepath.ToSlash(rel))
}

// lookupRel finds the entry of a file by its slash-separated path relative
// to the register's folder, or by its base name.
func (r *registerIndex) lookupRel(rel string) *RegisterEntry {
	if e, ok := r.byPath[strings.ToLower(rel)]; ok {
		return e
	}
	return r.byBase[strings.ToLower(path.Base(rel))]
}

// prepareFile runs one file through identify → hash-skip → parse → chunk.
// A file with nothing left to do (unchanged, or failed) comes back as a
// result alone; one to index comes back pending, claiming its number and
// revision. Only context failures are returned as errors.
func (b *batch) prepareFile(ctx context.Context, tenant string, inp input) (FileResult, *pendingDoc, error) {
	in, known, claimed := b.in, b.known, b.claimed
	res := FileResult{Path: inp.path, Outcome: Failed}
	doc := in.identify(tenant, inp)
	res.Number, res.Revision = doc.Number, doc.Revision

	hash, err := in.hashFile(inp.path)
	if err != nil {
		res.Err = err
		return res, nil, nil
	}
	doc.ContentHash = hash

	if doc.Revision == "" {
		// An index from before unknown revisions stayed unknown holds this
		// file as revision "0": keep it, or the stale "0" would stay the
		// active revision beside an unknown one that orders before it.
		if prev, ok := known[doc.ID+"\x00"+legacyUnknownRevision]; ok && samePath(prev.File, inp.path) {
			doc.Revision = legacyUnknownRevision
			res.Revision = doc.Revision
		}
	}
	key := doc.ID + "\x00" + doc.Revision
	if other, ok := claimed[key]; ok {
		res.Err = fmt.Errorf("%w: %s revision %q is also %s", ErrDuplicate, doc.Number, doc.Revision, other)
		res.Conflict = other
		return res, nil, nil
	}
	if prev, ok := known[key]; ok {
		if prev.ContentHash == doc.ContentHash && sameRegisterFields(prev, doc) {
			claimed[key] = inp.display()
			res.Outcome = Unchanged
			res.Pages, res.Rows, res.Chunks = prev.Pages, prev.Rows, prev.Chunks
			return res, nil, nil
		}
		// A revision stays with the file it came from while that file
		// exists; once it is gone (moved, renamed, or removed as the
		// message below advises) another file may supply the revision.
		if !samePath(prev.File, inp.recorded()) && b.stillThere(prev.File) {
			res.Conflict = prev.File
			res.Err = fmt.Errorf("%w: %s revision %q is already indexed from %s with different content; issue a new revision or remove one of the files",
				ErrDuplicate, doc.Number, doc.Revision, prev.File)
			return res, nil, nil
		}
	}

	parsed, err := in.parse(withBudget(ctx, in.cfg.Limits), inp.path)
	if err != nil {
		if ctx.Err() != nil {
			return res, nil, fmt.Errorf("ingest: %w", ctx.Err())
		}
		res.Err = err
		return res, nil, nil
	}
	chunks := Chunk(doc, parsed.Blocks, in.cfg.Chunking)
	if len(chunks) == 0 {
		res.Err = ErrNoText
		return res, nil, nil
	}
	if kind, _ := parserFor(inp.path); inp.pageLinks && kind == kindPDF && doc.DriveLink != "" {
		for i := range chunks {
			if chunks[i].Page > 0 {
				chunks[i].DriveLink = doc.DriveLink + "#page=" + strconv.Itoa(chunks[i].Page)
			}
		}
	}
	// A file that parsed claims its number and revision (a corrupt file
	// must not block a good one); the claim is released if embedding or
	// storing it fails.
	claimed[key] = inp.display()
	return res, &pendingDoc{key: key, doc: doc, chunks: chunks, parsed: parsed}, nil
}

// store writes a prepared, embedded file to the index and completes its
// result. A document the store refuses fails alone; other store failures
// are returned.
func (in *Ingester) store(ctx context.Context, res *FileResult, p pendingDoc) error {
	doc := p.doc
	doc.Pages, doc.Rows, doc.Chunks = p.parsed.Pages, p.parsed.Rows, len(p.chunks)
	doc.IndexedAt = in.cfg.Now().UTC()
	if err := in.cfg.Store.PutDocument(ctx, doc, p.chunks); err != nil {
		if errors.Is(err, store.ErrInvalid) {
			res.Err = err
			return nil
		}
		return fmt.Errorf("ingest: store %s: %w", res.Path, err)
	}
	res.Outcome = Indexed
	res.Pages, res.Rows, res.Chunks = doc.Pages, doc.Rows, doc.Chunks
	res.Unreadable = p.parsed.Unreadable
	return nil
}

// sameRegisterFields reports whether the register still describes a revision
// as it was indexed (and the same embedder embedded it); a changed status or
// link re-indexes an unchanged file so search and citations follow the
// register.
func sameRegisterFields(a, b store.Document) bool {
	return a.Number == b.Number && a.Title == b.Title && a.Status == b.Status &&
		a.Date == b.Date && a.DriveLink == b.DriveLink && a.EmbedModel == b.EmbedModel
}

// byteSize formats a size for people: "1.5 MB", "900 KB".
func byteSize(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%d KB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// fileExists reports whether path may still exist: only a definite "does
// not exist" says no.
func fileExists(path string) bool {
	_, err := os.Stat(path)
	return !errors.Is(err, fs.ErrNotExist)
}

func samePath(a, b string) bool {
	if isSource(a) || isSource(b) {
		return a == b
	}
	aa, errA := filepath.Abs(a)
	bb, errB := filepath.Abs(b)
	if errA != nil || errB != nil {
		return a == b
	}
	return aa == bb
}

// identify builds the document revision from the register entry when there
// is one, otherwise from the file name.
func (in *Ingester) identify(tenant string, inp input) store.Document {
	number, revision, title := IdentityFromFileName(filepath.Base(inp.path))
	doc := store.Document{Tenant: tenant, Number: number, Revision: revision, Title: title, File: inp.recorded()}
	if e := inp.entry; e != nil {
		if e.Number != "" {
			doc.Number = e.Number
		}
		if e.Title != "" {
			doc.Title = e.Title
		}
		if e.Revision != "" {
			doc.Revision = e.Revision
		}
		doc.Status, doc.Date, doc.DriveLink = e.Status, e.Date, e.DriveLink
	}
	// A revision named nowhere stays "" (unknown): it orders before any
	// named revision, which supersedes it.
	doc.ID = DocID(doc.Number)
	if in.cfg.Embedder != nil {
		doc.EmbedModel = in.cfg.EmbedModel
	}
	return doc
}

// hashFile checks that a file can be ingested and returns the hex SHA-256
// of its content, read as a stream: the parsers read the file themselves,
// so holding it in memory here would only double the peak for large files.
func (in *Ingester) hashFile(path string) (string, error) {
	info, err := os.Stat(path)
	if err != nil {
		return "", fmt.Errorf("cannot read file: %w", unwrapPathError(err))
	}
	if info.Size() == 0 {
		return "", ErrEmptyFile
	}
	if info.Size() > in.cfg.MaxFileSize {
		return "", fmt.Errorf("%w (%s, the limit is %s)", ErrTooLarge, byteSize(info.Size()), byteSize(in.cfg.MaxFileSize))
	}
	if _, ok := parserFor(path); !ok {
		return "", fmt.Errorf("%w %q (supported: %s)", ErrUnsupported, filepath.Ext(path), strings.Join(SupportedExtensions(), ", "))
	}
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("cannot read file: %w", unwrapPathError(err))
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("cannot read file: %w", unwrapPathError(err))
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// parse dispatches on the file extension.
func (in *Ingester) parse(ctx context.Context, path string) (Parsed, error) {
	kind, _ := parserFor(path)
	switch kind {
	case kindPDF:
		return in.cfg.PDF.Parse(ctx, path)
	case kindXLSX:
		return parseXLSX(ctx, path)
	case kindCSV:
		return parseCSV(ctx, path)
	case kindDOCX:
		return parseDOCX(ctx, path)
	case kindMarkdown:
		return parseMarkdown(ctx, path)
	default:
		return parseText(ctx, path)
	}
}

type fileKind int

const (
	kindPDF fileKind = iota
	kindXLSX
	kindCSV
	kindDOCX
	kindMarkdown
	kindText
)

var extensions = map[string]fileKind{
	".pdf":      kindPDF,
	".xlsx":     kindXLSX,
	".xlsm":     kindXLSX,
	".csv":      kindCSV,
	".docx":     kindDOCX,
	".md":       kindMarkdown,
	".markdown": kindMarkdown,
	".txt":      kindText,
	".text":     kindText,
}

func parserFor(path string) (fileKind, bool) {
	k, ok := extensions[strings.ToLower(filepath.Ext(path))]
	return k, ok
}

// SupportedExtensions lists the file extensions ingestion reads.
func SupportedExtensions() []string {
	out := make([]string, 0, len(extensions))
	for e := range extensions {
		out = append(out, e)
	}
	sort.Strings(out)
	return out
}

// embedBatch bounds one embeddings request.
const embedBatch = 64

// EmbedChunks sets the Vector of every chunk, embedding EmbeddingText in
// batches; progress, when not nil, is told after each batch.
func EmbedChunks(ctx context.Context, e Embedder, chunks []store.Chunk, progress func(done, total int)) error {
	for start := 0; start < len(chunks); start += embedBatch {
		end := min(start+embedBatch, len(chunks))
		texts := make([]string, 0, end-start)
		for _, c := range chunks[start:end] {
			texts = append(texts, EmbeddingText(c))
		}
		vecs, err := e.Embed(ctx, texts)
		if err != nil {
			return fmt.Errorf("embed: %w", err)
		}
		if len(vecs) != len(texts) {
			return fmt.Errorf("embed: got %d vectors for %d texts", len(vecs), len(texts))
		}
		for i := range vecs {
			chunks[start+i].Vector = vecs[i]
		}
		if progress != nil {
			progress(end, len(chunks))
		}
	}
	return nil
}

// EmbeddingText is what gets embedded for a chunk: its title and section give
// the passage the context a reader would have.
func EmbeddingText(c store.Chunk) string {
	var b strings.Builder
	b.WriteString(c.Title)
	if c.Section != "" {
		b.WriteString(" — ")
		b.WriteString(c.Section)
	}
	if c.Sheet != "" {
		b.WriteString(" — ")
		b.WriteString(c.Sheet)
	}
	b.WriteString("\n")
	b.WriteString(c.Text)
	return b.String()
}
