package rank

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cewhq/cew/store"
)

// manualPage returns page n (1-based, as a PDF viewer shows it) of the
// PVWatts manual fixture as a chunk of that document.
func manualPage(t testing.TB, n int) store.Chunk {
	t.Helper()
	pages := manualPages(t)
	if n < 1 || n > len(pages) {
		t.Fatalf("manual has %d pages, asked for %d", len(pages), n)
	}
	return manualChunk(n, n, pages[n-1])
}

func manualPages(t testing.TB) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "pvwatts_v5_manual.txt"))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(string(b), "\f")
}

func manualChunk(page, index int, text string) store.Chunk {
	return store.Chunk{
		ID:        store.ChunkID("NREL-TP-6A20-62641", "1", index),
		Tenant:    "demo",
		DocID:     "NREL-TP-6A20-62641",
		DocNumber: "NREL-TP-6A20-62641",
		Title:     "PVWatts Version 5 Manual",
		Revision:  "1",
		Page:      page,
		Index:     index,
		Text:      text,
	}
}

// contentsPage is the dotted-leader contents page fixture, placed as page 2.
func contentsPage(t testing.TB) store.Chunk {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "contents_page.txt"))
	if err != nil {
		t.Fatal(err)
	}
	c := manualChunk(2, 100, string(b))
	c.ID = store.ChunkID("NREL-TP-6A20-62641-TOC", "1", 0)
	c.DocID = "NREL-TP-6A20-62641-TOC"
	return c
}

// chunk builds a small chunk for hand-written cases.
func chunk(id, text string) store.Chunk {
	return store.Chunk{ID: id, DocID: "doc-" + id, Revision: "A", Page: 3, Text: text}
}

func hitsOf(chunks ...store.Chunk) []store.Hit {
	hits := make([]store.Hit, len(chunks))
	for i, c := range chunks {
		hits[i] = store.Hit{Chunk: c, Score: 1 - float64(i)/float64(len(chunks)+1), KeywordRank: i + 1}
	}
	return hits
}

func ids(hits []store.Hit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.Chunk.ID
	}
	return out
}

// manualCandidates cuts the whole manual into paragraph-sized chunks, as
// the ingester would, for realistic candidate lists.
func manualCandidates(t testing.TB) []store.Hit {
	t.Helper()
	var hits []store.Hit
	for p, page := range manualPages(t) {
		lines := strings.Split(page, "\n")
		for from := 0; from < len(lines); from += 30 {
			text := strings.Join(lines[from:min(from+30, len(lines))], "\n")
			if strings.TrimSpace(text) == "" {
				continue
			}
			hits = append(hits, store.Hit{Chunk: manualChunk(p+1, len(hits), text), Score: 0.5})
		}
	}
	return hits
}
