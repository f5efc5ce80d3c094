package generate

import (
	"testing"

	"github.com/cewhq/cew/pipeline/guard"
)

// TestFrameWords: words that say which kind of value is asked for, or
// where in a document it sits, weigh as frame words: the sentence that
// answers seldom repeats them.
func TestFrameWords(t *testing.T) {
	q := parseQuestion("racm asbestos content threshold on the defaults tab, 2007 entry", "technical_value", "simple", guard.Expectation{})
	want := map[string]bool{"threshold": true, "tab": true, "entri": true, "racm": false, "asbesto": false, "content": false}
	for _, term := range q.terms {
		if w, ok := want[term.term]; ok && term.frame != w {
			t.Errorf("%q: frame = %v, want %v", term.term, term.frame, w)
		}
		delete(want, term.term)
	}
	for term := range want {
		t.Errorf("%q is not a term of the question", term)
	}
}
