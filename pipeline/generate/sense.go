package generate

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"unicode"

	"github.com/cewhq/cew/pipeline/guard"
)

// senseCandidates is how many of the lexically best candidates are embedded:
// enough to hold the right one when words alone rank it second or third,
// few enough to cost a few milliseconds each.
const senseCandidates = 6

// rerankBySense orders the best candidates by their lexical score plus
// SenseWeight times how far their similarity to the question falls short of
// the most similar one's, so a sentence that shares the question's words
// without answering it ("the thermal model uses irradiance…" for "which
// thermal model") yields to one that does. Each candidate's similarity is
// kept for the confidence features. Without embedders, or when embedding
// fails, the order stays lexical.
func (e *Extractive) rerankBySense(ctx context.Context, q question, req Request, cands []candidate) []candidate {
	if e.opts.Passages == nil || len(cands) < 1 {
		return cands
	}
	qv := req.QueryVector
	if qv == nil && e.opts.Queries != nil {
		vs, err := e.opts.Queries.Embed(ctx, []string{EmbeddingText(req.Question)})
		if err != nil || len(vs) != 1 {
			e.warn("question embedding failed; candidates ordered by their words", err)
			return cands
		}
		qv = vs[0]
	}
	if qv == nil {
		return cands
	}
	n := min(len(cands), senseCandidates)
	texts := make([]string, n)
	for i := range texts {
		texts[i] = cands[i].quote
	}
	vs, err := e.opts.Passages.Embed(ctx, texts)
	if err != nil || len(vs) != n {
		e.warn("candidate embedding failed; candidates ordered by their words", err)
		return cands
	}
	// Meaning does not overrule a name: the units holding most of the
	// labels the question names ("scenario A4 ground") are compared with
	// each other only, and stay before the others however close their
	// words come ("**10% grade = slope angle of 5.71 deg" is the footnote
	// of every sloped scenario).
	labels := make([]int, n)
	most, best, bestNamed := 0, -1.0, -1.0
	for i := range n {
		cands[i].sense = cosine(qv, vs[i])
		best = max(best, cands[i].sense)
		labels[i] = namedLabels(q, cands[i])
		most = max(most, labels[i])
	}
	for i := range n {
		if labels[i] == most {
			bestNamed = max(bestNamed, cands[i].sense)
		}
	}
	top := cands[:n]
	for i := range top {
		if most > 0 && labels[i] == most {
			top[i].score += e.opts.SenseWeight * (top[i].sense - bestNamed)
		} else {
			top[i].score += e.opts.SenseWeight * (top[i].sense - best)
		}
	}
	sortByScore(top)
	slices.SortStableFunc(top, func(a, b candidate) int { return cmp.Compare(namedLabels(q, b), namedLabels(q, a)) })
	return cands
}

// namedLabels counts the labels of the question a candidate holds: words
// of letters and digits ("a4", "2p"), as the question writes them, that
// name no qualifier ("v5", "1-axis" are cases the reader weighs apart) and
// no unit ("m2").
func namedLabels(q question, c candidate) int {
	n := 0
	for i, t := range q.terms {
		if t.exact && !q.isQualifier[i] && c.matched[i] == 1 && !isUnit(t.term) && strings.ContainsFunc(t.term, unicode.IsLetter) && strings.ContainsFunc(t.term, unicode.IsDigit) {
			n++
		}
	}
	return n
}

func (e *Extractive) warn(msg string, err error) {
	if e.opts.Logger != nil {
		e.opts.Logger.Warn(msg, "err", err)
	}
}

// cosine is the dot product of two vectors (the embedders return unit
// vectors), 0 when their lengths differ.
func cosine(a, b []float32) float64 {
	if len(a) != len(b) {
		return 0
	}
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}

// isUnit reports whether a word is a unit of measure ("m2", "kwh").
func isUnit(word string) bool {
	vs := guard.Values("1 " + word)
	return len(vs) == 1 && vs[0].Unit != ""
}

// EmbeddingText is a question as the embedder reads it: without the
// question or exclamation marks that end it. They say nothing about what
// is asked, yet they move the vector — "how many online solar resource
// databases does the pvwatts web app pull from?" was read with other
// passages than the same words without the mark — and people type them
// or not as it comes.
func EmbeddingText(question string) string {
	return strings.TrimRight(question, "?!？！ \t\n")
}
