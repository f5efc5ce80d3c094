package query

import (
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/cewhq/cew/pipeline/guard"
	"github.com/cewhq/cew/store/analysis"
)

// Spreadsheets of equipment name their columns by the parameter symbols of
// the PV models (Sandia, CEC/SAM): an engineer asks for the "max ac power"
// of an inverter, the sheet says "Paco". When a question names a model (a
// lookup in such a sheet), the parameter's description is replaced by its
// column name, so retrieval, the guards and the reader look for the column.
// Outside a model lookup the words stay: prose documents say "AC power"
// meaning something else.

// glossaryPhrases maps each description the glossary knows to its column
// name; the speller offers its words as corrections too.
var glossaryPhrases = map[string]string{}

// glossary maps descriptions to the column names they describe.
var glossary = func() *analysis.PhraseTable[string] {
	spec := map[string][]string{
		"Paco": {"max ac power", "maximum ac power", "rated ac power", "ac power rating", "ac rating",
			"max ac output", "maximum ac output", "ac output power", "nameplate ac power", "rated ac output", "ac output rating",
			"ac power", "ac power output", "ac output", "nameplate ac", "nameplate ac rating"},
		"Pdco": {"max dc power", "maximum dc power", "dc power rating", "dc input power", "rated dc power", "dc power"},
		"Vdco": {"nominal dc voltage", "rated dc voltage", "dc voltage at rated power"},
		"Pso":  {"self consumption", "self-consumption", "start-up power", "startup power", "power to start", "dc power to start"},
		"Pnt":  {"night tare", "night-time tare", "nighttime loss", "night consumption", "tare loss", "night time tare", "nighttime tare"},
		"Vdcmax": {"max dc voltage", "maximum dc voltage", "max input voltage", "maximum input voltage",
			"max dc input voltage", "maximum dc input voltage", "max dc input v", "maximum dc input v"},
		"Idcmax": {"max dc current", "maximum dc current", "max input current", "maximum input current",
			"max dc input current", "maximum dc input current", "max dc amps", "maximum dc amps", "max dc input amps",
			"maximum dc input amps"},
		"Mppt_high": {"upper mppt voltage", "upper mppt voltage limit", "upper mppt limit", "max mppt voltage",
			"maximum mppt voltage", "top of the mppt range", "top of the mppt window", "upper end of the mppt range",
			"upper end of the mppt window", "high end of the mppt range", "high end of the mppt window"},
		"Mppt_low": {"lower mppt voltage", "lower mppt voltage limit", "lower mppt limit", "min mppt voltage",
			"minimum mppt voltage", "bottom of the mppt range", "bottom of the mppt window", "lower end of the mppt range",
			"lower end of the mppt window", "low end of the mppt range", "low end of the mppt window"},
		// Both ends of the tracking range.
		"Mppt_low and Mppt_high": {"mppt window", "mppt range", "mppt voltage range", "mppt voltage window",
			"mppt operating range", "mpp voltage range", "mpp range"},
		"Vac": {"ac voltage", "grid voltage", "output voltage"},
		"Tamb Max": {"tamb maximum", "tamb max", "maximum ambient temperature", "max ambient temperature", "max ambient temp", "maximum ambient temp",
			"max ambient", "maximum ambient", "ambient max", "ambient maximum",
			"max operating ambient temperature", "maximum operating ambient temperature",
			"highest operating ambient", "highest ambient", "highest rated ambient", "highest ambient temperature",
			"highest operating ambient temperature", "highest rated ambient temperature",
			"upper ambient limit", "upper ambient temperature limit", "upper ambient temp limit", "ambient upper limit",
			"hottest ambient", "hottest ambient temperature", "hottest operating ambient",
			"max operating temperature", "maximum operating temperature", "max operating temp", "maximum operating temp",
			"highest operating temperature", "highest operating temp"},
		// Both ends of the operating range.
		"Tamb Low and Tamb Max": {"ambient temperature range", "ambient temp range", "operating temperature range",
			"ambient temperature limits", "ambient temp limits", "ambient limits", "operating temperature limits",
			"operating temp limits", "operating ambient limits",
			"operating temp range", "ambient operating range", "operating ambient temperature range",
			"ambient min / max", "operating ambient min / max", "min / max ambient", "ambient min and max", "min and max ambient",
			"ambient minimum / maximum", "operating ambient minimum / maximum", "minimum / maximum ambient",
			"ambient minimum and maximum", "minimum and maximum ambient", "ambient minimum / max", "operating ambient minimum / max",
			"tamb low / high", "tamb low / max", "tamb min / max", "tamb low and high", "tamb low and max", "tamb min and max"},
		"Tamb Low": {"tamb minimum", "tamb min", "minimum ambient temperature", "min ambient temperature", "min ambient temp", "minimum ambient temp",
			"min ambient", "minimum ambient", "ambient min", "ambient minimum",
			"lowest ambient temperature", "min operating ambient temperature", "minimum operating ambient temperature",
			"lowest operating ambient", "lowest ambient", "lowest rated ambient", "lowest operating ambient temperature",
			"lowest rated ambient temperature",
			"lower ambient limit", "lower ambient temperature limit", "lower ambient temp limit", "ambient lower limit",
			"coldest ambient", "coldest ambient temperature", "coldest operating ambient",
			"min operating temperature", "minimum operating temperature", "min operating temp", "minimum operating temp",
			"lowest operating temperature", "lowest operating temp"},
		"Isco": {"short circuit current", "short-circuit current", "isc", "isc at stc"},
		"Voco": {"open circuit voltage", "open-circuit voltage", "voc", "voc at stc"},
		"Impo": {"max power current", "maximum power current", "current at max power", "current at mpp", "imp", "imp at stc",
			"max power point current", "maximum power point current", "mpp current"},
		"Vmpo": {"max power voltage", "maximum power voltage", "voltage at max power", "voltage at mpp", "vmp", "vmp at stc",
			"max power point voltage", "maximum power point voltage", "mpp voltage"},
		"aIsc": {"temperature coefficient of isc", "isc temperature coefficient", "alpha isc", "temp coefficient of isc",
			"temp coeff of isc", "isc temp coeff", "isc temp coefficient"},
		"aImp": {"temperature coefficient of imp", "imp temperature coefficient", "alpha imp", "temp coefficient of imp",
			"temp coeff of imp", "imp temp coeff", "imp temp coefficient"},
		"BVoco": {"temperature coefficient of voc", "voc temperature coefficient", "beta voc", "temp coefficient of voc",
			"temp coeff of voc", "voc temp coeff", "voc temp coefficient"},
		"BVmpo": {"temperature coefficient of vmp", "vmp temperature coefficient", "beta vmp", "temp coefficient of vmp",
			"temp coeff of vmp", "vmp temp coeff", "vmp temp coefficient"},
		"Series Cells": {"cells in series", "number of cells", "cell count", "series cell count", "number of series cells"},
		// The legend's own descriptions of the module sheet's columns.
		"Parallel C-S": {"parallel cell strings", "parallel cell-strings", "cell strings in parallel", "cell-strings in parallel",
			"number of parallel strings", "parallel strings"},
		"Ixo":         {"current at half voc", "current at half of voc", "current at 1/2 voc", "current at 0.5 voc", "current at v = 0.5 voc"},
		"Ixxo":        {"current at half of voc plus vmp", "current at 0.5 (voc + vmp)", "current at 1/2 (voc + vmp)", "current at v = 1/2 (voc + vmp)"},
		"fd":          {"diffuse fraction", "fraction of diffuse irradiance", "diffuse irradiance fraction", "diffuse utilization"},
		"Module Area": {"module area", "panel area"},
		// "delta t" of a model is its d(Tc); of a mount in the Defaults
		// sheet, that sheet's own column deltaT (see defaultsAsked).
		"d(Tc)": {"delta tc", "dtc", "cell to back temperature difference", "temperature difference between cell and module back",
			"delta t"},
		"Weight": {"how heavy", "weigh", "weighs"},
		"n":      {"diode ideality factor", "ideality factor", "diode factor", "diode quality factor"},
	}
	// A temperature coefficient is named by its quantity's every name:
	// "short circuit current temperature coefficient", "temperature
	// coefficient of the open circuit voltage" (the speller writes "temp
	// coeff" out).
	for quantity, coefficient := range map[string]string{"Isco": "aIsc", "Impo": "aImp", "Voco": "BVoco", "Vmpo": "BVmpo"} {
		for _, name := range spec[quantity] {
			spec[coefficient] = append(spec[coefficient], name+" temperature coefficient",
				"temperature coefficient of "+name, "temperature coefficient of the "+name)
		}
		// "its bvmpo temp coeff": the column named and then said what it
		// is; a row does not say the words.
		spec[coefficient] = append(spec[coefficient], strings.ToLower(coefficient)+" temperature coefficient")
	}
	// The fourth point of the I-V curve by Voc's every name: "current at
	// half the open-circuit voltage".
	for _, name := range spec["Voco"] {
		spec["Ixo"] = append(spec["Ixo"], "current at half the "+name, "current at half "+name, "current at half of the "+name,
			"current at half of "+name)
	}
	for column, phrases := range spec {
		for _, p := range phrases {
			if rest, ok := strings.CutPrefix(p, "max "); ok && !slices.Contains(phrases, rest+" max") {
				// "dc current max": the bound typed after the quantity.
				spec[column] = append(spec[column], rest+" max")
			}
		}
	}
	for column, phrases := range spec {
		for _, p := range phrases {
			glossaryPhrases[p] = column
			// Engineers type the unit for the quantity: "max dc volts",
			// "max input amps".
			for word, unit := range unitWords {
				if strings.Contains(p, word) {
					glossaryPhrases[strings.ReplaceAll(p, word, unit)] = column
				}
			}
		}
	}
	return analysis.NewPhraseTable(glossaryPhrases)
}()

// unitWords are quantities a parameter's description names and the unit
// that may stand for them.
var unitWords = map[string]string{"voltage": "volts", "current": "amps"}

// nameColumns replaces parameter descriptions by column names when text
// names a model, and returns the new text with the replacements.
func nameColumns(text string) (string, []Correction) {
	toks := analysis.Tokens(text)
	if !namesModel(text, toks) {
		return text, nil
	}
	var b strings.Builder
	var out []Correction
	last := 0
	for i := 0; i < len(toks); i++ {
		column, n := glossary.At(toks[i:])
		if first, second, m := sharedHead(toks[i:]); m > 0 {
			// "isc and imp temp coeffs": the coefficients of both.
			column, n = first+" and "+second, m
		} else if first, second, m := sharedTail(toks[i:]); m > 0 {
			// "max power current and voltage": Impo and Vmpo.
			column, n = first+" and "+second, m
		} else if first, second, ok := tailsApart(text, toks, i); ok {
			// "max power point for the hip-225hde1: current and
			// voltage": the head, the model, then the two quantities.
			column, n = first+" and "+second, 3
		} else if n == 0 || measuresOther(column, text, toks[i+n-1].End, toks[i+n:]) || otherFace(toks[:i]) ||
			column == "d(Tc)" && n == 2 && toks[i+1].Text == "t" && defaultsAsked(toks) {
			continue
		}
		end := toks[i+n-1].End
		if from := text[toks[i].Start:end]; strings.Count(from, "(") > strings.Count(from, ")") && strings.HasPrefix(text[end:], ")") {
			// "current at v = 1/2(voc+vmp)": the bracket the phrase
			// opened closes with it.
			end++
		}
		b.WriteString(text[last:toks[i].Start])
		b.WriteString(column)
		out = append(out, Correction{From: text[toks[i].Start:end], To: column})
		last = end
		i += n - 1
	}
	if out == nil {
		return text, nil
	}
	b.WriteString(text[last:])
	return b.String(), out
}

// sharedHead reads "a and b head" (or "a or b head") at the start of toks
// where "a head" and "b head" both describe columns ("isc and imp
// temperature coefficients"): it returns the two columns and how many
// tokens the phrase spans, or 0.
func sharedHead(toks []analysis.Token) (first, second string, n int) {
	if len(toks) < 4 || toks[1].Text != "and" && toks[1].Text != "or" {
		return "", "", 0
	}
	head := toks[3:]
	a, na := glossary.At(append([]analysis.Token{toks[0]}, head...))
	b, nb := glossary.At(append([]analysis.Token{toks[2]}, head...))
	if na < 2 || na != nb || a == b {
		return "", "", 0
	}
	return a, b, 2 + na
}

// sharedTail reads "head a and b" (or "head a or b") at the start of toks
// where "head a" and "head b" both describe columns ("max power current
// and voltage"): it returns the two columns and how many tokens the phrase
// spans, or 0.
func sharedTail(toks []analysis.Token) (first, second string, n int) {
	for h := 1; h <= 3 && h+3 <= len(toks); h++ {
		if toks[h+1].Text != "and" && toks[h+1].Text != "or" {
			continue
		}
		if a, b, ok := headedPair(toks[:h], toks[h], toks[h+2]); ok {
			return a, b, h + 3
		}
	}
	return "", "", 0
}

// tailsApart reads "a and b" (or "a or b") at toks[i] where a head a few
// words before, past a colon or a dash, makes "head a" and "head b" both
// describe columns: "max power point for the hip-225hde1 (sanyo): current
// and voltage". It returns the two columns.
func tailsApart(text string, toks []analysis.Token, i int) (first, second string, ok bool) {
	if i+2 >= len(toks) || toks[i+1].Text != "and" && toks[i+1].Text != "or" {
		return "", "", false
	}
	// broken reports whether a colon or a spaced dash stands between the
	// tokens from j to i: a hyphen inside a model number is no break.
	broken := func(j int) bool {
		for ; j < i; j++ {
			if gap := text[toks[j].End:toks[j+1].Start]; strings.Contains(gap, ":") || guard.DashBreak(gap) {
				return true
			}
		}
		return false
	}
	for h := 1; h <= 3; h++ {
		for s := max(i-10, 0); s+h < i; s++ {
			if !broken(s + h - 1) {
				continue
			}
			if a, b, ok := headedPair(toks[s:s+h], toks[i], toks[i+2]); ok {
				return a, b, true
			}
		}
	}
	return "", "", false
}

// headedPair returns the columns "head a" and "head b" describe when both
// describe one, and not the same one.
func headedPair(head []analysis.Token, a, b analysis.Token) (first, second string, ok bool) {
	first, na := glossary.At(slices.Concat(head, []analysis.Token{a}))
	second, nb := glossary.At(slices.Concat(head, []analysis.Token{b}))
	return first, second, na == len(head)+1 && nb == len(head)+1 && first != second
}

// measuresOther reports whether the words right after a description
// (which ends at end in text) name a quantity of another kind than the
// column's: "max ac output current" is a current, not Paco. A word after
// "+", "/", "," or "and" starts another parameter ("night tare + idcmax").
func measuresOther(column, text string, end int, rest []analysis.Token) bool {
	if len(rest) == 0 || strings.ContainsAny(text[end:rest[0].Start], "+/,;&") || rest[0].Text == "and" {
		return false
	}
	next, n := strongCues.At(rest)
	if n == 0 {
		// "max ac output amps": a unit says what is measured as well.
		d := guard.UnitWordDimension(rest[0].Text)
		if d == "" {
			return false
		}
		next = []guard.Dimension{d}
	}
	own, _ := strongCues.At(analysis.Tokens(strings.ToLower(column)))
	return !slices.Equal(own, next)
}

// defaultsAsked reports whether a question is about the module database's
// Defaults sheet, whose mounts have a deltaT of their own: "defaults sheet
// a and delta T for the 22x linear concentrator on a tracker". Its "delta
// t" is that column, not a model's d(Tc).
func defaultsAsked(toks []analysis.Token) bool {
	return slices.ContainsFunc(toks, func(t analysis.Token) bool {
		return t.Term == "default" || t.Text == "mount" || t.Text == "rack" || t.Text == "tracker"
	})
}

// otherFace reports whether the words before a description put it on a
// bifacial module's rear ("rear side isc", "backside voc"): the sheets'
// columns are the front's.
func otherFace(before []analysis.Token) bool {
	if len(before) > 0 && before[len(before)-1].Text == "side" {
		before = before[:len(before)-1]
	}
	if len(before) == 0 {
		return false
	}
	switch before[len(before)-1].Text {
	case "rear", "back", "backside", "rearside":
		return true
	}
	return false
}

// namesModel reports whether a question names a model or part number: a
// code (see guard.IsCode) with letters and digits both; a shorter token of
// letters and digits that is no quantity or case ("tl3", "ae3.8", not
// "208v" or "v5"); or a word that is no English word followed by a number
// ("danfoss mlx 480", "blueplanet 32.0", "primo 5.0-1", "hisel-k 3000");
// a number with a letter code after it ("platinum 100 cs-a"); numbers in
// three parts or more ("10.0-3-208"); or a word that is no English word, a
// word and a rating or a number ("satcon equinox 1mw", "conext tx 3800").
func namesModel(text string, toks []analysis.Token) bool {
	for i, t := range toks {
		if t.Kind == analysis.Identifier && strings.ContainsFunc(t.Text, unicode.IsLetter) && strings.ContainsFunc(t.Text, unicode.IsDigit) &&
			(guard.IsCode(text, t) || shortCode(text, t)) {
			return true
		}
		if t.Kind == analysis.Identifier && strings.Count(t.Text, "-") >= 2 && !isoDate.MatchString(t.Text) {
			// "ig plus v 10.0-3-208 delta": numbers in three parts or
			// more are a part number, not a range.
			return true
		}
		if t.Kind == analysis.Word && i+1 < len(toks) && numbered(text, toks[i+1]) {
			name := t.Text
			if len(name) <= 2 && i > 0 && text[toks[i-1].End:t.Start] == "-" {
				// "hisel-k 3000": the series is "hisel-k", not "k".
				name = toks[i-1].Text
			}
			if makerLike(name) {
				return true
			}
		}
		if t.Kind == analysis.Number && lettered(text, toks[i+1:]) {
			// "platinum 100 cs-a": a number and a hyphenated letter code
			// after it name a model.
			return true
		}
		if t.Kind == analysis.Word && makerLike(t.Text) && seriesModel(text, toks[i+1:]) {
			// "satcon equinox 1mw", "conext tx 3800", "kaco blue planet
			// 3502": a maker, a series and its number.
			return true
		}
	}
	return false
}

// makerLike reports whether a word may be a maker's or a series' name: no
// word of the dictionary, no stopword, no shorthand ("kaco", "conext").
func makerLike(w string) bool {
	return !isEnglishWord(w) && !analysis.IsStopword(w) && !isShorthand(w)
}

// seriesModel reports whether toks open with a series' name of one or two
// words (maxSeriesWords) and the number of one of its models ("tx 3800",
// "blue planet 3502"); after one word, a rating names the model too
// ("equinox 1mw").
func seriesModel(text string, toks []analysis.Token) bool {
	for n := 1; n <= maxSeriesWords && n < len(toks); n++ {
		if w := toks[n-1]; w.Kind != analysis.Word || analysis.IsStopword(w.Text) {
			return false
		}
		if lineNumber(text, toks[n]) || n == 1 && rated(text, toks[n]) {
			return true
		}
	}
	return false
}

// lettered reports whether toks open with a letter code of short parts
// joined by a hyphen ("cs-a", "tl-us"), as a model's suffix is written.
func lettered(text string, toks []analysis.Token) bool {
	if len(toks) < 2 || toks[0].Kind != analysis.Word || toks[1].Kind != analysis.Word || text[toks[0].End:toks[1].Start] != "-" ||
		len(toks[0].Text) > 3 || len(toks[1].Text) > 3 {
		return false
	}
	return len(guard.Qualifiers(text[toks[0].Start:toks[1].End])) == 0
}

// lineNumber reports whether t is a whole number of three digits or more
// with no unit after it, as a line numbers its models ("tx 3800").
func lineNumber(text string, t analysis.Token) bool {
	if t.Kind != analysis.Number || len(t.Text) < 3 || strings.ContainsAny(t.Text, ".,") {
		return false
	}
	vs := guard.Values(text[t.Start:])
	return len(vs) > 0 && vs[0].Start == 0 && vs[0].Unit == ""
}

// rated reports whether t is a power written with its unit ("1mw",
// "500 kw"), as a series names its models by their rating.
func rated(text string, t analysis.Token) bool {
	vs := guard.Values(text[t.Start:])
	return len(vs) > 0 && vs[0].Start == 0 && vs[0].Dim == guard.DimPower
}

// isoDate is a date written year-month-day: "2022-06-15".
var isoDate = regexp.MustCompile(`^\d{4}-\d{1,2}-\d{1,2}$`)

// shortCode reports whether an identifier of letters and digits too short
// for guard.IsCode still reads as a code: three letters and digits or more,
// no number with a unit ("208v"), no case the documents contrast ("v5",
// "1-axis").
func shortCode(text string, t analysis.Token) bool {
	surface := text[t.Start:t.End]
	n := 0
	for _, r := range surface {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			n++
		}
	}
	return n >= 3 && !caseOrQuantity(surface)
}

// caseOrQuantity reports whether an identifier names a case the documents
// contrast ("v5", "1-axis") or a number with a unit ("208v"): no model.
func caseOrQuantity(surface string) bool {
	return len(guard.Qualifiers(surface)) > 0 || slices.ContainsFunc(guard.Values(surface), func(v guard.Value) bool {
		// "4000s" after a maker's name is its model (Solectria's "PVI
		// 4000S"), not four thousand seconds.
		return v.Unit != "" && v.Unit != "s"
	})
}

// numbered reports whether t is a number or an identifier holding a digit
// that names no case: what follows a maker's or a series' name.
func numbered(text string, t analysis.Token) bool {
	switch t.Kind {
	case analysis.Number:
		return true
	case analysis.Identifier:
		return strings.ContainsFunc(t.Text, unicode.IsDigit) && !caseOrQuantity(text[t.Start:t.End])
	}
	return false
}
