// Package classify decides, without a language model, what a message to
// cew is: small talk or a help request (answered with a canned reply, no
// retrieval), a lookup in the document register, or a question for the
// documents with its category, complexity and the retrieval hints the
// category implies.
package classify

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/cewhq/cew/answer"
	"github.com/cewhq/cew/pipeline/guard"
	"github.com/cewhq/cew/pipeline/query"
	"github.com/cewhq/cew/store/analysis"
)

// Kind is what a message asks for.
type Kind string

const (
	// KindSmalltalk is a greeting, thanks, farewell or a question about cew
	// itself; Intent.Reply holds the answer.
	KindSmalltalk Kind = "smalltalk"
	// KindHelp asks how to use cew; Intent.Reply holds the usage.
	KindHelp Kind = "help"
	// KindStatus is a document register lookup; Intent.DocQuery names the
	// document (empty lists the register).
	KindStatus Kind = "status"
	// KindQuestion is a question for the documents.
	KindQuestion Kind = "question"
)

// Category is the kind of answer a question wants; it picks retrieval
// hints and the prompt template.
type Category string

const (
	CategoryDefinition     Category = "definition"
	CategorySelection      Category = "selection"
	CategoryTechnicalValue Category = "technical_value"
	CategoryDrawing        Category = "drawing"
	// CategoryStatus is the progress or state of work ("what is the status
	// of the trench excavation"), answered from the documents; a lookup of
	// a document's revision is KindStatus instead.
	CategoryStatus  Category = "status"
	CategoryGeneral Category = "general"
)

// Complexity says whether a question needs several facts put together.
type Complexity string

const (
	ComplexitySimple Complexity = "simple"
	// ComplexityComplex is a comparison or several questions in one.
	ComplexityComplex Complexity = "complex"
)

// Hints steer ranking toward the chunks a category is usually answered
// from.
type Hints struct {
	// PreferNumbers favours chunks with numbers and units.
	PreferNumbers bool
	// PreferTables favours spreadsheet rows and tables.
	PreferTables bool
	// PreferDrawings favours drawings.
	PreferDrawings bool
	// AllowGlossary keeps glossary and definition lists, which ranking
	// otherwise penalises.
	AllowGlossary bool
	// AllowNotice keeps legal notice pages (disclaimers, ordering
	// addresses), which ranking otherwise penalises, for a question that
	// asks about one.
	AllowNotice bool
	// ExpandTerms are spellings of abbreviations in the question (and
	// abbreviations of spelled-out terms) that retrieval may add.
	ExpandTerms []string
}

// Intent is the classification of one message.
type Intent struct {
	Kind Kind
	// Category and Complexity are set for KindQuestion only.
	Category   Category
	Complexity Complexity
	// Reply names the canned answer for KindSmalltalk and KindHelp; its
	// wording depends on the platform (answer.CannedText).
	Reply answer.Canned
	// DocQuery is the document named by a KindStatus lookup, as written.
	DocQuery string
	Hints    Hints
}

// word is one word of a message, lower-cased, with its place in the
// message so spans can be cut from the original text.
type word struct {
	text       string
	kind       analysis.Kind
	start, end int
}

// Classify classifies a validated message (platform markup already
// stripped). It never fails: anything it cannot place is a general
// question, which the guards then treat as strictly as any other.
func Classify(question string) Intent {
	all := splitWords(question)
	from, opener := skipOpeners(all)
	to := trimTrailers(all, from)
	rest := all[from:to]

	if len(rest) == 0 {
		if opener == replyNone {
			// Nothing but punctuation or symbols: show how to ask.
			return Intent{Kind: KindHelp, Reply: ReplyHelp}
		}
		return Intent{Kind: KindSmalltalk, Reply: opener.text()}
	}
	texts := wordTexts(rest)
	// Help and about phrases are tried before trailing courtesy words are
	// trimmed too, because "cew" is both a trailer and part of "what is cew".
	untrimmed := wordTexts(all[from:])
	if matchesAny(texts, helpPhrases) || matchesAny(untrimmed, helpPhrases) {
		return Intent{Kind: KindHelp, Reply: ReplyHelp}
	}
	if matchesAny(texts, aboutPhrases) || matchesAny(untrimmed, aboutPhrases) {
		return Intent{Kind: KindSmalltalk, Reply: ReplyAbout}
	}
	if k := smalltalk(texts, opener); k != replyNone {
		return Intent{Kind: KindSmalltalk, Reply: k.text()}
	}
	if matchesAny(texts, listPhrases) {
		return Intent{Kind: KindStatus}
	}
	// Lead-ins are dropped only now: "can you help me" is a help request,
	// "can you tell me the status of drawing 12" a lookup.
	rest = skipLeadIns(rest)
	rest = skipScope(question, rest)
	texts = wordTexts(rest)
	if len(rest) == 0 {
		return Intent{Kind: KindHelp, Reply: ReplyHelp}
	}
	if q, ok := registerLookup(question, rest, texts); ok {
		return Intent{Kind: KindStatus, DocQuery: q}
	}
	return classifyQuestion(question, rest, texts)
}

// splitWords tokenises with the shared analyser and expands contractions,
// so the vocabulary lists need only one spelling.
func splitWords(s string) []word {
	toks := analysis.Tokens(s)
	out := make([]word, 0, len(toks)+4)
	for _, t := range toks {
		w := word{text: t.Text, kind: t.Kind, start: t.Start, end: t.End}
		if t.Kind != analysis.Word {
			out = append(out, w)
			continue
		}
		if base, ok := strings.CutSuffix(t.Text, "'s"); ok && contractedIs[base] {
			out = append(out, word{text: base, kind: t.Kind, start: t.Start, end: t.End},
				word{text: "is", kind: t.Kind, start: t.End, end: t.End})
			continue
		}
		expanded := false
		for _, c := range contractions {
			if base, ok := strings.CutSuffix(t.Text, c.suffix); ok && base != "" {
				if c.suffix == "n't" {
					base = uncontract(base)
				}
				out = append(out, word{text: base, kind: t.Kind, start: t.Start, end: t.End},
					word{text: c.word, kind: t.Kind, start: t.End, end: t.End})
				expanded = true
				break
			}
		}
		if expanded {
			continue
		}
		switch t.Text {
		case "whats", "hows", "wheres", "whos":
			out = append(out, word{text: strings.TrimSuffix(t.Text, "s"), kind: t.Kind, start: t.Start, end: t.End},
				word{text: "is", kind: t.Kind, start: t.End, end: t.End})
			continue
		}
		out = append(out, w)
	}
	for i := range len(out) - 1 {
		// "no. of modules" is the number of modules.
		if (out[i].text == "no" || out[i].text == "num" || out[i].text == "nr") && out[i+1].text == "of" {
			out[i].text = "number"
		}
	}
	return out
}

// uncontract restores the verb of a "n't" contraction: "can" from "can't"
// ("ca" + "n't"), "will" from "won't".
func uncontract(base string) string {
	switch base {
	case "ca":
		return "can"
	case "wo":
		return "will"
	case "sha":
		return "shall"
	}
	return base
}

func wordTexts(ws []word) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.text
	}
	return out
}

// skipOpeners skips greetings, thanks and acknowledgements (each perhaps
// followed by an addressee) at the start of a message and returns where
// the rest begins and the strongest reply the openers call for.
func skipOpeners(ws []word) (int, replyKind) {
	texts := wordTexts(ws)
	i, kind := 0, replyNone
	for i < len(texts) {
		matched := false
		for _, p := range openers {
			if hasPrefix(texts[i:], p.words) {
				i += len(p.words)
				kind = max(kind, p.kind)
				for i < len(texts) && addressees[texts[i]] {
					i++
				}
				matched = true
				break
			}
		}
		if !matched {
			break
		}
	}
	return i, kind
}

// trimTrailers returns the end of a message without courtesy words ("…,
// thanks"), never moving before from.
func trimTrailers(ws []word, from int) int {
	texts := wordTexts(ws)
	end := len(texts)
	for end > from {
		matched := false
		for _, p := range trailers {
			if end-len(p) >= from && slices.Equal(texts[end-len(p):end], p) {
				end -= len(p)
				matched = true
				break
			}
		}
		if !matched {
			break
		}
	}
	return end
}

func skipLeadIns(ws []word) []word {
	texts := wordTexts(ws)
	for _, p := range leadIns {
		if hasPrefix(texts, p) && len(p) < len(texts) {
			return ws[len(p):]
		}
	}
	return ws
}

// skipScope drops the words of a scope phrase at either end ("according
// to the docs", "on this project", see query.ScopeBounds): they name the
// documents as a whole, no document to look up.
func skipScope(msg string, rest []word) []word {
	if len(rest) == 0 {
		return rest
	}
	from := rest[0].start
	start, end := query.ScopeBounds(msg[from:rest[len(rest)-1].end])
	kept := rest[:0:0]
	for _, w := range rest {
		if w.start >= from+start && w.end <= from+end {
			kept = append(kept, w)
		}
	}
	if len(kept) == 0 {
		return rest
	}
	return kept
}

// smalltalk reports which canned reply a message made only of courtesy
// words calls for, or replyNone when it carries anything else.
func smalltalk(texts []string, opener replyKind) replyKind {
	if k, ok := smalltalkPhrases[strings.Join(texts, " ")]; ok {
		return k
	}
	if questionStarts[texts[0]] {
		return replyNone
	}
	kind := opener
	for _, t := range texts {
		if k, ok := smalltalkAnchors[t]; ok {
			kind = max(kind, k)
			continue
		}
		if !smalltalkFillers[t] {
			return replyNone
		}
	}
	return kind
}

// docNumber matches register-style document numbers written in capitals
// or digits with hyphens or slashes: 277-007-D-C-40327, NREL/TP-6A20-62641,
// EPA-FEDREQ-CONSTR.
var docNumber = regexp.MustCompile(`\b[A-Z0-9]{2,}(?:[-/][A-Z0-9]+){1,}\b`)

// registerLookup recognises a request for a document's revision or status
// and returns the document part of the message. Revision and supersession
// words alone are not enough ("what machines have superseded steam", "the
// DOT's revision of categories"): the message must also name a document,
// ask for the latest revision, or be a short yes/no question.
func registerLookup(msg string, rest []word, texts []string) (string, bool) {
	names := namesDocument(msg, rest)
	yesNo := len(texts) <= 8 && yesNoStarts[texts[0]]
	lookup := false
	switch {
	case texts[0] == "status":
		// Command form, "status <document>": a document unless the rest
		// describes work on site in plain words; a title in capitals
		// ("… for Construction") still names a document.
		lookup = names || !describesActivity(texts[1:]) || titleCased(msg, rest[1:])
	case containsAny(texts, supersedeWords):
		lookup = names || yesNo
	case hasRevisionWord(texts):
		lookup = names || yesNo || hasPhraseAny(texts, revisionQueries)
	case contains(texts, "status") && names:
		lookup = true
	case yesNo && names && hasPhraseAny(texts, currencyPhrases):
		lookup = true
	}
	if !lookup {
		return "", false
	}
	return documentPart(msg, rest), true
}

var yesNoStarts = wordSet("is", "are", "has", "have", "was", "were")

// revisionQueries ask which revision is current.
var revisionQueries = phraseList(
	"latest rev", "latest revision", "latest version", "current rev", "current revision",
	"current version", "newest rev", "newest revision", "last rev", "last revision",
	"most recent rev", "most recent revision", "which rev", "which revision", "what rev",
	"what revision",
)

// currencyPhrases ask whether a named document is the one in force.
var currencyPhrases = phraseList("latest", "current", "up to date", "still valid", "the newest", "active")

// namesDocument reports whether a message names a document: a document
// number, or a word such as drawing, manual or layout.
func namesDocument(msg string, rest []word) bool {
	for _, w := range rest {
		if docWords[w.text] && !revisionWords[w.text] {
			return true
		}
	}
	if len(rest) == 0 {
		return false
	}
	part := msg[rest[0].start:rest[len(rest)-1].end]
	for _, m := range docNumber.FindAllStringIndex(part, -1) {
		if !trackerKey(part, m[0], m[1]) {
			return true
		}
	}
	return false
}

// trackerKey reports whether the document number at text[start:end] is an
// issue tracker's key the message points at, not a document: "re
// JIRA-3216", "per PRJ-12", "JIRA-904", "RFI-17".
func trackerKey(text string, start, end int) bool {
	key := strings.ToLower(text[start:end])
	if prefix, _, ok := strings.Cut(key, "-"); ok && trackerPrefixes[prefix] {
		return true
	}
	before := strings.Fields(strings.ToLower(text[:start]))
	return len(before) > 0 && pointerWords[strings.TrimRight(before[len(before)-1], ":")]
}

// trackerPrefixes open the keys of issue trackers and requests.
var trackerPrefixes = wordSet("jira", "ticket", "issue", "rfi", "ncr", "wo", "po", "cr")

// pointerWords point at a ticket: "re JIRA-3216", "per PRJ-12".
var pointerWords = wordSet("re", "ref", "per")

func describesActivity(texts []string) bool {
	for _, t := range texts {
		if activityWords[t] {
			return true
		}
		// Gerunds name work ("pulling", "jointing"), except the few that
		// name things.
		if len(t) > 5 && strings.HasSuffix(t, "ing") && !gerundNouns[t] {
			return true
		}
	}
	return false
}

var gerundNouns = wordSet("drawing", "drawings", "building", "buildings", "ceiling", "housing",
	"earthing", "fencing", "racking", "mounting", "wiring", "bearing", "coating", "string", "setting",
	"settings", "rating", "ratings", "lighting", "signage")

// titleCased reports whether most content words were written with a
// capital, as document titles are.
func titleCased(msg string, ws []word) bool {
	content, capital := 0, 0
	for _, w := range ws {
		if w.kind != analysis.Word || registerFillers[w.text] || analysis.IsStopword(w.text) {
			continue
		}
		content++
		if r, _ := utf8.DecodeRuneInString(msg[w.start:]); unicode.IsUpper(r) {
			capital++
		}
	}
	return content > 0 && 2*capital > content
}

// hasRevisionWord reports whether a message asks about revisions: "rev",
// "revision", or "version" after latest/current/which/what.
func hasRevisionWord(texts []string) bool {
	for i, t := range texts {
		if revisionWords[t] {
			return true
		}
		if (t == "version" || t == "versions") && i > 0 && versionQualifiers[texts[i-1]] && !versionOfThing(texts[i+1:]) {
			return true
		}
	}
	return false
}

// versionOfThing reports whether "version of" names something that is no
// document — a program or model: "what version of pvwatts is the manual
// about" asks which PVWatts, not which revision of the manual. What
// follows "of", up to a verb, names a document when it holds a document
// word ("which version of the iea bifi scenarios doc") or a document
// number ("which version of 277-007-D-C-40327 is current",
// "epa-fedreq-constr").
func versionOfThing(after []string) bool {
	if len(after) < 2 || after[0] != "of" {
		return false
	}
	for _, t := range after[1:] {
		if clauseVerbs[t] {
			break
		}
		if docWords[t] || strings.ContainsAny(t, "-/") {
			return false
		}
	}
	return true
}

// clauseVerbs end the noun phrase after "version of".
var clauseVerbs = wordSet("is", "are", "was", "were", "does", "do", "did", "has", "have", "can", "should", "will", "would")

// documentPart cuts the document's name out of a register request by
// trimming request words from both ends, and keeps the user's spelling.
func documentPart(msg string, rest []word) string {
	i, j := 0, len(rest)
	for i < j && registerFillers[rest[i].text] && !isDocNumberWord(rest[i]) {
		i++
	}
	for j > i && registerFillers[rest[j-1].text] && !isDocNumberWord(rest[j-1]) {
		j--
	}
	if i == j {
		return ""
	}
	return strings.TrimFunc(msg[rest[i].start:rest[j-1].end], func(r rune) bool {
		return unicode.IsSpace(r) || unicode.IsPunct(r) && r != ')' && r != ']'
	})
}

func isDocNumberWord(w word) bool {
	return w.kind == analysis.Identifier || w.kind == analysis.Number
}

// classifyQuestion assigns a question its category, complexity and hints.
// Explicit wording decides first ("what does X mean" is a definition even
// when X is a value); then progress, selection, values and drawings.
func classifyQuestion(msg string, rest []word, texts []string) Intent {
	sig := signals{
		definition: isDefinition(texts),
		status:     hasPhraseAny(texts, statusPhrases),
		selection:  isSelection(texts),
		value:      isValue(rest, texts),
		drawing:    isDrawing(msg, texts),
	}
	in := Intent{Kind: KindQuestion, Complexity: complexity(msg[rest[0].start:], texts)}
	switch {
	case sig.definition:
		in.Category = CategoryDefinition
	case sig.status:
		in.Category = CategoryStatus
	case sig.selection:
		in.Category = CategorySelection
	case sig.value:
		in.Category = CategoryTechnicalValue
	case sig.drawing:
		in.Category = CategoryDrawing
	case isShortDefinition(texts):
		in.Category = CategoryDefinition
	default:
		in.Category = CategoryGeneral
	}
	in.Hints = Hints{
		PreferNumbers:  in.Category == CategoryTechnicalValue || sig.value && in.Category != CategoryDefinition,
		PreferTables:   in.Category == CategorySelection || sig.selection,
		PreferDrawings: in.Category == CategoryDrawing || sig.drawing,
		AllowGlossary:  in.Category == CategoryDefinition,
		AllowNotice:    asksNotice(texts),
		ExpandTerms:    expansions(msg, rest),
	}
	return in
}

// asksNotice recognises a question about a document's legal notice page:
// "the notice page", "the disclaimer", "does it endorse …". A notice of
// intent or of termination is a permit filing, not that page.
func asksNotice(texts []string) bool {
	for i, t := range texts {
		switch {
		case t == "notice" || t == "notices":
			if i+1 == len(texts) || texts[i+1] != "of" {
				return true
			}
		case strings.HasPrefix(t, "disclaim"), strings.HasPrefix(t, "endors"):
			return true
		}
	}
	return false
}

type signals struct {
	definition, status, selection, value, drawing bool
}

// isDefinition recognises explicit requests for a meaning: "define X",
// "what does X mean", "what is meant by X", "X stands for".
func isDefinition(texts []string) bool {
	if hasPhraseAny(texts, definitionPhrases) {
		return true
	}
	last := texts[len(texts)-1]
	return (last == "mean" || last == "means") && len(texts) > 1
}

func isSelection(texts []string) bool {
	if containsAny(texts, selectionWords) || hasPhraseAny(texts, selectionPhrases) {
		return true
	}
	if contains(texts, "best") && containsAny(texts, equipmentWords) {
		return true
	}
	// "which inverter …", "which cable size …"
	for i, t := range texts[:len(texts)-1] {
		if t == "which" && equipmentWords[texts[i+1]] {
			return true
		}
	}
	return false
}

func isValue(rest []word, texts []string) bool {
	if containsAny(texts, valueWords) || hasPhraseAny(texts, valuePhrases) {
		return true
	}
	for i, t := range texts[:len(texts)-1] {
		if t == "how" && howValue[texts[i+1]] {
			return true
		}
	}
	for i, w := range rest {
		switch w.kind {
		case analysis.Identifier:
			// "800mm", "5kW", "240mm²": a number glued to its unit.
			if n := strings.TrimLeft(w.text, "0123456789.,"); n != w.text && units[n] {
				return true
			}
		case analysis.Number:
			if strings.HasSuffix(w.text, "%") {
				return true
			}
			if i+1 < len(rest) && units[rest[i+1].text] {
				return true
			}
		}
	}
	return false
}

// sectionMark matches drawing section and detail marks: "section A-A",
// "detail 3", "section B–B".
var sectionMark = regexp.MustCompile(`(?i)\b(?:section|sect\.?|detail)\s+(?:[A-Z]\s*[-–]\s*[A-Z]|[0-9]+[A-Z]?)\b`)

func isDrawing(msg string, texts []string) bool {
	if sectionMark.MatchString(msg) || hasPhraseAny(texts, drawingPhrases) {
		return true
	}
	for i, t := range texts {
		if !drawingWords[t] {
			continue
		}
		if i > 0 && notDrawingBefore[texts[i-1]] {
			continue
		}
		return true
	}
	return false
}

// isShortDefinition recognises "what is X" / "what are X" where X is a short
// term, not a relation ("what is the name of the river" is not asking for a
// definition).
func isShortDefinition(texts []string) bool {
	if len(texts) < 3 || texts[0] != "what" || (texts[1] != "is" && texts[1] != "are") {
		return false
	}
	term := texts[2:]
	if len(term) > 0 && (term[0] == "a" || term[0] == "an" || term[0] == "the") {
		term = term[1:]
	}
	if len(term) == 0 || len(term) > 4 {
		return false
	}
	for _, t := range term {
		if strings.HasSuffix(t, "'s") {
			// "what is Rankine's nationality" asks for a fact about him.
			return false
		}
		switch t {
		case "of", "in", "on", "for", "to", "from", "by", "with", "at", "that", "which", "who",
			"name", "called", "used", "when", "where", "why", "how", "it", "this", "there":
			return false
		}
	}
	return true
}

// complexity marks comparisons and messages holding several questions;
// msg starts where the question does, after any greeting.
func complexity(msg string, texts []string) Complexity {
	if containsAny(texts, compareWords) || hasPhraseAny(texts, comparePhrases) {
		return ComplexityComplex
	}
	if questionCount(msg) > 1 {
		return ComplexityComplex
	}
	for i, t := range texts[:len(texts)-1] {
		// "… and what cable is used" starts a second question; "how and
		// when was it built" is still one.
		if (t == "and" || t == "also" || t == "plus") && i > 0 && i+2 < len(texts) &&
			clauseStarts[texts[i+1]] && !clauseStarts[texts[i-1]] {
			return ComplexityComplex
		}
	}
	return ComplexitySimple
}

// questionCount counts question marks that end a clause with words in it.
func questionCount(msg string) int {
	n := 0
	for part := range strings.SplitSeq(msg, "?") {
		if strings.IndexFunc(part, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0 {
			n++
		}
	}
	if !strings.Contains(msg, "?") {
		return 1
	}
	// The text after the last "?" is not a question of its own ("… ?
	// thanks"), unless it joins one on ("… before what year? and the
	// national lead info center number").
	if tail := msg[strings.LastIndex(msg, "?")+1:]; strings.IndexFunc(tail, unicode.IsLetter) >= 0 && !joinsAsk(tail) {
		n--
	}
	return n
}

// joinsAsk reports whether text opens with a word that adds a further ask
// to the one before it ("and", "also", "plus": guard.IsFurtherAskWord).
func joinsAsk(text string) bool {
	first, _, _ := strings.Cut(strings.TrimLeftFunc(text, func(r rune) bool { return unicode.IsSpace(r) || r == ',' }), " ")
	return guard.IsFurtherAskWord(strings.ToLower(first))
}

// expansions returns the spelled-out forms of abbreviations in the message
// and the abbreviations of spelled-out forms, in order of appearance,
// without terms the message already contains.
func expansions(msg string, rest []word) []string {
	var out []string
	lower := strings.ToLower(msg)
	seen := map[string]bool{}
	add := func(t string) {
		if !seen[t] && !strings.Contains(lower, t) {
			seen[t] = true
			out = append(out, t)
		}
	}
	for _, w := range rest {
		long, ok := abbreviations[w.text]
		if !ok {
			continue
		}
		if ambiguousAbbreviations[w.text] && msg[w.start:w.end] != strings.ToUpper(msg[w.start:w.end]) {
			continue
		}
		add(long)
	}
	// Spelled-out terms, found in sorted order of the abbreviations so the
	// result does not depend on map iteration.
	keys := make([]string, 0, len(abbreviations))
	for k := range abbreviations {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	type found struct {
		at   int
		abbr string
	}
	var fs []found
	for _, k := range keys {
		if at := indexWords(lower, abbreviations[k]); at >= 0 {
			fs = append(fs, found{at, strings.ToUpper(k)})
		}
	}
	slices.SortStableFunc(fs, func(a, b found) int { return a.at - b.at })
	for _, f := range fs {
		if !seen[f.abbr] && !containsWord(rest, strings.ToLower(f.abbr)) {
			seen[f.abbr] = true
			out = append(out, f.abbr)
		}
	}
	return out
}

// indexWords finds phrase in s on word boundaries.
func indexWords(s, phrase string) int {
	from := 0
	for {
		i := strings.Index(s[from:], phrase)
		if i < 0 {
			return -1
		}
		at := from + i
		end := at + len(phrase)
		if (at == 0 || !isWordByte(s[at-1])) && (end == len(s) || !isWordByte(s[end])) {
			return at
		}
		from = at + 1
	}
}

func isWordByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= '0' && b <= '9' || b >= 0x80
}

func containsWord(ws []word, t string) bool {
	for _, w := range ws {
		if w.text == t {
			return true
		}
	}
	return false
}

func contains(texts []string, t string) bool { return slices.Contains(texts, t) }

func containsAny(texts []string, set map[string]bool) bool {
	for _, t := range texts {
		if set[t] {
			return true
		}
	}
	return false
}

func hasPrefix(texts []string, p phrase) bool {
	return len(texts) >= len(p) && slices.Equal(texts[:len(p)], p)
}

// matchesAny reports whether texts is exactly one of the phrases.
func matchesAny(texts []string, ps []phrase) bool {
	for _, p := range ps {
		if slices.Equal(texts, p) {
			return true
		}
	}
	return false
}

// hasPhraseAny reports whether any phrase occurs as a contiguous run.
func hasPhraseAny(texts []string, ps []phrase) bool {
	for _, p := range ps {
		for i := 0; i+len(p) <= len(texts); i++ {
			if slices.Equal(texts[i:i+len(p)], p) {
				return true
			}
		}
	}
	return false
}

func sortPhrases(ps []weightedPhrase) {
	slices.SortFunc(ps, func(a, b weightedPhrase) int {
		if len(a.words) != len(b.words) {
			return len(b.words) - len(a.words)
		}
		return strings.Compare(strings.Join(a.words, " "), strings.Join(b.words, " "))
	})
}
