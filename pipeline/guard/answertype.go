package guard

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/cewhq/cew/store"
	"github.com/cewhq/cew/store/analysis"
)

// Dimension is what a value measures: a length, a percentage, a power. A
// question that asks for a trench depth is answered by a length; a
// sentence that holds only a percentage does not answer it, however many
// of the question's words it shares.
type Dimension string

// Dimensions of the values construction and PV documents state.
const (
	DimPercent     Dimension = "percent"
	DimLength      Dimension = "length"
	DimArea        Dimension = "area"
	DimVolume      Dimension = "volume"
	DimVoltage     Dimension = "voltage"
	DimCurrent     Dimension = "current"
	DimPower       Dimension = "power"
	DimEnergy      Dimension = "energy"
	DimFrequency   Dimension = "frequency"
	DimResistance  Dimension = "resistance"
	DimTemperature Dimension = "temperature"
	DimAngle       Dimension = "angle"
	// DimTempCoeff is a change per degree: "%/°C", "1/°C".
	DimTempCoeff  Dimension = "temperature_coefficient"
	DimPressure   Dimension = "pressure"
	DimForce      Dimension = "force"
	DimMass       Dimension = "mass"
	DimTime       Dimension = "time"
	DimMoney      Dimension = "money"
	DimIrradiance Dimension = "irradiance"
	DimSpeed      Dimension = "speed"
	// DimRatio is a plain number without a unit: a ratio, a factor, a
	// fraction ("GCR 0.4", "DC/AC ratio 1.1", "derate 0.77").
	DimRatio Dimension = "ratio"
	// DimCount is a whole number without a unit ("how many").
	DimCount Dimension = "count"
	// DimDate is a year, a month name or a calendar date.
	DimDate Dimension = "date"
)

// unitDimensions maps canonical units (see units) to what they measure.
var unitDimensions = map[string]Dimension{
	"%": DimPercent, "‰": DimPercent,
	"mm": DimLength, "cm": DimLength, "m": DimLength, "km": DimLength, "µm": DimLength, "in": DimLength,
	"ft": DimLength, "yd": DimLength, "mi": DimLength,
	"mm2": DimArea, "cm2": DimArea, "m2": DimArea, "km2": DimArea, "ft2": DimArea, "ha": DimArea,
	"m3": DimVolume, "l": DimVolume,
	"v": DimVoltage, "kv": DimVoltage, "mv": DimVoltage,
	"a": DimCurrent, "ka": DimCurrent, "ma": DimCurrent, "ah": DimEnergy,
	"w": DimPower, "kw": DimPower, "mw": DimPower, "gw": DimPower, "wp": DimPower, "kwp": DimPower,
	"mwp": DimPower, "va": DimPower, "kva": DimPower, "mva": DimPower, "var": DimPower, "kvar": DimPower,
	"wh": DimEnergy, "kwh": DimEnergy, "mwh": DimEnergy, "gwh": DimEnergy,
	"hz": DimFrequency, "khz": DimFrequency,
	"ω": DimResistance, "kω": DimResistance, "mω": DimResistance,
	"°c": DimTemperature, "°f": DimTemperature, "k": DimTemperature,
	"°":  DimAngle,
	"pa": DimPressure, "kpa": DimPressure, "mpa": DimPressure, "bar": DimPressure, "psi": DimPressure,
	"n": DimForce, "kn": DimForce, "knm": DimForce,
	"kg": DimMass, "g": DimMass, "t": DimMass, "lb": DimMass,
	"s": DimTime, "ms": DimTime, "min": DimTime, "h": DimTime, "day": DimTime, "week": DimTime,
	"month": DimTime, "year": DimTime,
	"$": DimMoney, "€": DimMoney, "£": DimMoney,
	"mph": DimSpeed, "rpm": DimFrequency,
}

// UnitDimension returns what a canonical unit measures ("" when unknown).
// Compound units are read by their parts: "%/°c" and "1/°c" are
// temperature coefficients, "w/m2" and "kwh/m2" irradiance, "m/s" a speed.
func UnitDimension(unit string) Dimension {
	if d, ok := unitDimensions[unit]; ok {
		return d
	}
	num, den, ok := strings.Cut(unit, "/")
	if !ok {
		return ""
	}
	den, _, _ = strings.Cut(den, "/")
	switch dd := unitDimensions[den]; {
	case num == "%" && dd == DimTime:
		return DimPercent // a rate: "0.5 %/year"
	case dd == DimTemperature && (num == "%" || num == "1" || num == ""):
		return DimTempCoeff
	case dd == DimArea && (unitDimensions[num] == DimPower || unitDimensions[num] == DimEnergy):
		return DimIrradiance
	case dd == DimTime && unitDimensions[num] == DimLength:
		return DimSpeed
	}
	return ""
}

// Value is a number stated in a text with what it measures.
type Value struct {
	// Text is the surface as written ("800 mm", "-0.35 %/°C", "6007").
	Text string
	// Num is the canonical number ("800", "-0.35").
	Num  string
	Unit string
	Dim  Dimension
	// Start and End are the byte offsets of Text.
	Start, End int
}

// numberRange is a range written as one token: "1950-2050", "14-17".
var numberRange = regexp.MustCompile(`^(\d+(?:\.\d+)?)-(\d+(?:\.\d+)?)([a-z%°/]*)$`)

// Values returns the numbers of text with their dimensions, in order. A
// number written without a unit takes the unit of the nearest "(unit)"
// before it in the same cell or field, as spreadsheet headers write them
// ("Paco (W): 6007", "System losses (%) — Default Value: 14"); otherwise it
// is a ratio, a count or a year. A range ("1950-2050") is its first number.
// Numbers in words count ("one percent", "zero"), except as part of a
// compound adjective ("one-axis", "two-up").
func Values(text string) []Value {
	toks := analysis.Tokens(text)
	var out []Value
	looseUnit := ""
	for i := 0; i < len(toks); {
		t := toks[i]
		if t.Kind == analysis.Symbol || t.Kind == analysis.Word {
			if u, ok := bracketedUnit(text, t); ok {
				looseUnit = u
			}
		}
		q, next := quantityAt(text, toks, i)
		if q.Num == "" && q.Code != "" {
			if m := numberRange.FindStringSubmatch(t.Text); m != nil {
				q = quantity{Text: q.Text, Num: canonicalNumber(m[1]), start: q.start, end: q.end}
				if u, ok := canonicalUnit(m[3]); ok {
					q.Unit = u
				}
			}
		}
		if q.Num == "" && q.Code != "" {
			if parts := joinedQuantities(text, q); parts != nil {
				// "(95W/12V)": a power and a voltage, not a code.
				out = append(out, parts...)
			}
		}
		if q.Num != "" && !IsReferenceMark(text, q.start, q.end) {
			v := newValue(q, looseUnit)
			if v.Dim == DimCount && i > 0 && yearBefore[toks[i-1].Text] && isEarlyYear(v.Num) {
				// "destroyed in 1560": an early year is known by the word
				// before it, where a count of that size is not.
				v.Dim = DimDate
			}
			out = append(out, v)
		}
		// A field or cell ends the reach of a header's unit.
		if next < len(toks) && strings.ContainsAny(text[toks[next-1].End:toks[next].Start], ";|") {
			looseUnit = ""
		}
		i = next
	}
	for _, q := range numberWords(text, toks) {
		if rest := text[q.end:]; strings.HasPrefix(rest, "-") && len(rest) > 1 && unicode.IsLetter(rune(rest[1])) {
			continue // "one-axis"
		}
		rest := strings.TrimLeft(text[q.end:], " ")
		if w, _, _ := strings.Cut(rest, " "); w != "" {
			if u, ok := canonicalUnit(strings.ToLower(strings.Trim(w, ".,;:"))); ok {
				q.Unit = u
			}
		}
		out = append(out, newValue(q, ""))
	}
	slices.SortStableFunc(out, func(a, b Value) int { return a.Start - b.Start })
	return out
}

// joinedQuantities reads a token of quantities joined by slashes, each a
// number with its unit ("95W/12V", "600V/1000V"), as those quantities; nil
// when any part is something else ("240/208", "kwh/m2", "pv-5000/a").
func joinedQuantities(text string, q quantity) []Value {
	surface := text[q.start:q.end]
	if !strings.Contains(surface, "/") {
		return nil
	}
	var out []Value
	at := q.start
	for part := range strings.SplitSeq(surface, "/") {
		p := identifierQuantity(part, strings.ToLower(part))
		if p.Num == "" || p.Unit == "" {
			return nil
		}
		p.start, p.end = at, at+len(part)
		out = append(out, newValue(p, ""))
		at += len(part) + 1
	}
	return out
}

// IsReferenceMark reports whether the number at text[start:end] is a
// reference to a bibliography entry, "[5]" or "[12, 13]": the brackets hold
// nothing but whole numbers, commas and dashes. Such a mark is short, so
// only a few bytes either side are looked at.
func IsReferenceMark(text string, start, end int) bool {
	const reach = 24
	before := text[max(0, start-reach):start]
	open := strings.LastIndexByte(before, '[')
	if open < 0 || strings.ContainsRune(before[open+1:], ']') {
		return false
	}
	after := text[end:min(len(text), end+reach)]
	closing := strings.IndexByte(after, ']')
	if closing < 0 {
		return false
	}
	for _, r := range before[open+1:] + text[start:end] + after[:closing] {
		if !(r >= '0' && r <= '9' || r == ',' || r == ' ' || r == '-' || r == '–') {
			return false
		}
	}
	return true
}

func newValue(q quantity, looseUnit string) Value {
	v := Value{Text: q.Text, Num: q.Num, Unit: q.Unit, Start: q.start, End: q.end}
	if v.Unit == "" && looseUnit != "" {
		v.Unit = looseUnit
	}
	v.Dim = UnitDimension(v.Unit)
	if v.Unit == "" {
		v.Dim = plainDimension(v.Num)
	}
	return v
}

// bracketedUnit reports a unit written alone in brackets: "(W)", "(%)",
// "[°C]".
func bracketedUnit(text string, t analysis.Token) (string, bool) {
	before := strings.TrimRight(text[:t.Start], " ")
	after := strings.TrimLeft(text[t.End:], " ")
	// "(kW (DC))": a note in brackets may follow the unit inside.
	if strings.HasPrefix(after, "(") {
		if i := strings.Index(after, ")"); i >= 0 {
			after = strings.TrimLeft(after[i+1:], " ")
		}
	}
	if !(strings.HasSuffix(before, "(") && strings.HasPrefix(after, ")") ||
		strings.HasSuffix(before, "[") && strings.HasPrefix(after, "]")) {
		return "", false
	}
	u, ok := canonicalUnit(t.Text)
	if !ok {
		// "(W)" and "(A)": a capital letter in brackets is a unit here.
		u, ok = canonicalUnit(strings.ToLower(t.Text))
	}
	return u, ok
}

// plainDimension classifies a number without a unit: a year, a whole
// count, or a ratio.
func plainDimension(num string) Dimension {
	if isPlainYear(num) {
		return DimDate
	}
	if !strings.ContainsAny(num, ".:") {
		return DimCount
	}
	return DimRatio
}

// yearBefore are the words a year before 1800 is written after ("in
// 1191", "since 1685"); a plain four-digit number after them is a year.
var yearBefore = map[string]bool{"in": true, "since": true, "until": true, "till": true, "by": true, "circa": true,
	"around": true, "before": true, "after": true, "during": true, "year": true, "from": true,
	"january": true, "february": true, "march": true, "april": true, "may": true, "june": true, "july": true,
	"august": true, "september": true, "october": true, "november": true, "december": true}

// isEarlyYear reports whether num could be a year before those
// isPlainYear knows by their digits alone.
func isEarlyYear(num string) bool {
	return len(num) == 4 && num >= "1000" && num < "1800" && strings.Trim(num, "0123456789") == ""
}

func isPlainYear(num string) bool {
	if len(num) != 4 {
		return false
	}
	for i := 0; i < 4; i++ {
		if num[i] < '0' || num[i] > '9' {
			return false
		}
	}
	return num >= "1800" && num <= "2100"
}

// Expectation is what a question asks for, so that an answer of another
// kind is refused rather than shown: the dimensions a value of the answer
// may have, and whether a number is needed at all.
type Expectation struct {
	// Dims lists the dimensions that answer the question (any one will
	// do); empty means any value, or none.
	Dims []Dimension
	// Cues are the index terms of the question's words that named the
	// dimension ("paco", "depth"). A bare number beside one of them — a
	// spreadsheet's "Paco: 7000" without a unit — is taken to be of the
	// dimension asked for.
	Cues []string
	// NeedsValue is set when the question is about a technical value, which
	// is usually, not always, a number.
	NeedsValue bool
	// WantsUnit is set when the question asks for a unit of measure ("wind
	// speed units"): the answer must name one.
	WantsUnit bool
	// Qualifiers are the contrasting qualifiers the question names (AC
	// rather than DC, premium rather than standard).
	Qualifiers []Qualifier
	// Described are the question's own values that describe what is asked
	// about rather than the value asked for: the 240 V of "Paco of the
	// SB7000TL-US-22 at 240 V", the 2015 of "Isco of the 2015 vintage".
	Described []Value
	// Labelled are the question's bare numbers that a word names ("gcr
	// 0.25", "titan 250").
	Labelled []Labelled
	// Words are the question's words in lower case, stopwords too: a
	// spreadsheet cell quoted under a column the question names by one
	// ("b: -0.0455" for "the a / b module temp coeffs") is of the kind it
	// says, though the sheet writes no unit (see namedCell).
	Words map[string]bool
	// Names are the question's words that no dictionary holds and that
	// are no shorthand, in lower case ("kyocera", "kaco"): the names of
	// makers and products. A list's row whose name holds none of them is
	// another maker's when the name of a row retrieved with it opens with
	// one (see generate's dropOtherMakers).
	Names []string `json:",omitempty"`
	// Polar is set for a question that asks yes or no (IsPolar): it asks
	// for no value, and the sentence that states or denies it answers.
	Polar bool
	// Thing is set for a question that asks which thing ("which weather
	// file formats carry an hourly albedo", "from which strings"): the
	// answer names it, and the value words it uses only say which.
	Thing bool
	// Source is set for a question that asks where something is published
	// or cited from ("which nrel report", "the fuentes paper's report
	// number", "ref 17"): the answer names the entry of the document's
	// reference list that the sentence about it cites.
	Source bool
	// Imprint is set for a question about a document itself rather than
	// what it says: who wrote, prepared or published it, when, or a number
	// its title or back page carries ("who wrote the pvwatts v5 manual",
	// "task no. on the title page", "which epa office published the
	// guide"). Such pages seldom rank: the pipeline reads them.
	Imprint bool
	// Format is the written form the answer must hold, when the question
	// asks for a telephone number, a web address, an e-mail address or a
	// file name: a sentence about the help line that gives no number does
	// not answer "phone number for the help line".
	Format Format
	// FormWords are the question's words that ask for Format ("link",
	// "phone", "no", "web", "address"): a passage about what is asked
	// that holds a value of the form says them.
	FormWords []string `json:",omitempty"`
	// Expands lists the words a question asks to be spelled out, the
	// abbreviations it may name ("what does neshap stand for", "cercla
	// full name"): the answer is a sentence that spells one out by the
	// initials of its capitalised words.
	Expands []string
	// Pair is set for a question that joins by "and" two values of
	// different kinds ("torque tube diameter and max tracker rotation
	// angle"): it asks for both, as a complex question does. Second is
	// the kind of the second value: Dims holds both kinds, as each unit
	// of an answer may state one, and the answer as a whole states a
	// value of each (see Expected).
	Pair   bool
	Second []Dimension `json:",omitempty"`
	// CountedBy are the words of a question that asks by a unit, from
	// the first after "how many" to the unit ("dc", "amps" of "how many dc
	// amps can it take"): it names no quantity, only its unit and what
	// the unit is of.
	CountedBy []string `json:",omitempty"`
	// Apart is set for a question that asks, besides a value of Dims,
	// something else by a clause of its own that names no kind of value
	// ("what year is nepa from, and which nhpa section …"): it says which
	// ask that is, AskFirst (before the word FurtherAsk finds) or
	// AskFurther. A unit of the answer that holds that ask may state no
	// value of Dims, while the answer as a whole still states one (see
	// Expected).
	Apart Ask `json:",omitempty"`
	// Unnamed is the word right before the words that name the kind of
	// value asked when no indexed document holds it ("stow" of "what stow
	// angle do 1-axis trackers assume"): the question asks for a kind of
	// that quantity the documents never name, which another angle they
	// state does not answer.
	Unnamed string `json:",omitempty"`
}

// Format is a written form of an answer: see the Format constants.
type Format string

// The forms a question may ask for. A fax or TDD number is a telephone
// number said to be one: "303-275-3000" on a title page answers no fax.
const (
	FormatPhone Format = "telephone number"
	FormatFax   Format = "fax number"
	FormatTDD   Format = "TDD number"
	FormatURL   Format = "web address"
	FormatEmail Format = "e-mail address"
	FormatFile  Format = "file name"
	// FormatEquation is an equation's number: "Eqn. 9", "Eq. 7", "(12)"
	// at the end of a formula.
	FormatEquation Format = "equation number"
)

// phoneNumber is a North American number, its last four digits perhaps
// spelled ("800-424-LEAD").
var phoneNumber = regexp.MustCompile(`(?:^|[^\d])(?:\+?1[-. ])?\(?\d{3}\)?[-. ]\d{3}[-. ](?:\d{4}|[A-Z]{4})(?:$|[^\d])`)

var formatPatterns = map[Format]*regexp.Regexp{
	FormatPhone:    phoneNumber,
	FormatFax:      phoneNumber,
	FormatTDD:      phoneNumber,
	FormatURL:      regexp.MustCompile(`(?i)\bhttps?://\S+|\bwww\.\S+|\b[a-z0-9-]+\.(?:gov|org|com|net|edu|int)\b`),
	FormatEmail:    regexp.MustCompile(`(?i)\b[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,}\b`),
	FormatFile:     regexp.MustCompile(`(?i)\b[\w-]+\.(?:csv|xlsx?|pdf|txt|docx?|json|xml|zip|dat|epw|tm[y23]|pvsyst|sam)\b`),
	FormatEquation: regexp.MustCompile(equationNamed.String() + `|\(\d{1,3}\)`),
}

// equationNamed is an equation's number as words refer to it: "Eqn. 9",
// "Eq. 7", "equation 12".
var equationNamed = regexp.MustCompile(`(?i)\b(?:eqns?|eqs?|equations?)\.?\s*\(?\d{1,3}\b`)

// NamesEquation reports whether text refers to an equation by its number
// in words ("as listed in Eqn. 1"), not only by the "(1)" that ends a
// formula.
func NamesEquation(text string) bool {
	return equationNamed.MatchString(text)
}

// WithoutWebAddresses returns text with its web addresses blanked out: the
// "tmy2" of "http://rredc.nrel.gov/solar/pubs/tmy2/" names no report.
func WithoutWebAddresses(text string) string {
	return formatPatterns[FormatURL].ReplaceAllString(text, " ")
}

// formatNames are the words a text must use for a number to be of the
// form: a fax number is called one.
var formatNames = map[Format]*regexp.Regexp{
	FormatFax: regexp.MustCompile(`(?i)\bfax\b`),
	FormatTDD: regexp.MustCompile(`(?i)\b(?:tdd|tty)\b`),
}

// Holds reports whether text holds something written in form f; any text
// holds the empty form.
func (f Format) Holds(text string) bool {
	re, ok := formatPatterns[f]
	if !ok {
		return true
	}
	if name := formatNames[f]; name != nil && !name.MatchString(text) {
		return false
	}
	return re.MatchString(text)
}

// spelledCase reports whether a labelled number that names a qualifier
// ("version 1") is named by text in another spelling ("PVWatts V1"): the
// "Version 5" of the manual's title then speaks of the manual, not of the
// case. named holds text's qualifiers once they are found.
func spelledCase(l Labelled, text string, named *[]Qualifier) bool {
	if len(l.Cases) == 0 {
		return false
	}
	if *named == nil {
		*named = Qualifiers(text)
	}
	for _, q := range l.Cases {
		if !Mentions(*named, q) {
			return false
		}
	}
	return true
}

// Contradicts returns a described value of the question that text (with
// its context) contradicts: text states values of the same dimension and
// not this one — a row for the 208 V variant when 240 V was asked — or
// gives a labelled number's word another number ("a GCR of 0.4" when "gcr
// 0.25" was asked). A value the question also states is no contradiction:
// "the 208v version than the 240v one" is about both. ok is false when
// there is none.
func (e Expectation) Contradicts(text string) (asked, stated Value, ok bool) {
	if len(e.Labelled) > 0 {
		toks := analysis.Tokens(text)
		var named []Qualifier
		for _, l := range e.Labelled {
			if spelledCase(l, text, &named) {
				continue
			}
			s, bad := contradictsLabel(text, toks, l)
			if bad && !slices.ContainsFunc(e.Labelled, func(o Labelled) bool {
				// "[CEC 2013] and [CEC 2014]": a row of either is asked.
				_, other := contradictsLabel(text, toks, o)
				return o.Label == l.Label && o.Num != l.Num && !other
			}) {
				return Value{Text: l.Text, Num: l.Num}, Value{Text: s}, true
			}
		}
	}
	if len(e.Described) == 0 {
		return Value{}, Value{}, false
	}
	values := Values(text)
	for _, d := range e.Described {
		if d.Unit == "" && d.Dim != DimDate {
			continue // a bare count says too little to contradict
		}
		var other *Value
		found := false
		for i, v := range values {
			if v.Dim != d.Dim || v.Unit != d.Unit && d.Dim != DimDate {
				continue
			}
			if slices.ContainsFunc(e.Described, func(w Value) bool { return w.Dim == v.Dim && (w.Unit == v.Unit || v.Dim == DimDate) && w.Num == v.Num }) {
				// This value or another of the question's own: "208v
				// vs 240v" asks about both.
				found = true
				break
			}
			if other == nil {
				other = &values[i]
			}
		}
		if !found && other != nil {
			return d, *other, true
		}
	}
	return Value{}, Value{}, false
}

var (
	// bracketed finds short bracketed texts, where tables put units.
	bracketed = regexp.MustCompile(`[(\[]([^()\[\]]{1,10})[)\]]`)
	// reciprocal is a unit per unit of something: "1/C", "1/W", "1/°C".
	reciprocal = regexp.MustCompile(`^1\s*/\s*°?[A-Za-z]{1,3}$`)
)

// WantsValue reports whether an answer must hold a value of a known
// dimension. NeedsValue alone only suggests a number: "the default module
// type" is a technical question answered by a word.
func (e Expectation) WantsValue() bool { return len(e.Dims) > 0 }

// namesUnit reports whether text names a unit of measure ("m/s", "W/m2",
// "degrees"), bare or in brackets after what it measures ("current (A)",
// "temperature coefficient, normalized, (1/C)").
func namesUnit(text string) bool {
	for _, m := range bracketed.FindAllStringSubmatch(text, -1) {
		in := strings.TrimSpace(m[1])
		if reciprocal.MatchString(in) {
			return true
		}
		if vs := Values("1 " + in); len(vs) == 1 && vs[0].Unit != "" && vs[0].End == len(in)+2 {
			return true
		}
	}
	for _, t := range analysis.Tokens(text) {
		if t.Kind == analysis.Number {
			continue
		}
		if _, ok := unitOf(text, t); ok && t.Text != "in" {
			return true
		}
	}
	return false
}

// Accepts reports whether text states a value of an expected dimension;
// numbers in skip (the question's own) do not count. A number without a
// unit counts when text also names one of the cues.
func (e Expectation) Accepts(text string, skip map[string]bool) bool {
	return e.AcceptsValues(text, Values(text), skip)
}

// AcceptsValues is Accepts for text whose Values the caller already has.
func (e Expectation) AcceptsValues(text string, values []Value, skip map[string]bool) bool {
	if e.WantsUnit && !namesUnit(text) || !e.Format.Holds(text) {
		return false
	}
	if !e.WantsValue() {
		return true
	}
	var cues []int // byte offsets where a cue ends
	for _, v := range values {
		if skip[v.Num] {
			continue
		}
		if e.AcceptsDim(v.Dim) || zeroWord(v) && e.ZeroStates() {
			return true
		}
		if v.Unit != "" || e.onlyDates() && v.Dim != DimDate {
			continue
		}
		if cues == nil {
			cues = e.cueEnds(text)
		}
		for _, end := range cues {
			if end <= v.Start && v.Start-end <= cueReach {
				return true
			}
		}
	}
	return false
}

// zeroWord reports whether v is "zero" written out without a unit.
func zeroWord(v Value) bool {
	return v.Num == "0" && v.Unit == "" && strings.EqualFold(v.Text, "zero")
}

// ZeroStates reports whether "zero" written out, with no unit, states a
// value of what e asks for: no loss at all needs no "%" ("shading and
// availability losses were set to zero"), a ratio has no unit ("assumed a
// GCR of zero"); a depth of zero needs its mm.
func (e Expectation) ZeroStates() bool {
	return slices.Contains(e.Dims, DimPercent) || slices.Contains(e.Dims, DimRatio)
}

// onlyDates reports whether a date is the only dimension asked for: a bare
// number beside "year" must then look like a year.
func (e Expectation) onlyDates() bool {
	return len(e.Dims) == 1 && e.Dims[0] == DimDate
}

// cueReach is how far (in bytes) after a cue a bare number may stand and
// still be read as its value: "Paco (W): 7000", "the incidence angle is
// zero".
const cueReach = 24

// cueEnds returns where each occurrence of a cue ends in text; never nil.
func (e Expectation) cueEnds(text string) []int {
	out := []int{}
	toks := analysis.Tokens(text)
	for i, t := range toks {
		switch {
		case len(e.Cues) > 0 && analysis.StartsWith(toks[i:], e.Cues):
			out = append(out, toks[i+len(e.Cues)-1].End)
		case slices.Contains(e.Dims, quantityNames[t.Text]):
			// "ac Voltage: 120": a column named by the quantity asked
			// for, though the question named it otherwise ("Vac").
			out = append(out, t.End)
		}
	}
	return out
}

// quantityNames are the words that name a quantity by its dimension, as a
// spreadsheet may name a column: "ac Voltage", "Weight".
var quantityNames = map[string]Dimension{"voltage": DimVoltage, "current": DimCurrent, "power": DimPower, "weight": DimMass,
	"temperature": DimTemperature, "area": DimArea}

// AcceptsDim reports whether a value of dimension d answers (any does when
// no dimension is expected).
func (e Expectation) AcceptsDim(d Dimension) bool {
	if len(e.Dims) == 0 {
		return true
	}
	for _, want := range e.Dims {
		switch {
		case want == d:
			return true
		// A ratio is as often written as a percentage, and a count or a
		// year-like number is still a plain number.
		case want == DimRatio && (d == DimPercent || d == DimCount || d == DimDate):
			return true
		case want == DimCount && d == DimDate:
			return true
		}
	}
	return false
}

// Expected checks a verdict that Post passed against what the question
// asked for: the answer must state a value of an expected dimension (when
// one is expected), and no sentence may be about a sibling of a qualifier
// the question names — the sentence names the sibling and not the asked
// case, and neither does the sentence before it from the same passage nor
// the cited passage's section or title. A failure turns the verdict into a
// refusal with its reason.
func Expected(v PostVerdict, exp Expectation, chunks []store.Chunk) PostVerdict {
	if !v.OK || len(v.Cited) == 0 {
		return v
	}
	if exp.WantsValue() || exp.WantsUnit || exp.Format != "" {
		var text strings.Builder
		for _, s := range v.Sentences {
			text.WriteString(s.Text)
			text.WriteString("\n")
		}
		claim := StripCitations(text.String())
		if !exp.Accepts(claim, nil) && !unitLabelled(exp, claim) && !namedCell(exp, claim) {
			what := dimensionList(exp)
			switch {
			case exp.Format != "":
				what = string(exp.Format)
			case exp.WantsUnit:
				what = "unit of measure"
			}
			return fail(AnswerTypeMismatch, fmt.Sprintf("the answer states no %s", what))
		}
		if first, second, ok := exp.pairParts(); ok && (!first.Accepts(claim, nil) || !second.Accepts(claim, nil)) &&
			!(namedCell(exp, claim) && len(numberCells.FindAllString(claim, -1)) >= 2) {
			// "module length and rated wattage": a length alone
			// answers half the question; so does one cell of a row
			// under a column the question names ("Weight: 52.9" for
			// its weight and its highest ambient).
			missing := first
			if first.Accepts(claim, nil) {
				missing = second
			}
			return fail(AnswerTypeMismatch, fmt.Sprintf("the answer states no %s, one of the two values asked", dimensionList(missing)))
		}
	}
	var run []string // the sentences before s that cite what s cites
	for i, s := range v.Sentences {
		if i == 0 || !slices.Equal(s.Citations, v.Sentences[i-1].Citations) {
			run = nil
		}
		// A sentence goes on from the one before it from the same
		// passage: "V1 — Weather Data Options: 239 TMY2 sites. Added 360
		// international sites in 2005." is about V1 throughout.
		context := slices.Clone(run)
		for _, n := range s.Citations {
			if n >= 1 && n <= len(chunks) {
				context = append(context, chunks[n-1].Section, chunks[n-1].Title)
			}
		}
		claim := StripCitations(s.Text)
		run = append(run, claim)
		if want, got, bad := SiblingOnly(exp.Qualifiers, claim, strings.Join(context, "\n")); bad {
			return fail(QualifierMismatch, fmt.Sprintf("sentence %d is about %q, not %q as asked", i+1, got.Text, want.Text))
		}
		// So are its values: "[15] Fuentes, M. K. (1987). … Accessed
		// September 3, 2013: http://…" is the 1987 report's entry
		// throughout.
		if asked, stated, bad := exp.Contradicts(strings.Join(run, "\n")); bad {
			return fail(QualifierMismatch, fmt.Sprintf("sentence %d is about %q, not %q as asked", i+1, stated.Text, asked.Text))
		}
	}
	return v
}

// pairParts splits the expectation of a Pair question into that of its
// first value and that of its second; ok is false for any other.
func (e Expectation) pairParts() (first, second Expectation, ok bool) {
	if !e.Pair || len(e.Second) == 0 || e.WantsUnit || e.Format != "" {
		return e, e, false
	}
	first, second = e, e
	first.Dims = slices.DeleteFunc(slices.Clone(e.Dims), func(d Dimension) bool { return slices.Contains(e.Second, d) })
	second.Dims, second.Cues = e.Second, nil
	if len(first.Dims) == 0 {
		return e, e, false
	}
	return first, second, true
}

// unitInParens is a unit standing alone in parentheses, as a table row is
// quoted under its unit column: "Tilt angle (degrees) — Default Value:
// Site Latitude".
var unitInParens = regexp.MustCompile(`\(([^()0-9]{1,24})\)`)

// unitLabelled reports whether the answer labels its value with a unit of
// the kind asked for, though the value itself is not a number ("Site
// Latitude" in degrees).
func unitLabelled(exp Expectation, answer string) bool {
	for _, m := range unitInParens.FindAllStringSubmatch(answer, -1) {
		if exp.Accepts("1 "+strings.TrimSpace(m[1]), nil) {
			return true
		}
	}
	return false
}

// cellLabel is a spreadsheet cell as a row is quoted, its column's name
// and a number: "Model: PowerLight PL-225; a: -3.54; b: -0.072".
var cellLabel = regexp.MustCompile(`(?:^|[;—]\s*)(\p{L}[\p{L}\p{N}_]{0,23}):\s*[-−+]?\.?\d`)

// numberCells are the cells of a quoted row that hold a number, under a
// column's name of any words: "Tamb Max: 50", "Paco (W): 7000".
var numberCells = regexp.MustCompile(`(?:^|[;—]\s*)\p{L}[^;:—\n]{0,39}:\s*[-−+]?\.?\d`)

// namedCell reports whether the answer quotes a number under a column the
// question names by a word of its own ("b" in "the a / b module temp
// coeffs"): what the question calls the column is what its cells are.
func namedCell(exp Expectation, answer string) bool {
	for _, m := range cellLabel.FindAllStringSubmatch(answer, -1) {
		if exp.Words[strings.ToLower(m[1])] {
			return true
		}
	}
	return false
}

func dimensionList(exp Expectation) string {
	if len(exp.Dims) == 0 {
		return "value"
	}
	names := make([]string, len(exp.Dims))
	for i, d := range exp.Dims {
		names[i] = strings.ReplaceAll(string(d), "_", " ")
	}
	return strings.Join(names, " or ")
}
