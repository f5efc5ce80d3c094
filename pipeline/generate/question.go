package generate

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/cewhq/cew/pipeline/guard"
	"github.com/cewhq/cew/store/analysis"
)

// answerType is what kind of phrase the question asks for.
type answerType uint8

const (
	anyAnswer answerType = iota
	numberAnswer
	dateAnswer
	personAnswer
	placeAnswer
)

// qterm is one content term of the question.
type qterm struct {
	term string
	// exact marks numbers and identifiers, which are matched as written
	// (or by their parts).
	exact bool
	// code marks identifiers (model, drawing and document numbers): a unit
	// without one cannot answer. A number the question states ("for the
	// 4 kW system") only describes what is asked about, and a unit may
	// answer without repeating it.
	code bool
	// frame marks words that shape a question rather than name its subject
	// ("name", "value", "type"): answers seldom repeat them.
	frame bool
	// form marks the words that ask for a written form the question
	// wants ("link", "phone no.", "web address"; see
	// guard.Expectation.FormWords): a unit holding a value of that form
	// says them.
	form bool
	// lettered is a name made of a word and a letter ("Ref-A"), matched
	// only as such: the letter alone is often a stopword.
	lettered *regexp.Regexp
	weight   float64
	// unseen marks a term no unit of the passages holds.
	unseen bool
	// bracketed marks a word the question writes in brackets, where it
	// remarks on what it names ("sw5548 gti (the 120v grid tie unit)").
	bracketed bool
	// setting marks a verb that says how a model is set up for the number
	// after it ("jumpered for 208", "wired to 240"): the row named for
	// that number says the number, not the verb.
	setting bool
	// acted marks a verb right after the asker ("if i flip the array
	// type to roof mount", "we pulled the old tubes"): what the asker
	// does, which documents that describe the system do not say.
	acted bool
}

// question is what the extractive generator needs to know about a question.
type question struct {
	terms []qterm
	// has is the set of the terms' terms, and index maps each to its
	// position in terms.
	has   map[string]bool
	index map[string]int
	// spelled are runs of terms whose initials spell an acronym a
	// passage may write instead ("ground coverage ratio" for GCR).
	spelled []spelledRun
	// words holds the lower-cased surface of every question token, to tell
	// new capitalised names in a sentence from ones the question repeats.
	words map[string]bool
	// spaced holds the model numbers the question may write with their
	// letters spaced off ("pv110" of "kyocera pv 110", see
	// guard.SpacedModels), each with the terms of its two parts: the
	// question analyser leaves "pv 110" spaced when the index writes "pv"
	// as a word more often, and the row that writes the number whole
	// names both parts.
	spaced map[string][2]string
	// joined holds two or three neighbouring words of the question written
	// as one ("delta t" → "deltat"), to match a column name spelled so.
	joined map[string]bool
	// times counts how often the question says each term.
	times map[string]int
	// dateAsks counts the question's asks for a date: each "when", "what
	// year" or "which date".
	dateAsks int
	// numbers are the question's own numbers, which do not answer it.
	numbers map[string]bool
	want    answerType
	// asksChange is set when the question asks how much a quantity
	// changes or differs ("how much more energy", "gain vs monofacial"):
	// a value stated as a change may answer it (see change).
	asksChange bool
	// mustNumber is set when an answer without a number cannot be right
	// (technical values, "how many", "how much").
	mustNumber bool
	// counts is set when the question itself says so ("how many", "how
	// much"), not the category: a sentence stating no number is no answer.
	counts bool
	// unit is a unit of measure the question names, such as "mm" or "%".
	unit    string
	complex bool
	// asks says, term by term, in which of the question's two asks a
	// term is said — guard.AskFirst, guard.AskFurther or both — when
	// the question joins a further ask on to the first
	// (guard.FurtherAsk); nil when it asks one thing. A unit that answers
	// one ask alone scores low against the whole question (see
	// answersAsk).
	asks []guard.Ask
	// defines is set for a question after a meaning ("what does fd mean",
	// "swppp stands for", "bvmpo definition").
	defines bool
	// polar is set for a question that asks yes or no ("does the 2-axis
	// model account for shading"): the answer is the sentence that states
	// or denies what it asks, the one holding most of its words.
	polar bool
	// everyRow is set for a question after each row a value picks out
	// ("which scenarios are at gcr 0.4", "list them all"): each table row
	// holding the value answers (see sameValueRows).
	everyRow bool
	// expect is what the question analysis says the answer must hold.
	expect guard.Expectation
	// qualifierTerms lists, for each of expect.Qualifiers, the indexes of
	// the terms that spell it; isQualifier marks those terms.
	qualifierTerms [][]int
	isQualifier    map[int]bool
	// described holds the question's numbers of another dimension than the
	// one asked for ("4" in "the soiling loss of the 4 kW system"): they
	// describe what is asked about and weigh little.
	described map[string]bool
	// absent holds the terms of things the question says there are none of
	// ("with no standoff", "without inverter"): a sentence that counts them
	// ("4 inch standoffs") is about another case.
	absent map[string]bool
	// excluded holds the terms of what the question sets aside ("diehl
	// platinum 100 cs-a (not the cs-a he)"): they are not asked about, and
	// a row named by one is the other entry.
	excluded map[string]bool
	// related are the terms of the quantities a coefficient the question
	// asks for relates ("the coefficient relating vmp to effective
	// irradiance"): the row's Vmpo is not that coefficient.
	related map[string]bool
	// subject holds the terms of what a "what is X" question asks to be
	// told about ("what is a brownfield" → "brownfield"): a sentence that
	// opens by saying what X is defines it.
	subject []string
	// citesList is set for a question about a work a document's reference
	// list cites ("which version of the cec pv calculator does the ref
	// list cite", "the manual cites the pvform user's manual - report
	// no."): the list's entries answer it, named by number or not.
	citesList bool
	// entryNumber is set for such a question that asks for a number
	// ("report # of the tmy2 users manual"): an entry without a report
	// number does not answer it.
	entryNumber bool
	// pages is set for a question that asks for a work's pages ("page
	// numbers in the proceedings"): a passage that gives none, entry or
	// sentence, does not say them (see statesPages).
	pages bool
	// negated is set for a question about what is not so ("when is an EIS
	// not needed"): a sentence that denies nothing answers the opposite.
	negated bool
	// options are the two things a question offers to choose between
	// ("clockwise or counterclockwise", "dc energy or ac energy"): the
	// terms each side of "or" holds and the other does not.
	options [2][]string
	// makers are the words right before a model number that name its
	// maker or series ("delta si" in "delta si 3000-us weight"): a row
	// holding the number but none of them is another maker's model.
	makers []string
	// series is the word right before a short model number with a dot or
	// a hyphen ("primo" of "fronius primo 5.0-1"): other series number
	// their models alike ("IG Plus 5.0-1"), so a row must name it.
	series string
	// cases are the two sibling cases a question sets side by side, each
	// with words of its own (see caseClauses); a unit that pairs one with
	// the other's words answers neither.
	cases []caseClause
	// opposed are the question's words that have opposites, with what they
	// qualify ("least important"): a sentence that says the opposite of
	// that ("the most important") answers another question.
	opposed []guard.OppositeCue
	// versus is set for a question that sets two cases side by side
	// ("glass/mc-si vs glass/c-si"): each is a part of the answer,
	// however little of the question's weight its words carry.
	versus bool
	// contrasted are the words either side of "vs" ("M1 vs M3"): each
	// names one of the cases, which need not hold the other's.
	contrasted map[string]bool
	// sides are the terms said before and after the first "vs" of such a
	// question: "es-180-rl-t isco, the 2008 measured row vs the 2008 (E)
	// one" names the (E) row on its second side only.
	sides [2]map[string]bool
	// stated holds the question's quantities with a unit ("1000 vdc",
	// "240v"): a spreadsheet row named for another quantity of that unit
	// is another variant (see nameRow).
	stated []guard.Value
	// asideValues are the values of what the question sets aside: "(not
	// the ~19% in table 3)" — a passage that states only those states
	// what the question does not ask for.
	asideValues []guard.Value
	// publication is set for a question that asks for a paper, report,
	// journal or publication (see guard.Expectation.Source): only a unit
	// citing an entry of a reference list names one.
	publication bool
	// compares is set for a question that offers a comparison to choose
	// ("do large generators get more or fewer reqs"): only a sentence
	// that compares ("subject to more regulatory requirements than")
	// answers it.
	compares bool
	// lacks are the terms of what the question asks a row not to have
	// ("which loss category has no related v1 derate": relat, v1, derat):
	// a table row whose cell in the column they name is empty answers it
	// (see lackedColumn).
	lacks []string
	// namesDate is set for a question that asks for a date by naming it,
	// without a question word ("nepa year"): a year answers for the word.
	namesDate bool
	// why is set for a question that asks why ("why'd they pull the v1
	// correction"): a sentence that gives a reason answers it.
	why bool
	// work is set for a question that names a kind of work ("michalsky
	// sun position paper", "the deline shading testbed report"): an
	// entry of a reference list whose first author it names is the work
	// it asks about (see namedEntries).
	work bool
	// imprint is set for a question about a document itself (see
	// guard.Expectation.Imprint and readImprint); imprintAt marks the
	// chunks that are its title and back pages.
	imprint   bool
	imprintAt map[int]bool
	// thing holds the indexes of the terms of X in a question that opens
	// "what X" or "which X" ("what time zone are the timestamps in").
	thing []int
	// bounds is set for a question after both ends of a range it does not
	// name by its columns ("ac operating voltage window, min / max vac"):
	// one number is not both ends.
	bounds bool
	// byline is set for a question about a document that asks who wrote
	// it: the names under its title answer, and nothing else does.
	byline bool
	// order is the term of each of the question's tokens, in order.
	order []string
	// refs are the numbers of the references the question names ("ref
	// 17"): their entries may answer it (see namedEntries).
	refs []string
	// bare are the whole numbers the question writes without a unit
	// ("solectria pvi85kw on 277"): beside a model whose rows are named
	// for their voltages (240V, 480V), a number of as many digits names
	// the voltage variant asked for (see bareVoltage).
	bare []string
	// bins are the bare numbers the question puts in brackets after a
	// model name, as databases name a model's power bin or variant
	// ("solfocus sf-1100s (345)"): a row named for another is another
	// model (see nameRow).
	bins []string
}

func parseQuestion(text, category, complexity string, expect guard.Expectation) question {
	q := question{has: map[string]bool{}, words: map[string]bool{}, numbers: map[string]bool{}, complex: complexity == "complex",
		expect: expect, described: map[string]bool{}, isQualifier: map[int]bool{}}
	toks := analysis.Tokens(text)
	q.joined = joinedWords(toks)
	for _, i := range guard.SpacedModels(text, toks) {
		if q.spaced == nil {
			q.spaced = map[string][2]string{}
		}
		q.spaced[toks[i].Text+toks[i+1].Text] = [2]string{toks[i].Term, toks[i+1].Text}
	}
	q.absent = absentTerms(toks)
	var aside map[int]bool
	q.excluded, aside = excludedTerms(text, toks)
	q.related = unsaidTerms(toks, guard.Related(toks), false)
	q.asideValues = asideValues(text, toks, aside)
	seen := q.has
	q.times = map[string]int{}
	for i, t := range toks {
		if t.Text == "when" || i > 0 && (t.Text == "year" || t.Text == "yr" || t.Text == "date") && (toks[i-1].Text == "what" || toks[i-1].Text == "which") {
			q.dateAsks++
		}
		q.words[t.Text] = true
		q.times[t.Term]++
		q.order = append(q.order, t.Term)
		if aside[i] || guard.CountOfAsked(toks, i) {
			// "which 2 irradiance components": how many is said, not
			// a word a passage must hold.
			continue
		}
		if name, re := markName(text, toks, i); re != nil {
			if !seen[name] {
				seen[name] = true
				q.terms = append(q.terms, qterm{term: name, code: true, lettered: re})
			}
			continue
		}
		if name, re := letteredName(text, toks, i); re != nil {
			if !seen[name] {
				seen[name] = true
				q.terms = append(q.terms, qterm{term: name, exact: true, lettered: re})
			}
			continue
		}
		if i > 0 && lettersName(text, toks, i-1) {
			continue
		}
		switch t.Kind {
		case analysis.Word:
			// A unit right after a number belongs to that number ("the
			// 4 kW system"); only a unit of its own names the unit of the
			// answer ("depth in mm").
			if unitWords[t.Text] && q.unit == "" && (i == 0 || toks[i-1].Kind != analysis.Number) {
				q.unit = t.Text
			}
			if analysis.IsStopword(t.Text) || whWords[t.Text] || seen[t.Term] || i > 0 && toks[i-1].Text == "how" && howForm[t.Text] ||
				pronounOne(text, toks, i) {
				continue
			}
			seen[t.Term] = true
			q.terms = append(q.terms, qterm{term: t.Term, frame: frameWords[t.Text] || sourceVerb(toks, i), form: slices.Contains(expect.FormWords, t.Text),
				bracketed: inBrackets(text, t.Start), setting: setsFor(toks, i), acted: actedBy(text, toks, i)})
		case analysis.Number, analysis.Identifier:
			if head := guard.CaseLike(text[t.Start:t.End]); head != "" {
				// "an old v1-style derate" asks about V1's.
				if term := strings.ToLower(head); !seen[term] {
					seen[term] = true
					q.terms = append(q.terms, qterm{term: term, exact: true})
				}
				continue
			}
			if seen[t.Text] {
				continue
			}
			seen[t.Text] = true
			q.numbers[t.Text] = true
			q.terms = append(q.terms, qterm{term: t.Text, exact: true, code: guard.IsCode(text, t)})
			if t.Kind == analysis.Number && strings.HasSuffix(t.Text, "%") && q.unit == "" {
				q.unit = "%"
			}
		case analysis.Symbol:
			if q.unit == "" {
				q.unit = t.Text
			}
		}
	}
	if slices.ContainsFunc(q.terms, func(t qterm) bool { return t.code }) {
		// "the solis-3.6k-2g-us (208V) row in the cec list - what vac
		// does it actually carry": a model's record answers, which says
		// none of the words for the record, for holding a value or for
		// how truly it holds it.
		remark := remarkTerms(text, toks)
		for i := range q.terms {
			q.terms[i].frame = q.terms[i].frame || recordFrame[q.terms[i].term] || remark[q.terms[i].term]
		}
	}
	supposedAt := guard.Supposed(text, toks)
	if supposed := unsaidTerms(toks, supposedAt, true); len(supposed) > 0 {
		// "… paco and night tare? i think it drops below 5 kw at 208":
		// what the asker supposes shapes the question; the answer need
		// not say it.
		for i := range q.terms {
			q.terms[i].frame = q.terms[i].frame || supposed[q.terms[i].term]
		}
	}
	q.index = make(map[string]int, len(q.terms))
	for i, t := range q.terms {
		q.index[t.term] = i
	}
	q.spelled = spelledRuns(q.terms)
	for _, qual := range expect.Qualifiers {
		var idx []int
		for _, t := range analysis.Tokens(qual.Text) {
			for _, key := range []string{t.Term, t.Text} {
				if i, ok := q.index[key]; ok && !slices.Contains(idx, i) {
					idx = append(idx, i)
					q.isQualifier[i] = true
				}
			}
		}
		q.qualifierTerms = append(q.qualifierTerms, idx)
	}
	if len(expect.Dims) > 0 {
		for _, v := range expect.Described {
			q.described[strings.ToLower(v.Num)] = true
			if v.Dim != guard.DimPercent {
				// "for the 4 kW system": the unit describes as its
				// number does.
				for _, u := range analysis.Terms(v.Unit) {
					q.described[u] = true
				}
			}
		}
	}
	q.defines = category == "definition" || q.words["mean"] || q.words["means"] || q.words["stand"] ||
		q.words["stands"] || q.words["definition"] || q.words["define"] || q.words["meaning"] || q.words["represent"] ||
		q.words["represents"] || q.words["legend"]
	q.want, q.mustNumber = expectedAnswer(toks)
	q.namesDate = q.want == dateAnswer && !slices.ContainsFunc(toks, func(t analysis.Token) bool { return whWords[t.Text] })
	q.asksChange = slices.ContainsFunc(toks, func(t analysis.Token) bool { return changeAsked[t.Term] || changeAsked[t.Text] })
	q.counts = q.mustNumber
	q.subject = askedSubject(toks)
	q.thing = thingTerms(q, toks)
	q.bounds = asksBounds(q.words)
	q.versus = q.words["vs"] || q.words["versus"]
	joined := -1 // the "and" that sets two lines of a table side by side
	if !q.versus {
		// Two lines asked side by side are two parts of the answer.
		joined = linesJoined(toks)
		q.versus = joined >= 0
		q.complex = q.complex || q.versus
	}
	if q.versus {
		// "growatt 10000tl-us vs growatt 11000tl-us idcmax, which one
		// takes more dc current": each side's value answers; which is
		// more is for the asker to read off them.
		compared := unsaidTerms(toks, comparedClause(text, toks), true)
		for i := range q.terms {
			q.terms[i].frame = q.terms[i].frame || compared[q.terms[i].term]
		}
	}
	if codesJoined(text, toks) {
		// "the pvi-7600tl and pvi-6600tl … what idcmax does each one
		// list": each model's row is a part of the answer.
		q.complex = true
	}
	if q.versus {
		q.sides = [2]map[string]bool{{}, {}}
		side := 0
		q.contrasted = map[string]bool{}
		for i, t := range toks {
			if t.Text == "vs" || t.Text == "versus" || i == joined {
				side = 1
				if a, b := sideWord(text, toks, i, -1), sideWord(text, toks, i, 1); a >= 0 && b >= 0 {
					q.contrasted[toks[a].Term], q.contrasted[toks[b].Term] = true, true
				}
				continue
			}
			q.sides[side][t.Term] = true
			if bracketedLetter(text, t) {
				q.sides[side]["("+t.Text+")"] = true // the mark's term, see markName
			}
		}
		for i, t := range q.terms {
			if t.lettered != nil || caseLabel(q, t.term) {
				// Each side names a row the other's words need not be
				// in: "the measured row vs the (E) one" asks for a row
				// without the mark too, "tl3 idcmax - M1 vs M3" for an
				// M3 row without M1.
				q.terms[i].code = false
			}
		}
	}
	for i, t := range toks {
		if supposedAt[i] {
			// "… but that doesn't match what i remember": the asker's
			// doubt, not a question about what is not so.
			continue
		}
		if i > 0 && toks[i-1].Text == "or" && t.Text == "not" {
			// "isotropic or not", "whether or not": an alternative,
			// not a question about what is not so.
			continue
		}
		q.negated = q.negated || !aside[i] && guard.NegatesVerb(t.Text)
	}
	kept := guard.WithoutAside(text)
	q.opposed = guard.OppositeCues(kept)
	q.makers = makerWords(text, toks, q.versus)
	q.series = seriesWord(text, toks)
	q.options = choiceOptions(toks, aside)
	if expect.Pair {
		// "torque tube diameter and max tracker rotation angle": two
		// values, each a part of the answer.
		q.complex = true
	}
	if q.cases = caseClauses(text, toks, expect.Qualifiers); q.cases != nil {
		// Each case is a part of the answer.
		q.complex = true
	}
	unitless := map[int]bool{}
	for _, v := range guard.Values(kept) {
		if v.Unit != "" {
			q.stated = append(q.stated, v)
		} else if v.Text == v.Num {
			unitless[v.Start] = true
		}
	}
	for _, t := range analysis.Tokens(kept) {
		if t.Kind == analysis.Number && unitless[t.Start] && strings.Trim(t.Text, "0123456789") == "" {
			q.bare = append(q.bare, t.Text)
		}
	}
	q.bins = bracketedNumbers(kept)
	q.everyRow = asksEveryRow(toks)
	if category == "technical_value" {
		q.want, q.mustNumber = numberAnswer, true
	}
	if expect.Thing {
		q.want, q.mustNumber, q.counts = anyAnswer, false, false
	}
	q.refs = NamedReferences(text)
	q.compares = comparedChoice.MatchString(text)
	q.lacks = lackedTerms(toks, aside)
	q.why = slices.ContainsFunc(toks, func(t analysis.Token) bool {
		return t.Kind == analysis.Word && (t.Text == "why" || strings.HasPrefix(t.Text, "why'") || strings.HasPrefix(t.Text, "why’"))
	})
	if q.work = slices.ContainsFunc(workWords, func(w string) bool { return q.words[w] }) && !reportVerb.MatchString(text); q.work {
		// "michalsky sun position paper - what yr was it published": the
		// entry that answers names the work, not its kind or that it was
		// published.
		for i := range q.terms {
			if workTerms[q.terms[i].term] {
				q.terms[i].frame = true
			}
		}
	}
	if expect.Source {
		// "sandia report number for the fuentes paper": the reference
		// list's entry names it, whatever it holds; only a year or an
		// author is a kind of phrase the entry must have.
		if q.want != dateAnswer && q.want != personAnswer {
			q.want = anyAnswer
		}
		q.mustNumber, q.counts = false, false
		q.publication = slices.ContainsFunc(publicationWords, func(w string) bool { return q.words[w] })
		q.citesList = slices.ContainsFunc([]string{"cite", "cites", "cited", "bibliography"}, func(w string) bool { return q.words[w] }) ||
			(q.words["reference"] || q.words["references"] || q.words["ref"] || q.words["refs"]) && q.words["list"]
		q.entryNumber = q.words["number"] || q.words["no"] || q.words["num"] || q.words["nr"] || strings.Contains(text, "#")
		q.pages = q.words["pages"] || q.words["pp"] || q.words["page"] && (q.words["numbers"] || q.words["range"])
		if q.pages {
			// "page numbers": the numbers asked are pages, not a
			// report's number.
			q.entryNumber = false
		}
	}
	if q.polar = expect.Polar; q.polar {
		q.want, q.mustNumber, q.counts = anyAnswer, false, false
	}
	if q.words["mean"] || q.words["means"] || q.words["meaning"] || q.words["stand"] || q.words["stands"] {
		// "data source flag 3 means what": a meaning is said in words,
		// whatever the classifier thought of the number in it.
		q.want, q.mustNumber, q.counts = anyAnswer, false, false
	}
	if q.words["legend"] {
		// "ixxo in the module db legend - current at what voltage": a
		// legend says in words what its headings are.
		q.want, q.mustNumber, q.counts = anyAnswer, false, false
	}
	q.asks = termAsks(text, toks, q.terms)
	return q
}

// termAsks returns in which of the question's asks each of its terms is
// said, or nil when the question asks one thing.
func termAsks(text string, toks []analysis.Token, terms []qterm) []guard.Ask {
	k := guard.FurtherAsk(text, toks)
	if k < 0 {
		return nil
	}
	index := map[string]int{}
	for i, t := range terms {
		index[t.term] = i
	}
	asks := make([]guard.Ask, len(terms))
	for i, t := range toks {
		ask := guard.AskFirst
		if i > k {
			ask = guard.AskFurther
		}
		for _, key := range []string{t.Term, t.Text} {
			if j, ok := index[key]; ok {
				asks[j] |= ask
			}
		}
	}
	return asks
}

// letteredName returns the name toks[i] opens when it is a word joined by
// a hyphen to a single letter ("Ref-A", "type-b"), with the pattern that
// finds the name in a text however it is spelt there ("Ref-A", "ref a",
// "REF_A"); otherwise re is nil.
func letteredName(text string, toks []analysis.Token, i int) (name string, re *regexp.Regexp) {
	if !lettersName(text, toks, i) {
		return "", nil
	}
	word, letter := toks[i].Text, toks[i+1].Text
	return word + "-" + letter, regexp.MustCompile(`(?i)(^|[^\pL\pN])` + regexp.QuoteMeta(word) + `[-_ ]?` + regexp.QuoteMeta(letter) + `($|[^\pL\pN])`)
}

// markName returns, for a letter in brackets ("the 2008 (E) entry"), the
// mark as written and a pattern that finds it: a table marks rows so
// ("Vintage: 2008 (E)"), and the letter alone is found anywhere
// ("-2.58E-05"). A row without the mark is another row (see qterm.code).
func markName(text string, toks []analysis.Token, i int) (name string, re *regexp.Regexp) {
	t := toks[i]
	if !bracketedLetter(text, t) {
		return "", nil
	}
	return "(" + t.Text + ")", regexp.MustCompile(`(?i)\(` + regexp.QuoteMeta(t.Text) + `\)`)
}

// sideWord is the index of the word that names a side of the "vs" at
// toks[at], looking in direction dir (-1 before it, 1 after it): the
// nearest that is neither a stopword, nor a word for a table's line, nor a
// letter in brackets that marks both sides ("2003 (E) row vs the 2008 (E)
// row" sets 2003 against 2008); -1 when there is none.
func sideWord(text string, toks []analysis.Token, at, dir int) int {
	for i := at + dir; i >= 0 && i < len(toks); i += dir {
		if !analysis.IsStopword(toks[i].Text) && !guard.IsLineWord(toks[i].Term) && !bracketedLetter(text, toks[i]) {
			return i
		}
	}
	return -1
}

// linesJoined returns the index of an "and" that joins two lines of a
// table as "vs" does, each side named by a word for a line: "voco in the
// measured 2008 entry and in the (E) one". It returns -1 when there is
// none.
func linesJoined(toks []analysis.Token) int {
	for i, t := range toks {
		if t.Text != "and" {
			continue
		}
		before, after := false, false
		for j := max(0, i-2); j < i; j++ {
			before = before || guard.IsLineWord(toks[j].Term)
		}
		for j := i + 1; j < min(len(toks), i+6); j++ {
			after = after || guard.IsLineWord(toks[j].Term)
		}
		if before && after {
			return i
		}
	}
	return -1
}

// codesJoined reports whether the question joins two model numbers by
// "and" or "or", perhaps with "the" ("the pvi-7600tl and pvi-6600tl",
// "the pvi-7600tl or the pvi-6600tl"): it asks about each.
func codesJoined(text string, toks []analysis.Token) bool {
	for i := 1; i+1 < len(toks); i++ {
		if toks[i].Text != "and" && toks[i].Text != "or" || !guard.IsCode(text, toks[i-1]) {
			continue
		}
		next := i + 1
		if toks[next].Text == "the" && next+1 < len(toks) {
			next++
		}
		if guard.IsCode(text, toks[next]) {
			return true
		}
	}
	return false
}

// bracketedLetter reports whether t is a letter alone in brackets: "(E)".
func bracketedLetter(text string, t analysis.Token) bool {
	return t.Kind == analysis.Word && utf8.RuneCountInString(t.Text) == 1 && t.Start > 0 && t.End < len(text) &&
		text[t.Start-1] == '(' && text[t.End] == ')'
}

// lettersName reports whether toks[i] is a word of two letters or more
// joined by a hyphen to a one-letter word.
func lettersName(text string, toks []analysis.Token, i int) bool {
	if i+1 >= len(toks) || toks[i].Kind != analysis.Word || toks[i+1].Kind != analysis.Word {
		return false
	}
	return utf8.RuneCountInString(toks[i].Text) >= 2 && utf8.RuneCountInString(toks[i+1].Text) == 1 &&
		text[toks[i].End:toks[i+1].Start] == "-"
}

// pronounOne reports whether toks[i] is "one" or "ones" standing for a
// thing named before ("the 240v one", "the 2014 ones, not …"): no word
// follows it in its clause. "one axis" and "one-axis" are a count.
func pronounOne(text string, toks []analysis.Token, i int) bool {
	if toks[i].Text != "one" && toks[i].Text != "ones" {
		return false
	}
	if i+1 == len(toks) || toks[i+1].Kind != analysis.Word || analysis.IsStopword(toks[i+1].Text) {
		return true
	}
	// "the 208 v one - unique id#": the clause ends after it.
	gap := text[toks[i].End:toks[i+1].Start]
	return strings.ContainsAny(gap, ",;:)") || strings.TrimSpace(gap) != gap && strings.ContainsAny(gap, "-–—")
}

// asksEveryRow reports whether a question asks for every row a value picks
// out: "which" or "what" before a plural ("which loss rows have a 0 %
// default", "what models …"), or "list all", "list them all".
func asksEveryRow(toks []analysis.Token) bool {
	for i, t := range toks {
		switch t.Text {
		case "which", "what":
			for _, n := range toks[i+1 : min(i+3, len(toks))] {
				if n.Kind == analysis.Word && pluralNoun(n.Text) {
					return true
				}
			}
		case "list":
			for _, n := range toks[i+1 : min(i+3, len(toks))] {
				if n.Text == "all" {
					return true
				}
			}
		}
	}
	return false
}

// pluralNoun reports whether a word reads as a plural noun: "scenarios",
// "rows", not "loss", "status" or "is".
func pluralNoun(w string) bool {
	return guard.Plural(w) && !analysis.IsStopword(w)
}

// thingTerms returns the indexes of the terms of X in a question that opens
// "what X" or "which X", X running to the first function word or verb of
// the question ("what time zone are …"); nil when X is a frame word ("what
// type"), a single word, or the question opens otherwise, and when it asks
// for a value: "what percentage increase … for Boulder" is answered by the
// row's cell, which names no percentage.
func thingTerms(q question, toks []analysis.Token) []int {
	if len(toks) < 3 || toks[0].Text != "what" && toks[0].Text != "which" || q.expect.WantsValue() {
		return nil
	}
	var out []int
	for _, t := range toks[1:] {
		if t.Kind != analysis.Word || analysis.IsStopword(t.Text) || thingEnds[t.Text] || len(out) == maxSubjectWords {
			break
		}
		if frameWords[t.Text] {
			return nil
		}
		if i, ok := q.index[t.Term]; ok {
			out = append(out, i)
		}
	}
	if len(out) < minThingWords {
		// "which site", "what yr": one word is too general a thing
		// ("site" for the rows of a table of cities) to ask the answer
		// to name it.
		return nil
	}
	return out
}

// maxCaseLabel is the longest label of a variant ("M1", "tl3") that a
// question may set beside another by "vs".
const maxCaseLabel = 4

// caseLabel reports whether a term either side of "vs" is a short label of
// a variant ("M1 vs M3"). A model number there ("pvi-3600-us vs
// pvi-3600-i-outd-us-f") still names its own row, and is no label.
func caseLabel(q question, term string) bool {
	return q.contrasted[term] && len(term) <= maxCaseLabel && !strings.ContainsAny(term, "-./")
}

// minThingWords is the fewest words of a thing a unit must name.
const minThingWords = 2

// thingEnds are the verbs after which a "what X" question goes on: the
// auxiliaries, and the verbs of saying and requiring ("which law says we
// have to keep msds's on site" asks which law).
var thingEnds = set(`is are was were does do did can could should would will has have
	says say said states state requires require required lists list shows show gives give`)

// maxSubjectWords bounds the words of a "what is X" subject.
const maxSubjectWords = 3

// askedSubject returns the terms of X in a question that opens "what is
// (a|an|the) X" or "what are X", or says "define X" ("how does the epa
// guide define dredged material"), X running to the first function or
// frame word ("what is a brownfield per the epa guide"); nil otherwise, and when
// X is followed by anything but where to look or what it is for ("what is
// the default tilt of a 1-axis tracker" asks about the tracker's tilt).
func askedSubject(toks []analysis.Token) []string {
	i := slices.IndexFunc(toks, func(t analysis.Token) bool { return t.Text == "define" || t.Text == "defines" }) + 1
	if i == 0 && (len(toks) < 3 || toks[0].Text != "what" || toks[1].Text != "is" && toks[1].Text != "are") {
		return nil
	}
	if i == 0 {
		i = 2
	}
	if i < len(toks) && (toks[i].Text == "a" || toks[i].Text == "an" || toks[i].Text == "the") {
		i++
	}
	var subject []string
	for ; i < len(toks) && len(subject) <= maxSubjectWords; i++ {
		t := toks[i]
		if t.Kind != analysis.Word || analysis.IsStopword(t.Text) || frameWords[t.Text] {
			break
		}
		subject = append(subject, t.Term)
	}
	if len(subject) == 0 || len(subject) > maxSubjectWords {
		return nil
	}
	if i < len(toks) && !subjectEnds[toks[i].Text] {
		return nil
	}
	return subject
}

// subjectEnds are the words after which a "what is X" question only says
// where to look ("per the epa guide", "in pvwatts", "according to").
var subjectEnds = set(`per in according from under for`)

// absentTerms returns the terms of the words that follow "no" or "without"
// in a question ("flush roof mount with no standoff").
func absentTerms(toks []analysis.Token) map[string]bool {
	var m map[string]bool
	for i := 0; i+1 < len(toks); i++ {
		if (toks[i].Text == "no" || toks[i].Text == "without") && toks[i+1].Kind == analysis.Word && !analysis.IsStopword(toks[i+1].Text) {
			if m == nil {
				m = map[string]bool{}
			}
			m[toks[i+1].Term] = true
		}
	}
	return m
}

// excludedTerms returns the terms of what the question sets aside (see
// guard.SetAside), not the words that set it aside, that the rest of the
// question does not hold, with the positions of the tokens set aside.
func excludedTerms(text string, toks []analysis.Token) (map[string]bool, map[int]bool) {
	aside := guard.SetAside(text, toks)
	if aside == nil {
		return nil, nil
	}
	kept := map[string]bool{}
	for i, t := range toks {
		if !aside[i] {
			kept[t.Term], kept[t.Text] = true, true
			for _, term := range analysis.Terms(t.Text) {
				// "500xtm … not the 500xt": the 500 of the model asked
				// is not set aside with the other model's parts.
				kept[term] = true
			}
		}
	}
	excluded := map[string]bool{}
	for i, t := range toks {
		if !aside[i] || kept[t.Term] || kept[t.Text] || t.Text == "one" || guard.IsAsideCue(t.Text) {
			continue // "not the 2014 one"
		}
		if v := guard.Values(t.Text); len(v) == 1 && v[0].Unit != "" && kept[v[0].Num] {
			// "pvi60kw-208 (not the 2007 'pvi 60kw 208v')": the model
			// asked holds the 208 of the 208 V set aside with the other
			// listing; the year sets that one apart.
			continue
		}
		for _, term := range analysis.Terms(t.Text) {
			if !kept[term] {
				excluded[term] = true
			}
		}
	}
	return excluded, aside
}

// countsAbsent reports whether a unit gives a number of something the
// question says there is none of: "for 4 inch standoffs" when "no
// standoff" was asked. A unit that says "no standoff" too does not.
func (q *question) countsAbsent(toks []analysis.Token) bool {
	if len(q.absent) == 0 {
		return false
	}
	for i, t := range toks {
		if !q.absent[t.Term] {
			continue
		}
		if i > 0 && (toks[i-1].Text == "no" || toks[i-1].Text == "without") {
			return false
		}
		for j := max(0, i-3); j < i; j++ {
			if toks[j].Kind == analysis.Number {
				return true
			}
		}
	}
	return false
}

// expectedAnswer reads the answer type from the question words: "how
// many", "when", "who", "where", and "what/which" followed within a few
// words by a noun that names a kind of answer ("what year", "which
// country", "what percentage"). A question typed without a question word
// that ends on "year" or "date" asks for one ("nepa year").
func expectedAnswer(toks []analysis.Token) (answerType, bool) {
	asks := false
	for _, t := range toks {
		asks = asks || whWords[t.Text]
	}
	if !asks && len(toks) > 1 {
		if last := toks[len(toks)-1]; last.Text == "year" || last.Text == "date" {
			return dateAnswer, false
		}
	}
	for i, t := range toks {
		switch t.Text {
		case "how":
			if i+1 < len(toks) && howNumber[toks[i+1].Text] {
				return numberAnswer, toks[i+1].Text == "many" || toks[i+1].Text == "much"
			}
		case "when":
			return dateAnswer, false
		case "who", "whom", "whose":
			return personAnswer, false
		case "where":
			return placeAnswer, false
		case "what", "which":
			for _, n := range toks[i+1 : min(i+5, len(toks))] {
				if n.Kind != analysis.Word {
					break
				}
				switch {
				case dateNouns[n.Text]:
					return dateAnswer, false
				case placeNouns[n.Text]:
					return placeAnswer, false
				case personNouns[n.Text]:
					return personAnswer, false
				case numberNouns[n.Text]:
					return numberAnswer, false
				}
				if !analysis.IsStopword(n.Text) && n.Text != "kind" && n.Text != "type" {
					break
				}
			}
		}
	}
	return anyAnswer, false
}

// satisfies reports whether a unit's tokens hold a phrase of the type the
// question asks for, and for numbers whether one carries the question's
// unit.
func (q *question) satisfies(text string, toks []analysis.Token) (ok, unitOK bool) {
	switch q.want {
	case numberAnswer:
		for i, t := range toks {
			if q.numbers[t.Text] || guard.IsReferenceMark(text, t.Start, t.End) {
				continue
			}
			if t.Kind == analysis.Number || t.Kind == analysis.Identifier && startsWithDigit(t.Text) || numberWords[t.Text] ||
				t.Text == "zero" && q.expect.ZeroStates() {
				ok = true
				if q.unit == "" || hasUnit(toks, i, q.unit) {
					return true, true
				}
			}
		}
		return ok, q.unit == ""
	case dateAnswer:
		for i, t := range toks {
			if q.numbers[t.Text] {
				continue
			}
			switch {
			case t.Kind == analysis.Number && isYear(t.Text),
				t.Kind == analysis.Identifier && (isDecade(t.Text) || isOrdinal(t.Text) && followedBy(toks, i, "century", "centuries", "millennium")),
				eraWords[t.Text], monthNames[t.Text] && capitalised(text, t):
				return true, true
			}
		}
	case personAnswer, placeAnswer:
		for i, t := range toks {
			if i == 0 || t.Kind != analysis.Word || q.words[t.Text] || analysis.IsStopword(t.Text) || monthNames[t.Text] {
				continue
			}
			if capitalised(text, t) && !opensSentence(text, t) || bodyNouns[t.Text] {
				return true, true
			}
		}
	default:
		return true, true
	}
	return false, false
}

// hasUnit reports whether the number token at i carries unit, glued
// ("800mm") or as the next token ("800 mm").
func hasUnit(toks []analysis.Token, i int, unit string) bool {
	t := toks[i].Text
	if strings.HasSuffix(t, unit) && t != unit {
		return true
	}
	return i+1 < len(toks) && (toks[i+1].Text == unit || unitAliases[toks[i+1].Text] == unit || unitAliases[unit] == toks[i+1].Text)
}

func followedBy(toks []analysis.Token, i int, words ...string) bool {
	for _, n := range toks[i+1 : min(i+3, len(toks))] {
		for _, w := range words {
			if n.Text == w {
				return true
			}
		}
	}
	return false
}

func capitalised(text string, t analysis.Token) bool {
	r, _ := utf8.DecodeRuneInString(text[t.Start:])
	return unicode.IsUpper(r)
}

// opensSentence reports whether t is the first word of a sentence or list
// item in text ("… heater fueled with used oil? If so, …"): its capital
// names nothing.
func opensSentence(text string, t analysis.Token) bool {
	before := strings.TrimRight(text[:t.Start], " \t\n\"'“‘(")
	last, _ := utf8.DecodeLastRuneInString(before)
	return before == "" || strings.ContainsRune(".?!:■▪•", last)
}

// startsWithDigit reports whether s starts with a digit, after a sign
// ("-0.5%/°c" is a number with its unit).
func startsWithDigit(s string) bool {
	s = strings.TrimLeft(s, "-+±")
	return s != "" && s[0] >= '0' && s[0] <= '9'
}

func isYear(s string) bool {
	if len(s) != 4 && len(s) != 3 {
		return false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n >= 500 && n <= 2100
}

func isDecade(s string) bool { return len(s) == 5 && strings.HasSuffix(s, "s") && isYear(s[:4]) }

func isOrdinal(s string) bool {
	for _, suf := range []string{"st", "nd", "rd", "th"} {
		if strings.HasSuffix(s, suf) && len(s) > len(suf) && startsWithDigit(s) {
			return true
		}
	}
	return false
}

func set(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// setsFor reports whether toks[i] is followed by "for", "to", "at" or
// "on" and a number: "jumpered for 208", "wired to 240v".
func setsFor(toks []analysis.Token, i int) bool {
	return i+2 < len(toks) && settingPrepositions[toks[i+1].Text] && (toks[i+2].Kind == analysis.Number || toks[i+2].Kind == analysis.Identifier && startsWithDigit(toks[i+2].Text))
}

// actedBy reports whether toks[i] follows the asker as a word of its own
// ("if i flip", "we count"), not as the rest of a name ("i-power").
func actedBy(text string, toks []analysis.Token, i int) bool {
	return i > 0 && askers[toks[i-1].Text] && strings.TrimSpace(text[toks[i-1].End:toks[i].Start]) == "" && toks[i].Start > toks[i-1].End
}

// askers are the words by which a question speaks of who asks.
var askers = set(`i we`)

// settingPrepositions join a setting to its number.
var settingPrepositions = set(`for to at on`)

// remarkTerms returns the terms of the remarks a question makes after
// asking ("sb7700tl-us-22-208v nameplate ac in the cec csv, bet its not
// actually 7700", "…: tamb low / high. those look like deg F to me"): a
// later clause that opens with a word of doubt or belief and asks
// nothing. The row that answers does not say them.
func remarkTerms(text string, toks []analysis.Token) map[string]bool {
	out := map[string]bool{}
	start := 0
	for i := 1; i <= len(toks); i++ {
		if i < len(toks) && !strings.ContainsAny(text[toks[i-1].End:toks[i].Start], ",.;:(—–") {
			continue
		}
		clause := toks[start:i]
		if start > 0 && remarkOpeners[clause[0].Text] && !slices.ContainsFunc(clause, func(t analysis.Token) bool { return whWords[t.Text] }) {
			for _, t := range clause {
				out[t.Term], out[t.Text] = true, true
			}
		}
		start = i
	}
	return out
}

// unsaidTerms returns the terms and texts of the words at the positions
// given; with unsaid, only those the rest of the question does not say.
func unsaidTerms(toks []analysis.Token, at map[int]bool, unsaid bool) map[string]bool {
	if len(at) == 0 {
		return nil
	}
	said := map[string]bool{}
	for i, t := range toks {
		if unsaid && !at[i] {
			said[t.Term], said[t.Text] = true, true
		}
	}
	out := map[string]bool{}
	for i, t := range toks {
		if at[i] && !said[t.Term] && !said[t.Text] {
			out[t.Term], out[strings.ToLower(t.Text)] = true, true
		}
	}
	return out
}

// comparedClause returns the positions of a closing clause that asks which
// of the things set side by side has more ("…, which one takes more dc
// current", "— which is higher"): a clause after a comma, dash or question
// mark that opens with "which" and holds a comparative.
func comparedClause(text string, toks []analysis.Token) map[int]bool {
	for i := 1; i < len(toks); i++ {
		gap := text[toks[i-1].End:toks[i].Start]
		if toks[i].Text != "which" || !strings.ContainsAny(gap, ",;?-—–") {
			continue
		}
		end := i + 1
		for end < len(toks) && !strings.ContainsAny(text[toks[end-1].End:toks[end].Start], ",;?") {
			end++
		}
		if !slices.ContainsFunc(toks[i:end], func(t analysis.Token) bool { return moreWords[t.Text] }) {
			continue
		}
		at := map[int]bool{}
		for j := i; j < end; j++ {
			at[j] = true
		}
		return at
	}
	return nil
}

// moreWords say which of two has more.
var moreWords = set(`more less higher lower bigger smaller larger greater better worse`)

// remarkOpeners open a remark of doubt or belief.
var remarkOpeners = set(`bet those these seems seem looks probably pretty guess suspect think hope hopefully sanity`)

// holdVerbWords are the verbs that say what a document holds or gives.
const holdVerbWords = `carry carries have has hold holds show shows say says list lists give gives state states report reports
	call calls`

// sourceVerb reports whether toks[i] is a verb that says what a document
// holds, right after the document: "what vac does the cec list carry",
// "which uid does the sandia sheet show". The row answering does not say
// it.
func sourceVerb(toks []analysis.Token, i int) bool {
	return i > 0 && holdVerbs[toks[i].Text] && sourceNouns[toks[i-1].Text]
}

var (
	// holdVerbs say what a document holds or gives.
	holdVerbs = set(holdVerbWords)
	// sourceNouns are documents and the parts of them that hold values.
	sourceNouns = set(`list sheet spreadsheet table tbl db database csv library manual guide note doc document row entry
		record file report legend tab`)
	// recordFrame are the words (as terms) of a question about a model's
	// record that its row does not say.
	recordFrame = analysis.TermSet(`row rows entry entries record records listing listings line actually really exactly
		specifically precisely twice pls please thanks thx ` + holdVerbWords)
	whWords = set(`what which who whom whose when where why how`)
	// frameWords shape a question ("what is the name of", "what type of",
	// "the value used for", "the 2007 entry", "the threshold for", "on the
	// defaults tab", "who do I contact to find out") and are seldom
	// repeated by the sentence that answers it.
	frameWords = set(`name named called term type kind sort value amount number example mean means meaning
		describe described refer refers referred happen happened stand stands acronym abbreviation definition
		define defined entry entries listed specified stated given provided quoted use used uses using
		threshold thresholds tab tabs worksheet find tell know look according guide manual handbook document documents
		text give gives gave assume assumed assumes assuming supposed meant`)
	// howForm are the words that make "how" ask for a number and name
	// nothing a sentence would repeat ("how many", "how much", "how often").
	howForm   = set(`many much often`)
	howNumber = set(`many much long deep high wide far big large old thick tall heavy often fast hot cold
		warm low strong wide`)
	// bodyNouns name who one turns to, in lower case as often as not:
	// "your local fire department", "the chemical supplier".
	bodyNouns = set(`department departments agency agencies office offices authority authorities supplier
		suppliers manufacturer manufacturers vendor vendors contractor contractors owner owners operator
		operators service services center centre hotline board commission administration council
		committee inspector inspectors official officials engineer engineers utility utilities`)
	dateNouns   = set(`year years date day month century decade era period`)
	placeNouns  = set(`country city place region location state town continent area province county island river`)
	personNouns = set(`person people man woman king queen leader president emperor author founder scientist`)
	numberNouns = set(`percentage percent number amount value temperature voltage current rating size depth
		length width height distance weight capacity speed rate cost price pressure power volume thickness
		diameter spacing clearance tolerance efficiency population`)
	numberWords = set(`one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen
		sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred
		hundreds thousand thousands million millions billion billions dozen dozens half twice once single double`)
	monthNames = set(`january february march april may june july august september october november december`)
	eraWords   = set(`bc bce ad ce`)
	unitWords  = set(`mm cm m km kv v mv a ma ka kw w mw gw kwh mwh wh kva hz khz ohm ohms kg g t kn n mpa kpa pa
		bar psi s ms h hr hrs min hours minutes seconds days weeks months years percent degrees deg
		metres meters millimetres millimeters inches inch ft feet lb lbs`)
	unitAliases = map[string]string{"percent": "%", "%": "percent", "degrees": "°", "metres": "m", "meters": "m",
		"millimetres": "mm", "millimeters": "mm"}
)

// joinedWords writes every run of two or three neighbouring tokens of a
// question as one word.
func joinedWords(toks []analysis.Token) map[string]bool {
	m := map[string]bool{}
	for i := range toks {
		w := toks[i].Text
		for j := i + 1; j < len(toks) && j < i+3; j++ {
			w += toks[j].Text
			m[w] = true
		}
	}
	return m
}

// bracketedNumber is a bare number in round brackets: the "(330)" of
// "SolFocus SF-1100S-CPV-28 (330)".
var bracketedNumber = regexp.MustCompile(`\((\d+(?:\.\d+)?)\)`)

// bracketedNumbers returns the bare numbers text puts in round brackets.
func bracketedNumbers(text string) []string {
	var out []string
	for _, m := range bracketedNumber.FindAllStringSubmatch(text, -1) {
		out = append(out, m[1])
	}
	return out
}

// asideValues returns the values stated by the tokens set aside, read
// from the question's own text.
func asideValues(text string, toks []analysis.Token, aside map[int]bool) []guard.Value {
	var b strings.Builder
	for i, t := range toks {
		if aside[i] {
			b.WriteString(text[t.Start:t.End])
			b.WriteByte(' ')
		}
	}
	return guard.Values(b.String())
}

// makerWords returns the words right before the question's first model
// number, up to makerSpan of them, that may name its maker or series:
// "delta si" in "delta si 3000-us weight". A stopword, a question word or
// a word that says what the model is ("inverter") ends them. A question
// that sets models side by side (every) names each one's maker: "solarex
// msx-110 vs bp solar msx110".
func makerWords(text string, toks []analysis.Token, every bool) []string {
	var out []string
	for i, t := range toks {
		if !guard.IsCode(text, t) {
			continue
		}
		for j := i - 1; j >= 0 && j >= i-makerSpan; j-- {
			w := toks[j]
			if !mayName(text, w, toks[j+1]) {
				break
			}
			out = append(out, w.Term)
		}
		if !every {
			return out
		}
	}
	return out
}

// seriesWord returns the term of the word right before the question's
// first short model number written with a dot or a hyphen ("5.0-1",
// "32.0") or of digits alone after two names ("conext tx 2800"), when the
// question names no longer model number and the word may name a series;
// "" otherwise.
func seriesWord(text string, toks []analysis.Token) string {
	if len(toks) < 2 || slices.ContainsFunc(toks, func(t analysis.Token) bool { return guard.IsCode(text, t) }) {
		return ""
	}
	for i, t := range toks[1:] {
		w := toks[i]
		short := t.Kind != analysis.Word && strings.ContainsAny(t.Text, ".-") && strings.ContainsAny(t.Text, "0123456789") &&
			len(guard.Values(text[t.Start:t.End])) <= 1 && len(guard.Qualifiers(text[t.Start:t.End])) == 0
		if !short && !bareModel(text, toks, i+1) {
			continue
		}
		if !mayName(text, w, t) || len(guard.Qualifiers(w.Text)) > 0 {
			return ""
		}
		return w.Term
	}
	return ""
}

// bareModel reports whether toks[j] is a model number of digits alone
// ("conext tx 2800"): four digits or more, no unit after it, after two
// words that may name a maker and a series.
func bareModel(text string, toks []analysis.Token, j int) bool {
	t := toks[j]
	if t.Kind != analysis.Number || len(t.Text) < minBareModelDigits || strings.ContainsFunc(t.Text, func(r rune) bool { return r < '0' || r > '9' }) ||
		j < 2 || !mayName(text, toks[j-2], toks[j-1]) {
		return false
	}
	if j+1 < len(toks) {
		if vs := guard.Values(text[t.Start:toks[j+1].End]); len(vs) == 1 && vs[0].Unit != "" {
			return false // "3000 w"
		}
	}
	return true
}

// minBareModelDigits is the fewest digits of a model number written with
// digits alone.
const minBareModelDigits = 4

// mayName reports whether w, written one space before next, may name the
// maker or series of the model number that next is or begins: a word that
// is no stopword, question word or word saying what the model is.
func mayName(text string, w, next analysis.Token) bool {
	return w.Kind == analysis.Word && !analysis.IsStopword(w.Text) && !whWords[w.Text] && !notMakers[w.Text] && text[w.End:next.Start] == " "
}

// makerSpan is how many words before a model number may name its maker
// or series.
const makerSpan = 2

// notMakers are words that stand before a model number without naming its
// maker: what it is, the list it is looked up in, what is asked of it.
var notMakers = set(`inverter inverters inv module modules mod panel panels model models unit units micro
microinverter system systems sandia cec list sheet db database library datasheet`)

// choiceOptions returns what a question offers to choose between: the
// content terms of the two words before "or" and of the two after it (or
// of the nearest content word, "or just on demo"), less
// the terms both sides share ("year tested or year manufactured" → tested,
// manufactured). Both are empty when the question offers no such choice.
func choiceOptions(toks []analysis.Token, aside map[int]bool) [2][]string {
	content := func(t analysis.Token) bool {
		return (t.Kind == analysis.Word || t.Kind == analysis.Number) && !analysis.IsStopword(t.Text)
	}
	for i, t := range toks {
		if t.Text != "or" || aside[i] {
			continue
		}
		var a, b []string
		for j := i - 1; j >= 0 && len(a) < optionSpan && (j >= i-optionSpan || len(a) == 0); j-- {
			if content(toks[j]) {
				a = append(a, toks[j].Term)
			}
		}
		for j := i + 1; j < len(toks) && len(b) < optionSpan && (j <= i+optionSpan || len(b) == 0); j++ {
			if content(toks[j]) {
				b = append(b, toks[j].Term)
			}
		}
		if onlyA, onlyB := minus(a, b), minus(b, a); len(onlyA) > 0 && len(onlyB) > 0 {
			return [2][]string{onlyA, onlyB}
		}
		return [2][]string{}
	}
	return [2][]string{}
}

// optionSpan is how many words each side of "or" name an option.
const optionSpan = 2

// changeAsked are the words of a question that asks how much a quantity
// changes or differs from another.
var changeAsked = func() map[string]bool {
	m := analysis.TermSet(`increase decrease reduction reduce change difference differ gain rise drop improvement
		improve boost benefit relative compared compare versus underpredict overpredict underestimate overestimate`)
	for _, w := range strings.Fields(`more less higher lower greater smaller larger better worse than vs`) {
		m[w] = true
	}
	return m
}()

// publicationWords name a work a reference list may cite.
var publicationWords = []string{"paper", "papers", "report", "reports", "journal", "publication", "publications"}

// workWords name a work by its kind, and so may go with its author's name.
var workWords = slices.Concat(publicationWords, []string{"study", "studies", "presentation", "thesis"})

// reportVerb is "report" said of what one does: "where to report an epcra
// spill" names no work.
var reportVerb = regexp.MustCompile(`(?i)\b(to|must|should|shall|we|you|i)\s+report\b`)

// workTerms are the terms of the words that say what is asked of a work
// (its kind, that it was published, who wrote it when).
var workTerms = analysis.TermSet(strings.Join(workWords, " ") + " publish published wrote written author authors year yr")

// comparativeWords say more or less of something.
const comparativeWords = `more|fewer|less|higher|lower|greater|smaller|larger|bigger|stricter|stronger|weaker|longer|shorter`

// comparedChoice is a choice between comparatives: "more or fewer",
// "higher or lower".
var comparedChoice = regexp.MustCompile(`(?i)\b(?:` + comparativeWords + `)\s+or\s+(?:` + comparativeWords + `)\b`)

// comparing is a comparative in a sentence: "more regulatory
// requirements than", "less stringent".
var comparing = regexp.MustCompile(`(?i)\b(?:` + comparativeWords + `)\b`)

// inBrackets reports whether the byte at pos of text stands inside round
// brackets.
func inBrackets(text string, pos int) bool {
	open := strings.LastIndexByte(text[:pos], '(')
	return open >= 0 && !strings.ContainsRune(text[open:pos], ')')
}

// reasonMarker opens or joins a reason or purpose: "because", "due to",
// "so that", "in line with", "was made to bring".
var reasonMarker = regexp.MustCompile(`(?i)\b(because|since|due to|owing to|as a result|results? (of|from)|reasons?|so that|in order to|` +
	`in line with|(was|were|is|are) (made|done|chosen|designed|intended|needed|used) to|therefore|thus|hence|consequently)\b`)

// consequence opens a sentence that follows from the one before it.
var consequence = regexp.MustCompile(`^(?i)(consequently|therefore|thus|hence|accordingly|as a result|for this reason)\b`)

// givesReason reports whether a sentence gives a reason: it holds a
// reasonMarker, or names the question's own word for what happens and,
// right after it, by what ("redevelopment is complicated by real or
// perceived environmental contamination" for "why is redevelopment of a
// brownfield site complicated").
func givesReason(q question, text string, toks []analysis.Token) bool {
	if reasonMarker.MatchString(text) {
		return true
	}
	for i := 1; i < len(toks); i++ {
		if toks[i].Text == "by" && toks[i-1].Kind == analysis.Word && !analysis.IsStopword(toks[i-1].Text) && q.has[toks[i-1].Term] {
			return true
		}
	}
	return false
}

// maxLackedWords is how many words after "no" or "without" may name what a
// row lacks.
const maxLackedWords = 4

// lackedTerms returns, for a question that asks which thing has no
// something (see guard.AsksLacking), the terms of the words after "no" or
// "without" (and an article) up to the next function word, at most
// maxLackedWords: "which loss category has no related v1 derate at all"
// lacks "related v1 derate". What the question sets aside lacks nothing.
func lackedTerms(toks []analysis.Token, aside map[int]bool) []string {
	for i := range toks {
		if aside[i] || !guard.AsksLacking(toks, i) {
			continue
		}
		j := i + 1
		for j < len(toks) && (toks[j].Text == "a" || toks[j].Text == "an" || toks[j].Text == "any") {
			j++
		}
		var out []string
		for ; j < len(toks) && len(out) < maxLackedWords; j++ {
			if toks[j].Kind == analysis.Word && analysis.IsStopword(toks[j].Text) {
				break
			}
			out = append(out, toks[j].Term)
		}
		if len(out) > 0 {
			return out
		}
	}
	return nil
}

// dateWords are the terms of words that name a date.
var dateWords = analysis.TermSet("year yr date")

// holdsYear reports whether a unit's tokens hold a year the question does
// not state itself.
func holdsYear(q question, toks []analysis.Token) bool {
	return slices.ContainsFunc(toks, func(t analysis.Token) bool {
		return t.Kind == analysis.Number && isYear(t.Text) && !q.numbers[t.Text]
	})
}

// asksBounds reports whether a question's words ask for both ends of a
// range: "window", "range", or a word for each end ("min / max", "lo/hi").
func asksBounds(words map[string]bool) bool {
	either := func(ws ...string) bool { return slices.ContainsFunc(ws, func(w string) bool { return words[w] }) }
	return either("window", "range") || either("min", "minimum") && either("max", "maximum") || words["lo"] && words["hi"] ||
		words["low"] && words["high"]
}
