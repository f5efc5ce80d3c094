package bot

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/cewhq/cew/cache"
)

// Rewriter turns a follow-up into a standalone question using the previous
// turns (an LLM in practice).
type Rewriter interface {
	Rewrite(ctx context.Context, question string, turns []cache.Turn) (string, error)
}

var (
	// followUpLead matches openings that only make sense after a previous
	// question: "and for AC cables?", "what about page 13?", "same for …".
	followUpLead = regexp.MustCompile(`(?i)^\s*(and|also|what about|how about|what of|same for|and what about|and how about|then|but)\b[\s,]*`)
	// anaphora are words that point back at the previous answer.
	anaphora = regexp.MustCompile(`(?i)\b(it|its|that|this|those|these|they|them|there|same|the above|that one|this one|the latter|the former)\b`)
	// existentialThere is "there" that points at nothing: "is there a
	// warning tape?", "there are two trenches".
	existentialThere = regexp.MustCompile(`(?i)\b(?:(?:is|are|was|were)\s+there|there\s+(?:is|are|was|were))\b`)
	// leadingPrep finds the prepositional phrase a follow-up replaces.
	leadingPrep = regexp.MustCompile(`(?i)^(for|on|in|at|of|with|under|from|to|about|per)\s+(.+)$`)
)

// followUpMaxWords: longer questions carry their own context even when they
// start with "and".
const followUpMaxWords = 10

// IsFollowUp reports whether a question leans on the previous turn: it opens
// with a connective ("and …", "what about …"), or it is short and points
// back with a pronoun ("which revision is that?").
func IsFollowUp(q string) bool {
	words := strings.Fields(q)
	if len(words) == 0 || len(words) > followUpMaxWords {
		return false
	}
	if followUpLead.MatchString(q) {
		return true
	}
	return pointsBack(q) != nil && contentWords(q) <= 3
}

// pointsBack locates the first word of q that points back at the previous
// answer, or nil.
func pointsBack(q string) []int {
	existential := existentialThere.FindAllStringIndex(q, -1)
	for _, loc := range anaphora.FindAllStringIndex(q, -1) {
		if !strings.EqualFold(q[loc[0]:loc[1]], "there") || !slices.ContainsFunc(existential, func(e []int) bool { return e[0] <= loc[0] && loc[1] <= e[1] }) {
			return loc
		}
	}
	return nil
}

// RewriteFollowUp rewrites a follow-up into a standalone question from the
// previous turn, without an LLM:
//
//   - "and for AC cables?" after "What is the minimum trench depth for DC
//     cables?" replaces the matching prepositional phrase: "What is the
//     minimum trench depth for AC cables?";
//   - "what about on page 13?" / "and the premium ones?" append the new focus
//     to the previous question;
//   - "which revision is that?" replaces the pronoun with the document the
//     previous answer cited.
func RewriteFollowUp(q string, prev cache.Turn) string {
	base := strings.TrimSpace(prev.Standalone)
	if base == "" {
		base = strings.TrimSpace(prev.Question)
	}
	if base == "" {
		return q
	}
	if followUpLead.MatchString(q) {
		focus := strings.TrimRight(strings.TrimSpace(followUpLead.ReplaceAllString(q, "")), "?!. ")
		if focus == "" {
			return base
		}
		if m := leadingPrep.FindStringSubmatch(focus); m != nil {
			if replaced, ok := replacePrepPhrase(base, m[1], focus); ok {
				return replaced
			}
		}
		return strings.TrimRight(base, "?!. ") + " " + focus + "?"
	}
	if len(prev.DocIDs) > 0 {
		if loc := pointsBack(q); loc != nil {
			return q[:loc[0]] + prev.DocIDs[0] + q[loc[1]:]
		}
	}
	return strings.TrimRight(base, "?!. ") + " — " + q
}

// replacePrepPhrase swaps the last "<prep> …" phrase of base (up to the end
// or the next comma) for focus.
func replacePrepPhrase(base, prep, focus string) (string, bool) {
	re := regexp.MustCompile(`(?i)\b` + regexp.QuoteMeta(prep) + `\s+[^,;?!]+`)
	locs := re.FindAllStringIndex(base, -1)
	if len(locs) == 0 {
		return "", false
	}
	last := locs[len(locs)-1]
	end := strings.TrimRight(base[last[1]:], " ")
	if end == "" {
		end = "?"
	}
	return base[:last[0]] + focus + end, true
}

func contentWords(q string) int {
	n := 0
	for _, w := range strings.FieldsFunc(strings.ToLower(q), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if !questionWords[w] && !anaphoraWords[w] {
			n++
		}
	}
	return n
}

var questionWords = map[string]bool{
	"what": true, "which": true, "who": true, "when": true, "where": true, "why": true, "how": true,
	"is": true, "are": true, "was": true, "were": true, "does": true, "do": true, "did": true, "the": true,
	"a": true, "an": true, "of": true, "for": true, "in": true, "on": true, "to": true, "about": true, "can": true,
}

var anaphoraWords = map[string]bool{
	"it": true, "its": true, "that": true, "this": true, "those": true, "these": true, "they": true,
	"them": true, "there": true, "same": true, "one": true,
}
