package rank

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/cewhq/cew/pipeline/guard"
	"github.com/cewhq/cew/store"
	"github.com/cewhq/cew/store/analysis"
)

// Default weights of the lexical reranker, chosen on BEIR SciFact (train
// qrels) so that reranking BM25's candidates does not lose to BM25's own
// order while the score keeps its absolute meaning.
const (
	DefaultRetrievalWeight = 0.4
	DefaultProximityWeight = 0.4
)

// Term-frequency saturation: a term's match strength is tf/(tf+k), scaled
// so that tfFull occurrences count fully. A chunk that repeats a term says
// more about it, but one mention is already most of the evidence.
const (
	tfK    = 1.2
	tfFull = 3.0
)

// The coverage gate: below a weighted coverage of min(maxCoverageFloor,
// gateScale/n²) for a question of n terms, a chunk's score is scaled down in
// proportion. A chunk sharing one common word with a short question must
// score low however well retrieval ranked it. Long questions (claims,
// pasted paragraphs) are answered by chunks that paraphrase them and cover
// a small share of their terms, so the floor falls quickly with length:
// 0.6 up to three terms, 0.5 at four, 0.32 at five, 0.125 at eight.
const (
	maxCoverageFloor = 0.6
	gateScale        = 8.0
)

// Query term boosts. A number or identifier written in the question
// ("Inverter 42", "277-007-D-C-40327", "800 mm") is the part a wrong chunk
// most often gets wrong, so matching it exactly weighs most; the parts of
// an identifier weigh little, or "SB7000TL-US" would nearly match
// "SB7000TL-US-22".
const (
	wordBoost   = 1.0
	exactBoost  = 3.0
	partBoost   = 0.4
	symbolBoost = 0.5
)

// LexicalOptions tunes the lexical reranker; the zero value gives the
// defaults.
type LexicalOptions struct {
	// RetrievalWeight is the share of the score that follows the retrieval
	// score, taken relative to the best candidate's: 0 means
	// DefaultRetrievalWeight, a negative value ignores retrieval.
	RetrievalWeight float64
	// ProximityWeight is the share of the lexical score that depends on how
	// close together the matched query terms are: 0 means
	// DefaultProximityWeight, a negative value ignores proximity.
	ProximityWeight float64
}

// Lexical reranks by how well each candidate covers the query's terms.
//
// A candidate's score is
//
//	gate · ((1 − r)·coverage_tf·(1 − p + p·proximity) + r·retrieval)
//
// Query terms are the question's content words (stemmed), numbers and
// identifiers, each weighted by its inverse document frequency among the
// candidates, and exact numbers and identifiers boosted. coverage_tf is the
// weighted share of those terms the chunk (title, section, sheet and text)
// contains, each counted by a saturating function of its frequency;
// proximity is the number of query terms in the text divided by the
// smallest window of content words holding them all (terms found only in the
// title, section or sheet do not count against it); retrieval is the
// candidate's retrieval score divided by the best candidate's. gate is
// min(1, coverage/floor), coverage counting each matched term once and the
// floor falling with the question's length (see maxCoverageFloor). A chunk
// holding every query term close together, ranked first by retrieval,
// scores about 0.8 to 1; one sharing a single common word with a short
// question scores under 0.25. Lexical is safe for concurrent use.
type Lexical struct {
	retrievalWeight float64
	proximityWeight float64
}

var _ Reranker = (*Lexical)(nil)

// NewLexical returns the lexical reranker.
func NewLexical(opts LexicalOptions) *Lexical {
	return &Lexical{
		retrievalWeight: weightOrDefault(opts.RetrievalWeight, DefaultRetrievalWeight),
		proximityWeight: weightOrDefault(opts.ProximityWeight, DefaultProximityWeight),
	}
}

func weightOrDefault(w, def float64) float64 {
	switch {
	case w == 0 || math.IsNaN(w):
		return def
	case w < 0:
		return 0
	}
	return min(w, 1)
}

// Rerank scores hits against query. It fails only when ctx is done.
func (l *Lexical) Rerank(ctx context.Context, query string, hits []store.Hit) ([]store.Hit, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("rank: lexical: %w", err)
	}
	out := slices.Clone(hits)
	if len(out) == 0 {
		return out, nil
	}
	q := parseQuery(query)
	if len(q.terms) == 0 {
		// Nothing to match: no candidate is supported by the question.
		for i := range out {
			out[i].Score = 0
		}
		sortHits(out)
		return out, nil
	}

	matches := make([]chunkMatch, len(out))
	df := make([]int, len(q.terms))
	var buf matchBuffer
	for i := range out {
		if i%8 == 7 {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("rank: lexical: %w", err)
			}
		}
		matches[i] = buf.match(q, &out[i].Chunk)
		q.spellQualifiers(&matches[i], &out[i].Chunk)
		for t, n := range matches[i].tf {
			if n > 0 {
				df[t]++
			}
		}
	}

	weights := make([]float64, len(q.terms))
	var total float64
	n := float64(len(out))
	for t, qt := range q.terms {
		// Candidate-set IDF with a floor: a term every candidate shares
		// still counts ln 2 ≈ 0.7, a term no candidate has ln(1+2n+2).
		idf := math.Log(1 + (n+1)/(float64(df[t])+0.5))
		weights[t] = idf * qt.boost
		total += weights[t]
	}
	alternative := make([]bool, len(q.terms)) // a member of one of q.alternatives
	for _, g := range q.alternatives {
		// Identifiers compared ("sx70 vs the sx75") weigh as one: a row
		// holds one of them, and each such row answers its part.
		var sum, most float64
		for _, t := range g {
			alternative[t] = true
			sum += weights[t]
			most = max(most, weights[t])
		}
		total -= sum - most
	}

	var bestRetrieval float64
	for _, h := range out {
		bestRetrieval = max(bestRetrieval, clamp01(h.Score))
	}
	tfNorm := tfFull / (tfFull + tfK)
	terms := float64(max(q.primary, 1))
	floor := min(maxCoverageFloor, gateScale/(terms*terms))
	for i := range out {
		m := &matches[i]
		var covered, coveredTF float64
		credit := func(t, c int) (w, tf float64) {
			w = weights[t]
			if m.partial[t] {
				w *= partialCredit
			}
			return w, w * min(1, float64(c)/(float64(c)+tfK)/tfNorm)
		}
		for t, c := range m.tf {
			if c == 0 || alternative[t] {
				continue
			}
			w, tf := credit(t, c)
			covered += w
			coveredTF += tf
		}
		for _, g := range q.alternatives {
			// The best of the identifiers compared that the chunk holds.
			var w, tf float64
			for _, t := range g {
				if m.tf[t] > 0 {
					gw, gtf := credit(t, m.tf[t])
					w, tf = max(w, gw), max(tf, gtf)
				}
			}
			covered += w
			coveredTF += tf
		}
		lexical := coveredTF / total * (1 - l.proximityWeight + l.proximityWeight*m.proximity)
		retrieval := 1.0
		if bestRetrieval > 0 {
			retrieval = clamp01(out[i].Score) / bestRetrieval
		}
		gate := min(1, covered/total/floor)
		out[i].Score = clamp01(gate * ((1-l.retrievalWeight)*lexical + l.retrievalWeight*retrieval))
	}
	sortHits(out)
	return out, nil
}

// queryTerm is one distinct term of the query.
type queryTerm struct {
	term  string
	boost float64
}

type query struct {
	terms []queryTerm
	index map[string]int
	// qualifiers are the contrasting cases the query names ("V5", "1-axis")
	// with the indexes of the terms that spell them: a chunk that names
	// the same case in another spelling ("Version 5", "one axis") holds
	// those terms.
	qualifiers []queryQualifier
	// codes are the indexes of the terms that are whole identifiers,
	// which also match a longer identifier they begin or end
	// ("SB7000TL-US-22" in "SB7000TL-US-22-208V").
	codes []int
	// primary counts the terms that stand for a word or a whole number or
	// identifier of the question, not the parts or symbols split off them.
	primary int
	// alternatives are groups of identifier terms the question compares
	// ("pv10-480xfrmr vs pv30-480xfrmr", "sx70 or sx75").
	alternatives [][]int
}

// phrasingWords carry how a question is asked, not what it is about; a
// chunk that answers "what does GCR mean" need not contain "mean".
var phrasingWords = map[string]bool{
	"tell": true, "explain": true, "describe": true, "mean": true, "means": true, "meaning": true,
	"meant": true, "define": true, "definition": true, "definitions": true, "stand": true, "stands": true, "please": true, "show": true,
	"give": true, "know": true, "want": true, "like": true, "find": true, "look": true,
	"looking": true, "help": true, "cew": true,
}

func parseQuery(s string) query {
	q := query{index: map[string]int{}}
	q.addTerms(s)
	q.compared(s)
	for _, qual := range guard.Qualifiers(s) {
		qq := queryQualifier{q: qual}
		for _, tok := range analysis.Tokens(qual.Text) {
			for _, key := range []string{tok.Term, tok.Text} {
				if t, ok := q.index[key]; ok && !slices.Contains(qq.terms, t) {
					qq.terms = append(qq.terms, t)
				}
			}
		}
		if len(qq.terms) > 0 {
			q.qualifiers = append(q.qualifiers, qq)
		}
	}
	return q
}

// addTerms adds the distinct terms of s, each with its boost.
func (q *query) addTerms(s string) {
	add := func(term string, boost float64) {
		if i, ok := q.index[term]; ok {
			q.terms[i].boost = max(q.terms[i].boost, boost)
			return
		}
		q.index[term] = len(q.terms)
		q.terms = append(q.terms, queryTerm{term: term, boost: boost})
		if boost >= wordBoost {
			q.primary++
		}
	}
	for _, tok := range analysis.Tokens(s) {
		switch tok.Kind {
		case analysis.Word:
			if analysis.IsStopword(tok.Text) || phrasingWords[tok.Text] {
				continue
			}
			add(tok.Term, wordBoost)
		case analysis.Symbol:
			add(tok.Text, symbolBoost)
		default:
			if num, unit := splitQuantity(tok.Text); num != "" {
				// "800mm" and "14%" must match "800 mm" and "14 %": the
				// number is the exact part, the unit an ordinary term.
				add(num, exactBoost)
				for _, part := range analysis.Terms(unit) {
					add(part, wordBoost)
				}
				if unit != "" && !hasLetter(unit) {
					add(unit, symbolBoost)
				}
				continue
			}
			add(tok.Text, exactBoost)
			if hasLetter(tok.Text) || strings.ContainsAny(tok.Text, "-/") {
				// A model number, of letters or of numbers joined
				// ("5000-70"), is matched by a longer one it starts
				// ("SUNERGY 5000-70-240").
				q.codes = append(q.codes, q.index[tok.Text])
			}
			for _, part := range analysis.Terms(tok.Text) {
				if part != tok.Text {
					add(part, partBoost)
				}
			}
		}
	}
}

// compared groups the identifiers of s joined by a word that compares or
// offers them ("vs", "versus", "or", maybe with "the"): each group is one
// alternative (see query.alternatives). "and" joins what a claim states
// together ("IL-6 and IL-10 rise"), which a passage holds together.
func (q *query) compared(s string) {
	toks := analysis.Tokens(s)
	var group []int
	grouped := map[int]bool{}
	flush := func() {
		if len(group) > 1 {
			for _, t := range group {
				grouped[t] = true
			}
			q.alternatives = append(q.alternatives, group)
		}
		group = nil
	}
	joined := false // a joining word since the last identifier
	for _, tok := range toks {
		switch {
		case tok.Kind == analysis.Identifier && modelLike(tok.Text):
			t, ok := q.index[tok.Text]
			if !ok || slices.Contains(group, t) || grouped[t] {
				flush()
				continue
			}
			if len(group) > 0 && !joined {
				flush()
			}
			group = append(group, t)
			joined = false
		case tok.Kind == analysis.Word && comparingWords[tok.Text]:
			joined = joined || len(group) > 0
		case tok.Kind == analysis.Word && (tok.Text == "the" || tok.Text == "a") && joined:
		default:
			flush()
			joined = false
		}
	}
	flush()
}

// comparingWords join identifiers a question compares or offers.
var comparingWords = map[string]bool{"vs": true, "versus": true, "v": true, "or": true}

// modelLike reports whether an identifier reads as a model number, of two
// letters and two digits or more ("sx70", "pv10-480xfrmr"), not a version
// or a case ("v5", "1-axis") that passages name together.
func modelLike(s string) bool {
	var letters, digits int
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			digits++
		case unicode.IsLetter(r):
			letters++
		}
	}
	return letters >= 2 && digits >= 2
}

// splitQuantity splits a token that is a number with a unit glued to it
// ("800mm", "14%", "-0.35%/°c") into the number and the unit. num is ""
// for codes that mix digits into letters ("sb7000tl-us-22", "6a20").
func splitQuantity(t string) (num, unit string) {
	i := 0
	if i < len(t) && (t[i] == '-' || t[i] == '+') {
		i++
	}
	start := i
	for i < len(t) && (isDigit(t[i]) || (t[i] == '.' || t[i] == ',') && i+1 < len(t) && isDigit(t[i+1]) && i > start) {
		i++
	}
	if i == start {
		return "", ""
	}
	num, unit = t[:i], t[i:]
	for j := 0; j < len(unit); j++ {
		if isDigit(unit[j]) {
			return "", ""
		}
	}
	return num, unit
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

func hasLetter(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) {
			return true
		}
	}
	return false
}

// chunkMatch is what one candidate holds of the query.
type chunkMatch struct {
	// tf counts occurrences of each query term.
	tf []int
	// partial marks identifier terms found only inside a longer
	// identifier; they count for partialCredit of their weight.
	partial []bool
	// proximity is in [0,1]; 1 when at most one term matched.
	proximity float64
}

// occurrence is a query term at a content-word position of a chunk.
type occurrence struct {
	pos, term int
}

// matchBuffer reuses memory between the chunks of one query.
type matchBuffer struct {
	occ    []occurrence
	inText []int
}

// match finds the query's terms in the chunk's title, section, sheet and
// text. Only the text's occurrences are placed for proximity: the title
// heads every chunk of a document, so a term found there is near
// everything. Positions count content words only, so "depth of the
// trench" is as close as "trench depth".
func (b *matchBuffer) match(q query, c *store.Chunk) chunkMatch {
	m := chunkMatch{tf: make([]int, len(q.terms)), partial: make([]bool, len(q.terms))}
	whole := make([]bool, len(q.terms))
	if cap(b.inText) < len(q.terms) {
		b.inText = make([]int, len(q.terms))
	}
	b.inText = b.inText[:len(q.terms)]
	clear(b.inText)
	b.occ = b.occ[:0]
	pos := 0
	for f, field := range [...]string{c.Title, c.Section, c.Sheet, c.Text} {
		text := f == 3
		seen := func(t int) {
			m.tf[t]++
			if text {
				b.inText[t]++
				b.occ = append(b.occ, occurrence{pos, t})
			}
		}
		for _, tok := range analysis.Tokens(field) {
			switch tok.Kind {
			case analysis.Word:
				if analysis.IsStopword(tok.Text) {
					continue
				}
				if t, ok := q.index[tok.Term]; ok {
					seen(t)
				}
			case analysis.Symbol:
				if t, ok := q.index[tok.Text]; ok {
					seen(t)
				}
			default:
				for _, term := range analysis.Terms(tok.Text) {
					if t, ok := q.index[term]; ok {
						seen(t)
						whole[t] = true
					}
				}
				for _, t := range q.codes {
					if term := q.terms[t].term; term != tok.Text && analysis.Extends(tok.Text, term) {
						seen(t)
						m.partial[t] = true
					}
				}
			}
			pos++
		}
	}
	for t := range m.partial {
		m.partial[t] = m.partial[t] && !whole[t]
	}
	m.proximity = proximity(b.occ, b.inText)
	return m
}

type queryQualifier struct {
	q     guard.Qualifier
	terms []int
}

// spellQualifiers credits the terms of a query qualifier that the chunk
// names in another spelling.
func (q query) spellQualifiers(m *chunkMatch, c *store.Chunk) {
	var named []guard.Qualifier
	for _, qq := range q.qualifiers {
		missing := false
		for _, t := range qq.terms {
			missing = missing || m.tf[t] == 0
		}
		if !missing {
			continue
		}
		if named == nil {
			named = guard.Qualifiers(c.Title + "\n" + c.Section + "\n" + c.Sheet + "\n" + c.Text)
		}
		if guard.Mentions(named, qq.q) {
			for _, t := range qq.terms {
				m.tf[t] = max(m.tf[t], 1)
			}
		}
	}
}

// partialCredit is the share of an identifier's weight earned by a chunk
// that holds it only as the beginning or end of a longer identifier: the
// user may have shortened the model name, or may mean another model.
const partialCredit = 0.85

// proximity is the number of distinct terms in occ divided by the length
// of the smallest window of positions that holds every one of them at
// least once, capped at 1; tf counts occ's terms. occ is in position order.
func proximity(occ []occurrence, tf []int) float64 {
	matched := 0
	for _, n := range tf {
		if n > 0 {
			matched++
		}
	}
	if matched <= 1 {
		return 1
	}
	inWindow := make([]int, len(tf))
	have, best := 0, math.MaxInt
	lo := 0
	for hi := range occ {
		if inWindow[occ[hi].term] == 0 {
			have++
		}
		inWindow[occ[hi].term]++
		for have == matched {
			if span := occ[hi].pos - occ[lo].pos + 1; span < best {
				best = span
			}
			inWindow[occ[lo].term]--
			if inWindow[occ[lo].term] == 0 {
				have--
			}
			lo++
		}
	}
	return min(1, float64(matched)/float64(best))
}
