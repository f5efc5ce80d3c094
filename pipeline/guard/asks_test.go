package guard

import (
	"testing"

	"github.com/cewhq/cew/store/analysis"
)

func TestFurtherAsk(t *testing.T) {
	checkFoundToken(t, "FurtherAsk", FurtherAsk, []foundToken{
		{"what year is nepa from, and which nhpa section protects historic properties", "and"},
		{"built before what year? and the lead info center number", "and"},
		{"min depth; also the sand cover", "also"},
		{"voc and isc of the kc60", ""},
		{"what is the depth, thanks and regards", ""},
	})
}

// foundToken is a text and the token a finder should find in it ("" for
// none).
type foundToken struct{ in, want string }

// checkFoundToken checks a function that finds the index of a token.
func checkFoundToken(t *testing.T, name string, find func(string, []analysis.Token) int, tests []foundToken) {
	t.Helper()
	for _, tc := range tests {
		toks := analysis.Tokens(tc.in)
		got := ""
		if k := find(tc.in, toks); k >= 0 {
			got = toks[k].Text
		}
		if got != tc.want {
			t.Errorf("%s(%q) finds %q, want %q", name, tc.in, got, tc.want)
		}
	}
}

func TestCountOfAsked(t *testing.T) {
	count := func(_ string, toks []analysis.Token) int {
		for i := range toks {
			if CountOfAsked(toks, i) {
				return i
			}
		}
		return -1
	}
	checkFoundToken(t, "CountOfAsked", count, []foundToken{
		{"which 2 irradiance components", "2"},
		{"what two things correct v1", "two"},
		{"which 2010 inverters", ""},
		{"which 1 is it", ""},
		{"the two rays", ""},
		{"which 2", ""},
	})
}
