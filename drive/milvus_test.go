package drive_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/cewhq/cew/store"
	"github.com/cewhq/cew/store/milvus"
)

// TestSyncOnMilvus runs a Drive sync into Milvus (CEW_STORE=milvus): the
// sync writes through the store interfaces only, so a new file, its next
// revision in another file, a trashed file and two tenants behave as on
// the embedded index.
func TestSyncOnMilvus(t *testing.T) {
	addr := os.Getenv("CEW_TEST_MILVUS_ADDRESS")
	if addr == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("CEW_TEST_MILVUS_ADDRESS is not set; CI must start a Milvus (scripts/milvus-test-server.sh start)")
		}
		t.Skip("CEW_TEST_MILVUS_ADDRESS is not set; start one with scripts/milvus-test-server.sh start")
	}
	b := make([]byte, 5)
	_, _ = rand.Read(b)
	opts := milvus.Options{Address: addr, Collection: "cewdrive_" + hex.EncodeToString(b), Timeout: 30 * time.Second}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if _, err := milvus.Migrate(ctx, opts, false); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := milvus.Drop(ctx, opts); err != nil {
			t.Logf("drop %s: %v", opts.Collection, err)
		}
	})
	st, err := milvus.Open(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, fixtureOptions{store: st})

	acme := f.srv.AddFolder("", "Acme")
	globex := f.srv.AddFolder("", "Globex")
	sub := f.srv.AddFolder(acme, "Drawings")
	old := f.srv.AddFile(sub, "277-007-D-C-40327 Rev 03 Trenches.md", "text/markdown", md("Trenches", "DC cables are laid at 800 mm depth."))
	gone := f.srv.AddFile(acme, "F-1 Rev 1 Fence.md", "text/markdown", md("Fence", "The fence is 2.4 m high."))
	f.srv.AddFile(globex, "277-007-D-C-40327 Rev 03 Trenches.md", "text/markdown", md("Trenches", "DC cables are laid at 1200 mm depth."))
	f.sync("acme", acme)
	f.sync("globex", globex)
	if links := f.linksFor("acme", "DC cables laid depth", "800 mm"); len(links) != 1 || links[0] != webViewLink(old) {
		t.Errorf("acme: links %v", links)
	}
	for _, h := range f.search("globex", "DC cables laid depth") {
		if strings.Contains(h.Chunk.Text, "800 mm") {
			t.Errorf("globex sees acme's chunk")
		}
	}

	next := f.srv.AddFile(sub, "277-007-D-C-40327 Rev 04 Trenches.md", "text/markdown", md("Trenches", "DC cables are laid at 900 mm depth."))
	f.srv.Trash(old)
	f.srv.Trash(gone)
	rep := f.sync("acme", acme)
	if rep.Count("indexed") != 1 || rep.Count("withdrawn") != 2 {
		t.Errorf("report %+v", rep.Files)
	}
	if links := f.linksFor("acme", "DC cables laid depth", "mm depth"); len(links) != 1 || links[0] != webViewLink(next) {
		t.Errorf("after the replacement: links %v, want only %s", links, webViewLink(next))
	}
	if hits := f.search("acme", "fence high"); len(hits) != 0 {
		t.Errorf("a trashed file is still searched: %d hits", len(hits))
	}
	var rev03 store.Document
	for _, d := range f.documents("acme") {
		if d.Revision == "03" {
			rev03 = d
		}
	}
	if rev03.Active || !store.Withdrawn(rev03.Status) {
		t.Errorf("rev 03: %+v", rev03)
	}
}
