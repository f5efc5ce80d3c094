package generate

import (
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/cewhq/cew/pipeline/guard"
	"github.com/cewhq/cew/store"
	"github.com/cewhq/cew/store/analysis"
)

// A table's footnote says what its marked cells work out to for some of
// its rows ("* A GCR of 0.4 … corresponds to a pitch of 5.96m. … For a
// 2-Up portrait system with a GCR of 0.4 the pitch is 11.92m."). A
// question about a row the footnote does not name ("row pitch for
// scenario 7") is answered by the footnote's sentence that fits the row:
// one that names no case the row contrasts with (not "2-Up" for a 1-Up
// row) and states no other value for a column of the row (not "a GCR of
// 0.25" for a row whose GCR is 0.4). The fitting sentence is read as if it
// named the row; when one names the row's own case ("2-Up portrait"), it
// alone speaks of the row, and the general ones ("A GCR of 0.4 … 5.96m")
// do not.

// notedRow is a table row the question names, with what is worked out
// once for the footnote sentences read against it.
type notedRow struct {
	unit
	// named holds the terms that name the row: its first two cells and
	// their headers ("scenario" of "Scenario number").
	named map[string]bool
	// asked counts what the row itself holds of what is asked (asksOfRow).
	asked int
	// cased marks the chunks whose footnote has a sentence that fits the
	// row and names its own case (namesRowCase).
	cased map[int]bool
}

// footnoteRows returns, by document, the table rows the question names by
// their first two cells: "scenario 7" names "7 | Ref-B | …", "a3" names
// "4 | A3 | …".
func footnoteRows(q question, units []unit, chunks []store.Chunk) map[string][]notedRow {
	if !slices.ContainsFunc(units, func(u unit) bool { return u.note }) {
		return nil
	}
	out := map[string][]notedRow{}
	for _, u := range units {
		if u.kind != kindRow || u.header == "" || u.isHeader || !namesRow(q, u) {
			continue
		}
		r := notedRow{unit: u, named: rowNameTerms(u), cased: map[int]bool{}}
		heads := splitCells(u.header)
		maps.Copy(r.named, analysis.TermSet(strings.Join(heads[:min(2, len(heads))], " ")))
		r.asked = asksOfRow(q, r.named, u)
		for _, o := range units {
			if o.note && fitsRow(o.text, u) && namesRowCase(o.text, u) {
				r.cased[o.chunk] = true
			}
		}
		doc := chunks[u.chunk].DocID
		out[doc] = append(out[doc], r)
	}
	return out
}

// namesRow reports whether the question names a row by one of its first
// two cells, whole: "7", "A3", "Ref-B".
func namesRow(q question, u unit) bool {
	cells := splitCells(u.text)
	for _, cell := range cells[:min(2, len(cells))] {
		cell = strings.TrimSpace(cell)
		for _, t := range q.terms {
			if t.lettered != nil && t.lettered.MatchString(cell) || t.lettered == nil && strings.EqualFold(cell, t.term) {
				return true
			}
		}
	}
	return false
}

// rowNameTerms is the terms of a row's first two cells, which name it.
func rowNameTerms(u unit) map[string]bool {
	cells := splitCells(u.text)
	out := analysis.TermSet(strings.Join(cells[:min(2, len(cells))], " "))
	for _, cell := range cells[:min(2, len(cells))] {
		out[strings.ToLower(strings.TrimSpace(cell))] = true // "ref-a" whole
	}
	return out
}

// fitsRow reports whether a footnote's sentence may speak of row r: it
// names no case that r contrasts with, and gives no other number for a
// column of r than r's cell.
func fitsRow(note string, r unit) bool {
	if _, _, bad := guard.SiblingOnly(guard.Qualifiers(r.text), note, ""); bad {
		return false
	}
	heads, cells := splitCells(r.header), splitCells(r.text)
	if len(heads) != len(cells) {
		return true
	}
	for j, h := range heads {
		h = strings.Trim(strings.TrimSpace(h), "*")
		want, err := strconv.ParseFloat(leadingNumber.FindString(strings.TrimSpace(cells[j])), 64)
		if h == "" || strings.Contains(h, " ") || err != nil {
			continue
		}
		for _, m := range columnValue(h).FindAllStringSubmatch(note, -1) {
			if got, err := strconv.ParseFloat(m[1], 64); err == nil && got != want {
				return false
			}
		}
	}
	return true
}

// columnValues caches columnValue's patterns, one per column name.
var columnValues sync.Map // string → *regexp.Regexp

// columnValue matches a number a sentence gives for column h: "GCR of
// 0.25", "GCR = 0.4".
func columnValue(h string) *regexp.Regexp {
	if re, ok := columnValues.Load(h); ok {
		return re.(*regexp.Regexp)
	}
	re := regexp.MustCompile(`(?i)\b` + regexp.QuoteMeta(h) + `\s+(?:of\s+|=\s*|is\s+)?(\d+(?:\.\d+)?)`)
	columnValues.Store(h, re)
	return re
}

// leadingNumber is the number a cell opens with: "0.4", "3.5" of "3.5 m".
var leadingNumber = regexp.MustCompile(`^-?\d+(?:\.\d+)?`)

// namesRowCase reports whether a footnote's sentence names a case row r
// names ("2-Up" of "… | 2-Up portrait | …").
func namesRowCase(note string, r unit) bool {
	asked := guard.Qualifiers(r.text)
	return slices.ContainsFunc(guard.Qualifiers(note), func(c guard.Qualifier) bool {
		return slices.ContainsFunc(asked, func(a guard.Qualifier) bool { return a.Group == c.Group && a.Slot == c.Slot })
	})
}

// speaksOf reports whether footnote sentence u speaks of row r: it fits r,
// it holds more of what the question asks than the row does (the row's
// own cells answer "what is the gcr of scenario a1"), and it names r's
// own case unless no sentence of the footnote that fits r does.
func speaksOf(q question, u unit, r notedRow) bool {
	if !fitsRow(u.text, r.unit) || r.asked >= asksOfRow(q, r.named, u) {
		return false
	}
	return namesRowCase(u.text, r.unit) || !r.cased[u.chunk]
}

// asksOfRow counts the question's words, other than those naming a row
// (name, see notedRow.named) and frame words, that unit v holds (with its
// header): what v says of what is asked about the row.
func asksOfRow(q question, name map[string]bool, v unit) int {
	terms := analysis.TermSet(v.text + "\n" + v.header)
	n := 0
	for _, t := range q.terms {
		if !t.frame && !name[t.term] && terms[t.term] {
			n++
		}
	}
	return n
}
