package guard

import (
	"fmt"
	"strings"

	"github.com/cewhq/cew/store/analysis"
)

// trigramShare is how much of the support score word-trigram overlap
// decides; the rest is content-word coverage. Coverage dominates because a
// faithful paraphrase shares words, not word order. Names and numbers are
// not weighted here: checkSentence already demands each of them exactly,
// so the score measures the ordinary words that relate them, which is where
// a recombined or invented statement shows.
const trigramShare = 0.2

// support scores in [0,1] how much of claim the cited chunks say: the share
// of its content words and numbers found among the chunks' terms, blended
// with the share of its word trigrams found in the chunks (or, when that is
// lower, the squared coverage, so a paraphrase with every word supported
// still scores 1). A claim with nothing to check ("Yes.") scores 1.
func support(claim string, evs []*evidence) float64 {
	toks := contentTokens(claim)
	if len(toks) == 0 {
		return 1
	}
	covered := 0
	for _, t := range toks {
		if supportedToken(t.Token, evs) {
			covered++
		}
	}
	coverage := float64(covered) / float64(len(toks))

	tris := claimTrigrams(claim)
	if len(tris) == 0 {
		return coverage
	}
	found := 0
	for _, tri := range tris {
		for _, ev := range evs {
			if _, ok := ev.trigrams[tri]; ok {
				found++
				break
			}
		}
	}
	overlap := float64(found) / float64(len(tris))
	return (1-trigramShare)*coverage + trigramShare*max(overlap, coverage*coverage)
}

// supportedToken reports whether any chunk has the token: by its stem or
// surface for a word, by value for a number, by compact form for a code.
func supportedToken(t analysis.Token, evs []*evidence) bool {
	if t.Kind == analysis.Word && t.Text != "one" {
		if _, ok := numberWordValues[t.Text]; ok {
			// A number in words ("eight hundred"): checkSentence has
			// already demanded its value from the cited chunk.
			return true
		}
	}
	// A unit spelt out ("millimetres") is supported by its symbol ("mm").
	unit, isUnit := "", false
	if t.Kind == analysis.Word && len(t.Text) > 3 {
		unit, isUnit = canonicalUnit(t.Text)
		isUnit = isUnit && unit != t.Text
	}
	var q quantity
	if t.Kind == analysis.Number || t.Kind == analysis.Identifier {
		qs := quantities(t.Text)
		if len(qs) == 1 && qs[0].isQuantity() {
			q = qs[0]
			q.Unit = ""
		}
	}
	for _, ev := range evs {
		if ev.hasTerm(t.Term) || ev.hasTerm(t.Text) || isUnit && ev.hasTerm(unit) {
			return true
		}
		if q.isQuantity() && ev.hasQuantity(q) {
			return true
		}
	}
	return false
}

// unsupportedWords names the content words no cited chunk has, for a
// verdict's detail.
func unsupportedWords(claim string, evs []*evidence) string {
	var missing []string
	for _, t := range contentTokens(claim) {
		if !supportedToken(t.Token, evs) {
			missing = append(missing, fmt.Sprintf("%q", claim[t.Start:t.End]))
		}
	}
	if len(missing) == 0 {
		return "the words are there but not as the sentence puts them"
	}
	return "not in the cited source: " + strings.Join(missing, ", ")
}
