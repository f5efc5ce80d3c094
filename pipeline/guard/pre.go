package guard

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/cewhq/cew/store"
	"github.com/cewhq/cew/store/analysis"
)

// KeyTerm is a term of a question that retrieved passages must contain.
type KeyTerm struct {
	// Text is the term as the question writes it: "Inverter 42", "800 mm",
	// "277-007-D-C-40327", "trench".
	Text string
	// Term is what is matched: the compact code of an identifier
	// ("inverter42"), the canonical number ("800"), or a word's stem.
	Term string
	// Kind is Identifier, Number or Word.
	Kind analysis.Kind
	// Required is set for identifiers and numbers: one missing from every
	// passage fails the pre-guard on its own. Content words only count
	// towards coverage.
	Required bool
}

// KeyTerms returns the key terms of a question, each once, in order:
// identifiers (drawing and model numbers, and a name followed by a number
// such as "Inverter 42" or "IEC 62548"), numbers with their units, and
// content words (not stopwords, not words that only frame the question such
// as "explain" or "document"). What the question sets aside (see SetAside:
// "besides the 92-99% curves") or supposes (see Supposed) is no key term: a
// passage that answers need not say it.
func KeyTerms(question string) []KeyTerm {
	toks := analysis.Tokens(question)
	// What the question sets aside, and what the asker supposes ("i
	// think it drops below 5 kw"), is no key term.
	skip := SetAside(question, toks)
	for i := range Supposed(question, toks) {
		if skip == nil {
			skip = map[int]bool{}
		}
		skip[i] = true
	}
	var out []KeyTerm
	seen := map[string]bool{}
	add := func(k KeyTerm) {
		key := fmt.Sprint(k.Kind, k.Term)
		if k.Term == "" || seen[key] {
			return
		}
		seen[key] = true
		out = append(out, k)
	}
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if skip[i] {
			continue
		}
		switch t.Kind {
		case analysis.Word:
			if isDesignator(question, toks, i) {
				n := toks[i+1]
				// "table 6" or "figure 3" points at where the user looked;
				// the answer need not repeat it.
				add(KeyTerm{Text: question[t.Start:n.End], Term: compact(t.Text + n.Text), Kind: analysis.Identifier,
					Required: !pointerWords[t.Text]})
				i++
				continue
			}
			if analysis.IsStopword(t.Text) || analysis.IsStopword(t.Term) || utf8.RuneCountInString(t.Text) < 2 || isQuestionWord(t.Term) {
				// The stem of chat's "whats" or "hows" is a stopword too.
				continue
			}
			if namesLine(question, toks, i) {
				// A row does not say it is an entry.
				continue
			}
			add(KeyTerm{Text: question[t.Start:t.End], Term: t.Term, Kind: analysis.Word})
		case analysis.Number, analysis.Identifier:
			if phaseCount.MatchString(t.Text) {
				// "se10k 3ph 480": how many phases describes the
				// variant, and model lists seldom say it; a passage
				// need not.
				continue
			}
			q, next := quantityAt(question, toks, i)
			switch {
			case CaseLike(question[t.Start:t.End]) != "" || clockTimes(t.Text) != nil:
				// "an old v1-style derate" is like the case, not a name a
				// passage must write; "the 14:00-15:00 record" is a time
				// of day, written in as many ways ("2-3 p.m.") as a
				// passage likes.
				add(KeyTerm{Text: question[t.Start:t.End], Term: t.Text, Kind: analysis.Identifier})
				next = i + 1
			case q.Code != "":
				add(KeyTerm{Text: q.Text, Term: q.Code, Kind: analysis.Identifier, Required: true})
			case q.Num != "":
				// A bare small count ("the 3 main losses") frames the
				// question more often than it names a value.
				required := q.Unit != "" || len(strings.TrimLeft(q.Num, "-")) > 1
				if offered(toks, i, next) {
					// "hourly or 15 min": the question offers the
					// number as one answer to choose from.
					required = false
				}
				add(KeyTerm{Text: q.Text, Term: q.Num, Kind: analysis.Number, Required: required})
			default:
				// A unit with a digit ("mm2"): a content word.
				add(KeyTerm{Text: question[t.Start:t.End], Term: t.Term, Kind: analysis.Word})
			}
			i = next - 1
		}
	}
	for i, k := range out {
		if k.Kind == analysis.Identifier && slices.ContainsFunc(out, func(o KeyTerm) bool {
			return o.Kind == analysis.Identifier && len(o.Term) > len(k.Term) && strings.HasSuffix(o.Term, k.Term)
		}) {
			// "sanyo hip-186da3 (da3, not the da1)": the end of a model
			// number the question names says it again.
			out[i].Required = false
		}
	}
	return out
}

// styled matches a case made a manner of something: "v1-style",
// "2-axis-like".
var styled = regexp.MustCompile(`(?i)-(?:style|like|type|based|era)$`)

// CaseLike returns the case a word makes a manner of ("v1" of
// "v1-style"), or "" when it makes none.
func CaseLike(surface string) string {
	head := styled.ReplaceAllString(surface, "")
	if head == surface || len(Qualifiers(head)) == 0 {
		return ""
	}
	return head
}

// clockTime matches a time of day on the 24-hour clock: "14:00".
var clockTime = regexp.MustCompile(`^([01]?\d|2[0-3]):([0-5]\d)$`)

// clockTimes returns the hours and minutes of a time of day on the
// 24-hour clock, or of two joined by a hyphen ("14:00", "14:00-15:00"),
// or nil when s is none.
func clockTimes(s string) [][2]string {
	parts := strings.Split(s, "-")
	if len(parts) > 2 {
		return nil
	}
	out := make([][2]string, 0, len(parts))
	for _, p := range parts {
		m := clockTime.FindStringSubmatch(p)
		if m == nil {
			return nil
		}
		out = append(out, [2]string{m[1], m[2]})
	}
	return out
}

// SaysTimes reports whether text says every time of day of term ("14:00",
// "14:00-15:00") on the 12-hour clock: "2 p.m.", "2:00 pm".
func SaysTimes(text, term string) bool {
	times := clockTimes(term)
	if times == nil {
		return false
	}
	lower := strings.ToLower(text)
	for _, hm := range times {
		h, _ := strconv.Atoi(hm[0])
		half := "a"
		if h >= 12 {
			half = "p"
		}
		if h = h % 12; h == 0 {
			h = 12
		}
		minutes := `(?::` + hm[1] + `)?`
		if hm[1] != "00" {
			minutes = `:` + hm[1]
		}
		if !regexp.MustCompile(`\b` + strconv.Itoa(h) + minutes + `\s*` + half + `\.?\s*m\b`).MatchString(lower) {
			return false
		}
	}
	return true
}

// phaseCount matches a phase count written short: "3ph", "1-ph", "3phase".
var phaseCount = regexp.MustCompile(`^[123]-?(?:ph|phase|φ)$`)

// offered reports whether the quantity of toks[i:next] is one side of an
// "or": a choice the question offers ("hourly or 15 min", "600 V or
// 1000 V"), which a passage answers by naming either side.
func offered(toks []analysis.Token, i, next int) bool {
	return i > 0 && toks[i-1].Text == "or" || next < len(toks) && toks[next].Text == "or"
}

// isDesignator reports whether the word toks[i] and the token after it
// name one thing: a capitalised or equipment word directly followed by a
// whole number without a unit ("Inverter 42", "IEC 62548", "string 7",
// "Table 3").
func isDesignator(question string, toks []analysis.Token, i int) bool {
	if i+1 >= len(toks) {
		return false
	}
	w, n := toks[i], toks[i+1]
	if n.Kind != analysis.Number || strings.ContainsAny(n.Text, ".,:%") || !adjacent(question, w.End, n.Start) {
		return false
	}
	if analysis.IsStopword(w.Text) || isQuestionWord(w.Term) && !designatorWords[w.Text] {
		return false
	}
	// "cables 800 mm" is a number with a unit, not cable number 800.
	if i+2 < len(toks) && adjacent(question, n.End, toks[i+2].Start) {
		if _, ok := unitOf(question, toks[i+2]); ok {
			return false
		}
	}
	return capitalised(question[w.Start:]) || designatorWords[w.Text]
}

// designatorWords are lower-case nouns that, followed by a number, name an
// item on a project: "inverter 42", "string 7", "table 3".
var designatorWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`inverter inverters string strings combiner box panel table figure fig
		section sheet page drawing detail trench tracker block zone area level pile phase feeder
		circuit transformer array row column bay building unit item note clause appendix annex
		revision rev lot tag cable conduit pit manhole node station substation mvps pcs skid`) {
		m[w] = true
	}
	return m
}()

// pointerWords name a place in a document rather than a thing on a project.
var pointerWords = map[string]bool{"table": true, "figure": true, "fig": true, "section": true, "page": true,
	"eq": true, "eqn": true, "equation": true, "appendix": true, "annex": true, "clause": true}

// IsPointerWord reports whether a word names a place in a document when a
// number follows it ("table 3", "eq 7"): the number is the place's, no
// value.
func IsPointerWord(w string) bool { return pointerWords[w] }

// isQuestionWord reports words (by stem) that frame a question rather than
// say what it is about: "please explain what the documents say about…".
func isQuestionWord(term string) bool {
	if isFramingWord(term) {
		return true
	}
	switch term {
	case "tell", "explain", "give", "find", "know", "need", "want", "pleas", "inform", "info",
		"question", "answer", "doc", "upload", "cew", "hi", "hello", "thank", "thanks", "mean", "defin",
		"definit", "look", "help", "wonder", "ask":
		return true
	}
	return false
}

// PreOptions configures Pre. A zero field takes its default from
// DefaultPreOptions, so a forgotten setting never switches a check off; a
// negative one does switch it off.
type PreOptions struct {
	// MinScore is the lowest acceptable relevance of the best hit, on the
	// rankers' 0..1 scale.
	MinScore float64
	// MinCoverage is the lowest acceptable share of the question's content
	// words found in the retrieved passages.
	MinCoverage float64
}

// DefaultPreOptions are calibrated on public data and the domain dev set.
// MinScore applies to the lexical reranker's score: asking the 2,805 SQuAD
// 2.0 dev questions (articles 1–8) of the evaluation set against the
// bundled PV corpus, where none is answerable, 0.5 refuses 94 % of them on
// relevance alone and 0.44 refuses 81 % (99.7 % with the reader and the
// calibrated confidence after it, `cew eval qa --ood-corpus`), while on the
// SQuAD corpus itself the whole 0.05–0.5 range moves answered-and-correct
// by under one point: the extractive generator, not this guard, decides
// most refusals there. 0.44 lets through the engineers' questions whose
// best passage scored just short of 0.5 (16 of the domain dev set's tune
// questions scored 0.44–0.5 and were refused on relevance alone), which the
// reader and the confidence then judge. MinCoverage 0.5 asks for half the
// question's content words, the best trade-off found on the same sweep.
func DefaultPreOptions() PreOptions {
	return PreOptions{MinScore: 0.44, MinCoverage: 0.5}
}

func (o PreOptions) withDefaults() PreOptions {
	d := DefaultPreOptions()
	if o.MinScore == 0 || math.IsNaN(o.MinScore) {
		o.MinScore = d.MinScore
	}
	if o.MinCoverage == 0 || math.IsNaN(o.MinCoverage) {
		o.MinCoverage = d.MinCoverage
	}
	return o
}

// PreVerdict is the pre-guard's judgement of the retrieved passages.
type PreVerdict struct {
	OK     bool
	Reason Reason
	// Detail says what was missing, for logs and the answer's trace.
	Detail string
	// Coverage is the share of the question's content words found in the
	// passages, in [0,1].
	Coverage float64
	// Missing lists the key terms (as the question writes them) that no
	// passage contains.
	Missing []string
}

// Pre decides whether the ranked hits can ground an answer before any text
// is generated. It fails when there are no hits (NoChunks), when the best
// is not relevant enough (LowRelevance), when an identifier or number of
// the question appears in no passage or too few of its content words do
// (NoKeywordMatch; stems count, and a passage's title, document number,
// section, sheet and revision are searched too; half the usual share is
// enough once a model or document number of the question is found, see
// namesModel), or when a passage cannot be cited because it lacks a
// document id and a page, a sheet and row, or a section (MissingMetadata).
func Pre(question string, hits []store.Hit, opts PreOptions) PreVerdict {
	opts = opts.withDefaults()
	if len(hits) == 0 {
		return PreVerdict{Reason: NoChunks, Detail: "no passage matched the question"}
	}
	top := 0.0
	for _, h := range hits {
		if !math.IsNaN(h.Score) {
			top = max(top, h.Score)
		}
	}
	if top < opts.MinScore {
		return PreVerdict{Reason: LowRelevance, Detail: fmt.Sprintf("the best passage scores %.3f, below the %.3f needed", top, opts.MinScore)}
	}

	evs := make([]*evidence, len(hits))
	for i, h := range hits {
		c := h.Chunk
		if c.Revision != "" {
			// A question may name the revision ("Rev 03") the chunk only
			// carries as metadata.
			c.Section += "\nRev " + c.Revision + "\nRevision " + c.Revision
		}
		evs[i] = newEvidence(c)
	}
	v := PreVerdict{OK: true, Coverage: 1}
	var words, covered int
	var missingRequired []string
	named := false // a model or document number of the question is in a passage
	for _, k := range KeyTerms(question) {
		found := false
		for _, ev := range evs {
			if ev.hasKeyTerm(k) {
				found = true
				break
			}
		}
		if k.Kind == analysis.Word {
			words++
			if found {
				covered++
			}
		}
		if found && k.Kind == analysis.Identifier && namesModel(k.Term) {
			named = true
		}
		if !found {
			v.Missing = append(v.Missing, k.Text)
			if k.Required {
				missingRequired = append(missingRequired, k.Text)
			}
		}
	}
	if words > 0 {
		v.Coverage = float64(covered) / float64(words)
	}
	minCoverage := opts.MinCoverage
	if named {
		// "sb4000tl-us-22 @240 is in the csv twice - ac power for each
		// entry?": a model number found says which passage; the words
		// around it are the asker's own ("csv", "twice", "entry") as
		// often as the document's. The reader judges the rest.
		minCoverage /= 2
	}
	switch {
	case len(missingRequired) > 0:
		v.OK, v.Reason = false, NoKeywordMatch
		v.Detail = fmt.Sprintf("%s %s not appear in any retrieved passage", quoteList(missingRequired), pluralDo(len(missingRequired)))
		return v
	case v.Coverage < minCoverage:
		v.OK, v.Reason = false, NoKeywordMatch
		v.Detail = fmt.Sprintf("only %.0f%% of the question's key words appear in the retrieved passages (missing %s); %.0f%% needed",
			100*v.Coverage, quoteList(v.Missing), 100*minCoverage)
		return v
	}
	for i, h := range hits {
		if what := untraceable(h.Chunk); what != "" {
			v.OK, v.Reason = false, MissingMetadata
			v.Detail = fmt.Sprintf("passage %d (%q) cannot be cited: %s", i+1, h.Chunk.ID, what)
			return v
		}
	}
	return v
}

// namesModel reports whether a compact identifier reads as a model or
// document number — five characters or more, two digits and a letter
// ("sb4000tlus22") — rather than a qualifier such as "1axis".
func namesModel(code string) bool {
	var digits, letters int
	for _, r := range code {
		switch {
		case unicode.IsDigit(r):
			digits++
		case unicode.IsLetter(r):
			letters++
		}
	}
	return len(code) >= 5 && digits >= 2 && letters >= 1
}

// hasKeyTerm reports whether the passage contains a key term.
func (ev *evidence) hasKeyTerm(k KeyTerm) bool {
	switch k.Kind {
	case analysis.Identifier:
		if _, ok := ev.codes[k.Term]; ok {
			return true
		}
		if _, ok := ev.codeEnds[k.Term]; ok {
			return true
		}
		return ev.hasTerm(strings.ToLower(k.Text)) || ev.hasEachSide(k.Text)
	case analysis.Number:
		qs := quantities(k.Text)
		if len(qs) > 0 && ev.hasQuantity(qs[0]) {
			return true
		}
		// A number may be part of a code: "40327" in "277-007-D-C-40327".
		return !strings.Contains(k.Text, " ") && ev.hasTerm(k.Term)
	}
	return ev.hasTerm(k.Term)
}

// hasEachSide reports whether the passage holds each side of a pair
// written with a slash, every side a version or a number ("v5/v1",
// "208/240"): the question names both, as "v5 and v1" would.
func (ev *evidence) hasEachSide(text string) bool {
	sides := strings.Split(strings.ToLower(text), "/")
	if len(sides) < 2 {
		return false
	}
	for _, s := range sides {
		if !versionOrNumber.MatchString(s) {
			return false
		}
		if _, ok := ev.codes[s]; !ok && !ev.hasTerm(s) {
			return false
		}
	}
	return true
}

// versionOrNumber is a version ("v5") or a whole number of two digits or
// more ("240"): "1/2" is a fraction.
var versionOrNumber = regexp.MustCompile(`^(?:v\d+|\d{2,})$`)

// untraceable says why a chunk cannot be cited, or "" when it can: it needs
// a document id and a page, a sheet and row, or (for unpaged text) a
// section.
func untraceable(c store.Chunk) string {
	switch {
	case strings.TrimSpace(c.DocID) == "":
		return "it has no document id"
	case c.Page > 0, strings.TrimSpace(c.Sheet) != "" && c.Row > 0, strings.TrimSpace(c.Section) != "":
		return ""
	}
	return "it has no page, sheet and row, or section"
}

func quoteList(items []string) string {
	q := make([]string, len(items))
	for i, s := range items {
		q[i] = "'" + s + "'"
	}
	return strings.Join(q, ", ")
}

func pluralDo(n int) string {
	if n == 1 {
		return "does"
	}
	return "do"
}
