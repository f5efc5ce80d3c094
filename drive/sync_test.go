package drive_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cewhq/cew/drive"
	"github.com/cewhq/cew/drive/drivetest"
	"github.com/cewhq/cew/ingest"
	"github.com/cewhq/cew/store"
)

const tenant = "acme"

// TestFullSync lists a folder with nested subfolders page by page (two
// files a page), downloads what cew reads, exports a Google Doc as DOCX and
// a Sheet as XLSX, skips what it cannot read, and cites every chunk with
// the file's webViewLink (a PDF's with its page).
func TestFullSync(t *testing.T) {
	f := newFixture(t, fixtureOptions{})
	f.srv.SetMaxPageSize(2)
	root := f.srv.AddFolder("", "Project")
	specs := f.srv.AddFolder(root, "Specifications")
	civil := f.srv.AddFolder(specs, "Civil")
	mdID := f.srv.AddFile(civil, "277-007-S-C-001 Rev 02 Cable trenches.md", "text/markdown",
		md("4.2 Road crossings", "The sleeve for road crossings is 160 mm HDPE."))
	csvID := f.srv.AddFile(root, "Inverter schedule.csv", "text/csv",
		[]byte("Inverter,Rated power (kW),Location\nINV-42,250,Block B\nINV-43,250,Block C\n"))
	docID := f.srv.AddGoogleFile(specs, "Earthing specification", drivetest.DocMIME, drivetest.DOCXMIME,
		docx(t, "Earthing", "Every inverter frame is bonded to the earthing grid with 70 mm2 copper."))
	sheetID := f.srv.AddGoogleFile(root, "Cable schedule", drivetest.SheetMIME, drivetest.XLSXMIME,
		xlsx(t, "Cables", [][]any{{"Cable", "Size", "Route"}, {"C-101", "240 mm2", "Trench T4"}, {"C-102", "185 mm2", "Trench T5"}}))
	pdf, err := os.ReadFile(filepath.Join("..", "ingest", "testdata", "pdf", "layout.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	pdfID := f.srv.AddFile(specs, "Layout report.pdf", "application/pdf", pdf)
	f.srv.AddFile(root, "Site photo.png", "image/png", []byte("\x89PNG\r\n\x1a\nnot really"))
	f.srv.AddFile(root, "README.md", "text/markdown", md("Read me", "This folder holds the project documents."))
	f.srv.AddGoogleFile(root, "Kick-off deck", drivetest.SlidesMIME, "application/pdf", []byte("%PDF"))

	rep := f.sync(tenant, root)
	if !rep.Full || rep.Name != "Project" || rep.Seen != 8 {
		t.Errorf("report: full %v, name %q, seen %d; want a full listing of Project's 8 files", rep.Full, rep.Name, rep.Seen)
	}
	got := outcomes(rep)
	want := map[string]string{
		"Specifications/Civil/277-007-S-C-001 Rev 02 Cable trenches.md": "indexed",
		"Inverter schedule.csv":                 "indexed",
		"Specifications/Earthing specification": "indexed",
		"Cable schedule":                        "indexed",
		"Specifications/Layout report.pdf":      "indexed",
		"Site photo.png":                        drive.Skipped,
		"Kick-off deck":                         drive.Skipped,
	}
	for p, o := range want {
		if got[p] != o {
			t.Errorf("%s: outcome %q, want %q (all: %v)", p, got[p], o, got)
		}
	}
	if rep.Downloaded != 5 || rep.Calls == 0 {
		t.Errorf("downloaded %d files in %d calls, want 5 downloads", rep.Downloaded, rep.Calls)
	}
	for _, r := range rep.Files {
		if r.Path == "Kick-off deck" && (r.Err == nil || !strings.Contains(r.Err.Error(), "Google Slides")) {
			t.Errorf("the skipped deck says %v, want it named as Google Slides", r.Err)
		}
	}

	checks := []struct {
		name, query, phrase, link string
	}{
		{"markdown in a nested folder", "sleeve road crossings", "160 mm", webViewLink(mdID)},
		{"csv row", "INV-42 rated power", "INV-42", webViewLink(csvID)},
		{"google doc exported as docx", "inverter frame bonded earthing grid", "70 mm2", "https://docs.google.com/document/d/" + docID + "/edit?usp=drivesdk"},
		{"google sheet exported as xlsx", "C-101 cable size", "C-101", "https://docs.google.com/spreadsheets/d/" + sheetID + "/edit?usp=drivesdk"},
	}
	for _, c := range checks {
		t.Run(c.name, func(t *testing.T) {
			links := f.linksFor(tenant, c.query, c.phrase)
			if len(links) == 0 {
				t.Fatalf("no hit for %q holds %q", c.query, c.phrase)
			}
			for _, l := range links {
				if l != c.link {
					t.Errorf("link %q, want %q", l, c.link)
				}
			}
		})
	}
	t.Run("pdf chunks link to their page", func(t *testing.T) {
		hits, err := f.st.Search(context.Background(), store.SearchRequest{Tenant: tenant, Query: "trench cable project sunfield", Mode: store.ModeKeyword, K: 500})
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, h := range hits {
			if !strings.HasPrefix(h.Chunk.DriveLink, webViewLink(pdfID)) {
				continue
			}
			n++
			if want := fmt.Sprintf("%s#page=%d", webViewLink(pdfID), h.Chunk.Page); h.Chunk.Page == 0 || h.Chunk.DriveLink != want {
				t.Errorf("page %d chunk links %q, want %q", h.Chunk.Page, h.Chunk.DriveLink, want)
			}
		}
		if n < 3 {
			t.Errorf("%d chunks of the 3-page PDF found", n)
		}
	})
	t.Run("identity from the file name", func(t *testing.T) {
		d := f.document(tenant, "277-007-S-C-001", "02")
		if d.Title != "Cable trenches" || d.DriveLink != webViewLink(mdID) || d.File != "drive:"+mdID || !d.Active {
			t.Errorf("document %+v", d)
		}
	})
	t.Run("identity from Drive metadata", func(t *testing.T) {
		var d store.Document
		for _, x := range f.documents(tenant) {
			if x.Number == "Inverter schedule" {
				d = x
			}
		}
		// No revision in the name: the revision is the modification time.
		mod := f.srv.File(csvID).Modified
		if d.Revision != mod.Format("2006-01-02 15:04:05") || d.Date != mod.Format("2006-01-02") {
			t.Errorf("revision %q, date %q; want the modifiedTime", d.Revision, d.Date)
		}
	})

	t.Run("second sync downloads nothing", func(t *testing.T) {
		f.srv.ResetCounts()
		rep := f.sync(tenant, root)
		if rep.Full || rep.Downloaded != 0 || f.srv.BytesServed() != 0 || len(rep.Files) != 0 {
			t.Errorf("an unchanged folder: full %v, downloaded %d (%d bytes), files %+v", rep.Full, rep.Downloaded, f.srv.BytesServed(), rep.Files)
		}
		if calls := f.srv.Calls(); calls["changes.list"] != 1 || f.srv.TotalCalls() != 1 {
			t.Errorf("calls %v, want one changes.list", calls)
		}
	})
}

// TestSharedDrive syncs a shared drive by its id: listings and the
// Changes feed are scoped to it with supportsAllDrives and
// includeItemsFromAllDrives.
func TestSharedDrive(t *testing.T) {
	f := newFixture(t, fixtureOptions{})
	sd := f.srv.AddSharedDrive("Solar Farm")
	sub := f.srv.AddFolder(sd, "Drawings")
	id := f.srv.AddFile(sub, "SF-100 Rev A Substation layout.md", "text/markdown", md("Substation", "The substation transformer is rated 40 MVA."))
	rep := f.sync(tenant, sd)
	if rep.Name != "Solar Farm" || rep.Count("indexed") != 1 {
		t.Fatalf("report %+v", rep)
	}
	if links := f.linksFor(tenant, "substation transformer rated", "40 MVA"); len(links) != 1 || links[0] != webViewLink(id) {
		t.Errorf("links %v", links)
	}
	// A change in another drive is not this root's.
	other := f.srv.AddFolder("", "Elsewhere")
	f.srv.AddFile(other, "Note.md", "text/markdown", md("Note", "Unrelated text about transformers."))
	id2 := f.srv.AddFile(sd, "SF-101 Rev A Earthing.md", "text/markdown", md("Earthing", "Earth electrodes are driven 3 m deep."))
	rep = f.sync(tenant, sd)
	if rep.Seen != 1 || rep.Count("indexed") != 1 {
		t.Errorf("incremental sync of the shared drive: %+v", rep)
	}
	if links := f.linksFor(tenant, "earth electrodes driven deep", "3 m"); len(links) != 1 || links[0] != webViewLink(id2) {
		t.Errorf("links %v", links)
	}
}

// TestIncrementalChanges follows the Changes feed: a new file, a new
// folder with a file, a file moved in from outside, a rename; only what
// changed is downloaded.
func TestIncrementalChanges(t *testing.T) {
	f := newFixture(t, fixtureOptions{})
	f.srv.SetMaxPageSize(3)
	root := f.srv.AddFolder("", "Project")
	for i := range 5 {
		f.srv.AddFile(root, fmt.Sprintf("DOC-%03d Rev 1 Note.md", i), "text/markdown", md("Note", fmt.Sprintf("Note number %d of the project.", i)))
	}
	outside := f.srv.AddFolder("", "Inbox")
	moved := f.srv.AddFile(outside, "DOC-900 Rev 1 Moved.md", "text/markdown", md("Moved", "The fence is 2.4 m high."))
	f.sync(tenant, root)
	if got := len(f.documents(tenant)); got != 5 {
		t.Fatalf("%d documents after the first sync, want 5", got)
	}

	f.srv.ResetCounts()
	added := f.srv.AddFile(root, "DOC-100 Rev 1 Added.md", "text/markdown", md("Added", "The gate is 6 m wide."))
	folder := f.srv.AddFolder(root, "New folder")
	inFolder := f.srv.AddFile(folder, "DOC-101 Rev 1 Nested.md", "text/markdown", md("Nested", "The access road is 5 m wide."))
	f.srv.Move(moved, root)
	f.srv.Touch(added) // a second change of the same file
	rep := f.sync(tenant, root)
	if rep.Full || rep.Downloaded != 3 || rep.Count("indexed") != 3 {
		t.Errorf("incremental: full %v, downloaded %d, indexed %d; want 3 new files", rep.Full, rep.Downloaded, rep.Count("indexed"))
	}
	for _, c := range []struct{ q, phrase, id string }{
		{"gate wide", "6 m", added}, {"access road wide", "5 m", inFolder}, {"fence high", "2.4 m", moved},
	} {
		if links := f.linksFor(tenant, c.q, c.phrase); len(links) != 1 || links[0] != webViewLink(c.id) {
			t.Errorf("%q: links %v", c.q, links)
		}
	}

	// A rename that keeps number and revision updates the title, content
	// unchanged.
	f.srv.Rename(added, "DOC-100 Rev 1 Main gate.md")
	rep = f.sync(tenant, root)
	if d := f.document(tenant, "DOC-100", "1"); d.Title != "Main gate" {
		t.Errorf("after the rename the title is %q (report %+v)", d.Title, rep.Files)
	}
}

// TestReplacedFile: a new version of a file becomes a new revision that
// supersedes the old; a file replaced by another (the next revision,
// uploaded beside it, the old one trashed) moves the link to the new file.
func TestReplacedFile(t *testing.T) {
	forEachIndex(t, func(t *testing.T, o fixtureOptions) {
		testReplacedFile(t, o)
	})
}

func testReplacedFile(t *testing.T, o fixtureOptions) {
	f := newFixture(t, o)
	root := f.srv.AddFolder("", "Project")
	unlabeled := f.srv.AddFile(root, "Method statement.md", "text/markdown", md("Method", "Backfill is placed in layers of 300 mm."))
	old := f.srv.AddFile(root, "277-007-D-C-40327 Rev 03 Trenches.md", "text/markdown", md("Trenches", "DC cables are laid at 800 mm depth."))
	f.sync(tenant, root)

	t.Run("new version of the same file", func(t *testing.T) {
		f.srv.Tick(time.Hour)
		f.srv.Update(unlabeled, md("Method", "Backfill is placed in layers of 250 mm."))
		rep := f.sync(tenant, root)
		if rep.Count("indexed") != 1 {
			t.Fatalf("report %+v", rep.Files)
		}
		var revs []store.Document
		for _, d := range f.documents(tenant) {
			if d.Number == "Method statement" {
				revs = append(revs, d)
			}
		}
		if len(revs) != 2 || revs[0].Active || !revs[1].Active || store.CompareRevisions(revs[1].Revision, revs[0].Revision) <= 0 {
			t.Fatalf("revisions %+v: want the newer active, the older kept inactive", revs)
		}
		if links := f.linksFor(tenant, "backfill layers", "250 mm"); len(links) != 1 {
			t.Errorf("the new version is not found: %v", links)
		}
		if links := f.linksFor(tenant, "backfill layers", "300 mm"); len(links) != 0 {
			t.Errorf("the superseded version is still searched: %v", links)
		}
	})

	t.Run("next revision in a new file", func(t *testing.T) {
		replacement := f.srv.AddFile(root, "277-007-D-C-40327 Rev 04 Trenches.md", "text/markdown", md("Trenches", "DC cables are laid at 900 mm depth."))
		f.srv.Trash(old)
		f.sync(tenant, root)
		links := f.linksFor(tenant, "DC cables laid depth", "mm depth")
		if len(links) != 1 || links[0] != webViewLink(replacement) {
			t.Errorf("links %v, want only the replacement's %s", links, webViewLink(replacement))
		}
		if d := f.document(tenant, "277-007-D-C-40327", "04"); !d.Active || d.DriveLink != webViewLink(replacement) {
			t.Errorf("rev 04: %+v", d)
		}
		if d := f.document(tenant, "277-007-D-C-40327", "03"); d.Active || !store.Withdrawn(d.Status) {
			t.Errorf("rev 03 after its file was trashed: %+v", d)
		}
	})
}

// forEachIndex runs a test on the embedded index as cew ingest writes it
// and as cew serve follows it (one write and one reload per batch).
func forEachIndex(t *testing.T, test func(t *testing.T, o fixtureOptions)) {
	for _, c := range []struct {
		name string
		o    fixtureOptions
	}{{"written", fixtureOptions{}}, {"followed", fixtureOptions{follow: true}}} {
		t.Run(c.name, func(t *testing.T) { test(t, c.o) })
	}
}

// TestRemovedFiles: a trashed file, a deleted one, a file moved out and a
// trashed folder's files leave search; a file taken out of the bin comes
// back.
func TestRemovedFiles(t *testing.T) {
	forEachIndex(t, func(t *testing.T, o fixtureOptions) {
		testRemovedFiles(t, o)
	})
}

func testRemovedFiles(t *testing.T, o fixtureOptions) {
	f := newFixture(t, o)
	root := f.srv.AddFolder("", "Project")
	sub := f.srv.AddFolder(root, "Old")
	trashed := f.srv.AddFile(root, "A-1 Rev 1 Alpha.md", "text/markdown", md("Alpha", "Alpha pile length is 12 m."))
	deleted := f.srv.AddFile(root, "A-2 Rev 1 Bravo.md", "text/markdown", md("Bravo", "Bravo pile length is 14 m."))
	movedOut := f.srv.AddFile(root, "A-3 Rev 1 Charlie.md", "text/markdown", md("Charlie", "Charlie pile length is 16 m."))
	f.srv.AddFile(sub, "A-4 Rev 1 Delta.md", "text/markdown", md("Delta", "Delta pile length is 18 m."))
	f.srv.AddFile(root, "A-5 Rev 1 Echo.md", "text/markdown", md("Echo", "Echo pile length is 20 m."))
	elsewhere := f.srv.AddFolder("", "Elsewhere")
	f.sync(tenant, root)
	if n := len(f.search(tenant, "pile length")); n != 5 {
		t.Fatalf("%d hits before, want 5", n)
	}
	f.srv.Trash(trashed)
	f.srv.Delete(deleted)
	f.srv.Move(movedOut, elsewhere)
	f.srv.Trash(sub)
	rep := f.sync(tenant, root)
	if rep.Count(drive.Withdrawn) != 4 {
		t.Errorf("withdrawn %d, want 4: %+v", rep.Count(drive.Withdrawn), rep.Files)
	}
	var left []string
	for _, h := range f.search(tenant, "pile length") {
		left = append(left, h.Chunk.DocNumber)
	}
	if !slices.Equal(left, []string{"A-5"}) {
		t.Errorf("searchable after the removals: %v, want only A-5", left)
	}
	for number, why := range map[string]string{"A-1": "trashed in Drive", "A-2": "deleted", "A-3": "moved out", "A-4": "folder"} {
		if d := f.document(tenant, number, "1"); d.Active || !strings.Contains(d.Status, why) || d.Chunks != 0 {
			t.Errorf("%s: status %q, active %v, chunks %d; want withdrawn (%s)", number, d.Status, d.Active, d.Chunks, why)
		}
	}

	f.srv.Untrash(trashed)
	f.sync(tenant, root)
	if hits := f.linksFor(tenant, "alpha pile length", "12 m"); len(hits) != 1 {
		t.Errorf("a file taken out of the bin is not searchable again: %v", hits)
	}
}

// TestRateLimits: 429 and 403 userRateLimitExceeded are waited out for
// exactly the Retry-After Drive sends, a 503 without one with backoff; a
// 404 is not retried.
func TestRateLimits(t *testing.T) {
	f := newFixture(t, fixtureOptions{})
	root := f.srv.AddFolder("", "Project")
	f.srv.AddFile(root, "R-1 Rev 1 Spec.md", "text/markdown", md("Spec", "The cable tray is 300 mm wide."))
	f.srv.Fail(
		drivetest.Fault{Method: "files.list", Status: 429, Reason: "rateLimitExceeded", RetryAfter: "7"},
		drivetest.Fault{Method: "files.list", Status: 403, Reason: "userRateLimitExceeded", RetryAfter: "3"},
		drivetest.Fault{Method: "files.download", Status: 503, Reason: "backendError"},
	)
	rep := f.sync(tenant, root)
	if rep.Count("indexed") != 1 || rep.Retries != 3 {
		t.Fatalf("indexed %d with %d retries, want 1 with 3", rep.Count("indexed"), rep.Retries)
	}
	waits := f.waits()
	if len(waits) != 3 || waits[0] != 7*time.Second || waits[1] != 3*time.Second || waits[2] <= 0 || waits[2] > 2*time.Second {
		t.Errorf("waits %v, want 7s, 3s (Retry-After) then a first backoff step", waits)
	}
	if calls := f.srv.Calls(); calls["files.list"] != 3 || calls["files.download"] != 2 {
		t.Errorf("calls %v", calls)
	}

	t.Run("a 403 that is not a rate limit is final", func(t *testing.T) {
		f.srv.Fail(drivetest.Fault{Method: "changes.list", Status: 403, Reason: "insufficientFilePermissions"})
		before := len(f.waits())
		if _, err := f.syncer.Sync(context.Background(), tenant, root); err == nil || !strings.Contains(err.Error(), "403") {
			t.Errorf("err = %v, want the 403", err)
		}
		if len(f.waits()) != before {
			t.Errorf("a permission error was retried")
		}
		f.sync(tenant, root) // and the next sync goes on
	})
}

// TestInterruptedDownloadResumes: a download cut half-way resumes from the
// byte it stopped at; the file is indexed once.
func TestInterruptedDownloadResumes(t *testing.T) {
	f := newFixture(t, fixtureOptions{})
	root := f.srv.AddFolder("", "Project")
	body := md("Spec", strings.Repeat("The earthing conductor is 95 mm2 bare copper. ", 400))
	id := f.srv.AddFile(root, "E-1 Rev 2 Earthing.md", "text/markdown", body)
	f.srv.CutDownload(id, len(body)/2)
	rep := f.sync(tenant, root)
	if rep.Count("indexed") != 1 || rep.Retries != 1 {
		t.Fatalf("report %+v, retries %d", rep.Files, rep.Retries)
	}
	if calls := f.srv.Calls(); calls["files.download"] != 2 || f.srv.BytesServed() != int64(len(body)) {
		t.Errorf("%d download requests, %d bytes served for a %d-byte file: want 2 requests, each byte once",
			calls["files.download"], f.srv.BytesServed(), len(body))
	}
	d := f.document(tenant, "E-1", "2")
	hits, err := f.st.Search(context.Background(), store.SearchRequest{Tenant: tenant, Query: "earthing conductor", Mode: store.ModeKeyword, K: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if d.Chunks == 0 || len(hits) != d.Chunks {
		t.Errorf("%d hits for %d chunks", len(hits), d.Chunks)
	}
}

// cancelAfter is an ingester that cancels the sync after n batches, as a
// crash or a shutdown half-way through would.
type cancelAfter struct {
	*ingest.Ingester
	n      int
	cancel context.CancelFunc
}

func (c *cancelAfter) IngestSources(ctx context.Context, tenant string, files []ingest.SourceFile, live func(string) bool, p ingest.Progress) (ingest.Report, error) {
	rep, err := c.Ingester.IngestSources(ctx, tenant, files, live, p)
	if c.n--; c.n == 0 {
		c.cancel()
	}
	return rep, err
}

// TestInterruptedSyncResumes: a sync stopped after its first batch
// resumes where it stopped: no file is downloaded twice, none is missing
// and none is duplicated — for the first full listing and for an
// incremental sync.
func TestInterruptedSyncResumes(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	stopper := &cancelAfter{n: 1, cancel: cancel}
	f := newFixture(t, fixtureOptions{batchFiles: 2, ingester: func(in *ingest.Ingester) drive.Ingester {
		stopper.Ingester = in
		return stopper
	}})
	root := f.srv.AddFolder("", "Project")
	for i := range 5 {
		f.srv.AddFile(root, fmt.Sprintf("P-%d Rev 1 Part.md", i), "text/markdown", md("Part", fmt.Sprintf("Part %d weighs %d kg.", i, 10+i)))
	}
	_, err := f.syncer.Sync(ctx, tenant, root)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want the cancellation", err)
	}
	if n := len(f.documents(tenant)); n != 2 {
		t.Fatalf("%d documents after the first batch, want 2", n)
	}
	rep := f.sync(tenant, root)
	if !rep.Full || rep.Downloaded != 3 {
		t.Errorf("resumed listing downloaded %d files (full %v), want the 3 not yet done", rep.Downloaded, rep.Full)
	}
	if calls := f.srv.Calls(); calls["files.download"] != 5 {
		t.Errorf("%d downloads in all, want 5", calls["files.download"])
	}
	checkEachOnce(t, f, "weighs", 5)

	// The same for an incremental sync.
	for i := 5; i < 10; i++ {
		f.srv.AddFile(root, fmt.Sprintf("P-%d Rev 1 Part.md", i), "text/markdown", md("Part", fmt.Sprintf("Part %d weighs %d kg.", i, 10+i)))
	}
	ctx, cancel = context.WithCancel(context.Background())
	stopper.n, stopper.cancel = 1, cancel
	if _, err := f.syncer.Sync(ctx, tenant, root); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want the cancellation", err)
	}
	rep = f.sync(tenant, root)
	if rep.Full || rep.Downloaded != 3 {
		t.Errorf("resumed incremental sync downloaded %d (full %v), want 3", rep.Downloaded, rep.Full)
	}
	checkEachOnce(t, f, "weighs", 10)
}

func checkEachOnce(t *testing.T, f *fixture, q string, n int) {
	t.Helper()
	hits, err := f.st.Search(context.Background(), store.SearchRequest{Tenant: tenant, Query: q, Mode: store.ModeKeyword, K: 1000})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, h := range hits {
		seen[h.Chunk.DocNumber]++
	}
	if len(hits) != n || len(seen) != n {
		t.Errorf("%d hits over %d documents, want each of %d documents once: %v", len(hits), len(seen), n, seen)
	}
}

// TestTenants: two tenants' folders, with files of the same name, never
// answer for each other.
func TestTenants(t *testing.T) {
	f := newFixture(t, fixtureOptions{})
	acme := f.srv.AddFolder("", "Acme project")
	globex := f.srv.AddFolder("", "Globex project")
	a := f.srv.AddFile(acme, "SPEC-1 Rev 1 Trenches.md", "text/markdown", md("Trenches", "Acme trenches are 800 mm deep."))
	g := f.srv.AddFile(globex, "SPEC-1 Rev 1 Trenches.md", "text/markdown", md("Trenches", "Globex trenches are 1200 mm deep."))
	f.sync("acme", acme)
	f.sync("globex", globex)
	for _, c := range []struct{ tenant, want, wantLink, not string }{
		{"acme", "800 mm", webViewLink(a), "1200 mm"},
		{"globex", "1200 mm", webViewLink(g), "800 mm"},
	} {
		hits := f.search(c.tenant, "trenches deep")
		if len(hits) != 1 || !strings.Contains(hits[0].Chunk.Text, c.want) || hits[0].Chunk.DriveLink != c.wantLink {
			t.Errorf("%s: hits %+v", c.tenant, hits)
		}
		for _, h := range hits {
			if strings.Contains(h.Chunk.Text, c.not) || h.Chunk.Tenant != c.tenant {
				t.Errorf("%s sees another tenant's chunk: %+v", c.tenant, h.Chunk)
			}
		}
	}
	// A change in one tenant's folder does not touch the other.
	f.srv.Trash(a)
	f.sync("acme", acme)
	f.sync("globex", globex)
	if len(f.search("acme", "trenches deep")) != 0 || len(f.search("globex", "trenches deep")) != 1 {
		t.Errorf("after trashing acme's file: acme %d hits, globex %d", len(f.search("acme", "trenches deep")), len(f.search("globex", "trenches deep")))
	}
}

// TestRegisterInDrive: a register in the folder names numbers, titles,
// revisions and statuses; files it does not list are not indexed; a
// change to the register re-identifies files without waiting for them to
// change.
func TestRegisterInDrive(t *testing.T) {
	f := newFixture(t, fixtureOptions{})
	root := f.srv.AddFolder("", "Project")
	sub := f.srv.AddFolder(root, "Drawings")
	trench := f.srv.AddFile(sub, "trench.md", "text/markdown", md("Trenches", "DC cables are laid at 800 mm depth."))
	f.srv.AddFile(root, "notes.md", "text/markdown", md("Notes", "Meeting notes about the 800 mm depth."))
	reg := f.srv.AddGoogleFile(root, "register", drivetest.SheetMIME, drivetest.XLSXMIME, xlsx(t, "Register", [][]any{
		{"Document No", "Title", "Rev", "Status", "File"},
		{"277-007-D-C-40327", "Trenches crossing layout", "03", "IFC", "Drawings/trench.md"},
	}))
	rep := f.sync(tenant, root)
	got := outcomes(rep)
	if got["Drawings/trench.md"] != "indexed" || got["notes.md"] != "ignored" || got["register"] != drive.RegisterRead {
		t.Errorf("outcomes %v", got)
	}
	d := f.document(tenant, "277-007-D-C-40327", "03")
	if d.Title != "Trenches crossing layout" || d.Status != "IFC" || d.DriveLink != webViewLink(trench) {
		t.Errorf("document %+v", d)
	}
	if hits := f.search(tenant, "800 mm depth"); len(hits) != 1 {
		t.Errorf("%d hits, want the registered drawing only", len(hits))
	}

	f.srv.Update(reg, xlsx(t, "Register", [][]any{
		{"Document No", "Title", "Rev", "Status", "File"},
		{"277-007-D-C-40327", "Trenches crossing layout", "03", "Superseded", "Drawings/trench.md"},
	}))
	f.sync(tenant, root)
	if d := f.document(tenant, "277-007-D-C-40327", "03"); d.Status != "Superseded" || d.Active {
		t.Errorf("after the register marks it superseded: %+v", d)
	}
	if hits := f.search(tenant, "800 mm depth"); len(hits) != 0 {
		t.Errorf("a superseded revision is still searched: %d hits", len(hits))
	}
}

// TestDuplicateWaitsForItsRival: two files claiming one number and
// revision with different content: the second is refused while the first
// exists, and takes over once it is trashed.
func TestDuplicateWaitsForItsRival(t *testing.T) {
	f := newFixture(t, fixtureOptions{})
	root := f.srv.AddFolder("", "Project")
	first := f.srv.AddFile(root, "D-1 Rev 1 Foundations.md", "text/markdown", md("Foundations", "Footings are 1.5 m deep."))
	f.sync(tenant, root)
	sub := f.srv.AddFolder(root, "Copies")
	second := f.srv.AddFile(sub, "D-1 Rev 1 Foundations.md", "text/markdown", md("Foundations", "Footings are 1.8 m deep."))
	rep := f.sync(tenant, root)
	var dup drive.FileResult
	for _, r := range rep.Files {
		if r.ID == second {
			dup = r
		}
	}
	if dup.Outcome != "failed" || !errors.Is(dup.Err, ingest.ErrDuplicate) {
		t.Fatalf("the copy: %+v", dup)
	}
	f.srv.ResetCounts()
	f.sync(tenant, root)
	if f.srv.BytesServed() != 0 {
		t.Errorf("the refused copy was downloaded again while its rival exists")
	}
	f.srv.Trash(first)
	f.sync(tenant, root)
	if links := f.linksFor(tenant, "footings deep", "m deep"); len(links) != 1 || links[0] != webViewLink(second) {
		t.Errorf("after the first was trashed: links %v, want the copy's", links)
	}
}

// TestServiceAccount authenticates with a service-account key whose
// token_uri is the stand-in's, as GOOGLE_APPLICATION_CREDENTIALS would.
func TestServiceAccount(t *testing.T) {
	f := newFixture(t, fixtureOptions{auth: true})
	root := f.srv.AddFolder("", "Project")
	f.srv.AddFile(root, "S-1 Rev 1 Spec.md", "text/markdown", md("Spec", "Conduits are 100 mm in diameter."))
	rep := f.sync(tenant, root)
	if rep.Count("indexed") != 1 {
		t.Fatalf("report %+v", rep)
	}
	if calls := f.srv.Calls(); calls["token"] != 1 {
		t.Errorf("%d token grants, want 1 (the token is reused)", calls["token"])
	}
}

// TestBadRoots: a file id, a missing folder and a malformed id are clear
// errors.
func TestBadRoots(t *testing.T) {
	f := newFixture(t, fixtureOptions{})
	root := f.srv.AddFolder("", "Project")
	file := f.srv.AddFile(root, "a.md", "text/markdown", md("A", "a"))
	cases := []struct{ name, id, want string }{
		{"a file", file, "is a file, not a folder"},
		{"missing", "nosuchfolder", "not found or not shared"},
		{"malformed", "../etc", "is not a Drive folder"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := f.syncer.Sync(context.Background(), tenant, c.id)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("err = %v, want %q", err, c.want)
			}
		})
	}
}

func TestParseFolders(t *testing.T) {
	cases := []struct {
		name, in string
		want     []drive.Folder
		err      string
	}{
		{"tenants", "acme:1AbC_x-9, globex:0Bq", []drive.Folder{{"acme", "1AbC_x-9"}, {"globex", "0Bq"}}, ""},
		{"default tenant", "1AbC", []drive.Folder{{"default", "1AbC"}}, ""},
		{"duplicates collapse", "acme:1,acme:1", []drive.Folder{{"acme", "1"}}, ""},
		{"empty", "", nil, ""},
		{"bad id", "acme:no/slash", nil, "is not a Drive folder"},
		{"bad tenant", " :1AbC", nil, "is not a tenant"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := drive.ParseFolders(c.in, "default")
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Errorf("err = %v, want %q", err, c.err)
				}
				return
			}
			if err != nil || !slices.Equal(got, c.want) {
				t.Errorf("got %v, %v; want %v", got, err, c.want)
			}
		})
	}
}

// blockingIngester holds the first batch until released.
type blockingIngester struct {
	*ingest.Ingester
	started, release chan struct{}
}

func (b *blockingIngester) IngestSources(ctx context.Context, tenant string, files []ingest.SourceFile, live func(string) bool, p ingest.Progress) (ingest.Report, error) {
	close(b.started)
	<-b.release
	return b.Ingester.IngestSources(ctx, tenant, files, live, p)
}

// TestOneSyncAtATime: while one sync of a folder runs, another of the same
// folder (another process, or `cew ingest` beside the server) is refused
// with ErrBusy instead of interleaving their state.
func TestOneSyncAtATime(t *testing.T) {
	block := &blockingIngester{started: make(chan struct{}), release: make(chan struct{})}
	f := newFixture(t, fixtureOptions{ingester: func(in *ingest.Ingester) drive.Ingester {
		block.Ingester = in
		return block
	}})
	root := f.srv.AddFolder("", "Project")
	f.srv.AddFile(root, "B-1 Rev 1 Spec.md", "text/markdown", md("Spec", "Cable ladders are 600 mm wide."))
	done := make(chan error, 1)
	go func() {
		_, err := f.syncer.Sync(context.Background(), tenant, root)
		done <- err
	}()
	<-block.started
	if _, err := f.syncer.Sync(context.Background(), tenant, root); !errors.Is(err, drive.ErrBusy) {
		t.Errorf("a second sync of the folder: err = %v, want ErrBusy", err)
	}
	close(block.release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if rep := f.sync(tenant, root); rep.Full {
		t.Errorf("the sync after the first is a full listing again")
	}
}

// TestExpiredChangesPosition: when Drive refuses the stored page token,
// the next sync lists the folder again and downloads nothing it has.
func TestExpiredChangesPosition(t *testing.T) {
	f := newFixture(t, fixtureOptions{})
	root := f.srv.AddFolder("", "Project")
	f.srv.AddFile(root, "X-1 Rev 1 Spec.md", "text/markdown", md("Spec", "Anchor bolts are M24."))
	f.sync(tenant, root)
	f.srv.Fail(drivetest.Fault{Method: "changes.list", Status: 400, Reason: "invalid", Message: "Invalid Value: pageToken"})
	if _, err := f.syncer.Sync(context.Background(), tenant, root); err == nil || !strings.Contains(err.Error(), "lists the folder again") {
		t.Fatalf("err = %v", err)
	}
	f.srv.ResetCounts()
	rep := f.sync(tenant, root)
	if !rep.Full || rep.Downloaded != 0 || len(f.search(tenant, "anchor bolts")) != 1 {
		t.Errorf("after the expired position: full %v, downloaded %d", rep.Full, rep.Downloaded)
	}
}

// TestRefusedDownload: an export Drive refuses (over its size limit) is
// reported as failed and not downloaded again until the file changes; a
// download that fails for a passing reason is deferred and tried at the
// next sync.
func TestRefusedDownload(t *testing.T) {
	f := newFixture(t, fixtureOptions{})
	root := f.srv.AddFolder("", "Project")
	big := f.srv.AddGoogleFile(root, "Big spec", drivetest.DocMIME, drivetest.DOCXMIME, docx(t, "Big", "Large document."))
	flaky := f.srv.AddFile(root, "F-1 Rev 1 Flaky.md", "text/markdown", md("Flaky", "Cable pits are 1.2 m deep."))
	f.srv.Fail(drivetest.Fault{Method: "files.export", Status: 403, Reason: "exportSizeLimitExceeded"})
	for range 8 {
		f.srv.Fail(drivetest.Fault{Method: "files.download", Status: 503, Reason: "backendError"})
	}
	rep := f.sync(tenant, root)
	got := map[string]string{}
	for _, r := range rep.Files {
		got[r.ID] = r.Outcome
	}
	if got[big] != "failed" || got[flaky] != drive.Deferred {
		t.Fatalf("outcomes %v", got)
	}
	f.srv.ResetCounts()
	rep = f.sync(tenant, root)
	if calls := f.srv.Calls(); calls["files.export"] != 0 || calls["files.download"] != 1 || rep.Count("indexed") != 1 {
		t.Errorf("next sync: calls %v, report %+v", calls, rep.Files)
	}
	if hits := f.search(tenant, "cable pits deep"); len(hits) != 1 {
		t.Errorf("the deferred file is not searchable after the next sync")
	}
}
