package guard

import (
	"slices"
	"strings"

	"github.com/cewhq/cew/store/analysis"
)

// A swapped qualifier turns "a minimum depth of 800 mm below finished
// ground level" into "a maximum depth of 800 mm above finished ground
// level": one word each, often a stopword, so word overlap hardly notices.
// For each word of the claim that belongs to a set of opposites, the words
// around it are looked up in the cited sources with the word replaced by
// each of its opposites; a source that says the opposite there, and never
// says what the claim says, contradicts the claim.

// opposites are sets of mutually exclusive qualifiers, each a list of
// slots; the words of a slot mean the same.
var opposites = [][][]string{
	{{"minimum", "min"}, {"maximum", "max"}},
	{{"above"}, {"below", "beneath"}},
	{{"over"}, {"under"}},
	{{"upper", "higher"}, {"lower"}},
	{{"more", "greater", "larger"}, {"less", "fewer", "smaller"}},
	{{"before"}, {"after"}},
	{{"inside"}, {"outside"}},
	{{"internal"}, {"external"}},
	{{"inner"}, {"outer"}},
	{{"upstream"}, {"downstream"}},
	{{"positive"}, {"negative"}},
	{{"increase"}, {"decrease"}},
	{{"AC"}, {"DC"}},
	{{"LV"}, {"MV"}, {"HV"}},
	{{"input"}, {"output"}},
	{{"import"}, {"export"}},
	{{"charge"}, {"discharge"}},
	{{"front"}, {"rear", "back"}},
	{{"top"}, {"bottom"}},
	{{"left"}, {"right"}},
	{{"north"}, {"south"}},
	{{"east"}, {"west"}},
	{{"first"}, {"last"}},
	{{"earliest"}, {"latest"}},
	{{"primary"}, {"secondary"}},
}

// oppositeTerms holds the index terms of opposites' words, in the same
// places, and oppositeSlots maps each term to its set and slot there.
var oppositeTerms, oppositeSlots = func() ([][][]string, map[string][2]int) {
	terms := make([][][]string, len(opposites))
	slots := map[string][2]int{}
	for g, set := range opposites {
		terms[g] = make([][]string, len(set))
		for s, slot := range set {
			for _, w := range slot {
				term := analysis.Tokens(w)[0].Term
				terms[g][s] = append(terms[g][s], term)
				slots[term] = [2]int{g, s}
			}
		}
	}
	return terms, slots
}()

// oppositeContext is how many terms on each side of a qualifier are looked
// up with it.
const oppositeContext = 2

// swappedQualifier returns the claim's qualifier and the opposite a cited
// source puts in its place, or "", "" when there is none.
func swappedQualifier(claim string, toks []analysis.Token, evs []*evidence) (said, source string) {
	terms, at := clauseTerms(claim, toks)
	for p, term := range terms {
		slot, ok := oppositeSlots[term]
		if !ok {
			continue
		}
		from := p
		for n := 0; n < oppositeContext && from > 0; n++ {
			if from--; terms[from] == clauseMark {
				break
			}
		}
		to := p + 1
		for n := 0; n < oppositeContext && to < len(terms) && terms[to] != clauseMark; n++ {
			to++
		}
		if to-from < 3 {
			continue
		}
		stated := func(words []string) bool {
			for _, w := range words {
				run := "\x00" + strings.Join(slices.Concat(terms[from:p], []string{w}, terms[p+1:to]), "\x00") + "\x00"
				if slices.ContainsFunc(evs, func(ev *evidence) bool { return strings.Contains(ev.sequence, run) }) {
					return true
				}
			}
			return false
		}
		set := oppositeTerms[slot[0]]
		if stated(set[slot[1]]) {
			continue
		}
		for s, other := range set {
			if s != slot[1] && stated(other) {
				t := toks[at[p]]
				return claim[t.Start:t.End], opposites[slot[0]][s][0]
			}
		}
	}
	return "", ""
}
