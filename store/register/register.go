// Package register answers document status questions ("which revision of
// 277-007-D-C-40327 is current?") from the index's catalog, with a fuzzy
// match on document number and title. It never uses an LLM.
package register

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode"

	"github.com/cewhq/cew/store"
)

// Revision is an older (or withdrawn) revision of a document.
type Revision struct {
	Revision  string    `json:"revision"`
	Status    string    `json:"status"`
	Date      string    `json:"date"`
	DriveLink string    `json:"drive_link"`
	IndexedAt time.Time `json:"indexed_at"`
}

// Entry is one document as the register shows it: its current revision and
// the revisions it superseded.
type Entry struct {
	DocID     string    `json:"doc_id"`
	Number    string    `json:"number"`
	Title     string    `json:"title"`
	Revision  string    `json:"revision"`
	Status    string    `json:"status"`
	Date      string    `json:"date"`
	DriveLink string    `json:"drive_link"`
	Pages     int       `json:"pages"`
	Rows      int       `json:"rows"`
	Chunks    int       `json:"chunks"`
	IndexedAt time.Time `json:"indexed_at"`
	// Active is false when every revision is withdrawn; Revision is then
	// the newest one.
	Active     bool       `json:"active"`
	Superseded []Revision `json:"superseded"`
	// Score is the match quality in [0,1] (1 for an exact number).
	Score float64 `json:"-"`
}

// minScore keeps loose fuzzy matches out: below it a title shares too little
// with the query to be what the user meant.
const minScore = 0.3

// Lookup finds documents whose number or title matches query, best first.
// An empty query lists every document ordered by number. An exact number
// match returns that document alone.
func Lookup(ctx context.Context, cat store.Catalog, tenant, query string) ([]Entry, error) {
	docs, err := cat.Documents(ctx, tenant)
	if err != nil {
		return nil, fmt.Errorf("register: %w", err)
	}
	entries := group(docs)
	query = strings.TrimSpace(query)
	if query == "" {
		return entries, nil
	}
	var out []Entry
	for _, e := range entries {
		e.Score = match(query, e)
		if e.Score == 1 {
			return []Entry{e}, nil
		}
		if e.Score >= minScore {
			out = append(out, e)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Score > out[j].Score })
	return out, nil
}

// group folds revisions into one entry per document, ordered by number.
func group(docs []store.Document) []Entry {
	byID := map[string][]store.Document{}
	var ids []string
	for _, d := range docs {
		if _, ok := byID[d.ID]; !ok {
			ids = append(ids, d.ID)
		}
		byID[d.ID] = append(byID[d.ID], d)
	}
	entries := make([]Entry, 0, len(ids))
	for _, id := range ids {
		revs := byID[id]
		sort.Slice(revs, func(i, j int) bool { return store.CompareRevisions(revs[i].Revision, revs[j].Revision) > 0 })
		cur := revs[0]
		for _, r := range revs {
			if r.Active {
				cur = r
				break
			}
		}
		e := Entry{
			DocID: cur.ID, Number: cur.Number, Title: cur.Title, Revision: cur.Revision, Status: cur.Status,
			Date: cur.Date, DriveLink: cur.DriveLink, Pages: cur.Pages, Rows: cur.Rows, Chunks: cur.Chunks,
			IndexedAt: cur.IndexedAt, Active: cur.Active, Superseded: []Revision{},
		}
		for _, r := range revs {
			if r.Revision == cur.Revision {
				continue
			}
			e.Superseded = append(e.Superseded, Revision{Revision: r.Revision, Status: r.Status, Date: r.Date, DriveLink: r.DriveLink, IndexedAt: r.IndexedAt})
		}
		entries = append(entries, e)
	}
	sort.SliceStable(entries, func(i, j int) bool { return strings.ToLower(entries[i].Number) < strings.ToLower(entries[j].Number) })
	return entries
}

// match scores how well query names the document: 1 for the exact number,
// high for a number fragment, otherwise word coverage of the title blended
// with character-trigram similarity, which forgives typos.
func match(query string, e Entry) float64 {
	q := compact(query)
	num := compact(e.Number)
	if q == "" {
		return 0
	}
	if q == num {
		return 1
	}
	if len(q) >= 4 && strings.Contains(num, q) {
		return 0.9
	}
	if !numbersAgree(query, e) {
		return 0
	}
	qWords := words(query)
	text := words(e.Title + " " + e.Number)
	have := map[string]bool{}
	for _, w := range text {
		have[w] = true
	}
	hit := 0
	for _, w := range qWords {
		if have[w] {
			hit++
		}
	}
	coverage := 0.0
	if len(qWords) > 0 {
		coverage = float64(hit) / float64(len(qWords))
	}
	sim := max(trigramSimilarity(q, num), trigramSimilarity(q, compact(e.Title)))
	return 0.85 * max(coverage, sim)
}

// numbersAgree reports whether every number the query names is one the
// document carries in its number, title or date, alone or as the digits of
// a code: "PVWatts Version 1 (NREL/TP-6A20-60272)" names another document
// than "PVWatts Version 5 Manual", however many title words they share. A
// mistyped number is therefore no match: a register answer about another
// document is worse than none. The value after "rev" or "revision" asks
// which revision, and an ordinal ("2nd") counts, so neither is part of the
// name.
func numbersAgree(query string, e Entry) bool {
	have := map[string]bool{}
	for _, w := range fields(e.Title + " " + e.Number + " " + e.Date) {
		have[w] = true
		for _, run := range digitRun.FindAllString(w, -1) {
			have[run] = true // "Task 13" names the "T13" document
		}
	}
	q := fields(query)
	for i, w := range q {
		runs := digitRun.FindAllString(w, -1)
		if len(runs) == 0 || have[w] || !slices.ContainsFunc(runs, func(r string) bool { return !have[r] }) {
			continue
		}
		if i > 0 && (q[i-1] == "rev" || q[i-1] == "revision") || ordinal.MatchString(w) {
			continue
		}
		return false
	}
	return true
}

var (
	digitRun = regexp.MustCompile(`[0-9]+`)
	ordinal  = regexp.MustCompile(`^[0-9]+(?:st|nd|rd|th)$`)
)

// fields splits s into lower-case runs of letters and digits.
func fields(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

// compact lower-cases and keeps letters and digits only, so "277 007 D-C"
// and "277-007-d-c" compare equal.
func compact(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func words(s string) []string {
	var out []string
	for _, w := range fields(s) {
		if len(w) > 1 && !ignorable[w] {
			out = append(out, w)
		}
	}
	return out
}

// ignorable are words a status query carries that never name a document.
var ignorable = map[string]bool{
	"the": true, "of": true, "for": true, "and": true, "rev": true, "revision": true, "status": true,
	"latest": true, "current": true, "document": true, "doc": true, "drawing": true, "what": true, "is": true,
	"which": true, "whats": true, "on": true, "in": true, "to": true, "a": true,
}

func trigramSimilarity(a, b string) float64 {
	ta, tb := trigrams(a), trigrams(b)
	if len(ta) == 0 || len(tb) == 0 {
		return 0
	}
	inter := 0
	for t := range ta {
		if tb[t] {
			inter++
		}
	}
	return float64(inter) / float64(len(ta)+len(tb)-inter)
}

func trigrams(s string) map[string]bool {
	r := []rune(s)
	out := map[string]bool{}
	for i := 0; i+3 <= len(r); i++ {
		out[string(r[i:i+3])] = true
	}
	return out
}
