package guard

import (
	"strings"

	"github.com/cewhq/cew/store/analysis"
)

// A question may ask more than one thing: a further ask joined on after a
// comma, semicolon or question mark ("what year is nepa from, and which
// nhpa section …"), or a count of the things asked ("which two rays").

// Ask is one of the asks of a question that joins a further ask on to the
// first (see FurtherAsk), as a bit: a term may be said in both.
type Ask uint8

// The asks of a question that asks two things.
const (
	AskFirst Ask = 1 << iota
	AskFurther
)

// FurtherAsk returns the index of the token that joins a further ask on to
// the question, or -1: "and", "also" or "plus" after a comma, semicolon or
// question mark ("what year is nepa from, and which nhpa section …",
// "… before what year? and the national lead info center number"). The
// words before it ask one thing, the words after it another.
func FurtherAsk(text string, toks []analysis.Token) int {
	for k := 1; k+1 < len(toks); k++ {
		if furtherAskWords[toks[k].Text] && strings.ContainsAny(text[toks[k-1].End:toks[k].Start], ",;?") {
			return k
		}
	}
	return -1
}

// furtherAskWords join a further ask on to a question.
var furtherAskWords = map[string]bool{"and": true, "also": true, "plus": true}

// IsFurtherAskWord reports whether the lower-cased word w may join a
// further ask on to a question (see FurtherAsk).
func IsFurtherAskWord(w string) bool { return furtherAskWords[w] }

// countWords say how many things a question asks for.
var countWords = map[string]bool{"two": true, "three": true, "four": true, "both": true}

// IsCountWord reports whether the lower-cased word w says how many things
// a question asks for ("which two rays").
func IsCountWord(w string) bool { return countWords[w] }

// CountOfAsked reports whether toks[i], right after "which" or "what",
// says how many things are asked: the "2" of "which 2 irradiance
// components", the "two" of "what two things". Which ones are asked; the
// count is no value a passage must hold, and one that lists them seldom
// says it.
func CountOfAsked(toks []analysis.Token, i int) bool {
	if i == 0 || i+1 >= len(toks) || toks[i-1].Text != "which" && toks[i-1].Text != "what" {
		return false
	}
	t := toks[i]
	return countWords[t.Text] || t.Kind == analysis.Number && len(t.Text) == 1 && t.Text != "0" && t.Text != "1"
}
