package guard

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/cewhq/cew/store"
	"github.com/cewhq/cew/store/analysis"
)

func TestKeyTerms(t *testing.T) {
	type term struct {
		Text     string
		Kind     analysis.Kind
		Required bool
	}
	tests := []struct {
		name     string
		question string
		want     []term
	}{
		{name: "content words", question: "What is the minimum trench depth for DC cables?",
			want: []term{{"minimum", analysis.Word, false}, {"trench", analysis.Word, false}, {"depth", analysis.Word, false},
				{"DC", analysis.Word, false}, {"cables", analysis.Word, false}}},
		{name: "equipment designator", question: "What cable size feeds Inverter 42?",
			want: []term{{"cable", analysis.Word, false}, {"size", analysis.Word, false}, {"feeds", analysis.Word, false},
				{"Inverter 42", analysis.Identifier, true}}},
		{name: "lower-case designator", question: "which combiner feeds string 7",
			want: []term{{"combiner", analysis.Word, false}, {"feeds", analysis.Word, false}, {"string 7", analysis.Identifier, true}}},
		{name: "standard number", question: "Does IEC 62548 apply?",
			want: []term{{"IEC 62548", analysis.Identifier, true}, {"apply", analysis.Word, false}}},
		{name: "drawing number", question: "Revision of 277-007-D-C-40327?",
			want: []term{{"Revision", analysis.Word, false}, {"277-007-D-C-40327", analysis.Identifier, true}}},
		{name: "number with unit", question: "Which cables run at 800 mm depth?",
			want: []term{{"cables", analysis.Word, false}, {"run", analysis.Word, false}, {"800 mm", analysis.Number, true},
				{"depth", analysis.Word, false}}},
		{name: "word then number with unit is not a designator", question: "cables 800 mm deep",
			want: []term{{"cables", analysis.Word, false}, {"800 mm", analysis.Number, true}, {"deep", analysis.Word, false}}},
		{name: "a case made a manner is no code a passage must write", question: "old v1-style derate",
			want: []term{{"old", analysis.Word, false}, {"v1-style", analysis.Identifier, false}, {"derate", analysis.Word, false}}},
		{name: "a time of day is no code a passage must write so", question: "sun position for the 14:00-15:00 record",
			want: []term{{"sun", analysis.Word, false}, {"position", analysis.Word, false}, {"14:00-15:00", analysis.Identifier, false}}},
		{name: "a phase count describes the variant", question: "se10k 3ph vdcmax",
			want: []term{{"se10k", analysis.Identifier, true}, {"vdcmax", analysis.Word, false}}},
		{name: "what the question sets aside is no key term", question: "fig 4 - besides the 92-99% curves, what other curve",
			want: []term{{"fig 4", analysis.Identifier, false}, {"curve", analysis.Word, false}}},
		{name: "a word for the table's line says which line", question: "apx-110-sl isco - measured 2002 entry vs the 2002 (E) one",
			want: []term{{"apx-110-sl", analysis.Identifier, true}, {"isco", analysis.Word, false}, {"measured", analysis.Word, false},
				{"2002", analysis.Number, true}}},
		{name: "a word for the table's line after a word that says which", question: "apx-130 2001 measured entry: diode factor",
			want: []term{{"apx-130", analysis.Identifier, true}, {"2001", analysis.Number, true}, {"measured", analysis.Word, false},
				{"diode", analysis.Word, false}, {"factor", analysis.Word, false}}},
		{name: "chat's whats asks, it names nothing", question: "whats the paco of the se10k",
			want: []term{{"paco", analysis.Word, false}, {"se10k", analysis.Identifier, true}}},
		{name: "small count not required", question: "List the 3 largest losses",
			want: []term{{"3", analysis.Number, false}, {"largest", analysis.Word, false}, {"losses", analysis.Word, false}}},
		{name: "a number offered as one side of a choice not required", question: "results hourly or 15 min",
			want: []term{{"results", analysis.Word, false}, {"hourly", analysis.Word, false}, {"15 min", analysis.Number, false}}},
		{name: "a number either side of or not required", question: "600 V or 1000 V max input",
			want: []term{{"600 V", analysis.Number, false}, {"1000 V", analysis.Number, false}, {"max", analysis.Word, false}, {"input", analysis.Word, false}}},
		{name: "model number and jargon", question: "SB7000TL-US-22 Paco?",
			want: []term{{"SB7000TL-US-22", analysis.Identifier, true}, {"Paco", analysis.Word, false}}},
		{name: "the end of a model number said again is not required", question: "sanyo hip-186da3 (da3) voco",
			want: []term{{"sanyo", analysis.Word, false}, {"hip-186da3", analysis.Identifier, true}, {"da3", analysis.Identifier, false},
				{"voco", analysis.Word, false}}},
		{name: "framing words dropped", question: "Please explain what the document says about albedo",
			want: []term{{"albedo", analysis.Word, false}}},
		{name: "repeats once", question: "trench depth and trenches depths",
			want: []term{{"trench", analysis.Word, false}, {"depth", analysis.Word, false}}},
		{name: "empty", question: "", want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []term
			for _, k := range KeyTerms(tt.question) {
				got = append(got, term{k.Text, k.Kind, k.Required})
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("KeyTerms(%q)\n got %+v\nwant %+v", tt.question, got, tt.want)
			}
		})
	}
}

// trenchChunk is a paged specification passage.
var trenchChunk = store.Chunk{
	ID: "277-007-D-C-40327/03/4", DocID: "277-007-D-C-40327", DocNumber: "277-007-D-C-40327",
	Title: "Trenches crossing layout", Revision: "03", Page: 5, Section: "6.3 Cable trenches",
	Text: "DC cables shall be laid at a minimum depth of 800 mm below finished ground level. " +
		"Cables to Inverter 42 and Inverter 43 run in trench T-07. A warning tape shall be installed 300 mm above the cables.",
}

// inverterRow is a spreadsheet row.
var inverterRow = store.Chunk{
	ID: "CEC-INVERTERS/1/812", DocID: "CEC-INVERTERS", DocNumber: "CEC-INVERTERS", Title: "CEC inverter library",
	Revision: "1", Sheet: "CEC_Inverters", Row: 814,
	Text: "Name: SMA America: SB7000TL-US-22 (208V) [CEC 2018]; Vac (V): 208; Paco (W): 7000; Pdco (W): 7250",
}

func TestPre(t *testing.T) {
	hit := func(c store.Chunk, score float64) store.Hit { return store.Hit{Chunk: c, Score: score} }
	noLocator := trenchChunk
	noLocator.Page, noLocator.Section = 0, ""
	noDoc := inverterRow
	noDoc.DocID = ""
	sectionOnly := trenchChunk
	sectionOnly.Page = 0
	sheetNoRow := inverterRow
	sheetNoRow.Row = 0

	tests := []struct {
		name        string
		question    string
		hits        []store.Hit
		opts        PreOptions
		wantReason  Reason
		wantDetail  string
		wantMissing []string
	}{
		{name: "answerable", question: "What is the minimum trench depth for DC cables?",
			hits: []store.Hit{hit(trenchChunk, 0.8)}},
		{name: "stems match", question: "How deep are cable trenches laid?",
			hits: []store.Hit{hit(trenchChunk, 0.8)}, wantMissing: []string{"deep"}},
		{name: "designator present", question: "Which trench carries cables to Inverter 42?",
			hits: []store.Hit{hit(trenchChunk, 0.5)}, wantMissing: []string{"carries"}},
		{name: "a table's column written with a space", question: "table 8 lexington 2-axis increase",
			hits: []store.Hit{hit(store.Chunk{ID: "nrel/1/57", DocID: "nrel", Page: 20, Section: "Table 8",
				Text: "Location | Fixed | 1 Axis | 2 Axis\nKY Lexington | 10.1 % | 5.0 % | 8.7 %"}, 0.6)}},
		{name: "a percentage with a sign beside a bare number", question: "pvwatts annual error ±10 % or 30 for monthly?",
			hits: []store.Hit{hit(store.Chunk{ID: "nrel/1/9", DocID: "nrel", Page: 9, Section: "Uncertainty",
				Text: "The errors may be as high as 10 for annual energy totals and 30 for monthly totals."}, 0.6)},
			wantMissing: []string{"pvwatts", "±10 %"}},
		{name: "model number present in a row", question: "SB7000TL-US-22 Paco?",
			hits: []store.Hit{hit(inverterRow, 0.6)}},
		{name: "model number without its letter suffix", question: "emerson spv-4.5 idcmax",
			hits: []store.Hit{hit(store.Chunk{ID: "cec/1/409", DocID: "cec", Sheet: "CEC_Inverters", Row: 409,
				Text: "Name: Emerson Network Power: SPV-4.5AIUSO 240V [CEC 2011]; Idcmax (A): 13.5"}, 0.6)}},
		{name: "model number run together that a row spaces out", question: "diehl ako 4301sa 240 vac paco",
			hits: []store.Hit{hit(store.Chunk{ID: "cec/1/367", DocID: "cec", Sheet: "CEC_Inverters", Row: 367,
				Text: "Name: Diehl AKO: 4301 S-A (240 Vac) 240V [CEC 2010]; Vac (V): 240; Paco (W): 3680"}, 0.6)}},
		{name: "a number and a spaced word are no code run together", question: "diehl ako 4301sa 240 vac paco",
			hits: []store.Hit{hit(store.Chunk{ID: "cec/1/367", DocID: "cec", Sheet: "CEC_Inverters", Row: 367,
				Text: "Name: Diehl AKO: 4301 S A (240 Vac) 240V [CEC 2010]; Vac (V): 240; Paco (W): 3680"}, 0.6)},
			wantReason: NoKeywordMatch},
		{name: "model number cut inside its number", question: "emerson spv-4 idcmax",
			hits: []store.Hit{hit(store.Chunk{ID: "cec/1/409", DocID: "cec", Sheet: "CEC_Inverters", Row: 409,
				Text: "Name: Emerson Network Power: SPV-4.5AIUSO 240V [CEC 2011]; Idcmax (A): 13.5"}, 0.6)}, wantReason: NoKeywordMatch},
		{name: "both sides of a slash pair in a passage", question: "hartford 1-axis in the v5/v1 comparison",
			hits: []store.Hit{hit(store.Chunk{ID: "nrel/1/50", DocID: "nrel", Page: 16, Section: "14 Comparison with Version 1 Results",
				Text: "Energy predictions of PVWatts V5 were compared to PVWatts V1 for 1-axis systems in Hartford."}, 0.6)}},
		{name: "a fraction is no pair", question: "hartford 1-axis 1/2 comparison",
			hits: []store.Hit{hit(store.Chunk{ID: "nrel/1/50", DocID: "nrel", Page: 16, Section: "14 Comparison with Version 1 Results",
				Text: "Energy predictions of PVWatts V5 were compared to PVWatts V1 for 1-axis systems in Hartford, 2 of them."}, 0.6)}, wantReason: NoKeywordMatch},
		{name: "one side of a slash pair in no passage", question: "hartford 1-axis in the v5/v3 comparison",
			hits: []store.Hit{hit(store.Chunk{ID: "nrel/1/50", DocID: "nrel", Page: 16, Section: "14 Comparison with Version 1 Results",
				Text: "Energy predictions of PVWatts V5 were compared to PVWatts V1 for 1-axis systems in Hartford."}, 0.6)}, wantReason: NoKeywordMatch},
		{name: "number with header unit", question: "Which inverter has a Paco of 7000 W?",
			hits: []store.Hit{hit(inverterRow, 0.6)}},
		{name: "drawing number in metadata", question: "What depth does 277-007-D-C-40327 give for DC cables?",
			hits: []store.Hit{hit(trenchChunk, 0.6)}},
		{name: "revision in metadata", question: "DC cable depth on Rev 03?",
			hits: []store.Hit{hit(trenchChunk, 0.6)}},
		{name: "section-only passage is citable", question: "minimum depth of DC cables",
			hits: []store.Hit{hit(sectionOnly, 0.6)}},

		{name: "no hits", question: "What is the minimum trench depth?", wantReason: NoChunks},
		{name: "low relevance", question: "What is the minimum trench depth?",
			hits: []store.Hit{hit(trenchChunk, 0.01), hit(inverterRow, 0.02)}, wantReason: LowRelevance, wantDetail: "0.020"},
		{name: "NaN score", question: "What is the minimum trench depth?",
			hits: []store.Hit{hit(trenchChunk, math.NaN())}, wantReason: LowRelevance},
		{name: "custom min score", question: "What is the minimum trench depth?", opts: PreOptions{MinScore: 0.9},
			hits: []store.Hit{hit(trenchChunk, 0.8)}, wantReason: LowRelevance},
		{name: "disabled min score", question: "What is the minimum trench depth?", opts: PreOptions{MinScore: -1},
			hits: []store.Hit{hit(trenchChunk, 0)}},
		{name: "designator absent", question: "What cable size feeds Inverter 44?",
			hits: []store.Hit{hit(trenchChunk, 0.7)}, wantReason: NoKeywordMatch,
			wantDetail: "'Inverter 44' does not appear in any retrieved passage", wantMissing: []string{"size", "feeds", "Inverter 44"}},
		{name: "number absent", question: "Which cables are laid at 1200 mm?",
			hits: []store.Hit{hit(trenchChunk, 0.7)}, wantReason: NoKeywordMatch, wantDetail: "'1200 mm' does not appear"},
		{name: "same number other unit", question: "Which cables are laid 800 m from the fence?",
			hits: []store.Hit{hit(trenchChunk, 0.7)}, wantReason: NoKeywordMatch, wantDetail: "'800 m'"},
		{name: "model number absent", question: "SB6000TL-US-22 Paco?",
			hits: []store.Hit{hit(inverterRow, 0.7)}, wantReason: NoKeywordMatch},
		{name: "a model number found leaves the words around it to the reader", question: "SB7000TL-US-22 entry in the csv twice - paco?",
			hits: []store.Hit{hit(inverterRow, 0.7)}},
		{name: "a model number found still needs a quarter of the words", question: "SB7000TL-US-22 entry in the csv twice, the site owner wants - paco?",
			hits: []store.Hit{hit(inverterRow, 0.7)}, wantReason: NoKeywordMatch, wantDetail: "25% needed"},
		{name: "a qualifier is no model number", question: "1-axis entry in the csv twice - paco?",
			hits: []store.Hit{hit(store.Chunk{ID: "cec/1/2", DocID: "cec", Sheet: "CEC_Inverters", Row: 2,
				Text: "Name: 1-Axis Co: Tracker; Paco (W): 7000"}, 0.7)}, wantReason: NoKeywordMatch, wantDetail: "50% needed"},
		{name: "content words not covered", question: "What is the concrete curing time for pile foundations?",
			hits: []store.Hit{hit(trenchChunk, 0.7)}, wantReason: NoKeywordMatch, wantDetail: "only 0%"},
		{name: "passage without page or section", question: "What is the minimum depth for DC cables?",
			hits: []store.Hit{hit(trenchChunk, 0.9), hit(noLocator, 0.5)}, wantReason: MissingMetadata, wantDetail: "passage 2"},
		{name: "passage without document", question: "SB7000TL-US-22 Paco?",
			hits: []store.Hit{hit(noDoc, 0.5)}, wantReason: MissingMetadata, wantDetail: "no document id"},
		{name: "sheet without row", question: "SB7000TL-US-22 Paco?",
			hits: []store.Hit{hit(sheetNoRow, 0.5)}, wantReason: MissingMetadata},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := Pre(tt.question, tt.hits, tt.opts)
			if v.Reason != tt.wantReason || v.OK != (tt.wantReason == None) {
				t.Fatalf("Pre = %+v, want reason %q", v, tt.wantReason)
			}
			if !strings.Contains(v.Detail, tt.wantDetail) {
				t.Errorf("detail = %q, want it to contain %q", v.Detail, tt.wantDetail)
			}
			if tt.wantMissing != nil && !reflect.DeepEqual(v.Missing, tt.wantMissing) {
				t.Errorf("missing = %q, want %q", v.Missing, tt.wantMissing)
			}
			if v.Coverage < 0 || v.Coverage > 1 {
				t.Errorf("coverage %v out of [0,1]", v.Coverage)
			}
		})
	}
}

func BenchmarkPre(b *testing.B) {
	hits := []store.Hit{{Chunk: trenchChunk, Score: 0.8}, {Chunk: inverterRow, Score: 0.5}}
	for _, h := range hits[:1] {
		for range 3 {
			hits = append(hits, h)
		}
	}
	for b.Loop() {
		Pre("What is the minimum trench depth for DC cables to Inverter 42 on 277-007-D-C-40327?", hits, PreOptions{})
	}
}

// TestSaysTimes: a time of day on the 24-hour clock is said on the 12-hour
// one, with or without its minutes.
func TestSaysTimes(t *testing.T) {
	const text = "The sun position is calculated at the midpoint of the hour: for example, from 2 p.m. to 3 p.m., the sun position is calculated at 2:30 p.m."
	for _, tc := range []struct {
		term string
		want bool
	}{
		{"14:00-15:00", true},
		{"14:30", true},
		{"14:00", true},
		{"02:00", false},
		{"16:00", false},
		{"14:00-16:00", false},
	} {
		if got := SaysTimes(text, tc.term); got != tc.want {
			t.Errorf("SaysTimes(%q) = %v, want %v", tc.term, got, tc.want)
		}
	}
}
