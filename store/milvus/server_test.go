package milvus_test

import (
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/cewhq/cew/store"
	"github.com/cewhq/cew/store/milvus"
)

// TestTenantIsolationRandom indexes three tenants with overlapping words
// and checks that 10,000 random searches, in every mode, never return
// another tenant's chunk.
func TestTenantIsolationRandom(t *testing.T) {
	opts := testOptions(t)
	migrate(t, opts)
	s := open(t, opts)
	ctx := t.Context()
	r := rand.New(rand.NewPCG(7, 11))
	words := []string{"cable", "trench", "depth", "inverter", "earthing", "conduit", "transformer", "panel", "feeder", "ladder", "breaker", "fence"}
	tenants := []string{"iso-a", "iso-b", "iso-c"}
	vector := func() []float32 {
		v := make([]float32, testDim)
		for i := range v {
			v[i] = float32(r.NormFloat64())
		}
		return v
	}
	sentence := func() string {
		out := ""
		for i := range 8 {
			if i > 0 {
				out += " "
			}
			out += words[r.IntN(len(words))]
		}
		return out
	}
	for _, tenant := range tenants {
		for d := range 10 {
			doc := store.Document{Tenant: tenant, ID: fmt.Sprintf("doc-%d", d), Number: fmt.Sprintf("D-%d", d), Revision: "01", Status: "IFC"}
			chunks := make([]store.Chunk, 5)
			for i := range chunks {
				chunks[i] = store.Chunk{ID: store.ChunkID(doc.ID, "01", i), Tenant: tenant, DocID: doc.ID, Revision: "01",
					Index: i, Text: sentence(), Vector: vector()}
			}
			if err := s.PutDocument(ctx, doc, chunks); err != nil {
				t.Fatal(err)
			}
		}
	}
	// Keyword searches dominate, as without an embedder; every mode runs
	// thousands of times. Four clients search at once, as replicas would.
	const searches, clients = 10_000, 4
	var found atomic.Int64
	var g errgroup.Group
	for c := range clients {
		r := rand.New(rand.NewPCG(uint64(c), 13))
		g.Go(func() error {
			for i := c; i < searches; i += clients {
				tenant := tenants[r.IntN(len(tenants))]
				req := store.SearchRequest{Tenant: tenant, Query: words[r.IntN(len(words))] + " " + words[r.IntN(len(words))], K: 1 + r.IntN(60)}
				switch x := r.IntN(10); {
				case x < 5:
					req.Mode = store.ModeKeyword
				case x < 8:
					req.Mode = store.ModeDense
				default:
					req.Mode = store.ModeHybrid
				}
				if req.Mode != store.ModeKeyword {
					req.Vector = []float32{float32(r.NormFloat64()), float32(r.NormFloat64()), float32(r.NormFloat64()), float32(r.NormFloat64())}
				}
				hits, err := s.Search(ctx, req)
				if err != nil {
					return fmt.Errorf("search %d: %w", i, err)
				}
				for _, h := range hits {
					if h.Chunk.Tenant != tenant {
						return fmt.Errorf("search %d (%s) for tenant %s returned %s of tenant %s", i, req.Mode, tenant, h.Chunk.ID, h.Chunk.Tenant)
					}
				}
				found.Add(int64(len(hits)))
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		t.Fatal(err)
	}
	if found.Load() == 0 {
		t.Fatal("no search found anything")
	}
}

// TestReopenServesSameResults checks that a store opened again on existing
// collections (a restarted cew) answers exactly as before.
func TestReopenServesSameResults(t *testing.T) {
	opts := testOptions(t)
	migrate(t, opts)
	ctx := t.Context()
	first := open(t, opts)
	doc := store.Document{Tenant: "reopen", ID: "spec", Number: "SPEC", Revision: "02", Status: "IFC", IndexedAt: time.Unix(1700000000, 0).UTC()}
	chunks := []store.Chunk{
		{ID: "spec/02/0", Tenant: "reopen", DocID: "spec", Revision: "02", Text: "DC cables are laid at a depth of 800 mm.", Vector: []float32{1, 0, 0, 0}},
		{ID: "spec/02/1", Tenant: "reopen", DocID: "spec", Revision: "02", Index: 1, Text: "AC cables are laid at a depth of 600 mm.", Vector: []float32{0, 1, 0, 0}},
	}
	if err := first.PutDocument(ctx, doc, chunks); err != nil {
		t.Fatal(err)
	}
	req := store.SearchRequest{Tenant: "reopen", Query: "cable depth DC", Vector: []float32{1, 0.2, 0, 0}}
	before, err := first.Search(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	genBefore, err := first.Generation(ctx, "reopen")
	if err != nil {
		t.Fatal(err)
	}
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	second := open(t, opts)
	after, err := second.Search(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if len(before) != 2 || !slices.EqualFunc(before, after, func(a, b store.Hit) bool {
		return a.Chunk.ID == b.Chunk.ID && a.Score == b.Score && a.KeywordRank == b.KeywordRank && a.DenseRank == b.DenseRank
	}) {
		t.Errorf("after reopening: %v, before: %v", after, before)
	}
	if g, err := second.Generation(ctx, "reopen"); err != nil || g != genBefore {
		t.Errorf("generation after reopening = %d, %v; want %d", g, err, genBefore)
	}
}

// liteServer is a Milvus Lite process of the test's own, so the test can
// stop and restart it.
type liteServer struct {
	bin, dir, addr string
	cmd            *exec.Cmd
}

// startLite starts Milvus Lite ($CEW_TEST_MILVUS_LITE, the milvus-lite
// executable that scripts/milvus-test-server.sh installs) on a free
// loopback port with its data in dir.
func startLite(t *testing.T, bin, dir string) *liteServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	_ = ln.Close()
	l := &liteServer{bin: bin, dir: dir, addr: "127.0.0.1:" + strconv.Itoa(port)}
	l.start(t)
	return l
}

func (l *liteServer) start(t *testing.T) {
	t.Helper()
	l.cmd = exec.Command(l.bin, "server", "--data-dir", l.dir, "--host", "127.0.0.1", "--port", l.addr[len("127.0.0.1:"):])
	l.cmd.Stdout, l.cmd.Stderr = nil, nil
	if err := l.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.stop() })
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if c, err := net.DialTimeout("tcp", l.addr, 200*time.Millisecond); err == nil {
			_ = c.Close()
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("milvus-lite did not listen on %s", l.addr)
}

// kill stops the server at once, as a crash would.
func (l *liteServer) kill() {
	if l.cmd != nil && l.cmd.Process != nil {
		_ = l.cmd.Process.Signal(syscall.SIGKILL)
		_ = l.cmd.Wait()
		l.cmd = nil
	}
}

func (l *liteServer) stop() {
	if l.cmd != nil && l.cmd.Process != nil {
		_ = l.cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { _ = l.cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = l.cmd.Process.Kill()
			<-done
		}
		l.cmd = nil
	}
}

// TestServerStoppedMidIngest kills the server while a new revision is
// being written: the write fails with an error naming the operation, and
// once the server is back the document serves one complete revision,
// never part of the new one; writing again then serves the new one.
func TestServerStoppedMidIngest(t *testing.T) {
	bin := os.Getenv("CEW_TEST_MILVUS_LITE")
	if bin == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("CEW_TEST_MILVUS_LITE is not set; CI must name the milvus-lite executable (scripts/milvus-test-server.sh bin)")
		}
		t.Skip("CEW_TEST_MILVUS_LITE is not set (the milvus-lite executable: scripts/milvus-test-server.sh bin)")
	}
	srv := startLite(t, bin, filepath.Join(t.TempDir(), "data"))
	opts := milvus.Options{Address: srv.addr, Collection: uniqueCollection(), Dim: testDim, Timeout: 5 * time.Second, ConnectTimeout: 30 * time.Second}
	ctx := t.Context()
	if _, err := milvus.Migrate(ctx, opts, false); err != nil {
		t.Fatal(err)
	}
	s, err := milvus.Open(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	revision := func(rev string, n int) (store.Document, []store.Chunk) {
		doc := store.Document{Tenant: "crash", ID: "sched", Number: "SCHED", Revision: rev, Status: "IFC"}
		chunks := make([]store.Chunk, n)
		for i := range chunks {
			chunks[i] = store.Chunk{ID: store.ChunkID("sched", rev, i), Tenant: "crash", DocID: "sched", Revision: rev, Index: i,
				Text: fmt.Sprintf("Cable schedule revision %s line %d: feeder %d uses 95 mm2 copper.", rev, i, i)}
		}
		doc.Chunks = n
		return doc, chunks
	}
	doc1, chunks1 := revision("01", 50)
	if err := s.PutDocument(ctx, doc1, chunks1); err != nil {
		t.Fatal(err)
	}
	// A revision large enough that the kill lands inside the write.
	doc2, chunks2 := revision("02", 6000)
	errc := make(chan error, 1)
	go func() { errc <- s.PutDocument(ctx, doc2, chunks2) }()
	time.Sleep(300 * time.Millisecond)
	srv.kill()
	putErr := <-errc
	switch {
	case putErr == nil:
		t.Log("the write finished before the server was stopped")
	case !strings.Contains(putErr.Error(), "store/milvus: put document crash sched/02: "):
		t.Errorf("error %q does not name the store, document and revision", putErr)
	default:
		t.Logf("write during the outage: %v", putErr)
	}
	_ = s.Close()

	srv.start(t)
	s, err = milvus.Open(ctx, opts)
	if err != nil {
		t.Fatalf("reopen after restart: %v", err)
	}
	defer s.Close()
	served := func() map[string]int {
		hits, err := s.Search(ctx, store.SearchRequest{Tenant: "crash", Query: "cable schedule feeder copper", K: 10000, Mode: store.ModeKeyword})
		if err != nil {
			t.Fatal(err)
		}
		revs := map[string]int{}
		for _, h := range hits {
			revs[h.Chunk.Revision]++
		}
		return revs
	}
	got := served()
	ok := (len(got) == 1 && got["01"] == 50) || (len(got) == 1 && got["02"] == 6000) ||
		(len(got) == 2 && got["01"] == 50 && got["02"] == 6000)
	if !ok {
		t.Fatalf("after the restart the document serves %v chunks per revision; want one complete revision (01: 50 or 02: 6000)", got)
	}
	if putErr != nil {
		if err := s.PutDocument(ctx, doc2, chunks2); err != nil {
			t.Fatalf("writing again after the restart: %v", err)
		}
	}
	if got := served(); len(got) != 1 || got["02"] != 6000 {
		t.Errorf("after writing again: %v, want 02: 6000", got)
	}
	docs, err := s.Documents(ctx, "crash")
	if err != nil || len(docs) != 2 || !docs[1].Active || docs[0].Active {
		t.Errorf("register after writing again: %+v, %v", docs, err)
	}
}
