package guard

import (
	"testing"

	"github.com/cewhq/cew/store/analysis"
)

func TestAsksLacking(t *testing.T) {
	tests := []struct {
		question string
		want     bool
	}{
		{"which loss category has no related v1 derate", true},
		{"tbl 6 - which loss rows only have a v1 derate and no v5 default value", true},
		{"which scenario is without a tracker", true},
		// "no" in what is stated, not in what the thing has.
		{"Which TEFU article states that no quantitative restrictions can be placed on trade?", false},
		{"does the loss table have no v1 derate for lid", false},
		{"which loss category has a v1 derate", false},
	}
	for _, tc := range tests {
		toks := analysis.Tokens(tc.question)
		got := false
		for i := range toks {
			got = got || AsksLacking(toks, i)
		}
		if got != tc.want {
			t.Errorf("AsksLacking(%q) = %v, want %v", tc.question, got, tc.want)
		}
	}
}
