package drive_test

import (
	"archive/zip"
	"bytes"
	"context"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/cewhq/cew/drive"
	"github.com/cewhq/cew/drive/drivetest"
	"github.com/cewhq/cew/ingest"
	"github.com/cewhq/cew/store"
	"github.com/cewhq/cew/store/embedded"
)

// fixture is a stand-in Drive, an embedded index and a syncer between
// them, with the syncer's waits recorded instead of slept.
type fixture struct {
	t      testing.TB
	srv    *drivetest.Server
	st     store.Store
	in     *ingest.Ingester
	client *drive.Client
	syncer *drive.Syncer
	dir    string

	mu     sync.Mutex
	sleeps []time.Duration
}

type fixtureOptions struct {
	auth       bool
	batchFiles int
	ingester   func(*ingest.Ingester) drive.Ingester
	maxSize    int64
	// follow syncs as cew serve does: into the embedded index a server
	// follows, one write per batch.
	follow bool
	// store, when set, is the index instead of an embedded one.
	store store.Store
}

func newFixture(t testing.TB, o fixtureOptions) *fixture {
	t.Helper()
	f := &fixture{t: t, srv: drivetest.New(o.auth), dir: t.TempDir()}
	t.Cleanup(f.srv.Close)
	var (
		st  store.Store
		err error
	)
	indexDir := t.TempDir()
	switch {
	case o.store != nil:
		st = o.store
	case o.follow:
		st, err = embedded.OpenFollower(indexDir, embedded.Options{})
	default:
		st, err = embedded.Open(indexDir, embedded.Options{})
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	f.st = st
	pdf := ingest.NewPDF(filepath.Join(os.TempDir(), "cew-test-pdfium-cache"), nil)
	t.Cleanup(func() { pdf.Close() })
	cfg := ingest.Config{Store: st, PDF: pdf}
	f.in = ingest.New(cfg)
	opts := drive.ClientOptions{Endpoint: f.srv.Endpoint(), Sleep: f.sleep}
	if o.auth {
		key, err := f.srv.ServiceAccountJSON(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		opts.CredentialsFile = key
	} else {
		opts.HTTPClient = &http.Client{}
	}
	f.client, err = drive.NewClient(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	var in drive.Ingester = f.in
	if w, ok := st.(drive.StoreWriter); ok {
		in = drive.WriteInBatches(w, cfg)
	}
	if o.ingester != nil {
		in = o.ingester(f.in)
	}
	f.syncer, err = drive.NewSyncer(drive.Options{Client: f.client, Ingester: in, Dir: f.dir, BatchFiles: o.batchFiles, MaxFileSize: o.maxSize})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func (f *fixture) sleep(ctx context.Context, d time.Duration) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sleeps = append(f.sleeps, d)
	return ctx.Err()
}

func (f *fixture) waits() []time.Duration {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.sleeps)
}

// sync runs one sync and fails the test on an error.
func (f *fixture) sync(tenant, root string) drive.Report {
	f.t.Helper()
	rep, err := f.syncer.Sync(context.Background(), tenant, root)
	if err != nil {
		f.t.Fatalf("sync %s/%s: %v\nreport: %+v", tenant, root, err, rep)
	}
	return rep
}

// search returns the hits of a keyword search in a tenant.
func (f *fixture) search(tenant, q string) []store.Hit {
	f.t.Helper()
	hits, err := f.st.Search(context.Background(), store.SearchRequest{Tenant: tenant, Query: q, Mode: store.ModeKeyword})
	if err != nil {
		f.t.Fatal(err)
	}
	return hits
}

// linksFor returns the Drive links of the hits whose text holds phrase.
func (f *fixture) linksFor(tenant, q, phrase string) []string {
	f.t.Helper()
	var out []string
	for _, h := range f.search(tenant, q) {
		if strings.Contains(h.Chunk.Text, phrase) {
			out = append(out, h.Chunk.DriveLink)
		}
	}
	return out
}

func (f *fixture) documents(tenant string) []store.Document {
	f.t.Helper()
	docs, err := f.st.Documents(context.Background(), tenant)
	if err != nil {
		f.t.Fatal(err)
	}
	return docs
}

// document returns the revision of a document number, or fails.
func (f *fixture) document(tenant, number, revision string) store.Document {
	f.t.Helper()
	for _, d := range f.documents(tenant) {
		if d.Number == number && d.Revision == revision {
			return d
		}
	}
	f.t.Fatalf("no %s revision %q in %s: %+v", number, revision, tenant, f.documents(tenant))
	return store.Document{}
}

func outcomes(rep drive.Report) map[string]string {
	out := map[string]string{}
	for _, r := range rep.Files {
		out[r.Path] = r.Outcome
	}
	return out
}

func webViewLink(id string) string {
	return "https://drive.google.com/file/d/" + id + "/view?usp=drivesdk"
}

// docx builds a Word document of paragraphs, the first a heading.
func docx(t testing.TB, heading string, paragraphs ...string) []byte {
	t.Helper()
	var body strings.Builder
	body.WriteString(`<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>` + heading + `</w:t></w:r></w:p>`)
	for _, p := range paragraphs {
		body.WriteString(`<w:p><w:r><w:t xml:space="preserve">` + p + `</w:t></w:r></w:p>`)
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	parts := map[string]string{
		"[Content_Types].xml": `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`,
		"word/document.xml":   `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>` + body.String() + `</w:body></w:document>`,
	}
	for _, name := range []string{"[Content_Types].xml", "word/document.xml"} {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(parts[name])); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// xlsx builds a workbook with one sheet of rows, the first the header.
func xlsx(t testing.TB, sheet string, rows [][]any) []byte {
	t.Helper()
	x := excelize.NewFile()
	defer x.Close()
	if err := x.SetSheetName("Sheet1", sheet); err != nil {
		t.Fatal(err)
	}
	for i, row := range rows {
		cell, _ := excelize.CoordinatesToCellName(1, i+1)
		if err := x.SetSheetRow(sheet, cell, &row); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	if err := x.Write(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func md(heading, body string) []byte {
	return []byte("# " + heading + "\n\n" + body + "\n")
}
