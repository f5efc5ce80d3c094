package query

import (
	"regexp"
	"slices"
	"strings"

	"github.com/cewhq/cew/pipeline/guard"
	"github.com/cewhq/cew/store/analysis"
)

// respellCodes writes a model number the way the index does when the
// question spaces or hyphenates it otherwise: "gs 4048a" and "kc-158g"
// become "gs4048a" and "kc158g" when the index holds those (or a longer
// number the spaced one begins, "gs 4048" → "gs4048" of "gs4048a"), and
// hyphens are compared away ("pvi 5000-208" → "pvi-5000-208"). A number
// the question joins and the document spaces is split back only when the
// index holds both parts, the letters as a word and the rest as a model
// number ("sc1850-us" → "sc 1850-us" of "SC 1850-US"); "gt4000" for "GT
// 4000" stays as typed: a bare number is in every row's values, and
// splitting an unknown model number would let its digits match another
// model's. Without a speller (no vocabulary) nothing changes.
func respellCodes(text string, s *Speller) (string, []Correction) {
	if s == nil {
		return text, nil
	}
	return replaceSpans(text, func(i int, toks []analysis.Token) (string, int) {
		if n, to := spacedCode(text, toks[i:], s); n > 0 {
			return to, n
		}
		t := toks[i]
		if t.Kind != analysis.Identifier || len(t.Text) < minCodeLen {
			return "", 1
		}
		if _, known := s.freq[t.Text]; known {
			return "", 1
		}
		// "kc-158g" for "kc158g", "sb7000tlus22" for "sb7000tl-us-22":
		// the same letters and digits.
		to, ok := s.Code(t.Text)
		if ok && compactCode(to) == compactCode(t.Text) {
			if to == t.Text {
				// "tl3000-us" begins the index's "TL3000-US-208": it is
				// that model number cut short, not "tl" and "3000-us".
				return "", 1
			}
			return to, 1
		}
		if to, ok := splitPrefix(t.Text, s); ok {
			return to, 1
		}
		if to, ok := mistyped(t.Text, s); ok {
			return to, 1
		}
		return "", 1
	})
}

// minMistypedLen is how long a model number must be to be read as a
// mistyped one of the index: a short one is one keystroke from many.
const minMistypedLen = 6

// mistyped returns the index's model number that code, which the index
// does not hold, is one slip of the keyboard from: a letter O typed for a
// zero beside digits ("fso970pu" for "FS0970PU", and the other way about),
// or two letters swapped ("ase-300-dfg" for "ASE-300-DGF"). ok is false
// when no reading, or more than one, is a whole model number of the index:
// a digit is never changed for another, so no other model is made of it.
func mistyped(code string, s *Speller) (string, bool) {
	if len(code) < minMistypedLen {
		return "", false
	}
	var found []string
	try := func(v string) {
		if to, ok := s.Code(v); ok && compactCode(to) == compactCode(v) && !slices.Contains(found, to) {
			found = append(found, to)
		}
	}
	b := []byte(code)
	digit := func(i int) bool { return i >= 0 && i < len(b) && b[i] >= '0' && b[i] <= '9' }
	letter := func(i int) bool { return i >= 0 && i < len(b) && b[i] >= 'a' && b[i] <= 'z' }
	for i := range b {
		switch {
		case b[i] == 'o' && (digit(i-1) || digit(i+1)):
			try(code[:i] + "0" + code[i+1:])
		case b[i] == '0' && letter(i-1) && letter(i+1):
			try(code[:i] + "o" + code[i+1:])
		}
		if letter(i) && letter(i+1) && b[i] != b[i+1] {
			try(code[:i] + string(b[i+1]) + string(b[i]) + code[i+2:])
		}
	}
	if len(found) != 1 {
		return "", false
	}
	return found[0], true
}

// spacedCode returns how many tokens at the head of toks, two or three
// written one space or hyphen apart (one space at least) and holding a
// digit, spell a model number of the index together, and its spelling
// there; 0 when none do. Three parts, or two that are not letters spaced
// off a number, must spell a whole number written with hyphens
// ("sb7000tl us 22" → "sb7000tl-us-22", "2.9 he-t" → "2.9he-t") or a
// number with its letters spaced off ("10.0 tl3" → "10.0tl3"); a few
// letters spaced off a number ("gs 4048a", "gs 4048", "pvi 5000-208") may
// spell its beginning too.
func spacedCode(text string, toks []analysis.Token, s *Speller) (int, string) {
	for n := min(maxSpacedParts, len(toks)); n >= 2; n-- {
		var joined strings.Builder
		digit, spaced := false, false
		for k, t := range toks[:n] {
			sep := ""
			if k > 0 {
				sep = text[toks[k-1].End:t.Start]
			}
			if k > 0 && sep != " " && sep != "-" || t.Kind == analysis.Symbol {
				joined.Reset()
				break
			}
			spaced = spaced || sep == " "
			joined.WriteString(t.Text)
			digit = digit || strings.ContainsAny(t.Text, "0123456789")
		}
		if joined.Len() < minCodeLen || !digit || !spaced {
			continue
		}
		to, ok := s.Code(joined.String())
		if !ok || strings.HasPrefix(to, "-") {
			// "240 v" is a voltage, not the index's "-240v" (the end of
			// "208-240V" in a model name): no model number starts with
			// a hyphen.
			continue
		}
		if tail := hyphenatedTail(text, toks, n); tail != "" {
			if _, ok := s.Code(joined.String() + tail); !ok {
				// "pvi 3.0 outd-s-us-z-m-a" goes on past the index's
				// "PVI-3.0-OUTD-S-US": it is another model, which the
				// index writes spaced as the question does; no part of
				// it is respelled.
				return 0, ""
			}
		}
		lettersThenNumber := n == 2 && toks[0].Kind == analysis.Word && len(toks[0].Text) <= maxCodePrefix &&
			toks[1].Kind != analysis.Word && startsWithDigit(toks[1].Text)
		whole := compactCode(to) == compactCode(joined.String())
		// "10.0 tl3" is the index's "10.0tl3": a number with its letters
		// spaced off, the whole model number and no more.
		numberThenLetters := n == 2 && toks[0].Kind == analysis.Number && !startsWithDigit(toks[1].Text) && s.freq[to] > 0
		if lettersThenNumber && s.freq[to] > 0 && toks[1].Kind == analysis.Number && s.freq[toks[0].Text] > s.freq[to] {
			// "ig plus 11.4-1 uni 208": the index holds "uni208" whole
			// (one row's "uni208)" for the others' "uni(208)") but writes
			// "uni" as a word of its own more often; a model number the
			// index only begins with ("pvi 15" of "PVI15kW-208") is
			// joined.
			continue
		}
		if lettersThenNumber || numberThenLetters || whole && strings.ContainsAny(to, "-_") {
			return n, to
		}
	}
	return 0, ""
}

// spacedIndexCodes returns the model numbers of the index that text writes
// with their letters spaced off and that were left so: "pv110" of
// "kyocera pv 110" (see spacedCode). Without a speller it returns none.
func spacedIndexCodes(text string, s *Speller) []string {
	if s == nil {
		return nil
	}
	var out []string
	toks := analysis.Tokens(text)
	for _, i := range guard.SpacedModels(text, toks) {
		if joined := toks[i].Text + toks[i+1].Text; s.freq[joined] > 0 && !slices.Contains(out, joined) {
			out = append(out, joined)
		}
	}
	return out
}

// hyphenatedTail returns the tokens after the first n of toks that hang
// on them by hyphens, run together ("susz" of "outd-s-us-z"); "" when the
// next token stands apart.
func hyphenatedTail(text string, toks []analysis.Token, n int) string {
	var tail strings.Builder
	for k := n; k < len(toks) && text[toks[k-1].End:toks[k].Start] == "-"; k++ {
		tail.WriteString(toks[k].Text)
	}
	return tail.String()
}

// maxSpacedParts is the most parts of a model number typed with spaces
// that are put back together.
const maxSpacedParts = 3

// A model number's letter prefix spaced off its digits is at most four
// letters ("gs 4048a", "kc 158g"), and a respelled number at least four
// characters long.
const (
	maxCodePrefix = 4
	minCodeLen    = 4
)

func startsWithDigit(s string) bool { return s != "" && s[0] >= '0' && s[0] <= '9' }

// splitPrefix returns a model number the question joins and the index
// writes spaced, split the index's way: a few letters, then a model number
// the index holds that is more than digits ("sc1850-us" → "sc 1850-us").
func splitPrefix(code string, s *Speller) (string, bool) {
	i := strings.IndexFunc(code, func(r rune) bool { return r < 'a' || r > 'z' })
	if i < 1 || i > maxCodePrefix || !startsWithDigit(code[i:]) {
		return "", false
	}
	letters, rest := code[:i], code[i:]
	if s.freq[letters] == 0 || s.freq[rest] == 0 || strings.Trim(rest, "0123456789.,") == "" {
		return "", false
	}
	return letters + " " + rest, true
}

// sideSuffix is a model number set against another written as the tail the
// two differ by: "ae-100-60-pv-a vs -pv-f". The tail holds a letter: "and
// -25" after a model number is a temperature.
var sideSuffix = regexp.MustCompile(`(?i)\b([a-z0-9][a-z0-9.]*(?:-[a-z0-9.]+)+)(\s+(?:vs\.?|versus|or|and|&)\s+)(-[a-z0-9.-]*[a-z][a-z0-9.-]*)(?:$|[^a-z0-9.-])`)

// spellSides writes out a model number given as the tail it differs by
// from the one it is set against: "ae-100-60-pv-a vs -pv-f" names the
// AE-100-60-PV-F, the first number with its last parts replaced by as many
// as the tail has. A tail of as many parts as the first number, or more,
// stays as typed; a question sets one such pair.
func spellSides(text string) (string, []Correction) {
	m := sideSuffix.FindStringSubmatchIndex(text)
	if m == nil {
		return text, nil
	}
	first, tail := text[m[2]:m[3]], text[m[6]:m[7]]
	parts, tailParts := strings.Split(first, "-"), strings.Count(tail, "-")
	if tailParts >= len(parts) {
		return text, nil
	}
	to := strings.Join(parts[:len(parts)-tailParts], "-") + tail
	return text[:m[6]] + to + text[m[7]:], []Correction{{From: tail, To: to}}
}
