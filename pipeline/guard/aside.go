package guard

import (
	"slices"
	"strings"
	"unicode"

	"github.com/cewhq/cew/store/analysis"
)

// asideCues are the words of the cues SetAside reads.
var asideCues = map[string]bool{"not": true, "other": true, "than": true, "except": true, "excluding": true,
	"besides": true, "without": true, "apart": true, "aside": true, "from": true, "instead": true, "of": true,
	"like": true}

// seemWords before "like" make it say how something seems ("looks like deg
// F") or what someone wants ("we would like"), not what it is compared
// with; so does a contraction ("we'd like").
var seemWords = map[string]bool{"look": true, "looks": true, "looked": true, "seem": true, "seems": true,
	"sound": true, "sounds": true, "feel": true, "feels": true, "would": true, "i": true, "we": true, "you": true, "they": true}

// Plural reports whether a lower-cased word reads as a plural noun:
// "measurements", not "loss", "status" or "this".
func Plural(w string) bool {
	return len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") &&
		!strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is")
}

// IsAsideCue reports whether the lower-cased word w is one of the words
// that set something aside, not a word of what is set aside.
func IsAsideCue(w string) bool { return asideCues[w] }

// lineWords name a line of a table ("the 2014 listing", "the (E) one"),
// not what is on it, by their terms.
var lineWords = analysis.TermSet("row rows line lines entry entries record records listing listings one")

// IsLineWord reports whether a token's term names a line of a table.
func IsLineWord(term string) bool { return lineWords[term] }

// lineAsked reports whether toks[i] is a word for a table's line after an
// article or a number that says which ("the 208v one", "the 2014
// listing"), the line asked about before a "not" that names another;
// "when does one not need" has the pronoun.
func lineAsked(toks []analysis.Token, i int) bool {
	return lineWords[toks[i].Term] && i > 0 && (articles[toks[i-1].Text] || toks[i-1].Kind == analysis.Number || toks[i-1].Kind == analysis.Identifier)
}

// namesLine reports whether toks[i] is a word for a table's line that says
// which line is asked: after an article, a number or a model number (see
// lineAsked), after a bracketed mark ("the 2002 (E) one"), or after a word
// that follows a number ("the 2001 measured entry").
func namesLine(text string, toks []analysis.Token, i int) bool {
	if lineAsked(toks, i) {
		return true
	}
	if !lineWords[toks[i].Term] || i == 0 {
		return false
	}
	return strings.HasPrefix(strings.TrimSpace(text[toks[i-1].End:toks[i].Start]), ")") ||
		i > 1 && toks[i-1].Kind == analysis.Word && (toks[i-2].Kind == analysis.Number || toks[i-2].Kind == analysis.Identifier)
}

// SetAside returns the positions of the tokens of what a question sets
// aside: the words after "not the", "(not", ", not", "other than",
// "instead of", "except", "excluding", "besides", "apart from", "aside
// from", "not" after a word for a table's line ("the 208v one not h4") or
// after the ending of the model asked, said again ("hip-215hde1 (hde1 not
// nkhe1)"), or a comparison's "like" ("hidden like the module temp
// coeffs"), to the end of the clause (at most maxAsideWords, or else the
// first word but an article) — "diehl platinum 100 cs-a (not the cs-a
// he)", "the cec 2015 listing not the 2014 one". The cue is among them
// (IsAsideCue tells it apart). "without the" sets aside the one word after
// it ("the sc 500he-us without the transformer"), "no" or "without" before
// a model number's ending that ending ("no -pos suffix"), and "is a
// different row" (another model, a separate entry …) or "has different
// numbers" the clause it ends ("ul-05 is a different row"). "does pvwatts
// not model snow" sets nothing aside. It returns nil when nothing is.
func SetAside(text string, toks []analysis.Token) map[int]bool {
	gap := func(i int) string {
		if i == 0 {
			return text[:toks[0].Start]
		}
		return text[toks[i-1].End:toks[i].Start]
	}
	var aside map[int]bool
	mark := func(from, to int) {
		if aside == nil {
			aside = map[int]bool{}
		}
		for j := from; j < to; j++ {
			aside[j] = true
		}
	}
	for i := 0; i < len(toks); i++ {
		var start int
		// A cue after a comma or bracket opens a clause of its own:
		// one that ends the question ends plainly.
		delimited := strings.ContainsAny(gap(i), "(,;")
		switch t := toks[i].Text; {
		case t == "not" && i+1 < len(toks) && (articles[toks[i+1].Text] || strings.ContainsAny(gap(i), "(,;") ||
			otherEnding(toks, i+1) || i > 0 && (lineAsked(toks, i-1) || saidEnding(toks, i-1))):
			// "pw1650-12 (the 12v one not -24)": a model number's other
			// ending names the variant set aside; "the 208v one not h4"
			// the line set aside, and so does "hip-215hde1 (hde1 not
			// nkhe1)" the model.
			start = i + 1
		case t == "without" && i+1 < len(toks) && articles[toks[i+1].Text] && !(i >= 2 && toks[i-1].Text == "or" && toks[i-2].Text == "with"):
			// "the sc 500he-us without the transformer" sets one thing
			// aside, the variant that has it; "an engine without
			// leakage" asks for the property, and "with or without the
			// transformer" sets nothing aside.
			end := i + 1
			for end < len(toks) && articles[toks[end].Text] {
				end++
			}
			end = min(end+1, len(toks))
			mark(i, end)
			i = end - 1
			continue
		case (t == "no" || t == "without") && i+1 < len(toks) && strings.HasSuffix(gap(i+1), "-") && toks[i+1].Kind != analysis.Number:
			// "gt3.0-na-ds-240 (plain model number, no -pos suffix)":
			// the ending set aside names the variant that has it.
			end := i + 2
			if end < len(toks) && tailWords[toks[end].Text] {
				end++
			}
			mark(i, end)
			i = end - 1
			continue
		case t == "is" && anotherLine(toks, i+1), (t == "has" || t == "have") && otherValues(toks, i+1):
			// "(ds model; ul-05 is a different row)": what the clause
			// names before "is" is another row than the one asked; so
			// is what "has different numbers" ("the _6 specifically,
			// the _10 has different numbers").
			from := i
			for from > 0 && i-from < maxAsideWords && !strings.ContainsAny(gap(from), "(,;") {
				from--
			}
			end := i + 1
			for end < len(toks) && !strings.ContainsAny(gap(end), "),;?") {
				end++
			}
			mark(from, end)
			i = end - 1
			continue
		case (i == 0 || strings.ContainsAny(gap(i), "(,;") || DashBreak(strings.TrimPrefix(gap(i), ")"))) && i+1 < len(toks) && otherSourceSays(toks, gap, i):
			// "pvi-6000-277 - cec says mppt 200-530, what window does
			// sandia's sheet have": the value another source gives is
			// not what is asked, though the quantity it names is.
			end, subject := i+1, false
			for end < len(toks) && !strings.ContainsAny(gap(end), "),;?") && !DashBreak(gap(end)) {
				// "our template has uid 803 for the kinglong sunteams
				// 4000 208v": what the value is for is the model asked.
				subject = subject || subjectWords[toks[end].Text]
				if k := toks[end].Kind; !subject && (k == analysis.Number || k == analysis.Identifier || sayVerbs[toks[end].Text]) {
					mark(end, end+1)
				}
				end++
			}
			mark(i, i+1)
			if possessives[t] {
				// "our template": the source as well as whose it is.
				mark(i+1, i+2)
			}
			i = end - 1
			continue
		case t == "except" || t == "excluding" || t == "besides":
			start = i + 1
		case t == "like" && i > 0 && i+1 < len(toks) && !seemWords[toks[i-1].Text] && !strings.Contains(toks[i-1].Text, "'") &&
			!Plural(toks[i-1].Text) && (articles[toks[i+1].Text] || !analysis.IsStopword(toks[i+1].Text)):
			// "is it hidden like the module temp coeffs": what it is
			// compared with is not what it asks about. "what was life
			// like in 1900" asks how it was: a comparison names a thing.
			// After a plural, "like" gives examples ("measurements like
			// time or space"), which are what is asked about.
			start = i + 1
		case (t == "apart" || t == "aside") && i+1 < len(toks) && toks[i+1].Text == "from":
			start = i + 2
		case t == "other" && i+1 < len(toks) && toks[i+1].Text == "than",
			t == "instead" && i+1 < len(toks) && toks[i+1].Text == "of":
			start = i + 2
		default:
			continue
		}
		end := start // the clause is toks[i:end]
		for end < len(toks) && !(end > start && (strings.ContainsAny(gap(end), "),;?") || DashBreak(gap(end))) || questionWords[toks[end].Text]) {
			end++
		}
		if end-start > maxAsideWords && !(delimited && end == len(toks) && end-start <= maxTrailingAside) {
			// No end in sight: the clause is the first word that is no
			// article ("other than premium use ar glass").
			end = start
			for end < len(toks) && articles[toks[end].Text] {
				end++
			}
			end = min(end+1, len(toks))
		}
		if e := listAfterComma(toks, gap, end); e > end && e-start <= maxTrailingAside {
			// "besides irradiance, module temps and dc power what else":
			// the comma parts the items of what is set aside.
			end = e
		}
		mark(i, end)
		i = end - 1
	}
	return aside
}

// otherSourceSays reports whether a clause opening at toks[i] says what a
// source gives, with a number and no question word: "cec says mppt
// 200-530", "the datasheet lists 7700", "our template has uid 803".
func otherSourceSays(toks []analysis.Token, gap func(int) string, i int) bool {
	j := i
	if articles[toks[j].Text] || possessives[toks[j].Text] {
		j++
	}
	if j+1 >= len(toks) || !sourceNames[toks[j].Text] || !sayVerbs[toks[j+1].Text] {
		return false
	}
	for k := j + 2; k < len(toks) && !strings.ContainsAny(gap(k), "),;?") && !DashBreak(gap(k)); k++ {
		if questionWords[toks[k].Text] {
			return false
		}
		if toks[k].Kind == analysis.Number || toks[k].Kind == analysis.Identifier && strings.ContainsAny(toks[k].Text, "0123456789") {
			return true
		}
	}
	return false
}

// sourceNames and sayVerbs: "cec says", "the datasheet lists".
var (
	sourceNames = map[string]bool{"cec": true, "sandia": true, "datasheet": true, "manual": true, "spec": true, "nameplate": true,
		"label": true, "sheet": true, "list": true, "csv": true, "guide": true, "manufacturer": true, "vendor": true,
		"template": true, "spreadsheet": true, "calc": true, "calcs": true, "drawing": true, "drawings": true,
		"submittal": true, "sld": true, "schedule": true}
	// possessives open a source as an article does: "our template has".
	possessives = map[string]bool{"our": true, "my": true, "your": true, "their": true, "his": true, "her": true}
	// subjectWords open what a value another source gives is for.
	subjectWords = map[string]bool{"for": true, "on": true, "of": true, "in": true}
	sayVerbs     = map[string]bool{"says": true, "say": true, "lists": true, "shows": true, "gives": true, "has": true, "states": true}
)

// tailWords name the ending of a model number: "no -pos suffix".
var tailWords = map[string]bool{"suffix": true, "ending": true, "tail": true, "extension": true}

// DashBreak reports whether the text between two words is a dash set off
// by spaces, which ends a clause as a comma does: "the 2002 (E) row, not
// the 2001 one - isco + voco" asks for Isco and Voco.
func DashBreak(gap string) bool {
	d := strings.TrimSpace(gap)
	return (d == "-" || d == "–" || d == "—") && strings.TrimLeftFunc(gap, unicode.IsSpace) != gap && strings.TrimRightFunc(gap, unicode.IsSpace) != gap
}

// listAfterComma returns where a list that goes on after the comma before
// toks[end] ends — "…, module temps and dc power" up to the question word
// after it — or end when no list goes on there: the items after the comma
// must be joined by "and", "or" or "&" and followed by a question word.
func listAfterComma(toks []analysis.Token, gap func(int) string, end int) int {
	if end == 0 || end >= len(toks) || !strings.Contains(gap(end), ",") {
		return end
	}
	joined := false
	for k := end; k < len(toks); k++ {
		switch t := toks[k].Text; {
		case questionWords[t]:
			if joined && k > end {
				return k
			}
			return end
		case k > end && strings.ContainsAny(gap(k), ");?"):
			return end
		case t == "and" || t == "or" || strings.Contains(gap(k), "&"):
			joined = true
		}
	}
	return end
}

// WithoutAside returns text with what it sets aside (see SetAside) blanked
// out: the 2014 of "the 2015 listing, not the 2014 one" describes no case
// asked about.
func WithoutAside(text string) string {
	toks := analysis.Tokens(text)
	return blankTokens(text, toks, SetAside(text, toks))
}

// blankTokens returns text with the tokens at the positions given blanked
// out, each byte a space, so that what remains keeps its offsets.
func blankTokens(text string, toks []analysis.Token, at map[int]bool) string {
	if len(at) == 0 {
		return text
	}
	b := []byte(text)
	for i := range at {
		for k := toks[i].Start; k < toks[i].End; k++ {
			b[k] = ' '
		}
	}
	return string(b)
}

// maxAsideWords bounds what one cue sets aside; maxTrailingAside what a
// cue after a comma or bracket sets aside when the clause ends the
// question, where its end is plain ("…, not the single number in table
// 3").
const (
	maxAsideWords    = 5
	maxTrailingAside = 8
)

var articles = map[string]bool{"the": true, "a": true, "an": true, "one": true}

// questionWords open a question that asks for something other than yes or
// no.
var questionWords = map[string]bool{"what": true, "which": true, "who": true, "whom": true, "whose": true,
	"when": true, "where": true, "why": true, "how": true}

// IsQuestionWord reports whether the lower-cased word w opens a question
// that asks for something other than yes or no: "what", "which", "when" …
func IsQuestionWord(w string) bool { return questionWords[w] }

// saidEnding reports whether toks[i] is a word of letters and digits that
// ends a longer model number of the question: "hde1" of "hip-215hde1",
// said again to tell the model from another.
func saidEnding(toks []analysis.Token, i int) bool {
	t := toks[i].Text
	if len(t) < 2 || !strings.ContainsFunc(t, unicode.IsDigit) || !strings.ContainsFunc(t, unicode.IsLetter) {
		return false
	}
	return slices.ContainsFunc(toks, func(u analysis.Token) bool {
		return u.Kind == analysis.Identifier && len(u.Text) > len(t) && strings.HasSuffix(u.Text, t)
	})
}

// otherEnding reports whether toks[i] is a hyphen and a whole number
// ("-24") in a question naming a model number with a hyphen: another
// ending of it, which names another variant.
func otherEnding(toks []analysis.Token, i int) bool {
	t := toks[i].Text
	if len(t) < 2 || t[0] != '-' || strings.Trim(t[1:], "0123456789") != "" {
		return false
	}
	return slices.ContainsFunc(toks, func(u analysis.Token) bool {
		return u.Kind == analysis.Identifier && strings.Contains(u.Text, "-")
	})
}

// otherValues reports whether toks[i:] open with "different numbers",
// "other values" or the like: what has them is not the line asked.
func otherValues(toks []analysis.Token, i int) bool {
	return i+1 < len(toks) && (toks[i].Text == "different" || toks[i].Text == "other") && valueWords[toks[i+1].Text]
}

// valueWords name a line's values.
var valueWords = map[string]bool{"numbers": true, "values": true, "specs": true, "ratings": true, "figures": true,
	"parameters": true, "params": true}

// anotherLine reports whether toks[i:] open with "a different row", "a
// separate entry", "another model" or the like: a line other than the
// one asked.
func anotherLine(toks []analysis.Token, i int) bool {
	if i < len(toks) && toks[i].Text == "another" {
		i++
	} else if i+1 < len(toks) && (toks[i].Text == "a" || toks[i].Text == "an") && (toks[i+1].Text == "different" || toks[i+1].Text == "separate") {
		i += 2
	} else {
		return false
	}
	return i < len(toks) && (IsLineWord(toks[i].Term) || toks[i].Text == "model" || toks[i].Text == "unit")
}
