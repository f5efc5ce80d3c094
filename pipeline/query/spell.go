package query

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/cewhq/cew/store/analysis"
)

// Spelling correction follows SymSpell's idea — a misspelt word is replaced
// by the most frequent word of the index's own vocabulary within a small
// edit distance — with three safeguards that matter more here than recall:
// a word the index already knows (as written or by its stem) is never
// touched, unless it is a long word the documents misprint once or twice
// (see misprint), nor is a word of the English dictionary (so "cable"
// never becomes "table" because the documents say "table" more often), nor
// anything that is not a plain word (identifiers, numbers, units, model
// names).

// englishGz is the SCOWL size-50 American English word list (Debian's
// wamerican 2020.12.07-2: lower-case alphabetic words, possessives
// removed); see LICENSE.SCOWL.txt.
//
//go:embed english.txt.gz
var englishGz []byte

var english = sync.OnceValue(func() map[string]struct{} {
	zr, err := gzip.NewReader(bytes.NewReader(englishGz))
	if err != nil {
		panic("query: embedded word list: " + err.Error())
	}
	words := make(map[string]struct{}, 75_000)
	sc := bufio.NewScanner(zr)
	for sc.Scan() {
		words[sc.Text()] = struct{}{}
	}
	if err := sc.Err(); err != nil {
		panic("query: embedded word list: " + err.Error())
	}
	return words
})

// isEnglishWord reports whether a lower-case word is in the dictionary.
func isEnglishWord(w string) bool {
	_, ok := english()[w]
	return ok
}

// properNames returns the words of text, in lower case and each once, that
// the dictionary does not hold and that are no stopword or shorthand:
// "kyocera" of "kyocera pv 110 module area" (and "paco", which names a
// column, not a maker: no row's name opens with it). Words of letters
// alone, three or more of them, name makers and products; shorter ones
// are abbreviations ("pv", "ac") as often.
func properNames(text string) []string {
	var out []string
	for _, t := range analysis.Tokens(text) {
		w := t.Text
		if t.Kind != analysis.Word || len(w) < 3 || !lettersOnly(w) || !makerLike(w) || slices.Contains(out, w) {
			continue
		}
		out = append(out, w)
	}
	return out
}

// Correction is one word the speller replaced.
type Correction struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// Speller corrects words against a vocabulary. It is immutable once built
// and safe for concurrent use.
type Speller struct {
	freq map[string]int
	// stems counts, for each stem, the chunks of its most frequent word.
	stems map[string]int
	// chunks estimates how many chunks the vocabulary was counted over.
	chunks int
	// byLen holds the vocabulary's words by length, for the candidate scan.
	byLen map[int][]string
	// codes are the vocabulary's model numbers, without and with their
	// hyphens, sorted by the first.
	codes [][2]string
	// own are the words the query's own tables read (the glossary's
	// descriptions, shorthand's spellings out) that the vocabulary lacks:
	// offered one edit away, after the vocabulary's words ("ngiht tare"
	// is the "night tare" the glossary reads as Pnt, though no document
	// writes "night").
	own map[string]bool
}

// minCorrectLen is the shortest word the speller corrects: shorter words
// have too many neighbours one edit away.
const minCorrectLen = 4

// NewSpeller builds a speller from word frequencies (lower-case words and
// model numbers, and the number of chunks holding each). Only words are
// offered as corrections; model numbers are known, never suggested.
func NewSpeller(vocabulary map[string]int) *Speller {
	s := &Speller{freq: vocabulary, stems: map[string]int{}, byLen: map[int][]string{}}
	for w, n := range vocabulary {
		s.chunks = max(s.chunks, n)
		if !lettersOnly(w) {
			s.codes = append(s.codes, [2]string{compactCode(w), w})
			continue
		}
		st := stem(w)
		s.stems[st] = max(s.stems[st], n)
		s.byLen[len(w)] = append(s.byLen[len(w)], w)
	}
	slices.SortFunc(s.codes, func(a, b [2]string) int { return strings.Compare(a[0]+"\x00"+a[1], b[0]+"\x00"+b[1]) })
	s.own = map[string]bool{}
	for _, w := range ownWords() {
		if _, ok := vocabulary[w]; !ok && !s.own[w] {
			s.own[w] = true
			s.byLen[len(w)] = append(s.byLen[len(w)], w)
		}
	}
	return s
}

// ownWords are the plain words of the glossary's descriptions and of
// shorthand's spellings out.
var ownWords = sync.OnceValue(func() []string {
	var out []string
	add := func(phrase string) {
		for _, w := range strings.Fields(phrase) {
			if len(w) >= minCorrectLen && lettersOnly(w) && !analysis.IsStopword(w) {
				out = append(out, w)
			}
		}
	}
	for p := range glossaryPhrases {
		add(p)
	}
	for _, p := range shorthand {
		add(p)
	}
	slices.Sort(out)
	return slices.Compact(out)
})

// Code returns how the index writes the model number code, compared
// without hyphens and underscores: the whole number ("kc-158g" → "kc158g",
// "pvi 5000-208" joined → "pvi-5000-208") or, when code is the beginning
// of one, that beginning ("gs4048" of "gs4048a"). Dots stay: "36tl" is not
// "3.6tl". ok is false when no model number of the index is or begins with
// code.
func (s *Speller) Code(code string) (spelled string, ok bool) {
	if s == nil || code == "" {
		return "", false
	}
	key := compactCode(code)
	i, _ := slices.BinarySearchFunc(s.codes, key, func(c [2]string, k string) int { return strings.Compare(c[0], k) })
	if i == len(s.codes) || !strings.HasPrefix(s.codes[i][0], key) {
		return "", false
	}
	// The index's spelling, cut after as many characters other than
	// hyphens and underscores as the question gave.
	orig, n := s.codes[i][1], 0
	for j := 0; j < len(orig); j++ {
		if orig[j] != '-' && orig[j] != '_' {
			n++
		}
		if n == len(key) {
			return orig[:j+1], true
		}
	}
	return orig, true
}

// KnowsCode reports whether the index holds a model number that is code
// or begins with it, compared without hyphens and underscores ("PVI-6000"
// of "PVI-6000-OUTD-US-A").
func (s *Speller) KnowsCode(code string) bool {
	_, ok := s.Code(strings.ToLower(code))
	return ok
}

// compactCode drops a model number's hyphens and underscores.
func compactCode(code string) string { return codeSeparators.Replace(code) }

var codeSeparators = strings.NewReplacer("-", "", "_", "")

// Rarity is how rare a word is in the index, in [0,1]: 1 for a word no
// chunk holds, near 0 for one most chunks hold (inverse document frequency
// over the largest count of any word, which stands in for the number of
// chunks). It is 0 without a vocabulary.
func (s *Speller) Rarity(w string) float64 {
	if s == nil || s.chunks == 0 {
		return 0
	}
	n := s.freq[w]
	if toks := analysis.Tokens(w); len(toks) == 1 {
		n = max(n, s.stems[toks[0].Term])
	}
	return math.Log(float64(s.chunks+1)/float64(n+1)) / math.Log(float64(s.chunks+1))
}

// Knows reports whether the vocabulary has w or a word of the same stem.
func (s *Speller) Knows(w string) bool {
	if s == nil {
		return false
	}
	if _, ok := s.freq[w]; ok {
		return true
	}
	toks := analysis.Tokens(w)
	if len(toks) != 1 {
		return false
	}
	_, ok := s.stems[toks[0].Term]
	return ok
}

// Correct returns the replacement for a word, or "" when it stays. w is a
// lower-case word as analysis folds it.
func (s *Speller) Correct(w string) string {
	if s == nil || len(w) < minCorrectLen || !lettersOnly(w) || analysis.IsStopword(w) {
		return ""
	}
	if c := s.misprint(w); c != "" {
		return c
	}
	if s.Knows(w) {
		return ""
	}
	if a, b, ok := s.split(w); ok {
		// "timezone" is the documents' "time zone", "nonroad" their
		// "non-road": English or not, the index has the two words and
		// not the one.
		return a + " " + b
	}
	if isEnglishWord(w) {
		return ""
	}
	maxDist := 1
	if len(w) >= 6 {
		maxDist = 2
	}
	best, bestDist, bestFreq, bestLikely := "", maxDist+1, 0, false
	// Nor is a word corrected to one shorter than that ("paso" is no
	// "pso").
	for l := max(len(w)-maxDist, minCorrectLen); l <= len(w)+maxDist; l++ {
		for _, c := range s.byLen[l] {
			d := analysis.EditDistance(w, c, maxDist)
			if d > maxDist || d > bestDist {
				continue
			}
			// Two edits away only from a word that starts the same way
			// and is not a rarity: typos seldom hit the first letter. The
			// query's own words count as rarities.
			if d == 2 && (c[0] != w[0] || s.freq[c] < 2) {
				continue
			}
			// One edit away, a slip of the finger (a key left out,
			// doubled, swapped or hit beside the one meant) is likelier
			// than a letter typed for one across the keyboard: "uner" is
			// "under", not "user".
			likely := d != 1 || !farSubstitution(w, c)
			f := s.freq[c]
			if d < bestDist || likely && !bestLikely || likely == bestLikely && (f > bestFreq || f == bestFreq && c < best) {
				best, bestDist, bestFreq, bestLikely = c, d, f, likely
			}
		}
	}
	if best != "" && bestDist == 2 && compound(w) {
		// "offsite" is "off" and "site" run together, not "office".
		return ""
	}
	if best != "" {
		if v := swappedWord(w); v != "" && v != best {
			// "acerage" is "acreage" with two letters swapped, a word
			// the documents do not use: "average" would change the
			// question. "modle" is "model", which they use, though
			// "mode" is as near and said more often.
			if s.freq[v] > 0 || s.own[v] {
				return v
			}
			return ""
		}
	}
	return best
}

// minMisprintLen is the shortest word read as a misprint of the
// documents' (a name is often a letter off a word: "Normanz", "Norman"),
// and misprintRatio how much more often they must write the word it
// misses.
const (
	minMisprintLen = 9
	misprintRatio  = 3
)

// misprint returns the English word that w, no English word and one the
// documents write at most twice (or never), misses by a letter left out or
// added, when the documents write that word's stem in several chunks
// ("coefficent", which the PVWatts manual prints once, and "coefficents"
// of the same stem are its "coefficient" and "coefficients"), or "". A
// letter typed for another is no such slip: a model's name is often a
// letter off a word ("sunzet", "sunset").
func (s *Speller) misprint(w string) string {
	if len(w) < minMisprintLen || isEnglishWord(w) {
		return ""
	}
	seen := s.stems[stem(w)]
	if seen > 2 {
		return ""
	}
	seen = max(seen, 1)
	best, bestFreq := "", 0
	for _, l := range []int{len(w) - 1, len(w) + 1} {
		for _, c := range s.byLen[l] {
			if analysis.EditDistance(w, c, 1) != 1 || !isEnglishWord(c) {
				continue
			}
			if f := s.stems[stem(c)]; f >= misprintRatio*seen && f > bestFreq {
				best, bestFreq = c, f
			}
		}
	}
	return best
}

// split returns the two words of the vocabulary that w runs together, each
// of three letters or more, neither a function word nor a suffix
// ("timezone" → "time", "zone"), when there is exactly one such split.
func (s *Speller) split(w string) (a, b string, ok bool) {
	for _, h := range halves(w) {
		x, y := h[0], h[1]
		if analysis.IsStopword(x) || analysis.IsStopword(y) || suffixes[y] || s.freq[x] == 0 || s.freq[y] == 0 {
			continue
		}
		if ok {
			return "", "", false // two ways to read it: leave it
		}
		a, b, ok = x, y, true
	}
	return a, b, ok
}

// suffixes end words without being words of their own there: "highest" is
// not "high est".
var suffixes = map[string]bool{"est": true, "ing": true, "ers": true, "ful": true, "ness": true, "less": true,
	"able": true, "ible": true, "ment": true, "ments": true, "ship": true, "ward": true, "wards": true, "wise": true,
	"ism": true, "ist": true, "ists": true, "ity": true, "ion": true, "ions": true, "ous": true, "ive": true}

// compound reports whether w is two English words of three letters or more
// run together ("offsite", "jobsite", "toolbox"): such a word is written so
// on purpose, and the dictionary lacks it only for being a compound.
func compound(w string) bool {
	return slices.ContainsFunc(halves(w), func(h [2]string) bool { return isEnglishWord(h[0]) && isEnglishWord(h[1]) })
}

// minHalf is the shortest part of a word run together that is read as a
// word of its own.
const minHalf = 3

// halves returns the ways w cuts into two parts of minHalf letters or
// more, first part shortest first.
func halves(w string) [][2]string {
	var out [][2]string
	for i := minHalf; i+minHalf <= len(w); i++ {
		out = append(out, [2]string{w[:i], w[i:]})
	}
	return out
}

// farSubstitution reports whether b is a with one letter replaced by one
// whose key is not beside it on a QWERTY keyboard.
func farSubstitution(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		if a[i] != b[i] {
			return a[i+1:] == b[i+1:] && !strings.ContainsRune(keysBeside[a[i]], rune(b[i]))
		}
	}
	return false
}

// keysBeside maps each letter to the letters beside it on a QWERTY
// keyboard, in its row and the rows above and below.
var keysBeside = map[byte]string{
	'q': "wa", 'w': "qeas", 'e': "wrsd", 'r': "etdf", 't': "ryfg", 'y': "tugh", 'u': "yihj", 'i': "uojk", 'o': "ipkl", 'p': "ol",
	'a': "qwsz", 's': "awedxz", 'd': "serfcx", 'f': "drtgvc", 'g': "ftyhbv", 'h': "gyujnb", 'j': "huikmn", 'k': "jiolm", 'l': "kop",
	'z': "asx", 'x': "zsdc", 'c': "xdfv", 'v': "cfgb", 'b': "vghn", 'n': "bhjm", 'm': "njk",
}

// swappedWord returns the English word that swapping two neighbouring
// letters of w spells, the likelier typo; "" for none.
func swappedWord(w string) string {
	b := []byte(w)
	for i := 0; i+1 < len(b); i++ {
		if b[i] == b[i+1] {
			continue
		}
		b[i], b[i+1] = b[i+1], b[i]
		v := string(b)
		b[i], b[i+1] = b[i+1], b[i]
		if isEnglishWord(v) {
			return v
		}
	}
	return ""
}

func lettersOnly(w string) bool {
	for i := 0; i < len(w); i++ {
		if c := w[i]; c < 'a' || c > 'z' {
			return false
		}
	}
	return w != ""
}

// correct applies the speller to every plain word of text and returns the
// corrected text with what was changed. protected words (shorthand the
// question analysis expands itself) are left alone.
func correct(text string, s *Speller, protected func(string) bool) (string, []Correction) {
	if s == nil {
		return text, nil
	}
	return replaceWords(text, func(_ int, t analysis.Token, _ []analysis.Token) string {
		if t.Kind != analysis.Word || protected(t.Text) {
			return ""
		}
		return s.Correct(t.Text)
	})
}

// replaceWords rewrites text token by token: replace returns the new text
// for the token at i, or "" to keep it. It returns the new text and the
// replacements, as written and as replaced.
func replaceWords(text string, replace func(i int, t analysis.Token, toks []analysis.Token) string) (string, []Correction) {
	return replaceSpans(text, func(i int, toks []analysis.Token) (string, int) {
		return replace(i, toks[i], toks), 1
	})
}

// replaceSpans is replaceWords for replacements of several tokens at once:
// replace returns the new text for the n tokens from i, or "" to keep the
// token at i.
func replaceSpans(text string, replace func(i int, toks []analysis.Token) (to string, n int)) (string, []Correction) {
	toks := analysis.Tokens(text)
	var b strings.Builder
	var out []Correction
	last := 0
	for i := 0; i < len(toks); {
		to, n := replace(i, toks)
		if to == "" {
			i++
			continue
		}
		start, end := toks[i].Start, toks[i+n-1].End
		b.WriteString(text[last:start])
		b.WriteString(to)
		last = end
		out = append(out, Correction{From: text[start:end], To: to})
		i += n
	}
	if out == nil {
		return text, nil
	}
	b.WriteString(text[last:])
	return b.String(), out
}

// stem returns the index term of a plain word, as the vocabulary counts
// stems.
func stem(w string) string { return analysis.Tokens(w)[0].Term }
