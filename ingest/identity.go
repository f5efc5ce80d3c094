package ingest

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"unicode"

	"github.com/xuri/excelize/v2"
)

// ErrRegisterColumns is returned by LoadRegister when the register has no
// column for the document number or for the file; the message names it.
var ErrRegisterColumns = errors.New("register is missing a required column")

// RegisterEntry is one row of the document register: a controlled document
// revision and the file that holds it. Values are kept as written (dates are
// not reformatted, revision "03" stays "03").
type RegisterEntry struct {
	Number    string
	Title     string
	Revision  string
	Status    string
	Date      string
	DriveLink string
	// File is the file name or the path relative to the register's folder.
	File string
}

// registerField is one RegisterEntry field and the header names that mean
// it, most specific first. Header names are compared after lower-casing and
// dropping everything but letters and digits, so "Document No.", "DOC_NO"
// and "document no" are all "documentno".
type registerField struct {
	label   string
	aliases []string
	set     func(e *RegisterEntry, v string)
}

var registerFields = []registerField{
	{"document number", []string{
		"documentnumber", "documentno", "documentnr", "docnumber", "docno", "docnum", "documentid", "docid",
		"documentcode", "doccode", "documentreference", "documentref", "docref", "drawingnumber", "drawingno",
		"dwgnumber", "dwgno", "number", "no", "reference", "refno", "ref",
	}, func(e *RegisterEntry, v string) { e.Number = v }},
	{"title", []string{
		"title", "documenttitle", "doctitle", "drawingtitle", "documentname", "docname", "description", "subject", "name",
	}, func(e *RegisterEntry, v string) { e.Title = v }},
	{"revision", []string{
		"revision", "rev", "revno", "revisionno", "revisionnumber", "currentrevision", "latestrevision", "revisioncode", "version",
	}, func(e *RegisterEntry, v string) { e.Revision = v }},
	{"status", []string{
		"status", "documentstatus", "docstatus", "issuestatus", "revisionstatus", "suitability", "purposeofissue", "issuepurpose", "state",
	}, func(e *RegisterEntry, v string) { e.Status = v }},
	{"date", []string{
		"date", "revisiondate", "revdate", "issuedate", "dateissued", "dateofissue", "issued", "documentdate",
	}, func(e *RegisterEntry, v string) { e.Date = v }},
	{"Drive link", []string{
		"drivelink", "googledrivelink", "driveurl", "link", "url", "hyperlink", "weblink", "filelink", "fileurl", "drive",
	}, func(e *RegisterEntry, v string) { e.DriveLink = v }},
	{"file", []string{
		"file", "filename", "filepath", "path", "sourcefile", "documentfile", "localfile", "nameoffile",
	}, func(e *RegisterEntry, v string) { e.File = v }},
}

const (
	fieldNumber = 0
	fieldLink   = 5
	fieldFile   = 6
)

// registerHeaderScan is how many leading rows may hold a register's header;
// registers exported from document-control systems often start with a title
// block.
const registerHeaderScan = 20

// LoadRegister reads a document register, register.csv or register.xlsx.
// Its header row is the first (within the first 20 rows) that names a
// document-number column; header names are matched case- and
// punctuation-insensitively with common aliases ("Document No", "Doc
// Number", "Rev", "Drive Link", "URL", "Filename", …). Unknown columns are
// ignored. A register without a number or a file column is an error wrapping
// ErrRegisterColumns that names the missing column. In an XLSX register a
// hyperlinked Drive-link cell contributes its link target, not its caption;
// every sheet is tried in order and the first with a register header is read.
func LoadRegister(path string) ([]RegisterEntry, error) {
	name := filepath.Base(path)
	var (
		entries []RegisterEntry
		err     error
	)
	switch strings.ToLower(filepath.Ext(path)) {
	case ".csv":
		entries, err = loadRegisterCSV(path)
	case ".xlsx", ".xlsm":
		entries, err = loadRegisterXLSX(path)
	default:
		err = fmt.Errorf("%w %q: a register is a .csv or .xlsx file", ErrUnsupported, filepath.Ext(path))
	}
	if err != nil {
		return nil, fmt.Errorf("ingest: register %s: %w", name, err)
	}
	return entries, nil
}

func loadRegisterCSV(path string) ([]RegisterEntry, error) {
	text, err := readTextFile(path)
	if err != nil {
		return nil, err
	}
	r := newCSVReader(text)
	var rows [][]string
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
		}
		rows = append(rows, rec)
	}
	return registerFromRows(rows, nil)
}

func loadRegisterXLSX(path string) ([]RegisterEntry, error) {
	f, err := openWorkbook(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var firstErr error
	for _, sheet := range f.GetSheetList() {
		rows, err := f.GetRows(sheet)
		if err != nil {
			continue // chart sheets and the like have no rows
		}
		link := func(row, col int) string {
			cell, err := excelize.CoordinatesToCellName(col+1, row+1)
			if err != nil {
				return ""
			}
			ok, target, err := f.GetCellHyperLink(sheet, cell)
			if err != nil || !ok {
				return ""
			}
			return target
		}
		entries, err := registerFromRows(rows, link)
		if err == nil {
			return entries, nil
		}
		if firstErr == nil {
			firstErr = err
		}
	}
	if firstErr == nil {
		firstErr = fmt.Errorf("%w: the workbook has no sheet with rows", ErrNoText)
	}
	return nil, firstErr
}

// registerFromRows finds the header, maps the columns and reads the entries.
// hyperlink, when not nil, returns the link target of a cell (0-based row and
// column) or "".
func registerFromRows(rows [][]string, hyperlink func(row, col int) string) ([]RegisterEntry, error) {
	headerRow, cols := -1, []int(nil)
	for i := 0; i < len(rows) && i < registerHeaderScan; i++ {
		if c := mapRegisterColumns(rows[i]); c[fieldNumber] >= 0 {
			headerRow, cols = i, c
			break
		}
	}
	if headerRow < 0 {
		return nil, missingColumn(registerFields[fieldNumber], firstNonEmptyRow(rows))
	}
	if cols[fieldFile] < 0 {
		return nil, missingColumn(registerFields[fieldFile], rows[headerRow])
	}
	var entries []RegisterEntry
	for i := headerRow + 1; i < len(rows); i++ {
		row := rows[i]
		var e RegisterEntry
		empty := true
		for f, col := range cols {
			if col < 0 || col >= len(row) {
				continue
			}
			v := strings.Join(strings.Fields(row[col]), " ")
			if f == fieldLink && hyperlink != nil {
				if target := hyperlink(i, col); target != "" {
					v = target
				}
			}
			if f == fieldFile {
				// Registers kept on Windows write folders with "\".
				v = strings.ReplaceAll(v, `\`, "/")
			}
			if v != "" {
				empty = false
				registerFields[f].set(&e, v)
			}
		}
		if empty || (e.Number == "" && e.File == "") {
			continue
		}
		entries = append(entries, e)
	}
	if len(entries) == 0 {
		return nil, fmt.Errorf("%w: the register has a header but no entries", ErrNoText)
	}
	return entries, nil
}

// mapRegisterColumns returns, per registerFields entry, the column that holds
// it or -1. When several columns match one field the most specific alias
// wins, then the leftmost column.
func mapRegisterColumns(header []string) []int {
	cols := make([]int, len(registerFields))
	for f := range cols {
		cols[f] = -1
	}
	taken := map[int]bool{}
	for f, field := range registerFields {
		best := len(field.aliases)
		for c, h := range header {
			key := headerKey(h)
			if taken[c] || key == "" {
				continue
			}
			for rank, alias := range field.aliases {
				if key == alias && rank < best {
					best, cols[f] = rank, c
				}
			}
		}
		if cols[f] >= 0 {
			taken[cols[f]] = true
		}
	}
	return cols
}

func headerKey(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(h) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func missingColumn(field registerField, header []string) error {
	var seen []string
	for _, h := range header {
		if h = strings.TrimSpace(h); h != "" {
			seen = append(seen, fmt.Sprintf("%q", h))
		}
	}
	found := "no header row"
	if len(seen) > 0 {
		found = "header has " + strings.Join(seen, ", ")
	}
	return fmt.Errorf("%w: no %s column (accepted names include %s; %s)",
		ErrRegisterColumns, field.label, strings.Join(field.aliases[:min(4, len(field.aliases))], ", "), found)
}

func firstNonEmptyRow(rows [][]string) []string {
	for _, r := range rows {
		for _, c := range r {
			if strings.TrimSpace(c) != "" {
				return r
			}
		}
	}
	return nil
}

var (
	// revisionMarker finds "Rev 03", "Rev03", "Rev.B", "rev-2", "Revision 3",
	// "(Rev C)", "[Rev P01]", "_R1", " R03" and a version "_v4" (revision
	// "4", so it orders with numbered revisions) between separators. The value
	// after a bare "Rev" (no separator) must start with a digit or be one or
	// two capitals, so "Review" and "Revised" are not revisions; a bare "R"
	// takes one digit only after "_", so "Zone R1" keeps its R1.
	revisionMarker = regexp.MustCompile(
		`(?:` +
			`(?:^|[\s_\-.])(?:` +
			`[(\[]\s*(?i:rev(?:ision)?)[\s._:\-]*([A-Za-z0-9]{1,4}(?:\.\d{1,2})?)\s*[)\]]` +
			`|(?i:rev(?:ision)?)[\s._:\-]+(\d{1,3}[A-Za-z]?(?:\.\d{1,2})?|[A-Za-z]{1,2}\d{0,3}(?:\.\d{1,2})?)` +
			`|(?i:rev)(\d{1,3}[A-Za-z]?|[A-Z]{1,2}\d{0,3})` +
			`|[Rr](\d{2,3})` +
			`|[vV](\d{1,3}(?:\.\d{1,2})?)` +
			`)` +
			`|_[Rr](\d)` +
			`)` +
			`(?:$|[\s_\-.])`)
	numberSegment  = regexp.MustCompile(`^[A-Za-z0-9]+$`)
	versionSegment = regexp.MustCompile(`^[vV]\d+$`)
)

// IdentityFromFileName reads a document's number, revision and title from a
// file name such as "277-007-D-C-40327 Rev 03 Trenches crossing layout.pdf",
// "277-007-D-C-40327_RevB_Trench details.pdf", "ABC-123 (Rev C) Title.docx"
// "Scenarios_v4.pdf" or "NREL-TP-6A20-62641_PVWatts_Version5_Manual.pdf".
//
// The number is the leading run of code-like segments (digits, capitals, or
// one or two letters) joined by "-", "_" or "." that contains a digit; the
// first word with lower-case letters ends it. The revision is the first
// revision marker ("Rev 03", "Rev03", "Rev.B", "_R03", "(Rev C)", "rev-2",
// "_v4"; "Version5" is a product version, not a revision),
// or "" without one. What remains, with underscores as spaces, is the title.
// A name with no number-like leading run uses its stem, less any revision
// marker (so every revision of it shares one document id), as the number and
// the readable stem as the title.
func IdentityFromFileName(name string) (number, revision, title string) {
	if strings.TrimSpace(name) == "" {
		return "", "", ""
	}
	stem := strings.TrimSpace(strings.TrimSuffix(filepath.Base(name), filepath.Ext(name)))
	if stem == "" {
		stem = strings.TrimSpace(filepath.Base(name))
	}
	number, rest := leadingNumber(stem)
	revision, rest = cutRevision(rest)
	if number == "" {
		revision, rest = cutRevision(stem)
		number = strings.Trim(collapseSpaces(rest), " -_.")
		if number == "" {
			number = stem
		}
		return number, revision, readable(rest)
	}
	return number, revision, readable(rest)
}

// leadingNumber splits stem into its number-like leading token and the rest;
// number is "" when the stem does not start with one. Letter-only segments
// after the first segment with a digit count only when another segment with
// a digit follows ("277-007-D-C-40327"), so "40327_TRENCH_DETAILS" ends at
// the digits.
func leadingNumber(stem string) (number, rest string) {
	end := 0 // byte offset just past the last confirmed segment
	seenDigit := false
	for i := 0; i < len(stem); {
		j := i
		for j < len(stem) && isASCIIAlnum(stem[j]) {
			j++
		}
		seg := stem[i:j]
		if seg == "" || !codeSegment(seg) || isRevisionStart(stem[max(i-1, 0):]) {
			break
		}
		if strings.ContainsAny(seg, "0123456789") {
			seenDigit = true
			end = j
		} else if !seenDigit {
			end = j
		}
		if j+1 >= len(stem) || !strings.ContainsRune("-_.", rune(stem[j])) || !isASCIIAlnum(stem[j+1]) {
			break
		}
		i = j + 1
	}
	if !seenDigit {
		return "", stem
	}
	return stem[:end], stem[end:]
}

// isRevisionStart reports whether s (a segment with the separator before
// it) begins with a revision marker, so the number stops before "R03" or
// "REV03".
func isRevisionStart(s string) bool {
	loc := revisionMarker.FindStringIndex(s)
	return loc != nil && loc[0] == 0
}

func isASCIIAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// codeSegment accepts the parts of a document number: anything with a digit
// ("40327", "6A20"), capitals ("NREL", "TP") and one- or two-letter
// discipline codes ("D", "c"). "PVWatts", "Trench" and a version such as
// "v4" end the number.
func codeSegment(seg string) bool {
	if !numberSegment.MatchString(seg) || versionSegment.MatchString(seg) {
		return false
	}
	if strings.ContainsAny(seg, "0123456789") || len(seg) <= 2 {
		return true
	}
	return strings.ToUpper(seg) == seg
}

// cutRevision removes the first revision marker from s.
func cutRevision(s string) (revision, rest string) {
	loc := revisionMarker.FindStringSubmatchIndex(s)
	if loc == nil {
		return "", s
	}
	for g := 1; g*2+1 < len(loc); g++ {
		if loc[g*2] >= 0 {
			revision = s[loc[g*2]:loc[g*2+1]]
			break
		}
	}
	// Keep the separators around the marker so the words either side stay
	// apart.
	return revision, s[:loc[0]] + " " + s[loc[1]:]
}

func readable(s string) string {
	s = strings.ReplaceAll(s, "_", " ")
	s = strings.NewReplacer("()", "", "[]", "").Replace(s)
	return strings.Trim(collapseSpaces(s), " -–—_.,;:")
}

func collapseSpaces(s string) string { return strings.Join(strings.Fields(s), " ") }

// DocID derives the stable, revision-independent document id from a
// document number: lower-case, with runs of spaces and the path separators
// "/" and "\" (which would break the DocID/Revision/Index chunk id) as "-".
func DocID(number string) string {
	fields := strings.FieldsFunc(strings.ToLower(strings.TrimSpace(number)), func(r rune) bool {
		return unicode.IsSpace(r) || r == '/' || r == '\\'
	})
	return strings.Join(fields, "-")
}

// newCSVReader is the one CSV dialect cew reads: the delimiter sniffed from
// the first line, lazy quotes and rows of any length, as spreadsheet
// programs write them.
func newCSVReader(text string) *csv.Reader { return newCSVReaderLimited(text, 0) }

// newCSVReaderLimited refuses, with a *lineTooLong error, any line longer
// than maxLine bytes (0: no limit) before encoding/csv holds it: a record
// of a 50 MB line would take gigabytes as fields.
func newCSVReaderLimited(text string, maxLine int) *csv.Reader {
	var src io.Reader = strings.NewReader(text)
	if maxLine > 0 {
		src = &lineLimiter{r: src, limit: maxLine}
	}
	r := csv.NewReader(src)
	r.Comma = sniffDelimiter(text)
	r.LazyQuotes = true
	r.FieldsPerRecord = -1
	return r
}

// sniffDelimiter picks ",", ";" or tab by counting them, outside quotes, in
// the first five non-blank lines: spreadsheet programs in locales with a
// decimal comma write ";", and a title line may hold no delimiter at all.
func sniffDelimiter(text string) rune {
	var lines []string
	for rest := text; rest != "" && len(lines) < 5; {
		var l string
		l, rest, _ = strings.Cut(rest, "\n")
		if strings.TrimSpace(l) != "" {
			lines = append(lines, l)
		}
	}
	count := func(sep byte) int {
		n := 0
		for _, line := range lines {
			quoted := false
			for i := 0; i < len(line); i++ {
				switch {
				case line[i] == '"':
					quoted = !quoted
				case !quoted && line[i] == sep:
					n++
				}
			}
		}
		return n
	}
	comma, semi, tab := count(','), count(';'), count('\t')
	switch {
	case tab > comma && tab >= semi:
		return '\t'
	case semi > comma:
		return ';'
	}
	return ','
}

// openWorkbook opens an XLSX file, mapping encryption and damage to
// ErrEncrypted and ErrCorrupt.
func openWorkbook(path string) (*excelize.File, error) {
	return openWorkbookLimited(path, maxUnzipSize)
}

// openWorkbookLimited refuses a workbook whose parts expand to more than
// expand bytes in all: excelize holds every part under its 16 MB streaming
// threshold in memory.
func openWorkbookLimited(path string, expand int64) (*excelize.File, error) {
	if err := checkNotOLE(path); err != nil {
		return nil, err
	}
	f, err := excelize.OpenFile(path, excelize.Options{UnzipSizeLimit: expand, UnzipXMLSizeLimit: min(expand, 16<<20)})
	if err != nil && strings.Contains(err.Error(), "unzip size exceeds") {
		return nil, fmt.Errorf("%w: the workbook expands to more than %s (CEW_MAX_INGEST_MB)", ErrLimit, byteSize(expand))
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	return f, nil
}

// lineTooLong is the error of a line over a lineLimiter's limit.
type lineTooLong struct{ limit int }

func (e *lineTooLong) Error() string { return fmt.Sprintf("a line is longer than %d bytes", e.limit) }

// lineLimiter fails a read once a line runs past limit bytes.
type lineLimiter struct {
	r     io.Reader
	limit int
	run   int // bytes since the last newline
}

func (l *lineLimiter) Read(p []byte) (int, error) {
	n, err := l.r.Read(p)
	for _, c := range p[:n] {
		if c == '\n' {
			l.run = 0
			continue
		}
		if l.run++; l.run > l.limit {
			return 0, &lineTooLong{limit: l.limit}
		}
	}
	return n, err
}

// maxUnzipSize bounds how much an Office file may expand to, so a zip bomb
// is refused instead of filling memory or disk.
const maxUnzipSize = 1 << 30

// checkNotOLE refuses OLE compound files. Office saves a password-protected
// XLSX or DOCX as an OLE container with EncryptionInfo and EncryptedPackage
// streams instead of a zip; any other OLE file under an .xlsx or .docx name is
// a legacy binary .xls or .doc.
func checkNotOLE(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("cannot read file: %w", err)
	}
	defer f.Close()
	head := make([]byte, 8)
	if _, err := io.ReadFull(f, head); err != nil || string(head) != oleMagic {
		return nil // too short or not OLE: the zip reader reports what is wrong
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return fmt.Errorf("cannot read file: %w", err)
	}
	data, err := io.ReadAll(io.LimitReader(f, 64<<20))
	if err != nil {
		return fmt.Errorf("cannot read file: %w", err)
	}
	if containsUTF16(data, "EncryptionInfo") || containsUTF16(data, "EncryptedPackage") {
		return fmt.Errorf("%w (Office encryption; remove the password and upload again)", ErrEncrypted)
	}
	return fmt.Errorf("%w: legacy binary Office format (.xls/.doc); save it as .xlsx or .docx", ErrUnsupported)
}

const oleMagic = "\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"

// containsUTF16 looks for s as UTF-16LE, the way OLE directory entries store
// stream names.
func containsUTF16(data []byte, s string) bool {
	pat := make([]byte, 0, 2*len(s))
	for i := 0; i < len(s); i++ {
		pat = append(pat, s[i], 0)
	}
	return strings.Contains(string(data), string(pat))
}
