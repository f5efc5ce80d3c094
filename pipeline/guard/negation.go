package guard

import (
	"slices"
	"strings"

	"github.com/cewhq/cew/store/analysis"
)

// A dropped negation turns "Cable joints shall not be placed under roads"
// into "Cable joints shall be placed under roads": every word of the claim
// is in the source, so word overlap cannot see it. For each negation in a
// source, the words around it are kept with the negation taken out ("joint
// shall be place"); a claim that contains that run of words says what the
// source denies, unless the source also says it without a negation
// elsewhere.

// clauseMark stands for a clause boundary in a term sequence.
const clauseMark = "^"

// negationLeft and negationRight are how many terms before and after a
// negation make up the run a claim must not contain without it. Three after
// it tell "not buried under roads" from "buried under verges".
const (
	negationLeft  = 2
	negationRight = 3
)

// termSequence writes the terms of toks as one string, "\x00"-separated
// and with clauseMark first and where punctuation or a line break separates
// two tokens, so a run of terms is a substring search.
func termSequence(text string, toks []analysis.Token) string {
	terms, _ := clauseTerms(text, toks)
	return "\x00" + strings.Join(terms, "\x00") + "\x00"
}

// clauseTerms is the terms of toks in order with clauseMark first and at
// every clause break; at[i] is the index in toks of terms[i] (-1 for a
// mark).
func clauseTerms(text string, toks []analysis.Token) (terms []string, at []int) {
	terms, at = make([]string, 0, len(toks)+4), make([]int, 0, len(toks)+4)
	terms, at = append(terms, clauseMark), append(at, -1)
	for i, t := range toks {
		if i > 0 && clauseBreak(text, toks[i-1].End, t.Start) {
			terms, at = append(terms, clauseMark), append(at, -1)
		}
		terms, at = append(terms, t.Term), append(at, i)
	}
	return terms, at
}

func clauseBreak(text string, end, start int) bool {
	return strings.ContainsAny(text[end:start], ".!?;:,\n()")
}

// negatedRun is the terms around a negation of a source with the negation
// taken out, as termSequence writes them, and the negating word as written.
type negatedRun struct {
	terms    string
	negation string
}

// negatedRuns returns a negatedRun for each negation in toks: negationLeft
// terms before it and negationRight after it, within its clause.
func negatedRuns(text string, toks []analysis.Token) []negatedRun {
	var runs []negatedRun
	for k, t := range toks {
		positive, ok := withoutNegation(t.Text)
		if !ok {
			continue
		}
		j := k - 1
		if t.Text == "not" && j >= 0 && isDoSupport(toks[j].Text) && !clauseBreak(text, toks[j].End, t.Start) {
			j-- // "do not lay" says "lay": the auxiliary goes too
		}
		var left []string // nearest first
		for len(left) < negationLeft {
			if j < 0 || clauseBreak(text, toks[j].End, toks[j+1].Start) {
				left = append(left, clauseMark)
				break
			}
			left = append(left, toks[j].Term)
			j--
		}
		var right []string
		for j := k + 1; j < len(toks) && len(right) < negationRight && !clauseBreak(text, toks[j-1].End, toks[j].Start); j++ {
			right = append(right, toks[j].Term)
		}
		if len(right) == 0 {
			continue
		}
		run := make([]string, 0, len(left)+1+len(right))
		for i := len(left) - 1; i >= 0; i-- {
			run = append(run, left[i])
		}
		if positive != "" {
			run = append(run, positive)
		}
		run = append(run, right...)
		if len(run) < 3 || !hasContentTerm(run) {
			continue
		}
		runs = append(runs, negatedRun{terms: "\x00" + strings.Join(run, "\x00") + "\x00", negation: text[t.Start:t.End]})
	}
	return runs
}

// withoutNegation is the term a negating word leaves when it is taken out
// ("" for "not", "can" for "cannot"); false for words such as "without"
// or "none" whose removal leaves no statement to compare.
func withoutNegation(w string) (string, bool) {
	switch w {
	case "not", "no", "never":
		return "", true
	case "cannot", "can't":
		return "can", true
	case "won't":
		return "will", true
	case "shan't":
		return "shall", true
	case "don't", "doesn't", "didn't":
		return "", true
	}
	if base, ok := strings.CutSuffix(w, "n't"); ok {
		// "isn't", "mustn't", "shouldn't": the auxiliary stays.
		if toks := analysis.Tokens(base); len(toks) == 1 {
			return toks[0].Term, true
		}
	}
	return "", false
}

// NegatesVerb reports whether the lower-cased word w negates a verb: "not",
// "never", "cannot", "isn't" — not "no" or "without", which deny a thing.
func NegatesVerb(w string) bool {
	if w == "no" {
		return false
	}
	_, ok := withoutNegation(w)
	return ok
}

// Denies reports whether the lower-cased word w denies or excepts
// something: a negation ("not", "no", "without", "none", "isn't", see
// isNegation) or an exception ("unless", "except").
func Denies(w string) bool { return isNegation(w) || w == "unless" || w == "except" }

func isDoSupport(w string) bool { return w == "do" || w == "does" || w == "did" }

func hasContentTerm(run []string) bool {
	for _, t := range run {
		if t != clauseMark && !analysis.IsStopword(t) {
			return true
		}
	}
	return false
}

// negativeSense holds stems of words that state a prohibition without a
// negating word ("joints are prohibited under roads"): a claim using one
// may restate a negated source faithfully.
var negativeSense = map[string]bool{
	"prohibit": true, "forbid": true, "forbidden": true, "avoid": true, "exclud": true, "prevent": true,
	"disallow": true, "omit": true, "absent": true, "lack": true, "fail": true, "instead": true,
	"except": true, "unless": true, "only": true,
}

// droppedNegation returns the negating word of a cited source that the
// claim leaves out of the source's words, or "" when it leaves none out.
func droppedNegation(claimSeq string, claimToks []analysis.Token, evs []*evidence) string {
	for _, t := range claimToks {
		if negativeSense[t.Term] {
			return ""
		}
	}
	for _, ev := range evs {
		for _, run := range ev.negatedRuns {
			if !strings.Contains(claimSeq, run.terms) {
				continue
			}
			// A source may say the same words without the negation
			// elsewhere ("not in ducts …; in trenches …").
			if !slices.ContainsFunc(evs, func(other *evidence) bool { return strings.Contains(other.sequence, run.terms) }) {
				return run.negation
			}
		}
	}
	return ""
}

// maxLackingGap is how far after "which" the "no" of a question that asks
// which thing lacks something may come.
const maxLackingGap = 10

// lackingVerbs say what a thing has, before the "no" of what it lacks.
var lackingVerbs = map[string]bool{"has": true, "have": true, "had": true, "with": true, "get": true, "gets": true,
	"show": true, "shows": true, "list": true, "lists": true, "give": true, "gives": true, "carry": true, "carries": true}

// AsksLacking reports whether toks[i] is the "no" or "without" of a
// question that asks which thing lacks something: "which loss category has
// no related v1 derate", "which rows only have a v1 derate and no v5
// default value", "which scenario is without a tracker". A "which" comes at
// most maxLackingGap words before it, and "no" follows a verb of having
// between them; "which article states that no restrictions apply" asks no
// such thing.
func AsksLacking(toks []analysis.Token, i int) bool {
	if i < 0 || i >= len(toks) || toks[i].Text != "no" && toks[i].Text != "without" {
		return false
	}
	which := -1
	for j := i - 1; j >= max(0, i-maxLackingGap); j-- {
		if toks[j].Text == "which" {
			which = j
			break
		}
	}
	if which < 0 {
		return false
	}
	return toks[i].Text == "without" || slices.ContainsFunc(toks[which+1:i], func(t analysis.Token) bool { return lackingVerbs[t.Text] })
}
