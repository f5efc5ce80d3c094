package embedded

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/cewhq/cew/store"
	"github.com/cewhq/cew/store/storetest"
)

func openTemp(t *testing.T) *Store {
	t.Helper()
	s, err := Open(t.TempDir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

func TestConformance(t *testing.T) {
	t.Run("File", func(t *testing.T) {
		storetest.Run(t, func(t *testing.T) store.Store { return openTemp(t) })
	})
	t.Run("Memory", func(t *testing.T) {
		storetest.Run(t, func(t *testing.T) store.Store { return newStore(nil, nil) })
	})
}

func testDoc(tenant, id, rev, status string) store.Document {
	return store.Document{Tenant: tenant, ID: id, Number: id, Title: "Title " + id, Revision: rev, Status: status,
		IndexedAt: time.Date(2024, 1, 2, 3, 4, 5, 6, time.UTC)}
}

func testChunks(doc store.Document, texts ...string) []store.Chunk {
	out := make([]store.Chunk, len(texts))
	for i, text := range texts {
		out[i] = store.Chunk{ID: store.ChunkID(doc.ID, doc.Revision, i), Tenant: doc.Tenant, DocID: doc.ID,
			Revision: doc.Revision, Title: doc.Title, Page: i + 1, Index: i, Text: text}
	}
	return out
}

func mustPut(t *testing.T, s *Store, doc store.Document, chunks []store.Chunk) {
	t.Helper()
	if err := s.PutDocument(t.Context(), doc, chunks); err != nil {
		t.Fatal(err)
	}
}

// snapshot is what a reopened store must reproduce.
type snapshot struct {
	docs       []store.Document
	generation uint64
	hits       map[string][]store.Hit
}

func takeSnapshot(t *testing.T, s *Store, tenant string, queries []store.SearchRequest) snapshot {
	t.Helper()
	docs, err := s.Documents(t.Context(), tenant)
	if err != nil {
		t.Fatal(err)
	}
	g, err := s.Generation(t.Context(), tenant)
	if err != nil {
		t.Fatal(err)
	}
	snap := snapshot{docs: docs, generation: g, hits: map[string][]store.Hit{}}
	for _, q := range queries {
		hits, err := s.Search(t.Context(), q)
		if err != nil {
			t.Fatal(err)
		}
		snap.hits[fmt.Sprintf("%s|%s|%v", q.Query, q.Mode, q.IncludeInactive)] = hits
	}
	return snap
}

func TestReopenKeepsEverything(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	const tenant = "site"
	d1 := testDoc(tenant, "277-007-D-C-40327", "02", "IFC")
	c1 := testChunks(d1, "Trench depth 800 mm for DC cables.", "Road crossings use ducts.")
	c1[0].Vector = []float32{3, 4, 0}
	c1[1].Vector = []float32{0, 0, 1}
	mustPut(t, s, d1, c1)
	first, err := s.Generation(t.Context(), tenant)
	if err != nil {
		t.Fatal(err)
	}
	old := testDoc(tenant, "277-007-D-C-40327", "01", "IFC")
	mustPut(t, s, old, testChunks(old, "Trench depth 600 mm for DC cables."))
	d2 := testDoc(tenant, "spec", "A", "For approval")
	mustPut(t, s, d2, testChunks(d2, "Cable ladder width 300 mm.", "Trench backfill in layers."))
	// Re-put to leave holes and removed chunks behind in the file.
	mustPut(t, s, d2, testChunks(d2, "Cable ladder width 450 mm."))
	other := testDoc("other", "x", "1", "IFC")
	mustPut(t, s, other, testChunks(other, "Trench depth 1 m."))
	otherGeneration, err := s.Generation(t.Context(), "other")
	if err != nil {
		t.Fatal(err)
	}

	queries := []store.SearchRequest{
		{Tenant: tenant, Query: "trench depth cables", Mode: store.ModeKeyword},
		{Tenant: tenant, Query: "trench depth cables", Mode: store.ModeKeyword, IncludeInactive: true},
		{Tenant: tenant, Query: "cable", Vector: []float32{0.6, 0.8, 0}, Mode: store.ModeHybrid},
		{Tenant: tenant, Vector: []float32{0, 0, 2}, Mode: store.ModeDense},
		{Tenant: tenant, Query: "backfill", Mode: store.ModeKeyword},
	}
	before := takeSnapshot(t, s, tenant, queries)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s, err = Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	after := takeSnapshot(t, s, tenant, queries)
	if !reflect.DeepEqual(before, after) {
		t.Errorf("after reopen:\n%+v\nbefore:\n%+v", after, before)
	}
	if len(after.hits["backfill|bm25|false"]) != 0 {
		t.Errorf("a replaced chunk came back after reopen")
	}
	if after.generation != first+3 {
		t.Errorf("generation after 4 writes and a reopen = %d, want %d", after.generation, first+3)
	}
	mustPut(t, s, d2, testChunks(d2, "Cable ladder width 600 mm."))
	if g, _ := s.Generation(t.Context(), tenant); g != first+4 {
		t.Errorf("generation after one more write = %d, want %d", g, first+4)
	}
	if g, _ := s.Generation(t.Context(), "other"); g != otherGeneration {
		t.Errorf("generation of the other tenant = %d, want %d (its own counter)", g, otherGeneration)
	}
}

func TestOpenWhileLocked(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	_, err = Open(dir, Options{LockTimeout: 50 * time.Millisecond})
	if !errors.Is(err, ErrLocked) {
		t.Fatalf("second Open error = %v, want ErrLocked", err)
	}
	if want := filepath.Join(dir, FileName); !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "in use by another cew process") {
		t.Errorf("error %q does not name %s and the reason", err, want)
	}
}

// writeIndex creates an index with one document and returns its path.
func writeIndex(t *testing.T, dir string) string {
	t.Helper()
	s, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	d := testDoc("site", "d1", "01", "IFC")
	mustPut(t, s, d, testChunks(d, "Trench depth 800 mm."))
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, FileName)
}

// rewrite changes the stored file with a raw bbolt transaction.
func rewrite(t *testing.T, path string, fn func(tx *bolt.Tx) error) {
	t.Helper()
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Update(fn); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
}

func chunkBucket(tx *bolt.Tx) *bolt.Bucket {
	return tx.Bucket(bucketTenants).Bucket([]byte("site")).Bucket(bucketChunks)
}

func TestOpenCorrupt(t *testing.T) {
	cases := []struct {
		name    string
		damage  func(t *testing.T, path string)
		wantErr error // nil: any error will do, as long as Open fails cleanly
	}{
		{"Garbage", func(t *testing.T, path string) {
			garbage := make([]byte, 64<<10)
			for i := range garbage {
				garbage[i] = byte(i*7 + 3)
			}
			if err := os.WriteFile(path, garbage, 0o600); err != nil {
				t.Fatal(err)
			}
		}, ErrCorrupt},
		{"MetaPagesZeroed", func(t *testing.T, path string) {
			f, err := os.OpenFile(path, os.O_RDWR, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if _, err := f.WriteAt(make([]byte, 2*os.Getpagesize()), 0); err != nil {
				t.Fatal(err)
			}
		}, ErrCorrupt},
		{"Truncated", func(t *testing.T, path string) {
			if err := os.Truncate(path, 100); err != nil {
				t.Fatal(err)
			}
		}, ErrCorrupt},
		{"ChunkRecordTruncated", func(t *testing.T, path string) {
			rewrite(t, path, func(tx *bolt.Tx) error {
				b := chunkBucket(tx)
				k, v := b.Cursor().First()
				return b.Put(append([]byte(nil), k...), append([]byte(nil), v[:len(v)/2]...))
			})
		}, ErrCorrupt},
		{"ChunkRecordUnknownFormat", func(t *testing.T, path string) {
			rewrite(t, path, func(tx *bolt.Tx) error {
				b := chunkBucket(tx)
				k, v := b.Cursor().First()
				bad := append([]byte(nil), v...)
				bad[0] = 99
				return b.Put(append([]byte(nil), k...), bad)
			})
		}, ErrCorrupt},
		{"ChunkOfNoDocument", func(t *testing.T, path string) {
			rewrite(t, path, func(tx *bolt.Tx) error {
				d := testDoc("site", "ghost", "01", "IFC")
				c := testChunks(d, "orphan")[0]
				return chunkBucket(tx).Put(append(revisionPrefix("ghost", "01"), 0, 0, 0, 0), encodeChunk(&c, storedTerms{}))
			})
		}, ErrCorrupt},
		{"TermMissingFromDictionary", func(t *testing.T, path string) {
			rewrite(t, path, func(tx *bolt.Tx) error {
				return tx.Bucket(bucketTenants).Bucket([]byte("site")).DeleteBucket(bucketTerms)
			})
		}, ErrCorrupt},
		{"DocumentNotJSON", func(t *testing.T, path string) {
			rewrite(t, path, func(tx *bolt.Tx) error {
				return tx.Bucket(bucketTenants).Bucket([]byte("site")).Bucket(bucketDocs).Put(docKey("d1", "01"), []byte("{"))
			})
		}, ErrCorrupt},
		{"NewerFormat", func(t *testing.T, path string) {
			rewrite(t, path, func(tx *bolt.Tx) error {
				return tx.Bucket(bucketMeta).Put(keyFormat, []byte{0, 0, 0, 0, 0, 0, 0, 9})
			})
		}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			path := writeIndex(t, dir)
			c.damage(t, path)
			s, err := Open(dir, Options{LockTimeout: 100 * time.Millisecond})
			if err == nil {
				s.Close()
				t.Fatal("Open succeeded on a damaged index")
			}
			if c.wantErr != nil && !errors.Is(err, c.wantErr) {
				t.Errorf("error = %v, want %v", err, c.wantErr)
			}
		})
	}
}

// TestOpenReanalyses checks that chunks whose stored terms cannot be
// trusted are analysed again at Open, so search still finds them.
func TestOpenReanalyses(t *testing.T) {
	// rewriteRecords passes every chunk record of the test file through fn.
	rewriteRecords := func(t *testing.T, path string, fn func(c store.Chunk, st storedTerms) []byte) {
		rewrite(t, path, func(tx *bolt.Tx) error {
			b := chunkBucket(tx)
			type kv struct{ k, v []byte }
			var all []kv
			err := b.ForEach(func(k, v []byte) error {
				c, st, err := decodeChunk(v)
				if err != nil {
					return err
				}
				all = append(all, kv{append([]byte(nil), k...), fn(c, st)})
				return nil
			})
			if err != nil {
				return err
			}
			for _, e := range all {
				if err := b.Put(e.k, e.v); err != nil {
					return err
				}
			}
			return nil
		})
	}
	cases := []struct {
		name   string
		damage func(c store.Chunk, st storedTerms) []byte
	}{
		{"FormatOneRecords", func(c store.Chunk, _ storedTerms) []byte {
			// A format 1 record is a format 2 record without the terms
			// section, which is three zero bytes when empty.
			b := encodeChunk(&c, storedTerms{})
			b[0] = 1
			return b[:len(b)-3]
		}},
		{"OlderAnalyser", func(c store.Chunk, st storedTerms) []byte {
			st.analysis = 0
			return encodeChunk(&c, st)
		}},
		{"AnalyserChangedWithoutVersion", func(c store.Chunk, st storedTerms) []byte {
			for i := range st.refs {
				st.refs[i].tf++
			}
			return encodeChunk(&c, st)
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			s, err := Open(dir, Options{})
			if err != nil {
				t.Fatal(err)
			}
			d := testDoc("site", "spec", "01", "IFC")
			mustPut(t, s, d, testChunks(d, "Trench depth 800 mm for DC cables.", "Cable ladder 300 mm wide."))
			q := store.SearchRequest{Tenant: "site", Query: "cable trench depth", Mode: store.ModeKeyword}
			want, err := s.Search(t.Context(), q)
			if err != nil || len(want) != 2 {
				t.Fatalf("before: %v, %v", want, err)
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			rewriteRecords(t, filepath.Join(dir, FileName), c.damage)
			s, err = Open(dir, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			got, err := s.Search(t.Context(), q)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("after reopen hits = %+v, want %+v", got, want)
			}
			// Writes after a re-analysing Open keep working.
			d2 := testDoc("site", "other", "01", "IFC")
			mustPut(t, s, d2, testChunks(d2, "Trench backfill compaction."))
			if hits, _ := s.Search(t.Context(), store.SearchRequest{Tenant: "site", Query: "backfill", Mode: store.ModeKeyword}); len(hits) != 1 {
				t.Errorf("new write not found: %v", hits)
			}
		})
	}
}

func TestClosed(t *testing.T) {
	s := openTemp(t)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	d := testDoc("site", "d1", "01", "IFC")
	calls := []struct {
		name string
		call func() error
	}{
		{"Search", func() error {
			_, err := s.Search(t.Context(), store.SearchRequest{Tenant: "site", Query: "x"})
			return err
		}},
		{"PutDocument", func() error { return s.PutDocument(t.Context(), d, testChunks(d, "x")) }},
		{"Documents", func() error { _, err := s.Documents(t.Context(), "site"); return err }},
		{"Generation", func() error { _, err := s.Generation(t.Context(), "site"); return err }},
		{"CloseAgain", func() error {
			if err := s.Close(); err != nil {
				return err
			}
			return ErrClosed
		}},
	}
	for _, c := range calls {
		t.Run(c.name, func(t *testing.T) {
			if err := c.call(); !errors.Is(err, ErrClosed) {
				t.Errorf("error = %v, want ErrClosed", err)
			}
		})
	}
}

// TestCompaction re-puts one revision often enough to trigger compaction
// and checks the result against a store that saw only the final write.
func TestCompaction(t *testing.T) {
	s := newStore(nil, nil)
	fresh := newStore(nil, nil)
	const tenant = "site"
	keep := testDoc(tenant, "keep", "01", "IFC")
	keepChunks := testChunks(keep, "Trench depth 800 mm.", "Cable ladder 300 mm wide.")
	for i := range keepChunks {
		keepChunks[i].Vector = []float32{1, float32(i), 0}
	}
	mustPut(t, s, keep, keepChunks)
	mustPut(t, fresh, keep, keepChunks)
	churn := testDoc(tenant, "churn", "01", "IFC")
	var last []store.Chunk
	for round := range 8 {
		texts := make([]string, 300)
		for i := range texts {
			texts[i] = fmt.Sprintf("Round %d inverter %d cable trench note.", round, i)
		}
		last = testChunks(churn, texts...)
		for i := range last {
			last[i].Vector = []float32{0, 1, float32(i % 7)}
		}
		mustPut(t, s, churn, last)
	}
	mustPut(t, fresh, churn, last)
	ix := s.tenants[tenant]
	if ix.dead >= compactMinDead {
		t.Errorf("%d holes left, compaction did not run", ix.dead)
	}
	if got, want := len(ix.chunks), ix.live+ix.dead; got != want {
		t.Errorf("%d slots for %d live and %d dead chunks", got, ix.live, ix.dead)
	}
	queries := []store.SearchRequest{
		{Tenant: tenant, Query: "trench cable round 7", Mode: store.ModeKeyword, K: 400},
		{Tenant: tenant, Query: "round 3", Mode: store.ModeKeyword},
		{Tenant: tenant, Vector: []float32{1, 0.5, 0}, Mode: store.ModeDense, K: 400},
		{Tenant: tenant, Query: "ladder", Vector: []float32{0, 1, 3}, Mode: store.ModeHybrid},
	}
	for i, q := range queries {
		got, err := s.Search(t.Context(), q)
		if err != nil {
			t.Fatal(err)
		}
		want, err := fresh.Search(t.Context(), q)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) {
			t.Fatalf("query %d: %d hits after compaction, %d fresh", i, len(got), len(want))
		}
		for j := range got {
			if got[j].Chunk.ID != want[j].Chunk.ID || abs(got[j].Score-want[j].Score) > 1e-6 {
				t.Errorf("query %d hit %d: %s %v after compaction, %s %v fresh", i, j,
					got[j].Chunk.ID, got[j].Score, want[j].Chunk.ID, want[j].Score)
			}
		}
	}
}

func abs(f float64) float64 {
	if f < 0 {
		return -f
	}
	return f
}

// TestSearchSeesWholeWrites checks that a search never sees a document
// between two revisions: the embedded store publishes a write at once.
func TestSearchSeesWholeWrites(t *testing.T) {
	s := newStore(nil, nil)
	const tenant = "site"
	put := func(rev string) {
		d := testDoc(tenant, "spec", rev, "IFC")
		mustPut(t, s, d, testChunks(d, "Cable trench depth 800 mm.", "Cable ladder width 300 mm."))
	}
	put("01")
	done := make(chan struct{})
	errs := make(chan error, 1)
	go func() {
		defer close(errs)
		for {
			select {
			case <-done:
				return
			default:
			}
			hits, err := s.Search(t.Context(), store.SearchRequest{Tenant: tenant, Query: "cable"})
			if err != nil {
				errs <- err
				return
			}
			var revs []string
			for _, h := range hits {
				if !slices.Contains(revs, h.Chunk.Revision) {
					revs = append(revs, h.Chunk.Revision)
				}
			}
			if len(hits) != 2 || len(revs) != 1 {
				errs <- fmt.Errorf("search saw %d hits of revisions %v", len(hits), revs)
				return
			}
		}
	}()
	for i := 2; i < 60; i++ {
		put(fmt.Sprintf("%02d", i))
	}
	close(done)
	if err := <-errs; err != nil {
		t.Error(err)
	}
}

func TestVectorsNotCopiedIntoResults(t *testing.T) {
	s := newStore(nil, nil)
	d := testDoc("site", "d", "1", "IFC")
	c := testChunks(d, "Trench depth.")
	c[0].Vector = []float32{3, 4}
	mustPut(t, s, d, c)
	if c[0].Vector[0] != 3 || c[0].Vector[1] != 4 {
		t.Errorf("PutDocument modified the caller's vector: %v", c[0].Vector)
	}
	for _, mode := range []store.Mode{store.ModeKeyword, store.ModeDense, store.ModeHybrid} {
		hits, err := s.Search(t.Context(), store.SearchRequest{Tenant: "site", Query: "trench", Vector: []float32{3, 4}, Mode: mode})
		if err != nil {
			t.Fatal(err)
		}
		if len(hits) != 1 || hits[0].Chunk.Vector != nil {
			t.Errorf("mode %s: hits %+v, want one without a vector", mode, hits)
		}
	}
}

func TestInvalidVectors(t *testing.T) {
	nan := float32(0)
	nan = nan / nan
	cases := []struct {
		name   string
		vector []float32
	}{
		{"Zero", []float32{0, 0, 0}},
		{"NaN", []float32{1, nan, 0}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := newStore(nil, nil)
			d := testDoc("site", "d", "1", "IFC")
			ch := testChunks(d, "Trench depth.")
			ch[0].Vector = c.vector
			if err := s.PutDocument(t.Context(), d, ch); !errors.Is(err, store.ErrInvalid) {
				t.Errorf("PutDocument error = %v, want ErrInvalid", err)
			}
			ch[0].Vector = []float32{1, 0, 0}
			mustPut(t, s, d, ch)
			_, err := s.Search(t.Context(), store.SearchRequest{Tenant: "site", Vector: c.vector, Mode: store.ModeDense})
			if !errors.Is(err, store.ErrInvalid) {
				t.Errorf("Search error = %v, want ErrInvalid", err)
			}
		})
	}
}

// TestRebuiltIndexDoesNotRepeatGenerations checks that two indexes built
// by the same writes do not share generations: a shared answer cache keys
// on the generation, so an index rebuilt from scratch after a file changed
// in place must not serve the answers cached for the old one.
func TestRebuiltIndexDoesNotRepeatGenerations(t *testing.T) {
	generations := make([]uint64, 2)
	for i := range generations {
		s := openTemp(t)
		d := testDoc("site", "spec", "01", "IFC")
		mustPut(t, s, d, testChunks(d, fmt.Sprintf("Trench depth %d mm.", 800+50*i)))
		g, err := s.Generation(t.Context(), "site")
		if err != nil {
			t.Fatal(err)
		}
		generations[i] = g
	}
	if generations[0] == generations[1] {
		t.Errorf("both indexes are at generation %d after their first write", generations[0])
	}
}
