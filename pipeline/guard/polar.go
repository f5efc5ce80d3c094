package guard

import (
	"strings"

	"github.com/cewhq/cew/store/analysis"
)

// auxiliaries open a question that asks yes or no.
var auxiliaries = map[string]bool{
	"is": true, "are": true, "was": true, "were": true, "does": true, "do": true, "did": true,
	"can": true, "could": true, "should": true, "will": true, "would": true, "has": true,
	"have": true, "must": true, "isn't": true, "doesn't": true, "can't": true,
}

// IsPolar reports whether a question asks yes or no: it opens with an
// auxiliary verb ("is the total loss …", "does the 2-axis model account for
// …", "can we load …"), or does after a topic set off by a colon or a dash
// ("vf note: is the integral exact …", "asbestos neshap - do we notify …"),
// and no question word follows ("is it true which …" is rare; "does anyone
// know what the tilt is" asks for the tilt).
func IsPolar(text string, toks []analysis.Token) bool {
	start := 0
	for i := 1; i < len(toks) && i <= maxTopicWords; i++ {
		if gap := text[toks[i-1].End:toks[i].Start]; strings.Contains(gap, ":") || strings.Contains(gap, " - ") ||
			strings.Contains(gap, "—") || strings.Contains(gap, "–") {
			start = i
			break
		}
	}
	toks = toks[start:]
	if len(toks) < 3 || !auxiliaries[toks[0].Text] {
		return false
	}
	for _, t := range toks[1:] {
		if questionWords[t.Text] {
			return false
		}
	}
	return true
}

// maxTopicWords is the longest topic a question puts before a colon.
const maxTopicWords = 5
