package rank

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/cewhq/cew/store"
)

func TestLexicalOrder(t *testing.T) {
	tests := []struct {
		name  string
		query string
		hits  []store.Hit
		// first must rank above every id in below.
		first string
		below []string
	}{
		{
			name:  "exact number beats its prefix",
			query: "What is the rated power of Inverter 42?",
			hits: hitsOf(
				chunk("inv4", "Inverter 4 rated power 250 kW, located at block B."),
				chunk("inv42", "Inverter 42 rated power 500 kW, located at block D."),
				chunk("inv420", "Inverter 420 rated power 100 kW."),
			),
			first: "inv42",
			below: []string{"inv4", "inv420"},
		},
		{
			name:  "exact drawing number beats a sibling number",
			query: "cable crossing on 277-007-D-C-40327",
			hits: hitsOf(
				chunk("sibling", "Drawing 277-007-D-C-40328 shows the cable crossing at the access road."),
				chunk("exact", "Drawing 277-007-D-C-40327 shows the cable crossing at the fence line."),
			),
			first: "exact",
			below: []string{"sibling"},
		},
		{
			name:  "glued unit matches spaced unit",
			query: "trench 800mm deep",
			hits: hitsOf(
				chunk("other", "The trench is 600 mm deep below finished ground level."),
				chunk("spaced", "The trench is 800 mm deep below finished ground level."),
			),
			first: "spaced",
			below: []string{"other"},
		},
		{
			name:  "terms close together beat terms far apart",
			query: "minimum trench depth DC cables",
			hits: hitsOf(
				chunk("far", "DC cables are listed in the schedule. "+strings.Repeat("General site notes apply to all works. ", 12)+
					"The trench route is surveyed. Minimum clearances to fences apply. Depth of topsoil varies."),
				chunk("near", "The minimum trench depth for DC cables is 800 mm from finished ground level."),
			),
			first: "near",
			below: []string{"far"},
		},
		{
			name:  "title and section count toward coverage",
			query: "PVWatts inverter efficiency",
			hits: hitsOf(
				store.Chunk{ID: "untitled", DocID: "x", Text: "The inverter efficiency curve is shown."},
				store.Chunk{ID: "titled", DocID: "y", Title: "PVWatts Version 5 Manual", Section: "Inverter Model",
					Text: "The inverter efficiency curve is shown."},
			),
			first: "titled",
			below: []string{"untitled"},
		},
		{
			name:  "coverage outweighs retrieval rank",
			query: "default total system losses percentage",
			hits: []store.Hit{
				{Chunk: chunk("a", "System overview and site description."), Score: 0.9},
				{Chunk: chunk("b", "Total system losses are specified as a percentage, with a default value of 14 %."), Score: 0.3},
			},
			first: "b",
			below: []string{"a"},
		},
	}
	lex := NewLexical(LexicalOptions{})
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := lex.Rerank(context.Background(), tc.query, tc.hits)
			if err != nil {
				t.Fatal(err)
			}
			order := ids(got)
			at := slices.Index(order, tc.first)
			for _, b := range tc.below {
				if bi := slices.Index(order, b); at < 0 || bi < at {
					t.Errorf("order %v: %s should rank above %s (scores %v)", order, tc.first, b, scores(got))
				}
			}
		})
	}
}

func TestLexicalAbsoluteScores(t *testing.T) {
	candidates := map[string]store.Chunk{
		"answer":    chunk("answer", "The minimum trench depth for DC cables is 800 mm from finished ground level."),
		"common":    chunk("common", "All cables shall be labelled at both ends."),
		"unrelated": chunk("unrelated", "The site office is open from 7:00 to 17:00."),
		"partial":   chunk("partial", "Trench backfill shall be compacted in layers."),
		"row":       chunk("row", "Name: Sustainable Energy Technologies: SUNERGY 5000-70-240 240V [CEC 2011]; Vdcmax (V): 150; Idcmax (A): 77"),
		"sx70":      chunk("sx70", "Model: BP Solar SX70; Vintage: 2003 (E); Isco: 4.5; Voco: 21.4"),
		"sx75":      chunk("sx75", "Model: BP Solar SX75; Vintage: 2003 (E); Isco: 4.75; Voco: 21.8"),
	}
	const question = "minimum trench depth for DC cables"
	tests := []struct {
		name  string
		query string
		// order is the retrieval order of the candidates.
		order    []string
		id       string
		min, max float64
	}{
		{name: "all terms close, retrieved first", query: question, order: []string{"answer", "common", "partial", "unrelated"},
			id: "answer", min: 0.75, max: 1},
		{name: "all terms close, retrieved last", query: question, order: []string{"common", "partial", "unrelated", "answer"},
			id: "answer", min: 0.5, max: 1},
		{name: "one common word, retrieved first", query: question, order: []string{"common", "partial", "unrelated", "answer"},
			id: "common", min: 0, max: 0.25},
		{name: "nothing shared, retrieved first", query: question, order: []string{"unrelated", "common", "partial", "answer"},
			id: "unrelated", min: 0, max: 0},
		{name: "one of five terms, retrieved first", query: question, order: []string{"partial", "common", "unrelated", "answer"},
			id: "partial", min: 0, max: 0.35},
		{name: "question words ignored", query: "What does trench depth mean?", order: []string{"answer", "partial", "common", "unrelated"},
			id: "answer", min: 0.75, max: 1},
		{name: "asking for a definition is phrasing", query: "trench depth definition", order: []string{"answer", "partial", "common", "unrelated"},
			id: "answer", min: 0.75, max: 1},
		{name: "a model number of numbers is matched by a longer one it starts", query: "sunergy 5000-70 idcmax", order: []string{"common", "row"},
			id: "row", min: 0.5, max: 1},
		{name: "one of two models compared scores as the one asked", query: "isco for the bp solar sx70 vs the sx75", order: []string{"sx75", "sx70"},
			id: "sx70", min: 0.5, max: 1},
		{name: "two models stated together are both asked", query: "isco of the bp solar sx70 and the sx75", order: []string{"sx75", "sx70"},
			id: "sx70", min: 0, max: 0.5},
	}
	lex := NewLexical(LexicalOptions{})
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var cs []store.Chunk
			for _, id := range tc.order {
				cs = append(cs, candidates[id])
			}
			got, err := lex.Rerank(context.Background(), tc.query, hitsOf(cs...))
			if err != nil {
				t.Fatal(err)
			}
			s := scoreOf(got, tc.id)
			if s < tc.min || s > tc.max {
				t.Errorf("score of %s = %.3f, want in [%.2f, %.2f] (all: %v)", tc.id, s, tc.min, tc.max, scores(got))
			}
		})
	}
}

func TestLexicalContract(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		name  string
		query string
		hits  []store.Hit
	}{
		{name: "no hits", query: "trench depth"},
		{name: "stopwords only", query: "what is it", hits: hitsOf(chunk("a", "it is what it is"), chunk("b", "trench"))},
		{name: "empty query", query: "", hits: hitsOf(chunk("a", "text"))},
		{name: "ties ordered by id", query: "trench", hits: []store.Hit{
			{Chunk: chunk("c", "trench"), Score: 0.5}, {Chunk: chunk("a", "trench"), Score: 0.5}, {Chunk: chunk("b", "trench"), Score: 0.5},
		}},
		{name: "odd retrieval scores", query: "trench depth", hits: []store.Hit{
			{Chunk: chunk("a", "trench depth"), Score: nan}, {Chunk: chunk("b", "trench"), Score: -3},
			{Chunk: chunk("c", "depth"), Score: 7}, {Chunk: chunk("d", "trench depth"), Score: math.Inf(1)},
		}},
		{name: "empty chunks", query: "trench", hits: []store.Hit{{}, {Chunk: store.Chunk{ID: "x"}}}},
		{name: "invalid utf8", query: "tr\xffench \xfe", hits: hitsOf(chunk("a", "tr\xffench"), chunk("b", "\xff\xfe"))},
	}
	lex := NewLexical(LexicalOptions{})
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := slices.Clone(tc.hits)
			got, err := lex.Rerank(context.Background(), tc.query, tc.hits)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tc.hits) {
				t.Fatalf("got %d hits, want %d", len(got), len(tc.hits))
			}
			if !slices.EqualFunc(in, tc.hits, sameHit) {
				t.Error("input slice was modified")
			}
			assertSorted(t, got)
		})
	}
}

func TestLexicalStopwordQueryScoresZero(t *testing.T) {
	got, err := NewLexical(LexicalOptions{}).Rerank(context.Background(), "what is it?", hitsOf(chunk("a", "what it is")))
	if err != nil {
		t.Fatal(err)
	}
	if got[0].Score != 0 {
		t.Errorf("score = %v, want 0 for a question without content words", got[0].Score)
	}
}

func TestLexicalCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := NewLexical(LexicalOptions{}).Rerank(ctx, "trench", hitsOf(chunk("a", "trench")))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

func TestLexicalOptions(t *testing.T) {
	tests := []struct {
		name           string
		opts           LexicalOptions
		retrieval, prx float64
	}{
		{name: "zero is default", opts: LexicalOptions{}, retrieval: DefaultRetrievalWeight, prx: DefaultProximityWeight},
		{name: "negative disables", opts: LexicalOptions{RetrievalWeight: -1, ProximityWeight: -1}, retrieval: 0, prx: 0},
		{name: "capped at one", opts: LexicalOptions{RetrievalWeight: 3, ProximityWeight: 0.25}, retrieval: 1, prx: 0.25},
		{name: "NaN is default", opts: LexicalOptions{RetrievalWeight: math.NaN()}, retrieval: DefaultRetrievalWeight, prx: DefaultProximityWeight},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := NewLexical(tc.opts)
			if l.retrievalWeight != tc.retrieval || l.proximityWeight != tc.prx {
				t.Errorf("weights = %v, %v; want %v, %v", l.retrievalWeight, l.proximityWeight, tc.retrieval, tc.prx)
			}
		})
	}
}

// TestLexicalManual reranks the whole PVWatts manual, cut into chunks, for
// questions whose answers the manual prints, and checks that a chunk
// stating the answer is among the first five (an LLM reads five, the
// extractive reader ten).
func TestLexicalManual(t *testing.T) {
	tests := []struct {
		name  string
		query string
		// answers are texts of which a top-5 chunk must hold one.
		answers []string
	}{
		{name: "default system losses", query: "What are the default system losses?",
			answers: []string{"Table 6. System Losses", "default value of 14 %"}},
		{name: "ground coverage ratio default", query: "default ground coverage ratio for one-axis trackers",
			answers: []string{"default value in PVWatts is 0.4"}},
		{name: "albedo", query: "Which albedo value does PVWatts assume?", answers: []string{"ﬁxed at 0.2", "albedo of 0.2"}},
		{name: "nominal inverter efficiency", query: "default nominal inverter efficiency",
			answers: []string{"default nominal eﬃciency ηnom is 0.96", "nominal inverter eﬃciency: 0.86 × 0.96"}},
		{name: "light-induced degradation", query: "light-induced degradation loss",
			answers: []string{"The default light-induced degradation (LID) loss of 1.5 %"}},
	}
	lex := NewLexical(LexicalOptions{})
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := lex.Rerank(context.Background(), tc.query, manualCandidates(t))
			if err != nil {
				t.Fatal(err)
			}
			for _, h := range got[:5] {
				if slices.ContainsFunc(tc.answers, func(a string) bool { return strings.Contains(h.Chunk.Text, a) }) {
					return
				}
			}
			t.Errorf("no top-5 chunk holds one of %q; top 5: %v", tc.answers, ids(got[:5]))
		})
	}
}

func BenchmarkLexicalRerank50(b *testing.B) {
	all := manualCandidates(b)
	hits := all[:min(50, len(all))]
	if len(hits) < 50 {
		for i := 0; len(hits) < 50; i++ {
			h := all[i%len(all)]
			h.Chunk.ID += "-dup"
			hits = append(hits, h)
		}
	}
	lex := NewLexical(LexicalOptions{})
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := lex.Rerank(ctx, "What is the default total system loss percentage in PVWatts V5?", hits); err != nil {
			b.Fatal(err)
		}
	}
}

func scoreOf(hits []store.Hit, id string) float64 {
	for _, h := range hits {
		if h.Chunk.ID == id {
			return h.Score
		}
	}
	return math.NaN()
}

func scores(hits []store.Hit) map[string]float64 {
	m := make(map[string]float64, len(hits))
	for _, h := range hits {
		m[h.Chunk.ID] = math.Round(h.Score*1000) / 1000
	}
	return m
}

func sameHit(a, b store.Hit) bool {
	return a.Chunk.ID == b.Chunk.ID && (a.Score == b.Score || math.IsNaN(a.Score) && math.IsNaN(b.Score))
}

// assertSorted checks the reranker contract: scores in [0,1], best first,
// ties by chunk id.
func assertSorted(t *testing.T, hits []store.Hit) {
	t.Helper()
	for i, h := range hits {
		if !(h.Score >= 0 && h.Score <= 1) {
			t.Errorf("hit %d (%s) score %v outside [0,1]", i, h.Chunk.ID, h.Score)
		}
		if i == 0 {
			continue
		}
		p := hits[i-1]
		if p.Score < h.Score || p.Score == h.Score && p.Chunk.ID > h.Chunk.ID {
			t.Errorf("hits %d (%s %.3f) and %d (%s %.3f) out of order", i-1, p.Chunk.ID, p.Score, i, h.Chunk.ID, h.Score)
		}
	}
}

func TestComparedModels(t *testing.T) {
	tests := []struct {
		query string
		want  [][]string
	}{
		{"isco for the bp solar sx70 vs the sx75", [][]string{{"sx70", "sx75"}}},
		{"pv10-480xfrmr or pv30-480xfrmr night tare", [][]string{{"pv10-480xfrmr", "pv30-480xfrmr"}}},
		{"chattanooga backtracking v5 vs v1 %", nil},
		{"isco of the sx70 and the sx75", nil},
		{"sx70 vs sx75, and ks10 vs ks20 voco", [][]string{{"sx70", "sx75"}, {"ks10", "ks20"}}},
	}
	for _, tc := range tests {
		q := parseQuery(tc.query)
		var got [][]string
		for _, g := range q.alternatives {
			var terms []string
			for _, i := range g {
				terms = append(terms, q.terms[i].term)
			}
			got = append(got, terms)
		}
		if !slices.EqualFunc(got, tc.want, slices.Equal) {
			t.Errorf("alternatives of %q = %q, want %q", tc.query, got, tc.want)
		}
	}
}
