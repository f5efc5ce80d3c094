package guard

import (
	"math/big"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/cewhq/cew/store"
	"github.com/cewhq/cew/store/analysis"
)

// evidence is one chunk analysed once for every check that reads it. Title,
// document number, section and sheet are part of it: an answer may name the
// document it quotes.
type evidence struct {
	// text is the lower-cased chunk with whitespace collapsed, for phrase
	// checks (hedges and compliance words quoted from the document).
	text string
	// terms holds every index term (stems, numbers, identifiers and their
	// parts) and every folded surface word, so both "trenches" and "trench"
	// match.
	terms map[string]struct{}
	// trigrams holds consecutive term triples, stopwords included.
	trigrams map[[3]string]struct{}
	// quantities are the numbers and codes of the chunk.
	quantities []quantity
	// codes holds the compact form of every token, and of every token
	// followed by a number, so "SB7000TL-US-22" matches "SB7000TLUS22"
	// and "Inverter-42" matches "Inverter 42".
	codes map[string]struct{}
	// codeEnds holds the compact form of every beginning and end of an
	// identifier cut at a separator, so a shortened model name
	// ("SB7000TL-US-22") matches its longer form ("SB7000TL-US-22-208V").
	codeEnds map[string]struct{}
	// looseUnits are units written apart from any number, such as a
	// spreadsheet header's "(W)": a bare number in the same chunk may
	// carry them.
	looseUnits map[string]struct{}
	// negated is set when the chunk has a negating word anywhere.
	negated bool
	// sequence is the chunk's terms in order (see termSequence), and
	// negatedRuns the terms around each of its negations without it.
	sequence    string
	negatedRuns []negatedRun
}

func newEvidence(c store.Chunk) *evidence {
	full := strings.Join([]string{c.Text, c.Title, c.DocNumber, c.Section, c.Sheet}, "\n")
	ev := &evidence{
		text:       strings.Join(strings.Fields(strings.ToLower(full)), " "),
		terms:      make(map[string]struct{}),
		trigrams:   make(map[[3]string]struct{}),
		codes:      make(map[string]struct{}),
		codeEnds:   make(map[string]struct{}),
		looseUnits: make(map[string]struct{}),
	}
	for _, t := range analysis.Terms(full) {
		ev.terms[t] = struct{}{}
	}
	toks := analysis.Tokens(full)
	var prevQuantityEnd = -1
	for i, t := range toks {
		ev.terms[t.Text] = struct{}{}
		ev.terms[t.Term] = struct{}{}
		ev.codes[compact(t.Text)] = struct{}{}
		ev.negated = ev.negated || isNegation(t.Text)
		if i > 0 && (t.Kind == analysis.Number || toks[i-1].Kind == analysis.Number && t.Kind == analysis.Word) {
			// "Inverter 42" is also the code "inverter42", and a
			// table's "2 Axis" column the "2-axis" a question names.
			ev.codes[compact(toks[i-1].Text)+compact(t.Text)] = struct{}{}
		}
		if code := spacedSuffix(full, toks, i); code != "" {
			ev.codes[code] = struct{}{}
		}
		if i >= 2 {
			ev.trigrams[[3]string{toks[i-2].Term, toks[i-1].Term, t.Term}] = struct{}{}
		}
		if t.Kind == analysis.Identifier {
			addCodeEnds(ev.codeEnds, t.Text)
		}
		if t.Kind == analysis.Number || t.Kind == analysis.Identifier {
			prevQuantityEnd = t.End
			continue
		}
		if u, ok := unitOf(full, t); ok && (prevQuantityEnd < 0 || !adjacent(full, prevQuantityEnd, t.Start)) {
			ev.looseUnits[u] = struct{}{}
		}
	}
	for i := 0; i < len(toks); {
		q, next := quantityAt(full, toks, i)
		if q.isQuantity() {
			ev.quantities = append(ev.quantities, q)
		}
		i = next
	}
	ev.quantities = append(ev.quantities, numberWords(full, toks)...)
	ev.sequence = termSequence(full, toks)
	ev.negatedRuns = negatedRuns(full, toks)
	return ev
}

// spacedSuffix returns the code a number and the hyphenated letters after
// it make, as a question writes it run together: "4301 S-A" is "4301sa".
// It returns "" unless toks[i] is a number followed by a space and a run of
// one- or two-letter words joined by hyphens.
func spacedSuffix(text string, toks []analysis.Token, i int) string {
	j := i + 1
	if toks[i].Kind != analysis.Number || j >= len(toks) || text[toks[i].End:toks[j].Start] != " " {
		return ""
	}
	short := func(t analysis.Token) bool { return t.Kind == analysis.Word && len(t.Text) <= 2 }
	if !short(toks[j]) {
		return ""
	}
	k := j + 1
	for k < len(toks) && text[toks[k-1].End:toks[k].Start] == "-" && short(toks[k]) {
		k++
	}
	if k == j+1 {
		return ""
	}
	code := compact(toks[i].Text)
	for _, t := range toks[j:k] {
		code += compact(t.Text)
	}
	return code
}

// addCodeEnds adds the compact forms of the separator-delimited beginnings
// and ends of an identifier: "sb7000tl-us-22-208v" gives "sb7000tl",
// "sb7000tlus", "sb7000tlus22" and "208v", "22208v", "us22208v".
func addCodeEnds(dst map[string]struct{}, ident string) {
	for _, end := range analysis.Ends(ident) {
		if c := compact(end); len(c) >= minCodeEnd {
			dst[c] = struct{}{}
		}
	}
}

// minCodeEnd is the shortest part of an identifier that matches on its own:
// "us" or "22" alone name nothing.
const minCodeEnd = 5

// hasTerm reports whether the chunk has a token with term or surface w.
func (ev *evidence) hasTerm(w string) bool {
	_, ok := ev.terms[w]
	return ok
}

// hasQuantity reports whether the chunk states q: the same code, or the
// same number with the same unit. A number written with a unit matches the
// chunk's bare number only when that unit also appears in the chunk on its
// own (a table header "Paco (W)" over "7000"); "800 mm" never matches
// "800 m".
func (ev *evidence) hasQuantity(q quantity) bool {
	if q.Code != "" {
		if _, ok := ev.codes[q.Code]; ok {
			return true
		}
		_, ok := ev.terms[strings.ToLower(q.Text)]
		return ok
	}
	for _, e := range ev.quantities {
		if e.Num == "" {
			continue
		}
		if !sameNumber(q.Num, e.Num) {
			if samePercent(q, e) {
				return true
			}
			continue
		}
		switch {
		case q.Unit == "" || q.Unit == e.Unit:
			return true
		case e.Unit == "":
			if _, ok := ev.looseUnits[q.Unit]; ok {
				return true
			}
		}
	}
	return false
}

// samePercent reports whether one of a and b is a percentage and the other
// the same value as a bare fraction: "96 %" and "0.96" state one number, as
// "14 %" and "0.14" do. Any other unit on either side is a different
// quantity, and a percentage that is no plain decimal ("±10 %") has no
// fraction to compare.
func samePercent(a, b quantity) bool {
	switch {
	case a.Unit == "%" && b.Unit == "":
		f := percentAsFraction(a.Num)
		return f != "" && sameNumber(f, b.Num)
	case a.Unit == "" && b.Unit == "%":
		f := percentAsFraction(b.Num)
		return f != "" && sameNumber(a.Num, f)
	}
	return false
}

// percentAsFraction divides a canonical number by 100 exactly ("96" →
// "0.96"); it returns "" for what is not a plain decimal.
func percentAsFraction(num string) string {
	r, ok := new(big.Rat).SetString(num)
	if !ok || strings.ContainsAny(num, ":±") {
		return ""
	}
	r.Quo(r, big.NewRat(100, 1))
	return canonicalNumber(r.FloatString(12))
}

// sameNumber compares canonical numbers. An unsigned number in the answer
// matches a signed one in the chunk ("decreases by 0.35 %/°C" quotes
// "-0.35 %/°C"); a signed one must match its sign.
func sameNumber(answer, chunk string) bool {
	if answer == chunk {
		return true
	}
	if answer == "" {
		return false
	}
	if answer[0] != '-' && !strings.HasPrefix(answer, "±") {
		return strings.TrimLeft(chunk, "-±") == answer
	}
	return false
}

// contentToken is a word, number or code of a claim that evidence must
// support.
type contentToken struct {
	analysis.Token
	// Proper is set for a word that is probably a name: capitalised and not
	// the sentence's first word, or first and followed by another
	// capitalised word ("Westchester County"). A name the cited chunks
	// never mention is the surest sign of an invented fact.
	Proper bool
}

// contentTokens returns the tokens of claim that carry content: words that
// are not stopwords (and longer than one letter), numbers and codes.
func contentTokens(claim string) []contentToken {
	var out []contentToken
	toks := analysis.Tokens(claim)
	for i, t := range toks {
		if t.Kind == analysis.Symbol {
			continue
		}
		if t.Kind == analysis.Word && (analysis.IsStopword(t.Text) || utf8.RuneCountInString(t.Text) < 2 || isFramingWord(t.Term)) {
			continue
		}
		proper := t.Kind == analysis.Word && capitalised(claim[t.Start:])
		if i == 0 {
			// A sentence starts with a capital anyway; its first word is a
			// name only when it has more capitals ("ABB", "PVWatts") or the
			// next word is capitalised too ("Westchester County").
			proper = proper && (capitals(claim[t.Start:t.End]) > 1 ||
				len(toks) > 1 && toks[1].Kind == analysis.Word && capitalised(claim[toks[1].Start:]))
		}
		out = append(out, contentToken{Token: t, Proper: proper})
	}
	return out
}

// claimTrigrams returns the term triples of claim, stopwords included.
func claimTrigrams(claim string) [][3]string {
	toks := analysis.Tokens(claim)
	if len(toks) < 3 {
		return nil
	}
	out := make([][3]string, 0, len(toks)-2)
	for i := 2; i < len(toks); i++ {
		out = append(out, [3]string{toks[i-2].Term, toks[i-1].Term, toks[i].Term})
	}
	return out
}

// isFramingWord reports words (by stem) with which an answer attributes a
// statement to its source rather than stating a fact: "The manual states
// that…", "According to Table 3, …". A paraphrase needs them; the chunk
// need not contain them.
func isFramingWord(term string) bool {
	switch term {
	case "accord", "state", "specifi", "say", "said", "indic", "show", "list", "mention", "describ",
		"note", "document", "manual", "sourc", "passag", "section", "page", "tabl", "sheet", "row",
		"refer", "provid", "given", "give", "report":
		return true
	}
	return false
}

func capitals(s string) int {
	n := 0
	for _, r := range s {
		if unicode.IsUpper(r) {
			n++
		}
	}
	return n
}

func capitalised(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsUpper(r)
}
