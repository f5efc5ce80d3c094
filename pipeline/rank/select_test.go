package rank

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/cewhq/cew/pipeline/classify"
	"github.com/cewhq/cew/store"
)

func TestClassifyPage(t *testing.T) {
	glossary := store.Chunk{ID: "g", Page: 18, Text: strings.Join([]string{
		"Abbreviations",
		"AC – alternating current",
		"DC – direct current",
		"GCR – ground coverage ratio",
		"LID – light-induced degradation",
		"POA – plane of array",
		"TMY – typical meteorological year",
	}, "\n")}
	glossaryBySection := store.Chunk{ID: "gs", Page: 19, Section: "Definitions", Text: "Albedo: the fraction of sunlight reflected by the ground."}
	tests := []struct {
		name  string
		chunk func(t *testing.T) store.Chunk
		want  pageKind
	}{
		{name: "cover page", chunk: func(t *testing.T) store.Chunk { return manualPage(t, 1) }, want: pageKind{cover: true}},
		{name: "second title page", chunk: func(t *testing.T) store.Chunk { return manualPage(t, 2) }, want: pageKind{cover: true}},
		{name: "notice page", chunk: func(t *testing.T) store.Chunk { return manualPage(t, 3) }, want: pageKind{notice: true}},
		{name: "abstract and introduction", chunk: func(t *testing.T) store.Chunk { return manualPage(t, 4) }, want: pageKind{quantities: true}},
		{name: "losses table", chunk: func(t *testing.T) store.Chunk { return manualPage(t, 13) },
			want: pageKind{quantities: true, table: true}},
		{name: "contents page", chunk: func(t *testing.T) store.Chunk { return contentsPage(t) }, want: pageKind{contents: true, table: true}},
		{name: "glossary lines", chunk: func(*testing.T) store.Chunk { return glossary }, want: pageKind{glossary: true}},
		{name: "glossary section", chunk: func(*testing.T) store.Chunk { return glossaryBySection }, want: pageKind{glossary: true}},
		{name: "spreadsheet row", chunk: func(*testing.T) store.Chunk {
			return store.Chunk{ID: "r", Sheet: "Parameters", Row: 12, Text: "Manufacturer: SMA; Paco: 7000; Vdcmax: 600"}
		}, want: pageKind{table: true}},
		{name: "drawing title", chunk: func(*testing.T) store.Chunk {
			return store.Chunk{ID: "d", Page: 1, Title: "Trenches crossing layout",
				Text: strings.Repeat("Cable trench section with sand bedding and warning tape above the ducts. ", 12)}
		}, want: pageKind{drawing: true}},
		{name: "table at the top of a short document is not a cover", chunk: func(*testing.T) store.Chunk {
			// IEA PVPS T13 bifacial scenarios, page 1: the scenario table.
			return store.Chunk{ID: "iea", Page: 1, Text: "Albedo Hub\nHeight\n0.2\n1.5 m\n0.2\n1.5 m\n0.5\n1.5 m\n0.2\n3.5 m\n" +
				"Configuration Ground\nsurface\n1-Up portrait Horizontal\n1-Up portrait Horizontal"}
		}, want: pageKind{quantities: true, table: true}},
		{name: "short abstract on page 1 is not a cover", chunk: func(*testing.T) store.Chunk {
			return store.Chunk{ID: "abs", Page: 1, Text: "Bifacial modules on single-axis trackers gain energy from light reflected " +
				"by the ground; the gain depends on albedo, hub height and ground coverage ratio, which this study varies."}
		}, want: pageKind{}},
		{name: "construction text with a warranty clause", chunk: func(*testing.T) store.Chunk {
			return store.Chunk{ID: "w", Page: 7, Text: "The module supplier shall provide a 25 year performance warranty. " +
				"Liability for damage during installation rests with the contractor."}
		}, want: pageKind{quantities: true}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := tc.chunk(t)
			if got := classifyPage(&c); got != tc.want {
				t.Errorf("classifyPage = %+v, want %+v", got, tc.want)
			}
		})
	}
}

// TestSelectManualBoilerplate is the case the penalties exist for:
// retrieval ranks the NOTICE, contents and cover pages of the PVWatts
// manual above the losses table for "default system losses", and the
// ranked top must not start with them.
func TestSelectManualBoilerplate(t *testing.T) {
	notice, cover, contents := manualPage(t, 3), manualPage(t, 1), contentsPage(t)
	losses, inputs := manualPage(t, 13), manualPage(t, 6)
	hits := []store.Hit{
		{Chunk: contents, Score: 1},
		{Chunk: notice, Score: 0.95},
		{Chunk: cover, Score: 0.9},
		{Chunk: losses, Score: 0.6},
		{Chunk: inputs, Score: 0.5},
	}
	tests := []struct {
		name   string
		rerank bool
	}{
		{name: "retrieval scores", rerank: false},
		{name: "lexical reranking", rerank: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := hits
			if tc.rerank {
				var err error
				in, err = NewLexical(LexicalOptions{}).Rerank(context.Background(), "What are the default system losses?", hits)
				if err != nil {
					t.Fatal(err)
				}
			}
			got := Select(in, SelectOptions{Hints: classify.Hints{PreferNumbers: true}})
			order := ids(got)
			best := slices.Index(order, losses.ID)
			for _, bad := range []store.Chunk{notice, contents, cover} {
				if i := slices.Index(order, bad.ID); i >= 0 && i < best {
					t.Errorf("order %v: boilerplate %s (page %d) above the losses table (scores %v)", order, bad.ID, bad.Page, scores(got))
				}
			}
			assertSorted(t, got)
		})
	}
	// A question about the notice page itself ("osti fax number from the
	// notice page") keeps it where retrieval put it.
	got := ids(Select(hits, SelectOptions{Hints: classify.Hints{AllowNotice: true}}))
	if i, j := slices.Index(got, notice.ID), slices.Index(got, losses.ID); i < 0 || i > j {
		t.Errorf("AllowNotice: order %v, want the notice page %s above the losses table", got, notice.ID)
	}
}

func TestSelect(t *testing.T) {
	page := func(id string, page, index int, text string) store.Chunk {
		return store.Chunk{ID: id, DocID: "spec", Revision: "B", Page: page, Index: index, Text: text}
	}
	row := func(id string, r int, text string) store.Chunk {
		return store.Chunk{ID: id, DocID: "inverters", Revision: "1", Sheet: "Parameters", Row: r, Index: r, Text: text}
	}
	glossary := store.Chunk{ID: "gloss", DocID: "spec", Revision: "B", Page: 30, Index: 90, Section: "Glossary",
		Text: "GCR: ground coverage ratio, the ratio of module area to ground area."}
	tests := []struct {
		name string
		hits []store.Hit
		opts SelectOptions
		want []string
	}{
		{
			name: "default keeps five",
			hits: hitsOf(page("a", 3, 10, "alpha text one"), page("b", 4, 20, "beta text"), page("c", 5, 30, "gamma text"),
				page("d", 6, 40, "delta text"), page("e", 7, 50, "epsilon text"), page("f", 8, 60, "zeta text"), page("g", 9, 70, "eta text")),
			want: []string{"a", "b", "c", "d", "e"},
		},
		{
			name: "top k two",
			hits: hitsOf(page("a", 3, 10, "alpha"), page("b", 4, 20, "beta"), page("c", 5, 30, "gamma")),
			opts: SelectOptions{TopK: 2},
			want: []string{"a", "b"},
		},
		{
			name: "adjacent chunk of the same page dropped, better kept",
			hits: hitsOf(page("p5i2", 5, 2, "trench depth 800 mm"), page("p5i3", 5, 3, "trench depth 800 mm and bedding"),
				page("p5i9", 5, 9, "other passage"), page("p6i4", 6, 4, "next page passage")),
			want: []string{"p5i2", "p5i9", "p6i4"},
		},
		{
			name: "adjacent chunk kept when it holds a word of the query no kept chunk holds",
			hits: hitsOf(page("p16i1", 16, 1, "Table 8 compares fixed and tracking systems."),
				page("p16i2", 16, 2, "At Elkins the fixed system gains most."), page("p16i3", 16, 3, "Tracking systems gain less.")),
			opts: SelectOptions{Query: "table 8 elkins fixed increase"},
			want: []string{"p16i1", "p16i2"},
		},
		{
			name: "the next rows of a table are kept though they add no word of the query",
			hits: hitsOf(page("p20i1", 20, 1, "Location | Fixed | 2 Axis\nME Portland | 9.6 % | 6.9 %"),
				page("p20i2", 20, 2, "Location | Fixed | 2 Axis\nOR Portland | 11.6 % | 9.9 %")),
			opts: SelectOptions{Query: "portland oregon fixed increase"},
			want: []string{"p20i1", "p20i2"},
		},
		{
			name: "a word another document holds does not stand for the neighbour's own",
			hits: hitsOf(page("p2i4", 2, 4, "Scenarios are run on single axis trackers."),
				store.Chunk{ID: "manual", DocID: "manual", Revision: "1", Page: 9, Index: 30, Text: "PVWatts models backtracking."},
				page("p2i5", 2, 5, "Backtracking is enabled.")),
			opts: SelectOptions{Query: "is backtracking on in the tracking scenarios"},
			want: []string{"p2i4", "manual", "p2i5"},
		},
		{
			name: "adjacent chunks on different pages kept",
			hits: hitsOf(page("p5", 5, 3, "end of page five"), page("p6", 6, 4, "start of page six")),
			want: []string{"p5", "p6"},
		},
		{
			name: "other revision is not a neighbour",
			hits: []store.Hit{
				{Chunk: page("b3", 5, 3, "rev B text"), Score: 0.9},
				{Chunk: store.Chunk{ID: "a4", DocID: "spec", Revision: "A", Page: 5, Index: 4, Text: "rev A text"}, Score: 0.8},
			},
			want: []string{"b3", "a4"},
		},
		{
			name: "identical text kept once",
			hits: hitsOf(page("x", 3, 1, "The trench depth is 800 mm."),
				store.Chunk{ID: "y", DocID: "copy", Page: 9, Index: 7, Text: "the trench  depth is\n800 mm."}),
			want: []string{"x"},
		},
		{
			name: "neighbouring spreadsheet rows kept",
			hits: hitsOf(row("r10", 10, "SMA SB7000TL-US 7000 W"), row("r11", 11, "SMA SB8000TL-US 8000 W")),
			want: []string{"r10", "r11"},
		},
		{
			name: "glossary penalised",
			hits: []store.Hit{{Chunk: glossary, Score: 0.8}, {Chunk: page("body", 7, 3, "The GCR is 0.4 by default."), Score: 0.6}},
			want: []string{"body", "gloss"},
		},
		{
			name: "glossary allowed for definitions",
			hits: []store.Hit{{Chunk: glossary, Score: 0.8}, {Chunk: page("body", 7, 3, "The GCR is 0.4 by default."), Score: 0.6}},
			opts: SelectOptions{Hints: classify.Hints{AllowGlossary: true}},
			want: []string{"gloss", "body"},
		},
		{
			name: "numbers with units preferred on a near tie",
			hits: []store.Hit{
				{Chunk: page("words", 3, 1, "Trenches shall be deep enough to protect the cables."), Score: 0.72},
				{Chunk: page("value", 4, 9, "Trenches shall be 800 mm deep."), Score: 0.7},
			},
			opts: SelectOptions{Hints: classify.Hints{PreferNumbers: true}},
			want: []string{"value", "words"},
		},
		{
			name: "preference does not beat a clearly better chunk",
			hits: []store.Hit{
				{Chunk: page("words", 3, 1, "Trenches shall be deep enough to protect the cables."), Score: 0.9},
				{Chunk: page("value", 4, 9, "Trenches shall be 800 mm deep."), Score: 0.5},
			},
			opts: SelectOptions{Hints: classify.Hints{PreferNumbers: true}},
			want: []string{"words", "value"},
		},
		{
			name: "spreadsheet rows preferred for selection",
			hits: []store.Hit{
				{Chunk: page("prose", 3, 1, "Inverters are selected by the designer."), Score: 0.72},
				{Chunk: row("r5", 5, "SMA SB7000TL-US 7000 W"), Score: 0.7},
			},
			opts: SelectOptions{Hints: classify.Hints{PreferTables: true}},
			want: []string{"r5", "prose"},
		},
		{name: "nothing in, nothing out", hits: nil, want: []string{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := slices.Clone(tc.hits)
			got := Select(tc.hits, tc.opts)
			if !slices.Equal(ids(got), tc.want) {
				t.Errorf("Select = %v, want %v (scores %v)", ids(got), tc.want, scores(got))
			}
			if !slices.EqualFunc(in, tc.hits, sameHit) {
				t.Error("input slice was modified")
			}
			assertSorted(t, got)
		})
	}
}

func BenchmarkSelect50(b *testing.B) {
	hits := manualCandidates(b)[:50]
	b.ReportAllocs()
	for b.Loop() {
		Select(hits, SelectOptions{Hints: classify.Hints{PreferNumbers: true}})
	}
}
