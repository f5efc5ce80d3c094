package generate

import (
	"cmp"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/cewhq/cew/pipeline/guard"
	"github.com/cewhq/cew/store"
	"github.com/cewhq/cew/store/analysis"
)

// Tables and spreadsheet rows are quoted by the cells the question asks
// about, under their column headers, rather than whole.

// quoteText is the part of a unit the answer quotes: a sentence whole; of a
// table row, its label and the cells the question asks about under their
// column headers ("Soiling — Default value: 2 %"); of a spreadsheet row,
// its name and the fields asked about. Every word is the document's. typed
// is set when the table itself says the quoted cell is of the dimension
// asked for (a "degrees" unit column beside "Site Latitude"), or the
// question names the spreadsheet columns quoted.
func (e *Extractive) quoteText(q question, c candidate) (text string, typed bool) {
	switch {
	case c.kind == kindRow && c.carried:
		return c.text, false
	case c.kind == kindRow:
		cells, typed, none := askedCells(q, c.unit)
		if none {
			return "", false
		}
		if cells != "" {
			return cells, typed
		}
		if c.header != "" {
			return c.header + ": " + c.text, false
		}
	case c.kind == kindRecord:
		text, asked, byName := e.trimRecord(q, c)
		if !asked && len(c.fields) > e.opts.MaxRecordFields {
			// A long row of which the question names no field ("the
			// bifaciality of the SPR-300-WHT"): quoting it all would not
			// answer.
			return "", false
		}
		// "pvl-68 diode factor and the a / b module temp coeffs": the
		// question names the columns, and what it calls them is what
		// their cells are, though the sheet writes no unit.
		return text, byName && q.expect.WantsValue()
	}
	return c.text, false
}

// definesTerm reports whether a spreadsheet row is a legend entry: it has a
// field named Description, Definition or Meaning.
func definesTerm(u unit) bool {
	for _, f := range u.fields {
		name, _, _ := strings.Cut(f, ":")
		switch strings.ToLower(strings.TrimSpace(name)) {
		case "description", "definition", "meaning", "explanation":
			return true
		}
	}
	return false
}

// labelAsked reports whether the question names a table row's label (its
// first cell): at least half its words, the first of them included ("tilt"
// names "Tilt angle"). A place after a state's code, which the question
// names without the code, is placeRow's to judge.
func labelAsked(q question, u unit) bool {
	var label string
	switch {
	case u.kind == kindRow && u.header != "":
		label = splitCells(u.text)[0]
	default:
		return false
	}
	words := analysis.Terms(label)
	if len(words) == 0 {
		return false
	}
	if _, ok := q.index[words[0]]; !ok {
		return false
	}
	found := 0
	for _, w := range words {
		if _, ok := q.index[w]; ok {
			found++
		}
	}
	return 2*found >= len(words)
}

// otherLabel reports whether a table row's label names another thing than
// the question: the question holds some of the label's words but not all
// ("co" of "CO Boulder"), and right beside one of them a word that is in
// none of the passages ("denver co") names what it asks about. A label the
// question holds whole, a word the label's missing word abbreviates
// ("maine" of "ME Portland") or one beside a column's name ("newark single
// axis") is not another thing.
func otherLabel(q question, u unit) bool {
	if u.header == "" {
		return false
	}
	label := splitCells(u.text)[0]
	words := labelWords(label)
	header := analysis.Terms(u.header)
	var missing []string
	for _, w := range words {
		if !q.has[w] {
			missing = append(missing, w)
		}
	}
	if len(missing) == 0 || len(missing) == len(words) {
		return false
	}
	raw := strings.Fields(strings.ToLower(label))
	return slices.ContainsFunc(q.terms, func(t qterm) bool {
		if !t.unseen || t.frame || t.exact || !besideLabel(q.order, t.term, words) || besideLabel(q.order, t.term, header) {
			// A word beside a column's ("single" of "single axis",
			// the header's "1 Axis") says which column, not which row.
			return false
		}
		// "portland maine": "ME" of "ME Portland" abbreviates "maine"
		// (whose term is "main"); "salt lake cty" clips "City".
		for w := range q.words {
			if strings.HasPrefix(w, t.term) && slices.ContainsFunc(missing, func(m string) bool { return abbreviates(m, w) }) {
				return false
			}
			if slices.ContainsFunc(raw, func(l string) bool { return abbreviates(w, l) }) && slices.Contains(analysis.Terms(w), t.term) {
				return false
			}
		}
		return true
	})
}

// otherState reports whether a table row's label names a US state by its
// postal code ("ME Portland"), the question names the row's place and only
// other states, in full or by a code that is no English word: "portland
// oregon" is not "ME Portland", "charleston wv" not "SC Charleston". A
// state that is another place's, by the label of another row of the table
// (labels) whose place the question names too, is not another state of
// this one: "hartford ct and indianapolis".
func otherState(q question, u unit, labels [][]string) bool {
	if u.header == "" {
		return false
	}
	code, named := "", false
	var place []string
	for _, f := range strings.Fields(splitCells(u.text)[0]) {
		if c := strings.ToLower(f); f == strings.ToUpper(f) && stateCodes[c] {
			code = c
		} else {
			terms := analysis.Terms(f)
			place = append(place, terms...)
			named = named || slices.ContainsFunc(terms, func(t string) bool { return q.has[t] })
		}
	}
	elsewhere := func(c string) bool {
		return slices.ContainsFunc(labels, func(l []string) bool {
			if !slices.Contains(l, c) || slices.Contains(l, code) {
				return false
			}
			rest := slices.DeleteFunc(slices.Clone(l), func(w string) bool { return w == c })
			return len(rest) > 0 && !slices.ContainsFunc(rest, func(w string) bool { return !q.has[w] || slices.Contains(place, w) })
		})
	}
	if code == "" || !named {
		// A row the question does not name by its place is told apart
		// by the rest of the question.
		return false
	}
	own, other := false, false
	for name, c := range usStates {
		if q.excluded[name] && c == code {
			return true // "OR Portland" for "portland me (not the oregon one)"
		}
		if q.excluded[name] || q.excluded[c] {
			continue // "portland me (not the oregon one)"
		}
		said := q.words[name]
		if strings.Contains(name, " ") {
			said = q.joined[strings.ReplaceAll(name, " ", "")]
		}
		if said || !englishCodes[c] && q.words[c] {
			own = own || c == code
			other = other || c != code && !elsewhere(c)
		}
	}
	return other && !own
}

// placeAsked reports whether the question names every word of the place a
// table row's label gives after a state's postal code: "yakima" names "WA
// Yakima", "des moines" "IA Des Moines" (otherState settles a question
// that names another state).
func placeAsked(q question, label string) bool {
	place := statePlace(label)
	return len(place) > 0 && !slices.ContainsFunc(place, func(w string) bool { return !q.has[w] })
}

// placeRow reports whether a table row answers for a place the question
// names (placeAsked) in every case it asks about: the row, its header, its
// passage or the passage's section (Table 8's "Comparison with Version 1
// Results") name each contrasting case the question names
// (guard.Qualifiers), or a sibling of it. "phoenix fixed roof mount" is
// not answered for sure by the "AZ Phoenix" row of a table that never says
// how its fixed arrays are mounted; a limit ("minimum") and a tool are
// left to the other checks.
func placeRow(q question, u unit, ctx unitContext) bool {
	if u.kind != kindRow || u.header == "" || !placeAsked(q, splitCells(u.text)[0]) {
		return false
	}
	named := slices.Concat(guard.Qualifiers(u.header+"\n"+u.text+"\n"+ctx.frame), ctx.cases)
	return !slices.ContainsFunc(q.expect.Qualifiers, func(qual guard.Qualifier) bool {
		return !guard.IsBound(qual) && !guard.IsScope(qual) && !guard.Mentions(named, qual) && !namesSibling(named, qual)
	})
}

// otherSetting reports whether the question sets a quantity to a decimal
// number ("1-axis at gcr 0.3") that a table row and its header do not
// state: the row answers for the setting its table was computed with, not
// the one asked about. Ticket numbers and table references are whole.
func otherSetting(q question, terms, header map[string]bool) bool {
	return slices.ContainsFunc(q.terms, func(t qterm) bool {
		return t.exact && !t.code && !q.excluded[t.term] && strings.Contains(t.term, ".") && !terms[t.term] && !header[t.term]
	})
}

// columnLegends returns, by document and then by column heading (lower
// case), the sentences of a document that say what a column of one of its
// tables stands for: Table 8's "Fixed: Fixed 20 degree tilt, south facing,
// standard module", on the page before the table.
func columnLegends(units []unit, chunks []store.Chunk) map[string]map[string]string {
	heads := map[[2]string]bool{}
	for _, u := range units {
		if u.kind == kindRow && u.header != "" {
			for _, h := range splitCells(u.header)[1:] {
				heads[[2]string{chunks[u.chunk].DocID, strings.ToLower(strings.TrimSpace(h))}] = true
			}
		}
	}
	if len(heads) == 0 {
		return nil
	}
	var out map[string]map[string]string
	for _, u := range units {
		if u.kind == kindRow || u.kind == kindRecord {
			continue
		}
		name, desc, ok := strings.Cut(u.text, ":")
		doc, head := chunks[u.chunk].DocID, strings.ToLower(strings.TrimLeft(strings.TrimSpace(name), "0123456789. "))
		if !ok || !heads[[2]string{doc, head}] || strings.TrimSpace(desc) == "" {
			continue
		}
		if out == nil {
			out = map[string]map[string]string{}
		}
		if out[doc] == nil {
			out[doc] = map[string]string{}
		}
		out[doc][head] = strings.TrimSpace(desc)
	}
	return out
}

// quotedLegends returns the legends (see columnLegends) of the columns a
// table row's quote gives, or ok false when a quoted column has none.
func quotedLegends(legends map[string]string, header, quote string) (string, bool) {
	var out []string
	for _, h := range splitCells(header)[1:] {
		h = strings.TrimSpace(h)
		if !strings.Contains(quote, rowLabelSep+h+rowValueSep) && !strings.Contains(quote, rowCellSep+h+rowValueSep) {
			continue
		}
		l, ok := legends[strings.ToLower(h)]
		if !ok {
			return "", false
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n"), len(out) > 0
}

// statePlace returns the terms of the place a table row's label names after
// a state's postal code ("yakima" of "WA Yakima"), or nil when the label
// does not open with one.
func statePlace(label string) []string {
	code, place, ok := strings.Cut(strings.TrimSpace(label), " ")
	if !ok || code != strings.ToUpper(code) || !stateCodes[strings.ToLower(code)] {
		return nil
	}
	return analysis.Terms(place)
}

// usStates are the US states by name, with their postal codes.
var usStates = map[string]string{"alabama": "al", "alaska": "ak", "arizona": "az", "arkansas": "ar", "california": "ca",
	"colorado": "co", "connecticut": "ct", "delaware": "de", "florida": "fl", "georgia": "ga", "hawaii": "hi", "idaho": "id",
	"illinois": "il", "indiana": "in", "iowa": "ia", "kansas": "ks", "kentucky": "ky", "louisiana": "la", "maine": "me",
	"maryland": "md", "massachusetts": "ma", "michigan": "mi", "minnesota": "mn", "mississippi": "ms", "missouri": "mo",
	"montana": "mt", "nebraska": "ne", "nevada": "nv", "new hampshire": "nh", "new jersey": "nj", "new mexico": "nm",
	"new york": "ny", "north carolina": "nc", "north dakota": "nd", "ohio": "oh", "oklahoma": "ok", "oregon": "or",
	"pennsylvania": "pa", "rhode island": "ri", "south carolina": "sc", "south dakota": "sd", "tennessee": "tn",
	"texas": "tx", "utah": "ut", "vermont": "vt", "virginia": "va", "washington": "wa", "west virginia": "wv",
	"wisconsin": "wi", "wyoming": "wy"}

// stateCodes are the postal codes of usStates; englishCodes those that are
// English words too, which a question may say for themselves ("or", "in").
var (
	stateCodes = func() map[string]bool {
		m := map[string]bool{}
		for _, c := range usStates {
			m[c] = true
		}
		return m
	}()
	englishCodes = set(`al ar co de hi id in la me ma mi mo ne oh ok or pa ut`)
)

// labelWords returns the terms of a row's label with the codes in capitals
// the analyser reads as stopwords: "ME" and "OR" of "ME Portland" and "OR
// Portland" name states.
func labelWords(label string) []string {
	words := analysis.Terms(label)
	for _, f := range strings.Fields(label) {
		if len(f) >= 2 && len(f) <= 3 && strings.ToUpper(f) == f && strings.ToLower(f) != f {
			if w := strings.ToLower(f); !slices.Contains(words, w) {
				words = append(words, w)
			}
		}
	}
	return words
}

// tableLabels returns the words of the label (first cell) of every table row
// among units, by the row's header.
func tableLabels(units []unit) map[string][][]string {
	var out map[string][][]string
	for _, u := range units {
		if u.kind != kindRow || u.header == "" {
			continue
		}
		if out == nil {
			out = map[string][][]string{}
		}
		out[u.header] = append(out[u.header], labelWords(splitCells(u.text)[0]))
	}
	return out
}

// mixedLabel reports whether the question names a row of a table by words
// of two rows' labels: "charleston wv" holds "WV" of "WV Elkins" and, right
// beside it, "Charleston" of "SC Charleston" — a place the table does not
// list, so neither row answers. labels are the label words of the table's
// rows.
func mixedLabel(q question, u unit, labels [][]string) bool {
	if u.header == "" || len(labels) < 2 {
		return false
	}
	words := labelWords(splitCells(u.text)[0])
	named := 0
	for _, w := range words {
		if q.has[w] {
			named++
		}
	}
	if named == 0 || named == len(words) {
		return false
	}
	for _, t := range q.terms {
		if t.frame || slices.Contains(words, t.term) || !besideLabel(q.order, t.term, words) {
			continue
		}
		for _, other := range labels {
			if slices.Contains(other, t.term) && !slices.Equal(other, words) {
				return true
			}
		}
	}
	return false
}

// besideLabel reports whether term stands in the question right before or
// after a word of the label: "denver co" names a city beside the state.
// (Or, given a header's words, beside a column's name.)
func besideLabel(order []string, term string, label []string) bool {
	for i, o := range order {
		if o != term {
			continue
		}
		if i > 0 && slices.Contains(label, order[i-1]) || i+1 < len(order) && slices.Contains(label, order[i+1]) {
			return true
		}
	}
	return false
}

// abbreviates reports whether abbr, a word of up to three letters,
// abbreviates word: its first letter opens word and its other letters
// follow in order ("me" of "maine", "wy" of "wyoming").
func abbreviates(abbr, word string) bool {
	if len(abbr) > 3 || len(abbr) >= len(word) || abbr[0] != word[0] {
		return false
	}
	rest := word[1:]
	for _, r := range abbr[1:] {
		i := strings.IndexRune(rest, r)
		if i < 0 {
			return false
		}
		rest = rest[i+1:]
	}
	return true
}

// askedCells writes a table row as its label and the cells of the columns
// the question asks about, or "" when the row and its header do not line
// up or no column is asked about; none is set when no cell of the row is
// about the cases the question asks for (see askedColumns).
func askedCells(q question, u unit) (text string, typed, none bool) {
	if u.header == "" {
		return "", false, false
	}
	heads := splitCells(u.header)
	cells := splitCells(u.text)
	if len(heads) != len(cells) || len(heads) < 2 {
		return "", false, false
	}
	unitCol := -1
	for i, h := range heads {
		if i > 0 && unitHeaders[strings.ToLower(strings.TrimSpace(h))] {
			unitCol = i
		}
	}
	asked, none := askedColumns(q, heads, cells, unitCol)
	if none {
		return "", false, true
	}
	if unitCol > 0 && (q.expect.WantsUnit || len(asked) == 0 && len(heads) == 2) {
		// The unit is asked for, or is all the row says of its label.
		return strings.TrimSpace(cells[0]) + rowLabelSep + strings.TrimSpace(heads[unitCol]) + rowValueSep + strings.TrimSpace(cells[unitCol]), q.expect.WantsUnit, false
	}
	if len(asked) == 0 {
		return "", false, false
	}
	label := strings.TrimSpace(cells[0])
	typed = false
	if unitCol > 0 && strings.TrimSpace(cells[unitCol]) != "" {
		unitCell := strings.TrimSpace(cells[unitCol])
		label += " (" + unitCell + ")"
		typed = q.expect.WantsValue() && q.expect.Accepts("1 "+unitCell, nil)
	}
	parts := make([]string, len(asked))
	for i, j := range asked {
		// A cell ending a sentence does not end the quote: "…predictions; Date: 2003".
		parts[i] = strings.TrimSpace(heads[j]) + rowValueSep + strings.TrimSuffix(strings.TrimSpace(cells[j]), ".")
	}
	return label + rowLabelSep + strings.Join(parts, rowCellSep), typed, false
}

// A table row is quoted as its label, then the cells asked, each with its
// column's heading: "V2 — Date: 2001; Status: Retiring in 2014".
const (
	rowLabelSep = " — "
	rowCellSep  = "; "
	rowValueSep = ": "
)

// dimHeaders name a column by the dimension of its values.
var dimHeaders = map[string]guard.Dimension{"date": guard.DimDate, "year": guard.DimDate}

// unitHeaders name a column that gives the unit of the row's values.
var unitHeaders = map[string]bool{"units": true, "unit": true, "units/values": true, "uom": true}

// askedColumns returns the value columns (not the label, not the unit
// column) whose header shares a word with the question; failing that, the
// columns holding a value of the kind the question asks for. A header that
// names contrasting cases is asked for when every case it names is asked:
// "1 Axis" for "fixed and 1-axis", not "Fixed+Premium" (premium was not
// asked) nor "2 Axis". none is set when the header tells asked cases apart
// and the columns asked for leave one of them out: "2-axis premium" of a
// table with "Fixed+Premium" and "2 Axis" columns has no cell to quote.
func askedColumns(q question, heads, cells []string, unitCol int) (asked []int, none bool) {
	var inHeader, covered []guard.Qualifier
	// dated are the columns whose header names the dimension asked for,
	// said those whose cell names what is asked and states a value of it.
	var dated, said []int
	spelled := map[string]bool{} // terms that spell out a header's acronym
	for j := 1; j < len(heads); j++ {
		if j != unitCol && strings.TrimSpace(cells[j]) != "" && spellsOut(q, heads[j], spelled) {
			// "ground coverage ratio" asks for the GCR* column, and its
			// "ground" does not ask for "Ground surface".
			asked = append(asked, j)
		}
	}
	for j := 1; j < len(heads); j++ {
		if j == unitCol || strings.TrimSpace(cells[j]) == "" || slices.Contains(asked, j) {
			continue
		}
		if cases := guard.Qualifiers(heads[j]); len(cases) > 0 && len(q.expect.Qualifiers) > 0 {
			all := true
			for _, c := range cases {
				if guard.Mentions(q.expect.Qualifiers, c) {
					inHeader = append(inHeader, c)
				} else {
					all = false
				}
			}
			if all {
				asked = append(asked, j)
				covered = append(covered, cases...)
			}
			continue
		}
		if d, ok := dimHeaders[strings.ToLower(strings.TrimSpace(heads[j]))]; ok && slices.Contains(q.expect.Dims, d) {
			// "v3 year + status": the Date column gives the year.
			dated = append(dated, j)
			continue
		}
		if holdsAsked(q, heads[j], spelled) {
			asked = append(asked, j)
		} else if holdsAsked(q, cells[j], nil) && q.expect.Accepts(cells[j], q.numbers) {
			// "v3 went defunct in what yr": "Defunct in 2012" says it,
			// not the Date column.
			said = append(said, j)
		}
	}
	switch {
	case len(said) > 0 && q.dateAsks > 1:
		// "what year did v3 come out and when did it go defunct": the
		// Date column answers one ask, "Defunct in 2012" the other.
		dated = append(dated, said...)
	case len(said) > 0:
		dated = said
	}
	asked = append(asked, dated...)
	slices.Sort(asked)
	asked = slices.Compact(asked)
	for _, c := range inHeader {
		if !guard.Mentions(covered, c) {
			return nil, true
		}
	}
	if len(asked) > 0 {
		return withCases(q, cells, unitCol, asked), false
	}
	if !q.expect.WantsValue() {
		return asked, false
	}
	for j := 1; j < len(heads); j++ {
		if j != unitCol && q.expect.Accepts(heads[j]+" "+cells[j], q.numbers) {
			asked = append(asked, j)
		}
	}
	return asked, false
}

// withCases adds to the columns asked the cells that name a case the
// question asks for which the row's label does not name: "what yr did the
// soap web service version of v2 come out" quotes the SOAP row's
// description, "A web service version of V2 …", with its date, so the
// answer says it is about V2.
func withCases(q question, cells []string, unitCol int, asked []int) []int {
	named := guard.Qualifiers(cells[0])
	for _, j := range asked {
		named = append(named, guard.Qualifiers(cells[j])...)
	}
	var more []int
	for j := 1; j < len(cells); j++ {
		if j == unitCol || slices.Contains(asked, j) {
			continue
		}
		own := guard.Qualifiers(cells[j])
		if slices.ContainsFunc(q.expect.Qualifiers, func(c guard.Qualifier) bool {
			return !guard.IsScope(c) && guard.Mentions(own, c) && !guard.Mentions(named, c)
		}) {
			more = append(more, j)
		}
	}
	if len(more) == 0 {
		return asked
	}
	asked = append(asked, more...)
	slices.Sort(asked)
	return asked
}

// initials are the first letters of a run of words, or "" when the run
// holds a number or an identifier.
func initials(run []qterm) string {
	var b strings.Builder
	for _, t := range run {
		if t.exact || t.term == "" {
			return ""
		}
		b.WriteByte(t.term[0])
	}
	return b.String()
}

// spelledRun is a run of a question's terms, from first to first+n, whose
// initials are letters.
type spelledRun struct {
	letters  string
	first, n int
}

// minSpelledRun is the fewest words a run spelling out an acronym in a
// passage has: two initials ("module type", "MT") are too often chance.
const minSpelledRun = 3

// spelledRuns returns the runs of terms that may spell out an acronym a
// passage writes: "ground coverage ratio" is GCR in "a GCR of zero".
func spelledRuns(terms []qterm) []spelledRun {
	var out []spelledRun
	for n := minSpelledRun; n <= maxAcronym; n++ {
		for i := 0; i+n <= len(terms); i++ {
			if l := initials(terms[i : i+n]); l != "" {
				out = append(out, spelledRun{letters: l, first: i, n: n})
			}
		}
	}
	return out
}

// acronymCredit returns the question's terms that the unit holds as an
// acronym in capitals ("GCR", "GCRs") their initials spell, or nil.
func acronymCredit(q question, text string, toks []analysis.Token) map[int]bool {
	if len(q.spelled) == 0 {
		return nil
	}
	var out map[int]bool
	for _, t := range toks {
		w := strings.TrimSuffix(text[t.Start:t.End], "s")
		if t.Kind != analysis.Word || len(w) < minSpelledRun || strings.ToUpper(w) != w {
			continue
		}
		l := strings.ToLower(w)
		for _, r := range q.spelled {
			if r.letters != l {
				continue
			}
			if _, asked := q.index[l]; asked {
				continue // named as written
			}
			if out == nil {
				out = map[int]bool{}
			}
			for i := r.first; i < r.first+r.n; i++ {
				out[i] = true
			}
		}
	}
	return out
}

// holdsAsked reports whether text holds a content word of the question,
// other than those in skip.
func holdsAsked(q question, text string, skip map[string]bool) bool {
	return slices.ContainsFunc(analysis.Terms(text), func(t string) bool {
		_, ok := q.index[t]
		return ok && !analysis.IsStopword(t) && !skip[t]
	})
}

// spellsOut reports whether the question spells out a header that is an
// acronym ("GCR*") by the initials of as many of its terms in a row
// ("ground coverage ratio"), and adds those terms to spelled.
func spellsOut(q question, header string, spelled map[string]bool) bool {
	acronym := strings.ToLower(strings.Trim(strings.TrimSpace(header), "*†:"))
	if len(acronym) < minAcronym || len(acronym) > maxAcronym || strings.ContainsFunc(acronym, func(r rune) bool { return r < 'a' || r > 'z' }) {
		return false
	}
	if _, asked := q.index[acronym]; asked {
		return false // named as written: holdsAsked finds it
	}
	n := len(acronym)
	for i := 0; i+n <= len(q.terms); i++ {
		run := q.terms[i : i+n]
		if initials(run) != acronym {
			continue
		}
		for _, t := range run {
			spelled[t.term] = true
		}
		return true
	}
	return false
}

// cellsByColumn writes a table row's cells after their column's name
// ("GCR*: 0.4; Albedo: 0.2"), as a spreadsheet row reads, so that a
// number the question labels is read in the column its label names: the
// row with GCR 0.4 is not the case "gcr 0.25" asks about. It is empty for
// other units and for a row whose cells do not line up with its header.
func cellsByColumn(u unit) string {
	if u.kind != kindRow || u.header == "" {
		return ""
	}
	heads, cells := splitCells(u.header), splitCells(u.text)
	if len(heads) != len(cells) {
		return ""
	}
	pairs := make([]string, len(cells))
	for i, c := range cells {
		pairs[i] = strings.TrimSpace(heads[i]) + ": " + strings.TrimSpace(c)
	}
	return strings.Join(pairs, "; ")
}

func splitCells(line string) []string {
	return strings.Split(strings.Trim(line, "| "), "|")
}

// trimRecord keeps a spreadsheet row readable: its first cell (the row's
// name) and the cells whose name the question mentions — or, when none
// does, whose name or value it mentions; a short row with nothing asked
// about is quoted whole. byName is set when a cell kept is one whose name
// the question mentions.
func (e *Extractive) trimRecord(q question, c candidate) (text string, asked, byName bool) {
	if len(c.fields) < 2 {
		return c.text, false, false
	}
	keep := []string{c.fields[0]}
	var short []string         // fields named by a letter or two ("a", "b")
	valued := false            // a field kept for its value, not for naming the row
	named := map[string]bool{} // the fields the question names, not the row's name
	whole := false             // a field named by every word of its name
	for _, f := range c.fields[1:] {
		name, _, _ := strings.Cut(f, ":")
		bare := strings.ToLower(strings.TrimSpace(name))
		// The unit in brackets names no field: "pnt in w" asks for Pnt
		// alone, not every column in watts.
		ns, fs := analysis.TermSet(bareName(name)), analysis.TermSet(f)
		var ftoks []analysis.Token // f's tokens, read once when needed
		rowName := slices.ContainsFunc(q.terms, func(t qterm) bool {
			if t.lettered != nil {
				return t.code && t.lettered.MatchString(f) // "Vintage: 2010 (E)"
			}
			if !t.code {
				return false
			}
			if fs[t.term] || hasParts(fs, t.term) {
				return true
			}
			if ftoks == nil {
				ftoks = analysis.Tokens(f)
			}
			return spacedOut(f, ftoks, t.term)
		}) || namesAsked(q, f) || holdsNumberAsked(q, f)
		switch {
		case slices.ContainsFunc(q.terms, func(t qterm) bool {
			// "sandia module db" names the list, not its Module Area.
			return ns[t.term] && !analysis.IsStopword(t.term) && !listTerms[t.term] && !onlyParticiple(q, t.term, name) && !q.related[t.term]
		}) || q.joined[compactName(name)] || q.has[columnAliases[compactName(name)]]:
			// A field the question names.
			keep, valued = append(keep, f), true
			named[f] = !rowName
			whole = whole || !rowName && (q.joined[compactName(name)] || q.has[columnAliases[compactName(name)]] ||
				namesWhole(q, analysis.TermSet(bareName(name))))
		case slices.Contains(c.byLegend, f):
			// A field the question names by its legend.
			keep, valued, whole = append(keep, f), true, true
			named[f] = true
		case rowName:
			// One holding the model number it asks about, or words of
			// it: it says which row this is.
			keep = append(keep, f)
		case len(bare) <= 2 && q.words[bare] && !q.excluded[bare]:
			// "a and b", not the "c3" of "the dimensionless one, not c3".
			short = append(short, f)
		}
	}
	if f := c.byUnit; f != "" && !slices.Contains(keep, f) &&
		!slices.ContainsFunc(keep[1:], func(k string) bool { return fieldOfAskedUnit(q, k) }) {
		// "how many dc amps can it take": the one column in amps whose
		// name says dc.
		keep, valued, whole, named[f] = append(keep, f), true, true, true
	}
	if valued && !whole && asksOther(q, c) {
		// "spr-305-wht max series fuse rating": "series" is a word of
		// "Series Cells", but what is asked ("fuse rating") is no word
		// of the row; the row does not say it.
		return c.text, false, false
	}
	keep = dropSiblingFields(q, keep, named)
	if valued {
		// "a and b for …": once the question asks for fields by name, a
		// one-letter word of it that names a field asks for that field
		// too, though it is also an article.
		keep = append(keep, short...)
		// In the row's order, as the sheet reads: "a: -3.54; b: -0.072".
		slices.SortStableFunc(keep[1:], func(x, y string) int {
			return slices.Index(c.fields, x) - slices.Index(c.fields, y)
		})
	} else if len(keep) == 1 {
		// No field named, none naming the row: the fields holding words
		// of the question.
		for _, f := range c.fields[1:] {
			name, value, _ := strings.Cut(f, ":")
			fs := analysis.TermSet(bareName(name) + " " + value) // "(W)" names no field here either
			if slices.ContainsFunc(q.terms, func(t qterm) bool {
				return fs[t.term] && !listTerms[t.term] && !q.related[t.term] || t.exact && hasParts(fs, t.term)
			}) {
				keep, valued = append(keep, f), true
			}
		}
	}
	if !valued && len(keep) == 1 {
		return c.text, false, false
	}
	if !valued {
		// Nothing but the row's name: a long row states nothing asked
		// ("spr-6500f 240v tamb max" of a row without Tamb Max).
		return strings.Join(keep, c.sep), len(c.fields) <= e.opts.MaxRecordFields, false
	}
	byName = slices.ContainsFunc(keep, func(f string) bool { return named[f] && numberCell.MatchString(f) && !unitOfOtherKind(q, f) })
	return strings.Join(keep, c.sep), true, byName
}

// columnAliases are the column names the glossary writes (see
// query.nameColumns) for columns that one sheet names otherwise: the CEC
// list's "Vac" is the Sandia sheet's "ac Voltage".
var columnAliases = map[string]string{"acvoltage": "vac"}

// numberCell is a field whose cell is a number: "b: -0.0455", "A4:
// -2.58E-05".
var numberCell = regexp.MustCompile(`:\s*[-−+]?\.?\d[\d.,]*(?:[eE][-+]?\d+)?\s*$`)

// fieldUnit is the unit a spreadsheet column's name gives in brackets:
// "Mppt_low (V): 200".
var fieldUnit = regexp.MustCompile(`\(([^()0-9]{1,16})\)\s*:`)

// fieldOfAskedUnit reports whether a field's name gives a unit of the
// kind the question asks for: "Idcmax (A): 228" for "how many amps".
func fieldOfAskedUnit(q question, field string) bool {
	m := fieldUnit.FindStringSubmatch(field)
	return m != nil && len(q.expect.Dims) > 0 && q.expect.Accepts("1 "+strings.TrimSpace(m[1]), nil)
}

// unitField returns the field a question that asks by a unit alone names
// ("how many dc amps can it take"): the record's one field whose name
// gives a unit of that kind and holds each word said with the unit ("dc"
// of "Idcmax (A)"); "" when the question names a quantity, or no field or
// several fit.
func unitField(q question, fields []string) string {
	said := q.expect.CountedBy
	if len(said) == 0 || len(q.expect.Dims) == 0 {
		return ""
	}
	found := ""
	for _, f := range fields {
		name, _, _ := strings.Cut(f, ":")
		name = strings.ToLower(name)
		if !fieldOfAskedUnit(q, f) || slices.ContainsFunc(said[:len(said)-1], func(w string) bool {
			return !strings.Contains(name, cmp.Or(boundWords[w], w))
		}) {
			continue
		}
		if found != "" {
			return ""
		}
		found = f
	}
	return found
}

// boundWords are the words for the ends of a range, each as column names
// write it ("Idcmax", "Tamb Min").
var boundWords = map[string]string{"maximum": "max", "max": "max", "minimum": "min", "min": "min"}

// unitOfOtherKind reports whether a field's name gives a unit of another
// kind than the question asks for: "how many mppt inputs" names the
// column "Mppt_low (V)", whose volts count nothing.
func unitOfOtherKind(q question, field string) bool {
	m := fieldUnit.FindStringSubmatch(field)
	return m != nil && !q.expect.Accepts("1 "+strings.TrimSpace(m[1]), nil)
}

// dropSiblingFields drops from a row's kept fields those the question
// names only by words of a field it names whole, said no more often than
// such fields take them: "tamb max" asks for Tamb Max, not Tamb Low; "tamb
// lo / tamb max" says "tamb" twice and keeps both; "mppt low/high" names
// Mppt_high by "high" too.
func dropSiblingFields(q question, keep []string, named map[string]bool) []string {
	fieldTerms := func(f string) map[string]bool {
		name, _, _ := strings.Cut(f, ":")
		return analysis.TermSet(bareName(name)) // "Vdco (V)": the unit names nothing
	}
	var whole []map[string]bool
	for _, f := range keep[1:] {
		if name, _, _ := strings.Cut(f, ":"); q.joined[compactName(name)] {
			whole = append(whole, fieldTerms(f))
		}
	}
	if len(whole) == 0 {
		return keep
	}
	return slices.DeleteFunc(keep, func(f string) bool {
		if name, _, _ := strings.Cut(f, ":"); !named[f] || q.joined[compactName(name)] {
			return false
		}
		asked := 0
		for t := range fieldTerms(f) {
			if !q.has[t] && boundAsked(q, t) {
				// "tamb low / high" names Tamb Max by its other word.
				return false
			}
			if !q.has[t] || analysis.IsStopword(t) {
				continue
			}
			asked++
			taken := 0
			for _, w := range whole {
				if w[t] {
					taken++
				}
			}
			if taken == 0 || q.times[t] > taken {
				return false
			}
		}
		return asked > 0
	})
}

// bounds are the words naming the low and the high end of a quantity,
// each with the words that stand for it in column names.
var bounds = func() map[string][]string {
	m := map[string][]string{}
	for _, g := range []string{"low lo min minimum lower", "high hi max maximum upper"} {
		ts := analysis.Terms(g)
		for _, t := range ts {
			m[t] = slices.DeleteFunc(slices.Clone(ts), func(o string) bool { return o == t })
		}
	}
	return m
}()

// boundAsked reports whether the question names the end of a range a
// column's word names in other words: "high" for "Tamb Max".
func boundAsked(q question, term string) bool {
	return slices.ContainsFunc(bounds[term], func(o string) bool { return q.has[o] })
}

// namesAsked reports whether a field's value names something and holds
// a word of the question: "ID: Sunteams 5000 (240V)" says which row this
// is for "sunteams 5000 240v tamb low". A value that is a number with a
// note in brackets ("Tamb Low: -20 (-35 w/cold weather option)") states
// what is asked, however many of the question's words the note holds.
func namesAsked(q question, field string) bool {
	_, value, ok := strings.Cut(field, ":")
	if !ok || !namesSomething(value) {
		return false
	}
	if lead, _, noted := strings.Cut(value, "("); noted && !strings.ContainsFunc(lead, unicode.IsLetter) {
		return false
	}
	vs := analysis.TermSet(value)
	return slices.ContainsFunc(q.terms, func(t qterm) bool { return !t.frame && !t.exact && vs[t.term] })
}

// holdsNumberAsked reports whether a complex question tells rows apart by
// a number it states as written, and a field's value is that number:
// "Vintage: 2001" says which row this is for "isco for the 2001 one vs the
// 2002 (E) one". A simple question's number says which row it asks about
// without its cell being quoted ("ts-s3000 at 240 v").
func holdsNumberAsked(q question, field string) bool {
	_, value, ok := strings.Cut(field, ":")
	if !ok || !q.complex {
		return false
	}
	vs := analysis.TermSet(value)
	return slices.ContainsFunc(q.terms, func(t qterm) bool { return t.exact && !t.code && !t.frame && vs[t.term] })
}

// compactName is a column name without its bracketed unit, folded as
// guard.Compact folds codes: "deltaT [C]" → "deltat".
func compactName(name string) string {
	return guard.Compact(bareName(name))
}

// bareName is a column name without its bracketed unit: "Vdco (V)" →
// "Vdco ".
func bareName(name string) string {
	name, _, _ = strings.Cut(name, "[")
	name, _, _ = strings.Cut(name, "(")
	return name
}

// valueInAskedColumn reports whether a table row has a number in a column
// whose header words are all question terms.
func valueInAskedColumn(q question, u unit) bool {
	heads := strings.Split(u.header, tableCellSep)
	cells := strings.Split(u.text, tableCellSep)
	if len(heads) != len(cells) || len(heads) < 2 {
		return false
	}
	for i, h := range heads {
		words := analysis.Terms(h)
		if len(words) == 0 || !hasDigit(cells[i]) {
			continue
		}
		all := true
		for _, w := range words {
			if _, ok := q.index[w]; !ok {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	return false
}

func hasDigit(s string) bool {
	return strings.ContainsAny(s, "0123456789")
}

// carryHeaders gives the rows a chunk opens with, cut from their header by
// a page or chunk break ("7 | Ref-B 0.4 | 0.2 3.5 m 2-Up portrait
// Horizontal" at the top of page 2), the header of the table the previous
// chunk of their document ends with, when that chunk was retrieved too or
// read for its header (before, see Request.Before). Lines of wrapped cells
// between the rows ("grade* down to the East") are passed over.
func carryHeaders(chunks []store.Chunk, split [][]unit, before []store.Chunk) {
	type key struct {
		doc, rev string
		index    int
	}
	type head struct {
		text   string
		unseen bool // from a chunk read for its header alone
	}
	last := map[key]head{}
	note := func(c store.Chunk, us []unit, unseen bool) {
		if len(us) > 0 && us[len(us)-1].kind == kindRow && us[len(us)-1].header != "" {
			last[key{c.DocID, c.Revision, c.Index}] = head{us[len(us)-1].header, unseen}
		}
	}
	for _, c := range before {
		note(c, splitUnits(-1, c), true)
	}
	for i, c := range chunks {
		note(c, split[i], false)
	}
	for i, c := range chunks {
		h, ok := last[key{c.DocID, c.Revision, c.Index - 1}]
		if !ok {
			continue
		}
		for j := range split[i] {
			u := &split[i][j]
			if u.kind == kindRow && u.header == "" && !u.isHeader {
				u.header, u.carried, u.unseen = h.text, true, h.unseen
				continue
			}
			if u.kind == kindRow || endsWithStop(u.text) {
				break
			}
		}
	}
}

// OpensWithRows reports whether a chunk of a paged document opens with
// rows of a table and no header line: a page or chunk break cut them from
// the header, which the chunk before it ends with.
// Its first line of text decides, read as splitUnits reads it: a data row
// of a table, not its header line nor a sentence.
func OpensWithRows(c store.Chunk) bool {
	if c.Sheet != "" || c.Row > 0 || c.Index == 0 {
		return false
	}
	for raw := range strings.Lines(c.Text) {
		line := oneLine(raw)
		switch {
		case line == "":
		case strings.Contains(line, tableCellSep) || strings.HasPrefix(line, "|"):
			if hasAlnum(line) { // not a Markdown rule such as |---|---|
				return dataRow(line)
			}
		default:
			return false
		}
	}
	return false
}

// dropUnnamedRows removes the rows of a table that hold no word of the
// question when another row of it does: the question picked that row, and
// the rest of its table neither answers nor competes with it. A table none
// of whose rows is named stays, and refuses if it comes first (see
// decide).
func dropUnnamedRows(cands []candidate) []candidate {
	type table struct {
		chunk  int
		header string
	}
	named := map[table]bool{}
	for _, c := range cands {
		if c.kind == kindRow && !c.unnamed {
			named[table{c.chunk, c.header}] = true
		}
	}
	return slices.DeleteFunc(cands, func(c candidate) bool { return c.unnamed && named[table{c.chunk, c.header}] })
}

// sameValueRows returns the other table rows of the best row's document
// that hold every quantity of the question (a number with its unit) the
// best row holds: "which scenarios use the 3.5 m hub height" is answered
// by each row with 3.5 m, wherever the table goes on. A bare number ("table
// 5", "#3") picks no rows. A row that lacks what the question asks it to
// lack (candidate.lacking) is answered with every other such row of its
// table.
func sameValueRows(q question, cands []candidate) []candidate {
	best := cands[0]
	if best.lacking {
		// "which loss rows have no v5 default value": each row blank
		// there, AC Wiring and Inverter.
		var out []candidate
		for _, c := range cands[1:] {
			if c.lacking && c.docID == best.docID && c.header == best.header && len(out) < maxListedRows-1 {
				out = append(out, c)
			}
		}
		return out
	}
	var numbers []int
	for i, t := range q.terms {
		if t.exact && best.matched[i] == 1 && (statesTerm(q.stated, t.term) || q.everyRow && isNumber(t.term)) {
			numbers = append(numbers, i)
		}
	}
	if len(numbers) == 0 {
		return nil
	}
	limit := maxVariants - 1
	if q.everyRow {
		limit = maxListedRows - 1
	}
	var out []candidate
	for _, c := range cands[1:] {
		if len(out) == limit {
			break
		}
		if c.kind != kindRow || c.unnamed || c.docID != best.docID || c.quote == best.quote ||
			c.header != "" && best.header != "" && c.header != best.header {
			continue
		}
		if !slices.ContainsFunc(numbers, func(i int) bool { return c.matched[i] < 1 }) {
			out = append(out, c)
		}
	}
	return out
}

// maxListedRows bounds the rows quoted for a question after every row a
// value picks out (question.everyRow).
const maxListedRows = 8

// statesTerm reports whether a question term is one of the quantities the
// question states: "0%" is the term of 0 %.
func statesTerm(stated []guard.Value, term string) bool {
	return slices.ContainsFunc(stated, func(v guard.Value) bool {
		return v.Num == term || strings.EqualFold(strings.ReplaceAll(v.Text, " ", ""), term)
	})
}

// isNumber reports whether a term is a bare number: "0.4", not "v5".
func isNumber(term string) bool {
	_, err := strconv.ParseFloat(term, 64)
	return err == nil
}

// listTerms are the terms of notMakers: words that name a list or what is
// in it ("sandia module db"), not one of its columns.
var listTerms = func() map[string]bool {
	out := map[string]bool{}
	for w := range notMakers {
		for _, t := range analysis.Terms(w) {
			out[t] = true
		}
	}
	return out
}()

// namesWhole reports whether the question holds every word of a field's
// name (its terms, stopwords, the ends of a range and single letters
// aside: "mppt" names Mppt_low and Mppt_high, "parallel cell strings"
// Parallel C-S).
func namesWhole(q question, name map[string]bool) bool {
	for t := range name {
		if _, ok := q.index[t]; !ok && !analysis.IsStopword(t) && !rangeEnds[t] && len(t) > 1 {
			return false
		}
	}
	return true
}

// rangeEnds are the terms that name an end of a range in a column's name.
var rangeEnds = func() map[string]bool {
	out := map[string]bool{}
	for _, t := range analysis.Terms("low high lo hi min max minimum maximum") {
		out[t] = true
	}
	return out
}()

// asksOther reports whether the question holds a word that nothing of a
// row answers: not the row, its columns, its context or its document's
// title ("fuse" of "max series fuse rating" against a module's row).
func asksOther(q question, c candidate) bool {
	for i, t := range q.terms {
		if !t.frame && !t.exact && !listTerms[t.term] && c.matched[i] == 0 {
			return true
		}
	}
	return false
}

// onlyParticiple reports whether the question writes term only as a
// participle the column name does not use: "weighted efficiency" does not
// ask for the Weight column.
func onlyParticiple(q question, term, column string) bool {
	if slices.ContainsFunc(strings.Fields(strings.ToLower(column)), func(w string) bool { return strings.HasSuffix(w, "ed") }) {
		return false
	}
	found := false
	for w := range q.words {
		if ts := analysis.Terms(w); len(ts) != 1 || ts[0] != term {
			continue
		}
		if !strings.HasSuffix(w, "ed") {
			return false
		}
		found = true
	}
	return found
}

// lackedColumn returns the column of a table row's header that names what
// the question asks a row not to have (question.lacks): the heading's last
// word and at least half its words are among them ("Related V1 Derate" of
// "no v1 derate", "Default value" of "no v5 default value"); -1 when none
// does. The label column names no such thing.
func lackedColumn(q question, heads []string) int {
	if len(q.lacks) == 0 {
		return -1
	}
	for j := 1; j < len(heads); j++ {
		terms := analysis.Terms(heads[j])
		if len(terms) == 0 || !slices.Contains(q.lacks, terms[len(terms)-1]) {
			continue
		}
		found := 0
		for _, t := range terms {
			if slices.Contains(q.lacks, t) {
				found++
			}
		}
		if 2*found >= len(terms) {
			return j
		}
	}
	return -1
}

// blankCell reports whether a table cell says nothing: empty, a dash, "n/a"
// or "none".
func blankCell(cell string) bool {
	switch strings.ToLower(strings.TrimSpace(cell)) {
	case "", "-", "–", "—", "n/a", "na", "none":
		return true
	}
	return false
}

// dropOtherMakers drops the list rows of another maker than the one a
// question that names no model number names: "kyocera pv 110 module area"
// is not answered by the row of the Photowatt PW6-110, whose number shares
// the 110. A maker is named
// when a word of the question that no dictionary holds
// (guard.Expectation.Names), and that it does not set aside ("not the
// kyocera"), opens the name of a row retrieved with it; then a row whose
// name holds none of the makers named is dropped, and a question that
// names two makers keeps the rows of both.
func dropOtherMakers(q question, cands []candidate, units []unit) []candidate {
	if len(q.expect.Names) == 0 || slices.ContainsFunc(q.terms, func(t qterm) bool { return t.code }) {
		// A question that names a model number has its maker read
		// before it (see makerWords), and rows of two makers compared
		// ("solarex msx-110 vs bp solar msx110") name it by the number.
		return cands
	}
	var makers []string
	for _, u := range units {
		if w := makerOf(u); w != "" && slices.Contains(q.expect.Names, w) && !q.excluded[w] && !slices.Contains(makers, w) {
			makers = append(makers, w)
		}
	}
	if len(makers) == 0 {
		return cands
	}
	return slices.DeleteFunc(cands, func(c candidate) bool {
		if c.kind != kindRecord || len(c.fields) < 2 {
			return false
		}
		_, name, _ := strings.Cut(c.fields[0], ":")
		words := analysis.Tokens(strings.ToLower(name))
		return !slices.ContainsFunc(words, func(t analysis.Token) bool { return slices.Contains(makers, t.Text) })
	})
}

// nameFields are the names of a list's first column that hold its rows'
// names or makers.
var nameFields = map[string]bool{"name": true, "model": true, "manufacturer": true, "make": true, "maker": true, "brand": true,
	"vendor": true, "product": true}

// makerOf returns the first word of a list row's name, in lower case — its
// maker's ("kyocera" of "Model: Kyocera Solar PV110", "kaco" of
// "Manufacturer: Kaco New Energy GmbH") — or "" for a unit that is no
// row with a name (see nameFields) and values.
func makerOf(u unit) string {
	if u.kind != kindRecord || len(u.fields) < 2 {
		return ""
	}
	field, name, ok := strings.Cut(u.fields[0], ":")
	if !ok || !nameFields[strings.ToLower(strings.TrimSpace(field))] {
		// A legend's "Heading: Voco" names a column, not a maker.
		return ""
	}
	toks := analysis.Tokens(strings.ToLower(name))
	if len(toks) == 0 || toks[0].Kind != analysis.Word {
		return ""
	}
	return toks[0].Text
}

// namesField reports whether a word of the question, or two or three of
// its neighbouring words written together, is the name of one of a list
// row's columns beside its name ("vdcmax" of "Vdcmax (V): 600"), other
// than a word a coefficient asked for relates (see guard.Related).
func namesField(q question, fields []string) bool {
	if len(fields) < 2 {
		return false
	}
	return slices.ContainsFunc(fields[1:], func(f string) bool {
		name, _, _ := strings.Cut(f, ":")
		k := compactName(name)
		// "the coefficient relating vmp to …" names Vmpo as what the
		// coefficient relates, not as the column asked.
		return k != "" && (q.has[k] || q.joined[k]) && !q.related[k]
	})
}
