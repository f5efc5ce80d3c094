package ingest

import (
	"math"
	"slices"
	"strings"
	"unicode"
)

// Tables whose rows wrap. A table's cells are told apart by the gaps
// between words (see newLine), which works for a table of one line per
// row. When a cell wraps onto more lines, its next lines hold only some of
// the row's cells, and a wide cell can run close enough to the next one to
// close the gap ("Modified to utilize a gridded 40 km Monthly 40-km
// gridded ir-" is a description and a weather cell in Table 1 of the
// PVWatts manual). Under a caption ("Table 1. Version History") and a
// header line of short labels, the header gives where each column starts:
// every word goes to the column it starts in, a line with a word in the
// first column starts a row, and the lines below it until the next such
// line continue its cells. The row becomes one table line: "V1 | Original
// online calculator. | 239 TMY2 sites. Added 360 international sites in
// 2005. | 1998 | Retiring in 2014".
//
// A header whose labels stand on two lines ("Scenario" over "number" in the
// IEA study's scenario table) gives its columns the same way once the rows
// below confirm them: a column starts where a word of the upper line starts
// and most rows have a word too. Its two lines become one header line
// ("Scenario number | Scenario name | GCR* | …"), and its rows are rebuilt
// under it, also where the gaps ran cells together ("Ref-A 0.4 0.2 1.5 m").
// A table goes on at the top of the next page.
//
// The rebuild is cautious: a table of one line per row is left as the gaps
// read it; a row that leaves a column empty (a group label such as
// "Advanced inputs") keeps its lines as they are; a word that runs across
// the start of the next column, a line reaching left of the first column or
// a wide vertical gap ends the table there.

// Thresholds of the rebuild, in line heights.
const (
	// columnSlack is how far left of a header label a column's words may
	// start.
	columnSlack = 0.5
	// rowGap is the largest vertical gap between two lines of one table.
	rowGap = 0.8
	// maxLabelWords is the most words a header label has.
	maxLabelWords = 4
)

// joinWrappedRows rebuilds the tables whose rows wrap, and those whose
// header labels stand on two lines; see above.
func joinWrappedRows(lines []docLine) []docLine {
	out := make([]docLine, 0, len(lines))
	for i := 0; i < len(lines); i++ {
		if starts, ok := tableHeader(lines, i); ok {
			end := tableEnd(lines, i+1, starts[0])
			if rows, used, wrapped := wrappedRows(lines[i+1:end], starts); wrapped {
				out = append(out, lines[i])
				out = append(out, rows...)
				i += used
				continue
			}
		}
		if starts, ok := stackedHeader(lines, i); ok {
			end := tableEnd(lines, i+2, starts[0])
			header, fits := joinLabels(lines[i:i+2], starts)
			if rows, used, _ := wrappedRows(lines[i+2:end], starts); fits && used > 0 {
				out = append(out, header)
				out = append(out, rows...)
				i += used + 1
				continue
			}
		}
		out = append(out, lines[i])
	}
	return out
}

// stackedHeader returns where the columns of a table start when its
// header labels stand on two lines, each word of the lower line under a
// word of the upper one ("Scenario Scenario GCR* Albedo Hub Configuration
// Ground" over "number name Height surface" in the IEA study): the upper
// line's words that most rows of the body have a word under. It takes
// three columns at least, confirmed by two rows at least.
func stackedHeader(lines []docLine, i int) ([]float64, bool) {
	if i+2 >= len(lines) {
		return nil, false
	}
	top, bottom := lines[i], lines[i+1]
	if top.kind != kindTableRow || bottom.page != top.page || !labelLine(top) || !labelLine(bottom) {
		return nil, false
	}
	slack := columnSlack * top.size
	var cands []float64
	for _, c := range top.cells {
		for _, w := range c {
			cands = append(cands, w.x0)
		}
	}
	for _, c := range bottom.cells {
		if !slices.ContainsFunc(cands, func(x float64) bool { return math.Abs(x-c[0].x0) <= slack }) {
			return nil, false
		}
	}
	end := tableEnd(lines, i+2, cands[0])
	var rows []docLine
	for _, l := range lines[i+2 : end] {
		if startsAt(l, cands[0], slack) {
			rows = append(rows, l)
		}
	}
	if len(rows) < 2 {
		return nil, false
	}
	var starts []float64
	for _, x := range cands {
		n := 0
		for _, r := range rows {
			if startsAt(r, x, slack) {
				n++
			}
		}
		if 2*n >= len(rows) {
			starts = append(starts, x)
		}
	}
	return starts, len(starts) >= 3 && starts[0] == cands[0]
}

// labelLine reports whether a line reads as header labels: words with a
// letter and no digit.
func labelLine(l docLine) bool {
	for _, c := range l.cells {
		for _, w := range c {
			if !strings.ContainsFunc(w.text, unicode.IsLetter) || strings.ContainsFunc(w.text, unicode.IsDigit) {
				return false
			}
		}
	}
	return true
}

// startsAt reports whether a word of l starts at x, give or take slack.
func startsAt(l docLine, x, slack float64) bool {
	return slices.ContainsFunc(l.cells, func(c []word) bool {
		return slices.ContainsFunc(c, func(w word) bool { return math.Abs(w.x0-x) <= slack })
	})
}

// joinLabels makes a header of two lines one table line, each column's
// label its words from both lines ("Hub Height"); fits is false when a
// word runs across a column's start or a column has no label.
func joinLabels(lines []docLine, starts []float64) (docLine, bool) {
	split := make([][][]word, len(lines))
	for j, l := range lines {
		cols, fits := intoColumns(l, starts)
		if !fits {
			return docLine{}, false
		}
		split[j] = cols
	}
	joined := joinRow(lines, split)
	return joined[0], len(joined) == 1
}

// tableHeader returns where the columns of the table headed by lines[i]
// start: a table line of three labels or more right under a caption, each
// label a few words with a letter and no "=" (an equation is no header).
func tableHeader(lines []docLine, i int) ([]float64, bool) {
	l := lines[i]
	if i == 0 || l.kind != kindTableRow || len(l.cells) < 3 {
		return nil, false
	}
	if prev := lines[i-1]; prev.kind != kindCaption || prev.page != l.page {
		return nil, false
	}
	starts := make([]float64, len(l.cells))
	for k, c := range l.cells {
		text := cellText(c)
		if len(c) > maxLabelWords || !strings.ContainsFunc(text, unicode.IsLetter) || strings.Contains(text, "=") {
			return nil, false
		}
		starts[k] = c[0].x0
	}
	return starts, true
}

// tableEnd returns the index after the last line of a table whose body
// starts at lines[from] and whose first column starts at x: the lines
// below on the same page, table rows or text, up to a heading or caption, a
// line reaching left of the first column, or a wide gap. A table goes on
// at the top of the next page (the IEA scenario table's rows 5 to 7).
func tableEnd(lines []docLine, from int, x float64) int {
	j := from
	for ; j < len(lines); j++ {
		l, prev := lines[j], lines[j-1]
		nextPage := l.page == prev.page+1
		if l.page != prev.page && !nextPage || l.kind != kindTableRow && l.kind != kindProse || l.vertical ||
			l.x0 < x-columnSlack*l.size || !nextPage && l.top-prev.bottom > rowGap*l.size {
			break
		}
	}
	return j
}

// wrappedRows rebuilds the lines under a table's header into one line per
// row, up to the first line that does not fit the header's columns (a word
// across a column's start), where the table ends: used is how many lines
// of body the rows take, and wrapped reports that a row spans lines. used
// is 0 when the first line starts no row.
func wrappedRows(body []docLine, starts []float64) (rows []docLine, used int, wrapped bool) {
	var split [][][]word
	for _, l := range body {
		cols, ok := intoColumns(l, starts)
		if !ok {
			break
		}
		split = append(split, cols)
	}
	if len(split) == 0 || len(split[0][0]) == 0 {
		return nil, 0, false
	}
	for j := 0; j < len(split); {
		next := j + 1
		for next < len(split) && len(split[next][0]) == 0 {
			next++
		}
		wrapped = wrapped || next > j+1
		rows = append(rows, joinRow(body[j:next], split[j:next])...)
		j = next
	}
	return rows, len(split), wrapped
}

// intoColumns puts each word of l in the column it starts in; fits is
// false when a word runs across the start of the next column.
func intoColumns(l docLine, starts []float64) (cols [][]word, fits bool) {
	cols = make([][]word, len(starts))
	slack := columnSlack * l.size
	for _, c := range l.cells {
		for _, w := range c {
			k := 0
			for k+1 < len(starts) && w.x0 >= starts[k+1]-slack {
				k++
			}
			if k+1 < len(starts) && w.x1 > starts[k+1]+slack {
				return nil, false
			}
			cols[k] = append(cols[k], w)
		}
	}
	return cols, true
}

// softHyphen ends a word the document hyphenated itself ("ir\u00ad" over
// "radiance").
const softHyphen = "\u00ad"

// joinRow makes the lines of one row a single table line, each cell's
// words in reading order and a word hyphenated at a line end joined to its
// rest (keeping a real hyphen, see keepHyphen). A row that leaves a column
// empty keeps its lines.
func joinRow(lines []docLine, split [][][]word) []docLine {
	cells := make([][]word, len(split[0]))
	for _, cols := range split {
		for k, ws := range cols {
			for _, w := range ws {
				if n := len(cells[k]); n > 0 && (cells[k][n-1].hyphen || strings.HasSuffix(cells[k][n-1].text, softHyphen)) {
					last := cells[k][n-1]
					if last.hyphen && keepHyphen(last.text, w.text) {
						last.text += "-"
					}
					last.text = strings.TrimSuffix(last.text, softHyphen) + w.text
					last.x1, last.hyphen = w.x1, w.hyphen
					cells[k][n-1] = last
					continue
				}
				cells[k] = append(cells[k], w)
			}
		}
	}
	if slices.ContainsFunc(cells, func(c []word) bool { return len(c) == 0 }) {
		return lines
	}
	row := lines[0]
	row.kind = kindTableRow
	row.cells = cells
	for _, l := range lines[1:] {
		row.top, row.bottom = min(row.top, l.top), max(row.bottom, l.bottom)
		row.x0, row.x1 = min(row.x0, l.x0), max(row.x1, l.x1)
	}
	return []docLine{row}
}
