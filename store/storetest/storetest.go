// Package storetest is the conformance suite for store.Store backends: the
// embedded index runs it always, a server-backed backend runs the very same
// cases against a real server.
package storetest

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cewhq/cew/store"
)

// Run runs every conformance case as a sub-test. newStore returns a store
// for one sub-test and registers its own clean-up with t.Cleanup. Each
// sub-test uses tenants named after itself, so a backend may also hand out
// one shared store. Persistence across Close and reopen is for each
// backend's own tests.
func Run(t *testing.T, newStore func(t *testing.T) store.Store) {
	cases := []struct {
		name string
		run  func(t *testing.T, s store.Store)
	}{
		{"TenantRequired", testTenantRequired},
		{"InvalidRequests", testInvalidRequests},
		{"UnknownTenant", testUnknownTenant},
		{"TenantIsolation", testTenantIsolation},
		{"KeywordIdentifiersAndStems", testKeywordIdentifiersAndStems},
		{"ScoresSortedInRange", testScoresSortedInRange},
		{"K", testK},
		{"DocIDsFilter", testDocIDsFilter},
		{"NewerRevisionSupersedes", testNewerRevisionSupersedes},
		{"UnknownRevision", testUnknownRevision},
		{"WithdrawnRevision", testWithdrawnRevision},
		{"ReputReplacesChunks", testReputReplacesChunks},
		{"Generation", testGeneration},
		{"Dense", testDense},
		{"HybridFusion", testHybridFusion},
		{"DocumentsOrderAndFields", testDocumentsOrderAndFields},
		{"ChunkFieldsRoundTrip", testChunkFieldsRoundTrip},
		{"ChunksByID", testChunksByID},
		{"CancelledContext", testCancelledContext},
		{"ConcurrentSearchAndWrite", testConcurrentSearchAndWrite},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.run(t, newStore(t))
		})
	}
}

// tenantFor names a tenant after the running sub-test.
func tenantFor(t *testing.T, suffix string) string {
	return strings.NewReplacer("/", ".", " ", "_").Replace(t.Name()) + suffix
}

// indexedAt is a fixed instant, whole seconds in UTC, so every backend can
// round-trip it.
var indexedAt = time.Date(2024, 5, 1, 9, 30, 0, 0, time.UTC)

func document(tenant, id, revision, status string) store.Document {
	return store.Document{
		Tenant:      tenant,
		ID:          id,
		Number:      strings.ToUpper(id),
		Title:       "Document " + id,
		Revision:    revision,
		Status:      status,
		Date:        "2024-04-30",
		DriveLink:   "https://drive.google.com/file/d/" + id + "-" + revision,
		File:        id + " Rev " + revision + ".pdf",
		ContentHash: fmt.Sprintf("%064x", len(id)*1000+len(revision)),
		Pages:       3,
		IndexedAt:   indexedAt,
	}
}

func chunksFor(doc store.Document, texts ...string) []store.Chunk {
	out := make([]store.Chunk, len(texts))
	for i, text := range texts {
		out[i] = store.Chunk{
			ID:          store.ChunkID(doc.ID, doc.Revision, i),
			Tenant:      doc.Tenant,
			DocID:       doc.ID,
			DocNumber:   doc.Number,
			Title:       doc.Title,
			Revision:    doc.Revision,
			Page:        i + 1,
			Section:     "Section " + fmt.Sprint(i+1),
			DriveLink:   doc.DriveLink,
			ContentHash: doc.ContentHash,
			Index:       i,
			Text:        text,
		}
	}
	return out
}

// put stores doc with one chunk per text and returns the chunks.
func put(t *testing.T, s store.Store, doc store.Document, texts ...string) []store.Chunk {
	t.Helper()
	chunks := chunksFor(doc, texts...)
	doc.Chunks = len(chunks)
	if err := s.PutDocument(t.Context(), doc, chunks); err != nil {
		t.Fatalf("PutDocument(%s %s/%s): %v", doc.Tenant, doc.ID, doc.Revision, err)
	}
	return chunks
}

func search(t *testing.T, s store.Store, req store.SearchRequest) []store.Hit {
	t.Helper()
	hits, err := s.Search(t.Context(), req)
	if err != nil {
		t.Fatalf("Search(%q, mode %q): %v", req.Query, req.Mode, err)
	}
	checkHits(t, hits)
	return hits
}

// checkHits asserts what holds for every result list: scores in [0,1],
// best first.
func checkHits(t *testing.T, hits []store.Hit) {
	t.Helper()
	for i, h := range hits {
		if h.Score < 0 || h.Score > 1 || math.IsNaN(h.Score) {
			t.Errorf("hit %d (%s) has score %v, outside [0,1]", i, h.Chunk.ID, h.Score)
		}
		if i > 0 && h.Score > hits[i-1].Score {
			t.Errorf("hit %d (%s, %v) scores above hit %d (%s, %v)", i, h.Chunk.ID, h.Score, i-1, hits[i-1].Chunk.ID, hits[i-1].Score)
		}
	}
}

func ids(hits []store.Hit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.Chunk.ID
	}
	return out
}

func testTenantRequired(t *testing.T, s store.Store) {
	ctx := t.Context()
	tenant := tenantFor(t, "")
	put(t, s, document(tenant, "d1", "01", "IFC"), "cable trench depth")
	cases := []struct {
		name string
		call func() error
	}{
		{"Search", func() error {
			_, err := s.Search(ctx, store.SearchRequest{Query: "cable"})
			return err
		}},
		{"SearchDense", func() error {
			_, err := s.Search(ctx, store.SearchRequest{Vector: []float32{1, 0}, Mode: store.ModeDense})
			return err
		}},
		{"Documents", func() error {
			_, err := s.Documents(ctx, "")
			return err
		}},
		{"Generation", func() error {
			_, err := s.Generation(ctx, "")
			return err
		}},
		{"PutDocument", func() error {
			doc := document("", "d2", "01", "IFC")
			return s.PutDocument(ctx, doc, chunksFor(doc, "text"))
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if err := c.call(); !errors.Is(err, store.ErrNoTenant) {
				t.Errorf("error = %v, want store.ErrNoTenant", err)
			}
		})
	}
}

func testInvalidRequests(t *testing.T, s store.Store) {
	ctx := t.Context()
	tenant := tenantFor(t, "")
	doc := document(tenant, "d1", "01", "IFC")
	chunks := chunksFor(doc, "cable trench depth")
	chunks[0].Vector = []float32{1, 0, 0, 0}
	if err := s.PutDocument(ctx, doc, chunks); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		call func() error
	}{
		{"NegativeK", func() error {
			_, err := s.Search(ctx, store.SearchRequest{Tenant: tenant, Query: "cable", K: -1})
			return err
		}},
		{"DenseWithoutVector", func() error {
			_, err := s.Search(ctx, store.SearchRequest{Tenant: tenant, Query: "cable", Mode: store.ModeDense})
			return err
		}},
		{"UnknownMode", func() error {
			_, err := s.Search(ctx, store.SearchRequest{Tenant: tenant, Query: "cable", Mode: "fuzzy"})
			return err
		}},
		{"VectorDimensionMismatch", func() error {
			_, err := s.Search(ctx, store.SearchRequest{Tenant: tenant, Vector: []float32{1, 0}, Mode: store.ModeDense})
			return err
		}},
		{"EmptyDocumentID", func() error {
			d := document(tenant, "", "01", "IFC")
			return s.PutDocument(ctx, d, nil)
		}},
		{"ChunkOfAnotherDocument", func() error {
			d := document(tenant, "d3", "01", "IFC")
			return s.PutDocument(ctx, d, chunksFor(document(tenant, "d4", "01", "IFC"), "text"))
		}},
		{"ChunkOfAnotherRevision", func() error {
			d := document(tenant, "d3", "01", "IFC")
			return s.PutDocument(ctx, d, chunksFor(document(tenant, "d3", "02", "IFC"), "text"))
		}},
		{"ChunkOfAnotherTenant", func() error {
			d := document(tenant, "d3", "01", "IFC")
			return s.PutDocument(ctx, d, chunksFor(document(tenant+"-other", "d3", "01", "IFC"), "text"))
		}},
		{"ChunkWithoutID", func() error {
			d := document(tenant, "d3", "01", "IFC")
			c := chunksFor(d, "text")
			c[0].ID = ""
			return s.PutDocument(ctx, d, c)
		}},
		{"ChunkVectorDimensionMismatch", func() error {
			d := document(tenant, "d3", "01", "IFC")
			c := chunksFor(d, "text")
			c[0].Vector = []float32{1, 0}
			return s.PutDocument(ctx, d, c)
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if err := c.call(); !errors.Is(err, store.ErrInvalid) {
				t.Errorf("error = %v, want store.ErrInvalid", err)
			}
		})
	}
	// None of the rejected writes may have left anything behind.
	docs, err := s.Documents(ctx, tenant)
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) != 1 || docs[0].ID != "d1" {
		t.Errorf("after rejected writes the tenant lists %v, want only d1", docs)
	}
}

func testUnknownTenant(t *testing.T, s store.Store) {
	ctx := t.Context()
	put(t, s, document(tenantFor(t, "-known"), "d1", "01", "IFC"), "cable trench depth")
	tenant := tenantFor(t, "-unknown")
	hits, err := s.Search(ctx, store.SearchRequest{Tenant: tenant, Query: "cable"})
	if err != nil || len(hits) != 0 {
		t.Errorf("Search = %v, %v; want no hits and no error", ids(hits), err)
	}
	docs, err := s.Documents(ctx, tenant)
	if err != nil || len(docs) != 0 {
		t.Errorf("Documents = %v, %v; want none and no error", docs, err)
	}
	if _, err := s.Generation(ctx, tenant); err != nil {
		t.Errorf("Generation: %v", err)
	}
}

func testTenantIsolation(t *testing.T, s store.Store) {
	a, b := tenantFor(t, "-a"), tenantFor(t, "-b")
	put(t, s, document(a, "d1", "01", "IFC"), "alpha cable schedule for the substation")
	put(t, s, document(b, "d1", "01", "IFC"), "bravo cable schedule for the substation")
	put(t, s, document(b, "d2", "01", "IFC"), "charlie cable routing")
	cases := []struct {
		name, tenant, query string
		want                []string
	}{
		{"OwnChunk", a, "cable", []string{"d1/01/0"}},
		{"OtherTenantsWord", a, "bravo", nil},
		{"OtherTenantsDocument", a, "charlie", nil},
		{"SecondTenant", b, "alpha", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			hits := search(t, s, store.SearchRequest{Tenant: c.tenant, Query: c.query, Mode: store.ModeKeyword})
			if !slices.Equal(ids(hits), c.want) {
				t.Errorf("hits = %v, want %v", ids(hits), c.want)
			}
			for _, h := range hits {
				if h.Chunk.Tenant != c.tenant {
					t.Errorf("hit %s belongs to tenant %q", h.Chunk.ID, h.Chunk.Tenant)
				}
			}
		})
	}
	docs, err := s.Documents(t.Context(), a)
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) != 1 || docs[0].Tenant != a {
		t.Errorf("Documents(%s) = %v, want its one document", a, docs)
	}
}

func testKeywordIdentifiersAndStems(t *testing.T, s store.Store) {
	tenant := tenantFor(t, "")
	put(t, s, document(tenant, "drawings", "03", "IFC"),
		"Drawing 277-007-D-C-40327 Rev 03 Trenches crossing layout.",
		"Drawing 277-007-D-C-40328 Rev 02 Cable ladder layout.",
		"Drawing 277-007-D-C-40326 Rev 01 Earthing layout.")
	put(t, s, document(tenant, "inverters", "01", "IFC"),
		"Inverter model SB7000TL-US-22, maximum DC input voltage 600 V.",
		"Inverter model SB6000TL-US-22, maximum DC input voltage 600 V.")
	put(t, s, document(tenant, "modules", "02", "IFC"),
		"Temperature coefficient of Pmax -0.35 %/°C at STC.",
		"Temperature coefficient of Pmax -0.45 %/°C at STC.",
		"Ground albedo assumed 0.35 for the bifacial gain.",
		"Ambient design temperature 45 °C.")
	cases := []struct {
		name, query string
		want        string // the id the top hit must have
	}{
		{"DrawingNumber", "277-007-D-C-40327", "drawings/03/0"},
		{"DrawingNumberPart", "40327", "drawings/03/0"},
		{"ModelNumber", "SB7000TL-US-22", "inverters/01/0"},
		{"ModelNumberPart", "SB7000TL", "inverters/01/0"},
		{"NegativeNumber", "-0.35", "modules/02/0"},
		{"NegativeNumberInQuestion", "Is the coefficient -0.45?", "modules/02/1"},
		{"StemPluralQuery", "coefficients", "modules/02/0"},
		{"StemPluralDocument", "trench", "drawings/03/0"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			hits := search(t, s, store.SearchRequest{Tenant: tenant, Query: c.query, Mode: store.ModeKeyword})
			if len(hits) == 0 || hits[0].Chunk.ID != c.want {
				t.Fatalf("query %q: hits %v, want %s first", c.query, ids(hits), c.want)
			}
			if hits[0].KeywordRank != 1 {
				t.Errorf("top hit KeywordRank = %d, want 1", hits[0].KeywordRank)
			}
		})
	}
	t.Run("CompoundUnitBeforePlainUnit", func(t *testing.T) {
		hits := search(t, s, store.SearchRequest{Tenant: tenant, Query: "%/°C", Mode: store.ModeKeyword})
		if len(hits) < 2 {
			t.Fatalf("hits = %v, want both %%/°C chunks first", ids(hits))
		}
		got := ids(hits[:2])
		slices.Sort(got)
		if want := []string{"modules/02/0", "modules/02/1"}; !slices.Equal(got, want) {
			t.Errorf("top hits = %v, want %v", ids(hits), want)
		}
	})
	t.Run("AbsentWord", func(t *testing.T) {
		hits := search(t, s, store.SearchRequest{Tenant: tenant, Query: "transformer", Mode: store.ModeKeyword})
		if len(hits) != 0 {
			t.Errorf("hits = %v, want none", ids(hits))
		}
	})
}

func testScoresSortedInRange(t *testing.T, s store.Store) {
	tenant := tenantFor(t, "")
	put(t, s, document(tenant, "spec", "01", "IFC"),
		"DC cables shall be laid in trenches at a minimum depth of 800 mm.",
		"AC cables shall be laid in trenches at a minimum depth of 600 mm.",
		"Cable trenches crossing roads shall be protected by concrete slabs.",
		"Trench backfill shall be compacted in layers.",
		"Earthing conductors run in the cable trench.")
	for _, mode := range []store.Mode{store.ModeKeyword, store.ModeHybrid, ""} {
		t.Run("Mode_"+string(mode), func(t *testing.T) {
			hits := search(t, s, store.SearchRequest{Tenant: tenant, Query: "cable trench depth", Mode: mode})
			if len(hits) < 4 {
				t.Fatalf("hits = %v, want at least 4", ids(hits))
			}
			if hits[0].Score <= 0 {
				t.Errorf("top score %v, want > 0", hits[0].Score)
			}
			for i, h := range hits {
				if h.KeywordRank != i+1 {
					t.Errorf("hit %d KeywordRank = %d, want %d", i, h.KeywordRank, i+1)
				}
				if h.DenseRank != 0 {
					t.Errorf("hit %d DenseRank = %d without a query vector", i, h.DenseRank)
				}
			}
		})
	}
}

func testK(t *testing.T, s store.Store) {
	tenant := tenantFor(t, "")
	texts := make([]string, 60)
	for i := range texts {
		texts[i] = fmt.Sprintf("Inverter %d feeds combiner box %d through a DC cable.", i+1, i+1)
	}
	put(t, s, document(tenant, "schedule", "01", "IFC"), texts...)
	cases := []struct {
		name string
		k    int
		want int
	}{
		{"One", 1, 1},
		{"Three", 3, 3},
		{"DefaultIsDefaultK", 0, store.DefaultK},
		{"MoreThanMatches", 100, 60},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			hits := search(t, s, store.SearchRequest{Tenant: tenant, Query: "inverter cable", K: c.k, Mode: store.ModeKeyword})
			if len(hits) != c.want {
				t.Errorf("K=%d: %d hits, want %d", c.k, len(hits), c.want)
			}
		})
	}
}

func testDocIDsFilter(t *testing.T, s store.Store) {
	tenant := tenantFor(t, "")
	put(t, s, document(tenant, "a", "01", "IFC"), "Transformer T1 rating 2500 kVA.")
	put(t, s, document(tenant, "b", "01", "IFC"), "Transformer T2 rating 2000 kVA.")
	put(t, s, document(tenant, "c", "01", "IFC"), "Transformer T3 rating 1600 kVA.")
	cases := []struct {
		name   string
		docIDs []string
		want   []string
	}{
		{"None", nil, []string{"a", "b", "c"}},
		{"One", []string{"b"}, []string{"b"}},
		{"Two", []string{"c", "a"}, []string{"a", "c"}},
		{"Unknown", []string{"zzz"}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			hits := search(t, s, store.SearchRequest{Tenant: tenant, Query: "transformer rating", DocIDs: c.docIDs, Mode: store.ModeKeyword})
			var got []string
			for _, h := range hits {
				got = append(got, h.Chunk.DocID)
			}
			slices.Sort(got)
			if !slices.Equal(got, c.want) {
				t.Errorf("documents hit = %v, want %v", got, c.want)
			}
		})
	}
}

// revisionsHit returns the sorted revisions of a document among hits.
func revisionsHit(hits []store.Hit, docID string) []string {
	var out []string
	for _, h := range hits {
		if h.Chunk.DocID == docID && !slices.Contains(out, h.Chunk.Revision) {
			out = append(out, h.Chunk.Revision)
		}
	}
	slices.Sort(out)
	return out
}

// activeRevisions lists the revisions Documents reports active for docID,
// and checks the flags agree with store.MarkActive.
func activeRevisions(t *testing.T, s store.Store, tenant, docID string) []string {
	t.Helper()
	docs, err := s.Documents(t.Context(), tenant)
	if err != nil {
		t.Fatal(err)
	}
	var revs []store.Document
	for _, d := range docs {
		if d.ID == docID {
			revs = append(revs, d)
		}
	}
	want := slices.Clone(revs)
	store.MarkActive(want)
	var active []string
	for i, d := range revs {
		if d.Active != want[i].Active {
			t.Errorf("revision %s Active = %v, store.MarkActive says %v", d.Revision, d.Active, want[i].Active)
		}
		if d.Active {
			active = append(active, d.Revision)
		}
	}
	return active
}

func testNewerRevisionSupersedes(t *testing.T, s store.Store) {
	texts := map[string]string{
		"01": "Minimum trench depth for DC cables is 600 mm.",
		"02": "Minimum trench depth for DC cables is 800 mm.",
	}
	cases := []struct {
		name  string
		order []string
	}{
		{"InOrder", []string{"01", "02"}},
		{"OlderIngestedLast", []string{"02", "01"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tenant := tenantFor(t, "")
			for _, rev := range c.order {
				put(t, s, document(tenant, "trench", rev, "IFC"), texts[rev])
			}
			hits := search(t, s, store.SearchRequest{Tenant: tenant, Query: "trench depth DC cables"})
			if got := revisionsHit(hits, "trench"); !slices.Equal(got, []string{"02"}) {
				t.Errorf("revisions searched = %v, want [02]", got)
			}
			all := search(t, s, store.SearchRequest{Tenant: tenant, Query: "trench depth DC cables", IncludeInactive: true})
			if got := revisionsHit(all, "trench"); !slices.Equal(got, []string{"01", "02"}) {
				t.Errorf("IncludeInactive revisions = %v, want [01 02]", got)
			}
			if got := activeRevisions(t, s, tenant, "trench"); !slices.Equal(got, []string{"02"}) {
				t.Errorf("active revisions = %v, want [02]", got)
			}
			docs, err := s.Documents(t.Context(), tenant)
			if err != nil {
				t.Fatal(err)
			}
			if len(docs) != 2 {
				t.Errorf("Documents lists %d revisions, want both", len(docs))
			}
		})
	}
}

// testUnknownRevision: a revision nobody named (no register, none in the
// file name) is stored as "", read back as "" — never made up — and
// superseded by any named revision.
func testUnknownRevision(t *testing.T, s store.Store) {
	tenant := tenantFor(t, "")
	put(t, s, document(tenant, "trench", "", "IFC"), "Minimum trench depth for DC cables is 600 mm.")
	hits := search(t, s, store.SearchRequest{Tenant: tenant, Query: "trench depth DC cables"})
	if got := revisionsHit(hits, "trench"); !slices.Equal(got, []string{""}) {
		t.Errorf("revisions searched = %q, want the unknown one", got)
	}
	if got := activeRevisions(t, s, tenant, "trench"); !slices.Equal(got, []string{""}) {
		t.Errorf("active revisions = %q, want the unknown one", got)
	}
	put(t, s, document(tenant, "trench", "A", "IFC"), "Minimum trench depth for DC cables is 800 mm.")
	if got := activeRevisions(t, s, tenant, "trench"); !slices.Equal(got, []string{"A"}) {
		t.Errorf("active revisions = %q, want [A]: a named revision supersedes an unknown one", got)
	}
}

func testWithdrawnRevision(t *testing.T, s store.Store) {
	cases := []struct {
		name       string
		statuses   map[string]string // revision → status, put in revision order
		wantActive []string
	}{
		{"NewestWithdrawn", map[string]string{"01": "IFC", "02": "IFC", "03": "Withdrawn"}, []string{"02"}},
		{"NewestSupersededStatus", map[string]string{"A": "For approval", "B": "Superseded"}, []string{"A"}},
		{"AllWithdrawn", map[string]string{"01": "Void", "02": "Cancelled"}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tenant := tenantFor(t, "")
			revs := make([]string, 0, len(c.statuses))
			for r := range c.statuses {
				revs = append(revs, r)
			}
			slices.SortFunc(revs, store.CompareRevisions)
			for _, r := range revs {
				put(t, s, document(tenant, "layout", r, c.statuses[r]), "Cable ladder layout, revision "+r+".")
			}
			if got := activeRevisions(t, s, tenant, "layout"); !slices.Equal(got, c.wantActive) {
				t.Errorf("active revisions = %v, want %v", got, c.wantActive)
			}
			hits := search(t, s, store.SearchRequest{Tenant: tenant, Query: "cable ladder layout"})
			if got := revisionsHit(hits, "layout"); !slices.Equal(got, c.wantActive) {
				t.Errorf("revisions searched = %v, want %v", got, c.wantActive)
			}
		})
	}
}

func testReputReplacesChunks(t *testing.T, s store.Store) {
	tenant := tenantFor(t, "")
	doc := document(tenant, "earthing", "01", "IFC")
	put(t, s, doc,
		"Earthing system general arrangement.",
		"Grounding electrode conductor sized 95 mm2.",
		"Test joints at every inspection pit.")
	if hits := search(t, s, store.SearchRequest{Tenant: tenant, Query: "grounding electrode", Mode: store.ModeKeyword}); len(hits) != 1 {
		t.Fatalf("before re-put: hits %v, want one", ids(hits))
	}
	put(t, s, doc, "Earthing conductor sized 120 mm2.")
	cases := []struct {
		name, query     string
		includeInactive bool
		want            []string
	}{
		{"RemovedTextGone", "grounding electrode", false, nil},
		{"RemovedTextGoneInactiveToo", "grounding electrode inspection pit", true, nil},
		{"NewText", "earthing conductor 120", false, []string{"earthing/01/0"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			hits := search(t, s, store.SearchRequest{Tenant: tenant, Query: c.query, Mode: store.ModeKeyword, IncludeInactive: c.includeInactive})
			if !slices.Equal(ids(hits), c.want) {
				t.Errorf("hits = %v, want %v", ids(hits), c.want)
			}
			for _, h := range hits {
				if h.Chunk.Text != "Earthing conductor sized 120 mm2." {
					t.Errorf("stale chunk text %q", h.Chunk.Text)
				}
			}
		})
	}
	docs, err := s.Documents(t.Context(), tenant)
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) != 1 {
		t.Errorf("Documents lists %d entries after re-put, want 1", len(docs))
	}
}

func testGeneration(t *testing.T, s store.Store) {
	ctx := t.Context()
	tenant := tenantFor(t, "")
	generation := func() uint64 {
		t.Helper()
		g, err := s.Generation(ctx, tenant)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	seen := []uint64{generation()}
	writes := []struct {
		name string
		doc  store.Document
		text string
	}{
		{"FirstDocument", document(tenant, "d1", "01", "IFC"), "cable schedule"},
		{"NewRevision", document(tenant, "d1", "02", "IFC"), "cable schedule updated"},
		{"SameRevisionAgain", document(tenant, "d1", "02", "IFC"), "cable schedule updated again"},
		{"SecondDocument", document(tenant, "d2", "01", "IFC"), "trench layout"},
	}
	for _, w := range writes {
		put(t, s, w.doc, w.text)
		g := generation()
		if slices.Contains(seen, g) {
			t.Errorf("after %s generation is %d, seen before (%v)", w.name, g, seen)
		}
		seen = append(seen, g)
	}
	before := generation()
	search(t, s, store.SearchRequest{Tenant: tenant, Query: "cable"})
	if _, err := s.Documents(ctx, tenant); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Generation(ctx, tenant); err != nil {
		t.Fatal(err)
	}
	if g := generation(); g != before {
		t.Errorf("reads changed the generation from %d to %d", before, g)
	}
}

// vectorDocs are chunks with 4-dimensional vectors at known angles to the
// query vector (1,0,0,0).
func putVectorDocs(t *testing.T, s store.Store, tenant string) {
	t.Helper()
	doc := document(tenant, "vec", "01", "IFC")
	chunks := chunksFor(doc,
		"Grounding electrode grounding electrode.",                                       // A: keyword 1st
		"Grounding electrode conductor sizing for the main service panel board feeders.", // B: keyword 2nd
		"Inverter station housing and ventilation.",                                      // C
		"Fence and gate details for the substation.")                                     // D
	vectors := [][]float32{
		{0, 0, 1, 0},         // A: cosine 0, dense 4th
		{0.9, 0.43589, 0, 0}, // B: cosine 0.9, dense 2nd
		{2, 0, 0, 0},         // C: cosine 1 (not unit length on purpose), dense 1st
		{0.6, 0.8, 0, 0},     // D: cosine 0.6, dense 3rd
	}
	for i := range chunks {
		chunks[i].Vector = vectors[i]
	}
	doc.Chunks = len(chunks)
	if err := s.PutDocument(t.Context(), doc, chunks); err != nil {
		t.Fatal(err)
	}
}

func testDense(t *testing.T, s store.Store) {
	tenant := tenantFor(t, "")
	putVectorDocs(t, s, tenant)
	query := []float32{1, 0, 0, 0}
	hits := search(t, s, store.SearchRequest{Tenant: tenant, Vector: query, Mode: store.ModeDense})
	if want := []string{"vec/01/2", "vec/01/1", "vec/01/3", "vec/01/0"}; !slices.Equal(ids(hits), want) {
		t.Fatalf("dense order = %v, want %v", ids(hits), want)
	}
	wantScores := []float64{1, 0.9, 0.6, 0}
	for i, h := range hits {
		if math.Abs(h.Score-wantScores[i]) > 1e-3 {
			t.Errorf("hit %s score %v, want %v (cosine)", h.Chunk.ID, h.Score, wantScores[i])
		}
		if h.DenseRank != i+1 || h.KeywordRank != 0 {
			t.Errorf("hit %s ranks keyword %d dense %d, want 0 and %d", h.Chunk.ID, h.KeywordRank, h.DenseRank, i+1)
		}
	}
	t.Run("QueryVectorScaleDoesNotMatter", func(t *testing.T) {
		scaled := search(t, s, store.SearchRequest{Tenant: tenant, Vector: []float32{7, 0, 0, 0}, Mode: store.ModeDense})
		if !slices.Equal(ids(scaled), ids(hits)) {
			t.Errorf("scaled query order = %v, want %v", ids(scaled), ids(hits))
		}
	})
	t.Run("KAndFilter", func(t *testing.T) {
		got := search(t, s, store.SearchRequest{Tenant: tenant, Vector: query, Mode: store.ModeDense, K: 2})
		if want := []string{"vec/01/2", "vec/01/1"}; !slices.Equal(ids(got), want) {
			t.Errorf("K=2 = %v, want %v", ids(got), want)
		}
		got = search(t, s, store.SearchRequest{Tenant: tenant, Vector: query, Mode: store.ModeDense, DocIDs: []string{"other"}})
		if len(got) != 0 {
			t.Errorf("filtered to another document: %v", ids(got))
		}
	})
	t.Run("ResultsCarryNoVectorRequirement", func(t *testing.T) {
		for _, h := range hits {
			if h.Chunk.Text == "" || h.Chunk.DocID != "vec" {
				t.Errorf("hit %s lacks its chunk fields", h.Chunk.ID)
			}
		}
	})
}

func testHybridFusion(t *testing.T, s store.Store) {
	tenant := tenantFor(t, "")
	putVectorDocs(t, s, tenant)
	// Keyword ranks: A 1, B 2. Dense ranks: C 1, B 2, D 3, A 4.
	// RRF: B 2/62 > A 1/61+1/64 > C 1/61 > D 1/63.
	hits := search(t, s, store.SearchRequest{Tenant: tenant, Query: "grounding electrode", Vector: []float32{1, 0, 0, 0}, Mode: store.ModeHybrid})
	want := []struct {
		id          string
		keyword     int
		dense       int
		approxScore float64
	}{
		{"vec/01/1", 2, 2, (2.0 / 62) / (2.0 / 61)},
		{"vec/01/0", 1, 4, (1.0/61 + 1.0/64) / (2.0 / 61)},
		{"vec/01/2", 0, 1, (1.0 / 61) / (2.0 / 61)},
		{"vec/01/3", 0, 3, (1.0 / 63) / (2.0 / 61)},
	}
	if len(hits) != len(want) {
		t.Fatalf("hybrid hits = %v, want %d", ids(hits), len(want))
	}
	for i, w := range want {
		h := hits[i]
		if h.Chunk.ID != w.id || h.KeywordRank != w.keyword || h.DenseRank != w.dense {
			t.Errorf("hit %d = %s (keyword %d, dense %d), want %s (keyword %d, dense %d)",
				i, h.Chunk.ID, h.KeywordRank, h.DenseRank, w.id, w.keyword, w.dense)
		}
		if math.Abs(h.Score-w.approxScore) > 1e-6 {
			t.Errorf("hit %s score %v, want RRF %v", h.Chunk.ID, h.Score, w.approxScore)
		}
	}
	t.Run("WithoutVectorIsKeyword", func(t *testing.T) {
		hybrid := search(t, s, store.SearchRequest{Tenant: tenant, Query: "grounding electrode", Mode: store.ModeHybrid})
		keyword := search(t, s, store.SearchRequest{Tenant: tenant, Query: "grounding electrode", Mode: store.ModeKeyword})
		if !slices.Equal(ids(hybrid), ids(keyword)) {
			t.Fatalf("hybrid without vector = %v, keyword = %v", ids(hybrid), ids(keyword))
		}
		for i := range hybrid {
			if math.Abs(hybrid[i].Score-keyword[i].Score) > 1e-9 {
				t.Errorf("hit %s: hybrid score %v, keyword %v", hybrid[i].Chunk.ID, hybrid[i].Score, keyword[i].Score)
			}
		}
	})
	t.Run("K", func(t *testing.T) {
		got := search(t, s, store.SearchRequest{Tenant: tenant, Query: "grounding electrode", Vector: []float32{1, 0, 0, 0}, K: 1})
		if !slices.Equal(ids(got), []string{"vec/01/1"}) {
			t.Errorf("K=1 = %v, want [vec/01/1]", ids(got))
		}
	})
}

func testDocumentsOrderAndFields(t *testing.T, s store.Store) {
	tenant := tenantFor(t, "")
	// Put out of order: the catalog orders by number, then revision the way
	// document controllers read it ("2" < "10").
	docs := []store.Document{
		document(tenant, "b-200", "01", "IFC"),
		document(tenant, "a-100", "10", "IFC"),
		document(tenant, "a-100", "2", "For approval"),
	}
	for _, d := range docs {
		put(t, s, d, "Text of "+d.ID+" revision "+d.Revision+".")
	}
	got, err := s.Documents(t.Context(), tenant)
	if err != nil {
		t.Fatal(err)
	}
	want := []store.Document{docs[2], docs[1], docs[0]}
	want[0].Active, want[1].Active, want[2].Active = false, true, true
	if len(got) != len(want) {
		t.Fatalf("Documents lists %d, want %d", len(got), len(want))
	}
	for i := range want {
		w := want[i]
		w.Chunks = 1
		g := got[i]
		if !g.IndexedAt.Equal(w.IndexedAt) {
			t.Errorf("document %d IndexedAt = %v, want %v", i, g.IndexedAt, w.IndexedAt)
		}
		g.IndexedAt, w.IndexedAt = time.Time{}, time.Time{}
		if g != w {
			t.Errorf("document %d =\n  %+v\nwant\n  %+v", i, g, w)
		}
	}
}

func testChunkFieldsRoundTrip(t *testing.T, s store.Store) {
	tenant := tenantFor(t, "")
	doc := document(tenant, "register", "B", "IFC")
	chunks := chunksFor(doc, "Row 14: module Q.PEAK DUO L-G8 rated 425 W.")
	chunks[0].Page = 0
	chunks[0].Sheet = "Modules"
	chunks[0].Row = 14
	chunks[0].Section = "Module data"
	doc.Chunks = 1
	if err := s.PutDocument(t.Context(), doc, chunks); err != nil {
		t.Fatal(err)
	}
	hits := search(t, s, store.SearchRequest{Tenant: tenant, Query: "module 425 W", Mode: store.ModeKeyword})
	if len(hits) != 1 {
		t.Fatalf("hits = %v, want one", ids(hits))
	}
	got := hits[0].Chunk
	got.Vector = nil
	if !reflect.DeepEqual(got, chunks[0]) {
		t.Errorf("chunk =\n  %+v\nwant\n  %+v", got, chunks[0])
	}
}

// testChunksByID holds store.ChunkReader, for a backend that has it: the
// chunks asked for, in the order asked, each once, of any revision and of
// the tenant asked for only.
func testChunksByID(t *testing.T, s store.Store) {
	r, ok := s.(store.ChunkReader)
	if !ok {
		t.Skip("the backend reads chunks by search only")
	}
	tenant := tenantFor(t, "")
	old := put(t, s, document(tenant, "manual", "A", "IFC"), "Title page. Written by A. Author.", "Body.", "Back page.")
	cur := put(t, s, document(tenant, "manual", "B", "IFC"), "Title page, revised.", "Body, revised.")
	other := put(t, s, document(tenantFor(t, "-other"), "manual", "A", "IFC"), "Another tenant's title page.")
	ids := []string{cur[1].ID, "manual/B/9", old[0].ID, cur[1].ID, other[0].ID, old[2].ID}
	got, err := r.Chunks(t.Context(), tenant, ids)
	if err != nil {
		t.Fatal(err)
	}
	want := []store.Chunk{cur[1], old[0], old[2]}
	for i := range got {
		got[i].Vector = nil
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Chunks(%v) =\n  %+v\nwant\n  %+v", ids, got, want)
	}
	if got, err := r.Chunks(t.Context(), tenant, nil); err != nil || len(got) != 0 {
		t.Errorf("Chunks(no ids) = %v, %v; want none", got, err)
	}
	if _, err := r.Chunks(t.Context(), "", ids); !errors.Is(err, store.ErrNoTenant) {
		t.Errorf("Chunks without a tenant: err = %v, want ErrNoTenant", err)
	}
}

func testCancelledContext(t *testing.T, s store.Store) {
	tenant := tenantFor(t, "")
	put(t, s, document(tenant, "d1", "01", "IFC"), "cable schedule")
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	cases := []struct {
		name string
		call func() error
	}{
		{"Search", func() error {
			_, err := s.Search(ctx, store.SearchRequest{Tenant: tenant, Query: "cable"})
			return err
		}},
		{"PutDocument", func() error {
			d := document(tenant, "d2", "01", "IFC")
			return s.PutDocument(ctx, d, chunksFor(d, "trench"))
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if err := c.call(); !errors.Is(err, context.Canceled) {
				t.Errorf("error = %v, want context.Canceled", err)
			}
		})
	}
}

func testConcurrentSearchAndWrite(t *testing.T, s store.Store) {
	tenant := tenantFor(t, "")
	put(t, s, document(tenant, "spec", "01", "IFC"), "Cable trench depth 800 mm.", "Cable ladder width 300 mm.")
	const writes, readers = 20, 4
	var wg sync.WaitGroup
	errs := make(chan error, readers*writes*2+writes)
	stop := make(chan struct{})
	for range readers {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				hits, err := s.Search(t.Context(), store.SearchRequest{Tenant: tenant, Query: "cable trench"})
				if err != nil {
					errs <- err
					return
				}
				if len(hits) == 0 {
					errs <- errors.New("a search during writes found nothing")
					return
				}
			}
		})
	}
	for i := range writes {
		d := document(tenant, "spec", fmt.Sprintf("%02d", i+2), "IFC")
		c := chunksFor(d, "Cable trench depth 800 mm.", "Cable ladder width 300 mm.")
		d.Chunks = len(c)
		if err := s.PutDocument(t.Context(), d, c); err != nil {
			errs <- err
		}
	}
	close(stop)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if got := activeRevisions(t, s, tenant, "spec"); !slices.Equal(got, []string{fmt.Sprintf("%02d", writes+1)}) {
		t.Errorf("active revisions = %v after concurrent writes", got)
	}
}
