package ingest

import (
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
	rowGap = 1.5
	// maxLabelWords is the most words a header label has.
	maxLabelWords = 4
)

// joinWrappedRows rebuilds the tables whose rows wrap; see above.
func joinWrappedRows(lines []docLine) []docLine {
	out := make([]docLine, 0, len(lines))
	for i := 0; i < len(lines); i++ {
		out = append(out, lines[i])
		starts, ok := tableHeader(lines, i)
		if !ok {
			continue
		}
		end := tableEnd(lines, i, starts)
		rows, ok := wrappedRows(lines[i+1:end], starts)
		if !ok {
			continue
		}
		out = append(out, rows...)
		i = end - 1
	}
	return out
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

// tableEnd returns the index after the last line of the table whose header
// is lines[h]: the lines below it on the same page, table rows or text, up
// to a heading or caption, a line reaching left of the first column, or a
// wide gap.
func tableEnd(lines []docLine, h int, starts []float64) int {
	j := h + 1
	for ; j < len(lines); j++ {
		l, prev := lines[j], lines[j-1]
		if l.page != prev.page || l.kind != kindTableRow && l.kind != kindProse || l.vertical ||
			l.x0 < starts[0]-columnSlack*l.size || l.top-prev.bottom > rowGap*l.size {
			break
		}
	}
	return j
}

// wrappedRows rebuilds body, the lines under a table's header, into one
// line per row; ok is false when the table is not one whose rows wrap, or
// does not fit its header's columns.
func wrappedRows(body []docLine, starts []float64) (rows []docLine, ok bool) {
	if len(body) == 0 {
		return nil, false
	}
	split := make([][][]word, len(body))
	for j, l := range body {
		cols, fits := intoColumns(l, starts)
		if !fits {
			return nil, false
		}
		split[j] = cols
	}
	if len(split[0][0]) == 0 {
		return nil, false // the first line starts no row
	}
	wrapped := false
	for j := 0; j < len(body); {
		next := j + 1
		for next < len(body) && len(split[next][0]) == 0 {
			next++
		}
		wrapped = wrapped || next > j+1
		rows = append(rows, joinRow(body[j:next], split[j:next])...)
		j = next
	}
	return rows, wrapped
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
// rest (keeping a real hyphen, see keepHyphen). A row that leaves a column empty keeps its lines.
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
	if len(lines) == 1 || slices.ContainsFunc(cells, func(c []word) bool { return len(c) == 0 }) {
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
