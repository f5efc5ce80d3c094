package generate

import (
	"slices"

	"github.com/cewhq/cew/pipeline/guard"
	"github.com/cewhq/cew/store/analysis"
)

// A caseClause is one of two sibling cases a question asks about side by
// side, each with words of its own: "the clear day in jan and the cloudy
// day in dec" asks for the clear day of January and the cloudy day of
// December.
type caseClause struct {
	qual guard.Qualifier
	// own are the terms only this case's clause holds ("januari").
	own []string
}

// caseClauses returns the two clauses of a question that names two
// siblings of one set of cases, each followed by words of its own, the
// second after "and", "vs" or "versus"; none when the question does not
// read so ("clear and cloudy days in march" names both of one month).
func caseClauses(text string, toks []analysis.Token, quals []guard.Qualifier) []caseClause {
	for i, a := range quals {
		for _, b := range quals[i+1:] {
			if a.Group != b.Group || a.Slot == b.Slot {
				continue
			}
			pa, pb := mentionAt(toks, a), mentionAt(toks, b)
			if pa < 0 || pb < 0 {
				continue
			}
			if pa > pb {
				a, b, pa, pb = b, a, pb, pa
			}
			join := slices.IndexFunc(toks[pa:pb], func(t analysis.Token) bool { return caseJoins[t.Text] })
			if join < 0 {
				continue
			}
			ownA := ownTerms(toks[pa+1:pa+join], a, b)
			ownB := ownTerms(toks[pb+1:], a, b)
			exA, exB := minus(ownA, ownB), minus(ownB, ownA)
			if len(exA) == 0 || len(exB) == 0 {
				continue
			}
			return []caseClause{{qual: a, own: exA}, {qual: b, own: exB}}
		}
	}
	return nil
}

// caseJoins join the second of two cases to the first.
var caseJoins = map[string]bool{"and": true, "vs": true, "versus": true}

// mentionAt is the index of the token that ends the first mention of a
// case in toks, or -1.
func mentionAt(toks []analysis.Token, qual guard.Qualifier) int {
	words := analysis.Tokens(qual.Text)
	for i := 0; i+len(words) <= len(toks); i++ {
		if slices.EqualFunc(toks[i:i+len(words)], words, func(x, y analysis.Token) bool { return x.Term == y.Term }) {
			return i + len(words) - 1
		}
	}
	return -1
}

// ownTerms are the content terms of toks that spell neither case.
func ownTerms(toks []analysis.Token, a, b guard.Qualifier) []string {
	spelled := map[string]bool{}
	for _, q := range []guard.Qualifier{a, b} {
		for _, t := range analysis.Tokens(q.Text) {
			spelled[t.Term] = true
		}
	}
	var out []string
	for _, t := range toks {
		if t.Kind == analysis.Word && analysis.IsStopword(t.Text) || spelled[t.Term] || slices.Contains(out, t.Term) {
			continue
		}
		out = append(out, t.Term)
	}
	return out
}

// crossesCases reports whether a unit pairs one case with the other's
// words: "June 21, 2022 (cloudy day)" for "the cloudy day in march and the
// clear day in june".
func crossesCases(cases []caseClause, text string, terms map[string]bool) bool {
	if len(cases) == 0 {
		return false
	}
	named := guard.Qualifiers(text)
	for i, c := range cases {
		other := cases[1-i]
		if guard.Mentions(named, c.qual) && !guard.Mentions(named, other.qual) &&
			slices.ContainsFunc(other.own, func(t string) bool { return terms[t] }) {
			return true
		}
	}
	return false
}

// minus returns the terms of a that b does not hold.
func minus(a, b []string) []string {
	return slices.DeleteFunc(slices.Clone(a), func(t string) bool { return slices.Contains(b, t) })
}
