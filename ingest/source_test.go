package ingest_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/cewhq/cew/ingest"
	"github.com/cewhq/cew/store"
)

// TestIngestSources: a file from a source is indexed under the identity
// the source gives, records its address, and a revision whose source file
// is live cannot be taken over by another file; Withdraw takes revisions
// out of search and keeps them in the register.
func TestIngestSources(t *testing.T) {
	e := newEnv(t, 0)
	ctx := context.Background()
	local := e.write(t, "copy/Trench spec.md", spec("800"))
	entry := ingest.RegisterEntry{Number: "277-007-D-C-40327", Title: "Trenches", Revision: "03", Status: "IFC",
		DriveLink: "https://drive.google.com/file/d/A/view"}
	live := map[string]bool{"drive:A": true}
	isLive := func(s string) bool { return live[s] }
	rep, err := e.in.IngestSources(ctx, tenant, []ingest.SourceFile{{Path: local, Source: "drive:A", Entry: entry}}, isLive, nil)
	if err != nil || rep.Files[0].Outcome != ingest.Indexed {
		t.Fatalf("IngestSources: %v %+v", err, rep.Files)
	}
	docs, _ := e.st.Documents(ctx, tenant)
	if len(docs) != 1 || docs[0].File != "drive:A" || docs[0].Title != "Trenches" || docs[0].DriveLink != entry.DriveLink {
		t.Fatalf("documents %+v", docs)
	}

	other := e.write(t, "copy2/Trench spec.md", spec("900"))
	entry.DriveLink = "https://drive.google.com/file/d/B/view"
	rep, _ = e.in.IngestSources(ctx, tenant, []ingest.SourceFile{{Path: other, Source: "drive:B", Entry: entry}}, isLive, nil)
	if f := rep.Files[0]; f.Outcome != ingest.Failed || !errors.Is(f.Err, ingest.ErrDuplicate) || f.Conflict != "drive:A" {
		t.Errorf("a second file for a live file's revision: %+v", f)
	}
	live["drive:A"] = false
	rep, _ = e.in.IngestSources(ctx, tenant, []ingest.SourceFile{{Path: other, Source: "drive:B", Entry: entry}}, isLive, nil)
	if f := rep.Files[0]; f.Outcome != ingest.Indexed {
		t.Errorf("once the first file is gone: %+v", f)
	}

	rep, _ = e.in.IngestSources(ctx, tenant, []ingest.SourceFile{{Path: other, Source: "/not/an/address", Entry: entry}}, isLive, nil)
	if f := rep.Files[0]; f.Outcome != ingest.Failed || !strings.Contains(f.Err.Error(), "not an address") {
		t.Errorf("a source that is a path: %+v", f)
	}

	if err := e.in.Withdraw(ctx, tenant, []ingest.Withdrawal{{DocID: ingest.DocID(entry.Number), Revision: "03", Status: "Trashed"}}); err == nil {
		t.Error("a status that does not withdraw was accepted")
	}
	w := ingest.Withdrawal{DocID: ingest.DocID(entry.Number), Revision: "03", Status: "Withdrawn: trashed in Drive"}
	if err := e.in.Withdraw(ctx, tenant, []ingest.Withdrawal{w}); err != nil {
		t.Fatal(err)
	}
	hits, _ := e.st.Search(ctx, store.SearchRequest{Tenant: tenant, Query: "minimum trench depth"})
	docs, _ = e.st.Documents(ctx, tenant)
	if len(hits) != 0 || len(docs) != 1 || docs[0].Status != w.Status || docs[0].Active || docs[0].Chunks != 0 {
		t.Errorf("after Withdraw: %d hits, documents %+v", len(hits), docs)
	}
}
