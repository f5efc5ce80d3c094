package analysis

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

type tok struct {
	text, term string
	kind       Kind
}

func simplify(toks []Token) []tok {
	out := make([]tok, len(toks))
	for i, t := range toks {
		out[i] = tok{t.Text, t.Term, t.Kind}
	}
	return out
}

func TestTokens(t *testing.T) {
	cases := []struct {
		name string
		in   string
		want []tok
	}{
		{"DrawingNumber", "Drawing 277-007-D-C-40327 Rev 03", []tok{
			{"drawing", "draw", Word}, {"277-007-d-c-40327", "277-007-d-c-40327", Identifier},
			{"rev", "rev", Word}, {"03", "03", Number}}},
		{"ModelNumberInParentheses", "(SB7000TL-US-22).", []tok{{"sb7000tl-us-22", "sb7000tl-us-22", Identifier}}},
		{"ReportNumber", "NREL/TP-6A20-62641", []tok{{"nrel/tp-6a20-62641", "nrel/tp-6a20-62641", Identifier}}},
		{"NegativeDecimal", "is -0.35 here", []tok{{"is", "is", Word}, {"-0.35", "-0.35", Number}, {"here", "here", Word}}},
		{"MinusSign", "\u22120.35", []tok{{"-0.35", "-0.35", Number}}},
		{"PlusMinus", "±5 mm", []tok{{"±5", "±5", Number}, {"mm", "mm", Word}}},
		{"HyphenBeforeWordIsNotSign", "- cable", []tok{{"cable", "cabl", Word}}},
		{"Percent", "14%", []tok{{"14%", "14%", Number}}},
		{"Currency", "$1,500", []tok{{"$1,500", "$1,500", Number}}},
		{"UnitPerDegree", "-0.35 %/°C", []tok{{"-0.35", "-0.35", Number}, {"%/°c", "%/°c", Symbol}}},
		{"Degree", "45 °C", []tok{{"45", "45", Number}, {"°c", "°c", Symbol}}},
		{"DegreeCelsiusSign", "45 ℃", []tok{{"45", "45", Number}, {"°c", "°c", Symbol}}},
		{"SquareMetre", "12 m²", []tok{{"12", "12", Number}, {"m2", "m2", Identifier}}},
		{"GroupedNumber", "1,500 mm", []tok{{"1,500", "1,500", Number}, {"mm", "mm", Word}}},
		{"ListCommaIsNotGrouping", "a,b", []tok{{"a", "a", Word}, {"b", "b", Word}}},
		{"Ratio", "scale 1:500", []tok{{"scale", "scale", Word}, {"1:500", "1:500", Number}}},
		{"SentenceEndPeriod", "depth 800 mm.", []tok{{"depth", "depth", Word}, {"800", "800", Number}, {"mm", "mm", Word}}},
		{"NumberGluedToUnit", "800mm", []tok{{"800mm", "800mm", Identifier}}},
		{"Possessive", "the engineer's", []tok{{"the", "the", Word}, {"engineer's", "engin", Word}}},
		{"CurlyApostrophe", "engineer\u2019s", []tok{{"engineer's", "engin", Word}}},
		{"HyphenatedWords", "cross-section", []tok{{"cross", "cross", Word}, {"section", "section", Word}}},
		{"LostSpaceAfterPeriod", "depth.The", []tok{{"depth", "depth", Word}, {"the", "the", Word}}},
		{"Ligature", "ﬁnal", []tok{{"final", "final", Word}}},
		{"Stem", "Coefficients trenches", []tok{{"coefficients", "coeffici", Word}, {"trenches", "trench", Word}}},
		{"StopwordKeepsText", "The", []tok{{"the", "the", Word}}},
		{"Greek", "β-cells", []tok{{"β", "β", Word}, {"cells", "cell", Word}}},
		{"OnlyPunctuation", " -- ,, .. / ", []tok{}},
		{"Empty", "", []tok{}},
		{"TrailingSign", "x -", []tok{{"x", "x", Word}}},
		{"InvalidUTF8", "a\xffb", []tok{{"a", "a", Word}, {"b", "b", Word}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := simplify(Tokens(c.in))
			if !slices.Equal(got, c.want) {
				t.Errorf("Tokens(%q) =\n  %v\nwant\n  %v", c.in, got, c.want)
			}
		})
	}
}

func TestTokenOffsets(t *testing.T) {
	cases := []struct {
		name string
		in   string
		want []string // the input slices the tokens cover
	}{
		{"Identifiers", "Drawing 277-007-D-C-40327, model SB7000TL-US-22.", []string{"Drawing", "277-007-D-C-40327", "model", "SB7000TL-US-22"}},
		{"MultiByte", "−0.35 %/°C and ﬁnal", []string{"−0.35", "%/°C", "and", "ﬁnal"}},
		{"SplitCompound", "cross-section", []string{"cross", "section"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got []string
			for _, tk := range Tokens(c.in) {
				got = append(got, c.in[tk.Start:tk.End])
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("surfaces = %q, want %q", got, c.want)
			}
		})
	}
}

func TestTerms(t *testing.T) {
	cases := []struct {
		name string
		in   string
		want []string
	}{
		{"DrawingNumber", "277-007-D-C-40327", []string{"277-007-d-c-40327", "277", "007", "d", "c", "40327"}},
		{"ModelNumber", "SB7000TL-US-22", []string{"sb7000tl-us-22", "sb7000tl", "sb7000", "us", "22"}},
		{"ModelNumberSuffixLeftOff", "MIG300UL00", []string{"mig300ul00", "mig300"}},
		{"NameRunIntoModelNumber", "SolarRiver7000TL-US", []string{"solarriver7000tl-us", "solarriver7000tl", "solarriver7000", "solarriv", "7000tl", "7000", "tl", "us"}},
		{"ReportNumber", "NREL/TP-6A20-62641", []string{"nrel/tp-6a20-62641", "nrel", "tp", "6a20", "62641"}},
		{"NegativeDecimal", "-0.35", []string{"-0.35", "0.35"}},
		{"Decimal", "0.35", []string{"0.35"}},
		{"Percent", "14%", []string{"14%", "14", "%"}},
		{"UnitPerDegree", "%/°C", []string{"%/°c", "%", "°c"}},
		{"Degree", "°C", []string{"°c"}},
		{"NumberWithCompoundUnit", "-0.35%/°C", []string{"-0.35%/°c", "%/°c", "-0.35%", "-0.35", "0.35", "%", "°c"}},
		{"SquareMetre", "m²", []string{"m2"}},
		{"GroupedNumber", "1,500", []string{"1,500", "1500"}},
		{"NegativeGroupedNumber", "-12,500.5", []string{"-12,500.5", "12,500.5", "-12500.5", "12500.5"}},
		{"NotGrouped", "2,30", []string{"2,30"}},
		{"Currency", "€1,500.50", []string{"€1,500.50", "€", "1,500.50", "1500.50"}},
		{"CurrencyWithoutNumber", "US$", []string{"us$"}},
		{"NumberGluedToUnit", "800mm", []string{"800mm", "800", "mm"}},
		{"NumberGluedToWord", "5cables", []string{"5cables", "5", "cabl"}},
		{"IdentifierWithWordPart", "Inverter-42", []string{"inverter-42", "invert", "42"}},
		{"StopwordPartDropped", "A-10", []string{"a-10", "10"}},
		{"Range", "10-20", []string{"10-20", "10", "20"}},
		{"StopwordsDropped", "The depth of the trench is 800 mm", []string{"depth", "trench", "800", "mm"}},
		{"BroadStopwordsKept", "which should be", []string{"which", "should"}},
		{"Possessive", "engineer's", []string{"engin"}},
		{"Stems", "Coefficients coefficient", []string{"coeffici", "coeffici"}},
		{"AbbreviationPlural", "GCRs PCBs gas", []string{"gcr", "pcb", "gas"}},
		{"Empty", "", []string{}},
		{"OverlongTermDropped", strings.Repeat("x", 300) + " trench", []string{"trench"}},
		{"OverlongIdentifierKeepsParts", strings.Repeat("9", 300) + "-A1", []string{"a1"}},
		{"GreekPrefixInLatin", "βVmpo αIsc", []string{"bvmpo", "aisc"}},
		{"LoneGreekLetter", "tilt β", []string{"tilt", "β"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Terms(c.in); !slices.Equal(got, c.want) {
				t.Errorf("Terms(%q) = %q, want %q", c.in, got, c.want)
			}
			set := TermSet(c.in)
			for _, w := range c.want {
				if !set[w] {
					t.Errorf("TermSet(%q) lacks %q", c.in, w)
				}
			}
			if distinct := slices.Compact(slices.Sorted(slices.Values(c.want))); len(set) != len(distinct) {
				t.Errorf("TermSet(%q) = %v, want the terms %q", c.in, set, distinct)
			}
		})
	}
}

// TestQueryMatchesDocument checks the property the index relies on: a
// query term written the way an engineer types it shares a term with the
// way a document prints it.
func TestQueryMatchesDocument(t *testing.T) {
	cases := []struct {
		name, query, document string
	}{
		{"DrawingNumberTail", "40327", "Drawing 277-007-D-C-40327 Rev 03"},
		{"ModelFamily", "SB7000TL", "SB7000TL-US-22 inverter"},
		{"UnsignedCoefficient", "0.35", "−0.35 %/°C"},
		{"SpacedUnit", "800 mm", "800mm"},
		{"UngroupedNumber", "1500", "1,500 V"},
		{"CompoundUnitInsideValue", "%/°C", "-0.35%/°C"},
		{"Plural", "cables", "cable"},
		{"AbbreviationPlural", "GCR", "Typical one axis tracker systems have GCRs in the range of 0.3 to 0.6"},
		{"Superscript", "m2", "m²"},
		{"CelsiusSign", "°C", "45 ℃"},
		{"GreekPrefixTypedLatin", "bvmpo", "Heading: βVmpo; Description: Module Vmp temperature coefficient"},
		{"GreekPrefixAsTheDataSheetWrites", "βVmpo", "BVmpo: -0.172"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			doc := Terms(c.document)
			for _, q := range Terms(c.query) {
				if slices.Contains(doc, q) {
					return
				}
			}
			t.Errorf("no term of %q (%q) is in %q (%q)", c.query, Terms(c.query), c.document, doc)
		})
	}
}

func TestIsStopword(t *testing.T) {
	cases := []struct {
		word string
		want bool
	}{
		{"the", true},
		{"which", true},
		{"shall", true},
		{"don't", true},
		{"within", true}, // a preposition the Snowball list lacks
		{"across", true},
		{"vs", true}, // "v5 vs v1" compares; it names nothing
		{"trench", false},
		{"inverter", false},
		{"The", false}, // callers pass lower-case words
	}
	for _, c := range cases {
		t.Run(c.word, func(t *testing.T) {
			if got := IsStopword(c.word); got != c.want {
				t.Errorf("IsStopword(%q) = %v, want %v", c.word, got, c.want)
			}
		})
	}
}

func TestKindString(t *testing.T) {
	cases := []struct {
		kind Kind
		want string
	}{
		{Word, "word"}, {Number, "number"}, {Identifier, "identifier"}, {Symbol, "symbol"}, {Kind(0), "unknown"},
	}
	for _, c := range cases {
		t.Run(c.want, func(t *testing.T) {
			if got := c.kind.String(); got != c.want {
				t.Errorf("String() = %q, want %q", got, c.want)
			}
		})
	}
}

// FuzzTokens checks invariants on arbitrary input: no panic, tokens in
// order inside the input, non-empty text, Terms consistent with Tokens.
func FuzzTokens(f *testing.F) {
	for _, s := range []string{
		"Drawing 277-007-D-C-40327 Rev 03", "-0.35%/°C", "1,500.25 m² ±5", "a\xff\xfe-", "--1", "+-+1",
		"x-", "1,", "1.", "'s", "l'", "engineer's'", "℃℃", "¹²³", "..5..", "ﬁ-ﬂ", "\u2212\u2212",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		prev := 0
		for _, tk := range Tokens(s) {
			if tk.Start < prev || tk.End <= tk.Start || tk.End > len(s) {
				t.Fatalf("token %+v out of order or bounds in %q", tk, s)
			}
			if tk.Text == "" || tk.Term == "" || tk.Kind < Word || tk.Kind > Symbol {
				t.Fatalf("token %+v of %q is incomplete", tk, s)
			}
			if !utf8.ValidString(tk.Text) && utf8.ValidString(s) {
				t.Fatalf("token %+v of valid %q has invalid text", tk, s)
			}
			prev = tk.End
		}
		for _, term := range Terms(s) {
			if term == "" || len(term) > MaxTermLen || strings.ContainsAny(term, " \t\n") {
				t.Fatalf("bad term %q from %q", term, s)
			}
		}
	})
}

func BenchmarkTokens(b *testing.B) {
	b.SetBytes(int64(len(benchText)))
	b.ReportAllocs()
	for b.Loop() {
		Tokens(benchText)
	}
}

func BenchmarkTerms(b *testing.B) {
	b.SetBytes(int64(len(benchText)))
	b.ReportAllocs()
	var buf []string
	for b.Loop() {
		buf = AppendTerms(buf[:0], benchText)
	}
}

func BenchmarkTermsQuery(b *testing.B) {
	const q = "What is the minimum trench depth for DC cables on drawing 277-007-D-C-40327?"
	b.ReportAllocs()
	for b.Loop() {
		Terms(q)
	}
}

// benchText is a typical chunk: specification prose with identifiers,
// values and units.
const benchText = `4.2 Cable trenches. DC cables shall be laid in trenches at a minimum depth of 800 mm ` +
	`below finished ground level, as shown on drawing 277-007-D-C-40327 Rev 03. Where trenches cross ` +
	`access roads, cables shall be drawn into 110 mm HDPE ducts encased in concrete (C25/30). The ` +
	`inverter SB7000TL-US-22 has a maximum DC input voltage of 600 V and a temperature coefficient of ` +
	`−0.35 %/°C; the module's rated power is 425 W at STC (1,000 W/m², 25 °C). Backfill shall be ` +
	`compacted in layers not exceeding 150 mm to 95% of the maximum dry density, per NREL/TP-6A20-62641. ` +
	`Warning tape shall be installed 300 mm above the cables, and route markers every 50 m.`

func TestEndsAndExtends(t *testing.T) {
	ends := Ends("sb7000tl-us-22-208v")
	want := []string{"sb7000tl", "us-22-208v", "sb7000tl-us", "22-208v", "sb7000tl-us-22", "208v"}
	if !slices.Equal(ends, want) {
		t.Errorf("Ends = %q, want %q", ends, want)
	}
	if got := Ends("3.5"); len(got) != 0 {
		t.Errorf("Ends(3.5) = %q: a decimal point is not a break", got)
	}
	if got := Ends("spv-4.5aiuso"); !slices.Equal(got, []string{"spv", "4.5aiuso", "spv-4.5"}) {
		t.Errorf("Ends(spv-4.5aiuso) = %q, want the number's end too", got)
	}
	if got := Ends("4.5aiuso"); len(got) != 0 {
		t.Errorf("Ends(4.5aiuso) = %q: a decimal point parts no series from its number", got)
	}
	if got := Ends("sb7000tl"); len(got) != 0 {
		t.Errorf("Ends(sb7000tl) = %q: a code without a break does not end at its number", got)
	}
	tests := []struct {
		long, short string
		want        bool
	}{
		{"sb7000tl-us-22-208v", "sb7000tl-us-22", true},
		{"sb7000tl-us-22-208v", "22-208v", true},
		{"sb7000tl-us-22-208v", "sb7000tl-us-2", false},
		{"sb7000tl-us-22", "sb7000tl-us-22", false},
		{"ig-3.5-1", "ig-3", false},
		{"spv-4.5aiuso", "spv-4.5", true},
		{"spv-4.5aiuso", "spv-4", false},
		{"sb7000tl", "sb7000", false},
		{"sb7000tl-us-22-208v", "sb7000tl-us-22-208", false},
	}
	for _, tc := range tests {
		if got := Extends(tc.long, tc.short); got != tc.want {
			t.Errorf("Extends(%q, %q) = %v, want %v", tc.long, tc.short, got, tc.want)
		}
	}
}

func TestCapitals(t *testing.T) {
	for _, tc := range []struct {
		in             string
		upper, letters int
	}{
		{"SOLID WASTE", 10, 10},
		{"Paco of SB7000TL-US-22", 7, 12},
		{"240 v", 0, 1},
		{"", 0, 0},
	} {
		if u, l := Capitals(tc.in); u != tc.upper || l != tc.letters {
			t.Errorf("Capitals(%q) = %d, %d, want %d, %d", tc.in, u, l, tc.upper, tc.letters)
		}
	}
}
