package guard

import (
	"maps"
	"strings"
	"unicode"

	"github.com/cewhq/cew/store/analysis"
)

// Supposed returns the positions of the tokens of what a question supposes
// rather than asks: a clause after the question's first that opens — after
// a comma, a question mark, a full stop or a dash — with a word of belief
// or doubt, perhaps after who holds it ("… paco and night tare? i think it
// drops below 5 kw at 208", "… (table 1)? i thought it was still running",
// "…, mike reckons 7700", "…? pretty sure it's 7700", "…? want to be sure
// im not reading the 315e row", "…, correct me if wrong"), or a clause that
// is nothing but "is that right" ("… uid 803 - is that right?"; "is it true
// the neshap …" asks). A question that opens with what it supposes ("i
// think the paco is 7000 - right?") asks about that. The clause runs to its
// end (brackets do not end it: "i think the 1999 (E) and 2003 (E) rows only
// differ in c4"), or to a question word that opens a question of its own;
// "not sure how far" keeps its "how". Its values and words are the
// asker's, not what the answer must state: the 5 kW of the first is no key
// term, and its "how far" asks for no length. It returns nil when nothing
// is supposed.
//
// What the question reports as said elsewhere is supposed too: a value an
// earlier answer, a datasheet or a colleague gave ("you said earlier the
// trackers rotate to ±60° but…", "per the datasheet it is about 1800 lb",
// see claimedValues) — the asker doubts it and wants the document's — and
// a clause in brackets that tells the asker's situation ("(site still has
// 14 of the old pv30s)", see contextBrackets).
func Supposed(text string, toks []analysis.Token) map[int]bool {
	gap := func(i int) string { return text[toks[i-1].End:toks[i].Start] }
	out := claimedValues(text, toks)
	if br := contextBrackets(text, toks); out == nil {
		out = br
	} else {
		maps.Copy(out, br)
	}
	for i := 1; i < len(toks); i++ {
		if !strings.ContainsAny(gap(i), ",.;:?!(") && !DashBreak(gap(i)) && toks[i-1].Text != "but" {
			continue
		}
		n := beliefAt(toks, gap, i)
		if n == 0 {
			continue
		}
		end := i + n
		for end < len(toks) && !strings.ContainsAny(gap(end), ",.;:?!") && !DashBreak(gap(end)) &&
			!(questionWords[toks[end].Text] && !embedsQuestion[toks[end-1].Text]) {
			end++
		}
		out = marked(out, i, end)
		i = end - 1
	}
	return out
}

// claimedValues returns the positions of the values a clause reports as
// said elsewhere: the clause opens with an earlier answer ("you said
// earlier", "you mentioned"), a document of the asker's saying something
// ("our inverter datasheet says", "the nameplate shows") or a source named
// ("per the datasheet", "according to the vendor"), and runs to the next
// comma, full stop, dash or "but". The words that open it are claimed, and
// of the rest only a value the clause predicates ("… rotate to ±60°", "is
// about 1800 lb", "says 98.5 %"): "the evsk2340wg (240v)" names the
// variant asked about.
func claimedValues(text string, toks []analysis.Token) map[int]bool {
	var out map[int]bool
	for i := 0; i < len(toks); i++ {
		if i > 0 && !strings.ContainsAny(text[toks[i-1].End:toks[i].Start], ",.;:?!(") && !DashBreak(text[toks[i-1].End:toks[i].Start]) {
			continue
		}
		n := claimAt(toks, i)
		if n == 0 {
			continue
		}
		// Brackets end the clause only when it opened in them: "you said
		// the evsk2340wg (240v) tops out at -45 °C" goes on past "(240v)".
		stops := ",.;:?!"
		if i > 0 && strings.Contains(text[toks[i-1].End:toks[i].Start], "(") {
			stops += ")"
		}
		// The words that say who said it are the asker's too: "you said
		// earlier", "per the datasheet".
		for n < 4 && i+n < len(toks) && claimTimes[toks[i+n].Text] {
			n++
		}
		for k := i; k < i+n; k++ {
			// Not the words between: "the sb7000 datasheet says"
			// names the model asked about.
			if openerWords[toks[k].Text] {
				out = marked(out, k, k+1)
			}
		}
		end := i + n
		for end < len(toks) && toks[end].Text != "but" && !strings.ContainsAny(text[toks[end-1].End:toks[end].Start], stops) &&
			!DashBreak(text[toks[end-1].End:toks[end].Start]) {
			end++
		}
		for k := i + n; k < end; k++ {
			if !predicates[toks[k-1].Text] && !(k >= 2 && predicates[toks[k-2].Text] && approximators[toks[k-1].Text]) {
				continue
			}
			q, next := quantityAt(text, toks, k)
			if q.Num == "" && !signedFigure(toks[k].Text) || UnitDimension(q.Unit) == DimVoltage {
				// "per the datasheet the sb7000 is 7 kw at 240 v": a
				// voltage names the variant the claim is about.
				continue
			}
			out = marked(out, k, next)
			k = next - 1
		}
		i = end - 1
	}
	return out
}

// marked adds the positions from..to-1 to out, made when nil.
func marked(out map[int]bool, from, to int) map[int]bool {
	if out == nil {
		out = map[int]bool{}
	}
	for k := from; k < to; k++ {
		out[k] = true
	}
	return out
}

// signedFigure reports whether a token is a figure with a sign the
// tokeniser keeps as an identifier: "±60°", "~98.5%".
func signedFigure(tok string) bool {
	rest := strings.TrimLeft(tok, "±~≈<>")
	return rest != tok && rest != "" && unicode.IsDigit(rune(rest[0])) && !strings.ContainsFunc(rest, unicode.IsLetter)
}

// claimAt returns how many tokens at toks[i] open a claim (see
// claimedValues), or 0.
func claimAt(toks []analysis.Token, i int) int {
	at := func(k int) string {
		if k < len(toks) {
			return toks[k].Text
		}
		return ""
	}
	if at(i) == "you" && answerVerbs[at(i+1)] {
		return 2
	}
	if at(i) == "per" || at(i) == "according" && at(i+1) == "to" {
		k := i + 1
		if at(i) == "according" {
			k++
		}
		for ; k < i+4; k++ {
			if claimSources[at(k)] {
				return k + 1 - i
			}
		}
		return 0
	}
	// "our central inverter datasheet says", "the nameplate shows".
	for k := i; k < i+5 && k+1 < len(toks); k++ {
		if claimSources[at(k)] && sourceVerbs[at(k+1)] {
			return k + 2 - i
		}
	}
	return 0
}

// contextBrackets returns the positions of the words of a bracketed clause
// of three words or more with a verb of the asker's situation in it: "(site
// still has 14 of the old pv30s)", "(our datasheet says 98.5 %, ignore
// that)", or what the asker already knows ("(sunrise one i get)", "(i
// know the dc one)"). Its numbers and names describe the job, not the
// answer.
func contextBrackets(text string, toks []analysis.Token) map[int]bool {
	var out map[int]bool
	for i := 0; i < len(toks); i++ {
		if i == 0 && !strings.HasSuffix(text[:toks[0].Start], "(") || i > 0 && !strings.Contains(text[toks[i-1].End:toks[i].Start], "(") {
			continue
		}
		end, verb, questioned := i, false, false
		for ; end < len(toks); end++ {
			if end > i && strings.ContainsAny(text[toks[end-1].End:toks[end].Start], "()") {
				break
			}
			verb = verb || contextVerbs[toks[end].Text] || end > i && knowVerbs[toks[end].Text] && askerWords[toks[end-1].Text]
			questioned = questioned || questionWords[toks[end].Text]
		}
		if end-i < 3 || !verb || questioned || !strings.HasPrefix(strings.TrimSpace(text[toks[end-1].End:]), ")") {
			continue
		}
		out = marked(out, i, end)
		i = end - 1
	}
	return out
}

var (
	// answerVerbs after "you" report what an earlier answer said.
	answerVerbs = map[string]bool{"said": true, "say": true, "mentioned": true, "told": true, "wrote": true, "quoted": true,
		"gave": true, "answered": true, "stated": true, "claimed": true, "replied": true}
	// openerWords open a claim (see claimAt) and are the asker's.
	openerWords = func() map[string]bool {
		out := map[string]bool{"you": true, "per": true, "according": true, "to": true, "the": true, "our": true, "their": true}
		for _, m := range []map[string]bool{answerVerbs, claimTimes, claimSources, sourceVerbs} {
			for w := range m {
				out[w] = true
			}
		}
		return out
	}()
	// claimTimes say when an earlier answer said it.
	claimTimes = map[string]bool{"earlier": true, "before": true, "yesterday": true, "previously": true, "above": true,
		"me": true, "us": true}
	// claimSources are where a claimed value may come from besides the
	// documents asked: otherSourceSays's sources (see SetAside) but for
	// the documents themselves ("cec", "sandia", "manual", "guide"),
	// which a question names as what it asks ("per the manual, …").
	claimSources = map[string]bool{"datasheet": true, "datasheets": true, "nameplate": true, "label": true, "vendor": true,
		"manufacturer": true, "submittal": true, "brochure": true, "catalog": true, "catalogue": true, "spec": true, "specs": true}
	// sourceVerbs say what such a source states, as SetAside's sayVerbs
	// do, and in the past tense too ("the label said").
	sourceVerbs = map[string]bool{"says": true, "said": true, "shows": true, "lists": true, "states": true, "gives": true,
		"quotes": true, "has": true, "reads": true}
	// predicates come right before a value a clause claims: "rotate to
	// ±60°", "tops out at -45 °C", "is about 1800 lb".
	predicates = map[string]bool{"at": true, "to": true, "is": true, "was": true, "be": true, "says": true,
		"said": true, "shows": true, "lists": true, "gives": true, "reads": true, "states": true, "about": true,
		"around": true, "roughly": true, "approximately": true}
	approximators = map[string]bool{"about": true, "around": true, "roughly": true, "approximately": true, "only": true, "just": true}
	// contextVerbs tell the asker's situation in brackets.
	contextVerbs = map[string]bool{"has": true, "have": true, "had": true, "says": true, "said": true, "shows": true,
		"ignore": true, "got": true, "installed": true, "ordered": true, "bought": true}
	// knowVerbs after "i" or "we" tell in brackets what the asker already
	// has understood.
	knowVerbs  = map[string]bool{"get": true, "know": true, "understand": true, "follow": true}
	askerWords = map[string]bool{"i": true, "we": true}
)

// beliefAt returns how many tokens at toks[i] say that what follows is
// believed or doubted ("i think", "dave reckons", "pretty sure"), or 0.
func beliefAt(toks []analysis.Token, gap func(int) string, i int) int {
	at := func(k int) string {
		if k < len(toks) {
			return toks[k].Text
		}
		return ""
	}
	switch w := at(i); {
	case believers[w] && beliefVerbs[at(i+1)]:
		return 2
	case believers[w] && (at(i+1) == "am" || at(i+1) == "are" || at(i+1) == "was") && sureWords[at(i+2)] && at(i+3) != "what":
		return 3
	case (w == "im" || w == "i'm" || w == "we're") && sureWords[at(i+1)]:
		return 2
	case (w == "pretty" || w == "fairly" || w == "not" || w == "quite") && sureWords[at(i+1)]:
		return 2
	case i+1 < len(toks) && toks[i].Kind == analysis.Word && !questionWords[w] && !articles[w] && thirdPersonBelief[at(i+1)]:
		// "mike reckons", "dave thinks": a colleague's belief.
		return 2
	}
	if (at(i) == "that" || at(i) == "which" || at(i) == "this" || at(i) == "it") && doubtNegations[at(i+1)] && doubtVerbs[at(i+2)] {
		// "… but that doesn't match what i remember", "…, which can't be
		// right": the asker doubts what was said.
		return 3
	}
	if at(i) == "correct" && at(i+1) == "me" {
		// "…, correct me if wrong".
		return 2
	}
	if (at(i) == "is" || at(i) == "was") && (at(i+1) == "that" || at(i+1) == "this" || at(i+1) == "it") && rightWords[at(i+2)] &&
		(i+3 == len(toks) || strings.ContainsAny(gap(i+3), ",.;:?!") || DashBreak(gap(i+3))) {
		// "… uid 803 - is that right?": whether what the question
		// says is so, which the value found answers.
		return 3
	}
	// "want to be sure", "just double checking", "making sure": why the
	// asker asks.
	for k := i; k < len(toks) && k < i+5; k++ {
		switch w := at(k); {
		case checkWords[w]:
			return k + 1 - i
		case !checkFillers[w] && !believers[w] && w != "im" && w != "i'm":
			return 0
		}
	}
	return 0
}

var (
	// believers are who may hold a belief a question reports.
	believers = map[string]bool{"i": true, "we": true, "they": true}
	// beliefVerbs say that what follows is believed, not known.
	beliefVerbs = map[string]bool{"think": true, "thought": true, "guess": true, "bet": true, "suspect": true,
		"believe": true, "believed": true, "assume": true, "assumed": true, "reckon": true, "figured": true,
		"remember": true, "recall": true}
	// thirdPersonBelief is a colleague's: "dave reckons".
	thirdPersonBelief = map[string]bool{"thinks": true, "reckons": true, "believes": true, "figures": true,
		"reckoned": true, "assumes": true, "claims": true, "swears": true}
	// doubtNegations and doubtVerbs doubt what was said: "that doesn't
	// match", "which can't be right".
	doubtNegations = map[string]bool{"doesn't": true, "can't": true, "cannot": true, "don't": true, "isn't": true,
		"wasn't": true, "didn't": true, "won't": true}
	doubtVerbs = map[string]bool{"match": true, "be": true, "look": true, "seem": true, "sound": true, "add": true,
		"agree": true, "right": true, "tally": true, "square": true}
	sureWords = map[string]bool{"sure": true, "certain": true, "positive": true}
	// rightWords ask whether something said is so: "is that right".
	rightWords = map[string]bool{"right": true, "correct": true, "accurate": true, "true": true}
	// checkWords, after checkFillers only, say the asker checks something;
	// "need to check its paco" asks for it.
	checkWords   = map[string]bool{"sure": true, "checking": true, "confirming": true, "verifying": true}
	checkFillers = map[string]bool{"want": true, "wanted": true, "need": true, "needed": true, "just": true, "to": true,
		"be": true, "make": true, "making": true, "double": true, "sanity": true, "only": true}
	// embedsQuestion before a question word makes it part of a doubt
	// ("not sure how far"), not a question of its own.
	embedsQuestion = map[string]bool{"sure": true, "know": true, "certain": true, "idea": true, "wondering": true}
)

// WithoutSupposed returns text with what it supposes (see Supposed)
// blanked out.
func WithoutSupposed(text string) string {
	toks := analysis.Tokens(text)
	return blankTokens(text, toks, Supposed(text, toks))
}

// Related returns the positions of the words a coefficient the question
// names relates: the six after "coefficient relating" (or "factor
// linking", "constants tying", "coefficients that tie" …) — "the
// coefficient relating vmp to effective irradiance" asks for the
// coefficient, not for Vmp or an irradiance. It returns nil when the
// question names none.
func Related(toks []analysis.Token) map[int]bool {
	var out map[int]bool
	for j := 0; j+1 < len(toks); j++ {
		if !coefficientNouns[toks[j].Text] {
			continue
		}
		verb := j + 1
		if relativeWords[toks[verb].Text] && verb+1 < len(toks) && relateVerbs[toks[verb+1].Text] {
			verb++ // "the coefficients that tie module temp to wind speed"
		} else if !relatingVerbs[toks[verb].Text] {
			continue
		}
		if out == nil {
			out = map[int]bool{}
		}
		for k := verb + 1; k < len(toks) && k < verb+7; k++ {
			out[k] = true
		}
	}
	return out
}

var (
	coefficientNouns = map[string]bool{"coefficient": true, "coefficients": true, "coeff": true, "coeffs": true, "factor": true,
		"factors": true, "parameter": true, "parameters": true, "constant": true, "constants": true, "exponent": true, "exponents": true}
	relatingVerbs = map[string]bool{"relating": true, "linking": true, "tying": true, "connecting": true}
	// relateVerbs say the same after "that" or "which".
	relateVerbs = map[string]bool{"relate": true, "relates": true, "link": true, "links": true, "tie": true, "ties": true,
		"connect": true, "connects": true}
	relativeWords = map[string]bool{"that": true, "which": true}
)
