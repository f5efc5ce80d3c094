// Package analysis turns text into the tokens and index terms that the
// keyword index, the reranker and the answer guards share, so a question, a
// chunk and an answer are always cut the same way.
//
// English words are lower-cased, NFKC-folded, stripped of a possessive "'s"
// and stemmed with Snowball English (Porter2). Identifiers that engineers
// search for verbatim — drawing numbers (277-007-D-C-40327), model numbers
// (SB7000TL-US-22), report numbers (NREL/TP-6A20-62641), signed decimals
// (-0.35), percentages (14%), units (°C, %/°C, m²) and grouped numbers
// (1,500) — stay whole tokens; Terms also emits their parts so a partial
// identifier still matches.
//
// Two stopword lists serve two purposes. Terms drops only Lucene's English
// set (the 33 words of EnglishAnalyzer's ENGLISH_STOP_WORDS_SET), which keeps
// BM25 on par with Lucene. IsStopword answers for a broader set (that set plus
// the Snowball English list, common contractions and auxiliary verbs), which
// the guards use to tell content words from function words.
package analysis

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Version identifies what Terms returns. It changes whenever Terms may
// return different terms for some input, so an index that keeps analysed
// text knows to analyse it again.
const Version = 4

// MaxTermLen is the length in bytes of the longest term Terms returns.
// Longer ones (base64 blobs, text run together without separators) are
// dropped, as Lucene drops tokens over 255 characters; a long identifier's
// shorter parts are still returned.
const MaxTermLen = 255

// Kind classifies a token.
type Kind uint8

const (
	// Word is a run of letters (apostrophes allowed inside): "trench",
	// "engineer's".
	Word Kind = iota + 1
	// Number is an optionally signed number with decimal, grouping or ratio
	// separators, an optional currency sign before it and an optional
	// percent sign after it: "800", "-0.35", "1,500", "1:500", "14%",
	// "$1,500".
	Number
	// Identifier mixes digits with letters, symbols or joiners:
	// "277-007-D-C-40327", "SB7000TL-US-22", "m²", "800mm".
	Identifier
	// Symbol is a unit or sign without digits: "%", "°C", "%/°C".
	Symbol
)

// String names the kind for logs and test output.
func (k Kind) String() string {
	switch k {
	case Word:
		return "word"
	case Number:
		return "number"
	case Identifier:
		return "identifier"
	case Symbol:
		return "symbol"
	}
	return "unknown"
}

// Token is one token of an input string.
type Token struct {
	// Text is the lower-cased, NFKC-folded surface, with typographic
	// hyphens, dashes and minus signs written as "-" and curly apostrophes
	// as "'".
	Text string
	// Term is the index term: the Snowball stem of a word (after removing
	// a possessive "'s"), or Text for everything else. Stopwords keep
	// Text as their Term.
	Term string
	Kind Kind
	// Start and End are byte offsets of the surface in the input.
	Start, End int
}

// Tokens returns every token of s in order, stopwords included. Compound
// identifiers are one token; use Terms for their parts.
func Tokens(s string) []Token {
	toks := make([]Token, 0, len(s)/6+1)
	scan(s, func(t Token) { toks = append(toks, t) })
	return toks
}

// Terms returns the index terms of s in order: stopwords (Lucene's English
// set) dropped, words stemmed, and every number, identifier or unit emitted
// whole and then as its parts. A term repeats as often as it occurs, so the
// result can be counted for term frequencies.
func Terms(s string) []string {
	terms := make([]string, 0, len(s)/7+1)
	scan(s, func(t Token) { terms = appendTokenTerms(terms, t) })
	return terms
}

// TermSet is the set of the index terms of s (see Terms).
func TermSet(s string) map[string]bool {
	m := map[string]bool{}
	var buf []string
	scan(s, func(t Token) {
		buf = appendTokenTerms(buf[:0], t)
		for _, term := range buf {
			m[term] = true
		}
	})
	return m
}

// AppendTerms appends the index terms of s to dst and returns the extended
// slice; it lets a caller that analyses many texts reuse one buffer.
func AppendTerms(dst []string, s string) []string {
	scan(s, func(t Token) { dst = appendTokenTerms(dst, t) })
	return dst
}

func appendTokenTerms(dst []string, t Token) []string {
	n := len(dst)
	if t.Kind != Word {
		dst = appendCompoundTerms(dst, t.Text)
	} else if !isIndexStopword(t.Term) {
		dst = append(dst, t.Term)
	}
	if len(t.Text) <= MaxTermLen {
		// No term of a token is longer than its text.
		return dst
	}
	keep := dst[:n]
	for _, term := range dst[n:] {
		if len(term) <= MaxTermLen {
			keep = append(keep, term)
		}
	}
	return keep
}

// Character classes of the scanner. Core characters make up tokens; the
// others may join two core characters into one token under rules that
// depend on their neighbours.
type class uint8

const (
	clsSeparator class = iota
	clsLetter
	clsDigit
	clsSymbol
	clsHyphen     // - and typographic hyphens; also a sign before a digit
	clsJoiner     // slash, underscore: any core characters on both sides
	clsPeriod     // period: any core characters on both sides
	clsNumberSep  // comma, colon: digits on both sides
	clsApostrophe // straight and curly apostrophes: letters on both sides
	clsPlus       // plus, plus-minus: only as a sign before a digit
)

var asciiClass = func() (t [utf8.RuneSelf]class) {
	for c := 'a'; c <= 'z'; c++ {
		t[c] = clsLetter
		t[c-'a'+'A'] = clsLetter
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = clsDigit
	}
	t['%'] = clsSymbol
	t['$'] = clsSymbol
	t['-'] = clsHyphen
	t['/'] = clsJoiner
	t['_'] = clsJoiner
	t['.'] = clsPeriod
	t[','] = clsNumberSep
	t[':'] = clsNumberSep
	t['\''] = clsApostrophe
	t['+'] = clsPlus
	return t
}()

func classOf(r rune) class {
	if r < utf8.RuneSelf {
		return asciiClass[r]
	}
	switch r {
	case '°', '‰', '′', '″', '€', '£', '¥', '℃', '℉':
		return clsSymbol
	case '±':
		return clsPlus
	case '\u2010', '\u2011', '\u2012', '\u2013', '\u2212', '\ufe63', '\uff0d':
		// Hyphen, non-breaking hyphen, figure dash, en dash, minus sign,
		// small and full-width hyphen-minus: PDFs use them all for "-".
		return clsHyphen
	case '\u2019', '\u2018', '\u02bc':
		return clsApostrophe
	}
	switch {
	case unicode.IsLetter(r), unicode.Is(unicode.Mn, r), unicode.Is(unicode.Mc, r):
		return clsLetter
	case unicode.IsNumber(r):
		// Includes superscripts, so "m²" stays one token.
		return clsDigit
	}
	return clsSeparator
}

func isCore(c class) bool { return c == clsLetter || c == clsDigit || c == clsSymbol }

// joins reports whether a joiner of class j between a core character of
// class prev and one of class next belongs to the token.
func joins(j, prev, next class) bool {
	if !isCore(prev) || !isCore(next) {
		return false
	}
	switch j {
	case clsHyphen, clsJoiner, clsPeriod:
		return true
	case clsNumberSep:
		return prev == clsDigit && next == clsDigit
	case clsApostrophe:
		return prev == clsLetter && next == clsLetter
	}
	return false
}

// run describes one maximal token run found by the scanner.
type run struct {
	start, end int
	hasDigit   bool
	hasSymbol  bool
	// hasBreak is set when a hyphen, joiner or period occurs inside the run:
	// a letters-only run is then split into words at those points.
	hasBreak bool
	// plain is set when the surface is lower-case ASCII and needs no
	// folding, so Text can share the input's memory.
	plain bool
}

// scan finds the token runs of s and emits their tokens. It is a
// hand-written state machine because it sits on the indexing and query hot
// paths.
func scan(s string, emit func(Token)) {
	i := 0
	for i < len(s) {
		r, size := decode(s, i)
		c := classOf(r)
		if !isCore(c) {
			if (c == clsHyphen || c == clsPlus) && i+size < len(s) {
				if nr, _ := decode(s, i+size); classOf(nr) == clsDigit {
					i = scanRun(s, i, emit)
					continue
				}
			}
			i += size
			continue
		}
		i = scanRun(s, i, emit)
	}
}

// scanRun scans the run starting at start (a core character, or a sign
// before a digit) and returns the offset after it.
func scanRun(s string, start int, emit func(Token)) int {
	rn := run{start: start, plain: true}
	prev := clsSeparator
	i := start
	for i < len(s) {
		r, size := decode(s, i)
		c := classOf(r)
		if i == start && !isCore(c) {
			// A leading sign: the caller checked that a digit follows.
			rn.plain = rn.plain && r < utf8.RuneSelf
			i += size
			continue
		}
		if !isCore(c) {
			if i+size >= len(s) {
				break
			}
			nr, _ := decode(s, i+size)
			if !joins(c, prev, classOf(nr)) {
				break
			}
			if c == clsHyphen || c == clsJoiner || c == clsPeriod {
				rn.hasBreak = true
			}
		}
		switch c {
		case clsDigit:
			rn.hasDigit = true
		case clsSymbol:
			rn.hasSymbol = true
		}
		if r >= utf8.RuneSelf || (r >= 'A' && r <= 'Z') {
			rn.plain = false
		}
		if isCore(c) {
			prev = c
		}
		i += size
	}
	rn.end = i
	emitRun(s, rn, emit)
	return i
}

func decode(s string, i int) (rune, int) {
	if c := s[i]; c < utf8.RuneSelf {
		return rune(c), 1
	}
	return utf8.DecodeRuneInString(s[i:])
}

func emitRun(s string, rn run, emit func(Token)) {
	if !rn.hasDigit && !rn.hasSymbol {
		if !rn.hasBreak {
			emitWord(s, rn.start, rn.end, rn.plain, emit)
			return
		}
		// Letters joined by hyphens, slashes or periods are separate words
		// ("cross-section", "and/or", and "depth.The" from a PDF that lost
		// a space), as Lucene's StandardTokenizer would mostly have them.
		from := rn.start
		for i := rn.start; i < rn.end; {
			r, size := decode(s, i)
			c := classOf(r)
			if c == clsHyphen || c == clsJoiner || c == clsPeriod {
				emitWord(s, from, i, rn.plain, emit)
				from = i + size
			}
			i += size
		}
		emitWord(s, from, rn.end, rn.plain, emit)
		return
	}
	text := fold(s[rn.start:rn.end], rn.plain)
	if text == "" {
		return
	}
	kind := Symbol
	switch {
	case isNumber(text):
		kind = Number
	case rn.hasDigit:
		kind = Identifier
	}
	emit(Token{Text: text, Term: text, Kind: kind, Start: rn.start, End: rn.end})
}

func emitWord(s string, start, end int, plain bool, emit func(Token)) {
	// Folding can only empty a word of letters that NFKC spells as spaces;
	// such a word is no token.
	if text := fold(s[start:end], plain); text != "" {
		emit(Token{Text: text, Term: wordTerm(text), Kind: Word, Start: start, End: end})
	}
}

// wordTerm is the index term of a lower-cased word.
func wordTerm(text string) string {
	w := stripPossessive(text)
	if isIndexStopword(w) {
		return w
	}
	return stem(w)
}

func stripPossessive(w string) string {
	if strings.HasSuffix(w, "'s") {
		return w[:len(w)-2]
	}
	return w
}

// fold lower-cases and NFKC-folds a surface and writes typographic
// hyphens and apostrophes in ASCII. Plain surfaces are returned as they
// are, sharing the input's memory.
func fold(surface string, plain bool) string {
	if plain {
		return surface
	}
	ascii := true
	for i := 0; i < len(surface); i++ {
		if surface[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return strings.ToLower(surface)
	}
	folded := strings.ToLower(norm.NFKC.String(surface))
	folded = latinGreek(folded)
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			// NFKC spells a few letters with a space ("ͺ" → " ͅ"); a token
			// never holds one.
			return -1
		}
		switch classOf(r) {
		case clsHyphen:
			return '-'
		case clsApostrophe:
			return '\''
		}
		return r
	}, folded)
}

// greekAsLatin are the Greek letters that prefix coefficient names, with
// the Latin letter ASCII tables write for them: the Sandia module
// database's legend says "βVmpo" and "αIsc" where its data sheet and pvlib
// say "BVmpo" and "aIsc", and engineers type "bvmpo".
var greekAsLatin = strings.NewReplacer("α", "a", "β", "b", "γ", "g")

// latinGreek spells those letters in Latin in a word that also holds a
// Latin letter ("βvmpo" → "bvmpo"); a Greek word or a lone "β" (a tilt
// angle in a formula) stays as written.
func latinGreek(w string) string {
	if !strings.ContainsAny(w, "αβγ") || !strings.ContainsFunc(w, func(r rune) bool { return r >= 'a' && r <= 'z' }) {
		return w
	}
	return greekAsLatin.Replace(w)
}

// PhraseTable maps phrases ("thin film", "temperature coefficient") to
// values and finds them in token streams, longest phrase first.
type PhraseTable[T any] struct {
	phrases []tablePhrase[T]
}

type tablePhrase[T any] struct {
	terms  []string
	phrase string
	value  T
}

// NewPhraseTable builds a table. Phrases are matched by their terms (see
// StartsWith); a longer phrase wins over a shorter one that starts the same
// way, and ties go to the phrase that sorts first, so the result never
// depends on the map's order.
func NewPhraseTable[T any](spec map[string]T) *PhraseTable[T] {
	t := &PhraseTable[T]{}
	for phrase, v := range spec {
		var terms []string
		for _, tok := range Tokens(phrase) {
			terms = append(terms, tok.Term)
		}
		t.phrases = append(t.phrases, tablePhrase[T]{terms: terms, phrase: phrase, value: v})
	}
	sort.Slice(t.phrases, func(i, j int) bool {
		a, b := t.phrases[i], t.phrases[j]
		if len(a.terms) != len(b.terms) {
			return len(a.terms) > len(b.terms)
		}
		return a.phrase < b.phrase
	})
	return t
}

// At returns the value of the longest phrase toks start with and how many
// tokens it spans, or n 0 when none does.
func (t *PhraseTable[T]) At(toks []Token) (v T, n int) {
	v, n, _ = t.Match(toks)
	return v, n
}

// Match is At that also returns the phrase found, as the table spells it.
func (t *PhraseTable[T]) Match(toks []Token) (v T, n int, phrase string) {
	for _, p := range t.phrases {
		if len(p.terms) > 0 && StartsWith(toks, p.terms) {
			return p.value, len(p.terms), p.phrase
		}
	}
	return v, 0, ""
}

// StartsWith reports whether toks begin with the phrase terms, each token
// matching its term by Term or by Text.
func StartsWith(toks []Token, terms []string) bool {
	if len(toks) < len(terms) {
		return false
	}
	for i, t := range terms {
		if toks[i].Term != t && toks[i].Text != t {
			return false
		}
	}
	return true
}
