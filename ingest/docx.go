package ingest

import (
	"archive/zip"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// DOCX is read with archive/zip and encoding/xml rather than a library. The
// surface needed is small — paragraph text, style names, tables, page
// breaks — while the Go DOCX libraries either need a commercial licence
// (unioffice), are built for editing or templating and expose neither style
// inheritance nor rendered page breaks (fumiama/go-docx, nguyenthenguyen/docx),
// or return only a flat string (several small, unmaintained readers).

const (
	wordNS       = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
	wordStrictNS = "http://purl.oclc.org/ooxml/wordprocessingml/main"
	markupCompat = "http://schemas.openxmlformats.org/markup-compatibility/2006"
	// maxPartSize bounds the decompressed size of one package part read
	// whole (document.xml, a worksheet); a real specification is a few MB of
	// XML.
	maxPartSize = 256 << 20
	// ctxCheckTokens is how often (in XML tokens) the walk checks for
	// cancellation.
	ctxCheckTokens = 4096
)

// parseDOCX reads a Word document. Headings (paragraph styles Heading 1–9
// and Title, found by style name so localised style ids work, or any style
// or paragraph with an outline level) become the Section of the text below
// them; tables are rendered one row per line as "cell | cell"; pages are
// counted from explicit page breaks, page-starting section breaks and the
// w:lastRenderedPageBreak marks Word leaves where it paginated, so every
// block carries a page ≥ 1. Headers, footers, footnotes and comments are not
// read: they repeat title-block text or sit outside the body's flow.
func parseDOCX(ctx context.Context, path string) (Parsed, error) {
	name := filepath.Base(path)
	p, err := readDOCX(ctx, path)
	if err != nil {
		return Parsed{}, fmt.Errorf("ingest: parse %s: %w", name, err)
	}
	return p, nil
}

func readDOCX(ctx context.Context, file string) (Parsed, error) {
	if err := checkNotOLE(file); err != nil {
		return Parsed{}, err
	}
	zr, err := zip.OpenReader(file)
	if err != nil {
		return Parsed{}, fmt.Errorf("%w: not a DOCX (zip) package: %v", ErrCorrupt, err)
	}
	defer zr.Close()
	parts := packageParts(&zr.Reader)
	docPath := targetOf(parts, "_rels/.rels", "", "/officeDocument", "word/document.xml")
	// The main part is streamed, twice (section starts, then the text),
	// never held whole: a package that expands a thousandfold costs its
	// text, not its XML.
	limit := int64(maxPartSize)
	if b := budgetFrom(ctx); b != nil && b.lim.MaxExpand > 0 {
		limit = b.lim.MaxExpand
	}
	open := func() (io.ReadCloser, error) { return openPart(parts, docPath, limit) }
	stylesPath := targetOf(parts, relsOf(docPath), path.Dir(docPath), "/styles", path.Join(path.Dir(docPath), "styles.xml"))
	styles := styleSet{}
	if data, err := readPart(parts, stylesPath); err == nil {
		styles = parseStyles(data)
	}
	rc, err := open()
	if err != nil {
		return Parsed{}, err
	}
	starts, err := sectionStarts(ctx, rc)
	rc.Close()
	if err != nil {
		return Parsed{}, err
	}
	w := &docxWalker{
		styles:  styles,
		newPage: starts,
		out:     newBoundedWriter(ctx),
		page:    1,
	}
	if rc, err = open(); err != nil {
		return Parsed{}, err
	}
	defer rc.Close()
	if err := w.walk(ctx, rc); err != nil {
		return Parsed{}, err
	}
	return w.out.finish()
}

// openPart streams a package part, failing with ErrLimit once it has
// expanded past limit bytes.
func openPart(parts map[string]*zip.File, name string, limit int64) (io.ReadCloser, error) {
	f, ok := parts[strings.ToLower(name)]
	if !ok {
		return nil, fmt.Errorf("%w: no %s in the package", ErrCorrupt, name)
	}
	if f.UncompressedSize64 > uint64(limit) {
		return nil, fmt.Errorf("%w: %s expands to %s, the limit is %s (CEW_MAX_INGEST_MB)", ErrLimit, name,
			byteSize(int64(min(f.UncompressedSize64, 1<<62))), byteSize(limit))
	}
	rc, err := f.Open()
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrCorrupt, name, err)
	}
	return &cappedReader{rc: rc, left: limit, name: name, limit: limit}, nil
}

// cappedReader fails once more than limit bytes have been read: the zip
// header's size is checked by archive/zip too, so this guards parts written
// with a size the data does not keep to.
type cappedReader struct {
	rc    io.ReadCloser
	left  int64
	name  string
	limit int64
}

func (c *cappedReader) Read(p []byte) (int, error) {
	if c.left <= 0 {
		return 0, fmt.Errorf("%w: %s expands beyond %s (CEW_MAX_INGEST_MB)", ErrLimit, c.name, byteSize(c.limit))
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.rc.Read(p)
	c.left -= int64(n)
	return n, err
}

func (c *cappedReader) Close() error { return c.rc.Close() }

// packageParts indexes a package's parts by lower-cased name: OPC part
// names are case-insensitive.
func packageParts(zr *zip.Reader) map[string]*zip.File {
	parts := map[string]*zip.File{}
	for _, f := range zr.File {
		parts[strings.ToLower(strings.TrimPrefix(f.Name, "/"))] = f
	}
	return parts
}

// readPart returns a package part's bytes.
func readPart(parts map[string]*zip.File, name string) ([]byte, error) {
	f, ok := parts[strings.ToLower(name)]
	if !ok {
		return nil, fmt.Errorf("%w: no %s in the package", ErrCorrupt, name)
	}
	if f.UncompressedSize64 > maxPartSize {
		return nil, fmt.Errorf("%w: %s expands to %d MB", ErrTooLarge, name, f.UncompressedSize64>>20)
	}
	rc, err := f.Open()
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrCorrupt, name, err)
	}
	defer rc.Close()
	data, err := io.ReadAll(io.LimitReader(rc, maxPartSize+1))
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrCorrupt, name, err)
	}
	if len(data) > maxPartSize {
		return nil, fmt.Errorf("%w: %s expands beyond %d MB", ErrTooLarge, name, maxPartSize>>20)
	}
	return data, nil
}

type xmlRelationships struct {
	Rels []packageRel `xml:"Relationship"`
}

type packageRel struct {
	ID         string `xml:"Id,attr"`
	Type       string `xml:"Type,attr"`
	Target     string `xml:"Target,attr"`
	TargetMode string `xml:"TargetMode,attr"`
}

// readRels reads a .rels part and resolves each internal target to a part
// name (targets are relative to base unless they start with "/").
func readRels(parts map[string]*zip.File, rels, base string) []packageRel {
	data, err := readPart(parts, rels)
	if err != nil {
		return nil
	}
	var r xmlRelationships
	if xml.Unmarshal(data, &r) != nil {
		return nil
	}
	out := r.Rels[:0]
	for _, rel := range r.Rels {
		if strings.EqualFold(rel.TargetMode, "External") {
			continue
		}
		if strings.HasPrefix(rel.Target, "/") {
			rel.Target = strings.TrimPrefix(rel.Target, "/")
		} else {
			rel.Target = path.Join(base, rel.Target)
		}
		out = append(out, rel)
	}
	return out
}

// targetOf returns the part of the first relationship whose type ends in
// typeSuffix, or fallback.
func targetOf(parts map[string]*zip.File, rels, base, typeSuffix, fallback string) string {
	for _, rel := range readRels(parts, rels, base) {
		if strings.HasSuffix(rel.Type, typeSuffix) {
			return rel.Target
		}
	}
	return fallback
}

// relsOf is the .rels part that holds the relationships of part.
func relsOf(part string) string {
	return path.Join(path.Dir(part), "_rels", path.Base(part)+".rels")
}

// styleSet maps style ids to what matters for reading: whether the style is
// a heading and whether it starts a page.
type styleSet map[string]docxStyle

type docxStyle struct {
	name            string
	basedOn         string
	outline         int // -1 when not set
	pageBreakBefore *bool
}

type xmlVal struct {
	Val *string `xml:"val,attr"`
}

type xmlStyles struct {
	Styles []struct {
		ID      string  `xml:"styleId,attr"`
		Name    xmlVal  `xml:"name"`
		BasedOn xmlVal  `xml:"basedOn"`
		Outline *xmlVal `xml:"pPr>outlineLvl"`
		Break   *xmlVal `xml:"pPr>pageBreakBefore"`
	} `xml:"style"`
}

func parseStyles(data []byte) styleSet {
	var x xmlStyles
	if xml.Unmarshal(data, &x) != nil {
		return styleSet{}
	}
	set := styleSet{}
	for _, s := range x.Styles {
		st := docxStyle{name: deref(s.Name.Val), basedOn: deref(s.BasedOn.Val), outline: -1}
		if s.Outline != nil {
			st.outline = atoiOr(deref(s.Outline.Val), -1)
		}
		if s.Break != nil {
			b := onOff(s.Break.Val)
			st.pageBreakBefore = &b
		}
		set[s.ID] = st
	}
	return set
}

var headingStyleName = regexp.MustCompile(`^(?:heading[1-9]|title)$`)

func headingStyle(name string) bool {
	return headingStyleName.MatchString(strings.ToLower(strings.ReplaceAll(name, " ", "")))
}

// isHeading follows the basedOn chain: a style is a heading when it or an
// ancestor is named "heading N" or "Title", or sets an outline level 0–8.
// Word stores built-in style names in English whatever the UI language, so
// the name resolves ids such as "berschrift1".
func (s styleSet) isHeading(id string) bool {
	for depth := 0; id != "" && depth < 16; depth++ {
		st, ok := s[id]
		if !ok {
			return headingStyle(id)
		}
		if headingStyle(st.name) {
			return true
		}
		if st.outline >= 0 {
			return st.outline < 9
		}
		id = st.basedOn
	}
	return false
}

func (s styleSet) breaksPage(id string) bool {
	for depth := 0; id != "" && depth < 16; depth++ {
		st, ok := s[id]
		if !ok {
			return false
		}
		if st.pageBreakBefore != nil {
			return *st.pageBreakBefore
		}
		id = st.basedOn
	}
	return false
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func atoiOr(s string, def int) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		return def
	}
	return n
}

// onOff reads an OOXML toggle: present without a value means on.
func onOff(v *string) bool {
	if v == nil {
		return true
	}
	switch strings.ToLower(*v) {
	case "0", "false", "off":
		return false
	}
	return true
}

func isWord(n xml.Name) bool { return n.Space == wordNS || n.Space == wordStrictNS }

func attr(e xml.StartElement, local string) (string, bool) {
	for _, a := range e.Attr {
		if a.Name.Local == local {
			return a.Value, true
		}
	}
	return "", false
}

// sectionStarts lists, for each section of the document in order, whether
// it starts on a new page. A section's sectPr (at its end) holds the type of
// the break that starts it; a missing type means a new page.
func sectionStarts(ctx context.Context, doc io.Reader) ([]bool, error) {
	var out []bool
	d := xml.NewDecoder(doc)
	depth, changed, kind := 0, 0, ""
	for n := 1; ; n++ {
		if n%ctxCheckTokens == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		tok, err := d.Token()
		if errors.Is(err, ErrLimit) {
			return nil, err
		}
		if err != nil {
			return out, nil
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch {
			case !isWord(t.Name):
			case t.Name.Local == "sectPrChange":
				// The section properties a tracked change replaced.
				changed++
			case changed > 0:
			case t.Name.Local == "sectPr":
				depth++
				kind = ""
			case depth > 0 && t.Name.Local == "type":
				kind, _ = attr(t, "val")
			}
		case xml.EndElement:
			switch {
			case !isWord(t.Name):
			case t.Name.Local == "sectPrChange":
				changed--
			case changed == 0 && t.Name.Local == "sectPr" && depth > 0:
				depth--
				out = append(out, kind != "continuous" && kind != "nextColumn")
			}
		}
	}
}

type frameKind int

const (
	paraFrame frameKind = iota
	tableFrame
	cellFrame
)

// frame is an open paragraph, table or table cell; text boxes and nested
// tables nest them.
type frame struct {
	kind  frameKind
	para  *docxPara
	table *docxTable
	cell  *docxCell
}

type docxPara struct {
	text        strings.Builder
	style       string
	outline     int
	breakBefore *bool
	endsSection bool
	inPPr       bool
	heading     bool
}

type docxTable struct {
	nested bool
	rows   []string
	row    []string
	col    int            // grid column of the next cell
	above  map[int]string // grid column → text of the cell above, for vertical merges
}

type docxCell struct {
	text   strings.Builder
	span   int
	vmerge string // "restart", "continue" or ""
}

type docxWalker struct {
	styles  styleSet
	newPage []bool
	sect    int
	out     *blockWriter
	page    int
	// pending counts page breaks seen since the last text; they take effect
	// when text follows, so a break at the end of the document adds no page.
	pending  int
	seenText bool
	frames   []frame
	runDepth int
	inText   bool
	skip     int
}

func (w *docxWalker) walk(ctx context.Context, doc io.Reader) error {
	d := xml.NewDecoder(doc)
	root := true
	var text int64
	lim := budgetFrom(ctx)
	for n := 1; ; n++ {
		if n%ctxCheckTokens == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
			if w.out.err != nil {
				return w.out.err
			}
		}
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if errors.Is(err, ErrLimit) {
			return err
		}
		if err != nil {
			return fmt.Errorf("%w: document.xml: %v", ErrCorrupt, err)
		}
		if cd, ok := tok.(xml.CharData); ok && lim != nil && lim.lim.MaxText > 0 {
			// Text inside one paragraph is held until the paragraph ends:
			// bound it as it is read.
			if text += int64(len(cd)); text > lim.lim.MaxText {
				return fmt.Errorf("%w: more than %s of text (CEW_MAX_INGEST_MB)", ErrLimit, byteSize(lim.lim.MaxText))
			}
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if root {
				if !isWord(t.Name) || t.Name.Local != "document" {
					return fmt.Errorf("%w: main part is <%s>, not a WordprocessingML document", ErrCorrupt, t.Name.Local)
				}
				root = false
			}
			w.start(t)
		case xml.EndElement:
			w.end(t)
		case xml.CharData:
			if w.inText && w.skip == 0 {
				w.text(string(t))
			}
		}
	}
	if root {
		return fmt.Errorf("%w: document.xml is empty", ErrCorrupt)
	}
	return nil
}

func (w *docxWalker) start(e xml.StartElement) {
	if w.skip > 0 {
		w.skip++
		return
	}
	if e.Name.Space == markupCompat && e.Name.Local == "Fallback" {
		// mc:Fallback repeats the mc:Choice content for older readers.
		w.skip = 1
		return
	}
	if !isWord(e.Name) {
		return
	}
	p := w.para()
	switch e.Name.Local {
	case "del", "moveFrom", "pPrChange", "rPrChange", "sectPrChange", "tblPrChange", "trPrChange", "tcPrChange":
		// Tracked deletions and the properties a tracked change replaced
		// are not part of the current document.
		w.skip = 1
	case "p":
		w.frames = append(w.frames, frame{kind: paraFrame, para: &docxPara{outline: -1}})
	case "pPr":
		if p != nil {
			p.inPPr = true
		}
	case "pStyle":
		if p != nil && p.inPPr {
			p.style, _ = attr(e, "val")
		}
	case "outlineLvl":
		if p != nil && p.inPPr {
			v, _ := attr(e, "val")
			p.outline = atoiOr(v, -1)
		}
	case "pageBreakBefore":
		if p != nil && p.inPPr {
			v, ok := attr(e, "val")
			b := onOff(&v)
			if !ok {
				b = true
			}
			p.breakBefore = &b
		}
	case "sectPr":
		if p != nil && p.inPPr {
			p.endsSection = true
		}
	case "r":
		w.runDepth++
	case "t":
		w.inText = w.runDepth > 0
	case "tab", "ptab":
		if w.runDepth > 0 {
			w.text("\t")
		}
	case "br":
		if w.runDepth == 0 {
			break
		}
		switch typ, _ := attr(e, "type"); typ {
		case "page":
			w.pending++
		case "column":
			w.text(" ")
		default:
			w.text("\n")
		}
	case "cr":
		if w.runDepth > 0 {
			w.text("\n")
		}
	case "noBreakHyphen":
		if w.runDepth > 0 {
			w.text("-")
		}
	case "lastRenderedPageBreak":
		// Word marks where it broke pages when it last saved the file. An
		// explicit break already pending is the same page boundary.
		if w.pending == 0 {
			w.pending = 1
		}
	case "tbl":
		w.frames = append(w.frames, frame{kind: tableFrame, table: &docxTable{nested: w.cell() != nil, above: map[int]string{}}})
	case "tr":
		if t := w.table(); t != nil {
			t.row, t.col = nil, 0
		}
	case "gridBefore":
		if t := w.table(); t != nil {
			v, _ := attr(e, "val")
			for i := atoiOr(v, 0); i > 0; i-- {
				t.row = append(t.row, "")
				t.col++
			}
		}
	case "tc":
		w.frames = append(w.frames, frame{kind: cellFrame, cell: &docxCell{span: 1}})
	case "gridSpan":
		if c := w.cell(); c != nil {
			v, _ := attr(e, "val")
			c.span = max(1, atoiOr(v, 1))
		}
	case "vMerge":
		if c := w.cell(); c != nil {
			v, _ := attr(e, "val")
			if v == "" {
				v = "continue"
			}
			c.vmerge = v
		}
	}
}

func (w *docxWalker) end(e xml.EndElement) {
	if w.skip > 0 {
		w.skip--
		return
	}
	if !isWord(e.Name) {
		return
	}
	switch e.Name.Local {
	case "pPr":
		if p := w.para(); p != nil && p.inPPr {
			p.inPPr = false
			p.heading = (p.outline >= 0 && p.outline < 9) || w.styles.isHeading(p.style)
			breaks := w.styles.breaksPage(p.style)
			if p.breakBefore != nil {
				breaks = *p.breakBefore
			}
			if breaks && w.seenText {
				w.pending = max(w.pending, 1)
			}
		}
	case "p":
		if f := w.pop(paraFrame); f != nil {
			w.endPara(f.para)
		}
	case "r":
		w.runDepth = max(0, w.runDepth-1)
	case "t":
		w.inText = false
	case "tc":
		if f := w.pop(cellFrame); f != nil {
			w.endCell(f.cell)
		}
	case "tr":
		w.endRow()
	case "tbl":
		if f := w.pop(tableFrame); f != nil && f.table.nested {
			if c := w.cell(); c != nil {
				appendText(&c.text, strings.Join(f.table.rows, "; "))
			}
		}
	}
}

// pop removes the innermost frame if it is of the expected kind; a
// mismatch (malformed nesting) leaves the stack alone.
func (w *docxWalker) pop(kind frameKind) *frame {
	if len(w.frames) == 0 || w.frames[len(w.frames)-1].kind != kind {
		return nil
	}
	f := w.frames[len(w.frames)-1]
	w.frames = w.frames[:len(w.frames)-1]
	return &f
}

func (w *docxWalker) para() *docxPara {
	if n := len(w.frames); n > 0 && w.frames[n-1].kind == paraFrame {
		return w.frames[n-1].para
	}
	return nil
}

// cell is the innermost open table cell, if no paragraph or table opened
// inside it is closer.
func (w *docxWalker) cell() *docxCell {
	for i := len(w.frames) - 1; i >= 0; i-- {
		switch w.frames[i].kind {
		case cellFrame:
			return w.frames[i].cell
		case tableFrame:
			return nil
		}
	}
	return nil
}

func (w *docxWalker) table() *docxTable {
	for i := len(w.frames) - 1; i >= 0; i-- {
		if w.frames[i].kind == tableFrame {
			return w.frames[i].table
		}
	}
	return nil
}

// inCell reports whether the innermost paragraph lies in a table cell.
func (w *docxWalker) inCell() bool {
	n := len(w.frames)
	return n >= 2 && w.frames[n-1].kind == paraFrame && w.frames[n-2].kind == cellFrame
}

func (w *docxWalker) text(s string) {
	p := w.para()
	if p == nil {
		return
	}
	if strings.TrimSpace(s) != "" {
		if w.pending > 0 {
			w.turnPage(p)
		}
		w.seenText = true
	}
	p.text.WriteString(s)
}

// turnPage applies pending page breaks. The part of the current paragraph
// before the break stays on the earlier page; a table row is cited on the
// page where it ends.
func (w *docxWalker) turnPage(p *docxPara) {
	if !w.inCell() && p.text.Len() > 0 {
		w.out.line(p.text.String())
		p.text.Reset()
	}
	w.page += w.pending
	w.pending = 0
	w.out.setPage(w.page)
}

func (w *docxWalker) endPara(p *docxPara) {
	text := p.text.String()
	if n := len(w.frames); n > 0 && w.frames[n-1].kind == cellFrame {
		appendText(&w.frames[n-1].cell.text, text)
	} else if p.heading {
		if h := headingLine(text); h != "" {
			w.out.setSection(h)
			w.out.line(h)
		}
	} else {
		w.out.line(text)
	}
	if p.endsSection {
		w.sect++
		if w.sect < len(w.newPage) && w.newPage[w.sect] && w.seenText {
			w.pending = max(w.pending, 1)
		}
	}
}

func (w *docxWalker) endCell(c *docxCell) {
	t := w.table()
	if t == nil {
		return
	}
	text := singleLine(normaliseText(c.text.String()))
	if c.vmerge == "continue" && text == "" {
		text = t.above[t.col]
	}
	t.above[t.col] = text
	t.row = append(t.row, text)
	t.col += c.span
}

func (w *docxWalker) endRow() {
	t := w.table()
	if t == nil {
		return
	}
	cells := t.row
	for len(cells) > 0 && cells[len(cells)-1] == "" {
		cells = cells[:len(cells)-1]
	}
	t.row = nil
	if len(cells) == 0 {
		return
	}
	line := strings.Join(cells, tableCellSep)
	if t.nested {
		t.rows = append(t.rows, line)
		return
	}
	w.out.line(line)
}

func appendText(b *strings.Builder, s string) {
	s = strings.TrimSpace(s)
	if s == "" {
		return
	}
	if b.Len() > 0 {
		b.WriteByte(' ')
	}
	b.WriteString(s)
}
