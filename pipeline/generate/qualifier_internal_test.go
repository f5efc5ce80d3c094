package generate

import (
	"slices"
	"strings"
	"testing"

	"github.com/cewhq/cew/pipeline/guard"
	"github.com/cewhq/cew/store"
	"github.com/cewhq/cew/store/analysis"
)

// TestPartialQualifiers: a word of a several-word qualifier counts as a
// related word unless the unit names the qualifier, holds all its words or
// holds its first one.
func TestPartialQualifiers(t *testing.T) {
	// Terms: inoct, roof, mount; the qualifier "roof mount" is terms 1 and 2.
	q := question{qualifierTerms: [][]int{{1, 2}, {0}}}
	tests := []struct {
		name    string
		matched []float64
		spelled map[int]float64
		want    []float64
	}{
		{name: "only the second word: related", matched: []float64{1, 0, 1}, want: []float64{1, 0, relatedWeight}},
		{name: "the first word holds", matched: []float64{1, 1, 0}, want: []float64{1, 1, 0}},
		{name: "both words", matched: []float64{1, 1, 1}, want: []float64{1, 1, 1}},
		{name: "named in another spelling", matched: []float64{1, 0.8, 1}, spelled: map[int]float64{1: 0.8, 2: 0.8},
			want: []float64{1, 0.8, 1}},
		{name: "one-word qualifiers are left alone", matched: []float64{0.5, 0, 0}, want: []float64{0.5, 0, 0}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := slices.Clone(tc.matched)
			partialQualifiers(q, got, tc.spelled)
			if !slices.Equal(got, tc.want) {
				t.Errorf("matched = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestExpectedAnswer: the answer type a question asks for, with or
// without a question word.
func TestExpectedAnswer(t *testing.T) {
	tests := []struct {
		question string
		want     answerType
	}{
		{"what year was nepa passed", dateAnswer},
		{"nepa year", dateAnswer}, // typed without a question word
		{"pvwatts launch date", dateAnswer},
		{"which year nepa", dateAnswer},
		{"how many years of tmy data", numberAnswer},
		{"leap years in tmy files", anyAnswer},
	}
	for _, tc := range tests {
		t.Run(tc.question, func(t *testing.T) {
			if got, _ := expectedAnswer(analysis.Tokens(tc.question)); got != tc.want {
				t.Errorf("expectedAnswer(%q) = %v, want %v", tc.question, got, tc.want)
			}
		})
	}
}

// TestSynonyms: a question's everyday word is matched by the word documents
// use for it, and only by that.
func TestSynonyms(t *testing.T) {
	tests := []struct {
		asked, sentence string
		want            bool
	}{
		{"job", "Funding of a federal highway project can be suspended.", true},
		{"toss", "Dispose of the waste at a permitted facility.", true},
		{"need", "A permit is required before work starts.", true},
		{"job", "The site office keeps the records.", false},
		{"drop", "The power output of a module decreases when it is exposed to sunlight.", true},
		{"pick", "A typical inverter was selected from the dataset.", true},
		{"hauler", "A transporter must be registered with EPA or a state.", true},
		{"band", "Typical one axis tracker systems have GCRs in the range of 0.3 to 0.6.", true},
	}
	for _, tc := range tests {
		terms := map[string]bool{}
		for _, term := range analysis.Terms(tc.sentence) {
			terms[term] = true
		}
		if got := holdsSynonym(terms, analysis.Terms(tc.asked)[0]); got != tc.want {
			t.Errorf("holdsSynonym(%q, %q) = %v, want %v", tc.sentence, tc.asked, got, tc.want)
		}
	}
}

// TestVersionAsked: "Version 4" in a passage repeats the question's "v4"
// and says nothing new; another version does.
func TestVersionAsked(t *testing.T) {
	q := parseQuestion("title of the iea scenario document (v4, august 3, 2023)", "general", "simple", guard.Expectation{})
	toks := analysis.Tokens("Version 4, August 3, 2023 and version 5")
	for i, want := range []bool{true, true, false, false, false, false, false, false} {
		if got := versionAsked(q, toks, i); got != want {
			t.Errorf("versionAsked(%q) = %v, want %v", toks[i].Text, got, want)
		}
	}
}

// TestRangeAnswered: "range" is answered by a sentence that states one,
// whether or not it says the word; the sentence before it saying "range"
// is no more than context.
func TestRangeAnswered(t *testing.T) {
	e := NewExtractive(ExtractiveOptions{})
	q := parseQuestion("premium module efficiency range", "technical_value", "simple", guard.Expectation{})
	chunk := store.Chunk{ID: "nrel/1/13", DocID: "nrel", Page: 6, Section: "3 Model Inputs",
		Text: "The standard option has efficiencies in the range of 14-17 %. The premium option is for high efficiency " +
			"(∼18-20 %) modules."}
	cands, _ := e.candidates(q, []store.Chunk{chunk}, nil)
	i := slices.IndexFunc(q.terms, func(t qterm) bool { return t.term == rangeTerm })
	for _, c := range cands {
		if strings.HasPrefix(c.text, "The premium option") {
			if c.matched[i] != 1 {
				t.Errorf("range credit = %v, want 1", c.matched[i])
			}
			return
		}
	}
	t.Fatalf("no candidate for the premium sentence among %d", len(cands))
}

// TestRangeOfColumns: a spreadsheet row states a range in a low and a
// high column of one quantity, and not in two columns of two.
func TestRangeOfColumns(t *testing.T) {
	e := NewExtractive(ExtractiveOptions{})
	q := parseQuestion("open energy solar save 4600 mppt range", "general", "simple", guard.Expectation{})
	i := slices.IndexFunc(q.terms, func(t qterm) bool { return t.term == rangeTerm })
	tests := []struct {
		row  string
		want float64
		none bool // one end alone answers no range (see asksBounds)
	}{
		{"Name: Open Energy: Solar Save 4600 208V [CEC 2005]; Vac (V): 208; Mppt_low (V): 205; Mppt_high (V): 400", 1, false},
		{"Manufacturer: Open Energy; ID: Solar Save 4600; MPPT-Low: 205; MPPT-Hi: 400", 1, false},
		{"Manufacturer: Open Energy; ID: Solar Save 4600; MPPT-Low: 205; Vdcmax: 600", 0, true},
	}
	for _, tc := range tests {
		chunk := store.Chunk{ID: "inv/1/7", DocID: "inv", Sheet: "Inverters", Row: 8, Text: tc.row}
		cands, _ := e.candidates(q, []store.Chunk{chunk}, nil)
		if tc.none {
			if len(cands) != 0 {
				t.Errorf("%q: %d candidates, want none", tc.row, len(cands))
			}
			continue
		}
		if len(cands) != 1 {
			t.Fatalf("%q: %d candidates, want 1", tc.row, len(cands))
		}
		if got := cands[0].matched[i]; got != tc.want {
			t.Errorf("%q: range credit = %v, want %v", tc.row, got, tc.want)
		}
	}
}

// TestValueRange: the ways documents write a range of values.
func TestValueRange(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		{"efficiencies in the range of 14-17 %", true},
		{"Hour | 0-23", true},
		{"Albedo (optional) | [0..1]", true},
		{"GCRs in the range of 0.3 to 0.6, and", true},
		{"Fronius Primo 8.2-1 @ 208 VAC", false},
		{"The default value is 0.4.", false},
	}
	for _, tc := range tests {
		if got := valueRange.MatchString(tc.text); got != tc.want {
			t.Errorf("valueRange(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}

// TestDescribesOtherSide: a value said on one side of a "vs" binds the rows
// of that side only.
func TestDescribesOtherSide(t *testing.T) {
	text := "suniva titan 230 (2001 row) vs titan 250 - isco of each"
	exp := guard.Expectation{Dims: []guard.Dimension{guard.DimCurrent}, Described: guard.Values(text), Labelled: guard.LabelledNumbers(text)}
	q := parseQuestion(text, "technical_value", "simple", exp)
	tests := []struct {
		row  string
		want bool // the row's other vintage is no contradiction
	}{
		{"Model: Suniva Titan 250; Vintage: 2003; Isco: 8.6", true},
		{"Model: Suniva Titan 230; Vintage: 2002; Isco: 8.2", false},
		{"Model: Suniva Titan 270; Vintage: 2003; Isco: 8.9", false},
	}
	for _, tc := range tests {
		asked, _, bad := exp.Contradicts(tc.row)
		if !bad {
			t.Fatalf("%q: Contradicts found nothing", tc.row)
		}
		if got := describesOtherSide(q, asked, analysis.TermSet(tc.row)); got != tc.want {
			t.Errorf("%q: describesOtherSide(%q) = %v, want %v", tc.row, asked.Text, got, tc.want)
		}
	}
}
