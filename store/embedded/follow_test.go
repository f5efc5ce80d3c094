package embedded

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/cewhq/cew/store"
	"github.com/cewhq/cew/store/storetest"
)

// TestFollowerConformance runs the store suite on a Follower; its
// ConcurrentSearchAndWrite searches while writes swap snapshots in.
func TestFollowerConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store {
		f, err := OpenFollower(t.TempDir(), Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = f.Close() })
		return f
	})
}

func openFollower(t *testing.T, dir string) *Follower {
	t.Helper()
	f, err := OpenFollower(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = f.Close() })
	return f
}

// put writes one document with a writer that is closed again, as a
// `cew ingest` run beside the readers would.
func putWithWriter(t *testing.T, dir string, doc store.Document, texts ...string) {
	t.Helper()
	w, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if err := w.PutDocument(context.Background(), doc, testChunks(doc, texts...)); err != nil {
		t.Fatal(err)
	}
}

func hitDocs(t *testing.T, s store.Searcher, query string) []string {
	t.Helper()
	hits, err := s.Search(context.Background(), store.SearchRequest{Tenant: "acme", Query: query, Mode: store.ModeKeyword})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, h := range hits {
		ids = append(ids, h.Chunk.DocID)
	}
	return ids
}

// TestReadersBesideAWriter: readers never hold the file, so a writer opens
// it while they run; a Follower picks up what the writer added, and its
// generation moves.
func TestReadersBesideAWriter(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	putWithWriter(t, dir, testDoc("acme", "trench", "03", "IFC"), "The minimum trench depth for DC cables is 800 mm.")

	f, err := OpenFollower(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	snap, err := OpenSnapshot(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	gen0, _ := f.Generation(ctx, "acme")
	if got := hitDocs(t, f, "earthing"); len(got) != 0 {
		t.Fatalf("earthing found before it was written: %v", got)
	}

	// A writer opens the file while both readers are open.
	putWithWriter(t, dir, testDoc("acme", "earthing", "A", "IFC"), "Earthing conductors are 16 mm2 copper.")

	if got := hitDocs(t, f, "earthing"); len(got) != 0 {
		t.Errorf("the follower changed before Refresh: %v", got)
	}
	changed, err := f.Refresh(ctx)
	if err != nil || !changed {
		t.Fatalf("Refresh = %v, %v; want a new snapshot", changed, err)
	}
	if got := hitDocs(t, f, "earthing"); len(got) != 1 || got[0] != "earthing" {
		t.Errorf("after Refresh: %v, want the new document", got)
	}
	if gen1, _ := f.Generation(ctx, "acme"); gen1 == gen0 {
		t.Errorf("generation stayed %d after new documents were loaded", gen0)
	}
	if got := hitDocs(t, snap, "earthing"); len(got) != 0 {
		t.Errorf("a snapshot changed under its reader: %v", got)
	}
	if changed, err := f.Refresh(ctx); changed || err != nil {
		t.Errorf("second Refresh with no write = %v, %v; want no change", changed, err)
	}
}

func TestSnapshot(t *testing.T) {
	ctx := context.Background()
	t.Run("refuses writes", func(t *testing.T) {
		dir := t.TempDir()
		putWithWriter(t, dir, testDoc("acme", "trench", "03", "IFC"), "trench depth")
		s, err := OpenSnapshot(dir, Options{})
		if err != nil {
			t.Fatal(err)
		}
		doc := testDoc("acme", "other", "1", "")
		if err := s.PutDocument(ctx, doc, testChunks(doc, "x")); !errors.Is(err, ErrReadOnly) {
			t.Errorf("PutDocument on a snapshot = %v, want ErrReadOnly", err)
		}
	})
	t.Run("a missing index is empty and nothing is created", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "never-ingested")
		s, err := OpenSnapshot(dir, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if docs, err := s.Documents(ctx, "acme"); err != nil || len(docs) != 0 {
			t.Errorf("documents = %v, %v", docs, err)
		}
		if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("opening a snapshot created %s (%v)", dir, err)
		}
	})
	t.Run("waits for a writer, then says it is locked", func(t *testing.T) {
		dir := t.TempDir()
		w, err := Open(dir, Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
		if _, err := OpenSnapshot(dir, Options{LockTimeout: 50 * time.Millisecond}); !errors.Is(err, ErrLocked) {
			t.Errorf("snapshot while a writer holds the file = %v, want ErrLocked", err)
		}
	})
}

// TestFollowerWhileAWriterHoldsTheFile: a follower started during an
// ingest is not loaded and serves nothing; Refresh fails with ErrLocked
// and keeps the current snapshot; once the writer closes, it loads.
func TestFollowerWhileAWriterHoldsTheFile(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	putWithWriter(t, dir, testDoc("acme", "trench", "03", "IFC"), "The minimum trench depth for DC cables is 800 mm.")
	w, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	f, err := OpenFollower(dir, Options{LockTimeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if f.Loaded() || !errors.Is(f.LastError(), ErrLocked) {
		t.Errorf("Loaded = %v, LastError = %v; want not loaded, ErrLocked", f.Loaded(), f.LastError())
	}
	if _, err := f.Refresh(ctx); !errors.Is(err, ErrLocked) {
		t.Errorf("Refresh while the writer holds the file = %v", err)
	}
	doc := testDoc("acme", "earthing", "A", "IFC")
	if err := w.PutDocument(ctx, doc, testChunks(doc, "Earthing conductors are 16 mm2 copper.")); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if changed, err := f.Refresh(ctx); !changed || err != nil {
		t.Fatalf("Refresh after the writer closed = %v, %v", changed, err)
	}
	if !f.Loaded() || f.LastError() != nil {
		t.Errorf("Loaded = %v, LastError = %v after a successful Refresh", f.Loaded(), f.LastError())
	}
	if got := hitDocs(t, f, "trench earthing"); len(got) != 2 {
		t.Errorf("hits %v, want both documents", got)
	}
}

// TestFollowerWrite: a batch written through the follower is searchable
// when Write returns, and a failed batch changes nothing.
func TestFollowerWrite(t *testing.T) {
	ctx := context.Background()
	f := openFollower(t, t.TempDir())
	var err error
	err = f.Write(ctx, func(w store.Store) error {
		for _, id := range []string{"trench", "earthing"} {
			doc := testDoc("acme", id, "1", "IFC")
			if err := w.PutDocument(ctx, doc, testChunks(doc, id+" requirements")); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := hitDocs(t, f, "requirements"); len(got) != 2 {
		t.Errorf("after Write: %v, want 2 documents", got)
	}
	boom := errors.New("boom")
	if err := f.Write(ctx, func(store.Store) error { return boom }); !errors.Is(err, boom) {
		t.Errorf("Write = %v, want fn's error", err)
	}
}

// TestFollowerWritesBesideAnotherWriter: what the follower writes is in
// the file for other processes, and a write after another process's
// starts from the file, so neither write is lost and the generation only
// moves forward.
func TestFollowerWritesBesideAnotherWriter(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	f := openFollower(t, dir)
	trench := testDoc("acme", "trench", "1", "IFC")
	if err := f.PutDocument(ctx, trench, testChunks(trench, "trench depth 800 mm")); err != nil {
		t.Fatal(err)
	}
	g1, _ := f.Generation(ctx, "acme")
	if changed, err := f.Refresh(ctx); changed || err != nil {
		t.Errorf("Refresh after its own write = %v, %v; want nothing to reload", changed, err)
	}
	snap, err := OpenSnapshot(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := hitDocs(t, snap, "trench"); len(got) != 1 {
		t.Errorf("another reader does not see the follower's write: %v", got)
	}

	putWithWriter(t, dir, testDoc("acme", "earthing", "A", "IFC"), "earthing conductor 95 mm2")
	cable := testDoc("acme", "cable", "1", "IFC")
	if err := f.PutDocument(ctx, cable, testChunks(cable, "cable schedule")); err != nil {
		t.Fatal(err)
	}
	if got := hitDocs(t, f, "trench earthing cable"); len(got) != 3 {
		t.Errorf("after writes from both: %v, want all three documents", got)
	}
	snap, _ = OpenSnapshot(dir, Options{})
	if got := hitDocs(t, snap, "trench earthing cable"); len(got) != 3 {
		t.Errorf("the file after writes from both: %v, want all three documents", got)
	}
	if g2, _ := f.Generation(ctx, "acme"); g2 <= g1 {
		t.Errorf("generation %d after %d: it must move forward", g2, g1)
	}
}
