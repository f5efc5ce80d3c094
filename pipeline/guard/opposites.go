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
	{{"most"}, {"least"}},
	{{"best"}, {"worst"}},
	{{"highest"}, {"lowest"}},
	{{"largest", "biggest"}, {"smallest"}},
	{{"dependent"}, {"independent"}},
	{{"formal"}, {"informal"}},
	{{"possible"}, {"impossible"}},
	{{"majority"}, {"minority"}},
	{{"private"}, {"public"}},
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

// An OppositeCue is a word of a question that belongs to a set of
// opposites ("least important"), with the words it qualifies there.
type OppositeCue struct {
	slot [2]int
	near []string
}

// OppositeCues returns the question's words that belong to a set of
// opposites, each with the nearest content word before and after it in
// its clause; not the words of a set whose opposites the question names
// too.
func OppositeCues(question string) []OppositeCue {
	toks := analysis.Tokens(question)
	terms, at := clauseTerms(question, toks)
	var cues []OppositeCue
	for p, term := range terms {
		slot, ok := oppositeSlots[term]
		if !ok || slices.ContainsFunc(terms, func(t string) bool { s, ok := oppositeSlots[t]; return ok && s[0] == slot[0] && s[1] != slot[1] }) {
			// "DC and AC cables" asks about both.
			continue
		}
		c := OppositeCue{slot: slot}
		content := func(i int) bool {
			return terms[i] != clauseMark && !analysis.IsStopword(toks[at[i]].Text) && !isOppositeWord(terms[i])
		}
		for i := p - 1; i >= 0 && i >= p-oppositeReach && terms[i] != clauseMark; i-- {
			if content(i) {
				c.near = append(c.near, terms[i])
				break
			}
		}
		for i := p + 1; i < len(terms) && i <= p+oppositeReach && terms[i] != clauseMark; i++ {
			if content(i) {
				c.near = append(c.near, terms[i])
				break
			}
		}
		if len(c.near) > 0 {
			cues = append(cues, c)
		}
	}
	return cues
}

func isOppositeWord(term string) bool {
	_, ok := oppositeSlots[term]
	return ok
}

// oppositeReach is how many terms from an opposite a word it qualifies may
// stand: "the bounds dependent of the specific details".
const oppositeReach = 3

// Swapped reports whether text, whose tokens are toks, says the opposite of
// the cue about what it qualifies: it holds an opposite of the cue's word
// within reach of one of the words the cue qualifies, and never the cue's
// own word ("the most important open questions" for "the least important
// open questions").
func (c OppositeCue) Swapped(text string, toks []analysis.Token) bool {
	terms, _ := clauseTerms(text, toks)
	set := oppositeTerms[c.slot[0]]
	if slices.ContainsFunc(terms, func(t string) bool { return slices.Contains(set[c.slot[1]], t) }) {
		return false
	}
	for p, term := range terms {
		slot, ok := oppositeSlots[term]
		if !ok || slot[0] != c.slot[0] || slot[1] == c.slot[1] {
			continue
		}
		for i := max(0, p-oppositeReach); i < min(len(terms), p+oppositeReach+1); i++ {
			if i != p && slices.Contains(c.near, terms[i]) && !clauseBetween(terms, i, p) {
				return true
			}
		}
	}
	return false
}

// clauseBetween reports whether a clause break lies between terms i and j.
func clauseBetween(terms []string, i, j int) bool {
	if i > j {
		i, j = j, i
	}
	return slices.Contains(terms[i:j], clauseMark)
}
