package ingest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cewhq/cew/store"
)

func TestChunk(t *testing.T) {
	doc := store.Document{Tenant: "acme", ID: "277-007-d-c-40327", Number: "277-007-D-C-40327", Title: "Trenches", Revision: "03", DriveLink: "https://drive.google.com/x"}
	sentence := "The minimum trench depth for DC cables is 800 mm from finished ground level. "
	long := strings.Repeat(sentence, 60) // about 840 words
	tests := []struct {
		name       string
		blocks     []Block
		wantChunks int
		check      func(t *testing.T, cs []store.Chunk)
	}{
		{name: "short block is one chunk", blocks: []Block{{Page: 5, Section: "4.2 Cable trenches", Text: sentence}}, wantChunks: 1},
		{name: "blocks are never merged across pages", blocks: []Block{{Page: 5, Text: sentence}, {Page: 6, Text: sentence}}, wantChunks: 2,
			check: func(t *testing.T, cs []store.Chunk) {
				if cs[0].Page != 5 || cs[1].Page != 6 {
					t.Errorf("pages %d, %d", cs[0].Page, cs[1].Page)
				}
			}},
		{name: "rows stay one chunk each", blocks: []Block{{Sheet: "Data", Row: 2, Text: "Model: A; Isc: 5"}, {Sheet: "Data", Row: 3, Text: "Model: B; Isc: 6"}}, wantChunks: 2,
			check: func(t *testing.T, cs []store.Chunk) {
				if cs[1].Sheet != "Data" || cs[1].Row != 3 || cs[1].Page != 0 {
					t.Errorf("row chunk = %+v", cs[1])
				}
			}},
		{name: "long block cut within the size band with overlap", blocks: []Block{{Page: 1, Text: long}},
			check: func(t *testing.T, cs []store.Chunk) {
				if len(cs) < 2 {
					t.Fatalf("%d chunks for %d words", len(cs), len(strings.Fields(long)))
				}
				for i, c := range cs {
					if n := len(strings.Fields(c.Text)); n > DefaultChunkOptions.MaxWords {
						t.Errorf("chunk %d has %d words", i, n)
					}
				}
				first := strings.Fields(cs[0].Text)
				tail := strings.Join(first[len(first)-5:], " ")
				if !strings.Contains(cs[1].Text, tail) {
					t.Errorf("no overlap between consecutive chunks")
				}
			}},
		{name: "table rows are never split", blocks: []Block{{Page: 13, Section: "Table 6. System Losses", Text: "Loss mechanism | Default value\nSoiling | 2 %\nShading | 3 %"}}, wantChunks: 1,
			check: func(t *testing.T, cs []store.Chunk) {
				if !strings.Contains(cs[0].Text, "Soiling | 2 %\nShading | 3 %") {
					t.Errorf("table lines lost: %q", cs[0].Text)
				}
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cs := Chunk(doc, tc.blocks, DefaultChunkOptions)
			if tc.wantChunks > 0 && len(cs) != tc.wantChunks {
				t.Fatalf("%d chunks, want %d", len(cs), tc.wantChunks)
			}
			for i, c := range cs {
				if c.ID != store.ChunkID(doc.ID, doc.Revision, i) || c.Index != i || c.Tenant != "acme" || c.DocNumber != doc.Number ||
					c.Title != doc.Title || c.Revision != "03" || c.DriveLink != doc.DriveLink || c.ContentHash == "" {
					t.Errorf("chunk %d metadata = %+v", i, c)
				}
			}
			if tc.check != nil {
				tc.check(t, cs)
			}
		})
	}
}

// TestChunkTableHeader: every chunk of a table cut across chunks starts
// with the table's header line, so its rows keep their column names.
func TestChunkTableHeader(t *testing.T) {
	doc := store.Document{Tenant: "acme", ID: "nrel", Number: "NREL-TP-6A20-62641", Revision: "1"}
	header := "Location | Fixed | Fixed+Premium | 1 Axis | Backtracking | 2 Axis"
	lines := []string{"Table 8. Comparison with PVWatts V1 for selected TMY2 locations", header}
	for i := range 120 {
		lines = append(lines, fmt.Sprintf("XX City %d | 9.%d %% | 10.%d %% | 4.%d %% | 5.%d %% | 8.%d %%", i, i%10, i%10, i%10, i%10, i%10))
	}
	lines = append(lines, "Table 9. Other values", "Case | Value", "A | 1")
	cs := Chunk(doc, []Block{{Page: 20, Section: "Table 8", Text: strings.Join(lines, "\n")}}, ChunkOptions{TargetWords: 250, MaxWords: 400, OverlapWords: 40})
	if len(cs) < 3 {
		t.Fatalf("%d chunks, want the table cut in three or more", len(cs))
	}
	for i, c := range cs {
		first, _, _ := strings.Cut(c.Text, "\n")
		if i > 0 && strings.HasPrefix(first, "XX City") {
			t.Errorf("chunk %d starts inside the table without its header: %q", i, first)
		}
		if strings.Count(c.Text, header) > 1 {
			t.Errorf("chunk %d holds the header twice", i)
		}
		if strings.Contains(c.Text, "Case | Value") && strings.Contains(c.Text, "Table 9") && strings.Index(c.Text, header) > strings.Index(c.Text, "Table 9") {
			t.Errorf("chunk %d puts table 8's header after table 9's caption", i)
		}
	}
}
