package analysis

import (
	"strings"
	"sync"
	"sync/atomic"

	"github.com/kljensen/snowball/english"
)

// isIndexStopword is Lucene's EnglishAnalyzer stop set, the only words Terms
// drops: a longer list costs BM25 quality on phrases such as "not
// detected" or "vitamin a".
func isIndexStopword(w string) bool {
	switch w {
	case "a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "if",
		"in", "into", "is", "it", "no", "not", "of", "on", "or", "such", "that",
		"the", "their", "then", "there", "these", "they", "this", "to", "was",
		"will", "with":
		return true
	}
	return false
}

// broadStopwords extends the index set with the Snowball English stop list,
// auxiliaries, contractions and the prepositions that list lacks ("within",
// "across", "among", "versus" and its "vs"): words that carry no content a
// guard should demand to find in a cited chunk.
var broadStopwords = func() map[string]struct{} {
	words := strings.Fields(`
		a about above across after again against all along am among amongst an and any
		are aren't as at
		be because been before being below between both but by
		can can't cannot could couldn't
		did didn't do does doesn't doing don don't down during
		each either etc few for from further
		had hadn't has hasn't have haven't having he he'd he'll he's her here
		here's hers herself him himself his how how's
		i i'd i'll i'm i've if in into is isn't it it's its itself
		just let's may me might more most must mustn't my myself
		neither no nor not now of off on once only or other ought our ours
		ourselves out over own
		per please s same shall shan't she she'd she'll she's should shouldn't
		so some such t than that that's the their theirs them themselves then
		there there's these they they'd they'll they're they've this those
		through throughout thus to too toward towards under until up upon us
		versus very via vs was wasn't we we'd we'll we're we've were weren't
		what what's when when's where where's whether which while who who's whom
		why why's will with within without won't would wouldn't yes yet you
		you'd you'll you're you've
		your yours yourself yourselves`)
	set := make(map[string]struct{}, len(words))
	for _, w := range words {
		set[w] = struct{}{}
	}
	return set
}()

// IsStopword reports whether a lower-cased word is a function word: the
// broad list (Lucene's English set, the Snowball English list, common
// contractions and auxiliaries such as "may", "shall", "would"). Curly
// apostrophes must already be folded to "'", as Token.Text has them.
func IsStopword(lower string) bool {
	_, ok := broadStopwords[lower]
	return ok
}

// Stemming dominates analysis time and a corpus reuses a small vocabulary,
// so stems are cached. Readers look in an immutable snapshot through one
// atomic load, with no lock whose counter cores would fight over; new stems
// collect in a pending map under a mutex and are merged into a fresh
// snapshot once the pending map is an eighth of the snapshot's size, so
// copying stays amortised. The cache is bounded so hostile input cannot
// grow it without limit; past the bound words are stemmed every time.
const maxCachedStems = 1 << 19

type stemCache struct {
	snapshot atomic.Pointer[map[string]string]
	mu       sync.Mutex
	pending  map[string]string
	full     atomic.Bool
}

var stems = func() *stemCache {
	c := &stemCache{pending: make(map[string]string)}
	c.snapshot.Store(&map[string]string{})
	return c
}()

// stemWord is the Snowball English stem of a lower-case word, but for the
// plural of an abbreviation without a vowel ("gcrs", "pcbs", "mppts"),
// which Snowball keeps whole as it keeps "gas": its stem is the
// abbreviation, as "nois" stems to "noi".
func stemWord(w string) string {
	if base, ok := strings.CutSuffix(w, "s"); ok && len(base) >= 2 && !strings.ContainsFunc(base, func(r rune) bool {
		return !('a' <= r && r <= 'z') || strings.ContainsRune("aeiouy", r)
	}) {
		return base
	}
	return english.Stem(w, true)
}

// stem returns the stem of a lower-case word (see stemWord).
func stem(w string) string {
	if len(w) <= 2 {
		return w
	}
	if st, ok := (*stems.snapshot.Load())[w]; ok {
		return st
	}
	if stems.full.Load() {
		return stemWord(w)
	}
	stems.mu.Lock()
	defer stems.mu.Unlock()
	if st, ok := stems.pending[w]; ok {
		return st
	}
	// Clone both: w may be a slice of a large chunk text the cache must not
	// keep alive.
	st := strings.Clone(stemWord(w))
	stems.pending[strings.Clone(w)] = st
	snap := *stems.snapshot.Load()
	if len(stems.pending) >= max(1, len(snap)/8) {
		merged := make(map[string]string, len(snap)+len(stems.pending))
		for k, v := range snap {
			merged[k] = v
		}
		for k, v := range stems.pending {
			merged[k] = v
		}
		stems.snapshot.Store(&merged)
		stems.pending = make(map[string]string)
		stems.full.Store(len(merged) >= maxCachedStems)
	}
	return st
}
