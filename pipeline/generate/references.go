package generate

import (
	"regexp"
	"slices"
	"strings"

	"github.com/cewhq/cew/store"
)

// citationMark is a document's own citation of its reference list: the
// "[6]" of "the algorithm described in [6]". The answer's "[S1]" markers
// are added later and never match.
var citationMark = regexp.MustCompile(`\[(\d{1,3})\]`)

// referenceEntry opens an entry of a numbered reference list: "[6]
// Michalsky, J. (1988). …".
var referenceEntry = regexp.MustCompile(`^\[(\d{1,3})\]\s+\S`)

// followReferences adds to the quoted units the reference-list entries
// they cite, when the question asks which thing, who or where — not for a
// value, a yes or no, or what something is. "Which solar position
// algorithm does PVWatts use" is answered by "… using the algorithm
// described in [6]" only together with "[6] Michalsky, J. (1988). “The
// Astronomical Almanac's Algorithm for Approximate Solar Position
// (1950-2050).”". An entry is quoted from a retrieved chunk of the same
// document's reference list, with its own citation, and once; a marker
// whose entry was not retrieved is left as it is.
func followReferences(q question, picked []candidate, chunks []store.Chunk) []candidate {
	if q.mustNumber || q.polar || q.defines || len(q.subject) > 0 || q.expect.WantsValue() {
		return picked
	}
	out := slices.Clip(picked)
	for _, c := range picked {
		for _, m := range citationMark.FindAllStringSubmatch(c.quote, -1) {
			entry, ok := findEntry(chunks, chunks[c.chunk].DocID, m[1])
			if !ok || slices.ContainsFunc(out, func(o candidate) bool { return o.quote == entry.quote }) {
				continue
			}
			out = append(out, entry)
		}
	}
	return out
}

// findEntry returns entry number n of document doc's reference list, from
// the retrieved chunks, as a unit to quote: its line and the lines after
// it up to the next entry.
func findEntry(chunks []store.Chunk, doc, n string) (candidate, bool) {
	for i, ch := range chunks {
		if ch.DocID != doc || !references(ch.Section) {
			continue
		}
		var entry []string
		for line := range strings.Lines(ch.Text) {
			line = strings.TrimSpace(line)
			if m := referenceEntry.FindStringSubmatch(line); m != nil {
				if len(entry) > 0 {
					break
				}
				if m[1] == n {
					entry = append(entry, line)
				}
				continue
			}
			if len(entry) > 0 {
				if line == "" {
					break
				}
				entry = append(entry, line)
			}
		}
		if len(entry) > 0 {
			text := strings.Join(entry, " ")
			return candidate{unit: unit{chunk: i, docID: doc, kind: kindSentence, text: text}, quote: text}, true
		}
	}
	return candidate{}, false
}
