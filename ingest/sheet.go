package ingest

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"
)

// Spreadsheets become one Block per data row: "Header: value; Header: value"
// with the sheet and the row number a spreadsheet program shows, so a
// citation can say "Parameters, row 618" and the reader finds it.
//
// Real sheets are not clean tables. Title and note rows sit above the header,
// units rows sit below it, and one sheet may hold several small tables, each
// under its own title (see the "Defaults" sheet of the Sandia module
// database). The reader therefore walks the rows with a short look-ahead:
//
//   - the header is the first row that looks like one: at least two short,
//     non-numeric cells filling at least half the table's width, followed by
//     a row of several cells rather than a line of prose (a one-column list
//     is read without a header);
//   - rows directly under the header that hold text where the data below is
//     numeric (units, variable names, sub-headings) are folded into the
//     column names instead of being indexed as data;
//   - after a blank row a new table starts when a header-like row repeats the
//     current header's names or holds text over numeric columns; a one-cell
//     row right above it is the table's title and becomes the Section;
//   - rows before the first header are kept as plain text, since they often
//     carry the sheet's notes and definitions.

const (
	// lookAheadRows is how many rows below a candidate header are examined
	// to judge it.
	lookAheadRows = 20
	// maxExtraHeaderRows bounds the rows folded into the column names.
	maxExtraHeaderRows = 3
	// maxHeaderCell is the longest text a header cell holds; longer cells
	// are prose.
	maxHeaderCell = 80
	// ctxCheckRows is how often (in rows) a long sheet checks for
	// cancellation.
	ctxCheckRows = 256
)

// parseXLSX reads every sheet of a workbook, streaming rows. Merged cells
// carry their value across the merge. Cell values are the text the
// spreadsheet program displays (number formats applied).
func parseXLSX(ctx context.Context, file string) (Parsed, error) {
	name := filepath.Base(file)
	expand := int64(maxUnzipSize)
	if b := budgetFrom(ctx); b != nil && b.lim.MaxExpand > 0 {
		expand = b.lim.MaxExpand
	}
	f, err := openWorkbookLimited(file, expand)
	if err != nil {
		return Parsed{}, fmt.Errorf("ingest: parse %s: %w", name, err)
	}
	defer f.Close()
	merges := workbookMerges(file)
	var blocks []Block
	sheets := f.GetSheetList()
	if len(sheets) == 0 {
		return Parsed{}, fmt.Errorf("ingest: parse %s: %w: workbook lists no sheets", name, ErrCorrupt)
	}
	for _, sheet := range sheets {
		b, err := readXLSXSheet(ctx, f, sheet, merges[sheet])
		if err != nil {
			return Parsed{}, fmt.Errorf("ingest: parse %s: sheet %q: %w", name, sheet, err)
		}
		blocks = append(blocks, b...)
	}
	if len(blocks) == 0 {
		return Parsed{}, fmt.Errorf("ingest: parse %s: %w: no data rows in %d sheet(s)", name, ErrNoText, len(sheets))
	}
	return Parsed{Blocks: blocks, Rows: len(blocks)}, nil
}

func readXLSXSheet(ctx context.Context, f *excelize.File, sheet string, merges []*mergeRange) ([]Block, error) {
	rows, err := f.Rows(sheet)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	defer rows.Close()
	sort.Slice(merges, func(i, j int) bool { return merges[i].firstRow < merges[j].firstRow })
	return readTable(ctx, sheet, &xlsxRows{rows: rows, pending: merges})
}

// mergeRange is a merged cell range (1-based rows, 0-based columns); value
// is the text of its first cell, known once that row has been read.
type mergeRange struct {
	firstRow, lastRow int
	firstCol, lastCol int
	value             string
}

// maxMergeColumns bounds how far a merged range carries its value, so a
// range over a whole row (A1:XFD1) does not become 16,384 cells.
const maxMergeColumns = 256

var mergeRef = regexp.MustCompile(`<(?:[A-Za-z_][\w.-]*:)?mergeCell\s[^>]*?\bref=["']([A-Za-z]{1,3}\d+):([A-Za-z]{1,3}\d+)["']`)

// workbookMerges returns the merged ranges of each worksheet, by sheet name.
// excelize's GetMergeCells unmarshals the whole worksheet into memory (and
// makes the row reader marshal it back), which defeats streaming; the
// ranges sit after the cell data in the sheet XML, so they are read from a
// stream of it directly. Merges only carry values across cells, so a
// package this cannot read yields none and the row reader reports the
// damage.
func workbookMerges(file string) map[string][]*mergeRange {
	zr, err := zip.OpenReader(file)
	if err != nil {
		return nil
	}
	defer zr.Close()
	parts := packageParts(&zr.Reader)
	book := targetOf(parts, "_rels/.rels", "", "/officeDocument", "xl/workbook.xml")
	data, err := readPart(parts, book)
	if err != nil {
		return nil
	}
	var wb struct {
		Sheets []struct {
			Name string `xml:"name,attr"`
			RID  string `xml:"id,attr"`
		} `xml:"sheets>sheet"`
	}
	if xml.Unmarshal(data, &wb) != nil {
		return nil
	}
	targets := map[string]string{}
	for _, rel := range readRels(parts, relsOf(book), path.Dir(book)) {
		targets[rel.ID] = rel.Target
	}
	out := map[string][]*mergeRange{}
	for _, s := range wb.Sheets {
		part, ok := parts[strings.ToLower(targets[s.RID])]
		if !ok {
			continue
		}
		tail, err := afterSheetData(part)
		if err != nil {
			continue
		}
		for _, m := range mergeRef.FindAllSubmatch(tail, -1) {
			c1, r1, err1 := excelize.CellNameToCoordinates(string(m[1]))
			c2, r2, err2 := excelize.CellNameToCoordinates(string(m[2]))
			if err1 != nil || err2 != nil || r2 < r1 || c2 < c1 {
				continue
			}
			c2 = min(c2, c1+maxMergeColumns-1)
			out[s.Name] = append(out[s.Name], &mergeRange{firstRow: r1, lastRow: r2, firstCol: c1 - 1, lastCol: c2 - 1})
		}
	}
	return out
}

// afterSheetData streams a worksheet part and returns what follows the last
// mention of sheetData (the closing tag): the merge list and other sheet
// properties, without holding the cell data in memory.
func afterSheetData(part *zip.File) ([]byte, error) {
	const marker = "sheetData"
	rc, err := part.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	var tail, carry []byte
	found := false
	buf := make([]byte, 64<<10)
	for {
		n, err := rc.Read(buf)
		chunk := append(carry, buf[:n]...)
		// Only the end of the cell data (</sheetData> or <sheetData/>)
		// starts the tail: from the opening tag on, the whole sheet would
		// be kept.
		if i := bytes.LastIndex(chunk, []byte(marker)); i >= 0 && endsSheetData(chunk, i, len(marker)) {
			tail, found = append(tail[:0], chunk[i:]...), true
		} else if found {
			tail = append(tail, buf[:n]...)
		}
		if len(tail) > maxPartSize {
			return nil, fmt.Errorf("%w: worksheet properties beyond %d MB", ErrTooLarge, maxPartSize>>20)
		}
		carry = append(carry[:0], chunk[max(0, len(chunk)-len(marker)+1):]...)
		if errors.Is(err, io.EOF) {
			return tail, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// endsSheetData reports whether the sheetData mention at i closes the cell
// data: a closing tag (</sheetData>, </x:sheetData>) or an empty element.
func endsSheetData(chunk []byte, i, n int) bool {
	if rest := chunk[i+n:]; bytes.HasPrefix(bytes.TrimLeft(rest, " \t\r\n"), []byte("/>")) {
		return true
	}
	for j := i - 1; j >= 0 && j >= i-32; j-- {
		if chunk[j] == '<' {
			return j+1 < len(chunk) && chunk[j+1] == '/'
		}
	}
	return false
}

type xlsxRows struct {
	rows *excelize.Rows
	n    int
	// pending are the merged ranges not reached yet, by first row; active
	// are those covering the current row.
	pending, active []*mergeRange
}

func (x *xlsxRows) next() (sheetRow, bool, error) {
	if !x.rows.Next() {
		if err := x.rows.Error(); err != nil {
			return sheetRow{}, false, fmt.Errorf("%w: %v", ErrCorrupt, err)
		}
		return sheetRow{}, false, nil
	}
	// Rows.Next yields every physical row, blank ones included, so the
	// count is the row number Excel shows.
	x.n++
	cells, err := x.rows.Columns()
	if err != nil {
		return sheetRow{}, false, fmt.Errorf("%w: row %d: %v", ErrCorrupt, x.n, err)
	}
	for len(x.pending) > 0 && x.pending[0].firstRow <= x.n {
		x.active = append(x.active, x.pending[0])
		x.pending = x.pending[1:]
	}
	live := x.active[:0]
	for _, m := range x.active {
		if m.lastRow >= x.n {
			live = append(live, m)
		}
	}
	x.active = live
	var spill []bool
	for _, m := range x.active {
		for len(cells) <= m.lastCol {
			cells = append(cells, "")
		}
		for len(spill) < len(cells) {
			spill = append(spill, false)
		}
		if x.n == m.firstRow {
			// Rows are read top to bottom and cells left to right, so the
			// first cell of a range is read before the cells it fills.
			m.value = cells[m.firstCol]
		}
		for c := m.firstCol; c <= m.lastCol; c++ {
			if (x.n != m.firstRow || c != m.firstCol) && strings.TrimSpace(cells[c]) == "" {
				cells[c] = m.value
				spill[c] = true
			}
		}
	}
	return sheetRow{num: x.n, cells: cells, spill: spill}, true, nil
}

// parseCSV reads a CSV file as one sheet named after the file. The encoding
// is detected as for text files (BOM, UTF-16, else Windows-1252 for invalid
// UTF-8); the delimiter (",", ";" or tab) is sniffed from the first line.
func parseCSV(ctx context.Context, path string) (Parsed, error) {
	name := filepath.Base(path)
	text, err := readTextFile(path)
	if err != nil {
		return Parsed{}, fmt.Errorf("ingest: parse %s: %w", name, err)
	}
	sheet := strings.TrimSuffix(name, filepath.Ext(name))
	maxLine := 0
	if b := budgetFrom(ctx); b != nil {
		maxLine = b.lim.MaxLine
	}
	blocks, err := readTable(ctx, sheet, &csvRows{r: newCSVReaderLimited(text, maxLine)})
	if err != nil {
		return Parsed{}, fmt.Errorf("ingest: parse %s: %w", name, err)
	}
	if len(blocks) == 0 {
		return Parsed{}, fmt.Errorf("ingest: parse %s: %w: no data rows", name, ErrNoText)
	}
	return Parsed{Blocks: blocks, Rows: len(blocks)}, nil
}

// csvRows numbers CSV records the way a spreadsheet program shows them: one
// row per record (a quoted field may span lines) and one per empty line,
// which encoding/csv skips.
type csvRows struct {
	r       *csv.Reader
	n       int // row number of the last row returned
	lastEnd int // input line on which the last record ended
	pending *sheetRow
}

func (c *csvRows) next() (sheetRow, bool, error) {
	if c.pending != nil {
		r := *c.pending
		c.pending = nil
		return r, true, nil
	}
	rec, err := c.r.Read()
	if errors.Is(err, io.EOF) {
		return sheetRow{}, false, nil
	}
	var long *lineTooLong
	if errors.As(err, &long) {
		return sheetRow{}, false, fmt.Errorf("%w: a line after row %d is longer than %s (CEW_MAX_INGEST_MB)", ErrLimit, c.n, byteSize(int64(long.limit)))
	}
	if err != nil {
		return sheetRow{}, false, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	start, _ := c.r.FieldPos(0)
	last := len(rec) - 1
	end, _ := c.r.FieldPos(last)
	end += strings.Count(rec[last], "\n")
	gap := start - c.lastEnd - 1
	c.lastEnd = end
	if gap > 0 {
		// Hand back one blank row for the skipped lines, since a blank row
		// separates tables, then the record at its true row number.
		blank := sheetRow{num: c.n + 1}
		c.n += gap + 1
		c.pending = &sheetRow{num: c.n, cells: rec}
		return blank, true, nil
	}
	c.n++
	return sheetRow{num: c.n, cells: rec}, true, nil
}

// sheetRow is one physical row: its 1-based number and its cell texts.
// spill marks cells whose value was carried from the first cell of a merged
// range; they count as filled for the row's text but not when judging
// whether a row is a title or a header (a title merged across six columns is
// still one cell).
type sheetRow struct {
	num   int
	cells []string
	spill []bool
}

func (r sheetRow) spilled(i int) bool { return i < len(r.spill) && r.spill[i] }

type rowSource interface {
	next() (sheetRow, bool, error)
}

// rowBuffer gives a streaming row source a short look-ahead.
type rowBuffer struct {
	src  rowSource
	buf  []sheetRow
	done bool
	err  error
	// budget counts the cells read; crossing a limit ends the sheet with
	// err.
	budget *budget
}

func (b *rowBuffer) peek(i int) (sheetRow, bool) {
	for len(b.buf) <= i && !b.done {
		r, ok, err := b.src.next()
		if err == nil && ok {
			err = b.budget.row(r.num, len(r.cells))
		}
		if err != nil {
			b.err, b.done = err, true
			break
		}
		if !ok {
			b.done = true
			break
		}
		b.buf = append(b.buf, r)
	}
	if i < len(b.buf) {
		return b.buf[i], true
	}
	return sheetRow{}, false
}

func (b *rowBuffer) take() (sheetRow, bool) {
	r, ok := b.peek(0)
	if ok {
		b.buf = b.buf[1:]
	}
	return r, ok
}

// region returns the rows from look-ahead index from up to the next blank
// row, at most lookAheadRows of them: the rows a header is judged against.
func (b *rowBuffer) region(from int) []sheetRow {
	var out []sheetRow
	for i := from; i < from+lookAheadRows; i++ {
		r, ok := b.peek(i)
		if !ok || blankRow(r) {
			break
		}
		out = append(out, r)
	}
	return out
}

type tableReader struct {
	sheet     string
	rows      *rowBuffer
	names     []string // column names; nil before the first header
	rawHeader []string // the header row as written, to skip repeats of it
	section   string
	blocks    []Block
	budget    *budget
	err       error // a limit crossed: the sheet ends here
}

// readTable turns a sheet's rows into Blocks.
func readTable(ctx context.Context, sheet string, src rowSource) ([]Block, error) {
	lim := budgetFrom(ctx)
	t := &tableReader{sheet: sheet, rows: &rowBuffer{src: src, budget: lim}, budget: lim}
	atStart := true // at the top of the sheet or after a blank row
	for n := 1; ; n++ {
		if n%ctxCheckRows == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		if t.err != nil {
			return nil, t.err
		}
		r, ok := t.rows.take()
		if !ok {
			break
		}
		if blankRow(r) {
			atStart = true
			continue
		}
		if t.names == nil || atStart {
			if titleRow(r) {
				if k, ok := t.headerAfterTitle(); ok {
					var header sheetRow
					for ; k >= 0; k-- {
						header, _ = t.rows.take()
					}
					t.setHeader(header, headerName(firstCell(r)))
					atStart = false
					continue
				}
			}
			if t.startsTable(r, 0) {
				t.setHeader(r, "")
				atStart = false
				continue
			}
		}
		atStart = false
		t.emit(r)
	}
	if t.rows.err != nil {
		return nil, t.rows.err
	}
	return t.blocks, nil
}

// titleGap is how many blank rows may separate a table's title from its
// header.
const titleGap = 2

// headerAfterTitle looks below a title row for the header of a table, past
// at most titleGap blank rows, and returns its look-ahead index.
func (t *tableReader) headerAfterTitle() (int, bool) {
	for k := 0; k <= titleGap; k++ {
		r, ok := t.rows.peek(k)
		if !ok {
			return 0, false
		}
		if blankRow(r) {
			continue
		}
		return k, t.startsTable(r, k+1)
	}
	return 0, false
}

// startsTable reports whether r is the header of a (new) table; the rows
// below r start at look-ahead index below.
func (t *tableReader) startsTable(r sheetRow, below int) bool {
	data := t.rows.region(below)
	_, more := t.rows.peek(below)
	if !headerLike(r, data, !more) {
		return false
	}
	if t.names == nil {
		return true
	}
	// Inside a sheet, an all-text data row after a blank line must not be
	// taken for a header: a new table either repeats header names or puts
	// text over numeric columns.
	return repeatsHeader(r, t.rawHeader) || textOverNumbers(r, data)
}

func (t *tableReader) setHeader(r sheetRow, section string) {
	names := make([]string, len(r.cells))
	for i, c := range r.cells {
		names[i] = headerName(c)
	}
	t.rawHeader = r.cells
	for k := 0; k < maxExtraHeaderRows; k++ {
		cand, ok := t.rows.peek(0)
		if !ok || blankRow(cand) || !extraHeaderRow(cand, t.rows.region(1)) {
			break
		}
		t.rows.take()
		names = foldHeaderRow(names, cand)
	}
	seen := map[string]bool{}
	for i := range names {
		if names[i] == "" {
			names[i] = "Column " + columnLetter(i)
		}
		key := strings.ToLower(names[i])
		if seen[key] {
			names[i] += " (column " + columnLetter(i) + ")"
		}
		seen[key] = true
	}
	t.names = names
	t.section = section
}

func (t *tableReader) name(col int) string {
	if col < len(t.names) {
		return t.names[col]
	}
	return "Column " + columnLetter(col)
}

func (t *tableReader) emit(r sheetRow) {
	if t.names != nil && sameCells(r.cells, t.rawHeader) {
		return // a header repeated down the sheet, as printed exports do
	}
	var parts []string
	for col, v := range r.cells {
		v = singleLine(v)
		if v == "" {
			continue
		}
		if t.names == nil {
			if !r.spilled(col) {
				parts = append(parts, v)
			}
		} else {
			parts = append(parts, t.name(col)+": "+v)
		}
	}
	sep := "; "
	if t.names == nil {
		sep = tableCellSep
	}
	text := normaliseText(strings.Join(parts, sep))
	if text == "" {
		return
	}
	if t.err = t.budget.block(text); t.err != nil {
		return
	}
	t.blocks = append(t.blocks, Block{Sheet: t.sheet, Row: r.num, Section: t.section, Text: text})
}

// headerLike judges a candidate header row against the rows below it (up
// to the next blank row); last says the sheet ends after r.
func headerLike(r sheetRow, below []sheetRow, last bool) bool {
	n := nonEmptyCount(r)
	width := lastColumn(r)
	for _, b := range below {
		width = max(width, lastColumn(b))
	}
	// One filled cell is a title or a note: a one-column list reads as
	// well without a header as with one, and stacked notes would otherwise
	// be taken for a header and its data.
	if n < 2 || 2*n < width {
		return false
	}
	if len(below) == 0 && !last {
		// Nothing under it before a blank row: a note, not a header.
		return false
	}
	values := 0
	for _, c := range r.cells {
		c = strings.TrimSpace(c)
		if c == "" {
			continue
		}
		if utf8.RuneCountInString(c) > maxHeaderCell {
			return false
		}
		if valueLike(c) {
			values++
		}
	}
	if values*5 > n {
		return false
	}
	// A header sits on a table; a lone cell below it means the row is a
	// line of notes with a stray second cell.
	return len(below) == 0 || nonEmptyCount(below[0]) >= 2
}

// titleRow is a row with a single short text cell.
func titleRow(r sheetRow) bool {
	if nonEmptyCount(r) != 1 {
		return false
	}
	c := firstCell(r)
	return utf8.RuneCountInString(c) <= maxHeaderCell && !valueLike(c)
}

func repeatsHeader(r sheetRow, header []string) bool {
	for i, c := range r.cells {
		c = strings.TrimSpace(c)
		if c != "" && i < len(header) && strings.EqualFold(c, strings.TrimSpace(header[i])) {
			return true
		}
	}
	return false
}

// numericColumns returns the columns in which most filled cells of rows are
// numbers or dates.
func numericColumns(rows []sheetRow) map[int]bool {
	filled, values := map[int]int{}, map[int]int{}
	for _, r := range rows {
		for i, c := range r.cells {
			if strings.TrimSpace(c) == "" {
				continue
			}
			filled[i]++
			if valueLike(c) {
				values[i]++
			}
		}
	}
	out := map[int]bool{}
	for i, f := range filled {
		if values[i]*10 >= f*6 {
			out[i] = true
		}
	}
	return out
}

// textOverNumbers reports whether r holds text in a column whose rows below
// are numeric, which data rows do not.
func textOverNumbers(r sheetRow, below []sheetRow) bool {
	for col := range numericColumns(below) {
		if col < len(r.cells) {
			if c := strings.TrimSpace(r.cells[col]); c != "" && !valueLike(c) && !placeholder(c) {
				return true
			}
		}
	}
	return false
}

// extraHeaderRow reports whether cand, directly under a header, is a units,
// variable-name or sub-heading row: text (and no numbers or placeholders
// such as "n/a") over at least half of the columns that are numeric below it.
func extraHeaderRow(cand sheetRow, below []sheetRow) bool {
	numeric := numericColumns(below)
	if len(numeric) == 0 {
		return false
	}
	for _, c := range cand.cells {
		if c = strings.TrimSpace(c); c != "" && (valueLike(c) || utf8.RuneCountInString(c) > maxHeaderCell) {
			return false
		}
	}
	covered := 0
	for col := range numeric {
		if col >= len(cand.cells) {
			continue
		}
		c := strings.TrimSpace(cand.cells[col])
		if c == "" {
			continue
		}
		if placeholder(c) {
			return false
		}
		covered++
	}
	return covered*2 >= len(numeric)
}

// foldHeaderRow adds an extra header row to the column names: a units row
// as "Paco (W)", other rows as words after the name ("Trench" over "Depth"
// gives "Trench Depth"). A row of machine variable names (inv_snl_paco) is
// consumed without changing the names: it would add the same noise to every
// row's text and no meaning for a reader.
func foldHeaderRow(names []string, r sheetRow) []string {
	units := unitsRow(r)
	if !units && identifierRow(r) {
		return names
	}
	for col, v := range r.cells {
		v = headerName(v)
		if v == "" {
			continue
		}
		for len(names) <= col {
			names = append(names, "")
		}
		switch {
		case units:
			if unitsLabel(v) {
				continue
			}
			if names[col] == "" {
				names[col] = "Column " + columnLetter(col)
			}
			names[col] += " (" + v + ")"
		case !containsLetter(v) || strings.EqualFold(v, names[col]):
			// "[0]" row labels and repeats of a merged group name.
		default:
			names[col] = strings.TrimSpace(names[col] + " " + v)
		}
	}
	return names
}

func unitsRow(r sheetRow) bool {
	total, units := 0, 0
	for i, c := range r.cells {
		c = strings.TrimSpace(c)
		if c == "" {
			continue
		}
		if unitsLabel(c) {
			if i == firstColumn(r) {
				return true
			}
			continue
		}
		total++
		if unitLike(c) {
			units++
		}
	}
	return total > 0 && units*5 >= total*4
}

func unitsLabel(s string) bool {
	switch strings.ToLower(strings.Trim(s, "[]() :")) {
	case "unit", "units", "uom", "unit of measure", "units of measure":
		return true
	}
	return false
}

// unitLike matches unit symbols: "V", "kW", "1/W", "%", "°C", "m/s²", "mm2".
// Plain words longer than three letters ("Depth") are sub-headings.
func unitLike(s string) bool {
	if utf8.RuneCountInString(s) > 8 || strings.Count(s, " ") > 1 || strings.Contains(s, "_") {
		return false
	}
	letters := 0
	for _, r := range s {
		if unicode.IsLetter(r) {
			letters++
		} else if r != ' ' {
			return true
		}
	}
	return letters <= 3
}

var identifierRE = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+$`)

func identifierRow(r sheetRow) bool {
	total, ids := 0, 0
	for _, c := range r.cells {
		c = strings.TrimSpace(c)
		if c == "" || !containsLetter(c) {
			continue
		}
		total++
		if identifierRE.MatchString(c) {
			ids++
		}
	}
	return total > 0 && ids*5 >= total*4
}

var (
	dateLike      = regexp.MustCompile(`^\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}(?:[ T]\d{1,2}:\d{2}(?::\d{2})?)?$`)
	timeLike      = regexp.MustCompile(`^\d{1,2}:\d{2}(?::\d{2})?$`)
	thousands     = regexp.MustCompile(`^\d{1,3}(?:,\d{3})+(?:\.\d+)?$`)
	decimalComma  = regexp.MustCompile(`^\d+,\d+$`)
	placeholderRE = regexp.MustCompile(`^(?i:n/?a|-+|–|—|tb[acd]|none|nil|null|nan|\?+|x)$`)
)

// valueLike reports whether a cell holds a number, a percentage, an amount
// or a date rather than text.
func valueLike(s string) bool {
	s = strings.TrimSpace(s)
	if dateLike.MatchString(s) || timeLike.MatchString(s) {
		return true
	}
	s = strings.TrimLeft(s, "$€£+-")
	s = strings.TrimSpace(strings.TrimSuffix(s, "%"))
	if thousands.MatchString(s) {
		s = strings.ReplaceAll(s, ",", "")
	} else if decimalComma.MatchString(s) {
		s = strings.Replace(s, ",", ".", 1)
	}
	if s == "" || !(s[0] >= '0' && s[0] <= '9' || s[0] == '.') {
		return false
	}
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}

func placeholder(s string) bool { return placeholderRE.MatchString(strings.TrimSpace(s)) }

func containsLetter(s string) bool {
	return strings.IndexFunc(s, unicode.IsLetter) >= 0
}

func blankRow(r sheetRow) bool { return nonEmptyCount(r) == 0 }

// nonEmptyCount counts filled cells, a merged range once.
func nonEmptyCount(r sheetRow) int {
	n := 0
	for i, c := range r.cells {
		if strings.TrimSpace(c) != "" && !r.spilled(i) {
			n++
		}
	}
	return n
}

// lastColumn is one past the last filled column.
func lastColumn(r sheetRow) int {
	for i := len(r.cells) - 1; i >= 0; i-- {
		if strings.TrimSpace(r.cells[i]) != "" {
			return i + 1
		}
	}
	return 0
}

func firstColumn(r sheetRow) int {
	for i, c := range r.cells {
		if strings.TrimSpace(c) != "" {
			return i
		}
	}
	return -1
}

func firstCell(r sheetRow) string {
	if i := firstColumn(r); i >= 0 {
		return strings.TrimSpace(r.cells[i])
	}
	return ""
}

func sameCells(a, b []string) bool {
	n := max(len(a), len(b))
	for i := 0; i < n; i++ {
		var x, y string
		if i < len(a) {
			x = strings.TrimSpace(a[i])
		}
		if i < len(b) {
			y = strings.TrimSpace(b[i])
		}
		if x != y {
			return false
		}
	}
	return true
}

// cellText is a cell's value on one line: a multi-line cell would otherwise
// break the "Header: value; …" row into pieces.
func singleLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

func headerName(s string) string {
	return singleLine(normaliseText(s))
}

// columnLetter turns a 0-based column index into its spreadsheet letters:
// 0 → A, 25 → Z, 26 → AA.
func columnLetter(i int) string {
	var b []byte
	for i++; i > 0; i = (i - 1) / 26 {
		b = append([]byte{byte('A' + (i-1)%26)}, b...)
	}
	return string(b)
}
