package generate

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/cewhq/cew/pipeline/guard"
)

// evidence describes how well the extractive answer answers, for the
// calibrated confidence. Every feature is on [0,1]:
//
//   - reader_score, reader_coverage: the best unit's score and the weighted
//     share of the question's terms it (or its context) holds — or, when
//     another unit states every value it quotes and holds more of the
//     question, that unit's share (see support) — each without what a
//     list row's coverage was read past (see candidate.readPast), as the
//     margin is too;
//   - margin: how far the best unit's score is above the best unit that
//     would have quoted something else from another place — and stated
//     other values: the -208V and -240V rows giving one Paco are one answer;
//   - missing: the largest weight share of one question term found nowhere
//     near that unit ("snow" when a table has no snow scenario);
//   - dims_asked, typed_value: the question wants a value of a known
//     dimension, and the quote states one with its unit (or the table's
//     unit column types it);
//   - no_number: the question asks for a number ("how many", "what
//     quantity") and the answer states none of its own;
//   - structured, label: the quote is a table row or spreadsheet record,
//     and the question names the row's label;
//   - codes, codes_whole: the question names a model or drawing number,
//     and the unit holds it whole rather than as part of a longer one;
//     place: the unit is the row of the place the question names in a
//     table by locations (see placeRow), which counts as a code too;
//   - qualifiers: the question names a contrasting case and the unit (or
//     its context) names it too;
//   - consensus: the share of other good units that state one of the
//     answer's values;
//   - sense, sense_margin: the quote's similarity to the question by the
//     embedder, and how far it stands above the most similar other quote
//     (ten times the difference: similarities differ by hundredths);
//   - first_chunk: the answer comes from the best-ranked passage;
//   - parts: the answer quotes several units;
//   - polar: the question asks yes or no, and the quote is the sentence
//     that holds most of it; or it offers two things to choose between
//     ("clockwise or counterclockwise"), and the quote names one of them
//     and not the other.
func evidence(q question, picked, cands []candidate) map[string]float64 {
	// The best-scored unit is judged, not the first in reading order: a
	// complex answer quotes its parts as the document orders them, and
	// the context a part adds may come first ("… a 7 % increase relative
	// to PVWatts V1 …" before "MA Boston — 2 Axis: 8.0 %").
	best := slices.MaxFunc(picked, func(a, b candidate) int { return cmp.Compare(a.score, b.score) })
	said := statedValues(q, best)
	sup := support(q, best, said, cands)
	f := map[string]float64{
		"reader_score":    clamp01(best.plain(best.score)),
		"reader_coverage": clamp01(sup.plain(sup.coverage)),
		"margin":          1,
	}
	for _, c := range cands {
		if c.chunk != best.chunk && c.quote != best.quote && !isPicked(picked, c) &&
			(len(said) == 0 || !sameValues(said, statedValues(q, c))) {
			f["margin"] = clamp01(best.plain(best.score) - c.plain(c.score))
			break
		}
	}
	var total, worst float64
	for i, t := range q.terms {
		total += t.weight
		if sup.matched[i] == 0 && !t.frame {
			worst = max(worst, t.weight)
		}
	}
	if total > 0 {
		f["missing"] = worst / total
	}
	if len(q.expect.Dims) > 0 {
		f["dims_asked"] = 1
		for _, v := range best.values {
			// A bare number is typed only when it is a year and a date
			// was asked for; a count or a ratio could be anything.
			if (v.Unit != "" || v.Dim == guard.DimDate) && !q.numbers[v.Num] && q.expect.AcceptsDim(v.Dim) {
				f["typed_value"] = 1
				break
			}
		}
		if best.typed {
			f["typed_value"] = 1
		}
	}
	if q.mustNumber && !best.typed && !statesNumber(q, picked) {
		f["no_number"] = 1
	}
	if best.kind == kindRow || best.kind == kindRecord {
		f["structured"] = 1
	}
	if best.label {
		f["label"] = 1
	}
	if best.place {
		// "yakima fixed": a place names its row of a table by locations
		// as a model number names its record.
		f["place"], f["codes"], f["codes_whole"] = 1, 1, 1
	}
	for _, t := range q.terms {
		if !t.code {
			continue
		}
		f["codes"] = 1
		f["codes_whole"] = 1
		if !best.terms[t.term] {
			f["codes_whole"] = 0
			break
		}
	}
	if len(q.expect.Qualifiers) > 0 {
		named := guard.Qualifiers(best.text + "\n" + best.header)
		all := 1.0
		for _, qual := range q.expect.Qualifiers {
			if !guard.Mentions(named, qual) {
				all = 0
			}
		}
		f["qualifiers"] = all
	}
	f["consensus"] = consensus(best, cands)
	if best.sense != 0 {
		f["sense"] = clamp01(best.sense)
		f["sense_margin"] = senseMargin(best, picked, cands)
	}
	if best.chunk == 0 {
		f["first_chunk"] = 1
	}
	if len(picked) > 1 {
		f["parts"] = 1
	}
	if q.polar || choosesOne(q.options, best.terms) {
		f["polar"] = 1
	}
	return f
}

// sameValues reports whether two units state the same values in the same
// order: the same numbers, with the same unit or one of them without ("Idcmax
// (A): 14" and "Idcmax: 14").
func sameValues(a, b []guard.Value) bool {
	return slices.EqualFunc(a, b, func(x, y guard.Value) bool {
		if x.Num == y.Num {
			return x.Unit == y.Unit || x.Unit == "" || y.Unit == ""
		}
		return sameNumber(x, y)
	})
}

// sameNumber reports whether two values state the same number, whatever
// their units, or the same share as a percentage and a fraction.
func sameNumber(a, b guard.Value) bool {
	return a.Num == b.Num || asFraction(a, b) || asFraction(b, a)
}

// asFraction reports whether a percentage and a bare number state the same
// share: "96 %" and "0.96" (the table's inverter efficiency and the text's
// ηnom).
func asFraction(pct, frac guard.Value) bool {
	if pct.Unit != "%" || frac.Unit != "" {
		return false
	}
	p, err1 := strconv.ParseFloat(pct.Num, 64)
	f, err2 := strconv.ParseFloat(frac.Num, 64)
	return err1 == nil && err2 == nil && f > 0 && f <= 1 && math.Abs(p-100*f) < 1e-9
}

// statedValues are the values c quotes that are not the question's own nor
// in a row's name: its first cell, or a cell naming what the question
// names ("ID: Soleil 2000-120", see namesAsked).
func statedValues(q question, c candidate) []guard.Value {
	type span struct{ from, to int }
	var names []span
	if c.kind == kindRecord {
		for i, f := range c.fields {
			// Only the cells quoted count; whether a cell names what is
			// asked is read after the cheaper test.
			if at := strings.Index(c.quote, f); at >= 0 && (i == 0 || namesAsked(q, f)) {
				names = append(names, span{at, at + len(f)})
			}
		}
	}
	inName := func(v guard.Value) bool {
		return slices.ContainsFunc(names, func(s span) bool { return v.Start >= s.from && v.Start < s.to })
	}
	// The question's number that the row's name holds too is the
	// model's ("hisel-k 1500"): a cell stating it ("Paco (W): 1500")
	// still answers.
	named := map[string]bool{}
	for _, v := range c.values {
		if inName(v) {
			named[v.Num] = true
		}
	}
	var out []guard.Value
	for _, v := range c.values {
		if (!q.numbers[v.Num] || named[v.Num]) && !inName(v) {
			out = append(out, v)
		}
	}
	return out
}

// support returns the unit whose share of the question speaks for best's
// answer, which states said (statedValues): best, or a unit that states
// every number best quotes and holds more of the question — "Total system
// losses are specified as a percentage, with a default value of 14 %" for
// the row "System losses (%) — Default Value: 14" asked for the total
// system losses.
func support(q question, best candidate, said []guard.Value, cands []candidate) candidate {
	if len(said) == 0 {
		return best
	}
	sup := best
	for _, c := range cands {
		if c.coverage <= sup.coverage || c.quote == best.quote {
			continue
		}
		stated := statedValues(q, c)
		if !slices.ContainsFunc(said, func(s guard.Value) bool {
			return !slices.ContainsFunc(stated, func(v guard.Value) bool { return sameNumber(s, v) })
		}) {
			sup = c
		}
	}
	return sup
}

// statesNumber reports whether the picked units state a number the
// question does not already hold.
func statesNumber(q question, picked []candidate) bool {
	for _, c := range picked {
		for _, v := range c.values {
			if v.Num != "" && !q.numbers[v.Num] {
				return true
			}
		}
	}
	return false
}

// consensus is the share of the other units scoring at least half as well
// as best, from other places, that state one of best's values.
func consensus(best candidate, cands []candidate) float64 {
	if len(best.values) == 0 {
		return 0
	}
	states := func(v guard.Value) bool {
		return slices.ContainsFunc(best.values, func(b guard.Value) bool {
			if b.Num == v.Num {
				return b.Unit == v.Unit
			}
			return sameNumber(b, v)
		})
	}
	others, agree := 0, 0
	for _, c := range cands {
		if c.quote == best.quote || c.score < best.score/2 {
			continue
		}
		others++
		if slices.ContainsFunc(c.values, states) {
			agree++
		}
	}
	if others == 0 {
		return 0
	}
	return float64(agree) / float64(others)
}

// senseMargin is ten times how far best's similarity to the question stands
// above that of the most similar other embedded candidate, on [0,1]; 1 when
// there is none.
func senseMargin(best candidate, picked, cands []candidate) float64 {
	other := -1.0
	for _, c := range cands {
		if c.sense == 0 || c.quote == best.quote || isPicked(picked, c) {
			continue
		}
		other = max(other, c.sense)
	}
	if other < 0 {
		return 1
	}
	return clamp01(10 * (best.sense - other))
}

func isPicked(picked []candidate, c candidate) bool {
	for _, p := range picked {
		if p.chunk == c.chunk && p.pos == c.pos && p.quote == c.quote {
			return true
		}
	}
	return false
}

func clamp01(x float64) float64 { return min(1, max(0, x)) }

// choosesOne reports whether a unit's terms name one of a question's two
// options and nothing of the other.
func choosesOne(options [2][]string, terms map[string]bool) bool {
	names := func(ts []string) bool { return slices.ContainsFunc(ts, func(t string) bool { return terms[t] }) }
	return len(options[0]) > 0 && names(options[0]) != names(options[1])
}
