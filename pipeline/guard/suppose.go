package guard

import (
	"strings"

	"github.com/cewhq/cew/store/analysis"
)

// Supposed returns the positions of the tokens of what a question supposes
// rather than asks: a clause after the question's first that opens — after
// a comma, a question mark, a full stop or a dash — with a word of belief
// or doubt, perhaps after who holds it ("… paco and night tare? i think it
// drops below 5 kw at 208", "… (table 1)? i thought it was still running",
// "…, mike reckons 7700", "…? pretty sure it's 7700", "…? want to be sure
// im not reading the 315e row", "…, correct me if wrong"), or a clause that
// is nothing but "is that right" ("… uid 803 - is that right?"; "is it true
// the neshap …" asks). A question that opens with what it supposes ("i
// think the paco is 7000 - right?") asks about that. The clause runs to its
// end (brackets do not end it: "i think the 1999 (E) and 2003 (E) rows only
// differ in c4"), or to a question word that opens a question of its own;
// "not sure how far" keeps its "how". Its values and words are the
// asker's, not what the answer must state: the 5 kW of the first is no key
// term, and its "how far" asks for no length. It returns nil when nothing
// is supposed.
func Supposed(text string, toks []analysis.Token) map[int]bool {
	gap := func(i int) string { return text[toks[i-1].End:toks[i].Start] }
	var out map[int]bool
	for i := 1; i < len(toks); i++ {
		if !strings.ContainsAny(gap(i), ",.;:?!(") && !dashBreak(gap(i)) {
			continue
		}
		n := beliefAt(toks, gap, i)
		if n == 0 {
			continue
		}
		end := i + n
		for end < len(toks) && !strings.ContainsAny(gap(end), ",.;:?!") && !dashBreak(gap(end)) &&
			!(questionWords[toks[end].Text] && !embedsQuestion[toks[end-1].Text]) {
			end++
		}
		if out == nil {
			out = map[int]bool{}
		}
		for j := i; j < end; j++ {
			out[j] = true
		}
		i = end - 1
	}
	return out
}

// beliefAt returns how many tokens at toks[i] say that what follows is
// believed or doubted ("i think", "dave reckons", "pretty sure"), or 0.
func beliefAt(toks []analysis.Token, gap func(int) string, i int) int {
	at := func(k int) string {
		if k < len(toks) {
			return toks[k].Text
		}
		return ""
	}
	switch w := at(i); {
	case believers[w] && beliefVerbs[at(i+1)]:
		return 2
	case believers[w] && (at(i+1) == "am" || at(i+1) == "are" || at(i+1) == "was") && sureWords[at(i+2)] && at(i+3) != "what":
		return 3
	case (w == "im" || w == "i'm" || w == "we're") && sureWords[at(i+1)]:
		return 2
	case (w == "pretty" || w == "fairly" || w == "not" || w == "quite") && sureWords[at(i+1)]:
		return 2
	case i+1 < len(toks) && toks[i].Kind == analysis.Word && !questionWords[w] && !articles[w] && thirdPersonBelief[at(i+1)]:
		// "mike reckons", "dave thinks": a colleague's belief.
		return 2
	}
	if at(i) == "correct" && at(i+1) == "me" {
		// "…, correct me if wrong".
		return 2
	}
	if (at(i) == "is" || at(i) == "was") && (at(i+1) == "that" || at(i+1) == "this" || at(i+1) == "it") && rightWords[at(i+2)] &&
		(i+3 == len(toks) || strings.ContainsAny(gap(i+3), ",.;:?!") || dashBreak(gap(i+3))) {
		// "… uid 803 - is that right?": whether what the question
		// says is so, which the value found answers.
		return 3
	}
	// "want to be sure", "just double checking", "making sure": why the
	// asker asks.
	for k := i; k < len(toks) && k < i+5; k++ {
		switch w := at(k); {
		case checkWords[w]:
			return k + 1 - i
		case !checkFillers[w] && !believers[w] && w != "im" && w != "i'm":
			return 0
		}
	}
	return 0
}

var (
	// believers are who may hold a belief a question reports.
	believers = map[string]bool{"i": true, "we": true, "they": true}
	// beliefVerbs say that what follows is believed, not known.
	beliefVerbs = map[string]bool{"think": true, "thought": true, "guess": true, "bet": true, "suspect": true,
		"believe": true, "believed": true, "assume": true, "assumed": true, "reckon": true, "figured": true,
		"remember": true, "recall": true}
	// thirdPersonBelief is a colleague's: "dave reckons".
	thirdPersonBelief = map[string]bool{"thinks": true, "reckons": true, "believes": true, "figures": true,
		"reckoned": true, "assumes": true, "claims": true, "swears": true}
	sureWords = map[string]bool{"sure": true, "certain": true, "positive": true}
	// rightWords ask whether something said is so: "is that right".
	rightWords = map[string]bool{"right": true, "correct": true, "accurate": true, "true": true}
	// checkWords, after checkFillers only, say the asker checks something;
	// "need to check its paco" asks for it.
	checkWords   = map[string]bool{"sure": true, "checking": true, "confirming": true, "verifying": true}
	checkFillers = map[string]bool{"want": true, "wanted": true, "need": true, "needed": true, "just": true, "to": true,
		"be": true, "make": true, "making": true, "double": true, "sanity": true, "only": true}
	// embedsQuestion before a question word makes it part of a doubt
	// ("not sure how far"), not a question of its own.
	embedsQuestion = map[string]bool{"sure": true, "know": true, "certain": true, "idea": true, "wondering": true}
)

// WithoutSupposed returns text with what it supposes (see Supposed)
// blanked out.
func WithoutSupposed(text string) string {
	toks := analysis.Tokens(text)
	return blankTokens(text, toks, Supposed(text, toks))
}

// Related returns the positions of the words a coefficient the question
// names relates: the six after "coefficient relating" (or "factor
// linking", "constants tying", "coefficients that tie" …) — "the
// coefficient relating vmp to effective irradiance" asks for the
// coefficient, not for Vmp or an irradiance. It returns nil when the
// question names none.
func Related(toks []analysis.Token) map[int]bool {
	var out map[int]bool
	for j := 0; j+1 < len(toks); j++ {
		if !coefficientNouns[toks[j].Text] {
			continue
		}
		verb := j + 1
		if relativeWords[toks[verb].Text] && verb+1 < len(toks) && relateVerbs[toks[verb+1].Text] {
			verb++ // "the coefficients that tie module temp to wind speed"
		} else if !relatingVerbs[toks[verb].Text] {
			continue
		}
		if out == nil {
			out = map[int]bool{}
		}
		for k := verb + 1; k < len(toks) && k < verb+7; k++ {
			out[k] = true
		}
	}
	return out
}

var (
	coefficientNouns = map[string]bool{"coefficient": true, "coefficients": true, "coeff": true, "coeffs": true, "factor": true,
		"factors": true, "parameter": true, "parameters": true, "constant": true, "constants": true, "exponent": true, "exponents": true}
	relatingVerbs = map[string]bool{"relating": true, "linking": true, "tying": true, "connecting": true}
	// relateVerbs say the same after "that" or "which".
	relateVerbs = map[string]bool{"relate": true, "relates": true, "link": true, "links": true, "tie": true, "ties": true,
		"connect": true, "connects": true}
	relativeWords = map[string]bool{"that": true, "which": true}
)
