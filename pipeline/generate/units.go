package generate

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/cewhq/cew/pipeline/guard"
	"github.com/cewhq/cew/store"
	"github.com/cewhq/cew/store/analysis"
)

// unitKind is the shape of a quotable unit.
type unitKind uint8

const (
	// kindSentence is a sentence of prose.
	kindSentence unitKind = iota
	// kindRow is one line of a table in a page ("Soiling | 2% | 0.95").
	kindRow
	// kindRecord is one spreadsheet row ("Name: …; Paco: 250; …").
	kindRecord
)

// unit is the smallest piece of a chunk the extractive generator quotes.
// Its text is the chunk's own text with runs of white space (line breaks
// included) written as one space, so every word of it is the chunk's.
type unit struct {
	chunk int
	// docID is the chunk's document, to tell rows of one table from rows
	// of another.
	docID string
	// note is set for a sentence of a table's footnote, a paragraph that
	// opens with "*": it speaks of the rows marked (see footnoteRows).
	note bool
	// entry marks an entry of a reference list the question names by
	// number (see namedEntries): the only kind of reference-list unit
	// that may answer.
	entry bool
	kind  unitKind
	text  string
	// header is the header line of the table a row belongs to, quoted
	// before the row so the reader knows what the columns are.
	header string
	// fields are a record's "name: value" cells and sep what joins them.
	fields []string
	sep    string
	// prev is the sentence before a sentence that opens by referring back
	// to it ("He appointed…", "This value…"): quoted first, so the answer
	// names who or what the pronoun stands for.
	prev string
	// asks is set for a sentence that is itself a question: documents ask
	// questions ("Does your activity disturb one acre?") that are never
	// the answer to one.
	asks bool
	// before is the sentence before this one in its paragraph: its words
	// frame this one ("For a roof mount system, … The estimate is for
	// INOCT to be roughly 49 °C") but are not quoted.
	before string
	// next is the sentence after this one in its paragraph, quoted after
	// it when it says whom to turn to and this one names no one (see
	// refersOn).
	next string
	// lead is the sentence a list opens with ("… you have the option to
	// just run the following 6 days:"), for each item of the list: like a
	// header, it says what the items are, and is not quoted.
	lead string
	// isHeader marks a table's header line.
	isHeader bool
	// carried marks a header taken from the chunk before (see
	// carryHeaders): it helps match the row, but the row is quoted
	// without it, since its chunk does not hold it.
	carried bool
	// unseen marks a carried header from a chunk read for it alone
	// (Request.Before), which the reader was not given to answer from: it
	// says what the row's cells are, so a row it names another quantity of
	// is dropped, but its words credit the row with nothing.
	unseen bool
	// wrapped marks a table row that took in the rest of a cell wrapped
	// onto the next line (see wrapsRow).
	wrapped bool
	// pos is the unit's place in its chunk.
	pos int
	// title marks the first line of a document's title page, read for a
	// question about the document itself (see readImprintPages): it names
	// the document and answers nothing about it. imprint marks the lines
	// that say something of the document (under its title, or at the end
	// of its back page), byline the line of names right under the title
	// and back the lines of the back page.
	title, imprint, byline, back bool
}

// tableCellSep is how the PDF and Markdown parsers write table cells on a
// line.
const tableCellSep = " | "

// recordSep joins the cells of a spreadsheet row (see ingest's sheet reader).
const recordSep = "; "

// rowShape counts what a table line holds: numbers, content words, and
// decimal fractions among the numbers; opens is set when a number comes
// first.
type rowShape struct {
	numbers, words, fractions int
	opens                     bool
}

func shapeOfRow(line string) rowShape {
	var s rowShape
	for i, t := range analysis.Tokens(line) {
		switch t.Kind {
		case analysis.Number:
			s.numbers++
			if strings.Contains(t.Text, ".") {
				s.fractions++
			}
			s.opens = s.opens || i == 0
		case analysis.Word:
			if !analysis.IsStopword(t.Text) {
				s.words++
			}
		}
	}
	return s
}

// dataRow reports whether a table line holds more numbers than words, or
// two decimal fractions: a row of values, not a header of column names
// (which may name years, but seldom "0.4" and "3.5").
func dataRow(line string) bool {
	s := shapeOfRow(line)
	return s.numbers > s.words || s.fractions >= 2
}

// splitUnits cuts a chunk into units: a spreadsheet row is one record;
// otherwise table lines are rows and the rest is prose, joined across line
// breaks into paragraphs and cut into sentences.
func splitUnits(idx int, c store.Chunk) []unit {
	if c.Sheet != "" || c.Row > 0 {
		text := oneLine(c.Text)
		if text == "" {
			return nil
		}
		u := unit{chunk: idx, docID: c.DocID, kind: kindRecord, text: text}
		for _, sep := range []string{recordSep, tableCellSep} {
			if parts := strings.Split(text, sep); len(parts) > 1 {
				u.fields, u.sep = parts, sep
				break
			}
		}
		return []unit{u}
	}

	var (
		units  []unit
		para   []string
		header string // header of the table being read, "" outside tables
		inRows bool
		lead   string // the sentence that opens the list being read
	)
	flush := func() {
		if len(para) == 0 {
			return
		}
		item := startsItem(para[0])
		if !item {
			lead = ""
		}
		prev := ""
		note := strings.HasPrefix(strings.TrimSpace(para[0]), "*")
		for _, s := range sentences(oneLine(strings.Join(para, " "))) {
			u := unit{chunk: idx, kind: kindSentence, text: s, asks: strings.HasSuffix(s, "?"), before: prev, note: note}
			if refersBack(s) {
				u.prev = prev
			}
			if item {
				u.lead = lead
			}
			if prev != "" {
				units[len(units)-1].next = s
			}
			u.pos = len(units)
			units = append(units, u)
			prev = s
		}
		if strings.HasSuffix(prev, ":") {
			lead = prev
		}
		para = para[:0]
	}
	lines := strings.Split(c.Text, "\n")
	for i, raw := range lines {
		line := oneLine(raw)
		switch {
		case line == "":
			flush()
			inRows, header = false, ""
		case inRows && wrapsRow(units, line, nextLine(lines, i)):
			// "Backtracked 1-Axis, 2-Axis" under "Array type | Fixed open
			// rack, Fixed roof mount, 1-Axis, | …": a cell that wrapped
			// onto the next line goes on the row it belongs to.
			units[len(units)-1].text += " " + line
			units[len(units)-1].wrapped = true
		case strings.Contains(line, tableCellSep) || strings.HasPrefix(line, "|"):
			flush()
			lead = "" // a table ends the list before it
			if !hasAlnum(line) {
				continue // a Markdown rule such as |---|---|
			}
			if !inRows {
				inRows, header = true, line
				if dataRow(line) {
					// A chunk that starts inside a table without its
					// header: its first row names no column.
					header = ""
				}
			}
			u := unit{chunk: idx, kind: kindRow, text: line, isHeader: header != "" && line == header}
			if header != "" && line != header {
				if headerGoesOn(units, line, lines[i+1:]) {
					// "Scenario Scenario GCR* Albedo Hub | …" over
					// "number | name | Height | surface": the header's
					// second line. Its rows stand under both.
					u.isHeader = true
					header += tableCellSep + line
				} else {
					u.header = header
				}
			}
			u.pos = len(units)
			units = append(units, u)
		default:
			next := nextLine(lines, i)
			if inRows && header != "" && lostCells(line) {
				// "1 Ref-A 0.4 0.2 1.5 m 1-Up portrait Horizontal" between
				// a header and "2 | A1 | 0.25 0.2 1.5 m …": a row whose
				// cell marks the PDF reader lost.
				units = append(units, unit{chunk: idx, kind: kindRow, text: line, header: header, pos: len(units)})
				continue
			}
			if inRows && continuesTable(header, next) {
				// A cell wrapped onto a line of its own ("Backtracked
				// 1-Axis, 2-Axis" under "Array type | Fixed open rack,
				// …"): the table goes on under the same header.
				units = append(units, unit{chunk: idx, kind: kindSentence, text: line, pos: len(units)})
				continue
			}
			inRows, header = false, ""
			isHeading := heading(line, para, next)
			if isHeading || startsItem(line) || itemEnds(para, line) {
				flush()
			}
			para = append(para, line)
			if isHeading {
				flush()
			}
		}
	}
	flush()
	return units
}

// wrapsRow reports whether a line inside a table is the rest of the row
// before it rather than a row of its own:
//   - a line of cells that goes on in lower case ("monthly weather data in
//     the continen | …"), as no row's label starts;
//   - a line without cells in lower case between that row and the next
//     ("grade* down to the SW" between the A5 and Ref-B rows);
//   - a line without cells right after a row that ends in a word broken by
//     a hyphen ("180° in northern hemi-") or holds a cell that ends with a
//     comma ("Fixed open rack, Fixed roof mount, 1-Axis,").
//
// A row takes in one line without cells at most.
func wrapsRow(units []unit, line, next string) bool {
	if len(units) == 0 {
		return false
	}
	last := units[len(units)-1]
	if last.kind != kindRow || last.isHeader {
		return false
	}
	r, _ := utf8.DecodeRuneInString(line)
	lower := unicode.IsLower(r)
	if strings.Contains(line, tableCellSep) {
		return lower
	}
	if last.wrapped {
		return false
	}
	if lower && strings.Contains(next, tableCellSep) {
		return true
	}
	if last.header == "" {
		return false
	}
	if strings.HasSuffix(last.text, "-") || strings.HasSuffix(last.text, ",") {
		return true
	}
	for _, cell := range splitCells(last.text) {
		if strings.HasSuffix(strings.TrimSpace(cell), ",") {
			return true
		}
	}
	return false
}

// nextLine is the line after lines[i], on one line, or "".
func nextLine(lines []string, i int) string {
	if i+1 < len(lines) {
		return oneLine(lines[i+1])
	}
	return ""
}

// continuesTable reports whether next is a row of the table under header:
// it has as many cells.
func continuesTable(header, next string) bool {
	return strings.Contains(next, tableCellSep) && len(splitCells(next)) == len(splitCells(header))
}

// itemEnds reports whether a list item, which often ends without a period,
// has ended before line: the item's last line ends with a number or a word
// and line starts a new sentence with a capital ("2. Multiply … = 0.825" then
// "This suggests …").
func itemEnds(para []string, line string) bool {
	if len(para) == 0 || !startsItem(para[0]) {
		return false
	}
	last := para[len(para)-1]
	if endsWithStop(last) || strings.HasSuffix(last, ",") {
		return false
	}
	r, _ := utf8.DecodeRuneInString(line)
	if !unicode.IsUpper(r) {
		return false
	}
	lr, _ := utf8.DecodeLastRuneInString(last)
	if unicode.IsDigit(lr) {
		return true
	}
	// "… calculated by" + "PVWatts …" is one sentence wrapped.
	words := strings.Fields(last)
	return unicode.IsLetter(lr) && !analysis.IsStopword(strings.ToLower(words[len(words)-1]))
}

// refersBack reports whether a sentence opens with a pronoun or a
// demonstrative that points at the sentence before.
func refersBack(s string) bool {
	first, rest, _ := strings.Cut(s, " ")
	first = strings.ToLower(strings.TrimRight(first, ",;:"))
	if first == "if" {
		// "Do you disturb one or more acres? If so, you may have to …":
		// the answer to the question before is the condition.
		second, _, _ := strings.Cut(rest, " ")
		return conditionReplies[strings.ToLower(strings.TrimRight(second, ",;:"))]
	}
	if first == "go" && strings.HasPrefix(strings.ToLower(rest), "to ") {
		// "… runs a topic hub for residential construction. Go to
		// www.p2rx.org/…": where to go for what the sentence before
		// names.
		return true
	}
	return anaphora[first]
}

// conditionReplies follow "if" in a sentence that answers the question
// before it: "If so", "If yes", "If not".
var conditionReplies = map[string]bool{"so": true, "yes": true, "not": true}

var anaphora = map[string]bool{
	"he": true, "she": true, "it": true, "they": true, "his": true, "her": true, "its": true,
	"their": true, "this": true, "these": true, "those": true, "such": true, "there": true,
}

// heading reports whether a line stands alone as a heading: short, capital
// first, without closing punctuation or a dangling function word, followed
// by a line that starts a sentence, and not the continuation of an open
// sentence.
func heading(line string, para []string, next string) bool {
	if len(para) > 0 && !endsWithStop(para[len(para)-1]) {
		return false
	}
	words := strings.Fields(line)
	if len(words) == 0 || len(words) > 12 || endsWithStop(line) || strings.HasSuffix(line, ",") {
		return false
	}
	r, _ := utf8.DecodeRuneInString(line)
	n, _ := utf8.DecodeRuneInString(next)
	if unicode.IsLower(r) || next == "" || unicode.IsLower(n) {
		return false
	}
	return !analysis.IsStopword(strings.ToLower(strings.Trim(words[len(words)-1], ",;:")))
}

func endsWithStop(s string) bool {
	s = strings.TrimRight(s, `"')]”’`)
	return strings.HasSuffix(s, ".") || strings.HasSuffix(s, "?") || strings.HasSuffix(s, "!") || strings.HasSuffix(s, ":") || strings.HasSuffix(s, ";")
}

// startsItem reports whether a line starts a list item.
func startsItem(line string) bool {
	r, size := utf8.DecodeRuneInString(line)
	switch r {
	case '•', '▪', '◦', '■', '□', '●', '*':
		return true
	case '–', '—', '-':
		// A dash bullet is followed by a space; "-0.5%/°C" is a number
		// wrapped onto its own line.
		return strings.HasPrefix(line[size:], " ")
	}
	if r == 'o' && strings.HasPrefix(line[size:], " ") {
		return true // the "o" bullet of PDFs typed in word processors
	}
	// "1. ", "12) ", "a) " at the start of a line.
	digits := 0
	for digits < len(line) && digits < 3 && line[digits] >= '0' && line[digits] <= '9' {
		digits++
	}
	j := digits
	if j == 0 && line[0] >= 'a' && line[0] <= 'z' {
		j = 1
	}
	if j == 0 || j+1 >= len(line) || line[j+1] != ' ' {
		return false
	}
	return line[j] == ')' || line[j] == '.' && digits > 0
}

// sentences cuts a paragraph into sentences with the post-guard's own
// splitter, so a quote it accepts as one sentence is one sentence there too.
func sentences(p string) []string { return guard.SplitLine(p) }

// oneLine writes every run of white space as one space and trims the ends.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// headerGoesOn reports whether a table line is the second line of a header
// that the PDF reader split in two: it comes right after the header line,
// holds no digit, and the line after it does (the first data row).
func headerGoesOn(units []unit, line string, rest []string) bool {
	if len(units) == 0 || !units[len(units)-1].isHeader || hasDigit(line) {
		return false
	}
	return len(rest) > 0 && hasDigit(rest[0])
}

// lostCells reports whether a line reads as a table row without its cell
// marks: it opens with a number and holds at least three.
func lostCells(line string) bool {
	s := shapeOfRow(line)
	return s.opens && s.numbers >= 3
}

func hasAlnum(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0
}
