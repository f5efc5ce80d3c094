package ingest_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cewhq/cew/ingest"
	"github.com/cewhq/cew/store"
	"github.com/cewhq/cew/store/embedded"
	"github.com/cewhq/cew/store/register"
)

const tenant = "acme"

type env struct {
	st  *embedded.Store
	in  *ingest.Ingester
	dir string
}

func newEnv(t *testing.T, maxSize int64) *env {
	t.Helper()
	st, err := embedded.Open(t.TempDir(), embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	pdf := ingest.NewPDF(filepath.Join(os.TempDir(), "cew-test-pdfium-cache"), nil)
	t.Cleanup(func() { pdf.Close() })
	clock := time.Date(2026, 11, 22, 8, 0, 0, 0, time.UTC)
	return &env{
		st:  st,
		in:  ingest.New(ingest.Config{Store: st, PDF: pdf, MaxFileSize: maxSize, Now: func() time.Time { return clock }}),
		dir: t.TempDir(),
	}
}

func (e *env) write(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(e.dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func (e *env) ingest(t *testing.T, paths ...string) ingest.Report {
	t.Helper()
	rep, err := e.in.Ingest(context.Background(), tenant, paths, nil)
	if err != nil {
		t.Fatalf("Ingest: %v", err)
	}
	return rep
}

func result(t *testing.T, rep ingest.Report, suffix string) ingest.FileResult {
	t.Helper()
	for _, f := range rep.Files {
		if strings.HasSuffix(f.Path, suffix) {
			return f
		}
	}
	t.Fatalf("no result for %s in %+v", suffix, rep.Files)
	return ingest.FileResult{}
}

const trenchSpec = "# 4.2 Cable trenches\n\nThe minimum trench depth for DC cables is %s mm from finished ground level.\n"

func spec(depth string) string { return strings.Replace(trenchSpec, "%s", depth, 1) }

func TestRevisionsSupersedeAndHashSkip(t *testing.T) {
	e := newEnv(t, 0)
	ctx := context.Background()
	rev2 := e.write(t, "277-007-D-C-40327 Rev 02 Trenches crossing layout.md", spec("700"))
	rep := e.ingest(t, rev2)
	if f := result(t, rep, "Rev 02 Trenches crossing layout.md"); f.Outcome != ingest.Indexed || f.Number != "277-007-D-C-40327" || f.Revision != "02" {
		t.Fatalf("rev 02: %+v", f)
	}
	rev3 := e.write(t, "277-007-D-C-40327 Rev 03 Trenches crossing layout.md", spec("800"))
	e.ingest(t, rev3)

	hits, err := e.st.Search(ctx, store.SearchRequest{Tenant: tenant, Query: "minimum trench depth DC cables"})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 1 || hits[0].Chunk.Revision != "03" || !strings.Contains(hits[0].Chunk.Text, "800 mm") {
		t.Fatalf("search sees %+v; want only revision 03", hits)
	}
	c := hits[0].Chunk
	if c.DocID != "277-007-d-c-40327" || c.DocNumber != "277-007-D-C-40327" || c.Title != "Trenches crossing layout" ||
		c.Page != 1 || c.Section != "4.2 Cable trenches" || c.Tenant != tenant || c.ContentHash == "" || c.ID != "277-007-d-c-40327/03/0" {
		t.Errorf("chunk metadata = %+v", c)
	}

	entries, err := register.Lookup(ctx, e.st, tenant, "277-007-D-C-40327")
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Revision != "03" || len(entries[0].Superseded) != 1 || entries[0].Superseded[0].Revision != "02" {
		t.Fatalf("register = %+v; want rev 03 superseding 02", entries)
	}

	gen, _ := e.st.Generation(ctx, tenant)
	rep = e.ingest(t, rev2, rev3)
	for _, f := range rep.Files {
		if f.Outcome != ingest.Unchanged {
			t.Errorf("%s re-ingested: %s", f.Path, f.Outcome)
		}
	}
	if gen2, _ := e.st.Generation(ctx, tenant); gen2 != gen {
		t.Errorf("unchanged files changed the index generation %d → %d", gen, gen2)
	}

	// Editing the file of the current revision in place re-indexes it.
	e.write(t, "277-007-D-C-40327 Rev 03 Trenches crossing layout.md", spec("850"))
	if f := result(t, e.ingest(t, rev3), "Rev 03 Trenches crossing layout.md"); f.Outcome != ingest.Indexed {
		t.Errorf("changed file: %s", f.Outcome)
	}
}

func TestRegister(t *testing.T) {
	e := newEnv(t, 0)
	e.write(t, "register.csv", "Document No,Title,Rev,Status,Date,Drive Link,File\n"+
		"277-007-D-C-40327,Trenches crossing layout,03,IFC,2026-10-01,https://drive.google.com/file/d/EXAMPLE-1/view,layout.md\n"+
		"277-007-D-C-40328,Old trench detail,01,Superseded,2025-01-01,https://drive.google.com/file/d/EXAMPLE-2/view,old.md\n")
	e.write(t, "layout.md", spec("800"))
	e.write(t, "old.md", spec("600"))
	e.write(t, "notes.txt", "not in the register")
	rep := e.ingest(t, e.dir)
	if f := result(t, rep, "notes.txt"); f.Outcome != ingest.Ignored {
		t.Errorf("unregistered file: %+v", f)
	}
	if rep.Count(ingest.Failed) != 0 || rep.Count(ingest.Indexed) != 2 {
		t.Fatalf("report: %+v", rep.Files)
	}
	docs, err := e.st.Documents(context.Background(), tenant)
	if err != nil {
		t.Fatal(err)
	}
	byNumber := map[string]store.Document{}
	for _, d := range docs {
		byNumber[d.Number] = d
	}
	d := byNumber["277-007-D-C-40327"]
	if d.Title != "Trenches crossing layout" || d.Revision != "03" || d.Status != "IFC" || d.Date != "2026-10-01" ||
		d.DriveLink != "https://drive.google.com/file/d/EXAMPLE-1/view" || !d.Active {
		t.Errorf("registered document = %+v", d)
	}
	if old := byNumber["277-007-D-C-40328"]; old.Active {
		t.Errorf("a superseded register entry is searchable: %+v", old)
	}
	hits, _ := e.st.Search(context.Background(), store.SearchRequest{Tenant: tenant, Query: "trench depth"})
	for _, h := range hits {
		if h.Chunk.DocNumber == "277-007-D-C-40328" {
			t.Errorf("search returned the superseded document")
		}
		if h.Chunk.DriveLink == "" {
			t.Errorf("chunk without its Drive link: %+v", h.Chunk)
		}
	}
}

func TestBadInput(t *testing.T) {
	e := newEnv(t, 64<<10)
	good := e.write(t, "277-100 Rev 1 Good spec.md", spec("800"))
	e.ingest(t, good)
	before, _ := e.st.Documents(context.Background(), tenant)

	empty := e.write(t, "empty.md", "")
	big := e.write(t, "big.txt", strings.Repeat("trench depth 800 mm. ", 4000))
	unsupported := e.write(t, "drawing.dwg", "AC1032")
	emptyDir := filepath.Join(e.dir, "nothing-here")
	os.MkdirAll(emptyDir, 0o755)
	e.write(t, "nothing-here/readme.dwg", "x")
	dupA := e.write(t, "dup/277-200 Rev 2 Spec A.md", spec("800"))
	dupB := e.write(t, "dup/277-200 Rev 2 Spec B.md", spec("900"))
	clash := e.write(t, "clash/277-100 Rev 1 Good spec.md", spec("999"))
	nonUTF8 := e.write(t, "latin1 notes.txt", "Temp\xe9rature de service 90 \xb0C")
	tests := []struct {
		name    string
		path    string
		want    ingest.Outcome
		wantErr error
	}{
		{"missing path", filepath.Join(e.dir, "no-such-file.pdf"), ingest.Failed, nil},
		{"folder with no supported files", emptyDir, ingest.Failed, nil},
		{"zero-byte file", empty, ingest.Failed, ingest.ErrEmptyFile},
		{"over the size limit", big, ingest.Failed, ingest.ErrTooLarge},
		{"unsupported type", unsupported, ingest.Failed, ingest.ErrUnsupported},
		{"corrupt PDF", "testdata/pdf/corrupt.pdf", ingest.Failed, ingest.ErrCorrupt},
		{"truncated PDF", "testdata/pdf/truncated.pdf", ingest.Failed, ingest.ErrCorrupt},
		{"password-protected PDF", "testdata/pdf/encrypted.pdf", ingest.Failed, ingest.ErrEncrypted},
		{"corrupt spreadsheet", "testdata/sheet/corrupt.xlsx", ingest.Failed, ingest.ErrCorrupt},
		{"merged and empty header cells", "testdata/sheet/merged.xlsx", ingest.Indexed, nil},
		{"non-UTF-8 text", nonUTF8, ingest.Indexed, nil},
		{"same number and revision as another indexed file", clash, ingest.Failed, ingest.ErrDuplicate},
	}
	var paths []string
	for _, tc := range tests {
		paths = append(paths, tc.path)
	}
	paths = append(paths, dupA, dupB)
	rep := e.ingest(t, paths...)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := result(t, rep, strings.TrimPrefix(tc.path, "testdata/"))
			if f.Outcome != tc.want {
				t.Fatalf("outcome = %s (%v), want %s", f.Outcome, f.Err, tc.want)
			}
			if tc.want == ingest.Failed && (f.Err == nil || f.Err.Error() == "") {
				t.Errorf("failed without a reason")
			}
			if tc.wantErr != nil && !errors.Is(f.Err, tc.wantErr) {
				t.Errorf("err = %v, want %v", f.Err, tc.wantErr)
			}
		})
	}
	t.Run("two files claiming one number and revision", func(t *testing.T) {
		a, b := result(t, rep, "Spec A.md"), result(t, rep, "Spec B.md")
		if a.Outcome != ingest.Indexed || b.Outcome != ingest.Failed || !errors.Is(b.Err, ingest.ErrDuplicate) {
			t.Errorf("A: %s %v; B: %s %v", a.Outcome, a.Err, b.Outcome, b.Err)
		}
	})
	t.Run("nothing already indexed is lost", func(t *testing.T) {
		after, _ := e.st.Documents(context.Background(), tenant)
		found := false
		for _, d := range after {
			if d.Number == before[0].Number && d.Revision == before[0].Revision && d.ContentHash == before[0].ContentHash {
				found = true
			}
		}
		if !found {
			t.Errorf("the document indexed before the bad batch changed or vanished: %+v", after)
		}
	})
}

func TestSampleCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("parses the whole sample corpus")
	}
	e := newEnv(t, 0)
	rep := e.ingest(t, "../examples/corpus")
	if rep.Count(ingest.Failed) != 0 || rep.Count(ingest.Indexed) != 7 || rep.Count(ingest.Ignored) != 2 {
		t.Fatalf("report: %+v", rep.Files)
	}
	pages, rows, chunks := rep.Totals()
	if pages != 37 || rows != 3361 || chunks < rows {
		t.Errorf("totals: %d pages, %d rows, %d chunks", pages, rows, chunks)
	}
	tests := []struct {
		query     string
		wantDoc   string
		wantPages []int
		wantSheet string
		wantRow   int
		topN      int
	}{
		{query: "default system losses", wantDoc: "NREL-TP-6A20-62641", wantPages: []int{6, 13}, topN: 5},
		{query: "temperature coefficient premium module", wantDoc: "NREL-TP-6A20-62641", wantPages: []int{7}, topN: 3},
		{query: "SB7000TL-US-22-208V", wantDoc: "CEC-INVERTERS", wantSheet: "CEC_Inverters", wantRow: 1483, topN: 1},
	}
	for _, tc := range tests {
		t.Run(tc.query, func(t *testing.T) {
			hits, err := e.st.Search(context.Background(), store.SearchRequest{Tenant: tenant, Query: tc.query, K: tc.topN})
			if err != nil {
				t.Fatal(err)
			}
			seenPages := map[int]bool{}
			rowFound := false
			for _, h := range hits {
				if h.Chunk.DocNumber != tc.wantDoc {
					continue
				}
				seenPages[h.Chunk.Page] = true
				rowFound = rowFound || (h.Chunk.Sheet == tc.wantSheet && h.Chunk.Row == tc.wantRow)
			}
			for _, p := range tc.wantPages {
				if !seenPages[p] {
					t.Errorf("page %d of %s not in the top %d: %v", p, tc.wantDoc, tc.topN, seenPages)
				}
			}
			if tc.wantRow > 0 && !rowFound {
				t.Errorf("sheet %q row %d not in the top %d", tc.wantSheet, tc.wantRow, tc.topN)
			}
		})
	}
}

func TestCancelledIngestStops(t *testing.T) {
	e := newEnv(t, 0)
	p := e.write(t, "277-300 Rev 1 Spec.md", spec("800"))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := e.in.Ingest(ctx, tenant, []string{p}, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
	if _, err := e.in.Ingest(context.Background(), "", []string{p}, nil); !errors.Is(err, store.ErrNoTenant) {
		t.Errorf("no tenant: err = %v, want ErrNoTenant", err)
	}
}

// lengthEmbedder embeds a text as a 2-d vector of its length.
type lengthEmbedder struct{}

func (lengthEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		out[i] = []float32{float32(len(t)), 1}
	}
	return out, nil
}

func TestConfiguringAnEmbedderReindexes(t *testing.T) {
	e := newEnv(t, 0)
	p := e.write(t, "277-400 Rev 1 Spec.md", spec("800"))
	e.ingest(t, p)
	pdf := ingest.NewPDF("", nil)
	defer pdf.Close()
	withVectors := ingest.New(ingest.Config{Store: e.st, PDF: pdf, Embedder: lengthEmbedder{}, EmbedModel: "len-v1"})
	rep, err := withVectors.Ingest(context.Background(), tenant, []string{p}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if f := result(t, rep, "Spec.md"); f.Outcome != ingest.Indexed {
		t.Fatalf("an unchanged file indexed without vectors was not re-embedded: %s", f.Outcome)
	}
	hits, err := e.st.Search(context.Background(), store.SearchRequest{Tenant: tenant, Query: "trench", Vector: []float32{1, 0}, Mode: store.ModeDense})
	if err != nil || len(hits) == 0 {
		t.Fatalf("dense search after re-embedding: %v, %d hits", err, len(hits))
	}
	rep, _ = withVectors.Ingest(context.Background(), tenant, []string{p}, nil)
	if f := result(t, rep, "Spec.md"); f.Outcome != ingest.Unchanged {
		t.Errorf("second run with the same embedder: %s", f.Outcome)
	}
}

// TestEditedFileFromAnotherDirectory checks that a file indexed by a
// relative path and edited later is re-indexed when the next run names it
// from another working directory: it is still the same file.
func TestEditedFileFromAnotherDirectory(t *testing.T) {
	e := newEnv(t, 0)
	p := e.write(t, "277-500 Rev 1 Spec.md", spec("800"))
	t.Chdir(e.dir)
	e.ingest(t, filepath.Base(p))
	e.write(t, "277-500 Rev 1 Spec.md", spec("850"))
	t.Chdir(t.TempDir())
	if f := result(t, e.ingest(t, p), "Spec.md"); f.Outcome != ingest.Indexed {
		t.Fatalf("edited file: %s (%v), want indexed", f.Outcome, f.Err)
	}
}

// TestRemovedFileReleasesItsRevision follows the advice of ErrDuplicate:
// once the file a revision was indexed from is gone, another file may
// supply that revision.
func TestRemovedFileReleasesItsRevision(t *testing.T) {
	e := newEnv(t, 0)
	a := e.write(t, "a/277-600 Rev 2 Spec.md", spec("800"))
	e.ingest(t, a)
	b := e.write(t, "b/277-600 Rev 2 Spec.md", spec("900"))
	if f := result(t, e.ingest(t, b), "b/277-600 Rev 2 Spec.md"); f.Outcome != ingest.Failed || !errors.Is(f.Err, ingest.ErrDuplicate) {
		t.Fatalf("second file while the first exists: %s (%v), want ErrDuplicate", f.Outcome, f.Err)
	}
	if err := os.Remove(a); err != nil {
		t.Fatal(err)
	}
	if f := result(t, e.ingest(t, b), "b/277-600 Rev 2 Spec.md"); f.Outcome != ingest.Indexed {
		t.Fatalf("after removing the first file: %s (%v), want indexed", f.Outcome, f.Err)
	}
	hits, err := e.st.Search(context.Background(), store.SearchRequest{Tenant: tenant, Query: "minimum trench depth"})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 1 || !strings.Contains(hits[0].Chunk.Text, "900 mm") {
		t.Errorf("search sees %+v, want the second file's text", hits)
	}
}

// TestRegisterAmbiguousFileName checks that a file the register does not
// list is not given the identity of another file that shares its name:
// with two entries named layout.md, a draft in a third folder must be
// ignored, not indexed as the newest revision.
func TestRegisterAmbiguousFileName(t *testing.T) {
	e := newEnv(t, 0)
	e.write(t, "register.csv", "Document No,Title,Rev,Status,File\n"+
		"277-700,Trench layout,02,IFC,rev02/layout.md\n"+
		"277-700,Trench layout,03,IFC,rev03/layout.md\n"+
		"277-701,Cable schedule,01,IFC,schedule.md\n")
	e.write(t, "rev02/layout.md", spec("800"))
	e.write(t, "drafts/layout.md", spec("999"))
	e.write(t, "docs/schedule.md", "Cable schedule for the DC strings.\n")
	rep := e.ingest(t, e.dir)
	cases := []struct {
		file string
		want ingest.Outcome
	}{
		{"rev02/layout.md", ingest.Indexed},
		{"drafts/layout.md", ingest.Ignored},
		// A name the register lists once still finds its entry from any folder.
		{"docs/schedule.md", ingest.Indexed},
	}
	for _, c := range cases {
		if f := result(t, rep, c.file); f.Outcome != c.want {
			t.Errorf("%s: %s (%v), want %s", c.file, f.Outcome, f.Err, c.want)
		}
	}
	if f := result(t, rep, "drafts/layout.md"); f.Err == nil || !strings.Contains(f.Err.Error(), "several") {
		t.Errorf("ignored draft: %v, want a reason naming the shared file name", f.Err)
	}
	docs, err := e.st.Documents(context.Background(), tenant)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range docs {
		if d.Number == "277-700" && (d.Revision != "02" || !d.Active) {
			t.Errorf("indexed %s revision %s (active %v), want only revision 02", d.Number, d.Revision, d.Active)
		}
	}
}

// TestEmptyFolderAfterIgnoredFiles checks that a folder with nothing to
// read is reported even when an earlier path of the batch had files the
// register ignores.
func TestEmptyFolderAfterIgnoredFiles(t *testing.T) {
	e := newEnv(t, 0)
	e.write(t, "a/register.csv", "Document No,Rev,File\n277-800,1,spec.md\n")
	e.write(t, "a/spec.md", spec("800"))
	e.write(t, "a/notes.txt", "not in the register")
	e.write(t, "b/drawing.dwg", "AC1032")
	b := filepath.Join(e.dir, "b")
	rep := e.ingest(t, filepath.Join(e.dir, "a"), b)
	if f := result(t, rep, "notes.txt"); f.Outcome != ingest.Ignored {
		t.Errorf("unlisted file: %s, want ignored", f.Outcome)
	}
	if f := result(t, rep, "b"); f.Outcome != ingest.Failed || f.Err == nil {
		t.Errorf("folder with no supported files: %s (%v), want failed", f.Outcome, f.Err)
	}
}

// cancellingEmbedder cancels the ingest's context, as a user pressing
// Ctrl-C while chunks are being embedded would.
type cancellingEmbedder struct{ cancel context.CancelFunc }

func (e cancellingEmbedder) Embed(ctx context.Context, _ []string) ([][]float32, error) {
	e.cancel()
	return nil, ctx.Err()
}

func TestCancelledWhileEmbedding(t *testing.T) {
	e := newEnv(t, 0)
	p := e.write(t, "277-900 Rev 1 Spec.md", spec("800"))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pdf := ingest.NewPDF("", nil)
	defer pdf.Close()
	in := ingest.New(ingest.Config{Store: e.st, PDF: pdf, Embedder: cancellingEmbedder{cancel}, EmbedModel: "m"})
	if _, err := in.Ingest(ctx, tenant, []string{p}, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

// TestContentHashIsFileSHA256 pins the content hash to the SHA-256 of the
// file's bytes, which indexes already on disk were built with: any other
// value would re-index every unchanged file.
func TestContentHashIsFileSHA256(t *testing.T) {
	e := newEnv(t, 0)
	content := spec("800")
	e.ingest(t, e.write(t, "277-950 Rev 1 Spec.md", content))
	docs, err := e.st.Documents(context.Background(), tenant)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(content))
	if len(docs) != 1 || docs[0].ContentHash != hex.EncodeToString(sum[:]) {
		t.Errorf("documents = %+v, want one with content hash %x", docs, sum)
	}
}

// recordingEmbedder embeds like lengthEmbedder and records the size of each
// request; it fails every request while failing is set.
type recordingEmbedder struct {
	mu       sync.Mutex
	requests []int
	failing  bool
}

func (r *recordingEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.requests = append(r.requests, len(texts))
	if r.failing {
		return nil, errors.New("embeddings endpoint down")
	}
	return lengthEmbedder{}.Embed(ctx, texts)
}

// TestEmbeddingAcrossDocuments: the chunks of many small files share
// embedding requests, each file still gets its own vectors and its result
// in input order, and a failed request fails the files it carried without
// indexing them.
func TestEmbeddingAcrossDocuments(t *testing.T) {
	e := newEnv(t, 0)
	var paths []string
	for i := range 5 {
		paths = append(paths, e.write(t, fmt.Sprintf("277-6%02d Rev 1 Note %d.md", i, i), strings.Repeat("x", i+1)+" trench depth note.\n"))
	}
	pdf := ingest.NewPDF("", nil)
	defer pdf.Close()
	emb := &recordingEmbedder{failing: true}
	var progress []int
	in := ingest.New(ingest.Config{Store: e.st, PDF: pdf, Embedder: emb, EmbedModel: "len-v1",
		EmbedProgress: func(done, total int) { progress = append(progress, done, total) }})

	rep, err := in.Ingest(context.Background(), tenant, paths, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Count(ingest.Failed) != 5 || len(emb.requests) != 1 {
		t.Fatalf("with the endpoint down: %d failed in %d requests, want 5 in 1", rep.Count(ingest.Failed), len(emb.requests))
	}
	if docs, _ := e.st.Documents(context.Background(), tenant); len(docs) != 0 {
		t.Fatalf("%d documents indexed without embeddings", len(docs))
	}

	emb.failing, emb.requests = false, nil
	var done []string
	rep, err = in.Ingest(context.Background(), tenant, paths, func(_, _ int, res ingest.FileResult) { done = append(done, filepath.Base(res.Path)) })
	if err != nil {
		t.Fatal(err)
	}
	if rep.Count(ingest.Indexed) != 5 || len(emb.requests) != 1 || emb.requests[0] != 5 {
		t.Fatalf("indexed %d in requests %v, want 5 in one request of 5", rep.Count(ingest.Indexed), emb.requests)
	}
	if len(done) != 5 || !slices.Equal(progress[len(progress)-2:], []int{5, 5}) {
		t.Errorf("progress: files %v, embedding %v", done, progress)
	}
	for i, f := range rep.Files {
		if f.Path != paths[i] {
			t.Errorf("result %d is %s, want %s", i, f.Path, paths[i])
		}
	}
	// Each file's chunk has its own text's vector: the longer the note,
	// the nearer to (1, 0) its length vector points.
	hits, err := e.st.Search(context.Background(), store.SearchRequest{Tenant: tenant, Query: "note", Vector: []float32{1, 0}, Mode: store.ModeDense, K: 5})
	if err != nil || len(hits) != 5 {
		t.Fatalf("dense search: %v, %d hits", err, len(hits))
	}
	if hits[0].Chunk.DocNumber != "277-604" || hits[4].Chunk.DocNumber != "277-600" {
		t.Errorf("vectors attached to the wrong files: first %s, last %s", hits[0].Chunk.DocNumber, hits[4].Chunk.DocNumber)
	}
}

// TestUnknownRevision: a file whose name and register name no revision is
// indexed with revision "" (not a made-up "0"), a version in the name is
// its revision, and a named revision supersedes the unknown one.
func TestUnknownRevision(t *testing.T) {
	e := newEnv(t, 0)
	ctx := context.Background()
	plain := e.write(t, "ABC-100 Trench specification.md", spec("600"))
	versioned := e.write(t, "ABC-200_Cable schedule_v4.md", "# Cables\n\nDC cables are 6 mm2.\n")
	rep := e.ingest(t, plain, versioned)
	if f := result(t, rep, "ABC-100 Trench specification.md"); f.Outcome != ingest.Indexed || f.Revision != "" {
		t.Errorf("no revision anywhere: %+v, want revision \"\"", f)
	}
	if f := result(t, rep, "_v4.md"); f.Revision != "4" {
		t.Errorf("_v4: revision %q, want 4", f.Revision)
	}
	hits, err := e.st.Search(ctx, store.SearchRequest{Tenant: tenant, Query: "minimum trench depth"})
	if err != nil || len(hits) == 0 || hits[0].Chunk.Revision != "" || hits[0].Chunk.ID != "abc-100//0" {
		t.Fatalf("search: %v %+v", err, hits)
	}
	named := e.write(t, "ABC-100 Rev A Trench specification.md", spec("800"))
	e.ingest(t, named)
	entries, err := register.Lookup(ctx, e.st, tenant, "ABC-100")
	if err != nil || len(entries) != 1 || entries[0].Revision != "A" || len(entries[0].Superseded) != 1 || entries[0].Superseded[0].Revision != "" {
		t.Errorf("register = %+v, %v; want A superseding the unknown revision", entries, err)
	}
}

// TestLegacyRevisionZeroKept: an index that stored a file naming no
// revision as "0" keeps that revision for the same file, so it is not
// indexed a second time under "" beside a stale active "0".
func TestLegacyRevisionZeroKept(t *testing.T) {
	e := newEnv(t, 0)
	ctx := context.Background()
	path := e.write(t, "ABC-100 Trench specification.md", spec("600"))
	abs, _ := filepath.Abs(path)
	legacy := store.Document{Tenant: tenant, ID: "abc-100", Number: "ABC-100", Title: "Trench specification", Revision: "0", File: abs}
	chunk := store.Chunk{ID: store.ChunkID("abc-100", "0", 0), Tenant: tenant, DocID: "abc-100", Revision: "0", Text: "old text"}
	if err := e.st.PutDocument(ctx, legacy, []store.Chunk{chunk}); err != nil {
		t.Fatal(err)
	}
	e.write(t, "ABC-100 Trench specification.md", spec("650"))
	if f := result(t, e.ingest(t, path), "Trench specification.md"); f.Outcome != ingest.Indexed || f.Revision != "0" {
		t.Errorf("legacy file: %+v, want re-indexed as revision 0", f)
	}
	docs, _ := e.st.Documents(ctx, tenant)
	if len(docs) != 1 {
		t.Errorf("%d revisions stored, want the one", len(docs))
	}
}

// flipBytes returns a copy of the file at path with n bytes inverted at
// random (but always the same) places, away from the header and the
// end-of-file marker, as a bad download or disk would damage it.
func flipBytes(t *testing.T, path string, n int, seed uint64) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(seed, seed))
	for range n {
		data[1024+r.IntN(len(data)-1024-2048)] ^= 0xff
	}
	return data
}

// TestPartlyReadablePDF: a PDF with 2,000 flipped bytes is indexed with the
// pages that still read, and the pages that do not are reported.
func TestPartlyReadablePDF(t *testing.T) {
	if testing.Short() {
		t.Skip("parses a 20-page PDF")
	}
	e := newEnv(t, 0)
	src := "../examples/corpus/pdf/NREL-TP-6A20-62641_PVWatts_Version5_Manual.pdf"
	for _, seed := range []uint64{2, 3, 4} {
		name := fmt.Sprintf("PVWatts damaged %d.pdf", seed)
		path := e.write(t, name, string(flipBytes(t, src, 2000, seed)))
		f := result(t, e.ingest(t, path), name)
		if f.Outcome != ingest.Indexed || !f.Partial() || len(f.Unreadable) >= f.Pages || f.Pages != 20 {
			t.Errorf("seed %d: %s, %d of %d pages unreadable (%v), err %v; want indexed with some pages reported",
				seed, f.Outcome, len(f.Unreadable), f.Pages, f.Unreadable, f.Err)
		}
	}
	// With these flips the cross-reference table is gone: nothing to read.
	lost := e.write(t, "PVWatts lost.pdf", string(flipBytes(t, src, 2000, 1)))
	if f := result(t, e.ingest(t, lost), "lost.pdf"); f.Outcome != ingest.Failed || !errors.Is(f.Err, ingest.ErrCorrupt) {
		t.Errorf("unreadable PDF: %s (%v), want failed, corrupt", f.Outcome, f.Err)
	}
	intact := result(t, e.ingest(t, src), "Manual.pdf")
	if intact.Outcome != ingest.Indexed || intact.Partial() {
		t.Errorf("the intact PDF: %s, unreadable pages %v", intact.Outcome, intact.Unreadable)
	}
}
