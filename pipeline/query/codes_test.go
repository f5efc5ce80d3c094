package query

import (
	"slices"
	"strings"
	"testing"

	"github.com/cewhq/cew/pipeline/guard"
)

// TestRespellCodes: a model number the question spaces or hyphenates
// otherwise than the index is written the index's way; one the index does
// not hold, or holds spaced, stays as typed.
func TestRespellCodes(t *testing.T) {
	sp := NewSpeller(map[string]int{
		"outback": 3, "paco": 1900, "isco": 500, "cl": 4, "gs4048a": 1, "kc158g": 1, "pvi-5000-208": 2,
		"sb7000tl-us-22": 2, "kyocera": 30, "3.6tl": 1, "10.0tl3": 2, "blueplanet": 40,
		"sc": 12, "1850-us": 1, "gt": 3, "4000": 40, "theia": 12, "2.9he-t": 2,
		"uni": 40, "uni208": 1, "fs0970pu": 1, "fs0970cu": 1, "ase-300-dgf/50": 4, "208": 400, "-240v": 3, "tl": 5, "3000-us": 2, "tl3000-us-208": 1, "pvi-3.0-outd-s-us": 3, "pvi": 40, "3.0": 20, "outd-s-us-z-m-a": 3,
	})
	tests := []struct {
		in, want string
		from     []string
	}{
		{"outback gs 4048a paco", "outback gs4048a paco", []string{"gs 4048a"}},
		{"outback gs 4048 paco", "outback gs4048 paco", []string{"gs 4048"}},
		{"kc-158g isco", "kc158g isco", []string{"kc-158g"}},
		{"kyocera kc 158g isco", "kyocera kc158g isco", []string{"kc 158g"}},
		{"pvi 5000-208 vdco", "pvi-5000-208 vdco", []string{"pvi 5000-208"}},
		{"sb7000tlus22 paco", "sb7000tl-us-22 paco", []string{"sb7000tlus22"}},
		{"sb7000tl-us-22 paco", "sb7000tl-us-22 paco", nil},
		{"sb7000tl us 22 paco", "sb7000tl-us-22 paco", []string{"sb7000tl us 22"}},
		{"pvi 5000 208 vdco", "pvi-5000-208 vdco", []string{"pvi 5000 208"}},
		{"paco of the 7000 us", "paco of the 7000 us", nil},
		{"kc-999g isco", "kc-999g isco", nil},
		{"ingecon 36tl mppt low", "ingecon 36tl mppt low", nil}, // a dot is no separator: 36tl is not 3.6tl
		{"fronius cl 36.0 vdco", "fronius cl 36.0 vdco", nil},
		{"kaco blueplanet 10.0 tl3 paco", "kaco blueplanet 10.0tl3 paco", []string{"10.0 tl3"}},
		{"blueplanet 10.0 tl paco", "blueplanet 10.0 tl paco", nil}, // only the whole number is joined
		{"sc1850-us idcmax", "sc 1850-us idcmax", []string{"sc1850-us"}},
		{"theia 2.9 he-t paco", "theia 2.9he-t paco", []string{"2.9 he-t"}},
		{"gt4000 paco", "gt4000 paco", nil}, // a bare number is in every row
		// One slip of the keyboard from a model number of the index: an O
		// for a zero, two letters swapped.
		{"power electronics fso970pu pnt", "power electronics fs0970pu pnt", []string{"fso970pu"}},
		{"schott ase-300-dfg/50 voco", "schott ase-300-dgf/50 voco", []string{"ase-300-dfg/50"}},
		{"fs0971pu pnt", "fs0971pu pnt", nil}, // a digit is never changed
		// The index writes "uni" as a word more often than the code
		// "uni208": the letters and the voltage stay apart.
		{"ig plus 11.4-1 uni 208 weight", "ig plus 11.4-1 uni 208 weight", nil},
		{"pvi 3.0 outd-s-us paco", "pvi-3.0-outd-s-us paco", []string{"pvi 3.0 outd"}},
		// It goes on past "PVI-3.0-OUTD-S-US": another model, spaced in
		// the index as the question spaces it.
		{"pvi 3.0 outd-s-us-z-m-a paco", "pvi 3.0 outd-s-us-z-m-a paco", nil},
		// "-240v" is the end of "208-240V": no model number starts with a
		// hyphen, and "240 v" is a voltage.
		{"ys-8000tl vdcmax at 240 v", "ys-8000tl vdcmax at 240 v", nil},
		// A model number cut short is not split where a longer one of the
		// index begins with it.
		{"evershine tl3000-us 208v paco", "evershine tl3000-us 208v paco", nil},
	}
	for _, tc := range tests {
		got, corr := respellCodes(tc.in, sp)
		var from []string
		for _, c := range corr {
			from = append(from, c.From)
		}
		if got != tc.want || !slices.Equal(from, tc.from) {
			t.Errorf("respellCodes(%q) = %q %q, want %q %q", tc.in, got, from, tc.want, tc.from)
		}
	}
	if got, corr := respellCodes("kc-158g isco", nil); got != "kc-158g isco" || corr != nil {
		t.Errorf("without a vocabulary: %q %v", got, corr)
	}
	// Model numbers are known, never offered as a correction of a word.
	if got := sp.Correct("outbak"); got != "outback" {
		t.Errorf("Correct(outbak) = %q", got)
	}
	if got := NewSpeller(map[string]int{"kc158g": 3}).Correct("kc158"); got != "" {
		t.Errorf("Correct(kc158) = %q, want no correction", got)
	}
}

// TestRespelledCodeSearchedBothWays: a model number the question spaces
// and the index also runs together is searched both ways, for one list may
// write it one way and another list the other ("PVI15kW-208" and "PVI 15
// kW 208 V").
func TestRespelledCodeSearchedBothWays(t *testing.T) {
	sp := NewSpeller(map[string]int{"pvi15kw-208": 1, "pvi": 40, "15": 30, "solectria": 20, "paco": 1900})
	a := Analyse("solectria PVI 15 paco", Input{Speller: sp})
	if !strings.Contains(a.Text, "pvi15") {
		t.Fatalf("Text = %q, want the index's spelling", a.Text)
	}
	if !slices.Contains(a.Expansions, "PVI 15") || !strings.Contains(a.Search, "PVI 15") {
		t.Errorf("Expansions = %q, Search = %q; want the spelling as typed too", a.Expansions, a.Search)
	}
}

// TestSpacedIndexCodes: a model number the question spaces out and the
// index writes whole is searched whole too.
func TestSpacedIndexCodes(t *testing.T) {
	sp := NewSpeller(map[string]int{"pv": 900, "pv110": 1, "kyocera": 30, "es5000": 2})
	if got := spacedIndexCodes("kyocera pv 110 module area, es 5000 paco", sp); !slices.Equal(got, []string{"pv110", "es5000"}) {
		t.Errorf("spacedIndexCodes = %q", got)
	}
	if got := spacedIndexCodes("kyocera pv 120 module area", sp); got != nil {
		t.Errorf("a number the index does not hold: %q", got)
	}
}

// TestProperNames: the words no dictionary holds name makers and
// products.
func TestProperNames(t *testing.T) {
	if got := properNames("Kyocera pv 110 module area and the kaco paco, kyocera again"); !slices.Equal(got, []string{"kyocera", "kaco", "paco"}) {
		t.Errorf("properNames = %q", got)
	}
}

// TestTwoAsksAndUnnamedKinds reads two things of a question's
// expectation. Unnamed: a word right before the quantity asked that no
// indexed document holds says the question asks for a kind of it the
// documents never name; a known word, a hedge, a word of another clause or
// a column the glossary names do not. Apart: of a question that asks two
// things by clauses of their own, the ask that names no kind of value when
// the other does.
func TestTwoAsksAndUnnamedKinds(t *testing.T) {
	sp := NewSpeller(map[string]int{"pvwatts": 40, "tracker": 12, "trackers": 9, "angle": 30, "rotation": 8, "tilt": 20,
		"assume": 5, "pnt": 300, "tare": 2, "loss": 50})
	tests := []struct {
		in      string
		unnamed string
		apart   guard.Ask
	}{
		{in: "what stow angle do pvwatts 1-axis trackers assume", unnamed: "stow"},
		{in: "what rotation angle do pvwatts 1-axis trackers assume"},
		{in: "what typical angle do pvwatts trackers assume"},
		{in: "sb7000 nite tare loss"},
		{in: "2p layout in the bifi doc: gap between modules"},
		{in: "sb7000 night tare pnt"},
		{in: "what year is nepa from, and which nhpa section protects historic properties", apart: guard.AskFurther},
		{in: "built before what year? and the national lead info center number", apart: guard.AskFurther},
		{in: "what does neshap spell out to, and how many linear ft of racm on pipe triggers it", apart: guard.AskFirst},
		{in: "what year is nepa from, and how deep is the trench"},
		{in: "voc and isc of the kc60"},
	}
	for _, tc := range tests {
		exp := Analyse(tc.in, Input{Technical: true, Speller: sp}).Expect
		if exp.Unnamed != tc.unnamed || exp.Apart != tc.apart {
			t.Errorf("Analyse(%q): Unnamed %q, Apart %d; want %q and %d", tc.in, exp.Unnamed, exp.Apart, tc.unnamed, tc.apart)
		}
	}
	if got := Analyse("what stow angle do trackers assume", Input{Technical: true}).Expect.Unnamed; got != "" {
		t.Errorf("without a vocabulary Unnamed = %q, want none", got)
	}
}
