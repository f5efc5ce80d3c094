package milvus_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"maps"
	"os"
	"testing"
	"time"

	"github.com/cewhq/cew/store"
	"github.com/cewhq/cew/store/embedded"
	"github.com/cewhq/cew/store/milvus"
	"github.com/cewhq/cew/store/storetest"
)

// testAddress is the Milvus the tests run against: CEW_TEST_MILVUS_ADDRESS,
// which .ci/run sets to a Milvus Lite it starts
// (scripts/milvus-test-server.sh). Outside CI the tests skip without it.
func testAddress(tb testing.TB) string {
	tb.Helper()
	addr := os.Getenv("CEW_TEST_MILVUS_ADDRESS")
	if addr == "" {
		if os.Getenv("CI") == "true" {
			tb.Fatal("CEW_TEST_MILVUS_ADDRESS is not set; CI must start a Milvus (scripts/milvus-test-server.sh start)")
		}
		tb.Skip("CEW_TEST_MILVUS_ADDRESS is not set; start one with scripts/milvus-test-server.sh start")
	}
	return addr
}

// testDim is the dense dimension of the test collections: storetest's
// vectors have four.
const testDim = 4

// uniqueCollection keeps each test's collections apart from every other
// run's on a shared server.
func uniqueCollection() string {
	b := make([]byte, 5)
	_, _ = rand.Read(b)
	return "cewtest_" + hex.EncodeToString(b)
}

// testOptions are a fresh collection's options on the test server: the
// defaults, unless CEW_TEST_MILVUS_PARTITION_KEY=false,
// CEW_TEST_MILVUS_DENSE_INDEX or CEW_TEST_MILVUS_PARTIAL_UPDATE=false say
// otherwise, as for Milvus Lite's embedded 2.5 engine (no partition-key
// filtering, no HNSW, no partial update; see .ci/run).
func testOptions(tb testing.TB) milvus.Options {
	return milvus.Options{Address: testAddress(tb), Collection: uniqueCollection(), Dim: testDim, Timeout: 30 * time.Second,
		NoPartitionKey:  os.Getenv("CEW_TEST_MILVUS_PARTITION_KEY") == "false",
		DenseIndex:      os.Getenv("CEW_TEST_MILVUS_DENSE_INDEX"),
		NoPartialUpdate: os.Getenv("CEW_TEST_MILVUS_PARTIAL_UPDATE") == "false"}
}

// migrate creates the test collections and drops them when the test ends.
func migrate(tb testing.TB, opts milvus.Options) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := milvus.Migrate(ctx, opts, false); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { drop(tb, opts) })
}

func drop(tb testing.TB, opts milvus.Options) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := milvus.Drop(ctx, opts); err != nil {
		tb.Logf("drop %s: %v", opts.Collection, err)
	}
}

func open(tb testing.TB, opts milvus.Options) *milvus.Store {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := milvus.Open(ctx, opts)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = s.Close() })
	return s
}

func TestConformance(t *testing.T) {
	opts := testOptions(t)
	migrate(t, opts)
	s := open(t, opts)
	// Every sub-test names its own tenants, so one store serves them all.
	storetest.Run(t, func(t *testing.T) store.Store { return s })
}

func TestOpenErrors(t *testing.T) {
	addr := testAddress(t)
	cases := []struct {
		name string
		opts milvus.Options
		want error
	}{
		{"Unreachable", milvus.Options{Address: "127.0.0.1:1", ConnectTimeout: 2 * time.Second}, milvus.ErrUnreachable},
		{"NoAddress", milvus.Options{}, store.ErrInvalid},
		{"NotMigrated", milvus.Options{Address: addr, Collection: uniqueCollection()}, milvus.ErrNotMigrated},
		{"BadConsistency", milvus.Options{Address: addr, Consistency: "sometimes"}, store.ErrInvalid},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, err := milvus.Open(t.Context(), c.opts)
			if err == nil {
				_ = s.Close()
			}
			if !errors.Is(err, c.want) {
				t.Errorf("Open error = %v, want %v", err, c.want)
			}
		})
	}
}

func TestLayoutChecks(t *testing.T) {
	opts := testOptions(t)
	migrate(t, opts)
	t.Run("OtherDimensionRefused", func(t *testing.T) {
		other := opts
		other.Dim = testDim + 1
		_, err := milvus.Open(t.Context(), other)
		if !errors.Is(err, milvus.ErrLayout) {
			t.Fatalf("Open with another dimension: %v, want ErrLayout", err)
		}
		if _, err := milvus.Migrate(t.Context(), other, false); !errors.Is(err, milvus.ErrLayout) {
			t.Errorf("Migrate without replace: %v, want ErrLayout", err)
		}
	})
	t.Run("MigrateTwiceKeepsData", func(t *testing.T) {
		s := open(t, opts)
		doc := store.Document{Tenant: "t", ID: "d", Number: "D", Revision: "1"}
		if err := s.PutDocument(t.Context(), doc, []store.Chunk{{ID: "d/1/0", Tenant: "t", DocID: "d", Revision: "1", Text: "cable"}}); err != nil {
			t.Fatal(err)
		}
		res, err := milvus.Migrate(t.Context(), opts, false)
		if err != nil || len(res.Created) != 0 || len(res.Existing) != 2 {
			t.Fatalf("second Migrate = %+v, %v; want both existing", res, err)
		}
		docs, err := s.Documents(t.Context(), "t")
		if err != nil || len(docs) != 1 {
			t.Errorf("after second Migrate: %v, %v", docs, err)
		}
	})
	t.Run("ReplaceRecreates", func(t *testing.T) {
		other := opts
		other.Dim = testDim + 1
		res, err := milvus.Migrate(t.Context(), other, true)
		if err != nil || len(res.Dropped) != 2 || len(res.Created) != 2 {
			t.Fatalf("Migrate --replace = %+v, %v", res, err)
		}
		s := open(t, other)
		if s.Dim() != testDim+1 {
			t.Errorf("Dim = %d after replace, want %d", s.Dim(), testDim+1)
		}
	})
}

// TestVocabularyMatchesEmbedded checks that the spelling vocabulary is the
// embedded store's for the same writes, and follows a new revision.
func TestVocabularyMatchesEmbedded(t *testing.T) {
	opts := testOptions(t)
	migrate(t, opts)
	m := open(t, opts)
	e, err := embedded.Open(t.TempDir(), embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	for _, rev := range []struct{ rev, text string }{
		{"01", "Cable trenches: the cable depth is 800 mm."},
		{"02", "Cable ladders hold DC cables; ladder width 300 mm."},
	} {
		doc := store.Document{Tenant: "voc", ID: "spec", Number: "SPEC", Title: "Cable spec", Revision: rev.rev}
		chunks := []store.Chunk{{ID: store.ChunkID("spec", rev.rev, 0), Tenant: "voc", DocID: "spec", Revision: rev.rev, Title: doc.Title, Section: "Routing", Text: rev.text}}
		for _, s := range []store.Store{m, e} {
			if err := s.PutDocument(t.Context(), doc, chunks); err != nil {
				t.Fatal(err)
			}
		}
		got, err := m.Vocabulary(t.Context(), "voc")
		if err != nil {
			t.Fatal(err)
		}
		want, err := e.Vocabulary(t.Context(), "voc")
		if err != nil {
			t.Fatal(err)
		}
		if !maps.Equal(got.Words, want.Words) || len(got.Words) == 0 {
			t.Errorf("revision %s: vocabulary %v, embedded store has %v", rev.rev, got.Words, want.Words)
		}
	}
}
