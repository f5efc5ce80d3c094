package ingest

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
	encunicode "golang.org/x/text/encoding/unicode"
)

// decodeText turns the bytes of a text-like file (plain text, Markdown, CSV)
// into UTF-8. A UTF-8 byte-order mark is dropped; a UTF-16 byte-order mark
// selects UTF-16 of that endianness; valid UTF-8 is taken as is; anything
// else is read as Windows-1252, the "ANSI" code page Excel and Notepad on
// Western-European Windows save in, and a superset of ISO-8859-1 for every
// printable character. NUL bytes after decoding mean the file is binary (or
// UTF-16 without a byte-order mark) and are refused rather than indexed as
// garbage.
func decodeText(data []byte) (string, error) {
	var text string
	switch {
	case bytes.HasPrefix(data, []byte{0xEF, 0xBB, 0xBF}):
		text = string(data[3:])
		if !utf8.ValidString(text) {
			text = strings.ToValidUTF8(text, "\uFFFD")
		}
	case bytes.HasPrefix(data, []byte{0xFF, 0xFE}), bytes.HasPrefix(data, []byte{0xFE, 0xFF}):
		// ExpectBOM reads the byte-order mark to pick the endianness and
		// removes it.
		out, err := encunicode.UTF16(encunicode.LittleEndian, encunicode.ExpectBOM).NewDecoder().Bytes(data)
		if err != nil {
			return "", fmt.Errorf("%w: invalid UTF-16: %v", ErrCorrupt, err)
		}
		text = string(out)
	case utf8.Valid(data):
		text = string(data)
	default:
		out, err := charmap.Windows1252.NewDecoder().Bytes(data)
		if err != nil {
			return "", fmt.Errorf("%w: cannot decode as Windows-1252: %v", ErrCorrupt, err)
		}
		text = string(out)
	}
	if strings.IndexByte(text, 0) >= 0 {
		return "", fmt.Errorf("%w: contains NUL bytes (binary data, or UTF-16 without a byte-order mark)", ErrCorrupt)
	}
	return text, nil
}

// readTextFile reads and decodes a text-like file.
func readTextFile(path string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("cannot read file: %w", err)
	}
	if len(data) == 0 {
		return "", ErrEmptyFile
	}
	return decodeText(data)
}

// blockWriter collects the lines of paged, sectioned text into Blocks, one
// per run of lines that share a page and a section, so a Block never spans
// two pages or two sections.
type blockWriter struct {
	blocks  []Block
	page    int
	section string
	lines   []string
	// budget bounds the text kept; err is the limit crossed, after which
	// nothing more is kept and the reader should stop.
	budget  *budget
	err     error
	pending int // bytes of lines not flushed yet
}

func newBlockWriter() *blockWriter { return &blockWriter{page: 1} }

// newBoundedWriter is a blockWriter under the file's budget.
func newBoundedWriter(ctx context.Context) *blockWriter {
	return &blockWriter{page: 1, budget: budgetFrom(ctx)}
}

func (w *blockWriter) line(s string) {
	if strings.TrimSpace(s) != "" && w.err == nil {
		w.lines = append(w.lines, s)
		// A paragraph that never ends must not grow past the budget
		// before it is flushed.
		if w.budget != nil && w.budget.lim.MaxText > 0 {
			if w.pending += len(s); int64(w.pending) > w.budget.lim.MaxText {
				w.flush()
			}
		}
	}
}

func (w *blockWriter) setSection(s string) {
	w.flush()
	w.section = s
}

func (w *blockWriter) setPage(p int) {
	if p != w.page {
		w.flush()
		w.page = p
	}
}

func (w *blockWriter) flush() {
	if len(w.lines) == 0 {
		return
	}
	text := normaliseText(strings.Join(w.lines, "\n"))
	w.lines, w.pending = w.lines[:0], 0
	if text == "" || w.err != nil {
		return
	}
	if w.err = w.budget.block(text); w.err == nil {
		w.blocks = append(w.blocks, Block{Page: w.page, Section: w.section, Text: text})
	}
}

// finish flushes and returns the result, or ErrNoText when nothing was
// written. Pages is the last page that holds text: a trailing form feed or
// page break adds no page.
func (w *blockWriter) finish() (Parsed, error) {
	w.flush()
	if w.err != nil {
		return Parsed{}, w.err
	}
	if len(w.blocks) == 0 {
		return Parsed{}, ErrNoText
	}
	return Parsed{Blocks: w.blocks, Pages: w.blocks[len(w.blocks)-1].Page}, nil
}

// headingLine normalises heading text to the one line a Section holds.
func headingLine(s string) string {
	return strings.ReplaceAll(normaliseText(s), "\n", " ")
}

// parseText reads a plain-text file. Paragraphs are blank-line separated and
// their hard-wrapped lines are joined; a form feed starts a new page.
// Headings are recognised only where plain text leaves little doubt (a
// numbered heading such as "4.2 Cable trenches", a short ALL-CAPS line, or a
// line underlined with === or ---), because a false heading would mislabel
// every citation below it.
func parseText(ctx context.Context, path string) (Parsed, error) {
	name := filepath.Base(path)
	text, err := readTextFile(path)
	if err != nil {
		return Parsed{}, fmt.Errorf("ingest: parse %s: %w", name, err)
	}
	w := newBoundedWriter(ctx)
	for i, page := range strings.Split(text, "\f") {
		if err := ctx.Err(); err != nil {
			return Parsed{}, fmt.Errorf("ingest: parse %s: %w", name, err)
		}
		if w.err != nil {
			break
		}
		w.setPage(i + 1)
		for _, para := range splitParagraphs(page) {
			writeTextParagraph(w, para)
		}
	}
	p, err := w.finish()
	if err != nil {
		return Parsed{}, fmt.Errorf("ingest: parse %s: %w", name, err)
	}
	return p, nil
}

// splitParagraphs splits text at blank lines; each paragraph is its lines
// with trailing whitespace removed.
func splitParagraphs(text string) [][]string {
	var paras [][]string
	var cur []string
	for _, l := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		l = strings.TrimRight(strings.ReplaceAll(l, "\r", ""), " \t")
		if strings.TrimSpace(l) == "" {
			if len(cur) > 0 {
				paras = append(paras, cur)
				cur = nil
			}
			continue
		}
		cur = append(cur, l)
	}
	if len(cur) > 0 {
		paras = append(paras, cur)
	}
	return paras
}

var underline = regexp.MustCompile(`^\s{0,3}(=+|-+)\s*$`)

func writeTextParagraph(w *blockWriter, lines []string) {
	// "Title" over "=====" is a heading in plain text as much as in Markdown.
	if len(lines) == 2 && underline.MatchString(lines[1]) && len(strings.TrimSpace(lines[0])) <= 80 {
		w.setSection(headingLine(lines[0]))
		w.line(lines[0])
		return
	}
	first := strings.TrimSpace(lines[0])
	switch {
	case len(lines) == 1 && (numberedHeading(first) || capsHeading(first)):
		w.setSection(headingLine(first))
		w.line(first)
		return
	case len(lines) > 1 && numberedHeading(first) && !listItem(strings.TrimSpace(lines[1])):
		// A numbered heading directly above its first paragraph, as text
		// exported from a word processor often has it.
		w.setSection(headingLine(first))
		w.line(first)
		lines = lines[1:]
	}
	for _, l := range unwrapLines(lines) {
		w.line(l)
	}
}

var numberedHeadingRE = regexp.MustCompile(`^(\d{1,2}(?:\.\d{1,3}){0,4})\.?\s+(\p{Lu}.{0,78})$`)

// numberedHeading matches "4.2 Cable trenches" and "1. Introduction" but not
// sentences ("2 Trenches shall be backfilled.") nor values ("400 Amps").
func numberedHeading(s string) bool {
	m := numberedHeadingRE.FindStringSubmatch(s)
	if m == nil {
		return false
	}
	rest := m[2]
	if strings.ContainsAny(rest[len(rest)-1:], ".,;:") {
		return false
	}
	return len(strings.Fields(rest)) <= 10
}

// capsHeading matches short ALL-CAPS lines such as "GENERAL REQUIREMENTS".
func capsHeading(s string) bool {
	if utf8.RuneCountInString(s) > 60 || len(strings.Fields(s)) > 8 {
		return false
	}
	letters, other := 0, 0
	for _, r := range s {
		switch {
		case unicode.IsLower(r):
			return false
		case unicode.IsLetter(r):
			letters++
		case !unicode.IsSpace(r):
			other++
		}
	}
	return letters >= 4 && letters >= other
}

var textListItem = regexp.MustCompile(`^(?:[-*+•▪‣◦]\s|\(?[0-9a-zA-Z]{1,3}[.)]\s)`)

func listItem(s string) bool { return textListItem.MatchString(s) }

// unwrapLines joins the hard-wrapped lines of a paragraph into one line, but
// keeps lines apart where the line structure carries meaning: list items,
// table-like rows (tabs, pipes, aligned columns) and indented lines.
func unwrapLines(lines []string) []string {
	var out []string
	joinable := false
	for _, l := range lines {
		structural := strings.ContainsAny(l, "\t|") || strings.Contains(strings.TrimSpace(l), "   ") ||
			strings.HasPrefix(l, "    ") || listItem(strings.TrimSpace(l))
		if joinable && !structural && len(out) > 0 {
			out[len(out)-1] += " " + strings.TrimSpace(l)
			continue
		}
		out = append(out, l)
		// A list item may continue on the next, un-marked line.
		joinable = !strings.ContainsAny(l, "\t|") && !strings.Contains(strings.TrimSpace(l), "   ")
	}
	return out
}

// parseMarkdown reads a Markdown file: ATX ("## Title") and setext (underlined)
// headings become sections; fenced code is kept line for line and never read
// as headings; paragraphs are unwrapped; link and emphasis markup is reduced
// to its text so quotes read cleanly. A form feed starts a new page.
func parseMarkdown(ctx context.Context, path string) (Parsed, error) {
	name := filepath.Base(path)
	text, err := readTextFile(path)
	if err != nil {
		return Parsed{}, fmt.Errorf("ingest: parse %s: %w", name, err)
	}
	w := newBoundedWriter(ctx)
	md := markdownReader{w: w}
	for i, page := range strings.Split(text, "\f") {
		if err := ctx.Err(); err != nil {
			return Parsed{}, fmt.Errorf("ingest: parse %s: %w", name, err)
		}
		if w.err != nil {
			break
		}
		md.endParagraph()
		w.setPage(i + 1)
		lines := strings.Split(strings.ReplaceAll(page, "\r\n", "\n"), "\n")
		if i == 0 {
			lines = md.frontMatter(lines)
		}
		for _, l := range lines {
			md.line(strings.TrimRight(strings.ReplaceAll(l, "\r", ""), " \t"))
		}
	}
	md.endParagraph()
	p, err := w.finish()
	if err != nil {
		return Parsed{}, fmt.Errorf("ingest: parse %s: %w", name, err)
	}
	return p, nil
}

var (
	atxHeading     = regexp.MustCompile(`^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$`)
	fenceOpen      = regexp.MustCompile("^ {0,3}(`{3,}|~{3,})")
	thematicBreak  = regexp.MustCompile(`^ {0,3}(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$`)
	tableDelimiter = regexp.MustCompile(`^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*$`)
	mdImage        = regexp.MustCompile(`!\[([^\]]*)\]\([^)]*\)`)
	mdLink         = regexp.MustCompile(`\[([^\]]+)\]\([^)]*\)`)
	mdRefLink      = regexp.MustCompile(`\[([^\]]+)\]\[[^\]]*\]`)
)

type markdownReader struct {
	w     *blockWriter
	para  []string
	fence string // the open fence ("```", "~~~~"), or "" outside code
}

// frontMatter writes a leading YAML front-matter block as plain lines, so
// its closing "---" is not taken for a setext underline, and returns the
// rest.
func (m *markdownReader) frontMatter(lines []string) []string {
	if len(lines) == 0 || strings.TrimSpace(lines[0]) != "---" {
		return lines
	}
	for i := 1; i < len(lines) && i < 200; i++ {
		if t := strings.TrimSpace(lines[i]); t == "---" || t == "..." {
			for _, l := range lines[1:i] {
				m.w.line(l)
			}
			return lines[i+1:]
		}
	}
	return lines
}

func (m *markdownReader) line(l string) {
	if m.fence != "" {
		if closesFence(l, m.fence) {
			m.fence = ""
			return
		}
		m.w.line(l)
		return
	}
	if f := fenceOpen.FindStringSubmatch(l); f != nil {
		m.endParagraph()
		m.fence = f[1]
		return
	}
	trimmed := strings.TrimSpace(l)
	switch {
	case trimmed == "":
		m.endParagraph()
	case len(m.para) > 0 && !strings.HasPrefix(l, "    ") && underline.MatchString(l) && !listItem(strings.TrimSpace(m.para[0])):
		heading := inlineText(strings.Join(m.para, " "))
		m.para = nil
		m.w.setSection(headingLine(heading))
		m.w.line(heading)
	case thematicBreak.MatchString(l):
		m.endParagraph()
	case atxHeading.MatchString(l) && !strings.HasPrefix(l, "    "):
		m.endParagraph()
		heading := inlineText(atxHeading.FindStringSubmatch(l)[2])
		if heading == "" {
			return
		}
		m.w.setSection(headingLine(heading))
		m.w.line(heading)
	case tableDelimiter.MatchString(l) && strings.Contains(l, "-"):
		// The |---|---| row under a table header carries no text.
	default:
		m.para = append(m.para, l)
	}
}

func closesFence(l, fence string) bool {
	t := strings.TrimSpace(l)
	if len(l)-len(strings.TrimLeft(l, " ")) > 3 || len(t) < len(fence) {
		return false
	}
	return strings.Trim(t, fence[:1]) == ""
}

func (m *markdownReader) endParagraph() {
	if len(m.para) == 0 {
		return
	}
	lines := make([]string, len(m.para))
	for i, l := range m.para {
		l = strings.TrimSpace(l)
		for strings.HasPrefix(l, ">") {
			l = strings.TrimSpace(strings.TrimPrefix(l, ">"))
		}
		lines[i] = l
	}
	for _, l := range unwrapLines(lines) {
		m.w.line(inlineText(l))
	}
	m.para = nil
}

// inlineText reduces inline Markdown to its text: images to their alt text,
// links to their label, and strong-emphasis and code markers removed. Single
// "*" and "_" stay, since identifiers such as inv_snl_paco use them.
func inlineText(s string) string {
	s = mdImage.ReplaceAllString(s, "$1")
	s = mdLink.ReplaceAllString(s, "$1")
	s = mdRefLink.ReplaceAllString(s, "$1")
	s = strings.NewReplacer("**", "", "__", "", "`", "").Replace(s)
	return strings.TrimSpace(s)
}
