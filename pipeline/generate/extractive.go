package generate

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/cewhq/cew/store"
	"github.com/cewhq/cew/store/analysis"
)

// ExtractiveOptions tunes the extractive generator. A zero field takes its
// value from DefaultExtractiveOptions.
type ExtractiveOptions struct {
	// MinScore is the score the best sentence must reach for the question
	// to be answered; below it the answer is NotFoundText.
	MinScore float64
	// MinCoverage is the share of the question's weighted content terms
	// the answer must contain (in the sentence itself, or at a discount in
	// its table header, section and document title).
	MinCoverage float64
	// MaxSentences bounds the sentences quoted for a complex question.
	MaxSentences int
	// MinPartScore is the score a further sentence of a complex answer
	// must reach on the terms it adds.
	MinPartScore float64
	// MaxRecordFields is how many "name: value" cells of a spreadsheet row
	// are quoted whole; a longer row is cut to its first cell and the
	// cells the question asks about.
	MaxRecordFields int
}

// DefaultExtractiveOptions were calibrated on SQuAD 2.0 dev (articles 1–8,
// 2,805 questions; see squad_test.go): of the thresholds that refuse at
// least 40 % of unanswerable questions, they answer the most answerable
// ones with a sentence holding a gold answer (54.5 %, refusing 40.9 %).
var DefaultExtractiveOptions = ExtractiveOptions{
	MinScore:        0.45,
	MinCoverage:     0.5,
	MaxSentences:    3,
	MinPartScore:    0.3,
	MaxRecordFields: 8,
}

// Scoring weights. Coverage of the question's terms decides; the rest
// orders sentences that cover the same terms.
const (
	// contextWeight is the credit for a term found only in the unit's
	// context (table header, section, title) rather than in the unit.
	contextWeight = 0.5
	// headerWeight is the credit for a term found in a row's table header,
	// which is quoted with the row.
	headerWeight = 0.8
	// relatedWeight is the credit for a word of the same family that the
	// stemmer keeps apart ("religion", "religious").
	relatedWeight = 0.6
	// exactWeight multiplies numbers and identifiers: they name exactly
	// what is asked about.
	exactWeight = 1.5
	// frameWeight discounts question-shaping words.
	frameWeight = 0.3
	// proximityShare is the part of the score earned by matched terms
	// standing close together.
	proximityShare = 0.15
	// missingTypePenalty multiplies the score of a sentence without the
	// kind of phrase the question asks for (a date for "when", a name for
	// "who", a number).
	missingTypePenalty = 0.7
	// missingUnitPenalty multiplies the score of a number without the
	// unit the question names.
	missingUnitPenalty = 0.9
	// askedColumnBonus lifts a table row whose asked column holds a value.
	askedColumnBonus = 1.3
	// rankBonus is added for the first chunk, decreasing to 0 for the
	// last: retrieval's order breaks near ties.
	rankBonus = 0.03
)

// Extractive answers by quoting the chunks verbatim. It never writes a word
// that is not in a chunk: its own text is only the citation markers and
// the punctuation that ends a quote or joins a table header to its row. A
// sentence that opens with a pronoun is quoted after the sentence before
// it, so the answer says who or what it is about. It is safe for
// concurrent use.
type Extractive struct {
	opts ExtractiveOptions
}

var _ Generator = (*Extractive)(nil)

// NewExtractive returns an extractive generator.
func NewExtractive(opts ExtractiveOptions) *Extractive {
	d := DefaultExtractiveOptions
	if opts.MinScore <= 0 {
		opts.MinScore = d.MinScore
	}
	if opts.MinCoverage <= 0 {
		opts.MinCoverage = d.MinCoverage
	}
	if opts.MaxSentences <= 0 {
		opts.MaxSentences = d.MaxSentences
	}
	if opts.MinPartScore <= 0 {
		opts.MinPartScore = d.MinPartScore
	}
	if opts.MaxRecordFields <= 0 {
		opts.MaxRecordFields = d.MaxRecordFields
	}
	return &Extractive{opts: opts}
}

// candidate is a unit with its score against the question.
type candidate struct {
	unit
	score    float64
	coverage float64
	// matched[i] is the credit for question term i: 1 in the unit, less
	// in its header, context or a related word form, 0 when absent.
	matched []float64
	terms   map[string]bool
}

// Generate quotes the sentence (or, for a complex question, up to
// MaxSentences sentences) that best answers the question, each followed by
// its citation, or returns NotFoundText.
func (e *Extractive) Generate(ctx context.Context, req Request) (Result, error) {
	if err := ctx.Err(); err != nil {
		return Result{}, fmt.Errorf("generate: %w", err)
	}
	q := parseQuestion(req.Question, req.Category, req.Complexity)
	picked := e.pick(q, req.Chunks)
	if len(picked) == 0 {
		return Result{Text: NotFoundText, NotFound: true, Generator: "extractive"}, nil
	}
	parts := make([]string, len(picked))
	for i, c := range picked {
		parts[i] = e.quote(q, c)
	}
	return Result{Text: strings.Join(parts, " "), Generator: "extractive"}, nil
}

// pick scores every unit of every chunk and returns the answer's units,
// best first, or nil when none is good enough.
func (e *Extractive) pick(q question, chunks []store.Chunk) []candidate {
	cands, total := e.candidates(q, chunks)
	if len(cands) == 0 {
		return nil
	}
	return e.decide(q, cands, total)
}

// candidates scores every unit that could answer, best first, and returns
// the total weight of the question's terms.
func (e *Extractive) candidates(q question, chunks []store.Chunk) ([]candidate, float64) {
	if len(q.terms) == 0 || len(chunks) == 0 {
		return nil, 0
	}
	var units []unit
	seen := map[string]bool{}
	for i, c := range chunks {
		for _, u := range splitUnits(i, c) {
			// Overlapping chunks repeat sentences; the better-ranked copy
			// is kept.
			if key := strings.ToLower(u.text); !seen[key] {
				seen[key] = true
				units = append(units, u)
			}
		}
	}
	if len(units) == 0 {
		return nil, 0
	}

	unitTerms := make([]map[string]bool, len(units))
	df := map[string]int{}
	for i, u := range units {
		unitTerms[i] = termSet(u.text)
		for t := range unitTerms[i] {
			df[t]++
		}
	}
	n := float64(len(units))
	for i := range q.terms {
		t := &q.terms[i]
		d := float64(df[t.term])
		t.weight = math.Log(1 + (n-d+0.5)/(d+0.5))
		if t.exact {
			t.weight *= exactWeight
		}
		if t.frame {
			t.weight *= frameWeight
		}
	}
	var total float64
	for _, t := range q.terms {
		total += t.weight
	}

	contexts := make([]map[string]bool, len(chunks))
	for i, c := range chunks {
		contexts[i] = termSet(strings.Join([]string{c.DocNumber, c.Title, c.Section}, " "))
	}

	var cands []candidate
	for i, u := range units {
		if u.asks {
			continue
		}
		c, ok := e.score(q, u, unitTerms[i], contexts[u.chunk], total, len(chunks))
		if ok {
			cands = append(cands, c)
		}
	}
	slices.SortStableFunc(cands, func(a, b candidate) int {
		switch {
		case a.score > b.score:
			return -1
		case a.score < b.score:
			return 1
		}
		return 0
	})
	return cands, total
}

// decide applies the thresholds to the sorted candidates: the best one
// answers a simple question; a complex one may take more (see combine).
func (e *Extractive) decide(q question, cands []candidate, total float64) []candidate {
	if q.complex {
		if picked := e.combine(q, cands, total); len(picked) > 1 {
			return picked
		}
	}
	if best := cands[0]; best.score >= e.opts.MinScore && best.coverage >= e.opts.MinCoverage {
		return cands[:1]
	}
	return nil
}

// combine answers a complex question ("compare X and Y", two questions in
// one) with up to MaxSentences units: the best-scored first, then greedily
// the unit that adds the most question terms not yet covered, skipping
// near-duplicates. Each unit must reach MinPartScore on its own, and
// together they must cover the question as well as one sentence must
// cover a simple one.
func (e *Extractive) combine(q question, cands []candidate, total float64) []candidate {
	if total == 0 || cands[0].score < e.opts.MinPartScore {
		return nil
	}
	picked := []candidate{cands[0]}
	covered := slices.Clone(cands[0].matched)
	for len(picked) < e.opts.MaxSentences {
		bestGain, bestIdx := 0.0, -1
		for i, c := range cands {
			if c.score < e.opts.MinPartScore || slices.ContainsFunc(picked, func(p candidate) bool { return nearDuplicate(p, c) }) {
				continue
			}
			var gain float64
			for j, m := range c.matched {
				if m > covered[j] {
					gain += (m - covered[j]) * q.terms[j].weight
				}
			}
			// Strictly greater: among equal gains the better-scored
			// (earlier) unit wins.
			if gain > bestGain+1e-9 {
				bestGain, bestIdx = gain, i
			}
		}
		if bestIdx < 0 || bestGain/total < minPartGain {
			break
		}
		picked = append(picked, cands[bestIdx])
		for j, m := range cands[bestIdx].matched {
			covered[j] = max(covered[j], m)
		}
	}
	var coverage float64
	for j, m := range covered {
		coverage += m * q.terms[j].weight
	}
	if coverage/total < max(e.opts.MinCoverage, e.opts.MinScore) {
		return nil
	}
	return picked
}

// minPartGain is the share of the question's weight a further unit of a
// complex answer must add: less is repetition, not a new part.
const minPartGain = 0.1

// nearDuplicate reports whether two units say much the same thing (as
// neighbouring chunks and repeated table rows do).
func nearDuplicate(a, b candidate) bool {
	inter := 0
	for t := range a.terms {
		if b.terms[t] {
			inter++
		}
	}
	union := len(a.terms) + len(b.terms) - inter
	return union > 0 && float64(inter)/float64(union) >= 0.8
}

// score rates one unit. ok is false when the unit cannot answer: it lacks
// a number or identifier the question names, a required number, or any
// word the question does not already contain.
func (e *Extractive) score(q question, u unit, terms, context map[string]bool, total float64, chunks int) (candidate, bool) {
	toks := analysis.Tokens(u.text)
	if len(toks) < 3 || total == 0 {
		return candidate{}, false
	}
	var header, prev map[string]bool
	if u.header != "" {
		header = termSet(u.header)
	}
	if u.prev != "" {
		prev = termSet(u.prev)
	}
	c := candidate{unit: u, matched: make([]float64, len(q.terms)), terms: terms}
	var got float64
	for i, t := range q.terms {
		switch {
		case terms[t.term] || t.exact && hasParts(terms, t.term):
			c.matched[i] = 1
		case header[t.term]:
			c.matched[i] = headerWeight
		case prev[t.term]:
			c.matched[i] = contextWeight
		case context[t.term] || t.exact && hasParts(context, t.term):
			c.matched[i] = contextWeight
		case !t.exact && sharesStem(terms, t.term):
			c.matched[i] = relatedWeight
		case t.exact:
			// A number or identifier of the question missing from the
			// unit and its context: this unit is about something else.
			return candidate{}, false
		}
		got += c.matched[i] * t.weight
	}
	c.coverage = got / total

	novel := false
	for _, tok := range toks {
		if tok.Kind == analysis.Word && analysis.IsStopword(tok.Text) {
			continue
		}
		if !q.has[tok.Term] && !q.has[tok.Text] {
			novel = true
			break
		}
	}
	if !novel {
		return candidate{}, false
	}

	typeOK, unitOK := q.satisfies(u.text, toks)
	if !typeOK && q.mustNumber {
		return candidate{}, false
	}
	score := c.coverage * (1 - proximityShare + proximityShare*proximity(q, toks))
	if !typeOK {
		score *= missingTypePenalty
	} else if !unitOK {
		score *= missingUnitPenalty
	}
	if q.mustNumber && u.header != "" && valueInAskedColumn(q, u) {
		// The row holds a number in the very column the question names
		// ("temperature coefficient" of the "Premium" row): a prose
		// sentence that only mentions both words does not state it.
		score = min(1, score*askedColumnBonus)
	}
	score += rankBonus * (1 - float64(u.chunk)/float64(max(chunks, 1)))
	c.score = score
	return c, true
}

// valueInAskedColumn reports whether a table row has a number in a column
// whose header words are all question terms.
func valueInAskedColumn(q question, u unit) bool {
	heads := strings.Split(u.header, tableCellSep)
	cells := strings.Split(u.text, tableCellSep)
	if len(heads) != len(cells) || len(heads) < 2 {
		return false
	}
	for i, h := range heads {
		words := analysis.Terms(h)
		if len(words) == 0 || !hasDigit(cells[i]) {
			continue
		}
		all := true
		for _, w := range words {
			if _, ok := q.index[w]; !ok {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	return false
}

func hasDigit(s string) bool {
	return strings.ContainsAny(s, "0123456789")
}

// proximity is 1 when the question terms found in the unit stand next to
// each other and falls towards 0 as they spread out: the smallest window
// of tokens holding every matched term, against the number of terms.
func proximity(q question, toks []analysis.Token) float64 {
	index := q.index
	type hit struct{ pos, term int }
	var hits []hit
	for p, t := range toks {
		if i, ok := index[t.Term]; ok {
			hits = append(hits, hit{p, i})
		} else if i, ok := index[t.Text]; ok {
			hits = append(hits, hit{p, i})
		}
	}
	distinct := map[int]int{}
	for _, h := range hits {
		distinct[h.term]++
	}
	k := len(distinct)
	if k < 2 {
		return 0
	}
	// Sliding window over hits for the shortest span holding all k terms.
	counts := map[int]int{}
	have, best, left := 0, math.MaxInt, 0
	for right, h := range hits {
		if counts[h.term]++; counts[h.term] == 1 {
			have++
		}
		for have == k {
			if span := hits[right].pos - hits[left].pos + 1; span < best {
				best = span
			}
			l := hits[left]
			if counts[l.term]--; counts[l.term] == 0 {
				have--
			}
			left++
		}
	}
	return float64(k-1) / float64(best-1)
}

// quote writes one unit as an answer sentence: the unit's text (a row after
// its table header, a long record cut to the cells asked about) without its
// closing period, then the citation and a period.
func (e *Extractive) quote(q question, c candidate) string {
	text := c.text
	switch c.kind {
	case kindRow:
		if c.header != "" {
			text = c.header + ": " + c.text
		}
	case kindRecord:
		text = e.trimRecord(q, c)
	}
	cite := " " + citation(c.chunk) + "."
	text = strings.TrimRight(text, " .;:,") + cite
	if c.prev != "" {
		text = strings.TrimRight(c.prev, " .;:,") + cite + " " + text
	}
	return text
}

// trimRecord keeps a long spreadsheet row readable: its first cell (the
// row's name) and the cells whose name or value the question mentions.
func (e *Extractive) trimRecord(q question, c candidate) string {
	if len(c.fields) <= e.opts.MaxRecordFields {
		return c.text
	}
	keep := []string{c.fields[0]}
	for _, f := range c.fields[1:] {
		fs := termSet(f)
		if slices.ContainsFunc(q.terms, func(t qterm) bool { return fs[t.term] || t.exact && hasParts(fs, t.term) }) {
			keep = append(keep, f)
		}
	}
	if len(keep) == 1 {
		return c.text
	}
	return strings.Join(keep, c.sep)
}

// termSet is the set of index terms of s.
func termSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, t := range analysis.Terms(s) {
		m[t] = true
	}
	return m
}

// hasParts reports whether every part of a compound number or identifier
// is in terms ("800mm" asked, "800 mm" written).
func hasParts(terms map[string]bool, compound string) bool {
	parts := analysis.Terms(compound)
	if len(parts) < 2 {
		return false
	}
	for _, p := range parts[1:] {
		if !terms[p] {
			return false
		}
	}
	return true
}

// minSharedPrefix is the shortest common beginning that makes two stems
// one family: long enough that "religi" joins "religion" and "religious"
// while "cat" and "catalogue" stay apart.
const minSharedPrefix = 5

// sharesStem reports whether terms holds a word of the same family as stem.
func sharesStem(terms map[string]bool, stem string) bool {
	if len(stem) < minSharedPrefix {
		return false
	}
	for t := range terms {
		if len(t) >= minSharedPrefix && t[:minSharedPrefix] == stem[:minSharedPrefix] && commonPrefix(t, stem) >= min(len(t), len(stem))-2 {
			return true
		}
	}
	return false
}

func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}
