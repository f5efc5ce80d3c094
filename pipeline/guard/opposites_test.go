package guard_test

import (
	"slices"
	"testing"

	"github.com/cewhq/cew/pipeline/guard"
	"github.com/cewhq/cew/store/analysis"
)

// TestOppositeCues: a sentence that puts an opposite where the question's
// word stood, next to what that word qualifies, says the opposite of what
// is asked; one that says both, or puts the opposite elsewhere, does not.
func TestOppositeCues(t *testing.T) {
	tests := []struct {
		question, text string
		want           bool
	}{
		{"What is one of the least important open questions?", "P versus NP is one of the most important open questions.", true},
		{"What makes the bounds dependent of the specific details of the model?", "This makes the bounds independent of the specific details of the model.", true},
		{"Who was subjected to a qualified minority vote of the Council?", "The Commissioners are subject to a qualified majority vote of the Council.", true},
		{"What is the minimum trench depth?", "The maximum trench depth is 1.2 m.", true},
		{"What is the minimum trench depth?", "The minimum depth is 800 mm and the maximum depth is 1.2 m.", false},
		{"What is the minimum trench depth?", "Most trenches are dug by the maximum crew on site.", false},
		{"Compare the depth of DC cables and AC cables", "AC cables shall be laid at a depth of 1000 mm.", false},
		{"What is the maximum system voltage?", "Cables shall be laid at a minimum depth of 800 mm.", false},
	}
	for _, tc := range tests {
		got := slices.ContainsFunc(guard.OppositeCues(tc.question), func(c guard.OppositeCue) bool { return c.Swapped(tc.text, analysis.Tokens(tc.text)) })
		if got != tc.want {
			t.Errorf("%q answered by %q: swapped %v, want %v", tc.question, tc.text, got, tc.want)
		}
	}
}
