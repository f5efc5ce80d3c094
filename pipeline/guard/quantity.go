package guard

import (
	"strconv"
	"strings"
	"unicode"

	"github.com/cewhq/cew/store/analysis"
)

// quantity is a number (with its unit when one follows it) or a code with
// digits in it (a drawing or model number), as written in a text. These are
// what a construction answer must never get wrong, so the guards match them
// exactly rather than by word overlap.
type quantity struct {
	// Text is the surface as written: "800 mm", "1,500", "SB7000TL-US-22".
	Text string
	// Num is the number as a plain decimal string ("1500", "-0.35"); empty
	// for a code.
	Num string
	// Unit is the canonical unit ("mm", "%", "kwh/m2"); empty when the
	// number stands alone.
	Unit string
	// Code is the compact lower-case form of an identifier ("sb7000tlus22");
	// empty for a number.
	Code string
	// start and end are the byte offsets of Text.
	start, end int
}

// quantities returns the numbers and codes in text, in order.
func quantities(text string) []quantity {
	toks := analysis.Tokens(text)
	var out []quantity
	for i := 0; i < len(toks); {
		q, next := quantityAt(text, toks, i)
		if q.isQuantity() {
			out = append(out, q)
		}
		i = next
	}
	return out
}

// quantityAt reads the quantity that starts at toks[i] (zero when it is
// not one) and returns it with the index of the token after it: a number
// takes the unit that follows it.
func quantityAt(text string, toks []analysis.Token, i int) (quantity, int) {
	t := toks[i]
	switch t.Kind {
	case analysis.Number:
		num, unit := splitPercent(t.Text)
		end, next := t.End, i+1
		if unit == "" && next < len(toks) && adjacent(text, t.End, toks[next].Start) {
			if u, ok := unitOf(text, toks[next]); ok {
				unit, end = u, toks[next].End
				next++
			}
		}
		return quantity{Text: text[t.Start:end], Num: canonicalNumber(num), Unit: unit, start: t.Start, end: end}, next
	case analysis.Identifier:
		q := identifierQuantity(text[t.Start:t.End], t.Text)
		q.start, q.end = t.Start, t.End
		return q, i + 1
	}
	return quantity{}, i + 1
}

// identifierQuantity classifies an identifier token: a number with a unit
// glued to it ("800mm", "-0.35%/°c", "32nd") is a number; a unit with a
// digit ("mm2", "kwh/m2") is not a quantity at all (Num and Code empty);
// anything else is a code.
func identifierQuantity(surface, folded string) quantity {
	if num, rest := leadingNumber(folded); num != "" {
		rest = strings.TrimLeft(rest, "-")
		if u, ok := canonicalUnit(rest); ok {
			return quantity{Text: surface, Num: canonicalNumber(num), Unit: u}
		}
		if isOrdinalSuffix(rest) {
			return quantity{Text: surface, Num: canonicalNumber(num)}
		}
	}
	if _, ok := canonicalUnit(folded); ok {
		return quantity{}
	}
	// "pre-1978", "mid-1990s": a year behind an English prefix is a year.
	if prefix, year, ok := strings.Cut(folded, "-"); ok && yearPrefixes[prefix] {
		if y := strings.TrimSuffix(year, "s"); isPlainYear(y) {
			return quantity{Text: surface, Num: y}
		}
	}
	return quantity{Text: surface, Code: compact(folded)}
}

// yearPrefixes are the words that join a year with a hyphen.
var yearPrefixes = map[string]bool{"pre": true, "post": true, "mid": true, "early": true, "late": true}

// maxSpacedPrefix is how many letters a model number's prefix spaced off
// its digits has at most ("pv 110", "gs 4048").
const maxSpacedPrefix = 4

// SpacedModels returns the positions in toks of the letters that a
// question may have spaced off a model number's digits, one space apart
// ("pv" of "kyocera pv 110"); the number is the token after each. Whether
// the two spell a model is for the index to say (the question analyser
// searches the number whole when the index holds it) and for a passage
// (a row that writes "PV110" names both parts).
func SpacedModels(text string, toks []analysis.Token) []int {
	var out []int
	for i := 0; i+1 < len(toks); i++ {
		w, n := toks[i], toks[i+1]
		if w.Kind == analysis.Word && len(w.Text) <= maxSpacedPrefix && n.Kind == analysis.Number && text[w.End:n.Start] == " " {
			out = append(out, i)
		}
	}
	return out
}

// IsCode reports whether the identifier token t of text names one thing —
// a model, drawing or document number ("SB7000TL-US-22",
// "277-007-D-C-40327") — rather than a number with a unit ("208V"), a
// qualifier ("1-axis", "V5") or a short label: the one kind of token an
// answer must hold as the question writes it.
func IsCode(text string, t analysis.Token) bool {
	if t.Kind != analysis.Identifier || identifierQuantity(text[t.Start:t.End], t.Text).Code == "" {
		return false
	}
	if len(Qualifiers(text[t.Start:t.End])) > 0 || CaseLike(text[t.Start:t.End]) != "" || clockTimes(t.Text) != nil {
		// "1-axis" is a case, and "v1-style" like one; "14:00-15:00" is
		// a time of day.
		return false
	}
	n := 0
	for _, r := range t.Text {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			n++
		}
	}
	return n >= 5
}

// isQuantity reports whether q holds a number or a code.
func (q quantity) isQuantity() bool { return q.Num != "" || q.Code != "" }

// numberWords returns the numbers toks spell in words ("three",
// "twenty-five", "two hundred and fifty") as quantities without a unit, so
// "three cables" is checked against the source like "3 cables". A lone
// "one" is left out: it is a pronoun ("the one nearest") as often as a
// number.
func numberWords(text string, toks []analysis.Token) []quantity {
	var out []quantity
	for i := 0; i < len(toks); {
		if !isNumberWord(toks[i]) {
			i++
			continue
		}
		// A run of number words joined by spaces or hyphens, with "and"
		// after a hundred or a thousand ("two hundred and fifty").
		end := i + 1
		for j := i + 1; j < len(toks) && wordJoined(text, toks[j-1].End, toks[j].Start); j++ {
			if isNumberWord(toks[j]) {
				end = j + 1
				continue
			}
			if toks[j].Text != "and" || numberWordValues[toks[j-1].Text] < 100 {
				break
			}
		}
		run := toks[i:end]
		if len(run) > 1 || run[0].Text != "one" {
			start, end := run[0].Start, run[len(run)-1].End
			out = append(out, quantity{Text: text[start:end], Num: spelledValue(run), start: start, end: end})
		}
		i = end
	}
	return out
}

func isNumberWord(t analysis.Token) bool {
	_, ok := numberWordValues[t.Text]
	return ok && t.Kind == analysis.Word
}

// wordJoined reports whether only a space or a hyphen separates two words.
func wordJoined(text string, end, start int) bool {
	gap := strings.TrimSpace(text[end:start])
	return gap == "" || gap == "-"
}

// spelledValue is the value of a run of number words ("and" skipped), as a
// canonical number.
func spelledValue(run []analysis.Token) string {
	var total, current int64
	for _, t := range run {
		v, ok := numberWordValues[t.Text]
		switch {
		case !ok:
		case v == 100:
			current = max(current, 1) * 100
		case v >= 1000:
			total += max(current, 1) * v
			current = 0
		default:
			current += v
		}
	}
	return strconv.FormatInt(total+current, 10)
}

// numberWordValues are the English number words.
var numberWordValues = map[string]int64{
	"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
	"nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
	"sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30,
	"forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
	"hundred": 100, "thousand": 1_000, "million": 1_000_000, "billion": 1_000_000_000,
}

// adjacent reports whether only spaces (at most two) separate two tokens.
func adjacent(text string, end, start int) bool {
	gap := text[end:start]
	return len(gap) <= 2 && strings.Trim(gap, " \u00a0") == ""
}

// unitOf returns the canonical unit a token spells, if it is one. Single
// capital letters that are also English words or initials count only in
// their unit spelling: "10 A" is ten amperes, "10 a" is not.
func unitOf(text string, t analysis.Token) (string, bool) {
	if t.Kind == analysis.Number {
		return "", false
	}
	switch surface := text[t.Start:t.End]; t.Text {
	case "a", "c", "k", "l":
		if surface != strings.ToUpper(surface) {
			return "", false
		}
	case "in":
		return "", false
	}
	return canonicalUnit(t.Text)
}

func splitPercent(num string) (string, string) {
	for _, sign := range []string{"%", "‰"} {
		if strings.HasSuffix(num, sign) {
			return strings.TrimSuffix(num, sign), sign
		}
	}
	return num, ""
}

// canonicalNumber removes thousands separators and redundant zeros, so
// "1,500", "1500" and "1500.0" compare equal. Ratios ("1:500") stay as
// written.
func canonicalNumber(n string) string {
	n = strings.TrimPrefix(n, "+")
	if strings.Contains(n, ":") {
		return n
	}
	plain := n
	if strings.Contains(n, ",") {
		unsigned := strings.TrimLeft(n, "-±")
		if !groupedNumber(unsigned) {
			return n
		}
		plain = strings.ReplaceAll(n, ",", "")
	}
	if strings.HasPrefix(plain, "±") {
		return plain
	}
	f, err := strconv.ParseFloat(plain, 64)
	if err != nil {
		return n
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// groupedNumber reports whether commas in an unsigned number separate
// thousands ("1,500", "12,345.6") rather than decimals ("1,5").
func groupedNumber(u string) bool {
	parts := strings.Split(strings.SplitN(u, ".", 2)[0], ",")
	if len(parts[0]) < 1 || len(parts[0]) > 3 {
		return false
	}
	for _, p := range parts[1:] {
		if len(p) != 3 {
			return false
		}
	}
	return true
}

// leadingNumber splits a folded token into a leading signed decimal number
// and the rest.
func leadingNumber(t string) (num, rest string) {
	i := 0
	if strings.HasPrefix(t, "-") || strings.HasPrefix(t, "+") {
		i = 1
	}
	j := i
	for j < len(t) && (t[j] >= '0' && t[j] <= '9' || (t[j] == '.' || t[j] == ',') && j > i && j+1 < len(t) && t[j+1] >= '0' && t[j+1] <= '9') {
		j++
	}
	if j == i {
		return "", t
	}
	return t[:j], t[j:]
}

func isOrdinalSuffix(s string) bool {
	switch s {
	case "st", "nd", "rd", "th":
		return true
	}
	return false
}

// Compact folds an identifier or a column name to lower-case letters and
// digits only, as the guards compare codes: the extractive generator
// matches "deltaT" to "delta T" with it.
func Compact(s string) string { return compact(s) }

// compact folds an identifier to lower-case letters and digits only, so
// "277-007-D-C-40327", "277 007 D C 40327" and "277007dc40327" are one code.
func compact(s string) string {
	if isLowerAlnum(s) {
		return s
	}
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// UnitWordDimension returns what a unit written as a word measures
// ("amps", "volts", "kilowatts", "kg"), or "" for any other word. The
// one-letter symbols and "in" are words of their own in a question.
func UnitWordDimension(word string) Dimension {
	if len(word) < 2 || word == "in" {
		return ""
	}
	u, ok := units[word]
	if !ok {
		return ""
	}
	return UnitDimension(u)
}

// canonicalUnit returns the canonical spelling of a (folded) unit, or false
// when s is not one. Compound units ("kwh/m2", "%/°c") are canonical when
// every part is.
func canonicalUnit(s string) (string, bool) {
	if s == "" {
		return "", false
	}
	if u, ok := units[s]; ok {
		return u, true
	}
	if !strings.Contains(s, "/") {
		return "", false
	}
	parts := strings.Split(s, "/")
	for i, p := range parts {
		u, ok := units[p]
		if !ok {
			return "", false
		}
		parts[i] = u
	}
	return strings.Join(parts, "/"), true
}

// units maps unit spellings (as analysis folds them: lower case, NFKC, so
// "mm²" is "mm2") to one canonical form each. It covers what construction
// and PV documents use; a unit missing here only means a number is matched
// without it.
var units = func() map[string]string {
	m := map[string]string{}
	add := func(canon string, spellings ...string) {
		m[canon] = canon
		for _, s := range spellings {
			m[s] = canon
		}
	}
	add("mm", "millimetre", "millimetres", "millimeter", "millimeters")
	add("cm", "centimetre", "centimetres", "centimeter", "centimeters")
	add("m", "metre", "metres", "meter", "meters")
	add("km", "kilometre", "kilometres", "kilometer", "kilometers")
	add("µm", "μm", "um", "micron", "microns")
	add("in", "inch", "inches")
	add("ft", "foot", "feet")
	add("yd", "yard", "yards")
	add("mi", "mile", "miles")
	add("mm2", "sqmm")
	add("cm2")
	add("m2", "sqm")
	add("km2")
	add("ft2", "sqft")
	add("ha", "hectare", "hectares")
	add("m3")
	add("l", "litre", "litres", "liter", "liters")
	add("v", "volt", "volts", "vdc", "vac")
	add("kv", "kilovolt", "kilovolts")
	add("mv", "millivolt", "millivolts")
	add("a", "amp", "amps", "ampere", "amperes")
	add("ka", "kiloampere", "kiloamperes")
	add("ma", "milliampere", "milliamperes")
	add("ah")
	add("w", "watt", "watts")
	add("kw", "kilowatt", "kilowatts")
	add("mw", "megawatt", "megawatts")
	add("gw", "gigawatt", "gigawatts")
	add("wp")
	add("kwp")
	add("mwp")
	add("wh")
	add("kwh")
	add("mwh")
	add("gwh")
	add("va")
	add("kva")
	add("mva")
	add("var")
	add("kvar")
	add("hz", "hertz")
	add("khz")
	add("ω", "ohm", "ohms")
	add("kω", "kohm")
	add("mω", "mohm")
	add("°c", "c", "degc", "celsius")
	add("°f", "degf", "fahrenheit")
	add("k", "kelvin")
	add("°", "deg", "degree", "degrees")
	add("%", "percent", "pct")
	add("‰")
	add("pa", "pascal", "pascals")
	add("kpa")
	add("mpa")
	add("bar")
	add("psi")
	add("n", "newton", "newtons")
	add("kn")
	add("knm")
	add("kg", "kilogram", "kilograms", "kgs")
	add("g", "gram", "grams")
	add("t", "tonne", "tonnes")
	add("lb", "lbs", "pound", "pounds")
	add("s", "sec", "secs", "second", "seconds")
	add("ms", "millisecond", "milliseconds")
	add("min", "mins", "minute", "minutes")
	add("h", "hr", "hrs", "hour", "hours")
	add("day", "days")
	add("week", "weeks")
	add("month", "months")
	add("year", "years", "yr", "yrs")
	add("rpm")
	add("db")
	add("lux", "lx")
	add("mph")
	add("$")
	add("€")
	add("£")
	return m
}()

func isLowerAlnum(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}
