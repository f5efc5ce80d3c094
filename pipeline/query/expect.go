package query

import (
	"regexp"
	"slices"
	"strings"

	"github.com/cewhq/cew/pipeline/guard"
	"github.com/cewhq/cew/store/analysis"
)

// The dimension of the answer is read from the noun the question asks about:
// a depth is a length, a loss a percentage, a tilt an angle. The first cue in
// the question decides; "how deep", "how many" and the like decide at once.

var (
	length      = []guard.Dimension{guard.DimLength}
	percent     = []guard.Dimension{guard.DimPercent}
	fraction    = []guard.Dimension{guard.DimPercent, guard.DimRatio}
	angle       = []guard.Dimension{guard.DimAngle}
	power       = []guard.Dimension{guard.DimPower}
	voltage     = []guard.Dimension{guard.DimVoltage}
	current     = []guard.Dimension{guard.DimCurrent}
	temperature = []guard.Dimension{guard.DimTemperature}
	ratio       = []guard.Dimension{guard.DimRatio}
	date        = []guard.Dimension{guard.DimDate}
	count       = []guard.Dimension{guard.DimCount}
	timeDim     = []guard.Dimension{guard.DimTime}
)

// strongCues name what is measured.
var strongCues = analysis.NewPhraseTable(map[string][]guard.Dimension{
	"temperature coefficient": {guard.DimTempCoeff}, "temp coefficient": {guard.DimTempCoeff},
	"system size": power, "array size": power, "plant size": power, "dc rating": power, "ac rating": power,
	"nameplate capacity": power, "nameplate rating": power, "inverter rating": power, "inverter size": power, "module rating": power,
	"cable size": {guard.DimArea}, "conductor size": {guard.DimArea}, "cross section": {guard.DimArea},
	"hub height": length, "row spacing": length, "row pitch": length,
	"ground coverage ratio": ratio, "dc to ac ratio": ratio, "dc-to-ac ratio": ratio, "dc/ac ratio": ratio,
	"unique id": {}, "air mass": {}, "author": {}, "authors": {}, "co-authors": {}, "how many": count, "number of": count, "quantity": count,
	"cell count": count, "module count": count, "string count": count, "row count": count, "series cells": count, "cells in series": count, "how deep": length, "how wide": length, "how high": length, "how tall": length,
	"how far": length, "how thick": length, "how long": {guard.DimLength, guard.DimTime},
	"how hot": temperature, "how cold": temperature, "how warm": temperature, "how heavy": {guard.DimMass},
	"how fast": {guard.DimSpeed}, "how old": {guard.DimTime, guard.DimDate},
	"what year": date, "which year": date, "what date": date, "year": date,
	"deadline": {guard.DimDate, guard.DimTime}, "due date": date, "expiration date": date, "expiry date": date,
	"wind speed": {guard.DimSpeed},

	"depth": length, "length": length, "width": length, "height": length, "spacing": length,
	"distance": length, "clearance": length, "gap": length, "thickness": length, "diameter": length, "radius": length,
	"pitch": length, "setback": length, "elevation": length, "burial": length,
	"loss": percent, "losses": percent, "efficiency": fraction, "percentage": percent, "percent": percent,
	"tilt": angle, "azimuth": angle, "angle": angle, "inclination": angle, "zenith": angle,
	"power": power, "wattage": power, "paco": power, "pdco": power, "pso": power, "pnt": power,
	"capacity": power,
	"voltage":  voltage, "vac": voltage, "vdco": voltage, "vdcmax": voltage, "voc": voltage, "vmp": voltage,
	"vmpo": voltage, "voco": voltage,
	"current": current, "idcmax": current, "isc": current, "imp": current, "isco": current, "impo": current,
	"amperage":    current,
	"temperature": temperature, "inoct": temperature, "noct": temperature,
	"ratio": ratio, "gcr": ratio, "albedo": ratio, "fraction": ratio, "derate": ratio,
	"bifaciality": ratio, "bifaciality factor": ratio, "power factor": ratio, "capacity factor": fraction,
	"safety factor": ratio, "fill factor": ratio, "ideality factor": ratio,
	"irradiance": {guard.DimIrradiance}, "insolation": {guard.DimIrradiance, guard.DimEnergy},
	"energy": {guard.DimEnergy}, "weight": {guard.DimMass}, "mass": {guard.DimMass},
	"pressure": {guard.DimPressure}, "frequency": {guard.DimFrequency}, "resistance": {guard.DimResistance},
	"cost": {guard.DimMoney}, "price": {guard.DimMoney}, "fee": {guard.DimMoney},
	"lifetime": timeDim, "duration": timeDim, "days": timeDim, "hours": timeDim, "weeks": timeDim,
	"months": timeDim, "minutes": timeDim, "how often": timeDim, "interval": timeDim,
})

// weakCues are loss mechanisms and the like: they suggest a percentage
// only when nothing stronger names the value.
var weakCues = analysis.NewPhraseTable(map[string][]guard.Dimension{
	"soiling": percent, "shading": percent, "mismatch": percent, "availability": percent,
	"degradation": percent, "lid": percent, "wiring": percent,
})

// expectation reads what the question asks for from its tokens.
func expectation(text string, technical bool) guard.Expectation {
	// What the question sets aside ("not the 2014 one") asks for nothing
	// and describes no case asked about.
	// Nor does what the asker supposes ("i think it drops below 5 kw at
	// 208 but not sure how far").
	text = guard.WithoutSupposed(guard.WithoutAside(text))
	toks := analysis.Tokens(text)
	exp := guard.Expectation{NeedsValue: technical, Qualifiers: guard.AskedCases(text), Words: map[string]bool{}}
	for _, t := range toks {
		if t.Kind == analysis.Word {
			exp.Words[strings.ToLower(t.Text)] = true
		}
	}
	at := -1
	if dims, words, i := howCue(toks); dims != nil {
		// "if a full year is too slow how many days can we run": the
		// "how" asks; a cue before it describes the case.
		exp.Dims, exp.Cues, at = dims, words, i
		if len(words) == 2 && toks[i+1].Text == "many" {
			// "how many dc amps can it take": a count of a unit is the
			// quantity the unit measures ("228 A").
			if counted, said := unitCounted(toks[i+2:]); counted != nil {
				exp.Dims, exp.CountedBy = counted, said
			}
		}
	} else if dims, words, i := firstCue(toks, strongCues); dims != nil {
		exp.Dims, exp.Cues, at = dims, words, i
	} else if dims, words, i := firstCue(toks, weakCues); dims != nil && technical {
		exp.Dims, exp.Cues, at = dims, words, i
	}
	if at >= 0 && choice(toks, at, exp.Cues) {
		// "year tested or year manufactured": both answers are of the
		// kind the cue names; the question asks which, not for a value.
		exp.Dims, exp.Cues = nil, nil
	}
	if at >= 0 && perChoice(toks) {
		// "series_cells in the module db - per module or per
		// cell-string": what the number counts is asked, not the number.
		exp.Dims, exp.Cues = nil, nil
	}
	if at >= 0 && changeOf(toks, at) && !slices.Contains(exp.Dims, guard.DimPercent) {
		// "increase in annual energy": the change is as often stated
		// as a percentage ("8 % more annual energy").
		exp.Dims = append(slices.Clone(exp.Dims), guard.DimPercent)
	}
	if at >= 0 && slices.Equal(exp.Cues, []string{"how", "far"}) &&
		(slices.ContainsFunc(toks[at:], func(t analysis.Token) bool { return deviationWords[t.Term] }) ||
			at+2 < len(toks) && toks[at+2].Text == "off") {
		// "how far can one year deviate from the average", "how far off
		// does it run": how much it differs, in whatever the quantity is
		// measured by ("± 20 %"), not a distance.
		exp.Dims, exp.Cues = nil, nil
	}
	if at >= 0 && asksThingAfter(toks, at+len(exp.Cues)) && !askedApart(text, toks, at) {
		// "module db temp coeffs - measured under what sky conditions":
		// the question asks for the conditions; the coefficients are
		// what it is about.
		exp.Dims, exp.Cues = nil, nil
	}
	if at >= 1 && slices.Equal(exp.Cues, []string{"number", "of"}) && namedNumbers[toks[at-1].Text] {
		// "the report number of the fuentes paper": a number that names
		// a document, a part or a line is no count.
		exp.Dims, exp.Cues = nil, nil
	}
	if at >= 0 && asksNoMeasure(toks, at) {
		// "LID - when does the module power drop": the question asks
		// when or why; the cue after it is its subject.
		exp.Dims, exp.Cues = nil, nil
	}
	if at >= 0 && (givenBefore(toks, at, exp) || givenAfter(toks, at+len(exp.Cues), exp)) {
		// "what is the 3% default shading loss meant to represent": the
		// question states the loss; it asks about it, not for it.
		exp.Dims, exp.Cues = nil, nil
	}
	for _, v := range guard.Values(text) {
		if len(exp.Dims) == 0 || !exp.Accepts(v.Text, nil) {
			exp.Described = append(exp.Described, v)
		}
	}
	exp.Labelled = guard.LabelledNumbers(text)
	if exp.Polar = guard.IsPolar(text, toks); exp.Polar {
		// "is the total loss the sum of the losses": yes or no, and the
		// sentence that says which; "loss" names no value asked for.
		exp.Dims, exp.Cues, exp.NeedsValue = nil, nil, false
	}
	if equatedTo(toks) || basisAsked(toks) {
		// "2-axis tracking - the surface tilt gets set equal to what",
		// "what does v5 base the self-shading loss on": what the tilt
		// equals or the loss follows is named ("the sun zenith angle",
		// "the ground coverage ratio"), not a value of its own.
		exp.Thing, exp.Dims, exp.Cues, exp.NeedsValue = true, nil, nil, false
	}
	if w := asksWhich(toks); w >= 0 {
		if at >= 0 && len(exp.Dims) > 0 && at < w && clauseBetween(text, toks, at, w) {
			// "what year is nepa from, and which nhpa section makes
			// fed agencies protect historic properties": the year is
			// asked by a clause of its own, a name by the other.
			exp.Thing = true
		} else {
			// "which weather file formats can carry an hourly albedo":
			// a name answers; "albedo" says which, it is not asked for.
			exp.Thing, exp.Dims, exp.Cues, exp.NeedsValue = true, nil, nil, false
		}
	}
	if asksLacking(toks) {
		// "which v5 loss category has no related v1 derate": the row
		// that lacks it answers by its name; "loss" asks for no value.
		exp.Thing, exp.Dims, exp.Cues, exp.NeedsValue = true, nil, nil, false
	}
	if slices.ContainsFunc(toks, func(t analysis.Token) bool { return t.Text == "legend" }) {
		// "ixxo in the module db legend - current at what voltage": a
		// legend says in words what a heading is; its "(A)" is the
		// heading's unit, not a value.
		exp.Dims, exp.Cues, exp.NeedsValue = nil, nil, false
	}
	exp.Source = asksSource(toks)
	// "who wrote the tmy3 users manual that the pvwatts manual cites"
	// asks about the work the document cites, which its reference list
	// names, not about the document itself.
	exp.Imprint = asksImprint(toks) && !citesWork(toks)
	exp.Expands = expansionAsked(toks)
	if at >= 0 && len(exp.Dims) > 0 {
		// "what year is nepa from, and which nhpa section makes fed
		// agencies protect historic properties": the section is asked
		// by a clause of its own that names no kind of value.
		exp.Apart = asksApart(text, toks, at, technical)
	}
	if second := pairAsked(text, toks); len(second) > 0 {
		exp.Pair = true
		for _, d := range second {
			if len(exp.Dims) > 0 && !slices.Contains(exp.Dims, d) {
				exp.Dims = append(slices.Clone(exp.Dims), d)
				exp.Second = append(exp.Second, d)
			}
		}
	}
	if exp.Format, exp.FormWords = askedFormat(toks); exp.Format != "" {
		// "phone number for the help line": the number is a form to
		// find, not a count.
		exp.Dims, exp.Cues = nil, nil
	}
	if asksForUnit(toks) {
		// "wind speed units": the unit is the answer, not a value.
		exp.WantsUnit, exp.Dims, exp.Cues = true, nil, nil
	}
	return exp
}

// howCue returns the dimensions of the first strong cue that opens with
// "how" ("how many", "how deep"), its words and the index of its first
// token, or nil.
func howCue(toks []analysis.Token) ([]guard.Dimension, []string, int) {
	for i, t := range toks {
		if t.Text != "how" {
			continue
		}
		if dims, n := strongCues.At(toks[i:]); n > 0 {
			if n == 2 && toks[i+1].Text == "many" && i+n < len(toks) && durationUnits[toks[i+n].Term] {
				// "how many days": a count of days is a span of time,
				// "6 days" as much as "6".
				dims = []guard.Dimension{guard.DimCount, guard.DimTime}
			}
			return dims, cueWords(toks[i : i+n]), i
		}
	}
	return nil, nil, -1
}

// deviationWords say how far a quantity strays from another.
var deviationWords = analysis.TermSet("deviate deviation differ difference vary stray drift")

// changeWords name a change of a quantity.
var changeWords = analysis.TermSet("increase decrease reduction change difference gain drop rise loss")

// comparedWords before a cue make it the quantity of a change: "more
// energy", "less output".
var comparedWords = map[string]bool{"more": true, "less": true, "extra": true, "additional": true}

// changeOf reports whether the cue at toks[at] names what a change is of:
// "increase in annual energy", a word or two between, "more energy", or
// any cue after "by how much".
func changeOf(toks []analysis.Token, at int) bool {
	for j := 2; j < at; j++ {
		if toks[j-2].Text == "by" && toks[j-1].Text == "how" && toks[j].Text == "much" {
			// "by how much did v1 underpredict annual ac energy": by
			// the difference, as often a percentage ("by 11.9 %").
			return true
		}
	}
	for j := at - 1; j >= 0 && j >= at-2; j-- {
		if comparedWords[toks[j].Text] {
			// "how much more energy", "how much more annual energy":
			// "about ∼0.5 % more energy".
			return true
		}
		if toks[j].Kind != analysis.Word {
			break
		}
	}
	for j := at - 1; j >= 1 && j >= at-3; j-- {
		if toks[j].Text == "in" || toks[j].Text == "of" {
			return changeWords[toks[j-1].Term]
		}
		if toks[j].Kind != analysis.Word {
			return false
		}
	}
	return false
}

// namedNumbers are the things a number names rather than counts: a
// "report number", a "part number", a "phone number".
var namedNumbers = map[string]bool{"report": true, "document": true, "drawing": true, "part": true, "model": true,
	"serial": true, "catalog": true, "catalogue": true, "phone": true, "telephone": true, "fax": true, "permit": true,
	"contract": true, "project": true, "ticket": true, "page": true, "section": true, "table": true, "figure": true,
	"equation": true, "revision": true, "version": true, "reference": true, "id": true, "identification": true}

// asksNoMeasure reports whether the first question word before the cue at
// toks[at] asks for no value: "when", "why" or "who" ("who has the power
// to …" asks for a person). ("Where" has an answer type of its own in the
// reader.)
func asksNoMeasure(toks []analysis.Token, at int) bool {
	for _, t := range toks[:at] {
		if questionWords[t.Text] && t.Kind == analysis.Word {
			return noMeasureWords[t.Text]
		}
	}
	return false
}

// asksSource reports whether the question asks for a publication: it
// names a reference ("ref 17", "reference 4"), a citation ("which
// coatings does the manual cite"), a paper, journal or publication, or a
// report as a document ("which nrel report", "report no."). "Who do we
// report the spill to" asks for no document.
func asksSource(toks []analysis.Token) bool {
	for i, t := range toks {
		next := ""
		if i+1 < len(toks) {
			next = toks[i+1].Text
		}
		if citeWords[t.Text] || numberedReference(toks, i) {
			return true
		}
		switch t.Text {
		case "ref", "refs", "reference", "references":
			if next == "list" {
				// "web links in the ref list"
				return true
			}
		case "paper", "papers":
			if !paperAsMedium(toks, i) {
				return true
			}
		case "bibliography", "journal", "publication", "publications":
			return true
		case "report", "reports":
			if reportNumber[next] || i > 0 && reportKind[toks[i-1].Text] {
				return true
			}
		}
	}
	return false
}

// paperAsMedium reports whether "paper" at i is what a document is printed
// on or sold in ("printed on recycled paper", "a paper copy", "available
// in paper"), not a publication.
func paperAsMedium(toks []analysis.Token, i int) bool {
	if i > 0 && paperBefore[toks[i-1].Text] {
		return true
	}
	return i+1 < len(toks) && paperAfter[toks[i+1].Text]
}

var (
	paperBefore = map[string]bool{"recycled": true, "on": true, "in": true, "printed": true}
	paperAfter  = map[string]bool{"copy": true, "copies": true, "version": true, "edition": true, "form": true}
)

// askedFormat returns the written form the question asks for: a telephone,
// fax or TDD number ("phone no.", "fax", "tdd number"), a web address ("url",
// "website", "web address", "link"), an e-mail address or a file name; "" for
// none. "Call the hotline about what" asks for no number. words are the
// question's words that ask for a form, as written ("phone", "no", "fax"
// in "phone no. + fax"); the first form asked is the one returned.
func askedFormat(toks []analysis.Token) (f guard.Format, words []string) {
	for i := range toks {
		if g, w := formAt(toks, i); g != "" {
			if f == "" {
				f = g
			}
			words = append(words, w...)
		}
	}
	return f, words
}

// formAt returns the form the word at i asks for, with the words that ask
// for it ("web address"), or "" for none.
func formAt(toks []analysis.Token, i int) (guard.Format, []string) {
	t, next := toks[i].Text, ""
	if i+1 < len(toks) {
		next = toks[i+1].Text
	}
	// with adds the word after t when it is one of then ("phone number").
	with := func(then ...string) []string {
		if slices.Contains(then, next) {
			return []string{t, next}
		}
		return []string{t}
	}
	switch t {
	case "phone", "telephone":
		return guard.FormatPhone, with(numberWords...)
	case "hotline", "helpline":
		// "the hotline number for ahera": the hotline's telephone
		// number; "call the hotline about what" asks none.
		if slices.Contains(numberWords, next) {
			return guard.FormatPhone, with(numberWords...)
		}
	case "fax":
		return guard.FormatFax, with(numberWords...)
	case "tdd", "tty":
		return guard.FormatTDD, with(numberWords...)
	case "url", "urls", "website", "websites", "weblink":
		return guard.FormatURL, with()
	case "link", "links":
		// "brownfields program link", "… link for the hotline"; "the
		// link between X and Y", "what did they link to Japan" and "link
		// parameters" ask no address.
		if linkEnds[next] {
			return guard.FormatURL, with()
		}
	case "web":
		if next == "site" || next == "address" || next == "page" {
			return guard.FormatURL, with(next)
		}
	case "email", "e-mail":
		return guard.FormatEmail, with()
	case "eq", "eqn", "equation", "eqs", "eqns", "equations":
		// "which eqn number is that", "eq numbers for the sky and ground
		// cases": the number a document gives its equation. "Which
		// equation gives the transmittance" may be answered by a name
		// ("Fresnel's equation").
		if slices.Contains(equationNumberWords, next) {
			return guard.FormatEquation, with(equationNumberWords...)
		}
	case "filename":
		return guard.FormatFile, with()
	case "file":
		if next == "name" || next == "names" {
			return guard.FormatFile, with(next)
		}
	}
	return "", nil
}

// numberWords say "number" after the kind of number asked ("phone no.").
var numberWords = []string{"number", "no", "num", "nr"}

// equationNumberWords say "number" after "eq", in the plural too ("eq
// numbers for the sky and ground cases" asks for two).
var equationNumberWords = slices.Concat(numberWords, []string{"numbers"})

// linkEnds may follow "link" when it asks for a web address: nothing, or
// where the link is or what it is for.
var linkEnds = map[string]bool{"": true, "for": true, "from": true, "in": true, "on": true, "of": true, "please": true, "pls": true}

// citeWords say that a document cites a work.
var citeWords = map[string]bool{"cite": true, "cites": true, "cited": true, "citation": true, "citations": true}

// numberedReference reports whether the token at i names a reference by
// its number: "ref 17", "reference 4".
func numberedReference(toks []analysis.Token, i int) bool {
	switch toks[i].Text {
	case "ref", "refs", "reference", "references":
		return i+1 < len(toks) && toks[i+1].Kind == analysis.Number
	}
	return false
}

// citesWork reports whether the question is about a work a document
// cites: "cites", "cited as", "ref 6", "reference 17".
func citesWork(toks []analysis.Token) bool {
	for i, t := range toks {
		if citeWords[t.Text] || numberedReference(toks, i) {
			return true
		}
	}
	return false
}

// asksImprint reports whether the question asks about a document itself:
// its author ("who wrote", "authors of"), who prepared, issued or
// published it ("which epa office published the guide"), when it was
// published, or a number its title or back page carries ("publication
// number", "task no.", "contract no.", "on the back page"). "Who prepares
// the SWPPP" and "is the NOI written by the operator" ask about what it
// says.
func asksImprint(toks []analysis.Token) bool {
	for i, t := range toks {
		prev, next := "", ""
		if i > 0 {
			prev = toks[i-1].Text
		}
		if i+1 < len(toks) {
			next = toks[i+1].Text
		}
		switch t.Text {
		case "author", "authors", "authored", "wrote", "publisher", "published":
			return true
		case "written", "prepared", "issued":
			if prev == "who" {
				return true
			}
		case "publication":
			if reportNumber[next] || next == "date" {
				return true
			}
		case "task", "contract":
			if reportNumber[next] {
				return true
			}
		case "title", "cover", "back":
			if next == "page" || t.Text == "back" && next == "cover" {
				return true
			}
		}
	}
	return false
}

// pairAsked returns, when "and" joins two values of different kinds, the
// dimensions of the second: a cue of one dimension among the three words
// before it and a cue of another among the four after it, within the
// clause ("torque tube diameter and max tracker rotation angle": a length
// and an angle). A "+" joins two columns of a row more often than two
// kinds of value of a passage, and is left to the row's reading.
func pairAsked(text string, toks []analysis.Token) []guard.Dimension {
	// A clause ends at a dash, a comma or a colon: "the 1-axis rotation
	// angle report - authors n yr" joins the authors and the year, not
	// the angle the report's title names.
	breaks := func(i int) bool {
		return i > 0 && i < len(toks) && strings.ContainsAny(text[toks[i-1].End:toks[i].Start], "-–—,:;(")
	}
	cueDims := func(from, to int) map[guard.Dimension]bool {
		out := map[guard.Dimension]bool{}
		for i := from; i < to; i++ {
			if dims, n, _ := strongCues.Match(toks[i:]); n > 0 && i+n <= to {
				for _, d := range dims {
					out[d] = true
				}
			}
		}
		return out
	}
	for k, t := range toks {
		if t.Text != "and" {
			continue
		}
		// Up to three words before "and" and five after it: "weigh,
		// and up to what ambient temperature".
		start, end := max(k-3, 0), min(k+6, len(toks))
		for i := start + 1; i < k; i++ {
			if breaks(i) {
				start = i
			}
		}
		for i := k + 2; i < end; i++ {
			if breaks(i) {
				end = i
				break
			}
		}
		before, after := cueDims(start, k), cueDims(k+1, end)
		if d := bracketedUnit(text, toks, end); d != "" {
			// "torque tube diameter and the max rotation (deg)": the
			// unit in brackets after the second part names its kind.
			after[d] = true
		}
		if len(before) == 0 || len(after) == 0 {
			continue
		}
		shared := false
		for d := range before {
			shared = shared || after[d]
		}
		if !shared {
			var out []guard.Dimension
			for d := range after {
				out = append(out, d)
			}
			slices.Sort(out)
			return out
		}
	}
	return nil
}

// bracketedUnit returns the dimension of a unit word standing alone in
// brackets at toks[i] ("(deg)", "(mm)"), or "".
func bracketedUnit(text string, toks []analysis.Token, i int) guard.Dimension {
	if i <= 0 || i >= len(toks) || toks[i].Kind != analysis.Word || !strings.HasSuffix(strings.TrimSpace(text[toks[i-1].End:toks[i].Start]), "(") {
		return ""
	}
	if i+1 < len(toks) && !strings.HasPrefix(strings.TrimSpace(text[toks[i].End:toks[i+1].Start]), ")") || i+1 == len(toks) && !strings.HasPrefix(strings.TrimSpace(text[toks[i].End:]), ")") {
		return ""
	}
	return guard.UnitWordDimension(toks[i].Text)
}

// expansionAsked returns the words a question asks to be spelled out when
// it asks what an abbreviation stands for: the word right before "stand(s)
// for", "short for", "full name" or "acronym" ("what does neshap stand
// for", "cercla full name", "swppp is short for"), or right after "full
// name of", "acronym" or "abbreviation" ("full name of the nepa"), a word
// of two to six letters that is no function word. "full name of the
// person collecting the results" names no abbreviation. Which of them is
// the abbreviation the reader tells by the sentence that spells one out.
func expansionAsked(toks []analysis.Token) []string {
	var out []string
	add := func(i int) {
		for i >= 0 && i < len(toks) && (toks[i].Text == "the" || toks[i].Text == "is" || toks[i].Text == "an" || toks[i].Text == "a") {
			i++ // "the full name of the nepa": the word after the article
		}
		if i < 0 || i >= len(toks) {
			return
		}
		t := toks[i]
		if t.Kind == analysis.Word && len(t.Text) >= 2 && len(t.Text) <= 6 && !analysis.IsStopword(t.Text) && !expansionWords[t.Text] &&
			!slices.Contains(out, t.Text) {
			out = append(out, t.Text)
		}
	}
	before := func(i int) {
		j := i - 1
		for j >= 0 && (toks[j].Text == "is" || toks[j].Text == "the") {
			j-- // "swppp is short for"
		}
		add(j)
	}
	for i, t := range toks {
		next := ""
		if i+1 < len(toks) {
			next = toks[i+1].Text
		}
		switch {
		case (t.Text == "stand" || t.Text == "stands" || t.Text == "short") && next == "for":
			before(i)
		case t.Text == "full" && (next == "name" || next == "form"):
			before(i)
			if i+2 < len(toks) && (toks[i+2].Text == "of" || toks[i+2].Text == "for") {
				add(i + 3)
			}
		case t.Text == "acronym" || t.Text == "abbreviation":
			before(i)
			add(i + 1)
		}
	}
	return out
}

// expansionWords ask for an abbreviation to be spelled out (see
// expansionAsked).
var expansionWords = map[string]bool{"stand": true, "stands": true, "short": true, "full": true, "name": true, "form": true,
	"spell": true, "spelt": true, "spelled": true, "out": true, "need": true, "what": true, "does": true,
	"acronym": true, "abbreviation": true, "abbreviates": true}

// imprintWords ask something of a document rather than name what it is
// about (see asksImprint).
var imprintWords = map[string]bool{"who": true, "author": true, "authors": true, "authored": true, "wrote": true,
	"written": true, "prepared": true, "issued": true, "publisher": true, "published": true, "publication": true,
	"title": true, "cover": true, "back": true, "page": true, "number": true, "no": true, "num": true}

// withoutWords drops from a question the words that ask something (drop),
// leaving those that say what it is about: "who wrote the pvwatts v5
// manual" is ranked by "the pvwatts v5 manual" (imprintWords), "cercla full
// name" by "cercla" (expansionWords). A question of nothing else is kept.
func withoutWords(text string, drop map[string]bool) string {
	var kept []string
	for _, t := range analysis.Tokens(text) {
		if !drop[t.Text] {
			kept = append(kept, t.Text)
		}
	}
	if len(kept) == 0 {
		return text
	}
	return strings.Join(kept, " ")
}

// reportNumber after "report" and reportKind before it make it a document
// ("report no.", "which nrel report") rather than a verb.
var (
	reportNumber = map[string]bool{"number": true, "no": true, "num": true, "nr": true, "id": true}
	reportKind   = map[string]bool{"which": true, "what": true, "nrel": true, "sandia": true, "technical": true, "tech": true}
)

// asksThingAfter reports whether, after the cue that ends at toks[from],
// the question asks "what X" or "which X" of a thing, X naming no cue and
// no value ("under what sky conditions", not "what standoff height" or
// "which year"), or asks who. The cue before it names what the question is
// about.
func asksThingAfter(toks []analysis.Token, from int) bool {
	for k := from; k+1 < len(toks); k++ {
		if toks[k].Text == "who" || toks[k].Text == "whom" {
			// "spilled more than the reportable quantity, who do we
			// report it to": someone answers, not the quantity.
			return true
		}
		if toks[k].Text != "what" && toks[k].Text != "which" {
			continue
		}
		// "what is the abbreviation in brackets": the thing follows the
		// verb and its article.
		at := k + 1
		for at < len(toks)-1 && at <= k+2 && thingLeads[toks[at].Text] {
			at++
		}
		if next := toks[at]; next.Kind != analysis.Word || analysis.IsStopword(next.Text) {
			return false
		}
		for j := at; j < len(toks) && j <= at-1+maxThingWords; j++ {
			if t := toks[j]; t.Kind != analysis.Word || analysis.IsStopword(t.Text) {
				break
			}
			if namesValue(toks[j:]) {
				return false
			}
		}
		return true
	}
	return false
}

// thingLeads come between "what" and the thing it asks for.
var thingLeads = map[string]bool{"is": true, "are": true, "was": true, "were": true, "the": true, "a": true, "an": true}

// maxThingWords is the most words after "what" or "which" read as the
// thing asked for.
const maxThingWords = 4

// noMeasureWords open questions that no quantity answers.
var noMeasureWords = map[string]bool{"when": true, "why": true, "who": true, "whom": true}

// choice reports whether the cue at toks[at] opens one of two alternatives
// joined by "or" and the other names the same cue: "year tested or year
// manufactured".
func choice(toks []analysis.Token, at int, cue []string) bool {
	for k := at + len(cue); k+len(cue) < len(toks); k++ {
		if toks[k].Text != "or" {
			continue
		}
		for j := k + 1; j+len(cue) <= len(toks) && j <= k+3; j++ {
			if slices.Equal(cueWords(toks[j:j+len(cue)]), cue) {
				return true
			}
		}
		return false
	}
	return false
}

// perChoice reports whether the question offers two bases to choose
// from: "per module or per cell-string".
func perChoice(toks []analysis.Token) bool {
	for k := 2; k+1 < len(toks); k++ {
		if toks[k].Text == "or" && toks[k+1].Text == "per" && slices.ContainsFunc(toks[max(0, k-3):k], func(t analysis.Token) bool { return t.Text == "per" }) {
			return true
		}
	}
	return false
}

// asksWhich returns the position of the first "which" when the question
// asks "which" of things there: "which" followed by a word that names no
// value ("which weather file formats", "from which strings"), not by a cue
// ("which voltage"), a word for a date or a count ("which year"), or a
// function word ("which is the clear day"); -1 when it does not.
func asksWhich(toks []analysis.Token) int {
	for i := 0; i+1 < len(toks); i++ {
		if toks[i].Text != "which" {
			continue
		}
		j := i + 1
		if j+1 < len(toks) && (toks[j].Kind == analysis.Number || guard.IsCountWord(toks[j].Text)) {
			// "which 2 irradiance components": how many is said, which
			// ones are asked.
			j++
		}
		next := toks[j]
		if next.Kind != analysis.Word || analysis.IsStopword(next.Text) || namesValue(toks[j:]) {
			return -1
		}
		return i
	}
	return -1
}

// askedApart reports whether the cue at toks[at] is asked by a question
// word of its own ("what year is nepa from", the cue "what year" or a cue
// after "what") and the next question word
// opens another clause ("…, and which nhpa section …"): each asks its own.
func askedApart(text string, toks []analysis.Token, at int) bool {
	asks := func(t analysis.Token) bool { return t.Text == "what" || t.Text == "which" }
	if !asks(toks[at]) && (at == 0 || !asks(toks[at-1])) {
		return false
	}
	for k := at + 1; k < len(toks); k++ {
		if guard.IsQuestionWord(toks[k].Text) {
			return clauseBetween(text, toks, at, k)
		}
	}
	return false
}

// unnamedKind returns the word right before the word that names the kind
// of value asked (cues, index terms) — a quantity of which there are kinds
// (kindNouns) — with nothing but space between, when the index holds no
// word of its stem ("stow" of "what stow angle"), or "". A word that only
// says how sure or how usual the value is ("actual", "typical") names no
// kind; without a vocabulary nothing is unnamed.
func unnamedKind(text string, cues []string, sp *Speller) string {
	if sp == nil || len(cues) != 1 || !kindNouns[cues[0]] {
		// A column's name ("night tare pnt", "self consumption pso")
		// is said with words that describe it.
		return ""
	}
	toks := analysis.Tokens(text)
	for i := 1; i < len(toks); i++ {
		if toks[i].Term != cues[0] {
			continue
		}
		w := toks[i-1]
		if strings.TrimSpace(text[w.End:toks[i].Start]) != "" {
			// "… in the iea bifi doc: gap between modules": a word of
			// another clause says nothing of the gap.
			return ""
		}
		if w.Kind != analysis.Word || len(w.Text) < 3 || analysis.IsStopword(w.Text) || hedgeWords[w.Term] || sp.Knows(w.Text) {
			return ""
		}
		return w.Text
	}
	return ""
}

// kindNouns name a quantity of which there are kinds (a "stow angle", a
// "burial depth"), by their terms.
var kindNouns = analysis.TermSet("angle depth length width height spacing distance clearance gap thickness diameter " +
	"radius pitch elevation temperature voltage current power capacity pressure frequency resistance weight mass " +
	"efficiency loss ratio fraction factor energy irradiance cost price fee duration lifetime interval speed")

// hedgeWords say how sure, how usual or how exact a value is, not which
// kind of it is asked, by their terms.
var hedgeWords = analysis.TermSet("actual exact real true correct right proper usual typical normal " +
	"nominal rated listed given stated assumed approximate rough ballpark overall general quoted reported " +
	"official precise current latest final specified required recommended expected estimated")

// asksApart returns the ask of a question that asks two things (see
// guard.FurtherAsk) that names no kind of value when the other, which
// holds the cue at toks[at], does: the further one of "… before what
// year? and the national lead info center number". It returns 0 for any
// other question.
func asksApart(text string, toks []analysis.Token, at int, technical bool) guard.Ask {
	k := guard.FurtherAsk(text, toks)
	if k < 0 {
		return 0
	}
	other, ask := text[toks[k].End:], guard.AskFurther
	if k <= at {
		other, ask = text[:toks[k-1].End], guard.AskFirst
	}
	if len(expectation(other, technical).Dims) > 0 {
		return 0
	}
	return ask
}

// clauseBetween reports whether a clause ends between toks[from] and
// toks[to]: a comma, semicolon or question mark, or "and" right before
// toks[to] ("what year …, and which section …").
func clauseBetween(text string, toks []analysis.Token, from, to int) bool {
	if to > 0 && toks[to-1].Text == "and" && to-1 > from {
		return true
	}
	for k := from + 1; k <= to; k++ {
		if strings.ContainsAny(text[toks[k-1].End:toks[k].Start], ",;?") {
			return true
		}
	}
	return false
}

// asksLacking reports whether the question asks which thing has no
// something (see guard.AsksLacking).
func asksLacking(toks []analysis.Token) bool {
	for i := range toks {
		if guard.AsksLacking(toks, i) {
			return true
		}
	}
	return false
}

// equatedTo reports whether the question asks what something is set or
// equal to ("set equal to what", "equal to what").
func equatedTo(toks []analysis.Token) bool {
	for i := 0; i+2 < len(toks); i++ {
		if (toks[i].Text == "equal" || toks[i].Text == "set") && toks[i+1].Text == "to" && toks[i+2].Text == "what" {
			return true
		}
	}
	return false
}

// basisAsked reports whether the question asks what something is based
// on: "based on what", or "base … on" closing the question.
func basisAsked(toks []analysis.Token) bool {
	for i, t := range toks {
		if t.Text != "base" && t.Text != "based" {
			continue
		}
		if i+2 < len(toks) && toks[i+1].Text == "on" && toks[i+2].Text == "what" {
			return true
		}
		if last := toks[len(toks)-1].Text; i+1 < len(toks) && (last == "on" || last == "upon") {
			return true
		}
	}
	return false
}

// namesValue reports whether the word toks opens with names a value: a
// value noun ("year", "rating") or the start of a cue ("height", "loss")
// that no word naming a kind of thing follows ("irradiance components").
func namesValue(toks []analysis.Token) bool {
	if valueNouns[toks[0].Text] {
		return true
	}
	n := 0
	if _, strong := strongCues.At(toks); strong > 0 {
		n = strong
	} else if _, weak := weakCues.At(toks); weak > 0 {
		n = weak
	}
	return n > 0 && (n == len(toks) || !kindWords[toks[n].Term])
}

// kindWords (their index terms) after a cue name kinds of a thing rather
// than a value of the cue's dimension: "which irradiance components",
// "which loss types".
var kindWords = analysis.TermSet("component type kind option source format")

// cueVerbs are cues that, after "to", are verbs: "to weight", "to power",
// "to cost".
var cueVerbs = map[string]bool{"weight": true, "power": true, "cost": true, "rate": true, "size": true, "load": true, "space": true}

// valueNouns after "which" ask for a value all the same.
var valueNouns = map[string]bool{"year": true, "years": true, "date": true, "dates": true, "day": true,
	"days": true, "month": true, "months": true, "value": true, "values": true, "number": true, "numbers": true,
	"percentage": true, "percent": true, "amount": true, "size": true, "rating": true}

// firstCue returns the dimensions of the first cue in toks, the terms of
// the words that name it and the index of its first token, or nil.
func firstCue(toks []analysis.Token, cues *analysis.PhraseTable[[]guard.Dimension]) ([]guard.Dimension, []string, int) {
	named, skip := -1, 0 // a cue that may be part of a maker's name, and its end
	related := guard.Related(toks)
	for i := range toks {
		if i < skip {
			continue
		}
		if i > 0 && rateWords[toks[i-1].Text] {
			// "per year", "a year": a rate, not the value asked for.
			continue
		}
		if i+1 < len(toks) && namedKinds[toks[i].Text+" "+toks[i+1].Term] {
			// "a nuclear power plant", "a small quantity generator":
			// the cue names a kind of thing, not the value asked for.
			skip = i + 2
			continue
		}
		if i > 0 && mountKinds[toks[i-1].Text+" "+toks[i].Text] && (i+1 == len(toks) || !angleWords[toks[i+1].Text]) {
			// "table 8 elkins fixed tilt increase": a fixed-tilt array
			// is a kind of system; "fixed tilt angle" asks an angle.
			continue
		}
		if i > 0 && toks[i-1].Text == "to" && cueVerbs[toks[i].Text] {
			// "what does it use to weight it": to weight is to weigh
			// one thing against others, no mass is asked for.
			continue
		}
		if strings.HasSuffix(toks[i].Text, "ly") {
			// "monthly totals", "hourly data": the adjective says which
			// value, it does not name a duration as the answer.
			continue
		}
		if dims, n, phrase := cues.Match(toks[i:]); n > 0 {
			if n == 1 && !formOf(toks[i].Text, phrase) {
				// "space heater": the stem of "spacing", not a form of it.
				continue
			}
			if n == 1 && durationUnits[toks[i].Term] && !strings.HasSuffix(toks[i].Text, "s") {
				// "a cloudy day in june": one day names a day, not
				// a duration asked for ("how many days").
				continue
			}
			if related[i] {
				// "the coefficient relating vmp to effective irradiance":
				// the coefficient is asked, not a voltage or an
				// irradiance.
				continue
			}
			if i+n < len(toks) && coefficientWords[toks[i+n].Text] {
				// "wind speed coefficients a and b": the value asked
				// for is a coefficient of the speed, not a speed.
				continue
			}
			if i+n < len(toks) && toks[i+n].Start == toks[i+n-1].End+1 && formOfCue(cues, toks[i+n:]) {
				// "current temp coeffs", "power temperature
				// coefficient": the cue right after is the noun the
				// first one qualifies, and is asked for.
				continue
			}
			if i+n < len(toks) && headWords[toks[i+n].Text] {
				// "nameplate rating loss", "wind speed height": the loss or
				// the extent is asked for, and the cue before says which.
				continue
			}
			if named < 0 && len(dims) > 0 && makersName(toks, i, n) {
				named, skip = i, i+n
				continue
			}
			return dims, cueWords(toks[i : i+n]), i
		}
	}
	if named >= 0 && asksValue(toks) {
		// "green power pv900wd rating": the maker's word is the only
		// hint of what the rating is. "mppt window on the green power
		// pv900wd" names what it asks in other words.
		dims, n := cues.At(toks[named:])
		return dims, cueWords(toks[named : named+n]), named
	}
	return nil, nil, -1
}

// formOfCue reports whether toks open with a cue of cues that names a
// dimension, in a form of its own ("coeffs" is no form of "coefficient"'s
// stem, "temperature coefficients" is).
func formOfCue(cues *analysis.PhraseTable[[]guard.Dimension], toks []analysis.Token) bool {
	dims, n, phrase := cues.Match(toks)
	return n > 0 && len(dims) > 0 && (n > 1 || formOf(toks[0].Text, phrase))
}

// asksValue reports whether toks ask for a value without naming which
// ("rating", "value", "size").
func asksValue(toks []analysis.Token) bool {
	return slices.ContainsFunc(toks, func(t analysis.Token) bool { return valueNouns[t.Text] })
}

// mountKinds are a word and a cue that together name a kind of array;
// angleWords after them ask for its angle after all.
var (
	mountKinds = map[string]bool{"fixed tilt": true}
	angleWords = map[string]bool{"angle": true, "angles": true, "degrees": true, "deg": true}
)

// namedKinds are a word and the next word's stem, one of them a cue, that
// together name a kind of thing: what is asked about, not the value asked
// for. A view factor is what the view factor note derives; questions about
// it ask for its equations. A maximum power point is where a module runs;
// its current and its voltage are asked by their own words.
var namedKinds = map[string]bool{"power plant": true, "power station": true, "quantity generat": true, "view factor": true,
	"power point": true}

// formOf reports whether word is a form of the one-word cue: the cue
// itself or the cue with an ending ("losses", "efficiencies"), not another
// word of the same stem ("space" for "spacing").
func formOf(word, cue string) bool {
	if word != cue && strings.HasSuffix(word, "ed") && !strings.HasSuffix(cue, "ed") {
		// "weighted efficiency", "rated power": a participle says
		// which value, it does not name the cue's quantity.
		return false
	}
	return strings.HasPrefix(word, strings.TrimSuffix(cue, "y"))
}

// makersName reports whether the cue toks[i:i+n] is a word of the name
// before a model number: between a word and the number ("ideal power
// ipv-30kw mppt low", "green power pv900wd") or the first of two words
// before it ("power electronics fs0640cu vdcmax"); or of a name anywhere,
// between a word and one that ends a maker's name ("chint power
// systems"). It is the maker's name when a later cue names what is asked.
func makersName(toks []analysis.Token, i, n int) bool {
	word := func(t analysis.Token) bool { return t.Kind == analysis.Word && !analysis.IsStopword(t.Text) }
	model := func(j int) bool {
		// "annual energy v5": a version, not a model.
		return j < len(toks) && toks[j].Kind == analysis.Identifier && strings.ContainsAny(toks[j].Text, "0123456789") &&
			!version.MatchString(toks[j].Text)
	}
	if i > 0 && word(toks[i-1]) && model(i+n) {
		return true
	}
	if i > 0 && toks[i-1].Kind == analysis.Word && toks[i-1].End+1 == toks[i].Start && model(i+n) {
		// "i-power sho-1.1": the cue joined to the word before it, a
		// stopword too, is the maker's name.
		return true
	}
	if i > 0 && word(toks[i-1]) && i+n < len(toks) && companyWords[toks[i+n].Text] {
		// "cps sc20ktl-do-us-480, chint power systems america - idcmax":
		// the maker's name after the model number.
		return true
	}
	if i+n < len(toks) && word(toks[i+n]) && model(i+n+1) {
		return true
	}
	if i == 0 || !word(toks[i-1]) {
		return false
	}
	// "open energy solar save 4600 mppt range": a word, the cue, a word or
	// two of the series and a model number without a unit.
	for j := i + n; j < len(toks) && j <= i+n+maxSeriesWords; j++ {
		if modelNumber(toks, j) {
			return true
		}
		if !word(toks[j]) {
			break
		}
	}
	return false
}

// companyWords end a maker's name: "Chint Power Systems", "Green Power
// Technologies".
var companyWords = map[string]bool{"systems": true, "technologies": true, "technology": true, "solutions": true,
	"electronics": true, "industries": true, "corporation": true, "corp": true, "inc": true, "ltd": true, "co": true, "company": true}

// maxSeriesWords bounds the words of a series' name between a maker's name
// and a model number ("solar save" in "open energy solar save 4600").
const maxSeriesWords = 2

// minModelDigits is the fewest digits of a bare number that may be a model
// number ("4600"); "the 4 kW system" states a quantity.
const minModelDigits = 3

// modelNumber reports whether toks[j] is a whole number of minModelDigits
// digits or more that no unit follows: a model's number, not a quantity.
func modelNumber(toks []analysis.Token, j int) bool {
	t := toks[j]
	if t.Kind != analysis.Number || len(t.Text) < minModelDigits || strings.ContainsFunc(t.Text, func(r rune) bool { return r < '0' || r > '9' }) {
		return false
	}
	if j+1 < len(toks) {
		for _, v := range guard.Values(t.Text + " " + toks[j+1].Text) {
			if v.Unit != "" {
				return false
			}
		}
	}
	return true
}

// version is a version number ("v5"), which names no model.
var version = regexp.MustCompile(`^v\d+$`)

// cueWords are the index terms of a cue's tokens.
func cueWords(toks []analysis.Token) []string {
	words := make([]string, len(toks))
	for j, t := range toks {
		words[j] = t.Term
	}
	return words
}

// givenBefore reports whether the question states a value of the kind its
// cue at toks[at] asks for just before the cue — "the 3% default shading
// loss", a few words apart with no question word between. A number after
// a word that points into a document ("table 3 efficiency") is its place.
func givenBefore(toks []analysis.Token, at int, exp guard.Expectation) bool {
	for i := at - 1; i >= 0 && i >= at-givenWords-1; i-- {
		t := toks[i]
		if t.Kind == analysis.Number {
			if i > 0 && guard.IsPointerWord(toks[i-1].Text) {
				return false
			}
			// "3.5 m hub height": the number with the word after it, its
			// unit.
			return exp.Accepts(t.Text, nil) || i+1 < at && exp.Accepts(t.Text+" "+toks[i+1].Text, nil)
		}
		if t.Kind != analysis.Word || questionWords[t.Text] {
			return false
		}
	}
	return false
}

// givenAfter reports whether the question states a value of the kind its
// cue asks for right after the cue, which ends at toks[end]: "how is the
// reference inverter efficiency of 0.9637 defined". A number with a unit
// of another kind ("losses of the 4 kW system") states no such value.
func givenAfter(toks []analysis.Token, end int, exp guard.Expectation) bool {
	if end+1 >= len(toks) || toks[end].Text != "of" && toks[end].Text != "=" || toks[end+1].Kind != analysis.Number {
		return false
	}
	n := toks[end+1].Text
	if end+2 < len(toks) && toks[end+2].Kind == analysis.Word && !analysis.IsStopword(toks[end+2].Text) {
		return exp.Accepts(n+" "+toks[end+2].Text, nil)
	}
	return exp.Accepts(n, nil)
}

// givenWords is how many words may stand between a stated value and its
// cue ("3% default shading loss").
const givenWords = 3

// questionWords open what is asked; a value before one belongs to another
// clause ("with 3% soiling what is the total loss").
var questionWords = map[string]bool{"what": true, "which": true, "who": true, "when": true, "where": true,
	"why": true, "how": true, "is": true, "are": true, "does": true, "do": true}

// asksForUnit reports whether the question asks for a unit of measure:
// "units", "unit" or "uom" as a word of it, not "unit" as in "per unit" or
// "unit 3".
func asksForUnit(toks []analysis.Token) bool {
	for i, t := range toks {
		switch t.Text {
		case "units", "uom":
			return true
		case "unit":
			if i+1 < len(toks) {
				if _, n := strongCues.At(toks[i+1:]); n > 0 {
					// "unit weight", "unit cost": of the unit, the
					// device or the item, not the unit of measure.
					continue
				}
			}
			if i > 0 && anyUnit[toks[i-1].Text] {
				// "lbs or kg, whatever unit the sheet is in": any unit
				// will do; the value is asked.
				continue
			}
			if i > 0 && (toks[i-1].Kind == analysis.Number || toks[i-1].Kind == analysis.Identifier) {
				// "the 208-240 unit and the 480 unit": a device named by
				// its voltage or its model number, not a unit of measure.
				continue
			}
			if (i == 0 || toks[i-1].Text != "per") && (i+1 == len(toks) || toks[i+1].Kind != analysis.Number) {
				return true
			}
		}
	}
	return false
}

// anyUnit before "unit" says any unit will do: "whatever unit the sheet
// is in".
var anyUnit = map[string]bool{"whatever": true, "any": true, "either": true, "whichever": true}

// unitCounted returns the dimension of the unit "how many" counts, the
// word right after it or after one or two words that say which ("how many
// dc amps", "how many max input volts"), and the words from the first after
// "how many" to the unit; nil when no unit follows. A column's name there
// ("how many Idcmax", as the glossary writes "how many max dc amps") gives
// the column's quantity and no words.
func unitCounted(after []analysis.Token) ([]guard.Dimension, []string) {
	for j, t := range after[:min(len(after), 3)] {
		if t.Kind != analysis.Word || durationUnits[t.Term] {
			return nil, nil
		}
		if d := guard.UnitWordDimension(t.Text); d == guard.DimTime {
			// "how many years": a count of years is a span of time
			// and a count alike, as with days (see howCue).
			return nil, nil
		} else if d != "" {
			return []guard.Dimension{d}, cueWords(after[:j+1])
		}
		if dims, n := strongCues.At(after[j:]); n == 1 && columnCues[t.Term] {
			return dims, nil
		}
		if j == 2 || !unitQualifiers[t.Term] {
			return nil, nil
		}
	}
	return nil, nil
}

// columnCues are the cues that are column names of equipment sheets.
var columnCues = analysis.TermSet("paco pdco pso pnt vdco vdcmax idcmax isco impo voco vmpo")

// unitQualifiers say which of a quantity is counted: "how many dc amps".
var unitQualifiers = analysis.TermSet("dc ac max maximum min minimum input output rated nominal peak")

// durationUnits are the time units that are cues only in the plural.
var durationUnits = analysis.TermSet("days hours weeks months minutes")

// coefficientWords after a cue make it the quantity a coefficient applies
// to.
var coefficientWords = map[string]bool{"coefficient": true, "coefficients": true, "factor": true, "factors": true,
	"parameter": true, "parameters": true, "constant": true, "constants": true, "exponent": true, "exponents": true}

// headWords after a cue are the head of the phrase: the cue says which loss
// or extent ("nameplate rating loss" is a loss, "wind speed height" a
// height).
var headWords = map[string]bool{"loss": true, "losses": true, "height": true, "length": true, "width": true,
	"depth": true, "distance": true, "spacing": true, "thickness": true, "diameter": true}

// rateWords before a cue make it the denominator of a rate.
var rateWords = map[string]bool{"per": true, "a": true, "an": true, "each": true, "every": true, "/": true}
