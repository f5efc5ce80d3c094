package rank

import (
	"hash/fnv"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/cewhq/cew/pipeline/classify"
	"github.com/cewhq/cew/store"
	"github.com/cewhq/cew/store/analysis"
)

// DefaultTopK is how many chunks Select keeps when TopK is 0.
const DefaultTopK = 5

// Score factors Select applies. Boilerplate pages repeat the words of many
// questions (a contents page lists every section title; a notice page says
// "report", "energy", "government") yet answer none of them, so they are
// pushed below any chunk that covers the question comparably. The boosts
// are small: they break near-ties toward the kind of chunk a category is
// usually answered from, they do not outrank a better match.
const (
	contentsFactor = 0.35
	noticeFactor   = 0.3
	coverFactor    = 0.4
	glossaryFactor = 0.5
	preferFactor   = 1.1
)

// SelectOptions configures Select.
type SelectOptions struct {
	// TopK is how many chunks to keep; 0 or less means DefaultTopK.
	TopK  int
	Hints classify.Hints
	// Query is the question as searched: a neighbour of a kept chunk is
	// kept too when it holds a word of it that no kept chunk of its
	// document holds.
	Query string
}

// Select applies page-kind penalties and category boosts to reranked hits,
// re-sorts them, drops near-duplicates (identical text, or the adjacent
// chunk of the same page of the same document revision, keeping the better
// one, unless it holds a word of the query no kept chunk of its document
// holds: the next rows of a long table; that another document says the
// word tells nothing of this one) and returns the best TopK. Scores stay in
// [0,1]. The input is not modified.
func Select(hits []store.Hit, opts SelectOptions) []store.Hit {
	k := opts.TopK
	if k <= 0 {
		k = DefaultTopK
	}
	out := slices.Clone(hits)
	for i := range out {
		out[i].Score = clamp01(out[i].Score * scoreFactor(&out[i].Chunk, opts.Hints))
	}
	sortHits(out)

	query := analysis.TermSet(opts.Query)
	covered := map[docTerm]bool{} // the query's terms each document's kept chunks hold
	kept := out[:0]
	texts := make(map[uint64]bool, k)
	for _, h := range out {
		if len(kept) == k {
			break
		}
		key := textKey(h.Chunk.Text)
		if texts[key] {
			continue
		}
		var terms map[string]bool
		if len(query) > 0 {
			terms = analysis.TermSet(h.Chunk.Text)
		}
		doc := h.Chunk.DocID
		if adjacentToKept(kept, h.Chunk) && !addsTerm(query, terms, doc, covered) {
			continue
		}
		for t := range terms {
			if query[t] {
				covered[docTerm{doc, t}] = true
			}
		}
		texts[key] = true
		kept = append(kept, h)
	}
	return slices.Clip(kept)
}

// scoreFactor multiplies the penalties and boosts that apply to a chunk.
func scoreFactor(c *store.Chunk, hints classify.Hints) float64 {
	f := 1.0
	kind := classifyPage(c)
	if kind.contents {
		f *= contentsFactor
	}
	if kind.notice && !hints.AllowNotice {
		f *= noticeFactor
	}
	if kind.cover {
		f *= coverFactor
	}
	if kind.glossary && !hints.AllowGlossary {
		f *= glossaryFactor
	}
	if hints.PreferNumbers && kind.quantities {
		f *= preferFactor
	}
	if hints.PreferTables && kind.table {
		f *= preferFactor
	}
	if hints.PreferDrawings && kind.drawing {
		f *= preferFactor
	}
	return f
}

// adjacentToKept reports whether c is the neighbour of a kept chunk on the
// same page and in the same section of the same document revision: the
// chunker overlaps neighbours only within a section, so a table next to the
// prose that introduces it is a passage of its own. Spreadsheet rows are
// exempt: neighbouring rows are different records, not overlapping passages;
// so are the rows of a table rebuilt from a PDF ("OR Portland | 11.6 % | …"),
// whose neighbour holds the next rows, another place's.
func adjacentToKept(kept []store.Hit, c store.Chunk) bool {
	if c.Sheet != "" || c.Row > 0 || tableRows(c.Text) {
		return false
	}
	for _, h := range kept {
		k := h.Chunk
		if k.DocID == c.DocID && k.Revision == c.Revision && k.Page == c.Page && k.Section == c.Section &&
			k.Sheet == "" && k.Row == 0 && (k.Index == c.Index+1 || k.Index == c.Index-1) {
			return true
		}
	}
	return false
}

// tableRows reports whether most lines of a text are table rows, their
// cells set apart by " | ".
func tableRows(text string) bool {
	lines := strings.Split(strings.TrimSpace(text), "\n")
	rows := 0
	for _, l := range lines {
		if strings.Contains(l, " | ") {
			rows++
		}
	}
	return 2*rows > len(lines)
}

// docTerm is a term of a document.
type docTerm struct{ doc, term string }

// addsTerm reports whether terms hold a term of the query that no kept
// chunk of doc holds yet.
func addsTerm(query, terms map[string]bool, doc string, covered map[docTerm]bool) bool {
	for t := range terms {
		if query[t] && !covered[docTerm{doc, t}] && !analysis.IsStopword(t) {
			return true
		}
	}
	return false
}

// textKey hashes a text with case and spacing folded, so the same passage
// ingested twice (two documents, or a repeated page) counts once.
func textKey(s string) uint64 {
	h := fnv.New64a()
	for _, f := range strings.Fields(strings.ToLower(s)) {
		h.Write([]byte(f))
		h.Write([]byte{' '})
	}
	return h.Sum64()
}

// pageKind is what Select recognises about a chunk.
type pageKind struct {
	contents, notice, cover, glossary bool
	quantities, table, drawing        bool
}

var (
	// dotLeader is a run of dots (or spaced dots) leading to a page
	// number, as contents pages, lists of figures and tables have.
	dotLeader = regexp.MustCompile(`(?:\.\s?){4,}\s*\d{1,4}\b|…{2,}\s*\d{1,4}\b`)
	// contentsHeading opens a contents page.
	contentsHeading = regexp.MustCompile(`(?i)^\s*(?:table of contents|contents|list of (?:figures|tables))\b`)
	// glossaryHeading names a definitions list.
	glossaryHeading = regexp.MustCompile(`(?i)\b(?:glossary|definitions|abbreviations|acronyms|nomenclature|terminology|list of symbols|terms and definitions)\b`)
)

// Legal boilerplate, matched on lower-cased text. strongNotice phrases
// appear only there; weakNotice ones are common there and rare elsewhere,
// so it takes several of them, or one under a NOTICE heading.
var (
	strongNotice = []string{
		"this report was prepared as an account of work sponsored",
		"neither the united states government",
		"all rights reserved",
		"makes any warranty, express or implied",
		"disclaimer",
	}
	weakNotice = []string{
		"copyright", "©", "express or implied", "without warranty", "does not necessarily constitute",
		"does not necessarily state", "does not necessarily reflect", "endorsement", "views and opinions",
		"trademark", "assumes any legal liability",
	}
	noticeHeadings = []string{"NOTICE", "DISCLAIMER", "LEGAL NOTICE", "COPYRIGHT"}
)

// drawingTitleWords mark a document or section that is a drawing.
var drawingTitleWords = map[string]bool{
	"drawing": true, "drawings": true, "dwg": true, "layout": true, "plan": true, "detail": true,
	"details": true, "elevation": true, "elevations": true, "diagram": true, "schematic": true,
	"arrangement": true, "sld": true,
}

// unitWords follow a number to make it a quantity: "800 mm", "14 %".
var unitWords = map[string]bool{
	"mm": true, "cm": true, "m": true, "km": true, "in": true, "ft": true, "v": true, "kv": true,
	"mv": true, "a": true, "ka": true, "ma": true, "w": true, "kw": true, "kwp": true, "mw": true,
	"mwp": true, "gw": true, "wh": true, "kwh": true, "mwh": true, "gwh": true, "va": true, "kva": true,
	"mva": true, "var": true, "kvar": true, "hz": true, "ohm": true, "ohms": true, "ω": true, "kg": true,
	"t": true, "kn": true, "mpa": true, "kpa": true, "pa": true, "bar": true, "%": true, "°c": true,
	"°": true, "°f": true, "deg": true, "degrees": true, "mm2": true, "mm²": true, "m2": true, "m²": true,
	"m³": true, "awg": true, "kcmil": true, "years": true, "year": true, "hours": true, "h": true,
	"lux": true, "wp": true, "w/m2": true, "w/m²": true, "%/°c": true, "kwh/kwp": true,
}

// classifyPage recognises boilerplate and useful page kinds from a chunk's
// text and metadata. It runs on every candidate, so it scans lines by hand
// and keeps regular expressions behind cheap pre-checks.
func classifyPage(c *store.Chunk) pageKind {
	var k pageKind
	text := c.Text
	head := text
	if len(head) > 300 {
		head = head[:300]
	}

	var words, lines, textLines, entries, pageLines int
	noticeHeading, caption := false, false
	for line := range strings.SplitSeq(text, "\n") {
		line = strings.TrimSpace(line)
		lines++
		fields := strings.Fields(line)
		words += len(fields)
		if len(fields) > 0 {
			textLines++
		}
		if slices.Contains(noticeHeadings, line) {
			noticeHeading = true
		}
		if len(fields) >= 2 && fields[0] == "Table" && isTableLabel(fields[1]) {
			caption = true
		}
		if isGlossaryEntry(line) {
			entries++
		}
		if len(fields) >= 2 && isPageNumber(fields[len(fields)-1]) && !isPageNumber(fields[0]) {
			pageLines++
		}
	}

	leaders := 0
	if strings.Contains(text, "....") || strings.Contains(text, ". . . .") || strings.Contains(text, "……") {
		leaders = len(dotLeader.FindAllStringIndex(text, 4))
	}
	k.contents = leaders >= 3 ||
		pageLines >= 3 && (contentsHeading.MatchString(head) || contentsHeading.MatchString(c.Section))

	lower := strings.ToLower(text)
	weak := 0
	for _, p := range weakNotice {
		if strings.Contains(lower, p) {
			weak++
		}
	}
	k.notice = slices.ContainsFunc(strongNotice, func(p string) bool { return strings.Contains(lower, p) }) ||
		noticeHeading && weak > 0 || weak >= 3

	toks := analysis.Tokens(text)
	k.quantities = hasQuantity(toks)
	// Definition lists are lines of "TERM – meaning"; a table of values
	// looks alike but carries quantities.
	k.glossary = glossaryHeading.MatchString(c.Section) || glossaryHeading.MatchString(firstLine(head)) ||
		lines >= 6 && entries >= 5 && 2*entries >= lines && !k.quantities

	k.table = c.Sheet != "" || c.Row > 0 || caption || numericShare(toks) >= 0.3
	// A title page is short, set in short lines (title, author, report
	// number, date) rather than running prose, and carries no data: a
	// table of values or a short abstract at the top of a document is not
	// one.
	k.cover = c.Page >= 1 && c.Page <= 2 && c.Sheet == "" && words < 80 && words < 7*textLines &&
		!k.table && !k.quantities
	for _, f := range [...]string{c.Title, c.Section} {
		for _, w := range strings.FieldsFunc(strings.ToLower(f), func(r rune) bool {
			return !unicode.IsLetter(r)
		}) {
			if drawingTitleWords[w] {
				k.drawing = true
			}
		}
	}
	return k
}

// isTableLabel reports whether s numbers a table: "6", "6.", "A1:", "B".
func isTableLabel(s string) bool {
	s = strings.TrimRight(s, ".:")
	if s == "" || len(s) > 5 {
		return false
	}
	for _, r := range s {
		if !unicode.IsDigit(r) && !unicode.IsUpper(r) {
			return false
		}
	}
	return true
}

// isPageNumber reports whether s is a page number of a contents line.
func isPageNumber(s string) bool {
	if s == "" || len(s) > 3 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

// isGlossaryEntry recognises "TERM – meaning", "TERM: meaning" and
// "TERM = meaning", with a term of at most three short words.
func isGlossaryEntry(line string) bool {
	for _, sep := range [...]string{" – ", " — ", " - ", ": ", " = ", "\t"} {
		i := strings.Index(line, sep)
		if i <= 0 {
			continue
		}
		term, rest := line[:i], strings.TrimSpace(line[i+len(sep):])
		if rest == "" {
			return false
		}
		parts := strings.Fields(term)
		if len(parts) == 0 || len(parts) > 3 {
			return false
		}
		for _, p := range parts {
			if len(p) > 25 {
				return false
			}
		}
		r, _ := utf8.DecodeRuneInString(term)
		return unicode.IsLetter(r)
	}
	return false
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// hasQuantity reports whether text holds a number with a unit: "800 mm",
// "14 %", "800mm", "-0.35%/°C".
func hasQuantity(toks []analysis.Token) bool {
	for i, t := range toks {
		switch t.Kind {
		case analysis.Number:
			if strings.HasSuffix(t.Text, "%") {
				return true
			}
			if i+1 < len(toks) && unitWords[toks[i+1].Text] && toks[i+1].Start-t.End <= 1 {
				return true
			}
		case analysis.Identifier:
			if num, unit := splitQuantity(t.Text); num != "" && unitWords[unit] {
				return true
			}
		}
	}
	return false
}

// numericShare is the share of tokens that are numbers: tables extracted
// from PDFs are mostly numbers, prose is not.
func numericShare(toks []analysis.Token) float64 {
	if len(toks) < 10 {
		return 0
	}
	n := 0
	for _, t := range toks {
		if t.Kind == analysis.Number {
			n++
		}
	}
	return float64(n) / float64(len(toks))
}
