package guard

import (
	"strings"
	"testing"

	"github.com/cewhq/cew/store/analysis"
)

// blanking is a question and what it reads as once a part of it is
// blanked out.
type blanking struct{ name, in, want string }

// checkBlanking runs fn, called name, on every case.
func checkBlanking(t *testing.T, name string, fn func(string) string, tests []blanking) {
	t.Helper()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := fn(tc.in); got != tc.want {
				t.Errorf("%s(%q)\n got %q\nwant %q", name, tc.in, got, tc.want)
			}
		})
	}
}

func TestWithoutAside(t *testing.T) {
	tests := []blanking{
		{"a bracketed entry", "diehl platinum 100 cs-a 480 unique id# (not the cs-a he)",
			"diehl platinum 100 cs-a 480 unique id# (          -    )"},
		{"a listing after a comma", "lg lm305ue-g1 240v paco, the cec 2015 listing not the 2014 one",
			"lg lm305ue-g1 240v paco, the cec 2015 listing                 "},
		{"besides", "besides tmy3 which weather files carry albedo",
			strings.Repeat(" ", len("besides tmy3")) + " which weather files carry albedo"},
		{"apart from", "apart from pv, what can sam model",
			strings.Repeat(" ", len("apart from pv")) + ", what can sam model"},
		{"other than", "which modules other than premium use ar glass in the defaults tab",
			"which modules " + strings.Repeat(" ", len("other than premium")) + " use ar glass in the defaults tab"},
		{"instead of", "can we use diffuse tracking instead of plain backtracking for the iea bifi sim",
			"can we use diffuse tracking " + strings.Repeat(" ", len("instead of plain")) + " backtracking for the iea bifi sim"},
		{"a clause ends at a comma", "tilt except for fixed, for 1-axis", "tilt                 , for 1-axis"},
		{"a clause ends at a dash set off by spaces", "ap-130, the 2002 (E) row not the 2001 one - isco + voco",
			"ap-130, the 2002 (E) row " + strings.Repeat(" ", len("not the 2001 one")) + " - isco + voco"},
		{"a hyphen does not end a clause", "xantrex gt250-480 unique id#, not the -POS one",
			"xantrex gt250-480 unique id#, " + strings.Repeat(" ", len("not the")) + " -" + strings.Repeat(" ", len("POS one"))},
		{"a list goes on after a comma", "besides irradiance, module temps and dc power what else do they want",
			strings.Repeat(" ", len("besides irradiance")) + ", " + strings.Repeat(" ", len("module temps and dc power")) + " what else do they want"},
		{"another ending of a model number", "photowatt pw1650-12 (the 12v one not -24) isco",
			"photowatt pw1650-12 (the 12v one " + strings.Repeat(" ", len("not -24")) + ") isco"},
		{"another line after a word for the line asked", "kaco xp100u-h2 weight - the 208v one not h4",
			"kaco xp100u-h2 weight - the 208v one " + strings.Repeat(" ", len("not h4"))},
		{"another model after the ending of the one asked", "sanyo hip-215hde1 (hde1 not nkhe1) cells in series",
			"sanyo hip-215hde1 (hde1 " + strings.Repeat(" ", len("not nkhe1")) + ") cells in series"},
		{"what is another row", "gt3.8-na-ds-240 weight (ds model; ul-05 is a different row)",
			"gt3.8-na-ds-240 weight (ds model; " + strings.Repeat(" ", len("ul-05 is a different row")) + ")"},
		{"is with no other line sets nothing aside", "is the ul-05 a different weight", "is the ul-05 a different weight"},
		{"a plain not sets nothing aside", "which inverters are not listed", "which inverters are not listed"},
		{"one as a pronoun sets nothing aside", "when does one not need to show an algorithm", "when does one not need to show an algorithm"},
		{"a negative value is no ending", "pw1650-12 temp coeff, is it not -0.47", "pw1650-12 temp coeff, is it not -0.47"},
		{"without sets one thing aside", "weight of the sc 500he-us without the transformer",
			"weight of the sc 500he-us " + strings.Repeat(" ", len("without the transformer"))},
		{"with or without sets nothing aside", "sc 500he-us with or without the transformer", "sc 500he-us with or without the transformer"},
		{"no and a model number's ending set the variant aside", "sb5000us vdcmax (plain one, no -us suffix)",
			"sb5000us vdcmax (plain one,    -         )"},
		{"what has different numbers is another row", "sb5000us vdcmax, the sb6000us has different numbers",
			"sb5000us vdcmax, " + strings.Repeat(" ", len("the sb6000us has different numbers"))},
		{"no before a negative number sets nothing aside", "tamb low of the sb5000us, no -25 c option", "tamb low of the sb5000us, no -25 c option"},
		{"what follows the thing without still asks", "sc 500he-us without the transformer vs with it",
			"sc 500he-us " + strings.Repeat(" ", len("without the transformer")) + " vs with it"},
		{"without and no article asks for a property", "a rotary engine without leakage", "a rotary engine without leakage"},
		{"what a comparison likens it to", "nominal inverter eff - can the user set it or is it hidden like the module temp coeffs? ticket 3318",
			"nominal inverter eff - can the user set it or is it hidden " + strings.Repeat(" ", len("like the module temp coeffs")) + "? ticket 3318"},
		{"like after a contraction says what someone wants", "we'd like the 240v paco", "we'd like the 240v paco"},
		{"like before a preposition asks how it was", "what was life like in 1900 for the miners", "what was life like in 1900 for the miners"},
		{"like after a plural gives examples", "what function is used to define measurements like time or space",
			"what function is used to define measurements like time or space"},
		{"looks like says how it seems", "unique id + tamb max (looks like deg F?)", "unique id + tamb max (looks like deg F?)"},
		{"a negated verb sets nothing aside", "does pvwatts not model snow", "does pvwatts not model snow"},
		{"nothing set aside", "paco of SB7000TL-US-22 at 208V", "paco of SB7000TL-US-22 at 208V"},
		{"what our own source gives, not what it is for", "our template has uid 803 for the sunteams 4000 208v - is that right?",
			strings.Repeat(" ", len("our template has")) + " uid " + strings.Repeat(" ", len("803")) + " for the sunteams 4000 208v - is that right?"},
		{"what another source gives", "pvi-6000-277 (power-one) - cec says mppt 200-530, what window does sandia's sheet have",
			"pvi-6000-277 (power-one) - " + strings.Repeat(" ", len("cec says")) + " mppt " + strings.Repeat(" ", len("200-530")) + ", what window does sandia's sheet have"},
		{"what a source is asked for is no aside", "sb5000us - what does cec say for vdcmax", "sb5000us - what does cec say for vdcmax"},
		{"a longer clause that ends the question", "std module eff range in the text, not the single number in table 3",
			"std module eff range in the text, " + strings.Repeat(" ", len("not the single number in table 3"))},
	}
	checkBlanking(t, "WithoutAside", WithoutAside, tests)
}

func TestIsAsideCue(t *testing.T) {
	for w, want := range map[string]bool{"besides": true, "except": true, "other": true, "apart": true, "premium": false, "he": false} {
		if got := IsAsideCue(w); got != want {
			t.Errorf("IsAsideCue(%q) = %v, want %v", w, got, want)
		}
	}
}

func TestSupposed(t *testing.T) {
	tests := []blanking{
		{"a belief after the question", "csi-5000tl-ct paco and pnt? i think it drops below 5 kw at 208 but not sure how far",
			"csi-5000tl-ct paco and pnt? " + strings.Repeat(" ", len("i think it drops below 5 kw at 208 but not sure how far"))},
		{"a belief in the past", "pvwatts v3 - when did it go defunct (table 1)? i thought it was still running",
			"pvwatts v3 - when did it go defunct (table 1)? " + strings.Repeat(" ", len("i thought it was still running"))},
		{"a colleague's belief", "sb7000 paco, mike reckons 7700", "sb7000 paco, " + strings.Repeat(" ", len("mike reckons 7700"))},
		{"why the asker asks", "spr-215-wht voco? want to be sure im not reading the 315e row",
			"spr-215-wht voco? " + strings.Repeat(" ", len("want to be sure im not reading the 315e row"))},
		{"whether what was said is so", "uid 803 - is that right? what is the sandia uid",
			"uid 803 - " + strings.Repeat(" ", len("is that right")) + "? what is the sandia uid"},
		{"a question word opens a question of its own", "paco? i think 7700 what is the pnt",
			"paco? " + strings.Repeat(" ", len("i think 7700")) + " what is the pnt"},
		{"brackets do not end a belief", "kc60 - i think the 1999 (E) and 2003 (E) rows only differ in c4. what is c4 on the 1999 one",
			"kc60 - " + strings.Repeat(" ", len("i think the 1999")) + " (" + strings.Repeat(" ", len("E")) + ") " + strings.Repeat(" ", len("and 2003")) +
				" (" + strings.Repeat(" ", len("E")) + ") " + strings.Repeat(" ", len("rows only differ in c4")) + ". what is c4 on the 1999 one"},
		{"asking to be corrected", "ixo of the kc60, correct me if wrong", "ixo of the kc60, " + strings.Repeat(" ", len("correct me if wrong"))},
		{"a question that opens with a belief asks about it", "i think the sb7000 paco is 7000 - right?", "i think the sb7000 paco is 7000 - right?"},
		{"a check is asked for", "sb7000 row? need to check its paco", "sb7000 row? need to check its paco"},
		{"is that right inside a question", "is that right angle the tilt", "is that right angle the tilt"},
		{"whether a claim is true is asked", "reno of the boiler house - is it true the neshap only kicks in above some racm? how many feet",
			"reno of the boiler house - is it true the neshap only kicks in above some racm? how many feet"},
		{"what an earlier answer said", "you said earlier the evsk2340wg (240v) tops out at -45 °C ambient, what tamb max",
			strings.Repeat(" ", len("you said earlier")) + " the evsk2340wg (240v) tops out at " + strings.Repeat(" ", len("-45 °C")) + " ambient, what tamb max"},
		{"a figure with its sign", "you said trackers rotate to ±60° but that doesn't match what i remember, what limit",
			strings.Repeat(" ", len("you said")) + " trackers rotate to " + strings.Repeat(" ", len("±60°")) + " but " +
				strings.Repeat(" ", len("that doesn't match")) + " what i remember, what limit"},
		{"a datasheet's figure, not the model it is about", "per the datasheet the AE-50-60-PV-D is about 1800 lb — what weight",
			strings.Repeat(" ", len("per the datasheet")) + " the AE-50-60-PV-D is about " + strings.Repeat(" ", len("1800 lb")) + " — what weight"},
		{"the model named before its datasheet stays", "sb7000 datasheet says 7 kw, what paco",
			"sb7000 " + strings.Repeat(" ", len("datasheet says")) + " " + strings.Repeat(" ", len("7 kw")) + ", what paco"},
		{"a voltage names the variant a claim is about", "per the datasheet it is 7 kw at 240 v - paco",
			strings.Repeat(" ", len("per the datasheet")) + " it is " + strings.Repeat(" ", len("7 kw")) + " at 240 v - paco"},
		{"a source named claims no value asked for", "per the datasheet, what is the sb7000 paco",
			strings.Repeat(" ", len("per the datasheet")) + ", what is the sb7000 paco"},
		{"the asker's situation in brackets", "pv10 vs pv30 (site still has 14 of the old pv30s) — pnt of each",
			"pv10 vs pv30 (" + strings.Repeat(" ", len("site still has 14 of the old pv30s")) + ") — pnt of each"},
		{"a bracketed variant is no situation", "sb7000 (the 240 v one) paco", "sb7000 (the 240 v one) paco"},
		{"what the asker already knows", "sunset hour - midpoint of what? (sunrise one i get)",
			"sunset hour - midpoint of what? (" + strings.Repeat(" ", len("sunrise one i get")) + ")"},
		{"a bracketed question is asked", "sunset hour midpoint (what do i get for sunrise)", "sunset hour midpoint (what do i get for sunrise)"},
	}
	checkBlanking(t, "WithoutSupposed", WithoutSupposed, tests)
}

func TestKeyTermsLeaveOutWhatIsSupposed(t *testing.T) {
	for _, k := range KeyTerms("csi-5000tl-ct paco and pnt? i think it drops below 5 kw at 208") {
		if k.Text == "5 kw" || k.Text == "drops" {
			t.Errorf("key term %q comes from what the asker supposes", k.Text)
		}
	}
}

func TestRelated(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string // the words related
	}{
		{"a participle", "coefficient relating vmp to effective irradiance", []string{"vmp", "to", "effective", "irradiance"}},
		{"a relative clause", "the coefficients that tie module temp to wind speed", []string{"module", "temp", "to", "wind", "speed"}},
		{"a relative clause of another verb", "the coefficients that describe the curve", nil},
		{"no coefficient", "the cables that tie into the box", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			toks := analysis.Tokens(tc.in)
			var got []string
			for i, tok := range toks {
				if Related(toks)[i] {
					got = append(got, tok.Text)
				}
			}
			if strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Errorf("Related(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}
