package ingest_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/cewhq/cew/ingest"
	"github.com/cewhq/cew/ingest/ingesttest"
	"github.com/cewhq/cew/store"
	"github.com/cewhq/cew/store/embedded"
)

// smallLimits is LimitsFor a budget small enough that the probe files stay
// a few megabytes in a unit test.
func smallLimits() ingest.Limits {
	lim := ingest.LimitsFor(8) // 1 MB of text, 1,600 blocks, 32,768 cells
	lim.MaxLine = 256 << 10
	lim.MaxPages = 20
	return lim
}

func newLimitedEnv(t *testing.T, lim ingest.Limits) *env {
	t.Helper()
	e := newEnv(t, 0)
	pdf := ingest.NewPDF(filepath.Join(os.TempDir(), "cew-test-pdfium-cache"), nil)
	t.Cleanup(func() { pdf.Close() })
	e.in = ingest.New(ingest.Config{Store: e.st, PDF: pdf, Limits: lim})
	return e
}

// TestLimitsRefuseHostileFiles: each probe file is skipped with the limit
// it crossed, the batch goes on, and nothing of it is indexed.
func TestLimitsRefuseHostileFiles(t *testing.T) {
	tests := []struct {
		name, file string
		make       func(path string) error
		want       string
	}{
		{name: "a CSV line of 600,000 cells", file: "wide.csv",
			make: func(p string) error { return ingesttest.WideCSV(p, 1_200_000) }, want: "longer than"},
		{name: "a CSV row of 20,000 columns", file: "columns.csv",
			make: func(p string) error { return ingesttest.WideCSV(p, 40_000) }, want: "20,000 columns"},
		{name: "a DOCX expanding 1000-fold", file: "bomb.docx",
			make: func(p string) error { return ingesttest.DOCXBomb(p, 8<<20) }, want: "expands to"},
		{name: "a DOCX with more text than the budget", file: "long.docx",
			make: func(p string) error { return ingesttest.DOCXBomb(p, 1_900_000) }, want: "of text"},
		{name: "an XLSX expanding 1000-fold", file: "bomb.xlsx",
			make: func(p string) error { return ingesttest.XLSXBomb(p, 8<<20) }, want: "expands to more than"},
		{name: "a sheet of more cells than the budget", file: "huge.xlsx",
			make: func(p string) error { return ingesttest.Sheet(p, 700, 50) }, want: "cells"},
		{name: "a sheet of more rows than the budget", file: "rows.xlsx",
			make: func(p string) error { return ingesttest.Sheet(p, 3_000, 1) }, want: "rows or paragraphs"},
		{name: "a PDF of more pages than the budget", file: "pages.pdf",
			make: func(p string) error { return ingesttest.PagesPDF(p, 100) }, want: "100 pages"},
		{name: "a text file of more text than the budget", file: "long.md",
			make: func(p string) error {
				return os.WriteFile(p, []byte(strings.Repeat("The trench depth is 800 mm.\n\n", 60_000)), 0o644)
			}, want: "of text"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newLimitedEnv(t, smallLimits())
			bad := filepath.Join(e.dir, tt.file)
			if err := tt.make(bad); err != nil {
				t.Fatal(err)
			}
			good := e.write(t, "277-300 Rev 1 Spec.md", spec("800"))
			rep := e.ingest(t, bad, good)
			res := result(t, rep, tt.file)
			if res.Outcome != ingest.Failed || !errors.Is(res.Err, ingest.ErrLimit) || !strings.Contains(res.Err.Error(), tt.want) {
				t.Fatalf("%s: %s %v, want skipped with a limit naming %q", tt.file, res.Outcome, res.Err, tt.want)
			}
			if r := result(t, rep, "Spec.md"); r.Outcome != ingest.Indexed {
				t.Errorf("the good file after it: %s %v", r.Outcome, r.Err)
			}
			docs, _ := e.st.Documents(context.Background(), tenant)
			if len(docs) != 1 {
				t.Errorf("%d documents indexed, want only the good one", len(docs))
			}
		})
	}
}

// TestDeepNestingReads: tables nested ten thousand deep are read (their
// text indexed), not a crash or a refusal.
func TestDeepNestingReads(t *testing.T) {
	e := newLimitedEnv(t, smallLimits())
	p := filepath.Join(e.dir, "277-500 Rev 1 Nested.docx")
	if err := ingesttest.DeepDOCX(p, 10_000); err != nil {
		t.Fatal(err)
	}
	rep := e.ingest(t, p)
	if r := result(t, rep, "Nested.docx"); r.Outcome != ingest.Indexed || r.Chunks == 0 {
		t.Fatalf("%s %v", r.Outcome, r.Err)
	}
}

// TestChunksHaveAByteLimit: text without spaces is cut between characters
// into chunks of at most DefaultMaxChunkBytes, and nothing is lost.
func TestChunksHaveAByteLimit(t *testing.T) {
	tests := []struct {
		name string
		text string
	}{
		{name: "one 1 MB word", text: strings.Repeat("0123456789abcdef", 1<<16)},
		{name: "multi-byte characters", text: strings.Repeat("é€𝄞", 30_000)},
		{name: "long words between short ones", text: "Depth " + strings.Repeat("x", 40_000) + " is 800 mm " + strings.Repeat("y", 20_000)},
		{name: "ordinary prose stays whole", text: strings.Repeat("The minimum trench depth is 800 mm. ", 20)},
	}
	doc := store.Document{Tenant: tenant, ID: "d", Number: "D", Revision: "1"}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			chunks := ingest.Chunk(doc, []ingest.Block{{Page: 1, Text: tt.text}}, ingest.DefaultChunkOptions)
			var all strings.Builder
			for _, c := range chunks {
				if len(c.Text) > ingest.DefaultMaxChunkBytes {
					t.Fatalf("a chunk of %d bytes", len(c.Text))
				}
				if !utf8.ValidString(c.Text) {
					t.Fatalf("a chunk cut inside a character")
				}
				all.WriteString(strings.ReplaceAll(strings.ReplaceAll(c.Text, " ", ""), "\n", ""))
			}
			if want := strings.ReplaceAll(tt.text, " ", ""); len(tt.text) > ingest.DefaultMaxChunkBytes && all.String() != want {
				t.Errorf("text lost: %d bytes chunked, %d given", all.Len(), len(want))
			}
			if len(tt.text) <= ingest.DefaultMaxChunkBytes && len(chunks) != 1 {
				t.Errorf("short text in %d chunks", len(chunks))
			}
		})
	}
	for _, f := range []struct {
		name string
		size int64
	}{{"277-600 Rev 1 Cell.csv", 900 << 10}, {"277-601 Rev 1 Blob.txt", 2 << 20}} {
		t.Run("a file of one "+byteSizeForTest(f.size)+" run without spaces: "+filepath.Ext(f.name), func(t *testing.T) {
			e := newEnv(t, 0)
			p := filepath.Join(e.dir, f.name)
			if err := ingesttest.SingleCellCSV(p, f.size); err != nil {
				t.Fatal(err)
			}
			r := result(t, e.ingest(t, p), f.name)
			if r.Outcome != ingest.Indexed || r.Chunks < int(f.size)/ingest.DefaultMaxChunkBytes {
				t.Fatalf("%s, %d chunks (%v)", r.Outcome, r.Chunks, r.Err)
			}
		})
	}
}

func byteSizeForTest(n int64) string { return fmt.Sprintf("%d KB", n>>10) }

// cancelInsidePut cancels the batch after the store has checked its
// context checks times inside PutDocument: a SIGTERM arriving while the
// chunks are analysed, or while the transaction writes them.
type cancelInsidePut struct {
	*embedded.Store
	cancel context.CancelFunc
	checks int32
}

func (c cancelInsidePut) PutDocument(ctx context.Context, doc store.Document, chunks []store.Chunk) error {
	cc := &countdown{Context: ctx, cancel: c.cancel}
	cc.left.Store(c.checks)
	return c.Store.PutDocument(cc, doc, chunks)
}

// countdown is a context that turns cancelled on its n-th Err call.
type countdown struct {
	context.Context
	left   atomic.Int32
	cancel context.CancelFunc
}

func (c *countdown) Err() error {
	if c.left.Add(-1) < 0 {
		c.cancel()
		return context.Canceled
	}
	return c.Context.Err()
}

// TestCancelWhileWriting: a cancel that arrives while a document is being
// written leaves the index as it was (the document wholly absent), and the
// file says why it was not indexed.
func TestCancelWhileWriting(t *testing.T) {
	tests := []struct {
		name   string
		checks int32
	}{
		// 3,000 chunks: two checks on entry, one per 256 chunks analysed
		// (12), one per 256 chunks written (12).
		{name: "while the chunks are analysed", checks: 4},
		{name: "inside the write transaction", checks: 16},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, 0)
			dir := t.TempDir()
			st, err := embedded.Open(dir, embedded.Options{})
			if err != nil {
				t.Fatal(err)
			}
			e.st.Close()
			e.st = st
			pdf := ingest.NewPDF("", nil)
			defer pdf.Close()
			e.in = ingest.New(ingest.Config{Store: st, PDF: pdf})
			first := e.write(t, "277-700 Rev 1 First.md", spec("800"))
			e.ingest(t, first)
			gen, _ := e.st.Generation(context.Background(), tenant)

			var rows strings.Builder
			rows.WriteString("Cable,Depth (mm)\n")
			for i := range 3000 {
				fmt.Fprintf(&rows, "DC cable %d,800\n", i)
			}
			big := e.write(t, "277-701 Rev 1 Schedule.csv", rows.String())
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			in := ingest.New(ingest.Config{Store: cancelInsidePut{e.st, cancel, tt.checks}, PDF: pdf,
				Now: func() time.Time { return time.Date(2026, 11, 22, 8, 0, 0, 0, time.UTC) }})
			rep, err := in.Ingest(ctx, tenant, []string{big}, nil)
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("err = %v, want cancelled", err)
			}
			r := result(t, rep, "Schedule.csv")
			if r.Outcome != ingest.Failed || !errors.Is(r.Err, ingest.ErrCancelled) {
				t.Errorf("result = %s %v, want a cancelled file with its reason", r.Outcome, r.Err)
			}
			docs, _ := e.st.Documents(context.Background(), tenant)
			if len(docs) != 1 || docs[0].Number != "277-700" {
				t.Errorf("documents after the cancelled write: %+v", docs)
			}
			if g, _ := e.st.Generation(context.Background(), tenant); g != gen {
				t.Errorf("generation moved from %d to %d", gen, g)
			}
			// Reopened from disk: the transaction left nothing behind.
			st.Close()
			if st, err = embedded.Open(dir, embedded.Options{}); err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			hits, err := st.Search(context.Background(), store.SearchRequest{Tenant: tenant, Query: "DC cable 1500", K: 5})
			if err != nil {
				t.Fatal(err)
			}
			for _, h := range hits {
				if strings.HasPrefix(h.Chunk.DocID, "277-701") {
					t.Errorf("a chunk of the cancelled document is on disk: %s", h.Chunk.ID)
				}
			}
		})
	}
}
