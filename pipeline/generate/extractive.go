package generate

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"maps"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/cewhq/cew/pipeline/guard"
	"github.com/cewhq/cew/store"
	"github.com/cewhq/cew/store/analysis"
)

// ExtractiveOptions tunes the extractive generator. A zero field takes its
// value from DefaultExtractiveOptions.
type ExtractiveOptions struct {
	// MinScore is the score the best sentence must reach for the question
	// to be answered; below it the answer is NotFoundText.
	MinScore float64
	// MinCoverage is the share of the question's weighted content terms
	// the answer must contain (in the sentence itself, or at a discount in
	// its table header, section and document title).
	MinCoverage float64
	// MaxSentences bounds the sentences quoted for a complex question.
	MaxSentences int
	// MinPartScore is the score a further sentence of a complex answer
	// must reach on the terms it adds.
	MinPartScore float64
	// MaxRecordFields is how many "name: value" cells of a spreadsheet row
	// are quoted whole; a longer row is cut to its first cell and the
	// cells the question asks about.
	MaxRecordFields int
	// Queries and Passages embed the question and the best candidate
	// quotes, so that meaning, not only shared words, orders them (see
	// rerankBySense); nil leaves the order lexical.
	Queries, Passages Embedder
	// SenseWeight is how much a candidate's similarity to the question,
	// relative to the best candidate's, moves its score (default 4:
	// similarities differ by hundredths; 2.5 and 6 read the tune split
	// worse).
	SenseWeight float64
	// Logger reports an embedder failure (the order then stays lexical).
	Logger *slog.Logger
}

// Embedder embeds texts, one unit vector each.
type Embedder interface {
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// DefaultExtractiveOptions. MinScore and MinCoverage were first chosen on
// SQuAD 2.0 dev (articles 1–8, 2,805 questions; see squad_test.go) as the
// generator's refusal point. Refusing is now decided after the generator,
// by the pipeline's calibrated confidence (pipeline/confidence), so these
// only drop candidates that barely touch the question: alone, the
// generator quotes a gold answer for 70.5 % of answerable questions and
// refuses 12.6 % of unanswerable ones; as shipped without a model, the
// pipeline answers 45.5 % with a gold answer and refuses 50.4 % of the
// unanswerable (cmd/cew's TestSQuADOperatingPoint).
var DefaultExtractiveOptions = ExtractiveOptions{
	MinScore:        0.3,
	MinCoverage:     0.35,
	MaxSentences:    3,
	MinPartScore:    0.3,
	MaxRecordFields: 8,
	SenseWeight:     4,
}

// Scoring weights. Coverage of the question's terms decides; the rest
// orders sentences that cover the same terms.
const (
	// contextWeight is the credit for a term found only in the sentence
	// before a unit, which frames it but is not quoted.
	contextWeight = 0.5
	// sectionWeight is the credit for a term found in the heading of the
	// section (or the sheet) a unit stands under: the passage is about it.
	sectionWeight = 0.8
	// longUnitWords is the length beyond which a unit's score falls: a
	// run-on passage shares many words with any question.
	longUnitWords = 45
	// headerWeight is the credit for a term found in a row's table header,
	// which is quoted with the row.
	headerWeight = 0.8
	// relatedWeight is the credit for a word of the same family that the
	// stemmer keeps apart ("religion", "religious").
	relatedWeight = 0.6
	// exactWeight multiplies numbers and identifiers: they name exactly
	// what is asked about.
	exactWeight = 1.5
	// frameWeight discounts question-shaping words.
	frameWeight = 0.3
	// describedWeight discounts a number of the question that describes
	// what is asked about rather than the value asked for.
	describedWeight = 0.2
	// proximityShare is the part of the score earned by matched terms
	// standing close together.
	proximityShare = 0.15
	// missingTypePenalty multiplies the score of a sentence without the
	// kind of phrase the question asks for (a date for "when", a name for
	// "who", a number).
	missingTypePenalty = 0.7
	// missingUnitPenalty multiplies the score of a number without the
	// unit the question names.
	missingUnitPenalty = 0.9
	// askedColumnBonus lifts a table row whose asked column holds a value.
	askedColumnBonus = 1.3
	// labelBonus lifts a table row whose label the question names whole.
	labelBonus = 1.25
	// asidePenalty weighs down a sentence about what the question sets
	// aside.
	asidePenalty = 0.6
	// asideListBonus lifts a sentence that lists what the question sets
	// aside among other things, or adds another thing to it ("not only …
	// but also"): the others are what it asks.
	asideListBonus = 1.25
	// introductionPenalty weighs down a sentence that only introduces what
	// follows it (introduces).
	introductionPenalty = 0.3
	// pointerPenalty weighs down a sentence that only says where more
	// is to be read (pointsElsewhere), for a question that asks no
	// address.
	pointerPenalty = 0.5
	// definitionBonus favours a sentence that opens by saying what the
	// subject of a "what is X" question is.
	definitionBonus = 1.5
	// reasonBonus favours, for a "why" question, a sentence that gives a
	// reason (givesReason).
	reasonBonus = 1.3
	// reasonlessPenalty weighs down, for a "why" question, a sentence
	// that gives no reason.
	reasonlessPenalty = 0.7
	// rankBonus is added for the first chunk, decreasing to 0 for the
	// last: retrieval's order breaks near ties.
	rankBonus = 0.03
)

// Extractive answers by quoting the chunks verbatim. It never writes a word
// that is not in a chunk: its own text is only the citation markers and
// the punctuation that ends a quote or joins a table header to its row. A
// sentence that opens with a pronoun is quoted after the sentence before
// it, so the answer says who or what it is about. It is safe for
// concurrent use.
type Extractive struct {
	opts ExtractiveOptions
}

var _ Generator = (*Extractive)(nil)

// NewExtractive returns an extractive generator.
func NewExtractive(opts ExtractiveOptions) *Extractive {
	d := DefaultExtractiveOptions
	if opts.MinScore <= 0 {
		opts.MinScore = d.MinScore
	}
	if opts.MinCoverage <= 0 {
		opts.MinCoverage = d.MinCoverage
	}
	if opts.MaxSentences <= 0 {
		opts.MaxSentences = d.MaxSentences
	}
	if opts.MinPartScore <= 0 {
		opts.MinPartScore = d.MinPartScore
	}
	if opts.MaxRecordFields <= 0 {
		opts.MaxRecordFields = d.MaxRecordFields
	}
	if opts.SenseWeight <= 0 {
		opts.SenseWeight = d.SenseWeight
	}
	return &Extractive{opts: opts}
}

// candidate is a unit with its score against the question.
type candidate struct {
	unit
	score    float64
	coverage float64
	// lacking marks a table row whose cell is blank in the column the
	// question asks a row not to have (see lackedColumn): each such row
	// of its table answers.
	lacking bool
	// byUnit is the field of a record that a question asking by a unit
	// names ("Idcmax (A): 228" for "how many dc amps"; see unitField).
	byUnit string
	// side is set for a spreadsheet row one side of a "vs" question names
	// though rows of the other side name more of it (see otherSide): it is
	// quoted beside the best row of the other side.
	side bool
	// matched[i] is the credit for question term i: 1 in the unit, less
	// in its header, context or a related word form, 0 when absent.
	matched []float64
	terms   map[string]bool
	// quote is what the answer would say for this unit, without citation.
	quote string
	// framed lists the terms credited only for the sentence before.
	framed []int
	// typed is set when a table says the quoted cell is of the dimension
	// asked for; label when the question names the row's label.
	typed, label bool
	// place is set for a table row of the place the question names, in
	// every case it asks about (see placeRow).
	place bool
	// sense is the quote's similarity to the question, when embedded.
	sense float64
	// values are the values the quote states (guard.Values), read once.
	values []guard.Value
	// unnamed marks a table row that holds no word of the question in
	// its own cells: it never answers.
	unnamed bool
	// follow is the sentence after a sentence that names no one, quoted
	// after it because it says whom to turn to (see refersOn).
	follow string
	// cites is set when the unit cites an entry of a reference list that
	// was retrieved, for a question that asks for a publication.
	cites bool
	// byLegend are the fields of a record that the question names by what
	// a legend sheet among the passages says they stand for (see
	// legendFields): "the two coefficients that tie module temp to wind
	// speed" are the columns a and b.
	byLegend []string
	// readPast is the share of the question's weight the coverage of a
	// list row was read past (see score): words no passage holds that
	// tell the job around a lookup. The confidence is judged on the
	// coverage and score without it (see plain).
	readPast float64
	// listsAside is set for a sentence that lists what the question sets
	// aside among others: "besides the poa irradiance, which inputs" is
	// answered by "… uses the total incident POA irradiance, wind speed,
	// and dry bulb temperature …".
	listsAside bool
}

// plain returns x, the unit's coverage or score, as it would be had
// nothing been read past (see candidate.readPast).
func (c candidate) plain(x float64) float64 { return x * (1 - c.readPast) }

// parts is what a unit itself says of the question's terms: matched without
// the credit borrowed from the sentence before it.
func (c candidate) parts() []float64 {
	if len(c.framed) == 0 {
		return c.matched
	}
	m := slices.Clone(c.matched)
	for _, i := range c.framed {
		m[i] = 0
	}
	return m
}

// Generate quotes the sentence (or, for a complex question, up to
// MaxSentences sentences) that best answers the question, each followed by
// its citation, or returns NotFoundText.
func (e *Extractive) Generate(ctx context.Context, req Request) (Result, error) {
	if err := ctx.Err(); err != nil {
		return Result{}, fmt.Errorf("generate: %w", err)
	}
	q := parseQuestion(req.Question, req.Category, req.Complexity, req.Expect)
	for _, s := range req.Stray {
		// "pvwatts v2 paper (ref 9) - who's on it besides marion": the
		// aside names the entry the question is about.
		q.refs = append(q.refs, NamedReferences(s)...)
	}
	if req.Expect.Imprint {
		var titles, all []string
		q.imprintAt, titles, all = imprintChunks(req)
		q.readImprint(titles, all)
	}
	cands, total := e.candidates(q, req.Chunks, req.Before)
	cands = e.rerankBySense(ctx, q, req, cands)
	preferFuller(q, cands)
	var picked []candidate
	if len(cands) > 0 {
		picked = e.decide(q, cands, total)
	}
	if len(picked) == 0 {
		return Result{Text: NotFoundText, NotFound: true, Generator: "extractive"}, nil
	}
	features := evidence(q, picked, cands)
	picked = followReferences(q, picked, req.Chunks)
	parts := make([]string, len(picked))
	for i, c := range picked {
		parts[i] = e.quote(q, c)
	}
	return Result{Text: strings.Join(parts, " "), Generator: "extractive", Features: features}, nil
}

// candidates scores every unit that could answer, best first, and returns
// the total weight of the question's terms.
func (e *Extractive) candidates(q question, chunks, before []store.Chunk) ([]candidate, float64) {
	if len(q.terms) == 0 || len(chunks) == 0 {
		return nil, 0
	}
	var units []unit
	seen := map[string]bool{}
	split := make([][]unit, len(chunks))
	for i, c := range chunks {
		split[i] = splitUnits(i, c)
	}
	carryHeaders(chunks, split, before)
	if q.imprint {
		readImprintPages(split, chunks, q.imprintAt)
	}
	for _, us := range split {
		for _, u := range us {
			// Overlapping chunks repeat sentences; the better-ranked copy
			// is kept.
			if key := strings.ToLower(u.text); !seen[key] {
				seen[key] = true
				u.docID = chunks[u.chunk].DocID
				units = append(units, u)
			}
		}
	}
	units = append(units, namedEntries(q, chunks)...)
	if len(units) == 0 {
		return nil, 0
	}

	unitTerms := make([]map[string]bool, len(units))
	df := map[string]int{}
	for i, u := range units {
		unitTerms[i] = analysis.TermSet(u.text)
		for t := range unitTerms[i] {
			df[t]++
		}
	}
	n := float64(len(units))
	model := q.series != "" || slices.ContainsFunc(q.terms, func(t qterm) bool { return t.code })
	for i := range q.terms {
		t := &q.terms[i]
		d := float64(df[t.term])
		t.unseen = d == 0
		if t.unseen && t.bracketed {
			// "sw5548 gti (the 120v grid tie unit)": words in brackets
			// that no passage says remark on what the question names.
			t.frame = true
		}
		if t.unseen && t.setting && model {
			// "conext tx 3800 na jumpered for 208": how a model is set
			// up for a voltage, when no passage says the verb, shapes
			// the question; the row named for the voltage answers.
			t.frame = true
		}
		if t.unseen && t.acted && !slices.ContainsFunc(synonyms[t.term], func(s string) bool { return df[s] > 0 }) {
			// "if i flip the array type to fixed roof mount, what inoct
			// does it assume": what the asker does, when no passage
			// says the verb or a word for it ("where do we get an MSDS":
			// "obtain"), shapes the question.
			t.frame = true
		}
		if t.unseen && sourceWords[t.term] {
			// "in the cec list", "defaults sheet": where to look, when no
			// passage says the word, shapes the question as "manual"
			// does. "sorting a list of integers" says it.
			t.frame = true
		}
		t.weight = math.Log(1 + (n-d+0.5)/(d+0.5))
		if t.exact {
			t.weight *= exactWeight
		}
		if t.frame {
			t.weight *= frameWeight
		}
		if q.described[t.term] {
			t.weight *= describedWeight
		}
	}
	var total float64
	for _, t := range q.terms {
		total += t.weight
	}

	titles := make([]map[string]bool, len(chunks))
	sections := make([]map[string]bool, len(chunks))
	numbers := make([]map[string]bool, len(chunks))
	for i, c := range chunks {
		titles[i] = analysis.TermSet(c.DocNumber + " " + c.Title)
		numbers[i] = analysis.TermSet(c.DocNumber)
		sections[i] = analysis.TermSet(c.Section + " " + c.Sheet)
	}

	var cands []candidate
	cases := make([][]guard.Qualifier, len(chunks))
	headers := map[string]shape{}
	entries := map[[2]string]string{}
	var asides []candidate // questions of the document that answer by their aside alone
	noted := footnoteRows(q, units, chunks)
	labels := tableLabels(units)
	var legends map[string]map[string]string
	if len(q.expect.Qualifiers) > 0 {
		legends = columnLegends(units, chunks)
	}
	sheets := sheetLegends(units)
	for i, u := range units {
		answers := asideNone
		if u.asks {
			answers = asideAnswers(q, u.text)
		}
		if u.asks && answers == asideNone || u.kind == kindRow && u.header == "" && u.isHeader || ReferenceSection(chunks[u.chunk].Section) && !u.entry {
			// A question in a document (but for what its aside states),
			// a table's header line, an entry of a reference list (but
			// one the question names by number, or any when it asks what
			// the list cites: see namedEntries): none is ever the answer.
			continue
		}
		if cases[u.chunk] == nil && len(q.expect.Qualifiers) > 0 {
			cases[u.chunk] = guard.Qualifiers(chunks[u.chunk].Text)
		}
		uc := unitContext{title: titles[u.chunk], section: sections[u.chunk],
			frame: chunks[u.chunk].Section + "\n" + chunks[u.chunk].Title, cases: cases[u.chunk], headers: headers, labels: labels,
			legends: legends[chunks[u.chunk].DocID], sheetLegend: sheets[chunks[u.chunk].DocID]}
		if q.expect.Source {
			uc.entries = citedEntries(u, chunks, entries)
		}
		if rows := noted[chunks[u.chunk].DocID]; u.note && len(rows) > 0 {
			// A footnote's sentence speaks of the row the question names
			// when it fits it (see footnoteRows), and only then.
			uc.rows = map[string]bool{}
			for _, r := range rows {
				if speaksOf(q, u, r) {
					maps.Copy(uc.rows, rowNameTerms(r.unit))
					if u.prev == "" && r.chunk == u.chunk {
						// Quoted with the row it speaks of: "6 | A5 | … |
						// 10% grade* down to the SW. **10% grade = slope
						// angle of 5.71 deg".
						u.prev = r.text
					}
				}
			}
			if len(uc.rows) == 0 {
				continue
			}
		}
		c, ok := e.score(q, u, unitTerms[i], uc, total, len(chunks))
		switch {
		case !ok:
		case answers == asideOnly:
			asides = append(asides, c)
		default:
			cands = append(cands, c)
		}
	}
	if !slices.ContainsFunc(cands, func(c candidate) bool { return c.score >= e.opts.MinScore }) {
		// What a question of the document says in passing answers only
		// when no statement does: "(e.g., a house or college dormitory)"
		// describes the case that the next sentences answer.
		cands = append(cands, asides...)
	}
	if q.entryNumber {
		// "report # of the tmy2 users manual": an entry that gives no
		// report number ("User's Manual for TMY2. Accessed …") does not
		// say it.
		cands = slices.DeleteFunc(cands, func(c candidate) bool { return c.entry && !holdsCode(c.text) })
	}
	if q.pages {
		// "page numbers in the proceedings": neither an entry that gives
		// none nor a sentence citing the work says them.
		cands = slices.DeleteFunc(cands, func(c candidate) bool { return !statesPages(c.text) })
	}
	cands = dropUnnamedRows(cands)
	cands = dropOddRecords(q, cands, units, unitTerms)
	cands = dropSiblingRecords(q, cands, units, numbers)
	cands = dropOtherMakers(q, cands, units)
	cands = dropPartialCodes(q, cands)
	cands = dropUnlabelledRecords(q, cands, units)
	cands = dropOtherEntries(q, cands)
	cands = dropUnnamedDocuments(q, cands, chunks, numbers)
	cands = keepImprint(q, cands)
	cands = keepExpansions(q, cands)
	if q.publication && slices.ContainsFunc(cands, func(c candidate) bool { return c.cites }) {
		// "which paper is the fuentes thermal model from": "The Fuentes
		// paper discusses …" names no paper; "… developed by Fuentes
		// [15]" does, with its entry.
		cands = slices.DeleteFunc(cands, func(c candidate) bool { return !c.cites })
	}
	if q.polar {
		// Yes or no is said by the sentence about the whole question:
		// each candidate weighs by its coverage against the fullest one.
		best := 0.0
		for _, c := range cands {
			best = max(best, c.coverage)
		}
		for i := range cands {
			if best > 0 {
				cands[i].score *= cands[i].coverage / best
			}
		}
	}
	sortByScore(cands)
	return cands, total
}

// asksContact reports whether the question asks for a web address or a
// number to call, fax or write to.
func asksContact(q question) bool {
	switch q.expect.Format {
	case guard.FormatURL, guard.FormatPhone, guard.FormatFax, guard.FormatTDD, guard.FormatEmail:
		return true
	}
	return false
}

// statesPages reports whether a passage gives pages: "pp. 12", "271-289",
// not the dates of a conference ("June 15-21, 2000") or the end of a
// report number ("CP-560-30941").
func statesPages(text string) bool {
	if pagesMark.MatchString(text) {
		return true
	}
	for _, m := range numberSpan.FindAllStringIndex(text, -1) {
		if m[0] > 0 && strings.ContainsRune("-/", rune(text[m[0]-1])) {
			continue // the end of a report number: "CP-560-30941"
		}
		before := strings.Fields(strings.ToLower(text[:m[0]]))
		if len(before) == 0 || !monthNames[strings.TrimRight(before[len(before)-1], ".,")] {
			return true
		}
	}
	return false
}

var (
	// pagesMark is a page or pages written out.
	pagesMark = regexp.MustCompile(`(?i)\b(?:pp?\.\s*\d|pages?\s+\d)`)
	// numberSpan is a span of whole numbers: "271-289", "15–21".
	numberSpan = regexp.MustCompile(`\b\d+\s*[-–]\s*\d+\b`)
)

// sourceWords name the kind of document a question looks in.
var sourceWords = analysis.TermSet("list sheet spreadsheet library csv xlsx")

// fullerShare is how close to the best sentence's score one that says
// more of the question must come to go before it.
const fullerShare = 0.9

// preferFuller puts first the sentence, among those scoring close to the
// best one, that holds every word of the question the best one holds and
// one more itself where the best one has it only from its context: "nmfs
// website" is answered by the long sentence that lists NMFS with its
// address, not by the short one after it that gives another office's
// address and names NMFS only by following it. A sentence that lists what
// the question sets aside among others (see candidate.listsAside) keeps its
// place before one that does not. Length alone weighs a
// sentence down (see longUnitWords); saying less of the question should
// not win by it.
func preferFuller(q question, cands []candidate) {
	if len(cands) < 2 || cands[0].kind != kindSentence {
		return
	}
	best := cands[0]
	for k, c := range cands[1:] {
		if c.score < fullerShare*best.score {
			return
		}
		if c.kind == kindSentence && fuller(q, c, best) && (c.listsAside || !best.listsAside) {
			copy(cands[1:k+2], cands[:k+1])
			cands[0] = c
			return
		}
	}
}

// fuller reports whether a holds every word of the question b holds, as
// fully, and holds itself one that b holds only by its context, section
// or title.
func fuller(q question, a, b candidate) bool {
	more := false
	for i, t := range q.terms {
		if a.matched[i] < b.matched[i] {
			return false
		}
		more = more || !t.frame && a.matched[i] == 1 && b.matched[i] > 0 && b.matched[i] < 1
	}
	return more
}

// dropUnnamedDocuments keeps to the documents the question names by two
// words of their number or more ("vf note" for PVLIB-NOTE-VF, "sandia
// module db" for SANDIA-MODULE-DB), when it names any: "vf note - how is
// P defined" is not answered by the IEA study's pitch. numbers are the
// chunks' document-number terms.
func dropUnnamedDocuments(q question, cands []candidate, chunks []store.Chunk, numbers []map[string]bool) []candidate {
	named := map[string]bool{}
	for i, c := range chunks {
		n := 0
		for _, t := range q.terms {
			if !t.frame && numbers[i][t.term] {
				n++
			}
		}
		if n >= minNamingWords {
			named[c.DocID] = true
		}
	}
	if len(named) == 0 {
		return cands
	}
	return slices.DeleteFunc(cands, func(c candidate) bool { return !named[chunks[c.chunk].DocID] })
}

// minNamingWords is how many words of a document's number name it.
const minNamingWords = 2

// dropOtherEntries drops the legend entries (see definesTerm) whose
// heading the question does not say when it says another entry's heading
// (every word of it): "what is the 'n' column in the sandia module db"
// is about the entry headed "n", not "Ms", which only shares "column".
func dropOtherEntries(q question, cands []candidate) []candidate {
	said := func(c candidate) bool {
		if !definesTerm(c.unit) || len(c.fields) == 0 {
			return false
		}
		_, heading, _ := strings.Cut(c.fields[0], ":")
		toks := analysis.Tokens(strings.ToLower(heading))
		if len(toks) == 0 || len(toks) == 1 && analysis.IsStopword(toks[0].Text) {
			return false // the heading "a" is said by every "what is a …"
		}
		return !slices.ContainsFunc(toks, func(t analysis.Token) bool { return !q.words[t.Text] })
	}
	if !slices.ContainsFunc(cands, said) {
		return cands
	}
	return slices.DeleteFunc(cands, func(c candidate) bool { return definesTerm(c.unit) && !said(c) })
}

// dropUnlabelledRecords drops the spreadsheet rows whose cells lack a label
// of the question that a retrieved row's cells hold: a word of letters and
// digits as the question writes it ("sq70"), that is no model number (see
// dropPartialCodes), case ("v5"), unit ("m2"), quantity ("24v") or column
// of a retrieved row ("c3", which a legend row holds too), when another
// retrieved row holds every such label it holds and more. "shell sq70 24v
// voco" asks about the SQ70 rows; when none of them is the 24 V variant,
// the "Photowatt PW1000 (24V)" row does not answer instead.
func dropUnlabelledRecords(q question, cands []candidate, units []unit) []candidate {
	labels := rowLabels(q)
	if len(labels) == 0 {
		return cands
	}
	columns := map[string]bool{} // a label that names a column ("c3", "a0") says what is asked, not which row
	for _, u := range units {
		if u.kind == kindRecord {
			for _, f := range u.fields {
				if name, _, ok := strings.Cut(f, ":"); ok {
					columns[compactName(name)] = true
				}
			}
		}
	}
	labels = slices.DeleteFunc(labels, func(l string) bool { return columns[guard.Compact(l)] })
	names := map[[2]int]map[string]bool{}
	named := func(u unit, label string) bool {
		key := [2]int{u.chunk, u.pos}
		if _, ok := names[key]; !ok {
			names[key] = valueTerms(u.fields)
		}
		return names[key][label]
	}
	// A row that another retrieved row outnames (it holds every label this
	// one holds, and more) is dropped; "legend: what are c4 / c5" asks
	// for the C4 row and the C5 row, neither of which holds both.
	held := func(u unit) []string {
		return slices.DeleteFunc(slices.Clone(labels), func(l string) bool { return !named(u, l) })
	}
	return slices.DeleteFunc(cands, func(c candidate) bool {
		if c.kind != kindRecord {
			return false
		}
		own := held(c.unit)
		return slices.ContainsFunc(units, func(u unit) bool {
			if u.kind != kindRecord {
				return false
			}
			other := held(u)
			return len(other) > len(own) && !slices.ContainsFunc(own, func(l string) bool { return !slices.Contains(other, l) })
		})
	})
}

// rowLabels are the words of letters and digits a question writes that
// may name a spreadsheet row by a cell of it (see dropUnlabelledRecords):
// "sq70", "c4"; not model numbers, cases, units or quantities, nor what
// the question sets aside ("the 208v one not h4"). A reciprocal unit
// ("the normalized 1/c ones") is a unit too.
func rowLabels(q question) []string {
	var labels []string
	for i, t := range q.terms {
		if t.exact && !t.code && !t.frame && !q.isQualifier[i] && !q.excluded[t.term] && (q.contrasted[t.term] || !isUnit(t.term) && !strings.HasPrefix(t.term, "1/")) && len(guard.Values(t.term)) == 0 &&
			strings.ContainsFunc(t.term, unicode.IsLetter) && strings.ContainsFunc(t.term, unicode.IsDigit) {
			labels = append(labels, t.term)
		}
	}
	return labels
}

// dropOddRecords drops the spreadsheet rows that lack a word of the
// question most of the retrieved rows name themselves by (in their first
// field, the model's name): when the rows found are a maker's models ("kaco
// blueplanet 5.0 tl1 277v"), a row of another maker that matches only a
// voltage and a number is about something else, however rare that voltage
// is among them. Three rows at least must share the word; a column name
// ("Tamb Max") is not a name. A row holding a model number of the question
// stays.
func dropOddRecords(q question, cands []candidate, units []unit, unitTerms []map[string]bool) []candidate {
	var rows int
	df := make([]int, len(q.terms))
	for i, u := range units {
		if u.kind != kindRecord || len(u.fields) < 2 && len(unitTerms[i]) > maxNameTerms {
			// A row of one long cell is a note ("All values notated by
			// "o" are at Standard Test Conditions …"), not a name.
			continue
		}
		rows++
		name := unitTerms[i]
		if len(u.fields) > 1 {
			name = analysis.TermSet(u.fields[0])
		}
		for j, t := range q.terms {
			if name[t.term] {
				df[j]++
			}
		}
	}
	var key []int
	for i, t := range q.terms {
		if !t.frame && !t.exact && !q.described[t.term] && df[i] >= 3 && 2*df[i] >= rows {
			key = append(key, i)
		}
	}
	if len(key) == 0 {
		return cands
	}
	return slices.DeleteFunc(cands, func(c candidate) bool {
		return c.kind == kindRecord && slices.ContainsFunc(key, func(i int) bool { return c.matched[i] < 1 }) && !holdsCodeAsked(q, c)
	})
}

// holdsCodeAsked reports whether a candidate holds a model number of the
// question: "enerbridge emi_301rd micro" names the Emi_301RD row, whatever
// the word "micro" the MICRO-0.25 rows retrieved with it share.
func holdsCodeAsked(q question, c candidate) bool {
	for i, t := range q.terms {
		if t.code && c.matched[i] == 1 {
			return true
		}
	}
	return false
}

// codePlace reports whether a token of text, folded as guard.Compact folds
// codes, begins with code ("SB7000TL-US-22-208V" for "sb7000tlus22",
// "BP380" for "bp380"), and whether one holds it after other characters
// ("32-BP380-Array").
func codePlace(text, code string) (begins, inside bool) {
	for _, t := range analysis.Tokens(text) {
		if t.Kind == analysis.Symbol {
			continue
		}
		switch i := strings.Index(guard.Compact(t.Text), code); {
		case i == 0:
			begins = true
		case i > 0:
			inside = true
		}
	}
	return begins, inside
}

// maxNameTerms is the most words a one-cell spreadsheet row has when it
// names something.
const maxNameTerms = 8

// dropPartialCodes drops the spreadsheet rows that hold a model number of
// the question only by its parts when another row holds it whole: for
// "pvi-6000-outd-us-z-a", the PVI-6000-OUTD-US-Z-A row, not
// PVI-6000-OUTD-S-US-Z-A or PVI-6000-OUTD-US-Z, whose parts it shares.
// Whole is as the code is written, bar case and separators; a longer
// number that begins with it ("…-US-Z-A (277V)") holds it whole too. A
// row that holds another model number of the question whole stays:
// "pvi-3600-us vs pvi-3600-i-outd-us-f" asks for a row of each, and the
// PVI-3600-I-OUTD-US-F row no longer counts as naming PVI-3600-US by its
// parts, so that the PVI-3600-US row is quoted for it. A row that holds the
// number only inside another ("32-BP380-Array" for "bp380") goes when a
// row's name begins with it.
func dropPartialCodes(q question, cands []candidate) []candidate {
	codes := map[int]string{} // the question's model numbers that some row holds whole, by term
	for i, t := range q.terms {
		if !t.code {
			continue
		}
		code := guard.Compact(t.term)
		if slices.ContainsFunc(cands, func(c candidate) bool { return c.kind == kindRecord && strings.Contains(guard.Compact(c.text), code) }) {
			codes[i] = code
		}
	}
	if len(codes) == 0 {
		return cands
	}
	cands = slices.DeleteFunc(cands, func(c candidate) bool {
		compact := guard.Compact(c.text)
		for _, code := range codes {
			if strings.Contains(compact, code) {
				return false
			}
		}
		return c.kind == kindRecord
	})
	for _, code := range codes {
		// "bp380": the BP Solar BP380 row, not 32-BP380-Array, which
		// holds it inside another number.
		begins, inside := make([]bool, len(cands)), make([]bool, len(cands))
		for k, c := range cands {
			if c.kind == kindRecord {
				begins[k], inside[k] = codePlace(c.text, code)
			}
		}
		if !slices.Contains(begins, true) {
			continue
		}
		kept := cands[:0]
		for k, c := range cands {
			if !inside[k] || begins[k] {
				kept = append(kept, c)
			}
		}
		cands = kept
	}
	for k, c := range cands {
		if c.kind != kindRecord {
			continue
		}
		compact := guard.Compact(c.text)
		for i, code := range codes {
			if !strings.Contains(compact, code) && c.matched[i] > 0 {
				cands[k].matched = slices.Clone(c.matched)
				cands[k].matched[i] = 0
			}
		}
	}
	return cands
}

// dropSiblingRecords drops the spreadsheet rows whose name another
// retrieved row of the same table names the question's case better: that
// row's name (its cells of words; the same heading first) holds every word
// of the question this row's name holds, and more; a row whose name holds
// none is not a sibling but another thing. "b1 for ar glass/cell" is
// about the "AR Glass/cell" row, not "Standard glass/cell"; "…-us-22 240v"
// about the 240V variant. When the row asked about lacks the column asked
// for, no row answers rather than its sibling. A row whose name holds a
// word of what the question sets aside, or names another quantity of a
// unit the question states ("(600 VDC) 480V" for "the 1000 vdc version"),
// is dropped too — unless the word set aside names another document
// (numbers are the chunks' document numbers, by chunk): "refusol 24 kw
// vdco in the sandia inverter sheet (not the cec csv)" sets the
// CEC-INVERTERS rows aside, not the Sandia row whose Source cell says
// "CEC".
func dropSiblingRecords(q question, cands []candidate, units []unit, numbers []map[string]bool) []candidate {
	var rows []rowName
	at := map[[2]int]int{}         // a record's index in rows, by chunk and position
	filled := map[[2]string]bool{} // tables whose rows have cells beside the name
	docs := map[string]bool{}      // the words set aside that name a document
	for t := range q.excluded {
		docs[t] = slices.ContainsFunc(numbers, func(n map[string]bool) bool { return n[t] })
	}
	for _, u := range units {
		n, ok := nameRow(q, u, func(t string) bool { return !docs[t] || numbers[u.chunk][t] })
		if !ok {
			continue
		}
		at[[2]int{u.chunk, u.pos}] = len(rows)
		rows = append(rows, n)
		if len(u.fields) > 1 {
			filled[[2]string{n.doc, n.label}] = true
		}
	}
	out := cands[:0]
	for _, c := range cands {
		i, ok := at[[2]int{c.chunk, c.pos}]
		if !ok {
			out = append(out, c)
			continue
		}
		own := rows[i]
		if own.aside || own.other || len(c.fields) == 0 && filled[[2]string{own.doc, own.label}] {
			// Set aside, another variant, or a row with a name and no
			// values where the table's other rows have them ("Module
			// type: AR Glass/cell"): it states nothing.
			continue
		}
		if !own.states && ratedSiblings(own, rows) >= minRatedSiblings {
			// "photowatt pwx500 (62w)": the list tells the PWX500s
			// apart by their watts (42W, 47W, 52W), none 62 W; the row
			// that names no watts is not known to be the one asked.
			continue
		}
		// The rows of the same table whose names hold every term of the
		// question this row's name holds, and more.
		var fuller []rowName
		for _, n := range rows {
			if len(own.asked) > 0 && !n.aside && n.doc == own.doc && n.label == own.label && len(n.asked) > len(own.asked) &&
				!slices.ContainsFunc(own.asked, func(i int) bool { return !slices.Contains(n.asked, i) }) &&
				!slices.ContainsFunc(own.exact, func(i int) bool { return !slices.Contains(n.exact, i) }) {
				fuller = append(fuller, n)
			}
		}
		if len(fuller) > 0 {
			if !otherSide(q, own, fuller) {
				continue
			}
			c.side = true
		}
		out = append(out, c)
	}
	return out
}

// ratedSiblings counts the rows of own's table whose names hold every
// word of the question own's name holds, its model numbers as written
// included, and state another quantity of a unit the question states.
func ratedSiblings(own rowName, rows []rowName) int {
	if len(own.asked) == 0 {
		return 0
	}
	n := 0
	for _, r := range rows {
		if r.other && r.states && r.doc == own.doc && r.label == own.label &&
			!slices.ContainsFunc(own.asked, func(i int) bool { return !slices.Contains(r.asked, i) }) &&
			!slices.ContainsFunc(own.exact, func(i int) bool { return !slices.Contains(r.exact, i) }) {
			n++
		}
	}
	return n
}

// otherSide reports whether a question that sets two rows side by side
// names a row on one side by words the rows that name more of the
// question hold from the other side alone: "the 2008 measured row vs the
// 2008 (E) one" asks for the row without "(E)" as well. A row that rows
// of both sides name more of is named by neither side ("sb7000tl-us-22
// 208v vs 240v" of the row without a voltage).
func otherSide(q question, own rowName, fuller []rowName) bool {
	if !q.versus {
		return false
	}
	side := -1
	for _, n := range fuller {
		for _, i := range n.asked {
			if slices.Contains(own.asked, i) || slices.Contains(own.exact, i) {
				continue // "2008" is in own's Vintage cell, not in its name
			}
			t := q.terms[i].term
			s := 0
			switch {
			case q.sides[0][t] && !q.sides[1][t]:
			case q.sides[1][t] && !q.sides[0][t]:
				s = 1
			default:
				return false
			}
			if side >= 0 && s != side {
				return false
			}
			side = s
		}
	}
	return side >= 0
}

// rowName is what a spreadsheet row is called, as dropSiblingRecords
// compares rows.
type rowName struct {
	doc, label string // the document and the heading of the row's first cell
	asked      []int  // the question terms the name holds
	// exact lists the model numbers of the question that the name holds
	// as written, not only by their parts, and the other numbers of the
	// question that the row holds: a row is no sibling of one that lacks
	// any of them. The "PVI-3600-US" row is no sibling of
	// "PVI-3600-I-OUTD-US-F" when the question names both, nor the
	// "Vintage: 2001" row of "Vintage: 2002 (E)" when it names 2001.
	exact []int
	// aside is set when the name holds a word of what the question sets
	// aside ("(not the cs-a he)").
	aside bool
	// other is set when the name states quantities of a unit the question
	// states, none of them the question's: "GTIB-480-100 (600 VDC) 480V"
	// is not the 1000 VDC version; or bracketed numbers, none of them the
	// question's (see namesOtherBin).
	other bool
	// states is set when the name states a quantity of a unit the
	// question states, the question's or another.
	states bool
}

// nameRow reads the name of a spreadsheet row: its cells of words,
// "Manufacturer: Diehl Controls; ID: Platinum 100 CS-A HE (480)", not
// "Paco: 100000". ok is false for other units. aside reports whether a
// word the question sets aside sets this row aside when its name holds it.
func nameRow(q question, u unit, aside func(term string) bool) (rowName, bool) {
	if u.kind != kindRecord {
		return rowName{}, false
	}
	fields := u.fields
	if len(fields) == 0 {
		fields = []string{u.text} // a row of one cell has no fields
	}
	label, _, ok := strings.Cut(fields[0], ":")
	if !ok {
		return rowName{}, false
	}
	name := strings.Join(nameWords(fields), " ")
	terms := analysis.TermSet(name)
	values := guard.Values(name)
	stated := slices.Concat(q.stated, bareVoltage(q, name, values))
	n := rowName{doc: u.docID, label: strings.TrimSpace(label), other: namesOtherQuantity(stated, values) || namesOtherBin(q.bins, name),
		states: statesQuantityOf(stated, values)}
	if n.other && codeNamesVoltage(voltagesOf(stated), name) {
		// "GVFX3524 120V" is the 24 V model: its number says so.
		n.other, n.states = namesOtherBin(q.bins, name), true
	}
	for t := range q.excluded {
		n.aside = n.aside || terms[t] && aside(t)
	}
	compact := guard.Compact(name)
	var all map[string]bool // the terms of the row's values, read when the question has numbers
	for i, t := range q.terms {
		named := holds(terms, t)
		if t.lettered != nil {
			// "(E)" is named as written ("Vintage: 2008 (E)").
			named = t.lettered.MatchString(name)
		}
		if !t.frame && named {
			n.asked = append(n.asked, i)
		}
		switch {
		case t.frame || !t.exact:
		case t.code:
			if named && strings.Contains(compact, guard.Compact(t.term)) {
				n.exact = append(n.exact, i)
			}
		default:
			if all == nil {
				all = valueTerms(fields)
			}
			if all[t.term] {
				n.exact = append(n.exact, i)
			}
		}
	}
	return n, true
}

// bareVoltage returns the question's bare numbers read as voltages when
// a row's name states a voltage of as many digits and the question states
// none: "solectria pvi85kw on 277" asks about a 277 V variant, which the
// rows named "PVI85kW-240 240V" and "PVI85kW-480 480V" are not. A number
// the name holds is part of it ("blueplanet 875 tl3"), not a voltage.
func bareVoltage(q question, name string, named []guard.Value) []guard.Value {
	if slices.ContainsFunc(q.stated, func(v guard.Value) bool { return v.Dim == guard.DimVoltage }) {
		return nil
	}
	var out []guard.Value
	for _, v := range named {
		if v.Dim != guard.DimVoltage {
			continue
		}
		for _, n := range q.bare {
			if len(n) == len(v.Num) && (n == v.Num || !strings.Contains(name, n)) {
				out = append(out, guard.Value{Text: n, Num: n, Unit: v.Unit, Dim: v.Dim})
			}
		}
	}
	return out
}

// nameWords returns the values of a row's cells of words, which name it:
// "Diehl Controls", "Platinum 100 CS-A HE (480)", not "100000".
func nameWords(fields []string) []string {
	var words []string
	for _, f := range fields {
		if _, value, ok := strings.Cut(f, ":"); ok && namesSomething(value) {
			words = append(words, value)
		}
	}
	return words
}

// valueTerms returns the terms of a row's values, not of its column names:
// a row with a "B1" column does not state "b1".
func valueTerms(fields []string) map[string]bool {
	var values []string
	for _, f := range fields {
		if _, value, ok := strings.Cut(f, ":"); ok {
			values = append(values, value)
		}
	}
	return analysis.TermSet(strings.Join(values, " ; "))
}

// namesOtherQuantity reports whether name states a quantity of the unit
// of one of stated and none of stated's numbers of that unit: "(600 VDC)"
// is not the 1000 VDC version; "(208V)" is one of "208v vs 240v".
func namesOtherQuantity(stated, values []guard.Value) bool {
	for _, s := range stated {
		other, same := false, false
		for _, v := range values {
			if v.Unit == s.Unit {
				other = true
				same = same || slices.ContainsFunc(stated, func(w guard.Value) bool { return w.Unit == v.Unit && w.Num == v.Num })
			}
		}
		if other && !same {
			return true
		}
	}
	return false
}

// statesQuantityOf reports whether a name's values state a quantity of a
// unit of stated.
func statesQuantityOf(stated, values []guard.Value) bool {
	return slices.ContainsFunc(values, func(v guard.Value) bool {
		return v.Unit != "" && slices.ContainsFunc(stated, func(s guard.Value) bool { return s.Unit == v.Unit })
	})
}

// minRatedSiblings is how many rows of a model named by another quantity
// of the unit the question states make its unrated row another variant.
const minRatedSiblings = 2

// namesOtherBin reports whether name puts bare numbers in brackets, none
// of them one the question puts there: "SF-1100S-CPV-28 (330)" is not the
// "sf-1100s (345)" asked about.
func namesOtherBin(bins []string, name string) bool {
	if len(bins) == 0 {
		return false
	}
	own := bracketedNumbers(name)
	return len(own) > 0 && !slices.ContainsFunc(own, func(b string) bool { return slices.Contains(bins, b) })
}

// namesSomething reports whether a cell holds a word or a model number —
// "Diehl Controls", "PV-MF165EB3", "2003 (E)" — not only numbers
// ("2.11E-07", "480").
func namesSomething(cell string) bool {
	return slices.ContainsFunc(analysis.Tokens(cell), func(t analysis.Token) bool {
		if _, err := strconv.ParseFloat(t.Text, 64); err == nil {
			return false // "2.11e-07"
		}
		return t.Kind == analysis.Word || t.Kind == analysis.Identifier && guard.IsCode(cell, t)
	})
}

// sortByScore orders candidates best first; ties keep their order.
func sortByScore(cands []candidate) {
	slices.SortStableFunc(cands, func(a, b candidate) int { return cmp.Compare(b.score, a.score) })
}

// decide applies the thresholds to the sorted candidates: the best one
// answers a simple question; a complex one may take more (see combine).
func (e *Extractive) decide(q question, cands []candidate, total float64) []candidate {
	picked := e.pick(q, cands, total)
	if q.versus && !bothSides(q, picked) {
		// "blueplanet 40.0 tl3 idcmax - M1 vs M3": the M1 row alone
		// answers half the question as if it were all of it.
		return nil
	}
	if q.versus && !slices.ContainsFunc(picked, func(c candidate) bool { return c.kind == kindSentence }) {
		// Each side's row in the question's order: the 208V row of "208v
		// vs 240v" first, whichever scored higher. Sentences keep the
		// order they are read in.
		slices.SortStableFunc(picked, func(a, b candidate) int { return laterSide(q, a) - laterSide(q, b) })
	}
	if len(picked) == 1 && picked[0].follow == "" && picked[0].kind == kindSentence && answersOtherOption(q, picked[0]) {
		// "do we notify epa on every renovation or just on demo": "… that
		// EPA be notified when a facility is demolished." is half the
		// choice; "When a facility is renovated, EPA has to be notified
		// only if …" right after it is the other half.
		picked[0].follow = picked[0].next
	}
	for i, t := range q.terms {
		if t.lettered != nil && !slices.ContainsFunc(picked, func(c candidate) bool { return c.matched[i] == 1 }) {
			// "hub height ref-a vs ref-b": an answer that says nothing of
			// a case the question names by its letter leaves it out.
			return nil
		}
	}
	return picked
}

// pick returns the candidates that answer, or none.
func (e *Extractive) pick(q question, cands []candidate, total float64) []candidate {
	if q.complex && !cands[0].lacking {
		// The rows that lack what the question names are the whole
		// answer, whatever parts it has.
		if picked := e.combine(q, cands, total); len(picked) > 1 {
			// Quoted in reading order: the chunks' order, then each
			// chunk's own.
			slices.SortStableFunc(picked, func(a, b candidate) int {
				if a.chunk != b.chunk {
					return a.chunk - b.chunk
				}
				return a.pos - b.pos
			})
			return picked
		}
	}
	if best := cands[0]; !best.unnamed && best.score >= e.opts.MinScore && best.coverage >= e.opts.MinCoverage {
		if other, ok := pairedRow(q, cands); ok {
			return []candidate{best, other}
		}
		if items := e.listItems(q, cands); len(items) > 0 {
			// In the list's order: the items all come from best's chunk.
			items = append(cands[:1:1], items...)
			slices.SortStableFunc(items, func(a, b candidate) int { return a.pos - b.pos })
			return items
		}
		picked := append(cands[:1:1], variants(q, cands)...)
		if (q.everyRow || best.lacking) && best.kind == kindRow {
			// Each row a value picks out, in the table's order: the best
			// row's chunk first, then the chunks the table goes on in.
			slices.SortStableFunc(picked, func(a, b candidate) int {
				return cmp.Or(cmp.Compare(b2i(a.chunk != best.chunk), b2i(b.chunk != best.chunk)),
					cmp.Compare(a.chunk, b.chunk), cmp.Compare(a.pos, b.pos))
			})
		}
		return picked
	}
	return nil
}

// listItems returns, when the best candidate opens a list ("… you have the
// option to just run the following 6 days:") and items of that list hold a
// word of the question it lacks, those items in their order: "which ones
// are the clear days" asks which items, and is answered by the sentence
// and the three "(clear day)" items, not by the sentence alone. Each item
// must reach MinPartScore.
func (e *Extractive) listItems(q question, cands []candidate) []candidate {
	best := cands[0]
	if !strings.HasSuffix(best.text, ":") {
		return e.sisterItems(q, cands)
	}
	var items []candidate
	for _, c := range cands[1:] {
		if c.chunk != best.chunk || c.lead != best.text || c.score < e.opts.MinPartScore {
			continue
		}
		for i, t := range q.terms {
			if !t.frame && c.matched[i] == 1 && best.matched[i] < 1 {
				items = append(items, c)
				break
			}
		}
	}
	slices.SortFunc(items, func(a, b candidate) int { return a.pos - b.pos })
	return items
}

// sisterItems returns, when the best candidate is an item of a list and
// the question asks for several ("which dates are the cloudy ones"), the
// other items of that list that hold the same words of the question: each
// "(cloudy day)" item is one of the dates.
func (e *Extractive) sisterItems(q question, cands []candidate) []candidate {
	best := cands[0]
	if best.lead == "" || !q.words["are"] && !q.words["ones"] && !q.words["were"] {
		return nil
	}
	var items []candidate
	for _, c := range cands[1:] {
		if c.chunk == best.chunk && c.lead == best.lead && c.score >= e.opts.MinPartScore && slices.Equal(c.matched, best.matched) {
			items = append(items, c)
		}
	}
	return items
}

// pairedRow returns the row of the best row's table that names what the
// question asks for besides it, when the question joins two things with
// "and" and each of the two rows names one and not the other: "day and
// month field ranges" is the Day row and the Month row.
func pairedRow(q question, cands []candidate) (candidate, bool) {
	best := cands[0]
	if best.kind != kindRow || best.header == "" || !q.words["and"] {
		return candidate{}, false
	}
	for _, c := range cands[1:] {
		if c.score < pairedShare*best.score {
			break
		}
		if !sameTable(best, c) || c.unnamed {
			continue
		}
		if ownsTerm(q, c, best) && ownsTerm(q, best, c) {
			return c, true
		}
	}
	return candidate{}, false
}

// pairedShare is how close to the best row's score the row paired with it
// must come.
const pairedShare = 0.6

// ownsTerm reports whether a holds a content word of the question that b
// lacks altogether (not even its header holds it: "loss" of the header
// "Loss mechanism" is every row's).
func ownsTerm(q question, a, b candidate) bool {
	for i, t := range q.terms {
		if !t.frame && a.matched[i] == 1 && b.matched[i] == 0 {
			return true
		}
	}
	return false
}

// maxVariants bounds the rows quoted for a model name that several rows
// share.
const maxVariants = 3

// variantShare is how close to the best row's score another row must come
// to be quoted beside it.
const variantShare = 0.95

// variantNamedShare is how close a row holding a number or identifier of
// the question that the best row lacks must come: "paco 208 vs 240" names
// both variants, each row holds one of the two.
const variantNamedShare = 0.85

// variants returns the other spreadsheet rows that match a model name of
// the question as well as the best row does ("SB7000TL-US-22" names both
// the -208V and the -240V rows), or nearly as well and hold a number of
// the question the best row does not ("208 vs 240"): quoting one would
// pick a variant for the user. Rows must come from the same document.
func variants(q question, cands []candidate) []candidate {
	best := cands[0]
	if best.kind == kindRow {
		return sameValueRows(q, cands)
	}
	if best.kind != kindRecord {
		return nil
	}
	if q.versus {
		// "blueplanet 40.0 tl3 idcmax - M1 vs M3": the row of the other
		// side is the other half of the answer.
		sides := otherRows(cands, func(c candidate) bool {
			return (c.score >= variantModelShare*best.score || holdsBesidesSides(q, c, best)) && sameCodes(q, c, best) && addsSide(q, c, best)
		})
		if len(sides) > 0 {
			return sides
		}
	}
	if !slices.ContainsFunc(q.terms, func(t qterm) bool { return t.code }) {
		if q.versus && slices.ContainsFunc(q.terms, func(t qterm) bool { return t.lettered != nil && strings.HasPrefix(t.term, "(") }) {
			// "fs-45 n - the 2003 measured row vs the 2003 (E) one": a
			// model number too short to be read as a code still names
			// both rows, and the one without the mark (see markName) is
			// the other side.
			if sides := otherRows(cands, func(c candidate) bool { return c.side && sameCodes(q, c, best) }); len(sides) > 0 {
				return sides
			}
		}
		return labelledRows(q, cands)
	}
	return otherRows(cands, func(c candidate) bool {
		switch {
		case c.side && sameCodes(q, c, best):
			// However much less of the question it holds: the words it
			// lacks name the other side.
			return true
		case c.score < variantModelShare*best.score:
			return false
		}
		return c.score >= variantShare*best.score ||
			c.score >= variantNamedShare*best.score && addsExact(q, c, best) ||
			addsExact(q, c, best) && sameCodes(q, c, best)
	})
}

// otherRows returns up to maxVariants-1 spreadsheet rows of cands after the
// best, of its document and quoted otherwise, that keep accepts.
func otherRows(cands []candidate, keep func(candidate) bool) []candidate {
	best := cands[0]
	var out []candidate
	for _, c := range cands[1:] {
		if len(out) == maxVariants-1 {
			break
		}
		if c.kind == kindRecord && c.docID == best.docID && c.quote != best.quote && keep(c) {
			out = append(out, c)
		}
	}
	return out
}

// labelledRows returns the other spreadsheet rows of the best row's
// document that hold a label of the question (see rowLabels) the best row
// lacks: "legend: what are c4 / c5" is answered by the C4 row and the C5
// row.
func labelledRows(q question, cands []candidate) []candidate {
	labels := rowLabels(q)
	if len(labels) < 2 {
		return nil
	}
	bestHolds := valueTerms(cands[0].fields)
	return otherRows(cands, func(c candidate) bool {
		holds := valueTerms(c.fields)
		return slices.ContainsFunc(labels, func(l string) bool { return holds[l] && !bestHolds[l] })
	})
}

// variantModelShare is how close a row of the same model (it holds every
// identifier of the question the best row holds) must come when it holds
// a number of the question the best row lacks: "fs1050pu paco at 300v and
// at 390v" names two rows of one model, each scored by its own voltage.
const variantModelShare = 0.7

// asideAnswer is how a question a document asks may answer (see
// asideAnswers).
type asideAnswer int

const (
	// asideNone: it answers nothing.
	asideNone asideAnswer = iota
	// asideOnly: its aside holds a word of the question that nothing
	// else of it does; it answers when no statement does.
	asideOnly
	// asideStates: its aside lists what the question sets aside among
	// others, or glosses what the question asks defined.
	asideStates
)

// asideAnswers reports how a question a document asks ("■ Do you generate
// C&D wastes such as wood, roof material, insulation, plaster, or sheet
// rock at your site?") states in its aside what the question asks.
func asideAnswers(q question, text string) asideAnswer {
	at := asideStart(text)
	if at < 0 {
		return asideNone
	}
	said, rest := analysis.TermSet(text[at:]), analysis.TermSet(text[:at])
	if q.defines && definesInline.MatchString(text) {
		return asideStates
	}
	for t := range q.excluded {
		if said[t] && !analysis.IsStopword(t) {
			return asideStates
		}
	}
	for _, t := range q.terms {
		if !t.frame && said[t.term] && !rest[t.term] {
			return asideOnly
		}
	}
	return asideNone
}

// asideStart is where a sentence begins to say in passing what a thing it
// names is or holds: its examples ("(e.g., fluorescent light ballasts
// containing PCBs in the potting material)", "such as wood, roof material,
// insulation") or its gloss ("(i.e., waste that poses potential harm …)");
// -1 when it does not.
func asideStart(text string) int {
	at := -1
	for _, re := range []*regexp.Regexp{givesExamples, definesInline} {
		if m := re.FindStringIndex(text); m != nil && (at < 0 || m[0] < at) {
			at = m[0]
		}
	}
	return at
}

// The words by which a sentence gives examples of a thing, and by which it
// says what the thing is: written once for every pattern below.
const (
	exampleCue = `e\.\s?g\.|(?:such as|for instance|for example)\b`
	glossCue   = `i\.\s?e\.`
)

// definesInline matches a gloss in brackets, "(i.e., …)", by which a
// sentence says what a thing is.
var definesInline = regexp.MustCompile(`(?i)\(\s*` + glossCue)

// givesExamples matches the words that introduce examples.
var givesExamples = regexp.MustCompile(`(?i)\b(?:` + exampleCue + `)`)

// holdsCode reports whether text holds a model, drawing or report number
// (see guard.IsCode) outside its web addresses: "SAND85-0376", not "TMY2"
// nor a web address's path.
func holdsCode(text string) bool {
	text = guard.WithoutWebAddresses(text)
	return slices.ContainsFunc(analysis.Tokens(text), func(t analysis.Token) bool { return guard.IsCode(text, t) })
}

// captionLabel reports whether a table row holds term t only in its label
// (the first cell), the table's caption or section holds it too, and the
// question says it once: the word names the table, not the row. "hour
// field range in the hourly input data" says it twice, once for each.
func captionLabel(q question, u unit, section map[string]bool, t qterm) bool {
	if u.kind != kindRow || u.header == "" || t.exact || !section[t.term] || q.times[t.term] > 1 {
		return false
	}
	cells := splitCells(u.text)
	if !slices.Contains(analysis.Terms(cells[0]), t.term) {
		return false
	}
	return !slices.ContainsFunc(cells[1:], func(c string) bool { return slices.Contains(analysis.Terms(c), t.term) })
}

// holdsRest reports whether a unit (by its matched terms) holds itself
// every word of the question but the one at skip, frame words and the
// words of the document's title aside.
func holdsRest(q question, matched []float64, skip int, title map[string]bool) bool {
	for i, t := range q.terms {
		if i != skip && !t.frame && matched[i] < 1 && !title[t.term] {
			return false
		}
	}
	return true
}

// comparesCodes reports whether a complex question names several model
// numbers and a unit (by its matched terms) holds one of them whole:
// "magnetek pvi-3600-us vs pvi-3600-i-outd-us-f - weight each" is
// answered by a row of each.
func comparesCodes(q question, matched []float64) bool {
	if !q.complex {
		return false
	}
	codes, held := 0, false
	for i, t := range q.terms {
		if t.code {
			codes++
			held = held || matched[i] == 1
		}
	}
	return codes > 1 && held
}

// sameCodes reports whether c holds every identifier of the question that
// best holds, but for the sides of "vs": the 240V row of "ts-s3000 vdcmax
// 208v vs 240v" is of the same model as the 208V row.
func sameCodes(q question, c, best candidate) bool {
	for i, t := range q.terms {
		if t.code && !q.contrasted[t.term] && best.matched[i] == 1 && c.matched[i] < 1 {
			return false
		}
	}
	return true
}

// laterSide is 1 when c speaks of the side after "vs" alone, else 0.
func laterSide(q question, c candidate) int {
	later := 0
	for i, t := range q.terms {
		if !q.contrasted[t.term] || c.matched[i] < 1 {
			continue
		}
		if q.sides[0][t.term] {
			return 0
		}
		later = 1
	}
	return later
}

// holdsBesidesSides reports whether c holds every word of the question
// that best holds, but for the sides of "vs": "conext xc630-na mppt high
// 350v vs 300v" weighs the rare 350V far above the common 300V, and the
// 300V row is the other side however lower it scores.
func holdsBesidesSides(q question, c, best candidate) bool {
	for i, t := range q.terms {
		if !q.contrasted[t.term] && c.matched[i] < best.matched[i] {
			return false
		}
	}
	return true
}

// addsSide reports whether c holds a word either side of "vs" (see
// question.contrasted) that best does not.
func addsSide(q question, c, best candidate) bool {
	for i, t := range q.terms {
		if q.contrasted[t.term] && !t.frame && c.matched[i] == 1 && best.matched[i] < 1 {
			return true
		}
	}
	return false
}

// addsExact reports whether c holds a number or identifier of the question
// that best does not.
func addsExact(q question, c, best candidate) bool {
	for i, t := range q.terms {
		if t.exact && c.matched[i] == 1 && best.matched[i] < 1 {
			return true
		}
	}
	return false
}

// combine answers a complex question ("compare X and Y", two questions in
// one) with up to MaxSentences units: the best-scored first, then greedily
// the unit that adds the most question terms not yet covered, skipping
// near-duplicates. Each unit must reach MinPartScore on its own, and
// together they must cover the question as well as one sentence must
// cover a simple one.
func (e *Extractive) combine(q question, cands []candidate, total float64) []candidate {
	if total == 0 || cands[0].unnamed || cands[0].score < e.opts.MinPartScore {
		return nil
	}
	picked := []candidate{cands[0]}
	covered := slices.Clone(cands[0].parts())
	for len(picked) < e.opts.MaxSentences {
		bestGain, bestIdx := 0.0, -1
		// A question that asks a value and something else by a clause of
		// its own ("what year is nepa from, and which nhpa section …")
		// is answered by a unit that states the value: among equal gains
		// it wins while no picked unit states one.
		untyped := q.expect.Apart != 0 && !slices.ContainsFunc(picked, func(p candidate) bool { return statesAsked(q, p) })
		for i, c := range cands {
			if c.unnamed || c.score < e.opts.MinPartScore && !answersAsk(q, c, picked) || slices.ContainsFunc(picked, func(p candidate) bool { return nearDuplicate(p, c) }) {
				continue
			}
			var gain float64
			for j, m := range c.parts() {
				if m > covered[j] {
					gain += (m - covered[j]) * q.terms[j].weight
				}
			}
			// Strictly greater: among equal gains the better-scored
			// (earlier) unit wins.
			if gain > bestGain+1e-9 || untyped && bestIdx >= 0 && gain > bestGain-1e-9 && statesAsked(q, c) && !statesAsked(q, cands[bestIdx]) {
				bestGain, bestIdx = gain, i
			}
		}
		if bestIdx < 0 || !addsPart(q, picked[0], cands[bestIdx], bestGain/total) && !(answersAsk(q, cands[bestIdx], picked) && bestGain/total >= minVersusGain) {
			break
		}
		picked = append(picked, cands[bestIdx])
		for j, m := range cands[bestIdx].parts() {
			covered[j] = max(covered[j], m)
		}
	}
	var coverage float64
	for j, m := range covered {
		coverage += m * q.terms[j].weight
	}
	if coverage/total < max(e.opts.MinCoverage, e.opts.MinScore) {
		return nil
	}
	return picked
}

// answersAsk reports whether a unit holds most of what one ask of a
// question that asks two things says (question.asks), an ask no unit
// picked before it holds: "For more information on EPA's lead-based paint
// program, contact the National Lead Information Center at 800-424-LEAD
// (5323)." answers "… and the national lead info center number", though
// against the whole question, year and renovation included, it scores too
// low to be a part. A word that names the kind of value asked ("year") is
// held by a unit that states a value of that kind when no unit picked
// before it states one.
func answersAsk(q question, c candidate, picked []candidate) bool {
	typed := statesAsked(q, c) && !slices.ContainsFunc(picked, func(p candidate) bool { return statesAsked(q, p) })
	held := heldAsks(q, c, typed)
	for _, p := range picked {
		held &^= heldAsks(q, p, statesAsked(q, p))
	}
	return held != 0
}

// heldAsks returns the asks of a question that asks two things (bits of
// question.asks) of which a unit holds most of the words; typed credits
// it with the words that name the kind of value asked.
func heldAsks(q question, c candidate, typed bool) guard.Ask {
	var out guard.Ask
	if q.asks == nil {
		return out
	}
	for _, ask := range []guard.Ask{guard.AskFirst, guard.AskFurther} {
		var held, all float64
		for j, t := range q.terms {
			if t.frame || q.asks[j]&ask == 0 {
				continue
			}
			all += t.weight
			if typed && slices.Contains(q.expect.Cues, t.term) {
				held += t.weight
			} else {
				held += c.matched[j] * t.weight
			}
		}
		if all > 0 && held >= minAskCoverage*all {
			out |= ask
		}
	}
	return out
}

// statesAsked reports whether a unit states a value of the kind the
// question asks for.
func statesAsked(q question, c candidate) bool {
	return q.expect.WantsValue() && q.expect.AcceptsValues(c.quote, c.values, q.numbers)
}

// minAskCoverage is the share of an ask's weight a unit must hold to
// answer it alone.
const minAskCoverage = 0.6

// minPartGain is the share of the question's weight a further unit of a
// complex answer must add: less is repetition, not a new part.
const minPartGain = 0.1

// minVersusGain is that share when the question sets two cases side by
// side and the further unit is a row of the table the first one is from:
// the second case's words ("c-si" after "mc-si") may weigh little; and
// when the further unit answers one of two asks alone (answersAsk).
const minVersusGain = 0.05

// addsPart reports whether a unit adding share of the question's weight to
// an answer that opens with first is a part of it.
func addsPart(q question, first, c candidate, share float64) bool {
	return share >= minPartGain || q.versus && share >= minVersusGain && sameTable(first, c)
}

// sameTable reports whether two units are rows of one table: spreadsheet
// rows of one document, or lines of a page's table under one header, in
// one passage or two (Table 8's rows fill several).
func sameTable(a, b candidate) bool {
	switch {
	case a.kind == kindRecord && b.kind == kindRecord:
		return a.docID == b.docID
	case a.kind == kindRow && b.kind == kindRow:
		return a.header == b.header && (a.chunk == b.chunk || a.docID != "" && a.docID == b.docID)
	}
	return false
}

// nearDuplicate reports whether two units say much the same thing (as
// neighbouring chunks and repeated table rows do).
func nearDuplicate(a, b candidate) bool {
	inter := 0
	for t := range a.terms {
		if b.terms[t] {
			inter++
		}
	}
	union := len(a.terms) + len(b.terms) - inter
	return union > 0 && float64(inter)/float64(union) >= 0.8
}

// unitContext is what frames a unit: the terms of its document's title and
// number (a question naming the document or tool is answered by any of its
// passages), of its section heading, and the heading text itself.
type unitContext struct {
	title, section map[string]bool
	frame          string
	// cases are the contrasting cases the unit's chunk names anywhere
	// (read only when the question names one).
	cases []guard.Qualifier
	// headers caches the shape of each table header, which many rows
	// share.
	headers map[string]shape
	// entries is the text of the reference-list entries the unit cites,
	// read only when the question asks for a publication: the answer
	// quotes them after the unit (see followReferences).
	entries string
	// rows holds the names of the table rows the question names that a
	// footnote's sentence fits (see footnoteRows): the sentence speaks of
	// them.
	rows map[string]bool
	// labels holds the label words of every row of each table header
	// among the passages (see mixedLabel).
	labels map[string][][]string
	// legends says what the columns of the unit's document's tables
	// stand for (see columnLegends), read when the question names a
	// contrasting case.
	legends map[string]string
	// sheetLegend says what the columns of the unit's document's
	// spreadsheets stand for, by the rows of its legend sheet among the
	// passages (see sheetLegends).
	sheetLegend map[string]string
}

// score rates one unit. ok is false when the unit cannot answer: it lacks
// an identifier the question names or any word the question does not
// already contain, it is about a sibling of a qualifier the question names
// (DC where AC was asked), or what it would quote holds no value of the
// kind the question asks for.
func (e *Extractive) score(q question, u unit, terms map[string]bool, ctx unitContext, total float64, chunks int) (candidate, bool) {
	toks := analysis.Tokens(u.text)
	if len(toks) < 3 && (u.header == "" && !u.imprint || len(toks) < 2) || total == 0 {
		// Too short to say anything; a table row says it with its header,
		// an imprint line ("March 2015") with its title page.
		return candidate{}, false
	}
	if u.kind == kindSentence && chartLabels(u.text, toks) ||
		u.kind != kindRecord && formula(u.text, tokenShape(toks).add(ctx.header(u.header))) ||
		q.countsAbsent(toks) || q.polar && pointer(toks) {
		return candidate{}, false
	}
	var header, prev map[string]bool
	switch {
	case u.header != "":
		header = analysis.TermSet(u.header)
	case u.lead != "":
		// A list's opening sentence says what its items are, as a
		// header says what a row's cells are.
		header = analysis.TermSet(u.lead)
	}
	if u.prev != "" {
		prev = analysis.TermSet(u.prev)
	}
	labels := header // the header's words that credit the unit
	if u.unseen {
		// The IEA scenario row "7 | Ref-B | 0.4 | …" read under "… |
		// GCR* | …" from the page before says no GCR of Table 2's.
		labels = nil
	}
	c := candidate{unit: u, matched: make([]float64, len(q.terms)), terms: terms}
	var cited map[string]bool
	if ctx.entries != "" {
		cited, c.cites = analysis.TermSet(ctx.entries), true
	}
	var near map[string]bool
	if u.before != "" {
		near = analysis.TermSet(u.before)
	}
	// A qualifier the question names counts as found when the unit names
	// the same case in another spelling ("V5" and "Version 5").
	spelled := map[int]float64{}
	// inherited marks qualifier terms credited only for the sentence
	// before: "For a roof mount system, … than on an open rack. The
	// estimate is 49 °C for 4 inch standoffs." speaks of the roof mount in
	// its second sentence too, when the sentence before opens with the
	// case and this one names no sibling.
	inherited := map[int]bool{}
	if len(q.qualifierTerms) > 0 {
		inUnit := guard.Qualifiers(u.text + "\n" + u.header)
		inFrame := guard.Qualifiers(ctx.frame)
		var inBefore []guard.Qualifier
		if u.before != "" {
			inBefore = guard.Qualifiers(u.before)
		}
		for qi, qual := range q.expect.Qualifiers {
			credit, before := 0.0, false
			switch {
			case guard.Mentions(inUnit, qual):
				credit = 1
			case guard.Mentions(inFrame, qual):
				credit = sectionWeight
			case opensWith(u.before, inBefore, qual) && !namesSibling(inUnit, qual):
				credit, before = contextWeight, true
			}
			for _, ti := range q.qualifierTerms[qi] {
				if credit > spelled[ti] {
					spelled[ti], inherited[ti] = credit, before
				}
			}
		}
	}
	acronym := acronymCredit(q, u.text, toks)
	var got float64
	own := false         // the unit itself, or its column, holds a word of the question
	named := false       // the unit itself holds a word of the question
	missingCode := false // an identifier of the question is not in the unit
	glossAt := -1        // the term "define" or "definition", when the unit glosses something
	for i, t := range q.terms {
		own = own || !t.frame && labels[t.term]
		switch {
		case expansionCredit(q, u.text, toks, t):
			// "cercla full name": the sentence that spells CERCLA out
			// gives its full name.
			c.matched[i] = 1
		case imprintCredit(q, u, toks, t):
			// "on the back page", "who put out": what a line of the
			// title or back page says of its document is what the
			// question's imprint words ask for.
			c.matched[i] = 1
		case t.lettered != nil:
			// "Ref-A" and "(E)" are found as written or not at all.
			if t.lettered.MatchString(u.text) {
				c.matched[i] = 1
				own, named = true, true
			} else if ctx.rows[t.term] {
				// A footnote's sentence that fits the row named so.
				c.matched[i] = 1
			} else if t.code {
				missingCode = true
			}
		case holds(terms, t) && (!t.code || terms[t.term] || partsTogether(u.text, t.term)) && statesQuantity(u.text, terms, t) && captionLabel(q, u, ctx.section, t):
			// "ghi units in the hourly input data": "hourly" is the
			// table's own name ("Hourly Input Data Fields"), not the
			// "Hour" row's.
			c.matched[i] = sectionWeight
		case holds(terms, t) && (!t.code || terms[t.term] || partsTogether(u.text, t.term)) && statesQuantity(u.text, terms, t),
			acronym[i]:
			// "ground coverage ratio" is held by "a GCR of zero" too.
			c.matched[i] = 1
			own = own || !t.frame
			named = named || !t.frame
		case t.exact && u.kind == kindRecord && voltageColumn(u.fields, t.term):
			// "the 208 v one" of a Sandia row: "ac Voltage: 208".
			c.matched[i] = 1
			own, named = true, true
		case t.code && spacedOut(u.text, toks, t.term):
			// "pvi15" (the question respelled as the CEC list writes it)
			// is the Sandia list's "PVI 15 kW".
			c.matched[i] = 1
			own, named = true, true
		case q.namesDate && dateWords[t.term] && holdsYear(q, toks):
			// "nepa year": "the National Environmental Policy Act of
			// 1969" gives the year without saying the word. ("In what
			// year did …" asks a whole question, which the year alone
			// does not answer.)
			c.matched[i] = 1
		case cited[t.term] || t.exact && hasParts(cited, t.term):
			// "which nrel report": the entry the unit cites is quoted
			// with it and says what the unit does not.
			c.matched[i] = 1
		case t.term == rangeTerm && (valueRange.MatchString(u.text) || boundColumns(u)):
			// "premium eff range" is answered by "(∼18-20 %)": two
			// values joined by a dash or "to" are the range, named or
			// not; so are a row's low and high columns of one quantity
			// ("Mppt_low (V): 205; Mppt_high (V): 400").
			c.matched[i] = 1
		case ctx.title[t.term] || t.exact && hasParts(ctx.title, t.term):
			c.matched[i] = 1
		case ctx.rows[t.term]:
			c.matched[i] = 1
		case labels[t.term]:
			c.matched[i] = headerWeight
		case ctx.section[t.term] || t.exact && hasParts(ctx.section, t.term):
			c.matched[i] = sectionWeight
		case spelled[i] > 0:
			c.matched[i] = spelled[i]
			if inherited[i] {
				c.framed = append(c.framed, i)
			}
		case prev[t.term]:
			// The sentence this one refers back to is quoted with it.
			c.matched[i] = 1
		case near[t.term] && !q.isQualifier[i]:
			// The sentence before frames this one; a qualifier it names
			// may be the one it contrasts this sentence with. A complex
			// answer does not count such terms as answered (see parts).
			c.matched[i] = contextWeight
			c.framed = append(c.framed, i)
		case !t.exact && sharesStem(terms, t.term):
			c.matched[i] = relatedWeight
		case !t.exact && holdsSynonym(terms, t.term):
			// "where do we get an MSDS" — "you can obtain an MSDS".
			c.matched[i] = relatedWeight
		case !t.exact && spelledOut(t.term, u.text, toks):
			// "EPA" is the unit's "Environmental Protection Agency".
			c.matched[i] = 1
		case strings.HasPrefix(t.term, "defin") && definesInline.MatchString(u.text):
			// Credited below when the unit holds the rest of the
			// question.
			glossAt = i
		case t.term == "exampl" && givesExamples.MatchString(u.text):
			// "what examples does the guide give for the substance" —
			// "a hazardous substance (e.g., pesticides or petroleum)".
			c.matched[i] = 1
		case t.term == "rate" && statesRate(u.text):
			// "degradation rate" is answered by "∼ 0.5 %/year": a value
			// per unit of time or quantity is the rate, named or not.
			c.matched[i] = 1
		case t.exact && guard.SaysTimes(u.text, t.term):
			// "the 14:00-15:00 record" is the hour "from 2 p.m. to 3
			// p.m.".
			c.matched[i] = 1
		case t.code:
			// An identifier of the question missing from the unit and
			// its context: this unit is about something else, unless
			// the question compares it with another that the unit
			// holds (see comparesCodes).
			missingCode = true
		}
	}
	for joined, parts := range q.spaced {
		if !terms[joined] {
			continue
		}
		// "kyocera pv 110": the row's "PV110" is the model number the
		// question spaces out; it names both parts.
		for i, t := range q.terms {
			if t.term == parts[0] || t.term == parts[1] {
				c.matched[i] = 1
			}
		}
		own, named = true, true
	}
	if missingCode && !comparesCodes(q, c.matched) {
		return candidate{}, false
	}
	if glossAt >= 0 && holdsRest(q, c.matched, glossAt, ctx.title) {
		// "friable asbestos definition": "Asbestos also is a hazardous
		// substance when it is in a form that can be reduced to dust by
		// hand pressure (i.e., it is friable)" glosses what the question
		// names, all of it (the document's title may name the rest:
		// "in the epa construction guide"); "universal waste (i.e., …)"
		// under "SOLID AND HAZARDOUS WASTES" does not define "haz waste".
		c.matched[glossAt] = 1
	}
	if !own && !u.imprint {
		// Only the title or the section names what is asked: "Module:
		// Trina Vertex 650 W" under the study's title does not say which
		// strings the study's DC power is reported from.
		return candidate{}, false
	}
	if lacksThing(q, c.matched) {
		// "what time zone are the timestamps in": a unit that names no
		// time zone does not say which one.
		return candidate{}, false
	}
	if otherMeasure(q, terms) || header != nil && otherMeasure(q, header) {
		// "module width": "the Trina Vertex module (length = 2.384m)"
		// gives its length.
		return candidate{}, false
	}
	if u.kind == kindRow && (otherLabel(q, u) || otherState(q, u, ctx.labels[u.header]) || mixedLabel(q, u, ctx.labels[u.header]) || otherSetting(q, terms, header)) {
		// "table 8 denver co fixed": the row "CO Boulder" shares the
		// state, and Denver is in no passage.
		return candidate{}, false
	}
	if u.kind == kindSentence && unnamedCase(q, c.matched, ctx.cases) || u.kind == kindRow && rowLacksCase(q, u, ctx.cases) {
		return candidate{}, false
	}
	if u.kind == kindRecord && otherVoltage(q.stated, u.text) {
		// "satcon pvs-1000 mvt 480v": a row whose every voltage is
		// another ("ac Voltage: 265") is another variant, or none.
		return candidate{}, false
	}
	if u.kind == kindRecord && q.series != "" && !terms[q.series] {
		// "fronius primo 5.0-1": an "IG Plus 5.0-1" row is another
		// series' model of the same number.
		return candidate{}, false
	}
	if u.kind == kindRecord && len(q.makers) > 0 && !slices.ContainsFunc(q.makers, func(w string) bool {
		return terms[w] || misspeltIn(w, terms) || initialsIn(w, u.fields) || clippedIn(w, u.fields)
	}) {
		// "delta si 3000-us weight": a Growatt 3000-US row holds the
		// number, not the maker.
		return candidate{}, false
	}
	if crossesCases(q.cases, u.text, terms) {
		return candidate{}, false
	}
	if u.kind == kindSentence && slices.ContainsFunc(q.opposed, func(c guard.OppositeCue) bool { return c.Swapped(u.text, toks) }) {
		// "the least important open questions": "one of the most
		// important open questions" is about the other end.
		return candidate{}, false
	}
	if (q.negated && !q.polar || len(q.lacks) > 0) && u.kind == kindSentence && !denies(toks) {
		// "when is an EIS not needed": "an EIS … may be required" says
		// when it is; "what does article 102 not allow" is not answered
		// by what it allows, "which loss has no v1 derate" by a sentence
		// about the derate.
		return candidate{}, false
	}
	if named && q.expect.Format.Holds(u.text) {
		// "brownfields program link" is said by "For more information on
		// the Brownfield Program …, go to www.epa.gov/swerosps/bf/": a
		// unit about what is asked that holds the form asked for says
		// the words that ask for it. One about something else does not.
		for i, t := range q.terms {
			if t.form {
				c.matched[i] = 1
			}
		}
	}
	if u.kind == kindRecord && len(u.fields) > 1 {
		if c.byUnit = unitField(q, u.fields[1:]); c.byUnit != "" {
			// "how many dc amps max": the column in amps whose name
			// says dc and max ("Idcmax (A)") says them.
			name, _, _ := strings.Cut(strings.ToLower(c.byUnit), ":")
			for i, t := range q.terms {
				if slices.Contains(q.expect.CountedBy, t.term) || boundWords[t.term] != "" && strings.Contains(name, boundWords[t.term]) {
					c.matched[i] = 1
				}
			}
		}
	}
	if u.kind == kindRecord && len(u.fields) > 1 && c.byUnit == "" && len(ctx.sheetLegend) > 0 && holdsCodeAsked(q, c) {
		var covered []int
		if c.byLegend, covered = legendFields(q, u.fields[1:], ctx.sheetLegend, c.matched); len(c.byLegend) > 0 {
			// The words that say what the column stands for are its
			// name's, as a header's are its cells'.
			for _, i := range covered {
				c.matched[i] = max(c.matched[i], headerWeight)
			}
		}
	}
	partialQualifiers(q, c.matched, spelled)
	if q.expect.Format != "" && !aboutOwner(q, c.matched) {
		// "rcra hotline fax number": the fax number of an office the
		// question does not name is not the one asked.
		return candidate{}, false
	}
	if q.expect.Format == guard.FormatEquation && (ownWords(q, terms) < minEquationWords || u.kind != kindSentence && !guard.NamesEquation(u.text)) {
		// "vf note eq number for the closed form avg vf to the ground":
		// "the integral in Eq. 7 is exact" numbers an equation it does
		// not describe, and "f | du: = | x 1 2 1/2 | (8)", a formula
		// read as a table row, describes none in words.
		return candidate{}, false
	}
	for i, t := range q.terms {
		got += c.matched[i] * t.weight
	}
	whole := total
	if u.kind == kindRecord && holdsCodeAsked(q, c) && namesField(q, u.fields) {
		// "filling in the design tool config for the carport … vdcmax:
		// ???": the row the model number names, in a column a word of
		// the question names, is read past the words no passage holds;
		// they tell the job, as frame words do.
		for _, t := range q.terms {
			if t.unseen && !t.frame {
				whole -= t.weight * (1 - frameWeight)
			}
		}
	}
	c.coverage, c.readPast = got/whole, 1-whole/total

	novel := false
	for i, tok := range toks {
		if tok.Kind == analysis.Word && analysis.IsStopword(tok.Text) {
			continue
		}
		if !q.has[tok.Term] && !q.has[tok.Text] && !versionAsked(q, toks, i) {
			novel = true
			break
		}
	}
	if !novel {
		return candidate{}, false
	}
	sibText, sibContext := u.text, u.header+"\n"+u.prev+"\n"+ctx.frame
	if u.kind == kindRow && !u.carried && len(ctx.legends) > 0 {
		if cells, _, none := askedCells(q, u); cells != "" && !none {
			if legends, ok := quotedLegends(ctx.legends, u.header, cells); ok {
				// "charlotte fixed tilt w/ the standard module": the row
				// answers with its Fixed cell, whose legend says it is a
				// standard module's; the Fixed+Premium column beside it
				// is not quoted.
				sibText, sibContext = cells, legends+"\n"+u.prev+"\n"+ctx.frame
			}
		}
	}
	if _, _, bad := guard.SiblingOnly(q.expect.Qualifiers, sibText, sibContext); bad {
		return candidate{}, false
	}
	around := u.text + "\n" + ctx.frame
	if len(q.expect.Labelled) > 0 {
		// Only a labelled number is read by its column's name.
		around += "\n" + cellsByColumn(u)
	}
	if asked, _, bad := q.expect.Contradicts(around); bad && !describesOtherSide(q, asked, terms) {
		return candidate{}, false
	}
	c.quote, c.typed = e.quoteText(q, c)
	lacking := false // the row is the one whose cell the question asks to be blank
	if len(q.lacks) > 0 && u.kind == kindRow {
		heads, cells := splitCells(u.header), splitCells(u.text)
		if j := lackedColumn(q, heads); j > 0 && len(heads) == len(cells) {
			// "which loss category has no related v1 derate": the row
			// whose cell in that column is blank ("Light-induced
			// degradation | 1.5 % | –"), quoted with it; a row with a
			// value there is not one.
			if !blankCell(cells[j]) {
				return candidate{}, false
			}
			c.quote = strings.TrimSpace(cells[0]) + rowLabelSep + strings.TrimSpace(heads[j]) + rowValueSep + strings.TrimSpace(cells[j])
			c.typed, lacking = true, true
		}
	}
	c.values = guard.Values(c.quote)
	// A number in a row's name ("Solis-20K-US", "[CEC 2015]") is no value
	// of the kind asked for.
	said := statedValues(q, c)
	// A unit that holds the ask of a question that names no kind of
	// value may answer it without one (see guard.Expectation.Apart).
	apart := heldAsks(q, c, false)&q.expect.Apart != 0
	if c.quote == "" || !c.typed && !apart && !q.expect.AcceptsValues(c.quote, said, ownNumbers(q, said)) && !acceptsEntries(q, ctx.entries) {
		return candidate{}, false
	}
	if u.kind == kindSentence && namedOther(q, c.quote, said, terms) {
		// "trina vertex module efficiency": "A GCR of 0.4 for the Trina
		// Vertex module (length = 2.384m) …" names each of its numbers
		// by another quantity.
		return candidate{}, false
	}
	if q.expect.WantsValue() && !slices.Contains(q.expect.Dims, guard.DimDate) && referenceEntry.MatchString(u.text) {
		// "how many test arrays did fuentes use": an entry of a
		// reference list numbers, dates and pages a work; it measures
		// nothing.
		return candidate{}, false
	}
	if u.kind == kindRow && echoesNumbers(q, c.quote) {
		// "V2 — Date: 2001" for "which conference was the 2001 version
		// 2 paper presented at": the row gives back the question's own
		// number and says nothing else.
		return candidate{}, false
	}
	if unknownAsked(q, c.quote) {
		// "default FP=1, HCPV=0, LCPV=?" for "dflt fd for lcpv
		// modules": the document does not know the value asked.
		return candidate{}, false
	}
	if setAside(q, said) {
		// "premium eff range in the text (not the ~19% in table 3)":
		// the table's 19 % is what the question does not ask for.
		return candidate{}, false
	}

	if q.mustNumber && q.has["default"] && len(said) > 0 && !slices.ContainsFunc(said, func(v guard.Value) bool { return !bound(c.quote, v) }) {
		// A default is one value: "others may experience LID losses
		// greater than 1.5 %" states a bound of what others see.
		return candidate{}, false
	}
	if q.mustNumber && !q.asksChange && len(said) > 0 && !slices.ContainsFunc(said, func(v guard.Value) bool { return !change(c.quote, v) }) {
		// A level is not a change of it: "the default PVWatts V5 system
		// loss represents roughly a 7 % increase in system performance"
		// does not say what the default loss is.
		return candidate{}, false
	}
	if u.kind == kindRecord && q.bounds && len(said) == 1 && !valueRange.MatchString(c.quote) {
		// "delta ddp-260ab ac operating voltage window, min / max vac":
		// "Vac (V): 240" is one voltage, not a window's two ends.
		return candidate{}, false
	}
	if u.kind == kindRecord && q.mustNumber && !c.typed && len(said) == 0 && !wordField(q, c) {
		// A row quoted for its name alone ("Manufacturer: GreenVolts; ID:
		// GV-SCP001") states no value of what is asked.
		return candidate{}, false
	}

	typeOK, unitOK := q.satisfies(u.text, toks)
	if !typeOK && ctx.entries != "" {
		// "what year was the fuentes paper published": the entry the
		// sentence cites gives the year.
		typeOK, unitOK = q.satisfies(ctx.entries, analysis.Tokens(ctx.entries))
	}
	if !typeOK && q.want == personAnswer && refersOn(u.next) {
		// "… you may be subject to air permitting requirements …
		// Contact your local air quality agency for additional
		// information.": whom to ask is the next sentence's.
		if ok, _ := q.satisfies(u.next, analysis.Tokens(u.next)); ok {
			c.follow, typeOK, unitOK = u.next, true, true
		}
	}
	if c.typed {
		// The table says the quoted cell is of the dimension asked for
		// ("Site Latitude" in a "degrees" column), number or not.
		typeOK, unitOK = true, true
	}
	c.place = placeRow(q, u, ctx)
	c.label, c.lacking = labelAsked(q, u) || lacking || c.place, lacking
	if c.label && !q.expect.WantsValue() {
		// "default module type": the row the question names answers
		// with its cell ("Standard"), a number or not; only a question
		// that asks for a kind of value wants one.
		typeOK, unitOK = true, true
	}
	if !typeOK && !apart && (q.counts || q.mustNumber && q.expect.WantsValue()) {
		return candidate{}, false
	}
	if q.compares && !comparing.MatchString(u.text) {
		// "more or fewer reqs": a sentence that compares nothing does
		// not choose.
		return candidate{}, false
	}
	score := c.coverage * (1 - proximityShare + proximityShare*proximity(q, toks))
	if !typeOK {
		score *= missingTypePenalty
	} else if !unitOK {
		score *= missingUnitPenalty
	}
	if q.defines && (u.kind == kindRecord || u.kind == kindRow) {
		// A legend row ("Heading: fd; Description: …") defines; a data
		// row that merely has the column does not.
		if definesTerm(u) {
			score = min(1, score*labelBonus)
		} else {
			score *= missingTypePenalty
		}
	}
	if u.kind == kindSentence && (holdsAside(q, terms) || prev != nil && holdsAside(q, prev)) {
		// "besides PV, which other technologies can SAM simulate": a
		// sentence about PV is about what the question sets aside; one
		// that lists PV among others lists what is asked. The sentence
		// quoted before this one speaks for it ("… for residential
		// construction. Go to …").
		if enumerates(u.text) || addsToAside.MatchString(u.text) {
			score = min(1, score*asideListBonus)
			c.listsAside = true
			if c.follow == "" && addsMore(u.next) {
				// "besides tmy2 and tmy3, which other weather formats":
				// "… (TMY3), and EnergyPlus weather files. It also reads
				// files in the SAM CSV format" lists on in the next
				// sentence.
				c.follow = u.next
			}
		} else if !saysRest(q, c.matched) {
			score *= asidePenalty
		}
	}
	if u.kind == kindSentence && introduces.MatchString(u.text) {
		// "The view factor to the ground is given by" introduces an
		// equation the text cannot quote: alone it says nothing.
		score *= introductionPenalty
	}
	if u.kind == kindSentence && !asksContact(q) && !q.words["where"] && pointsElsewhere(u.text) {
		// "For more information on C&D wastes, go to www.epa.gov/…"
		// names no building material the question asks for; it is
		// the answer to one that asks where to call or look.
		score *= pointerPenalty
	}
	if u.kind == kindSentence && (definesSubject(q.subject, toks) || glossesSubject(q.subject, u.text, toks)) {
		// "Brownfields are abandoned, idled, or underused … facilities"
		// answers "what is a brownfield"; "EPA's Brownfield Program
		// provides funding for … brownfield sites" only mentions it.
		score = min(1, score*definitionBonus)
	}
	if q.why && u.kind == kindSentence {
		// "why did v5 replace the derate factor": "The decision to
		// switch … was made to bring PVWatts in line with common
		// practice" says why; "This replaces the former DC-to-AC derate
		// factor" only that it did.
		if givesReason(q, u.text, toks) {
			score = min(1, score*reasonBonus)
			if c.prev == "" && u.before != "" && consequence.MatchString(u.text) {
				// "Consequently, the loss mechanisms for shading and
				// availability were set to zero": the reason is the
				// sentence before, quoted first.
				c.prev = u.before
			}
		} else {
			score *= reasonlessPenalty
		}
	}
	if c.label {
		// The row is about what the question names ("Module type" in a
		// table of defaults): a sentence that only mentions the words
		// does not state its value.
		score = min(1, score*labelBonus)
	}
	if q.mustNumber && u.header != "" && valueInAskedColumn(q, u) {
		// The row holds a number in the very column the question names
		// ("temperature coefficient" of the "Premium" row): a prose
		// sentence that only mentions both words does not state it.
		score = min(1, score*askedColumnBonus)
	}
	if n := len(strings.Fields(c.quote)); n > longUnitWords {
		score *= math.Sqrt(float64(longUnitWords) / float64(n))
	}
	score += rankBonus * (1 - float64(u.chunk)/float64(max(chunks, 1)))
	c.score = score
	// A row that only its header, section or title matches is any row of
	// its table: "albedo for the snow scenario" is not the first
	// scenario's albedo. It stays a candidate, so that its table still
	// competes with what else might answer (see decide).
	c.unnamed = u.kind == kindRow && u.header != "" && !named && !u.imprint && !lacking
	return c, true
}

// describesOtherSide reports whether a value the question states is said
// on one side of its "vs" only, and the unit is named by the other side's
// words only: "sapc 165 (2002 (E) row) vs sapc 175" dates the 165, and the
// SAPC 175 row of another vintage is still the 175 asked about.
func describesOtherSide(q question, asked guard.Value, terms map[string]bool) bool {
	if q.sides[0] == nil || asked.Dim == "" {
		// A labelled number ("slx 6500") names the model both sides ask
		// about.
		return false
	}
	said := analysis.Terms(asked.Text)
	if len(said) == 0 {
		return false
	}
	in := func(side map[string]bool) bool {
		return !slices.ContainsFunc(said, func(t string) bool { return !side[t] })
	}
	for i, side := range q.sides {
		other := q.sides[1-i]
		if !in(side) || in(other) {
			continue
		}
		ownSide := slices.ContainsFunc(q.terms, func(t qterm) bool { return t.exact && terms[t.term] && side[t.term] && !other[t.term] })
		otherSide := slices.ContainsFunc(q.terms, func(t qterm) bool { return t.exact && terms[t.term] && other[t.term] && !side[t.term] })
		return otherSide && !ownSide
	}
	return false
}

// voltageColumn reports whether a spreadsheet row has a voltage column
// ("ac Voltage", "Vac (V)") whose value is the voltage term states ("208v").
func voltageColumn(fields []string, term string) bool {
	vs := guard.Values(term)
	if len(vs) != 1 || vs[0].Dim != guard.DimVoltage {
		return false
	}
	for _, f := range fields {
		name, value, ok := strings.Cut(f, ":")
		if !ok || strings.TrimSpace(value) != vs[0].Num {
			continue
		}
		name = strings.ToLower(bareName(name))
		if strings.Contains(name, "voltage") || strings.TrimSpace(name) == "vac" {
			return true
		}
	}
	return false
}

// otherVoltage reports whether the question states voltages and the row
// states none of them, in its values or as the last part of its model
// number: "ts-s3000 vdcmax 208v vs 240v" asks about both variants, each
// row states one.
func otherVoltage(stated []guard.Value, row string) bool {
	asked := voltagesOf(stated)
	if len(asked) == 0 || slices.ContainsFunc(guard.Values(row), func(w guard.Value) bool { return slices.Contains(asked, w.Num) }) {
		return false
	}
	name, _, _ := strings.Cut(row, ";")
	return !codeNamesVoltage(asked, name)
}

// voltagesOf returns the numbers of the voltages among stated.
func voltagesOf(stated []guard.Value) []string {
	var out []string
	for _, v := range stated {
		if v.Dim == guard.DimVoltage {
			out = append(out, v.Num)
		}
	}
	return out
}

// codeNamesVoltage reports whether a model number in name names one of
// the asked voltages by its last part ("photowatt pw6-230-24 (the 24v
// one)") or its last digits ("outback gvfx3524 (the 24v one)"), as
// battery-based models are named for their battery's voltage.
func codeNamesVoltage(asked []string, name string) bool {
	for _, t := range analysis.Tokens(name) {
		if t.Kind != analysis.Identifier {
			continue
		}
		for _, end := range analysis.Ends(t.Text) {
			if slices.ContainsFunc(asked, func(n string) bool { return end == n || end == n+"v" }) {
				return true
			}
		}
		if digits := trailingDigits(t.Text); slices.ContainsFunc(asked, func(n string) bool { return len(digits) > len(n) && strings.HasSuffix(digits, n) }) {
			return true
		}
	}
	return false
}

// trailingDigits returns the digits an identifier ends with ("3524" of
// "gvfx3524"), or "".
func trailingDigits(ident string) string {
	i := len(ident)
	for i > 0 && ident[i-1] >= '0' && ident[i-1] <= '9' {
		i--
	}
	return ident[i:]
}

// misspeltIn reports whether terms hold a word one edit away from a
// maker's name of six letters or more, as a sheet may misspell it
// ("Misubishi PV-MF120UE4N").
func misspeltIn(maker string, terms map[string]bool) bool {
	if len(maker) < 6 {
		return false
	}
	for t := range terms {
		if analysis.EditDistance(maker, t, 1) == 1 {
			return true
		}
	}
	return false
}

// clippedIn reports whether maker, four letters or more, is the start of
// the first word of the maker's name a record opens with: "mitsu" of
// "Model: Mitsubishi PV-MF180UD4".
func clippedIn(maker string, fields []string) bool {
	if len(maker) < 4 || len(fields) == 0 {
		return false
	}
	first, _, _ := strings.Cut(strings.TrimSpace(makerName(fields)), " ")
	first = strings.ToLower(first)
	return len(first) > len(maker) && strings.HasPrefix(first, maker)
}

// makerName is what a record's first field says before any second colon,
// which opens with the maker's name: " Mitsubishi PV-MF180UD4" of "Model:
// Mitsubishi PV-MF180UD4", " American Electric Technologies" of "Name:
// American Electric Technologies: ISIS-…".
func makerName(fields []string) string {
	_, name, _ := strings.Cut(fields[0], ":")
	name, _, _ = strings.Cut(name, ":")
	return name
}

// initialsIn reports whether maker is the initials of the maker's name a
// record opens with ("Name: American Electric Technologies: ISIS-…",
// "Manufacturer: Growatt New Energy"): "aet", "gne", with or without a
// closing "Inc." or "Co.".
func initialsIn(maker string, fields []string) bool {
	if len(maker) < 2 || len(maker) > 5 || len(fields) == 0 {
		return false
	}
	words := strings.FieldsFunc(makerName(fields), func(r rune) bool { return !unicode.IsLetter(r) })
	for len(words) > 0 && corporateSuffixes[strings.ToLower(words[len(words)-1])] && len(words) > len(maker) {
		words = words[:len(words)-1]
	}
	if len(words) != len(maker) {
		return false
	}
	for j, w := range words {
		if r, _ := utf8.DecodeRuneInString(w); len(w) < 2 || !unicode.IsUpper(r) || unicode.ToLower(r) != rune(maker[j]) {
			return false
		}
	}
	return true
}

// corporateSuffixes close a company's name without being part of what
// it is called.
var corporateSuffixes = set(`inc co corp corporation company ltd llc gmbh ag sa spa plc`)

// wordField reports whether a spreadsheet row's quote holds a field the
// question names by its column whose value is words, not a number
// ("Material: c-Si" for "sr90 material"): the question asks for those
// words, whatever its category says.
func wordField(q question, c candidate) bool {
	for _, f := range c.fields[min(1, len(c.fields)):] {
		name, value, ok := strings.Cut(f, ":")
		value = strings.TrimSpace(value)
		if !ok || value == "" || hasDigit(value) || !strings.Contains(c.quote, f) {
			continue
		}
		ns := analysis.TermSet(name)
		if slices.ContainsFunc(q.terms, func(t qterm) bool { return !t.frame && ns[t.term] && !analysis.IsStopword(t.term) }) {
			return true
		}
	}
	return false
}

// ownNumbers are the question's numbers that do not answer it: all of
// them but those said keeps (a model's number its row states in a cell,
// see statedValues).
func ownNumbers(q question, said []guard.Value) map[string]bool {
	own, cloned := q.numbers, false
	for _, v := range said {
		if !q.numbers[v.Num] {
			continue
		}
		if !cloned {
			own, cloned = maps.Clone(q.numbers), true
		}
		delete(own, v.Num)
	}
	return own
}

// setAside reports whether every value a unit states of the kind asked
// for is one the question sets aside.
func setAside(q question, said []guard.Value) bool {
	if len(q.asideValues) == 0 || len(said) == 0 {
		return false
	}
	for _, v := range said {
		if !slices.ContainsFunc(q.asideValues, func(a guard.Value) bool { return a.Num == v.Num && a.Dim == v.Dim }) {
			return false
		}
	}
	return true
}

// bound reports whether v is written as a bound in text: "greater than
// 1.5 %", "less than 20 %", "exceeding 3 m".
func bound(text string, v guard.Value) bool {
	words := strings.Fields(strings.ToLower(text[:v.Start]))
	if n := len(words); n > 0 && words[n-1] == "exceeding" {
		return true
	} else if n > 1 && words[n-1] == "than" {
		return comparatives[words[n-2]]
	}
	return false
}

// change reports whether v is written as a change in text: "a 7 %
// increase in system performance", "about 0.5 % more energy", "6 %
// higher".
func change(text string, v guard.Value) bool {
	after := strings.Fields(strings.ToLower(text[v.End:]))
	return len(after) > 0 && changeWords[strings.Trim(after[0], ".,;:()")]
}

// changeWords follow a value that states a change: the comparatives of a
// bound, and the words for a change itself.
var changeWords = func() map[string]bool {
	m := set(`increase increases decrease decreases reduction improvement gain rise drop better worse`)
	maps.Copy(m, comparatives)
	return m
}()

// comparatives come before "than" in a bound.
var comparatives = set(`greater more less lower higher fewer larger smaller`)

// rangeTerm is the index term of "range".
var rangeTerm = analysis.Terms("range")[0]

// valueRange finds a range of values: "18-20 %", "14 – 17 %", "0-23" ending
// a cell, "0 to 23", "[0..1]".
var valueRange = regexp.MustCompile(`\d(?:\.\d+)?\s*(?:-|–|to)\s*\d+(?:\.\d+)?(?:\s*(?:%|°|[a-zA-Z]{1,3}\b)|\s*$|\s*[,;)])|\d\s*\.\.\s*\d`)

// boundColumns reports whether a spreadsheet row has a low and a high
// column of one quantity: "MPPT-Low" and "MPPT-Hi", "Mppt_low (V)" and
// "Mppt_high (V)", "Tamb Min" and "Tamb Max".
func boundColumns(u unit) bool {
	if u.kind != kindRecord {
		return false
	}
	lows, highs := map[string]bool{}, map[string]bool{}
	for _, f := range u.fields {
		name, _, ok := strings.Cut(f, ":")
		if !ok {
			continue
		}
		name, _, _ = strings.Cut(strings.ToLower(name), "(")
		name = strings.Map(func(r rune) rune {
			if r == ' ' || r == '-' || r == '_' {
				return -1
			}
			return r
		}, name)
		for _, end := range []string{"low", "min"} {
			if p, ok := strings.CutSuffix(name, end); ok && p != "" {
				lows[p] = true
			}
		}
		for _, end := range []string{"high", "hi", "max"} {
			if p, ok := strings.CutSuffix(name, end); ok && p != "" {
				highs[p] = true
			}
		}
	}
	for p := range lows {
		if highs[p] {
			return true
		}
	}
	return false
}

// statesRate reports whether text holds a value per something: "0.5
// %/year", "10 %/min", "2 m/s".
func statesRate(text string) bool {
	return slices.ContainsFunc(guard.Values(text), func(v guard.Value) bool { return strings.Contains(v.Unit, "/") })
}

// lacksThing reports whether a unit credits none of the words of the thing
// a question asks "what X" or "which X" of.
func lacksThing(q question, matched []float64) bool {
	if len(q.thing) == 0 {
		return false
	}
	for _, i := range q.thing {
		if matched[i] > 0 {
			return false
		}
	}
	return true
}

// namedOther reports whether a question asks for a value by the name of a
// quantity ("efficiency") that a sentence does not say, and each number of
// the kind asked for the sentence states is named by another quantity
// right before it: a measure ("length = 2.384m", "pitch of 5.96m") or an
// acronym ("GCR of 0.4") the question does not say either, nor spell out.
func namedOther(q question, quote string, said []guard.Value, terms map[string]bool) bool {
	if !q.expect.WantsValue() || len(q.expect.Cues) == 0 || slices.ContainsFunc(q.expect.Cues, func(c string) bool { return terms[c] }) {
		return false
	}
	named := 0
	for _, v := range said {
		name := nameBefore(quote[:v.Start])
		if name != "" && q.words[strings.ToLower(name)] {
			// "A2 (high albedo case) pitch between rows": the pitch it
			// names is asked, whatever the cue read first.
			return false
		}
		if !q.expect.AcceptsDim(v.Dim) {
			continue
		}
		if name == "" || !acronym(name) && !measures[analysis.Terms(name)[0]] ||
			slices.ContainsFunc(q.spelled, func(r spelledRun) bool { return r.letters == strings.ToLower(name) }) {
			// "ground coverage ratio" is the GCR of "a GCR of zero".
			return false
		}
		named++
	}
	return named > 0
}

// nameBefore returns the word that names the number text runs up to ("GCR"
// of "A GCR of 0.4", "length" of "(length = 2.384m"), or "".
func nameBefore(text string) string {
	words := strings.Fields(text)
	if n := len(words); n > 1 && namingLinks[strings.ToLower(words[n-1])] {
		words = words[:n-1]
	}
	if len(words) == 0 {
		return ""
	}
	w := strings.Trim(words[len(words)-1], "(,;:")
	if len(analysis.Terms(w)) != 1 {
		return ""
	}
	return w
}

// namingLinks join the name of a quantity to its number.
var namingLinks = set(`of = : is was`)

// acronym reports whether a word is written in capitals, as many as an
// acronym has (see minAcronym): "GCR", "NOCT".
func acronym(w string) bool {
	if len(w) < minAcronym || len(w) > maxAcronym {
		return false
	}
	for _, r := range w {
		if r < 'A' || r > 'Z' {
			return false
		}
	}
	return true
}

// measures are the extents of a thing, and the factor a question may ask
// of it instead; a unit that names another one than the question and not
// the question's states another measure.
var measures = analysis.TermSet(`width length height depth thickness diameter pitch spacing factor`)

// otherMeasure reports whether the question names a measure ("width",
// "bifaciality factor") and the unit's terms name another one ("length")
// and not the question's.
func otherMeasure(q question, terms map[string]bool) bool {
	asked := ""
	for _, t := range q.terms {
		if measures[t.term] {
			if asked != "" {
				return false // several asked: any may answer
			}
			asked = t.term
		}
	}
	if asked == "" || terms[asked] {
		return false
	}
	for m := range measures {
		if terms[m] {
			return true
		}
	}
	return false
}

// enumerates reports whether a sentence lists three things or more:
// "address energy use, water use, construction materials, waste
// reduction, and the indoor environment". Commas in brackets list what
// the bracket says about one thing: "Average front and rear irradiance
// (nominal, not including reflection (IAM), shade or soiling losses)";
// but a bracket that opens with examples ("(i.e., items such as
// batteries, thermostats, and obsolete pesticides …)") lists them.
func enumerates(text string) bool {
	commas, from := 0, 0
	var brackets []bool // for each open bracket: whether it lists examples
	for i, r := range text {
		switch r {
		case '(', '[':
			m := examplesOpen.FindStringIndex(text[i+1:])
			brackets = append(brackets, m != nil)
			if m != nil {
				from = i + 1 + m[1] // "(i.e., " lists nothing yet
			}
		case ')', ']':
			if len(brackets) > 0 {
				brackets = brackets[:len(brackets)-1]
			}
		case ',':
			if i >= from && (len(brackets) == 0 || brackets[len(brackets)-1]) {
				commas++
			}
		}
	}
	return commas >= 2
}

// addsToAside joins to one thing another: "not only provides links to
// compliance materials, but also contains features that allow users to
// interact with EPA" says what else there is besides the links.
var addsToAside = regexp.MustCompile(`(?i)\bnot only\b.+\bbut (?:also|it also)\b|\bas well as\b|\bin addition to\b`)

// addsMore reports whether a sentence opens by adding to the one before:
// "It also reads …", "In addition, …".
func addsMore(text string) bool {
	toks := analysis.Tokens(text)
	for i := range min(len(toks), alsoWithin) {
		if toks[i].Text == "also" {
			return true
		}
	}
	return analysis.StartsWith(toks, []string{"in", "addition"}) || len(toks) > 0 && toks[0].Text == "additionally"
}

// alsoWithin is how near a sentence's start "also" adds to the sentence
// before ("It also", "The model also").
const alsoWithin = 3

// examplesOpen opens a bracket that lists examples: "(e.g., …", "(i.e.,
// items such as …", "(items such as …", "(including …".
var examplesOpen = regexp.MustCompile(`^(?i)\s*(?:` + exampleCue + `|` + glossCue + `|items such as|including),?\s`)

// echoesNumbers reports whether a table row's quote ("V2 — Date: 2001",
// as quoteText writes it) gives nothing but numbers the question states:
// every cell after the row's name is a number of the question.
func echoesNumbers(q question, quote string) bool {
	_, cells, ok := strings.Cut(quote, rowLabelSep)
	if !ok {
		return false
	}
	for _, cell := range strings.Split(cells, rowCellSep) {
		_, value, ok := strings.Cut(cell, rowValueSep)
		if !ok {
			return false
		}
		vs := guard.Values(value)
		if len(vs) != 1 || strings.TrimSpace(value) != vs[0].Text || !q.numbers[vs[0].Num] {
			return false
		}
	}
	return true
}

// unknownMark is a value written as unknown: "LCPV=?", "Vintage: TBD",
// "Weight: n/a".
var unknownMark = regexp.MustCompile(`(?i)([\pL\pN][\pL\pN_-]*)\s*[=:]\s*(?:\?|tbd|n/a)(?:\W|$)`)

// unknownAsked reports whether the quote writes the value of a word the
// question names as unknown.
func unknownAsked(q question, quote string) bool {
	for _, m := range unknownMark.FindAllStringSubmatch(quote, -1) {
		if q.words[strings.ToLower(m[1])] {
			return true
		}
	}
	return false
}

// introduces ends a sentence that introduces what follows it: an equation,
// a list.
var introduces = regexp.MustCompile(`(?i)\b(?:given by|as follows|calculated as|computed as|expressed as|written as|defined as|obtained from)\s*:?\s*$`)

// pointsElsewhere reports whether a sentence only says where more is to
// be read: "For more information on C&D wastes, go to www.epa.gov/…".
func pointsElsewhere(text string) bool {
	t := strings.ToLower(strings.TrimLeft(text, "■•▪*-– "))
	for _, open := range []string{"for more information", "for additional information", "for information", "more information"} {
		if strings.HasPrefix(t, open) {
			return guard.FormatURL.Holds(text)
		}
	}
	return false
}

// bothSides reports whether the picked candidates speak of each case a
// question sets side by side by the words either side of "vs" ("M1 vs
// M3"; see question.contrasted): a unit (or its section) says each of
// them that is a number or an identifier. Words ("standard vs with the
// cold weather option") may be said otherwise.
func bothSides(q question, picked []candidate) bool {
	for i, t := range q.terms {
		if !q.contrasted[t.term] || !t.exact || t.frame {
			continue
		}
		if !slices.ContainsFunc(picked, func(c candidate) bool { return c.matched[i] >= sectionWeight }) {
			return false
		}
	}
	return true
}

// aboutOwner reports whether a unit (with its context, section and title)
// holds a word the question names besides those that ask for a form
// ("phone", "fax", "link"): whose number or address is asked. A question
// that names nothing else ("fax number?") has no owner to hold.
func aboutOwner(q question, matched []float64) bool {
	owned := false
	for i, t := range q.terms {
		if !subjectWord(t) {
			continue
		}
		if matched[i] > 0 {
			return true
		}
		owned = true
	}
	return !owned
}

// subjectWord reports whether a question's term names what is asked about:
// it neither frames the question ("manual") nor asks for a form ("phone",
// "eq number"), and is no stopword.
func subjectWord(t qterm) bool {
	return !t.frame && !t.form && !analysis.IsStopword(t.term)
}

// minEquationWords is how many words of the question a unit must hold
// itself for the equation it numbers to be the one asked about.
const minEquationWords = 2

// ownWords counts the subject words of the question (subjectWord) that a
// unit's own text (terms) holds.
func ownWords(q question, terms map[string]bool) int {
	n := 0
	for _, t := range q.terms {
		if subjectWord(t) && terms[t.term] {
			n++
		}
	}
	return n
}

// saysRest reports whether a unit holds most of the question's own words
// besides what it sets aside, two at least (matched are its matches of the
// question's terms): "v5 overhaul - besides modeling typical systems more
// accurately, what were they trying to keep to a minimum" is answered by
// the sentence that says both, "… to more accurately model typical systems
// while keeping the number of inputs to a minimum".
func saysRest(q question, matched []float64) bool {
	own, said := 0, 0
	for i, t := range q.terms {
		if t.frame {
			continue
		}
		own++
		if matched[i] > 0 {
			said++
		}
	}
	return said >= minRestWords && 2*said >= own
}

// minRestWords is how many of the question's own words a unit holding what
// the question sets aside must say to answer it.
const minRestWords = 2

// holdsAside reports whether a unit's terms hold a content word of what
// the question sets aside.
func holdsAside(q question, terms map[string]bool) bool {
	for t := range q.excluded {
		if terms[t] && !analysis.IsStopword(t) {
			return true
		}
	}
	return false
}

// definesSubject reports whether a sentence opens with subject (after an
// article or a list mark) followed by "is", "are", "means" or "refers".
func definesSubject(subject []string, toks []analysis.Token) bool {
	if len(subject) == 0 {
		return false
	}
	i := 0
	for i < len(toks) && (toks[i].Kind == analysis.Symbol || toks[i].Text == "a" || toks[i].Text == "an" || toks[i].Text == "the") {
		i++
	}
	for _, term := range subject {
		if i >= len(toks) || toks[i].Term != term {
			return false
		}
		i++
	}
	return i < len(toks) && definingVerbs[toks[i].Text]
}

// glossesSubject reports whether a sentence glosses the subject in
// brackets where it names it: "Do you discharge dredged material (i.e.,
// material that is dredged or excavated from waters of the United
// States)" says what dredged material is.
func glossesSubject(subject []string, text string, toks []analysis.Token) bool {
	if len(subject) == 0 {
		return false
	}
	for i := 0; i+len(subject) <= len(toks); i++ {
		if !slices.EqualFunc(toks[i:i+len(subject)], subject, func(t analysis.Token, term string) bool { return t.Term == term }) {
			continue
		}
		if glossAfter.MatchString(text[toks[i+len(subject)-1].End:]) {
			return true
		}
	}
	return false
}

// glossAfter matches a bracketed gloss opening right after a name.
var glossAfter = regexp.MustCompile(`(?i)^\s*\(\s*` + glossCue)

// definingVerbs follow the subject of a sentence that says what it is.
var definingVerbs = set(`is are means refers describes denotes`)

// pointer reports whether a sentence only points to where more is said
// ("For more information on the asbestos NESHAP, go to www…"): it says
// neither yes nor no.
func pointer(toks []analysis.Token) bool {
	return analysis.StartsWith(toks, pointerOpening) || analysis.StartsWith(toks, pointerOpeningMore)
}

var (
	pointerOpening     = []string{"for", "information"}
	pointerOpeningMore = []string{"for", "more", "information"}
)

// chartLabels reports whether a unit reads as the labels of a chart
// extracted from a PDF: axis ticks, three numbers or more in a row with
// nothing but spaces between them ("Production 400 350 300 (kWh) 250"), or
// a long run that is mostly numbers and signs and repeats itself ("V5 Avg:
// −1.8 % in −5 difference −10 (c−Si) (c−Si) (CdTe) Axis Axis Fixed Fixed
// 1: 2: 3:"). It states nothing a quote could answer with.
func chartLabels(text string, toks []analysis.Token) bool {
	run := 0
	for i, t := range toks {
		switch {
		case t.Kind != analysis.Number:
			run = 0
		case run > 0 && strings.TrimSpace(text[toks[i-1].End:t.Start]) == "":
			run++
		default:
			run = 1
		}
		if run >= 3 {
			return true
		}
	}
	if len(toks) < 30 {
		return false
	}
	distinct := map[string]bool{}
	other := 0
	for _, t := range toks {
		distinct[t.Text] = true
		if t.Kind != analysis.Word {
			other++
		}
	}
	return 5*len(distinct) < 3*len(toks) && 20*other >= 7*len(toks)
}

// shape counts a text's tokens and the short ones among them.
type shape struct{ tokens, short int }

func tokenShape(toks []analysis.Token) shape {
	s := shape{tokens: len(toks)}
	for _, t := range toks {
		if utf8.RuneCountInString(t.Text) <= 2 {
			s.short++
		}
	}
	return s
}

func (s shape) add(o shape) shape { return shape{s.tokens + o.tokens, s.short + o.short} }

// header returns the shape of a table header, "" included.
func (ctx unitContext) header(h string) shape {
	if h == "" {
		return shape{}
	}
	s, ok := ctx.headers[h]
	if !ok {
		s = tokenShape(analysis.Tokens(h))
		if ctx.headers != nil {
			ctx.headers[h] = s
		}
	}
	return s
}

// formula reports whether a unit (with its table header, of shape s)
// reads as an equation extracted from a PDF: ten tokens or more, three in
// five of them one or two characters long ("VF ( x 01 , x ) = 1 − 1 | 1 |
// PP 2 + 2 f xx cos"); or a sentence run into equations, two equals signs
// or more and two in five tokens that short ("Substituting the above and
// changing variables vf ( x ) = 11 + cos ( + ) 22 = 1 + 1 cos cos …").
func formula(text string, s shape) bool {
	return s.tokens >= 10 && 5*s.short >= 3*s.tokens || strings.Count(text, "=") >= 2 && 5*s.short >= 2*s.tokens
}

// unnamedCase reports whether a sentence leaves out a case the question
// asks for while its passage tells that case from a sibling elsewhere:
// "For a GCR of 0.25 the pitch is 9.536m. For a 2-Up portrait system with a
// GCR of 0.4 …" — the first sentence is not about the 2-up asked for,
// though it names no other case. Questions that ask for two cases of a set
// ("dc and ac"), and minimum and maximum, which a sentence often states
// both ways, are left to the other checks.
func unnamedCase(q question, matched []float64, cases []guard.Qualifier) bool {
	for qi, qual := range q.expect.Qualifiers {
		if len(q.qualifierTerms[qi]) == 0 || guard.IsBound(qual) || namesSibling(q.expect.Qualifiers, qual) {
			continue
		}
		found := false
		for _, i := range q.qualifierTerms[qi] {
			found = found || matched[i] > 0
		}
		if !found && guard.Mentions(cases, qual) && namesSibling(cases, qual) {
			return true
		}
	}
	return false
}

// rowLacksCase reports whether a table row leaves out a case the question
// asks for while its table tells that case from a sibling: "how many tmy2
// sites did v3 offer" is not answered by the V3 row of a table whose other
// rows list TMY2 and TMY3 sites, when the V3 row names neither. The row's
// own cells and its header count, not the passage around it; a tool's name
// ("pvwatts") scopes the whole document and is left to the other checks.
func rowLacksCase(q question, u unit, cases []guard.Qualifier) bool {
	own := guard.Qualifiers(u.header + "\n" + u.text)
	for _, qual := range q.expect.Qualifiers {
		if guard.IsBound(qual) || guard.IsScope(qual) || namesSibling(q.expect.Qualifiers, qual) {
			continue
		}
		if !guard.Mentions(own, qual) && guard.Mentions(cases, qual) && namesSibling(cases, qual) {
			return true
		}
	}
	return false
}

// partialQualifiers lowers the credit of a word of a several-word qualifier
// the unit does not name as a whole: "mounting configuration" is not the
// "roof mount" asked about, nor is "axis" the "two axis" one. Such a word
// counts as a related word, no more. A unit with every word of it (or the
// sentence it refers back to) keeps their credit, and so does one with its
// first word, the one that tells the cases apart ("standard" in "for
// standard and thin film modules").
func partialQualifiers(q question, matched []float64, spelled map[int]float64) {
	for _, idx := range q.qualifierTerms {
		if len(idx) < 2 {
			continue
		}
		named, whole := false, true
		for _, i := range idx {
			named = named || spelled[i] > 0
			whole = whole && matched[i] >= 1
		}
		if named || whole || matched[idx[0]] >= 1 {
			continue
		}
		for _, i := range idx {
			matched[i] = min(matched[i], relatedWeight)
		}
	}
}

// opensWith reports whether a sentence opens with the case q (within its
// first four words: "For a roof mount system, …", "AC cables shall …"):
// the case is what the sentence, and the one after it, are about. qs are
// the sentence's qualifiers.
func opensWith(sentence string, qs []guard.Qualifier, q guard.Qualifier) bool {
	for _, m := range qs {
		if m.Group != q.Group || m.Slot != q.Slot {
			continue
		}
		if i := strings.Index(sentence, m.Text); i >= 0 && len(strings.Fields(sentence[:i])) < 4 {
			return true
		}
	}
	return false
}

// namesSibling reports whether qs names another case of q's group.
func namesSibling(qs []guard.Qualifier, q guard.Qualifier) bool {
	return slices.ContainsFunc(qs, func(m guard.Qualifier) bool { return m.Group == q.Group && m.Slot != q.Slot })
}

// proximity is 1 when the question terms found in the unit stand next to
// each other and falls towards 0 as they spread out: the smallest window
// of tokens holding every matched term, against the number of terms.
func proximity(q question, toks []analysis.Token) float64 {
	index := q.index
	type hit struct{ pos, term int }
	var hits []hit
	for p, t := range toks {
		if i, ok := index[t.Term]; ok {
			hits = append(hits, hit{p, i})
		} else if i, ok := index[t.Text]; ok {
			hits = append(hits, hit{p, i})
		}
	}
	distinct := map[int]int{}
	for _, h := range hits {
		distinct[h.term]++
	}
	k := len(distinct)
	if k < 2 {
		return 0
	}
	// Sliding window over hits for the shortest span holding all k terms.
	counts := map[int]int{}
	have, best, left := 0, math.MaxInt, 0
	for right, h := range hits {
		if counts[h.term]++; counts[h.term] == 1 {
			have++
		}
		for have == k {
			if span := hits[right].pos - hits[left].pos + 1; span < best {
				best = span
			}
			l := hits[left]
			if counts[l.term]--; counts[l.term] == 0 {
				have--
			}
			left++
		}
	}
	return float64(k-1) / float64(best-1)
}

// quote writes one unit as an answer sentence: what quoteText chose, then
// the citation and a period; a unit that refers back is preceded by the
// sentence it refers to, cited too.
func (e *Extractive) quote(q question, c candidate) string {
	text := c.quote
	if text == "" {
		text, _ = e.quoteText(q, c)
	}
	text = cited(text, c.chunk)
	if c.prev != "" {
		text = cited(c.prev, c.chunk) + " " + text
	}
	if c.follow != "" {
		text += " " + cited(c.follow, c.chunk)
	}
	return text
}

// refersOn reports whether a sentence opens by telling the reader whom to
// turn to: "Contact your local air quality agency …", "Call the …".
func refersOn(s string) bool {
	first, _, _ := strings.Cut(s, " ")
	return turnTo[strings.ToLower(strings.Trim(first, "■•▪*-–"))]
}

// turnTo are the verbs that open such a sentence.
var turnTo = set(`contact call consult notify ask`)

// cited ends a quote with its citation: "… 800 mm [S1]." — or, after a
// question or an exclamation, "… demolition? [S1]", which the post-guard
// reads as one cited sentence. A quote of several sentences (a table cell
// holding "239 TMY2 sites. Added 1998") cites each of them.
func cited(text string, chunk int) string {
	if parts := guard.SplitLine(text); len(parts) > 1 {
		for i, p := range parts[:len(parts)-1] {
			parts[i] = p + " " + citation(chunk)
		}
		text = strings.Join(parts, " ")
	}
	text = strings.TrimRight(text, " .;:,")
	if strings.HasSuffix(text, "?") || strings.HasSuffix(text, "!") {
		return text + " " + citation(chunk)
	}
	return text + " " + citation(chunk) + "."
}

// holds reports whether terms hold a question term: as it is, or for a
// number or identifier, by its parts or in the plural.
func holds(terms map[string]bool, t qterm) bool {
	return terms[t.term] || t.exact && (hasParts(terms, t.term) || pluralOf(terms, t.term))
}

// statesQuantity reports whether a unit holding the parts of a quantity
// the question names with its unit ("240v") states that quantity: the
// "240" of "SolarPond 240HF-US (208V)" is the model's name and its "V" the
// other variant's, no 240 volts. Terms that are no quantity pass.
func statesQuantity(text string, terms map[string]bool, t qterm) bool {
	if !t.exact || terms[t.term] {
		return true
	}
	asked := guard.Values(t.term)
	if len(asked) != 1 || asked[0].Unit == "" || asked[0].Text != t.term {
		return true
	}
	return slices.ContainsFunc(guard.Values(text), func(v guard.Value) bool { return v.Num == asked[0].Num && v.Dim == asked[0].Dim })
}

// hasParts reports whether every part of a compound number or identifier
// is in terms ("800mm" asked, "800 mm" written).
func hasParts(terms map[string]bool, compound string) bool {
	parts := analysis.Terms(compound)
	found := false
	for i, p := range parts {
		if i == 0 || isBeginning(parts[:i], p) {
			continue
		}
		if !terms[p] {
			return false
		}
		found = true
	}
	return found
}

// partsTogether reports whether the parts of a compound identifier stand
// together in text, a few terms apart at most ("PV.500" written "PV 500"),
// rather than in different places ("PV Powered … Vdcmax: 500").
func partsTogether(text, compound string) bool {
	var parts []string
	for i, p := range analysis.Terms(compound) {
		if i > 0 && !isBeginning(parts, p) {
			parts = append(parts, p)
		}
	}
	if len(parts) == 0 {
		return true
	}
	seq := analysis.Terms(text)
	for i, t := range seq {
		if t != parts[0] {
			continue
		}
		at, ok := i, true
		for _, p := range parts[1:] {
			next := slices.Index(seq[at+1:min(len(seq), at+1+partsGap)], p)
			if next < 0 {
				ok = false
				break
			}
			at += 1 + next
		}
		if ok {
			return true
		}
	}
	return false
}

// spacedOut reports whether text writes a model number of letters and
// digits run together with its letters and digits spaced apart, in order,
// one space or hyphen between them: "PVI 15 kW" writes "pvi15", "PVI 150"
// does not. toks are text's tokens.
func spacedOut(text string, toks []analysis.Token, code string) bool {
	if strings.ContainsFunc(code, func(r rune) bool { return (r < 'a' || r > 'z') && (r < '0' || r > '9') }) {
		return false // not a model number of letters and digits alone
	}
	var runs []string
	start := 0
	for i := 1; i <= len(code); i++ {
		if i == len(code) || unicode.IsDigit(rune(code[i])) != unicode.IsDigit(rune(code[i-1])) {
			runs = append(runs, code[start:i])
			start = i
		}
	}
	if len(runs) < 2 {
		return false
	}
	for i := range toks {
		if spacedFrom(text, toks, i, runs) {
			return true
		}
	}
	return false
}

// spacedFrom reports whether the runs of a model number are written from
// toks[i] on, each run one token, or a run of letters several short
// tokens joined by hyphens ("sa" is "S-A"), the runs spaced apart (see
// spacedBy).
func spacedFrom(text string, toks []analysis.Token, i int, runs []string) bool {
	j := i
	for k, r := range runs {
		if j >= len(toks) || k > 0 && !spacedBy(text[toks[j-1].End:toks[j].Start]) {
			return false
		}
		got := toks[j].Text
		j++
		for got != r && strings.HasPrefix(r, got) && j < len(toks) && text[toks[j-1].End:toks[j].Start] == "-" {
			got += toks[j].Text
			j++
		}
		if got != r {
			return false
		}
	}
	return true
}

// spacedBy reports whether the text between two parts of a model number
// spaces them apart: one space or one hyphen.
func spacedBy(sep string) bool { return sep == " " || sep == "-" }

// partsGap is how many terms may lie between two parts of an identifier
// that stand together: a compound is emitted whole before its parts.
const partsGap = 3

// isBeginning reports whether term is a beginning of a code that analysis
// adds after it — the "sc500" of "sc500u", letters and a number — which is
// no part of its own.
func isBeginning(before []string, term string) bool {
	if !hasDigit(term) || !strings.ContainsFunc(term, unicode.IsLetter) || !unicode.IsDigit(rune(term[len(term)-1])) {
		return false
	}
	return slices.ContainsFunc(before, func(b string) bool {
		return len(b) > len(term) && strings.HasPrefix(b, term) && !strings.ContainsAny(b, "-/_.,:")
	})
}

// pluralOf reports whether terms holds an identifier of the question in
// the plural: "TMY3s" for "tmy3". Stemming leaves identifiers as written.
func pluralOf(terms map[string]bool, id string) bool {
	return hasDigit(id) && terms[id+"s"]
}

// minSharedPrefix is the shortest common beginning that makes two stems
// one family: long enough that "religi" joins "religion" and "religious"
// while "cat" and "catalogue" stay apart.
const minSharedPrefix = 5

// synonyms are the everyday verbs of a question with the words documents
// use for them, as sets of words that stand for one another.
var synonyms = func() map[string][]string {
	groups := [][]string{
		{"get", "obtain", "acquire", "receive"},
		{"find", "identify", "determine", "locate"},
		{"ask", "contact", "consult", "call"},
		{"toss", "dump", "discard", "dispose"},
		{"need", "require"},
		{"buy", "purchase"},
		{"show", "depict", "represent"},
		{"allow", "permit"},
		{"start", "begin"},
		{"end", "finish"},
		{"build", "construct"},
		{"tear", "demolish"},
		{"job", "project"},
		{"drop", "decrease", "decline"},
		{"pick", "select", "choose"},
		{"haul", "transport"},
		{"hauler", "transporter"},
		{"keep", "maintain", "retain"},
		{"jobsite", "worksite", "site"},
		{"cut", "reduce", "lower", "minimize"},
		{"range", "band", "span"},
	}
	m := map[string][]string{}
	for _, g := range groups {
		var terms []string
		for _, w := range g {
			terms = append(terms, analysis.Terms(w)...)
		}
		for _, t := range terms {
			for _, o := range terms {
				if o != t {
					m[t] = append(m[t], o)
				}
			}
		}
	}
	return m
}()

// versionAsked reports whether toks[i] is "Version", or its number, in a
// version the question names as "v4" (see query: the question writes
// versions so).
func versionAsked(q question, toks []analysis.Token, i int) bool {
	switch {
	case toks[i].Text == "version" && i+1 < len(toks):
		return q.has["v"+toks[i+1].Text]
	case i > 0 && toks[i-1].Text == "version":
		return q.has["v"+toks[i].Text]
	}
	return false
}

// holdsSynonym reports whether terms hold a word that stands for term.
func holdsSynonym(terms map[string]bool, term string) bool {
	return slices.ContainsFunc(synonyms[term], func(s string) bool { return terms[s] })
}

// Acronyms a unit spells out are from two to six letters long.
const (
	minAcronym = 2
	maxAcronym = 6
)

// spelledOut reports whether the tokens of text spell the acronym out as
// the initials of capitalised words in a row — "Environmental Protection
// Agency" for "epa", "System Advisor Model" for "sam" — with function words
// between them skipped ("Office of Enforcement").
func spelledOut(acronym, text string, toks []analysis.Token) bool {
	if len(acronym) < minAcronym || len(acronym) > maxAcronym || strings.IndexFunc(acronym, func(r rune) bool { return r < 'a' || r > 'z' }) >= 0 {
		return false
	}
	for i := range toks {
		k := 0
		for j := i; j < len(toks) && k < len(acronym); j++ {
			t := toks[j]
			if t.Kind != analysis.Word {
				break
			}
			if t.Text[0] == acronym[k] && unicode.IsUpper(rune(text[t.Start])) {
				k++
				continue
			}
			if k == 0 || !analysis.IsStopword(t.Text) {
				break
			}
		}
		if k == len(acronym) {
			return true
		}
	}
	return false
}

// expansionAsks are the terms that ask for an abbreviation to be spelled
// out (see guard.Expectation.Expands).
var expansionAsks = analysis.TermSet("stand stands short full name form spell spelled out acronym abbreviation abbreviates")

// expansionCredit reports whether a term of a question that asks what an
// abbreviation stands for is one that asks it, and text spells one of the
// question's words out.
func expansionCredit(q question, text string, toks []analysis.Token, t qterm) bool {
	return len(q.expect.Expands) > 0 && expansionAsks[t.term] &&
		slices.ContainsFunc(q.expect.Expands, func(w string) bool { return spelledOut(w, text, toks) })
}

// keepExpansions keeps, for a question that asks what an abbreviation
// stands for (guard.Expectation.Expands), the units that spell one of its
// words out, when any does: "what does neshap stand for" is answered by
// "… the National Emission Standard for Hazardous Air Pollutants (NESHAP)
// for asbestos has to be met", not by "The asbestos NESHAP is a work place
// standard", which names it more often. When none does, all stay: what
// the passages say of it may still answer.
func keepExpansions(q question, cands []candidate) []candidate {
	if len(q.expect.Expands) == 0 {
		return cands
	}
	spells := func(c candidate) bool {
		toks := analysis.Tokens(c.text)
		return slices.ContainsFunc(q.expect.Expands, func(w string) bool { return spelledOut(w, c.text, toks) || glossedBefore(w, c.text) })
	}
	if !slices.ContainsFunc(cands, spells) {
		return cands
	}
	return slices.DeleteFunc(cands, func(c candidate) bool { return !spells(c) })
}

// glossedBefore reports whether text writes the words an acronym stands for
// right before it in brackets, capitalised or not: "a transportation
// improvement program (TIP)", "the plane-of-array (POA) irradiance", "the
// PV Performance Modeling Collaborative (PVPMC)". Each word gives its
// first letter (a word in capitals may give all of them), and a function
// word may give none.
func glossedBefore(acronym, text string) bool {
	lower := strings.ToLower(text)
	at := strings.Index(lower, "("+acronym+")")
	if at < 0 || len(lower) != len(text) {
		return false // (a letter whose lower case is of another length moves every offset)
	}
	words := strings.FieldsFunc(text[:at], func(r rune) bool { return unicode.IsSpace(r) || r == '-' })
	return initialsEnd(acronym, words[max(0, len(words)-2*len(acronym)):])
}

// initialsEnd reports whether the last words spell acronym by their
// initials (see glossedBefore).
func initialsEnd(acronym string, words []string) bool {
	if acronym == "" {
		return true
	}
	if len(words) == 0 {
		return false
	}
	w := words[len(words)-1]
	rest := words[:len(words)-1]
	if analysis.IsStopword(strings.ToLower(w)) && initialsEnd(acronym, rest) {
		return true
	}
	if w != "" && unicode.ToLower(rune(w[0])) == rune(acronym[len(acronym)-1]) && initialsEnd(acronym[:len(acronym)-1], rest) {
		return true
	}
	letters := strings.ToLower(w) // a word in capitals ("PV") gives all its letters
	return len(w) > 1 && w == strings.ToUpper(w) && strings.HasSuffix(acronym, letters) && initialsEnd(strings.TrimSuffix(acronym, letters), rest)
}

// sharesStem reports whether terms holds a word of the same family as stem.
func sharesStem(terms map[string]bool, stem string) bool {
	if len(stem) < minSharedPrefix {
		return false
	}
	for t := range terms {
		if len(t) >= minSharedPrefix && t[:minSharedPrefix] == stem[:minSharedPrefix] && commonPrefix(t, stem) >= min(len(t), len(stem))-2 {
			return true
		}
	}
	return false
}

// answersOtherOption reports whether the sentence after c speaks of the
// option of the question's choice that c does not: c holds words of one
// side of its "or" only, the next sentence of the other side.
func answersOtherOption(q question, c candidate) bool {
	if len(q.options[0]) == 0 || c.next == "" {
		return false
	}
	holds := func(terms map[string]bool, option []string) bool {
		return slices.ContainsFunc(option, func(t string) bool { return terms[t] || sharesStem(terms, t) })
	}
	next := analysis.TermSet(c.next)
	a, b := holds(c.terms, q.options[0]), holds(c.terms, q.options[1])
	return a != b && (a && holds(next, q.options[1]) || b && holds(next, q.options[0]))
}

func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// denies reports whether a sentence denies or excepts anything (see
// guard.Denies): "not", "never", "no", "without", "unless", ….
func denies(toks []analysis.Token) bool {
	return slices.ContainsFunc(toks, func(t analysis.Token) bool { return guard.Denies(t.Text) })
}

// b2i is 1 for true and 0 for false.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
