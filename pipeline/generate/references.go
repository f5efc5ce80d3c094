package generate

import (
	"regexp"
	"slices"
	"strings"

	"github.com/cewhq/cew/pipeline/guard"
	"github.com/cewhq/cew/store"
	"github.com/cewhq/cew/store/analysis"
)

// citationMark is a document's own citation of its reference list: the
// "[6]" of "the algorithm described in [6]". The answer's "[S1]" markers
// are added later and never match.
var citationMark = regexp.MustCompile(`\[(\d{1,3})\]`)

// referenceEntry opens an entry of a numbered reference list: "[6]
// Michalsky, J. (1988). …".
var referenceEntry = regexp.MustCompile(`^\[(\d{1,3})\]\s+\S`)

// ReferenceSection reports whether a section heading names a list of
// references.
func ReferenceSection(section string) bool {
	switch strings.ToLower(strings.TrimSpace(section)) {
	case "references", "bibliography", "works cited", "literature":
		return true
	}
	return false
}

// Citations returns the reference numbers text cites ("[6]"), in order,
// each once.
func Citations(text string) []string {
	var out []string
	for _, m := range citationMark.FindAllStringSubmatch(text, -1) {
		if !slices.Contains(out, m[1]) {
			out = append(out, m[1])
		}
	}
	return out
}

// namedReference is a reference a question names by number: "ref 17",
// "reference 4", "(ref. 2)".
var namedReference = regexp.MustCompile(`(?i)\brefs?\.?\s*(\d{1,3})\b|\breferences?\s+(\d{1,3})\b`)

// NamedReferences returns the numbers of the references text names ("ref
// 17"), in order.
func NamedReferences(text string) []string {
	var out []string
	for _, m := range namedReference.FindAllStringSubmatch(text, -1) {
		out = append(out, m[1]+m[2])
	}
	return out
}

// namedEntries returns, for each reference the question names by number,
// its entry in each document's reference list among the chunks, as a unit
// of its own: "ref 19 in the pvwatts manual - which journal" is answered by
// entry [19]. A question about what a list cites (question.citesList)
// names every entry of the retrieved chunks of the list: "which version of
// the cec pv calculator does the ref list cite" is answered by entry [16].
// So is an entry that holds an identifier of the question. An entry a
// page break cuts is its first part.
func namedEntries(q question, chunks []store.Chunk) []unit {
	var out []unit
	seen := map[string]bool{}
	for _, ch := range chunks {
		if !ReferenceSection(ch.Section) {
			continue
		}
		numbers := q.refs
		if q.citesList {
			numbers = entryNumbers(ch)
		} else if holdsQuestionCode(q, analysis.TermSet(ch.Text)) {
			// "fuentes 1987 thermal model report (SAND85-0330) - pdf
			// link": the entry that holds the report number the
			// question names is the one it asks about.
			for _, n := range entryNumbers(ch) {
				if entry, ok := findEntry(chunks, ch.DocID, n); ok && !slices.Contains(numbers, n) && holdsQuestionCode(q, analysis.TermSet(entry[0].text)) {
					numbers = append(slices.Clip(numbers), n)
				}
			}
		}
		if q.work {
			numbers = append(slices.Clip(numbers), authoredEntries(q, ch, chunks)...)
		}
		for _, n := range numbers {
			if seen[ch.DocID+"/"+n] {
				continue
			}
			if entry, ok := findEntry(chunks, ch.DocID, n); ok {
				seen[ch.DocID+"/"+n] = true
				u := entry[0].unit
				u.entry = true
				out = append(out, u)
			}
		}
	}
	return out
}

// entryAuthor opens an entry of a reference list with its first author,
// a person: "[6] Michalsky, J. (1988)", "[14] Deline, C.; Meydbray, J.".
var entryAuthor = regexp.MustCompile(`^\[(\d{1,3})\]\s+(\p{Lu}[\p{L}'’-]+),\s+\p{Lu}\.`)

// authoredEntries returns the numbers of the entries of a chunk of a
// reference list whose first author the question names: "deline shading
// testbed report - pdf link" asks about entry [14]. A body that wrote the
// work ("[4] NREL. System Advisor Model") is no author: "nrel report"
// names no entry. An entry that a retrieved passage cites is left to it:
// the passage that says what the work is for ("developed by Fuentes
// [15]") answers, and brings the entry along (see followReferences).
func authoredEntries(q question, ch store.Chunk, chunks []store.Chunk) []string {
	cited := map[string]bool{}
	for _, c := range chunks {
		if c.DocID == ch.DocID && !ReferenceSection(c.Section) {
			for _, n := range Citations(c.Text) {
				cited[n] = true
			}
		}
	}
	var out []string
	for line := range strings.Lines(ch.Text) {
		m := entryAuthor.FindStringSubmatch(strings.TrimSpace(line))
		if m == nil || cited[m[1]] {
			continue
		}
		for t := range analysis.TermSet(m[2]) {
			if q.has[t] {
				out = append(out, m[1])
				break
			}
		}
	}
	return out
}

// holdsQuestionCode reports whether terms hold an identifier of the
// question.
func holdsQuestionCode(q question, terms map[string]bool) bool {
	return slices.ContainsFunc(q.terms, func(t qterm) bool { return t.code && terms[t.term] })
}

// HoldsEntry reports whether a chunk of a reference list holds entry n.
func HoldsEntry(ch store.Chunk, n string) bool {
	return ReferenceSection(ch.Section) && slices.Contains(entryNumbers(ch), n)
}

// entryNumbers returns the numbers of the entries a chunk's lines open, in
// order.
func entryNumbers(ch store.Chunk) []string {
	var out []string
	for line := range strings.Lines(ch.Text) {
		if m := referenceEntry.FindStringSubmatch(strings.TrimSpace(line)); m != nil {
			out = append(out, m[1])
		}
	}
	return out
}

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
	if !q.expect.Source && (q.mustNumber || q.polar || q.defines || len(q.subject) > 0 || q.expect.WantsValue()) {
		return picked
	}
	out := slices.Clip(picked)
	for _, c := range picked {
		for _, m := range citationMark.FindAllStringSubmatch(c.quote, -1) {
			entry, ok := findEntry(chunks, chunks[c.chunk].DocID, m[1])
			if !ok || slices.ContainsFunc(out, func(o candidate) bool { return o.quote == entry[0].quote }) {
				continue
			}
			out = append(out, entry...)
		}
	}
	return out
}

// continuation returns the index of the chunk after ch in its document's
// reference list, when the chunks hold it, and the lines that open it up to
// its first entry: the end of ch's last entry.
func continuation(chunks []store.Chunk, ch store.Chunk) (int, string) {
	i := slices.IndexFunc(chunks, func(n store.Chunk) bool {
		return n.DocID == ch.DocID && n.Revision == ch.Revision && n.Index == ch.Index+1 && ReferenceSection(n.Section)
	})
	if i < 0 {
		return -1, ""
	}
	var out []string
	for line := range strings.Lines(chunks[i].Text) {
		line = strings.TrimSpace(line)
		if referenceEntry.MatchString(line) || line == "" {
			break
		}
		out = append(out, line)
	}
	return i, strings.Join(out, " ")
}

// EndsChunk reports whether entry n is the last entry of a chunk of a
// reference list: it may go on in the list's next chunk.
func EndsChunk(ch store.Chunk, n string) bool {
	nums := entryNumbers(ch)
	return len(nums) > 0 && nums[len(nums)-1] == n
}

// citedEntries is the text of the reference-list entries a unit cites,
// from the chunks, joined; "" when it cites none that were retrieved.
// found keeps each entry's text by document and number, as many units cite
// the same entries.
func citedEntries(u unit, chunks []store.Chunk, found map[[2]string]string) string {
	var out []string
	for _, n := range Citations(u.text) {
		key := [2]string{chunks[u.chunk].DocID, n}
		text, ok := found[key]
		if !ok {
			entry, _ := findEntry(chunks, key[0], n)
			parts := make([]string, len(entry))
			for i, part := range entry {
				parts[i] = part.quote
			}
			text = strings.Join(parts, "\n")
			found[key] = text
		}
		if text != "" {
			out = append(out, text)
		}
	}
	return strings.Join(out, "\n")
}

// acceptsEntries reports whether the entries a unit cites hold a value of
// the kind the question asks for: the year of "what year was the paper
// published", the web address of "refs [20] and [21] - web links". An entry
// dates a work; its other numbers (volume, pages, report number) measure
// nothing a question asks a count or a quantity of.
func acceptsEntries(q question, entries string) bool {
	if entries == "" || q.expect.WantsValue() && !slices.Contains(q.expect.Dims, guard.DimDate) {
		return false
	}
	vals := guard.Values(entries)
	return q.expect.AcceptsValues(entries, vals, nil)
}

// findEntry returns entry number n of document doc's reference list, from
// the retrieved chunks, as the units to quote: its line and the lines after
// it up to the next entry, and, for an entry a page break cut at the end of
// its chunk, the lines that open the list's next chunk up to its first
// entry, when that chunk was retrieved too (each part cites its own
// chunk).
func findEntry(chunks []store.Chunk, doc, n string) ([]candidate, bool) {
	for i, ch := range chunks {
		if ch.DocID != doc || !ReferenceSection(ch.Section) {
			continue
		}
		var entry []string
		ended := false // another entry follows it in the chunk
		for line := range strings.Lines(ch.Text) {
			line = strings.TrimSpace(line)
			if m := referenceEntry.FindStringSubmatch(line); m != nil {
				if len(entry) > 0 {
					ended = true
					break
				}
				if m[1] == n {
					entry = append(entry, line)
				}
				continue
			}
			if len(entry) > 0 {
				if line == "" {
					ended = true
					break
				}
				entry = append(entry, line)
			}
		}
		if len(entry) == 0 {
			continue
		}
		text := strings.Join(entry, " ")
		out := []candidate{{unit: unit{chunk: i, docID: doc, kind: kindSentence, text: text}, quote: text}}
		if !ended {
			if j, rest := continuation(chunks, ch); rest != "" {
				out = append(out, candidate{unit: unit{chunk: j, docID: doc, kind: kindSentence, text: rest}, quote: rest})
			}
		}
		return out, true
	}
	return nil, false
}
