package generate

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/cewhq/cew/pipeline/guard"
	"github.com/cewhq/cew/pipeline/query"
	"github.com/cewhq/cew/store"
	"github.com/cewhq/cew/store/analysis"
)

// TestFrameWords: words that say which kind of value is asked for, or
// where in a document it sits, weigh as frame words: the sentence that
// answers seldom repeats them.
func TestFrameWords(t *testing.T) {
	q := parseQuestion("racm asbestos content threshold on the defaults tab, 2007 entry, find out", "technical_value", "simple", guard.Expectation{})
	want := map[string]bool{"threshold": true, "tab": true, "entri": true, "find": true, "racm": false, "asbesto": false, "content": false}
	for _, term := range q.terms {
		if w, ok := want[term.term]; ok && term.frame != w {
			t.Errorf("%q: frame = %v, want %v", term.term, term.frame, w)
		}
		delete(want, term.term)
	}
	for term := range want {
		t.Errorf("%q is not a term of the question", term)
	}
}

// TestRemarks: in a question about a model's record, a later clause of
// doubt or belief that asks nothing is frame; a clause that asks is not.
func TestRemarks(t *testing.T) {
	for _, tc := range []struct {
		question string
		want     map[string]bool
	}{
		{"gefran apv 5200-2m-tl-dm-us 208v: sandia tamb low / high. those look like deg F to me",
			map[string]bool{"like": true, "deg": true, "f": true, "tamb": false, "low": false, "high": false}},
		{"sb7700tl-us-22-208v paco in the cec csv, bet its not actually 7700", map[string]bool{"bet": true, "7700": true, "paco": false}},
		{"sb7700tl-us-22-208v paco, those rows - which one is the 208v", map[string]bool{"208v": false, "paco": false}},
		{"those sb7700tl-us-22-208v rows: paco", map[string]bool{"paco": false}},
	} {
		q := parseQuestion(tc.question, "technical_value", "simple", guard.Expectation{})
		for _, term := range q.terms {
			if w, ok := tc.want[term.term]; ok && term.frame != w {
				t.Errorf("%q: %q frame = %v, want %v", tc.question, term.term, term.frame, w)
			}
		}
	}
}

// TestPronounOne: "one" standing for a thing named before, at the end of
// its clause, is no word of the question; "one axis" counts.
func TestPronounOne(t *testing.T) {
	for _, tc := range []struct {
		question string
		term     bool
	}{
		{"solectria pvi 2500, the 208v one - unique id# and night tare", false},
		{"pvi 2500 (the 208v one) night tare", false},
		{"gcr for one axis tracking", true},
		{"one-axis gcr", true},
	} {
		q := parseQuestion(tc.question, "technical_value", "simple", guard.Expectation{})
		if got := slices.ContainsFunc(q.terms, func(t qterm) bool { return t.term == "one" }); got != tc.term {
			t.Errorf("%q: \"one\" a term = %v, want %v", tc.question, got, tc.term)
		}
	}
}

// TestHoldingVerbs: a verb of holding right after a document's name says
// where the value is, not what it is; the same verb elsewhere is a word of
// the question.
func TestHoldingVerbs(t *testing.T) {
	for _, tc := range []struct {
		question, term string
		frame          bool
	}{
		{"what albedo does the defaults sheet carry for snow", "carri", true},
		{"what gcr band does the v5 manual call typical", "call", true},
		{"what does the river carry to the sea", "carri", false},
	} {
		q := parseQuestion(tc.question, "general", "simple", guard.Expectation{})
		i := slices.IndexFunc(q.terms, func(qt qterm) bool { return qt.term == tc.term })
		if i < 0 {
			t.Fatalf("%q: %q is not a term of the question", tc.question, tc.term)
		}
		if got := q.terms[i].frame; got != tc.frame {
			t.Errorf("%q: %q frame = %v, want %v", tc.question, tc.term, got, tc.frame)
		}
	}
}

// TestFrameWordsPointAtTheDocument: "according to the EPA construction
// guide" says where to look, not what is asked about.
func TestFrameWordsPointAtTheDocument(t *testing.T) {
	q := parseQuestion("when is an eis not needed according to the epa construction guide", "general", "simple", guard.Expectation{})
	for _, term := range q.terms {
		want := term.term == "accord" || term.term == "guid"
		if term.frame != want {
			t.Errorf("%q: frame = %v, want %v", term.term, term.frame, want)
		}
	}
}

// TestChartLabels: the text of a chart a PDF holds is not a sentence to
// quote; prose with numbers is.
func TestChartLabels(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		{"Figure 5. Comparision of PVWatts V1 and V5 AC energy prediction vs measured Hourly Energy Production 400 350 300 (kWh) 250 energy 200", true},
		{"10 Measured vs PVWatts V1 and V5 for Several Systems PVWatts V1 energy PVWatts V5 5 AC 0 annual V5 Avg: −1.8 % in −5 difference " +
			"−10 V1 Avg: −11.9 % −15 Percentage −20 (c−Si) (c−Si) (c−Si) (c−Si) (c−Si) (c−Si) (CdTe) (c−Si) (CdTe) Axis Axis Fixed Fixed " +
			"Fixed Fixed Fixed Fixed Fixed 1: 2: 3: 4: 5: 6: 1 7: 8: 1 9:", true},
		{"PVWatts V1 underpredicts system performance by 11.9 % when comparing annual AC energy, while PVWatts V5 is low by only 1.8 %.", false},
		{"Scenarios 1, 2, 3 and 4 use a GCR of 0.4, an albedo of 0.2 and a hub height of 1.5 m.", false},
	}
	for _, tc := range tests {
		if got := chartLabels(tc.text, analysis.Tokens(tc.text)); got != tc.want {
			t.Errorf("chartLabels(%.60q…) = %v, want %v", tc.text, got, tc.want)
		}
	}
}

// TestFormula: an equation the PDF reader flattened into text, or a
// sentence that runs into one, is not an answer; a table row of values, or
// a sentence stating a value with an equals sign, is.
func TestFormula(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		{"VF ( x 01 , x ) = 1 − 1 | 1 | PP 2 + 2 f xx cos + ( f ) 2 | (16) 22 f xx 10 − f | L | L", true},
		{"Location | Fixed | Fixed+Premium | 1 Axis | Backtracking | 2 Axis AK Anchorage | 14.7 % | 14.3 % | 6.8 % | 8.0 % | 9.6 %", false},
		{"It is important to note that the total loss is not the sum of the individual losses.", false},
		{"Substituting the above and changing variables vf ( x ) = 11 + cos ( + ) 22 = 1 + 1 cos cos − 1 sin sin 2 2", true},
		{"**10% grade = slope angle of 5.71 deg from horizontal (atan(0.1))", false},
		{"With x = 0 at the bottom edge and x = L at the top edge, the view factor varies along the slant height.", false},
	}
	for _, tc := range tests {
		if got := formula(tc.text, tokenShape(analysis.Tokens(tc.text))); got != tc.want {
			t.Errorf("formula(%.50q…) = %v, want %v", tc.text, got, tc.want)
		}
	}
}

// TestTableRowDefinesNothing: a question after what a value represents is
// not answered as well by a row of a table of values ("Shading | 3 %") as a
// question after the value is.
func TestTableRowDefinesNothing(t *testing.T) {
	table := store.Chunk{ID: "nrel/1/44", DocID: "nrel", Page: 13, Section: "Table 6. System Losses",
		Text: "Table 6. System Losses\nCategory | Default value\nShading | 3 %\nSoiling | 2 %"}
	score := func(defines bool) float64 {
		q := parseQuestion("what is the 3% default shading loss meant to represent", "general", "simple", guard.Expectation{})
		q.defines = defines
		cands, _ := NewExtractive(ExtractiveOptions{}).candidates(q, []store.Chunk{table}, nil)
		for _, c := range cands {
			if strings.HasPrefix(c.quote, "Shading") {
				return c.score
			}
		}
		t.Fatalf("the shading row is no candidate (defines %v)", defines)
		return 0
	}
	if asked, defined := score(false), score(true); defined >= asked {
		t.Errorf("row scores %.3f asked what it represents, %.3f asked for its value; want lower", defined, asked)
	}
}

// TestHasParts: an identifier asked for is found by its parts, but the
// beginnings analysis adds for a code ("sb7000" of "sb7000tl") are no parts.
func TestHasParts(t *testing.T) {
	tests := []struct {
		in, id string
		want   bool
	}{
		{"SMA America: SB7000TL-US-22 (208V)", "sb7000tl-us-22", true},
		{"SMA America: SB7700TL-US-22 (208V)", "sb7000tl-us-22", false},
		{"SC500CP-US 270V", "sc500u", false},
		{"800 mm", "800mm", true},
	}
	for _, tc := range tests {
		if got := hasParts(analysis.TermSet(tc.in), tc.id); got != tc.want {
			t.Errorf("hasParts(%q, %q) = %v, want %v", tc.in, tc.id, got, tc.want)
		}
	}
}

// TestSpacedOut: a model number run together is found spaced apart, its
// letters and digits in order with nothing between them.
func TestSpacedOut(t *testing.T) {
	tests := []struct {
		in, code string
		want     bool
	}{
		{"ID: PVI 15 kW 208 V", "pvi15", true},
		{"PVI 15 kW at the head of the text", "pvi15", true},
		{"ID: PVI 150 kW", "pvi15", false},
		{"ID: PVI; Paco: 15", "pvi15", false},
		{"Model: KC 158 G", "kc158g", true},
		{"ID: PVI 15 kW", "pvi", false},
		{"SB7000TL-US-22", "sb7000tl-us-22", false},
		{"Name: Diehl AKO: 4301 S-A (240 Vac)", "4301sa", true},
		{"Name: Diehl AKO: 4301 S-B (240 Vac)", "4301sa", false},
		{"Name: Diehl AKO: 4301 S-A-X", "4301sa", true},
	}
	for _, tc := range tests {
		if got := spacedOut(tc.in, analysis.Tokens(tc.in), tc.code); got != tc.want {
			t.Errorf("spacedOut(%q, %q) = %v, want %v", tc.in, tc.code, got, tc.want)
		}
	}
}

// TestNamesOtherQuantity: a spreadsheet row named for another quantity of
// a unit the question states is another variant of the model.
func TestNamesOtherQuantity(t *testing.T) {
	const gtib = "Princeton Power Systems GTIB-480-100 (600 VDC) 480V [CEC 2010]"
	tests := []struct {
		question, name string
		want           bool
	}{
		{"gtib-480-100 1000 vdc version vdco", gtib, true},
		{"gtib-480-100 600 vdc version vdco", gtib, false},
		{"gtib-480-100 480v vdco", gtib, false},
		{"gtib-480-100 vdco", gtib, false},
		{"evershine tl6000-us 277v paco", "Jiangsu Zeversolar New Energy Evershine TL6000-US-240 240V [CEC 2013]", true},
		{"evershine tl6000-us 240v paco", "Jiangsu Zeversolar New Energy Evershine TL6000-US-240 240V [CEC 2013]", false},
		{"refusol 24 kw vdco", "REFUsol 24K (480V)", false},
		{"gtib-480-100 vdco (not the 600 vdc one)", gtib, false},
	}
	for _, tc := range tests {
		q := parseQuestion(tc.question, "technical_value", "simple", guard.Expectation{})
		if got := namesOtherQuantity(q.stated, guard.Values(tc.name)); got != tc.want {
			t.Errorf("%q: namesOtherQuantity(%q) = %v, want %v", tc.question, tc.name, got, tc.want)
		}
	}
}

// TestVariants: the rows quoted beside the best one for a model name the
// question shortens are those that match as well, or nearly as well and
// hold a number of the question the best row lacks ("paco 208 vs 240").
func TestVariants(t *testing.T) {
	q := parseQuestion("evershine tl6000-us paco 208 vs 240", "technical_value", "simple", guard.Expectation{})
	row := func(quote string, score float64, has ...string) candidate {
		c := candidate{unit: unit{kind: kindRecord, docID: "cec"}, quote: quote, score: score, matched: make([]float64, len(q.terms))}
		for _, h := range has {
			c.matched[q.index[h]] = 1
		}
		return c
	}
	best := row("TL6000-US-240 240V; Paco: 5990", 0.89, "evershine", "tl6000-us", "240")
	tests := []struct {
		name  string
		other candidate
		want  int
	}{
		{"nearly as good, holding the other number", row("TL6000-US-208 208V; Paco: 5320", 0.83, "tl6000-us", "208"), 1},
		{"nearly as good, holding nothing more", row("TL5000-US-240 240V; Paco: 4990", 0.83, "240"), 0},
		{"as good", row("TL6000-US-240 240V [CEC 2019]; Paco: 5990", 0.88, "evershine", "tl6000-us", "240"), 1},
		{"far behind, holding the other number but not all the rest", row("TL6000-US-208 208V; Paco: 5320", 0.6, "tl6000-us", "208"), 0},
		// The sides weigh what their numbers' rarity says: a common 208
		// leaves the row far behind one with a rare 240.
		{"far behind, holding the other number and all the rest", row("Evershine TL6000-US-208 208V; Paco: 5320", 0.6, "evershine", "tl6000-us", "208"), 1},
	}
	for _, tc := range tests {
		if got := variants(q, []candidate{best, tc.other}); len(got) != tc.want {
			t.Errorf("%s: %d variants, want %d", tc.name, len(got), tc.want)
		}
	}
}

// TestAskedSubject: "what is X" asks what X is when nothing but where to
// look, or what X is for, follows it.
func TestAskedSubject(t *testing.T) {
	tests := []struct {
		in   string
		want string
	}{
		{"what is a brownfield per the epa construction guide", "brownfield"},
		{"what are universal wastes", "univers wast"},
		{"what is the default tilt for trackers in pvwatts", "default tilt"},
		{"what is the default tilt of a 1-axis tracker", ""},
		{"what is swppp", "swppp"},
		{"how deep is the trench", ""},
		{"sec 404 - how does the epa guide define dredged material", "dredg materi"},
		{"define fill material per the epa guide", "fill materi"},
		{"how does the guide define the wetlands that need a permit", ""},
	}
	for _, tc := range tests {
		got := strings.Join(askedSubject(analysis.Tokens(tc.in)), " ")
		if got != tc.want {
			t.Errorf("askedSubject(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestQuestionFormWords: the words that only shape a question are not
// looked for in the passages — "how much", "the 240v one" — while the
// same words naming something are.
func TestQuestionFormWords(t *testing.T) {
	tests := []struct {
		in     string
		word   string
		isTerm bool
	}{
		{"outback gs8048a paco, the 240v one", "one", false},
		{"the 2014 ones, not the 2013 listing", "one", false},
		{"gcr for one axis trackers", "one", true},
		{"how much funding per site", "much", false},
		{"how often is the albedo read", "often", false},
	}
	for _, tc := range tests {
		q := parseQuestion(tc.in, "general", "simple", guard.Expectation{})
		got := slices.ContainsFunc(q.terms, func(t qterm) bool { return strings.HasPrefix(t.term, tc.word) })
		if got != tc.isTerm {
			t.Errorf("%q: %q is a term = %v, want %v (terms %v)", tc.in, tc.word, got, tc.isTerm, q.terms)
		}
	}
}

// TestHeaderOfTwoLines: a table header the PDF reader split over two lines
// is a header in both, never a row that answers; a table of words keeps its
// first row.
func TestHeaderOfTwoLines(t *testing.T) {
	tests := []struct {
		text string
		rows []string // the rows that are not headers
	}{
		{"Scenario Scenario GCR* Albedo Hub | Configuration Ground\nnumber | name | Height | surface\n" +
			"2 | A1 | 0.25 0.2 1.5 m 1-Up portrait Horizontal\n3 | A2 | 0.4 0.5 1.5 m 1-Up portrait Horizontal",
			[]string{"2 | A1 | 0.25 0.2 1.5 m 1-Up portrait Horizontal", "3 | A2 | 0.4 0.5 1.5 m 1-Up portrait Horizontal"}},
		{"Module type | Cover\nStandard | Glass\nPremium | Anti-reflective",
			[]string{"Standard | Glass", "Premium | Anti-reflective"}},
		// A cell wrapped onto the next line goes on its row: after a cell
		// ending with a comma or a word cut by a hyphen, once; a line of
		// cells in lower case, always.
		{"Field | Units | Default Value\nArray type | Fixed open rack, 1-Axis, | Fixed open rack\nBacktracked 1-Axis, 2-Axis\n" +
			"Tilt angle | degrees | Site Latitude\nAzimuth angle | degrees | 180° in northern hemi-\nsphere, 0° in southern hemisphere\n" +
			"Advanced inputs\nDC/AC ratio | ratio | 1.1",
			[]string{"Array type | Fixed open rack, 1-Axis, | Fixed open rack Backtracked 1-Axis, 2-Axis", "Tilt angle | degrees | Site Latitude",
				"Azimuth angle | degrees | 180° in northern hemi- sphere, 0° in southern hemisphere", "DC/AC ratio | ratio | 1.1"}},
		{"Version | Description | Weather Data | Date | Status\nV4 | Updated REST-ful | 239 TMY2s, | 2012 | Operational\n" +
			"web service at | 1020 TMY3s\nV5 | New web application | 1020 TMY3s | 2014 | Current",
			[]string{"V4 | Updated REST-ful | 239 TMY2s, | 2012 | Operational web service at | 1020 TMY3s", "V5 | New web application | 1020 TMY3s | 2014 | Current"}},
		// A chunk that opens inside a table: a line in lower case between
		// two rows ends the row before it; one before prose does not.
		{"5 | A4 | 0.4 0.2 1.5 m 1-Up portrait 10%\ngrade* down to the East\n6 | A5 | 0.4 0.2 1.5 m 1-Up portrait 10%\n" +
			"grade* down to the SW\n7 | Ref-B 0.4 | 0.2 3.5 m 2-Up portrait Horizontal\nsee the note below.",
			[]string{"5 | A4 | 0.4 0.2 1.5 m 1-Up portrait 10% grade* down to the East", "6 | A5 | 0.4 0.2 1.5 m 1-Up portrait 10% grade* down to the SW",
				"7 | Ref-B 0.4 | 0.2 3.5 m 2-Up portrait Horizontal"}},
	}
	for _, tc := range tests {
		var rows []string
		for _, u := range splitUnits(0, store.Chunk{ID: "d/1/1", DocID: "d", Page: 1, Text: tc.text}) {
			if u.kind == kindRow && !u.isHeader {
				rows = append(rows, u.text)
			}
		}
		if !slices.Equal(rows, tc.rows) {
			t.Errorf("rows of %q\n got %q\nwant %q", tc.text, rows, tc.rows)
		}
	}
}

// TestSpelledOut: an acronym of the question is found where the unit
// spells it out in capitalised words.
func TestSpelledOut(t *testing.T) {
	tests := []struct {
		acronym, text string
		want          bool
	}{
		{"epa", "United States Environmental Protection Agency Office of Enforcement", true},
		{"oeca", "Office of Enforcement and Compliance Assurance, Washington", true},
		{"sam", "The System Advisor Model (SAM) is a free desktop application", true},
		{"epa", "each phase angle is measured", false},
		{"epa", "Environmental Protection", false},
		{"cwa", "Clean Water Act", true},
		{"a", "A section", false},
	}
	for _, tc := range tests {
		if got := spelledOut(tc.acronym, tc.text, analysis.Tokens(tc.text)); got != tc.want {
			t.Errorf("spelledOut(%q, %q) = %v, want %v", tc.acronym, tc.text, got, tc.want)
		}
	}
}

// TestHoldsAside: a sentence naming what the question sets aside is about
// the other thing; the words that set it aside are not what is set aside.
func TestHoldsAside(t *testing.T) {
	q := parseQuestion("besides pv, which other technologies can sam simulate", "general", "simple", guard.Expectation{})
	tests := []struct {
		text string
		want bool
	}{
		{"SAM allows users to model PV systems in much greater detail.", true},
		{"SAM also includes performance models for CSP, wind and geothermal systems.", false},
		{"Besides, other models exist.", false},
	}
	for _, tc := range tests {
		if got := holdsAside(q, analysis.TermSet(tc.text)); got != tc.want {
			t.Errorf("holdsAside(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}

// TestListOfTheAsideStaysFirst: a sentence that names more of the question
// does not go before the one that lists what the question sets aside among
// others; without such a list it does.
func TestListOfTheAsideStaysFirst(t *testing.T) {
	q := parseQuestion("fuentes thermal model in pvwatts - which weather inputs does it use besides the poa irradiance", "general", "simple", guard.Expectation{})
	list := candidate{unit: unit{kind: kindSentence, text: "The thermal model uses the total incident POA irradiance, wind speed, and dry bulb temperature."},
		score: 0.66, matched: make([]float64, len(q.terms)), listsAside: true}
	named := candidate{unit: unit{kind: kindSentence, text: "PVWatts implements a thermal model developed by Fuentes [15]."},
		score: 0.6, matched: make([]float64, len(q.terms))}
	for i, term := range q.terms {
		named.matched[i] = 1
		if term.term == "fuent" {
			list.matched[i] = contextWeight
		} else {
			list.matched[i] = 1
		}
	}
	for _, tc := range []struct {
		lists bool
		want  string
	}{{true, list.text}, {false, named.text}} {
		first := list
		first.listsAside = tc.lists
		cands := []candidate{first, named}
		preferFuller(q, cands)
		if cands[0].text != tc.want {
			t.Errorf("lists aside %v: first = %q, want %q", tc.lists, cands[0].text, tc.want)
		}
	}
}

// TestColumnNamedInPart: a word of a column's name ("series" of Series
// Cells) said of something the row does not hold ("series fuse rating")
// does not name the column, and a long row of which nothing is asked is
// not quoted; the column named by its words is.
func TestColumnNamedInPart(t *testing.T) {
	row := store.Chunk{ID: "smd/Data/956", DocID: "smd", DocNumber: "SANDIA-MODULE-DB", Title: "Sandia Module Database", Sheet: "Data", Row: 956,
		Text: "Model: SunPower SPR-305-WHT; Vintage: 2009; Module Area [m^2]: 1.631; Material: c-Si; Series Cells: 96; Parallel C-S: 1; " +
			"Isco: 5.92; Voco: 65.31; Impo: 5.59; Vmpo: 54.43; aIsc: 0.0004; aImp: -0.00031; C0: 1.009; C1: -0.009; BVoco: -0.193; " +
			"d(Tc): 3; fd: 1; a: -3.62; b: -0.075"}
	e := NewExtractive(ExtractiveOptions{})
	for _, tc := range []struct{ question, want string }{
		{"spr-305-wht maximum series fuse rating, sandia module database", ""},
		{"spr-305-wht series cells, sandia module database", "Model: SunPower SPR-305-WHT; Series Cells: 96"},
		// The letters of a name stand for words: C-S, "cell strings".
		{"spr-305-wht parallel cell strings, sandia module database", "Model: SunPower SPR-305-WHT; Series Cells: 96; Parallel C-S: 1"},
	} {
		q := parseQuestion(tc.question, "technical_value", "simple", guard.Expectation{})
		cands, _ := e.candidates(q, []store.Chunk{row}, nil)
		got := ""
		if len(cands) > 0 {
			got = cands[0].quote
		}
		if got != tc.want {
			t.Errorf("%q: quote %q, want %q", tc.question, got, tc.want)
		}
	}
}

// TestGlossedBefore: the words before an acronym in brackets spell it out
// by their initials, hyphenated, in capitals or with function words.
func TestGlossedBefore(t *testing.T) {
	tests := []struct {
		acronym, text string
		want          bool
	}{
		{"tip", "developing a transportation improvement program (TIP) that is consistent", true},
		{"poa", "The plane-of-array (POA) beam component", true},
		{"pvpmc", "run by the PV Performance Modeling Collaborative (PVPMC) and", true},
		{"oeca", "the Office of Enforcement and Compliance Assurance (OECA)", true},
		{"tdd", "call the RCRA Hotline weekdays at 800-424-9346 (TDD 800-553-7672)", false},
		{"gcr", "the ground cover (GCR)", false},
	}
	for _, tc := range tests {
		if got := glossedBefore(tc.acronym, tc.text); got != tc.want {
			t.Errorf("glossedBefore(%q, %q) = %v, want %v", tc.acronym, tc.text, got, tc.want)
		}
	}
}

// TestOrNotIsNoNegation: "X or not" asks which, and a doubt about what
// was said asks nothing about what is not so; "when is X not needed" does.
func TestOrNotIsNoNegation(t *testing.T) {
	for text, want := range map[string]bool{
		"ground reflected poa in pvwatts - isotropic or not":                                                    false,
		"whether or not the ground reflected poa is isotropic":                                                  false,
		"when is an EIS not needed under NEPA":                                                                  true,
		"you said trackers rotate to ±60° but that doesn't match what i remember, what limit does v5 hard-code": false,
	} {
		if got := parseQuestion(text, "general", "simple", guard.Expectation{}).negated; got != want {
			t.Errorf("negated(%q) = %v, want %v", text, got, want)
		}
	}
}

// TestUnknownAsked: a value written as unknown for the word asked is no
// value; the known values beside it still are.
func TestUnknownAsked(t *testing.T) {
	quote := "Heading: fd; Description: Fraction of POA diffuse irradiance used by module; default FP=1, HCPV=0, LCPV=?"
	for question, want := range map[string]bool{
		"default fd for lcpv modules per the module db legend": true,
		"default fd for hcpv modules per the module db legend": false,
	} {
		if got := unknownAsked(parseQuestion(question, "general", "simple", guard.Expectation{}), quote); got != want {
			t.Errorf("unknownAsked(%q) = %v, want %v", question, got, want)
		}
	}
}

// TestEchoesNumbers: a row that gives back only the question's own
// numbers says nothing; one that gives another value, or a word, does.
func TestEchoesNumbers(t *testing.T) {
	q := parseQuestion("which conference was the 2001 pvwatts v2 paper presented at", "general", "simple", guard.Expectation{})
	for quote, want := range map[string]bool{
		"V2 — Date: 2001":                    true,
		"V2 — Date: 2003":                    false,
		"V2 — Date: 2001; Status: Retiring":  false,
		"The V2 paper was presented in 2001": false,
	} {
		if got := echoesNumbers(q, quote); got != want {
			t.Errorf("echoesNumbers(%q) = %v, want %v", quote, got, want)
		}
	}
}

// TestSaysNothingAlone: a sentence that introduces an equation, or only
// says where more is to be read, says nothing by itself.
func TestSaysNothingAlone(t *testing.T) {
	for text, want := range map[string]bool{
		"The view factor to the ground is given by":                   true,
		"The effective transmittance is calculated as follows:":       true,
		"The view factor is given by Eq. 12 for every point on L.":    false,
		"PVWatts assumes a ground reflectance of 0.2 for TMY2 files.": false,
	} {
		if got := introduces.MatchString(text); got != want {
			t.Errorf("introduces(%q) = %v, want %v", text, got, want)
		}
	}
	for text, want := range map[string]bool{
		"For more information on C&D wastes, go to www.epa.gov/epaoswer/non-hw/debris/index.htm": true,
		"■ For information on the asbestos NESHAP, go to www.epa.gov/asbestos/neshap.html":       true,
		"For more information, contact your state agency.":                                       false,
		"C&D wastes include wood, sheet rock and concrete; see www.epa.gov/debris.":              false,
	} {
		if got := pointsElsewhere(text); got != want {
			t.Errorf("pointsElsewhere(%q) = %v, want %v", text, got, want)
		}
	}
}

// TestEnumerates: a sentence lists three things or more by its own
// commas, not by those of a bracket about one of them, but by those of a
// bracket of examples.
func TestEnumerates(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		{"The thermal model uses the total incident POA irradiance, wind speed, and dry bulb temperature.", true},
		{"▪ Average front and rear irradiance (nominal, not including reflection (IAM), shade or soiling losses) for every hour.", false},
		{"A GCR of 1 indicates no space between adjacent rows, and a GCR of 0 means infinite spacing.", false},
		{"These wastes are treated as universal waste (i.e., items such as batteries, thermostats, and obsolete pesticides commonly thrown into the trash).", true},
		{"Do you generate hazardous wastes (i.e., waste that poses potential harm to human health and the environment)?", false},
		{"Examples include spent cleaners (e.g., organic solvents), paints (e.g., lead-based paint).", false},
	}
	for _, tc := range tests {
		if got := enumerates(tc.text); got != tc.want {
			t.Errorf("enumerates(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}

// TestCombineVersus: a question that sets two cases side by side takes the
// second case's row of the same table, though its words weigh little; a
// unit of another kind still has to add a part's weight.
func TestCombineVersus(t *testing.T) {
	e := NewExtractive(ExtractiveOptions{})
	q := parseQuestion("defaults tab air mass a0, glass/mc-si vs glass/c-si", "technical_value", "complex", guard.Expectation{})
	q.terms[q.index["c"]].weight = 0.5
	var total float64
	for i := range q.terms {
		if q.terms[i].weight == 0 {
			q.terms[i].weight = 1
		}
		total += q.terms[i].weight
	}
	cand := func(kind unitKind, quote string, score float64, missing ...string) candidate {
		c := candidate{unit: unit{kind: kind, docID: "sandia-modules"}, quote: quote, score: score,
			matched: make([]float64, len(q.terms)), terms: analysis.TermSet(quote)}
		for i := range c.matched {
			c.matched[i] = 1
		}
		for _, m := range missing {
			c.matched[q.index[m]] = 0
		}
		return c
	}
	mc := cand(kindRecord, "Module type: Glass/mc-Si; A0: 0.9219", 0.8, "c")
	tests := []struct {
		name   string
		second candidate
		want   int
	}{
		{"the other case's row", cand(kindRecord, "Module type: Glass/c-Si; A0: 0.9315", 0.7, "mc"), 2},
		{"a sentence adding as little", cand(kindSentence, "The c-Si modules use an air mass modifier.", 0.7, "mc"), 1},
	}
	for _, tc := range tests {
		if got := e.combine(q, []candidate{mc, tc.second}, total); len(got) != tc.want {
			t.Errorf("%s: %d units, want %d", tc.name, len(got), tc.want)
		}
	}
}

// TestRefersBack: a sentence that opens with a pronoun, or answers the
// question before it ("If so, …"), is read with that sentence.
func TestRefersBack(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"These wastes are treated as universal waste.", true},
		{"If so, you may have to get Clean Water Act (CWA) permit coverage.", true},
		{"If not, the generator is responsible.", true},
		{"If the storage time is exceeded, a RCRA permit is needed.", false},
		{"Storm water general permits are issued through the EPA.", false},
	}
	for _, tc := range tests {
		if got := refersBack(tc.in); got != tc.want {
			t.Errorf("refersBack(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

// TestNegatedQuestion: asked what is not so, a sentence that denies nothing
// is no answer, though it answers the same thing asked plainly; one that
// denies scores no lower.
func TestNegatedQuestion(t *testing.T) {
	chunk := store.Chunk{ID: "epa/1/25", DocID: "epa", Page: 7, Section: "OTHER CONSIDERATIONS",
		Text: "Under NEPA, an Environmental Assessment (EA), an Environmental Impact Statement (EIS), or both may be required. " +
			"An EIS may not be needed if results of an EA indicate the project has no significant impacts."}
	score := func(question, prefix string) (float64, bool) {
		q := parseQuestion(question, "general", "simple", guard.Expectation{})
		cands, _ := NewExtractive(ExtractiveOptions{}).candidates(q, []store.Chunk{chunk}, nil)
		for _, c := range cands {
			if strings.HasPrefix(c.quote, prefix) {
				return c.score, true
			}
		}
		return 0, false
	}
	if _, ok := score("when is an eis not needed under nepa", "Under NEPA"); ok {
		t.Error("the affirming sentence answers when an EIS is not needed")
	}
	if _, ok := score("when is an eis needed under nepa", "Under NEPA"); !ok {
		t.Error("the affirming sentence does not answer when an EIS is needed")
	}
	not, okNot := score("when is an eis not needed under nepa", "An EIS")
	plain, okPlain := score("when is an eis needed under nepa", "An EIS")
	if !okNot || !okPlain || not < plain {
		t.Errorf("denying sentence scores %.3f (%v) asked when not, %.3f (%v) asked when; want no lower", not, okNot, plain, okPlain)
	}
	if !guard.NegatesVerb("isn't") || !guard.NegatesVerb("not") || guard.NegatesVerb("no") {
		t.Error("NegatesVerb: want isn't and not, not no")
	}
}

// TestWhoIsABody: "who" is answered by a name or by a body written in lower
// case ("your local fire department").
func TestWhoIsABody(t *testing.T) {
	q := parseQuestion("who do we ask about permitting the used oil space heater", "general", "simple", guard.Expectation{})
	tests := []struct {
		text string
		want bool
	}{
		{"contact your local air quality agency for additional information.", true},
		{"you can identify the authority by contacting your local fire department.", true},
		{"you may be subject to air permitting requirements depending on the rating of the heater.", false},
	}
	for _, tc := range tests {
		if got, _ := q.satisfies(tc.text, analysis.Tokens(tc.text)); got != tc.want {
			t.Errorf("satisfies(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}

// TestSupport: the coverage the confidence reads for an answer is that of
// the unit stating its value that holds most of the question.
func TestSupport(t *testing.T) {
	q := parseQuestion("what is the default value of the total system losses in pvwatts", "technical_value", "simple", guard.Expectation{})
	cand := func(quote string, coverage float64) candidate {
		return candidate{quote: quote, coverage: coverage, values: guard.Values(quote)}
	}
	row := cand("System losses (%) — Default Value: 14", 0.68)
	tests := []struct {
		name  string
		other candidate
		want  float64
	}{
		{"a sentence stating the same value", cand("Total system losses are specified as a percentage, with a default value of 14 %.", 1), 1},
		{"a sentence stating another value", cand("Soiling losses default to 2 %.", 0.9), 0.68},
		{"a sentence stating no value", cand("Total system losses are a percentage of DC energy.", 0.95), 0.68},
		{"the same share as a fraction", cand("Total system losses default to 0.14 of the DC energy.", 0.9), 0.9},
		{"another share as a fraction", cand("Total system losses default to 0.86 of the DC energy.", 0.9), 0.68},
	}
	for _, tc := range tests {
		if got := support(q, row, statedValues(q, row), []candidate{row, tc.other}).coverage; got != tc.want {
			t.Errorf("%s: coverage %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestPersonAnswer: a "who" question is answered by a unit naming someone
// (a capitalised name or a body such as an agency), and the capital of a
// word opening a sentence names no one.
func TestPersonAnswer(t *testing.T) {
	q := parseQuestion("who do we ask about the used oil space heater", "general", "simple", guard.Expectation{})
	tests := []struct {
		text string
		want bool
	}{
		{text: "Do you have a space heater fueled with used oil? If so, you may be subject to air permitting requirements.", want: false},
		{text: "Space heaters fueled with used oil: See the permit rules.", want: false},
		{text: "Space heaters fueled with used oil are permitted by the Corps.", want: true},
		{text: "Contact your local air quality agency for additional information.", want: true},
	}
	for _, tc := range tests {
		if got, _ := q.satisfies(tc.text, analysis.Tokens(tc.text)); got != tc.want {
			t.Errorf("%q: satisfies = %v, want %v", tc.text, got, tc.want)
		}
	}
}

// TestDropUnnamedRows: the rows of a table the question names one row of
// stop competing with it; a table none of whose rows is named keeps them.
func TestDropUnnamedRows(t *testing.T) {
	row := func(chunk int, header, text string, unnamed bool) candidate {
		return candidate{unit: unit{chunk: chunk, kind: kindRow, header: header, text: text}, unnamed: unnamed}
	}
	cands := []candidate{
		row(0, "Loss | Default", "Soiling | 2 %", true),
		row(0, "Loss | Default", "Availability | 3 %", false),
		row(1, "Scenario | Albedo", "A1 | 0.2", true),
		{unit: unit{chunk: 2, kind: kindSentence, text: "The albedo is 0.2."}},
	}
	var got []string
	for _, c := range dropUnnamedRows(cands) {
		got = append(got, c.text)
	}
	want := []string{"Availability | 3 %", "A1 | 0.2", "The albedo is 0.2."}
	if !slices.Equal(got, want) {
		t.Errorf("kept %q, want %q", got, want)
	}
}

// TestZeroLoss: a loss set to "zero" is a value of the percentage asked
// for; a depth of "zero" says no number of millimetres.
func TestZeroLoss(t *testing.T) {
	loss := parseQuestion("what were shading and availability losses set to", "technical_value", "simple",
		guard.Expectation{Dims: []guard.Dimension{guard.DimPercent}, Cues: []string{"losses"}})
	depth := parseQuestion("how deep is the cable trench", "technical_value", "simple",
		guard.Expectation{Dims: []guard.Dimension{guard.DimLength}, Cues: []string{"how", "deep"}})
	tests := []struct {
		q    question
		text string
		want bool
	}{
		{loss, "the loss mechanisms for shading and availability were set to zero for both models.", true},
		{depth, "the cover over the cable trench is zero at the road crossing.", false},
	}
	for _, tc := range tests {
		if got, _ := tc.q.satisfies(tc.text, analysis.Tokens(tc.text)); got != tc.want {
			t.Errorf("satisfies(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}

// TestDropUnnamedDocuments: a question that names a document by two words
// of its number or more is answered from that document only.
func TestDropUnnamedDocuments(t *testing.T) {
	chunks := []store.Chunk{{DocID: "iea", DocNumber: "IEA-PVPS-T13-BIFI"}, {DocID: "pvlib-note", DocNumber: "PVLIB-NOTE-VF"}}
	numbers := []map[string]bool{analysis.TermSet(chunks[0].DocNumber), analysis.TermSet(chunks[1].DocNumber)}
	cands := []candidate{{unit: unit{chunk: 0, text: "pitch of 5.96m"}}, {unit: unit{chunk: 1, text: "slant height L"}}}
	tests := []struct {
		question string
		want     []int // the chunks of the candidates kept
	}{
		{"vf note - how is P defined, pitch or gap between rows", []int{1}},
		{"iea bifi study pitch", []int{0}},
		// One word of a number names nothing: "note" is in many a
		// question.
		{"a note on the pitch", []int{0, 1}},
	}
	for _, tc := range tests {
		q := parseQuestion(tc.question, "general", "simple", guard.Expectation{})
		var got []int
		for _, c := range dropUnnamedDocuments(q, slices.Clone(cands), chunks, numbers) {
			got = append(got, c.chunk)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%q: kept chunks %v, want %v", tc.question, got, tc.want)
		}
	}
}

// TestThingAsked: "what X" and "which X" ask for X, which runs to the
// first function word or verb — an auxiliary, or a verb of saying or
// requiring ("which law says …" asks which law, a single word, so no
// unit has to repeat "law").
func TestThingAsked(t *testing.T) {
	tests := []struct {
		question string
		want     []string
	}{
		{"what time zone are the timestamps in", []string{"time", "zone"}},
		{"which law says we have to keep msds's on site for anything with hazardous chemicals", nil},
		{"which weather file formats can carry an hourly albedo", []string{"weather", "file", "format"}},
		{"default soiling loss in pvwatts", nil},
	}
	for _, tc := range tests {
		q := parseQuestion(tc.question, "general", "simple", guard.Expectation{})
		var got []string
		for _, i := range q.thing {
			got = append(got, q.terms[i].term)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%q: thing %q, want %q", tc.question, got, tc.want)
		}
	}
}

// TestOtherSide: a row the rows of one side of "vs" name more of is named
// by the other side; one that rows of both sides, or a word said on both
// sides, name more of is named by neither.
func TestOtherSide(t *testing.T) {
	q := parseQuestion("sq70 isco for the 6v (e) one vs the 12v (e) one", "technical_value", "complex", guard.Expectation{})
	at := func(term string) int {
		i, ok := q.index[term]
		if !ok {
			t.Fatalf("no term %q in %v", term, q.terms)
		}
		return i
	}
	sq70, v6, v12, e := at("sq70"), at("6v"), at("12v"), at("(e)")
	own := rowName{asked: []int{sq70}}
	tests := []struct {
		name   string
		own    rowName
		fuller []rowName
		want   bool
	}{
		{"rows of one side name more", own, []rowName{{asked: []int{sq70, v6}}}, true},
		{"rows of both sides name more", own, []rowName{{asked: []int{sq70, v6}}, {asked: []int{sq70, v12}}}, false},
		{"a word said on both sides", own, []rowName{{asked: []int{sq70, e}}}, false},
		{"the row holds the other side's word in a value", rowName{asked: []int{sq70}, exact: []int{v6}}, []rowName{{asked: []int{sq70, v6}}}, false},
	}
	for _, tc := range tests {
		if got := otherSide(q, tc.own, tc.fuller); got != tc.want {
			t.Errorf("%s: otherSide = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestAboutOwner: a contact number asked for something the question names
// is one a unit says of that thing; a question that names nothing else
// takes any number of the form.
func TestAboutOwner(t *testing.T) {
	tests := []struct {
		question string
		matched  []string // the question's terms the unit holds
		want     bool
	}{
		{"rcra hotline fax number", []string{"fax", "number"}, false},
		{"rcra hotline fax number", []string{"rcra", "fax", "number"}, true},
		{"fax number", []string{"fax", "number"}, true},
		{"nmfs website", []string{"web", "site"}, false},
	}
	for _, tc := range tests {
		qa := query.Analyse(tc.question, query.Input{})
		q := parseQuestion(qa.Text, "general", "simple", qa.Expect)
		if q.expect.Format == "" {
			t.Fatalf("%q: no form asked", tc.question)
		}
		matched := make([]float64, len(q.terms))
		for i, term := range q.terms {
			if slices.Contains(tc.matched, term.term) {
				matched[i] = 1
			}
		}
		if got := aboutOwner(q, matched); got != tc.want {
			t.Errorf("%q holding %v: aboutOwner = %v, want %v", tc.question, tc.matched, got, tc.want)
		}
	}
}

// TestVersusSides: the sides of "vs" are the nearest words either side
// that are not stopwords, words for a table's line ("listing") or
// bracketed marks.
func TestVersusSides(t *testing.T) {
	tests := []struct {
		question string
		want     []string
	}{
		{"kyocera ks5 voco - 2003 (E) row vs the 2008 (E) row", []string{"2003", "2008"}},
		{"blueplanet 40.0 tl3 idcmax - M1 vs M3", []string{"m1", "m3"}},
		{"sunergy elv - isco for the 2008 (E) one vs the 2009 (E) one", []string{"2008", "2009"}},
		{"replus-250a vdcmax - renesola 2013 listing vs the zhejiang yuhui 2012 one", []string{"2013", "zhejiang"}},
	}
	for _, tc := range tests {
		q := parseQuestion(tc.question, "technical_value", "simple", guard.Expectation{})
		got := slices.Sorted(maps.Keys(q.contrasted))
		if !slices.Equal(got, tc.want) {
			t.Errorf("parseQuestion(%q).contrasted = %q, want %q", tc.question, got, tc.want)
		}
	}
}

// TestLinesJoined: an "and" between two words for a table's line sets the
// lines side by side as "vs" does, and the question has two parts; an
// "and" between two columns does not. Two model numbers joined by "and" or
// "or" are each a part of the answer too, without being set side by side;
// one model's two columns are not.
func TestLinesJoined(t *testing.T) {
	tests := []struct {
		question        string
		versus, complex bool
	}{
		{"spr-220-blk-u voco in the measured 2008 entry and in the (E) one", true, true},
		{"kyocera ks5 - the 2003 row and the 2008 row, voco", true, true},
		{"sr90 pmax and voc", false, false},
		{"which row and column hold the albedo", false, false},
		{"solectria pvi-7600tl and pvi-6600tl 208v idcmax", false, true},
		{"idcmax of the pvi-7600tl or the pvi-6600tl", false, true},
		{"sb7000tl-us-22 paco and pnt", false, false},
		{"paco and pnt of the sb7000tl-us-22", false, false},
	}
	for _, tc := range tests {
		q := parseQuestion(tc.question, "technical_value", "simple", guard.Expectation{})
		if q.versus != tc.versus || q.complex != tc.complex {
			t.Errorf("parseQuestion(%q): versus %v, complex %v, want %v and %v", tc.question, q.versus, q.complex, tc.versus, tc.complex)
		}
	}
}

// TestBesidesWhatTheSentenceSaysToo: a sentence that says what the
// question sets aside ("besides modeling typical systems more accurately")
// still answers when it says most of the rest of the question: "… while
// keeping the number of inputs to a minimum".
func TestBesidesWhatTheSentenceSaysToo(t *testing.T) {
	q := parseQuestion("v5 overhaul - besides modeling typical systems more accurately, what were they trying to keep to a minimum",
		"technical_value", "simple", guard.Expectation{})
	if !q.excluded["typic"] || !q.excluded["accur"] {
		t.Fatalf("excluded = %v; want the clause after besides", q.excluded)
	}
	match := func(terms ...string) []float64 {
		m := make([]float64, len(q.terms))
		for _, term := range terms {
			i, ok := q.index[term]
			if !ok {
				t.Fatalf("%q is no term of the question (%v)", term, q.terms)
			}
			m[i] = 1
		}
		return m
	}
	if !saysRest(q, match("v5", "keep", "minimum")) {
		t.Error("a sentence saying v5, keep and minimum does not say the rest")
	}
	if saysRest(q, match("v5")) {
		t.Error("a sentence saying only v5 says the rest")
	}
}

func TestNumberCell(t *testing.T) {
	for field, want := range map[string]bool{
		"b: -0.0455": true, "A4: -2.58E-05": true, "Paco (W): 7000": true,
		"Mount: Rack": false, "Vintage: 2010 (E)": false, "Model: SPV-4.5": false,
	} {
		if got := numberCell.MatchString(field); got != want {
			t.Errorf("numberCell(%q) = %v, want %v", field, got, want)
		}
	}
}

func TestStatesPages(t *testing.T) {
	tests := []struct {
		entry string
		want  bool
	}{
		{"Perez, R. (1990). Modeling daylight availability. Solar Energy 44:5, 271-289.", true},
		{"Fuentes, M. (1987). A simplified thermal model. SAND85-0330, pp. 12.", true},
		{"Marion, W.; Anderberg, M. (2000). PVWATTS. Proceedings of the ASES Solar Conference, June 15-21, 2000, Madison, Wisconsin", false},
		{"User's Manual for TMY2. Accessed September 3, 2013.", false},
		{"Marion, W. (2001). PVWATTS Version 2. CP-560-30941. Golden CO: NREL.", false},
	}
	for _, tc := range tests {
		if got := statesPages(tc.entry); got != tc.want {
			t.Errorf("statesPages(%q) = %v, want %v", tc.entry, got, tc.want)
		}
	}
}

// TestAsideQuantityTheModelHolds: a voltage set aside with another
// listing of the model asked, whose number the model's own name holds
// ("pvi60kw-208 … not the 2007 'pvi60kw 208v'"), does not set the asked
// row aside; the year that tells the two listings apart does.
func TestAsideQuantityTheModelHolds(t *testing.T) {
	q := parseQuestion("solectria pvi60kw-208 (2013 renewables listing, not the 2007 'pvi60kw 208v') idcmax + pnt",
		"technical_value", "simple", guard.Expectation{})
	if q.excluded["208v"] || !q.excluded["2007"] {
		t.Errorf("excluded = %v; want 2007 and not 208v", q.excluded)
	}
	q = parseQuestion("sb7000tl-us-22 208v paco, not the 240v one", "technical_value", "simple", guard.Expectation{})
	if !q.excluded["240v"] {
		t.Errorf("excluded = %v; want 240v", q.excluded)
	}
}

func TestRowLabels(t *testing.T) {
	tests := []struct {
		question string
		want     []string
	}{
		{"legend: what are c4 / c5", []string{"c4", "c5"}},
		// A reciprocal unit is a unit: the legend row that writes "(1/C)"
		// names no row the model's does not.
		{"sharp nt-175u1 current temp coeffs (aisc and aimp - the normalized 1/c ones)", nil},
	}
	for _, tc := range tests {
		q := parseQuestion(tc.question, "technical_value", "simple", guard.Expectation{})
		if got := rowLabels(q); !slices.Equal(got, tc.want) {
			t.Errorf("rowLabels(%q) = %q, want %q", tc.question, got, tc.want)
		}
	}
}

func TestMakerWordsOfModelsSideBySide(t *testing.T) {
	text := "solarex msx-110 vs bp solar msx110 voco"
	toks := analysis.Tokens(text)
	if got := makerWords(text, toks, false); !slices.Equal(got, []string{"solarex"}) {
		t.Errorf("makerWords(%q) = %q, want the first model's maker", text, got)
	}
	got := makerWords(text, toks, true)
	for _, w := range []string{"solarex", "bp", "solar"} {
		if !slices.Contains(got, w) {
			t.Errorf("makerWords(%q, every) = %q, want %q among them", text, got, w)
		}
	}
}

func TestComparedTerms(t *testing.T) {
	tests := []struct {
		question string
		want     []string
	}{
		{"growatt 10000tl-us vs growatt 11000tl-us - idcmax on each, which one takes more dc current", []string{"take", "more", "dc", "current"}},
		{"solarex msx-110 vs bp solar msx110 voco — which is higher", []string{"higher"}},
		// No comparative: the clause asks something of its own.
		{"sb7000 vs sb8000 paco, which weather file", nil},
	}
	for _, tc := range tests {
		toks := analysis.Tokens(tc.question)
		got := unsaidTerms(toks, comparedClause(tc.question, toks), true)
		for _, w := range tc.want {
			if !got[analysis.Terms(w)[0]] {
				t.Errorf("compared terms of %q = %v, want %q among them", tc.question, got, w)
			}
		}
		if tc.want == nil && len(got) > 0 {
			t.Errorf("compared terms of %q = %v, want none", tc.question, got)
		}
		if got["idcmax"] {
			t.Errorf("compared terms of %q holds idcmax, which the question asks outside the clause", tc.question)
		}
	}
}

func TestActedBy(t *testing.T) {
	for _, tc := range []struct {
		text string
		at   int
		want bool
	}{
		{"if i flip the array type", 2, true},
		{"rcra: what decides if we count as a large generator", 5, true},
		{"is the i-power sho-1.1 a 120 v unit", 3, false},
	} {
		toks := analysis.Tokens(tc.text)
		if got := actedBy(tc.text, toks, tc.at); got != tc.want {
			t.Errorf("actedBy(%q, %q) = %v, want %v", tc.text, toks[tc.at].Text, got, tc.want)
		}
	}
}

func TestRelatedTerms(t *testing.T) {
	toks := analysis.Tokens("bp sx3150 coefficient relating vmpo to effective irradiance")
	got := unsaidTerms(toks, guard.Related(toks), false)
	for _, w := range []string{"vmpo", "irradi"} {
		if !got[w] {
			t.Errorf("related terms lack %q: %v", w, got)
		}
	}
	if got["sx3150"] || got["coeffici"] {
		t.Errorf("related terms hold the model or the coefficient: %v", got)
	}
	if toks := analysis.Tokens("bp sx3150 vmpo temp coefficient"); unsaidTerms(toks, guard.Related(toks), false) != nil {
		t.Error("a question that relates nothing has related terms")
	}
}
