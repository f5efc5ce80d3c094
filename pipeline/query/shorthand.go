package query

import (
	"regexp"
	"strings"
	"unicode"

	"github.com/cewhq/cew/store/analysis"
)

// shorthand maps the clipped words engineers type to the words documents
// write. Unlike abbreviations (GCR, LID, NOCT), which documents use too and
// which retrieval only adds to, shorthand is replaced in the question —
// unless the index itself uses the short form, in which case it stays.
var shorthand = map[string]string{
	"temp": "temperature", "temps": "temperatures", "coeff": "coefficient", "coef": "coefficient",
	"coeffs": "coefficients", "coefs": "coefficients", "eff": "efficiency", "effic": "efficiency", "inv": "inverter",
	"invs": "inverters", "mod": "module", "mods": "modules", "sys": "system", "avg": "average",
	"approx": "approximately", "qty": "quantity", "dia": "diameter", "elev": "elevation",
	"spec": "specification", "specs": "specifications", "config": "configuration",
	"configs": "configurations", "bifi": "bifacial", "irr": "irradiance", "yr": "year",
	"yrs": "years", "mfr": "manufacturer", "mfg": "manufacturer", "pwr": "power", "thru": "through", "wrt": "regarding",
	"deg": "degrees", "degs": "degrees", "perf": "performance", "calc": "calculation",
	"calcs": "calculations", "sim": "simulation", "sims": "simulations", "param": "parameter", "params": "parameters", "info": "information",
	"req": "requirement", "reqs": "requirements", "reqd": "required", "dist": "distance",
	"ht": "height", "wt": "weight", "dims": "dimensions", "dim": "dimension", "loc": "location",
	"std": "standard", "prem": "premium", "ref": "reference", "refs": "references", "defualt": "default", "dflt": "default",
	"jan": "january", "feb": "february", "mar": "march", "apr": "april", "jun": "june", "jul": "july",
	"aug": "august", "sep": "september", "sept": "september", "oct": "october", "nov": "november", "dec": "december",
	"haz": "hazardous", "env": "environmental", "enviro": "environmental", "reg": "regulation", "regs": "regulations",
	"cert": "certification", "certs": "certifications", "demo": "demolition", "constr": "construction",
	"bldg": "building", "bldgs": "buildings", "equip": "equipment", "mgmt": "management", "govt": "government", "fed": "federal",
	"dept": "department", "maint": "maintenance", "elec": "electrical", "pct": "percent", "hrly": "hourly",
	"scen": "scenario", "scens": "scenarios", "btwn": "between", "betw": "between", "abt": "about", "req'd": "required", "ver": "version",
	"db": "database", "docs": "documents", "tbl": "table", "tbls": "tables", "vs": "versus", "whats": "what is", "hows": "how is", "whts": "what is",
	"uid": "unique id", "incl": "including", "excl": "excluding", "cw": "clockwise", "ccw": "counterclockwise", "nite": "night",
}

// minMax are read as minimum/maximum only before a word, not after a
// number ("5 min" is five minutes).
var minMax = map[string]string{"min": "minimum", "max": "maximum"}

// clippedUnits are units that, after no number, name something else: the
// span of time itself ("sunrise hr" is the sunrise hour, "3 hr" stays three
// hours), or a section ("sec 404" is section 404, "30 sec" stays).
var clippedUnits = map[string]string{"hr": "hour", "hrs": "hours", "wk": "week", "wks": "weeks", "sec": "section", "secs": "sections"}

// squareCubic are read as square/cubic only before a unit of length ("sq
// ft", "cu m"): alone, "cu" is copper.
var squareCubic = map[string]string{"sq": "square", "cu": "cubic"}

// lengthUnits are the units "sq" and "cu" qualify.
var lengthUnits = map[string]bool{"ft": true, "feet": true, "foot": true, "in": true, "inch": true, "inches": true,
	"yd": true, "yds": true, "yard": true, "yards": true, "mi": true, "m": true, "mm": true, "cm": true, "km": true}

// expandShorthand replaces shorthand in text. known reports whether the
// index uses a word itself (nil: it uses none of them). It returns the new
// text and the replacements made.
func expandShorthand(text string, known func(string) bool) (string, []Correction) {
	text, with := expandWith(text)
	text, out := replaceWords(text, func(i int, t analysis.Token, toks []analysis.Token) string {
		if t.Kind != analysis.Word || hyphenated(text, t) {
			// "Ref-A" is a name, not a clipped word.
			return ""
		}
		long, ok := shorthand[t.Text]
		if base, found := strings.CutSuffix(t.Text, "'s"); !ok && found {
			// "a bldg's life": the possessive of the clipped word.
			if long, ok = shorthand[base]; ok {
				long += "'s"
			}
		}
		if !ok {
			long, ok = minMax[t.Text]
			// "idc max + pnt": the word before and "max" spell a column
			// the index knows ("Idcmax"), which "maximum" would not.
			ok = ok && i+1 < len(toks) && toks[i+1].Kind == analysis.Word &&
				(i == 0 || toks[i-1].Kind != analysis.Number && (known == nil || !known(toks[i-1].Text+t.Text)))
		}
		if !ok {
			long, ok = clippedUnits[t.Text]
			ok = ok && (i == 0 || toks[i-1].Kind != analysis.Number)
		}
		if !ok {
			long, ok = squareCubic[t.Text]
			ok = ok && i+1 < len(toks) && lengthUnits[toks[i+1].Text]
		}
		if !ok && t.Text == "n" && between(toks, i) {
			// "vac n paco": a lone "n" between two words joins them.
			return "and"
		}
		if !ok || known != nil && known(t.Text) && !alwaysExpand[t.Text] {
			return ""
		}
		return long
	})
	return text, append(with, out...)
}

// withSlash is "w/" and "w/o" written for with and without ("14 % w/ 96 %
// inverter", "ballasts w/ pcbs"), which the tokenizer would split into a
// stray "w" and "o".
var withSlash = regexp.MustCompile(`(?i)\bw/(o\b)?[ \t]*`)

// ampersand is "&" standing alone for "and" ("day & month field ranges");
// "o&m" keeps it. The reader joins two things asked by the word.
var ampersand = regexp.MustCompile(`(?:^|\s)&(?:\s|$)`)

// loHi is a range's two ends clipped and paired: "mppt window lo/hi",
// "tamb hi/lo". Alone, "hi" greets and "lo" is rarely a word at all.
var loHi = regexp.MustCompile(`(?i)\b(lo|hi)\s*/\s*(lo|hi)\b`)

// rowsChoice asks how many modules a tracker carries across its tube, as
// trackers are sold: "1p or 2p", "1-up or 2-up" asks the configuration.
var rowsChoice = regexp.MustCompile(`(?i)\b[12]-?(?:p|up)\s+or\s+[12]-?(?:p|up)\b`)

// equalsWhat is an abbreviation that opens a question as a sum left open:
// "pvpmc = ?" asks what PVPMC stands for ("eq 3: cos = ?" asks no such thing).
var equalsWhat = regexp.MustCompile(`(?i)^\s*([a-z][a-z&]{1,9})\s*=\s*\?`)

// loHiEnds spells out the ends loHi reads.
var loHiEnds = map[string]string{"lo": "low", "hi": "high"}

// numberOf is "number of" clipped: "no. of", "# of", "num of", "nr of". A
// "#" ending a word is not one: "unique id# of the …" is the ID# column.
var numberOf = regexp.MustCompile(`(?i)(?:\b(?:no\.?|num|nr)|(?:^|\s)#)\s*of\b`)

// expandWith spells out "w/", "w/o", a lone "&" and a clipped "number of".
func expandWith(text string) (string, []Correction) {
	var out []Correction
	text = numberOf.ReplaceAllStringFunc(text, func(m string) string {
		lead := m[:len(m)-len(strings.TrimLeftFunc(m, unicode.IsSpace))]
		out = append(out, Correction{From: m[len(lead):], To: "number of"})
		return lead + "number of"
	})
	text = loHi.ReplaceAllStringFunc(text, func(m string) string {
		ends := loHi.FindStringSubmatch(m)
		a, b := loHiEnds[strings.ToLower(ends[1])], loHiEnds[strings.ToLower(ends[2])]
		if a == b {
			return m
		}
		out = append(out, Correction{From: m, To: a + "/" + b})
		return a + "/" + b
	})
	text = rowsChoice.ReplaceAllStringFunc(text, func(m string) string {
		out = append(out, Correction{From: m, To: "configuration"})
		return "configuration"
	})
	text = equalsWhat.ReplaceAllStringFunc(text, func(m string) string {
		word := equalsWhat.FindStringSubmatch(m)[1]
		to := "what does " + word + " stand for?"
		out = append(out, Correction{From: m, To: to})
		return to
	})
	text = ampersand.ReplaceAllStringFunc(text, func(string) string {
		out = append(out, Correction{From: "&", To: "and"})
		return " and "
	})
	text = withSlash.ReplaceAllStringFunc(text, func(m string) string {
		m = strings.TrimRight(m, " \t")
		to := "with"
		if len(m) == 3 {
			to = "without"
		}
		out = append(out, Correction{From: m, To: to})
		return to + " "
	})
	if out != nil {
		text = strings.TrimRight(text, " \t")
	}
	return text, out
}

// hyphenated reports whether a hyphen joins t to the text around it.
func hyphenated(text string, t analysis.Token) bool {
	return t.End < len(text) && text[t.End] == '-' || t.Start > 0 && text[t.Start-1] == '-'
}

// between reports whether toks[i] stands between two words that are not
// function words.
func between(toks []analysis.Token, i int) bool {
	content := func(t analysis.Token) bool { return t.Kind == analysis.Word && !analysis.IsStopword(t.Text) }
	return i > 0 && i+1 < len(toks) && content(toks[i-1]) && content(toks[i+1])
}

// alwaysExpand are shorthand forms that mean the long word even where the
// index has the short one (a "temp" folder, a "spec" sheet name, "V5 Avg"
// on a chart).
var alwaysExpand = map[string]bool{"temp": true, "ref": true, "coeff": true, "coef": true, "coefs": true, "eff": true, "defualt": true,
	"avg": true, "approx": true, "whats": true, "min": true, "max": true, "hr": true, "hrs": true, "wk": true, "wks": true}

// isShorthand reports whether the speller must leave w alone because the
// shorthand table handles it.
func isShorthand(w string) bool {
	_, ok := shorthand[w]
	_, mm := minMax[w]
	_, sc := squareCubic[w]
	_, cu := clippedUnits[w]
	return ok || mm || sc || cu
}

// voltsSpelled is a voltage written apart from its number or spelled out:
// "240 V", "240-volt", "208 volts".
var voltsSpelled = regexp.MustCompile(`(?i)\b(\d{2,4})(?:\s+|\s*-\s*)(?:v|volts?)\b`)

// spellVolts writes a voltage as the documents' model names and voltage
// columns do, its unit joined to the number ("240-volt" → "240v"), so that
// "208 V vs 240 V" names each variant the same way.
func spellVolts(text string) (string, []Correction) {
	var out []Correction
	text = voltsSpelled.ReplaceAllStringFunc(text, func(m string) string {
		to := voltsSpelled.FindStringSubmatch(m)[1] + "v"
		out = append(out, Correction{From: m, To: to})
		return to
	})
	return text, out
}

// versionSpelled is a version written out with its number: "version 1",
// "Version 5".
var versionSpelled = regexp.MustCompile(`(?i)\bversion\s+(\d{1,2})\b`)

// shortVersions writes a version as one word, "v1": the documents' tables
// and comparisons say "V5 vs V1", and the qualifier guard knows the two
// spellings for one case, while "version 1" read as two words asks for
// the number 1.
func shortVersions(text string) (string, []Correction) {
	var out []Correction
	text = versionSpelled.ReplaceAllStringFunc(text, func(m string) string {
		to := "v" + versionSpelled.FindStringSubmatch(m)[1]
		out = append(out, Correction{From: m, To: to})
		return to
	})
	return text, out
}

// unshouted returns a question typed in capitals in lower case: "CONEXT
// CL 18000 PACO AND VDCMAX" names no acronym in every word. A question with
// a few capitals ("paco of the SB7000TL-US-22") stays as typed.
func unshouted(text string) string {
	upper, letters := analysis.Capitals(text)
	if letters < minShoutedLetters || float64(upper) < shoutedShare*float64(letters) {
		return text
	}
	return strings.ToLower(text)
}

// unmarked returns text without the markdown emphasis chat clients send
// around words — "**TDD** number", "the _default_ soiling loss", "`eta_ref`
// of the typical inverter" — and the words kept. An underscore inside a
// word ("eta_ref", "CEC_Inverters.csv") is the word's own.
func unmarked(text string) string {
	for _, re := range emphasis {
		text = re.ReplaceAllString(text, "$1$2$3")
	}
	return text
}

// emphasis matches a word or words wrapped in markdown's emphasis or code
// marks, with what comes before and after.
var emphasis = []*regexp.Regexp{
	regexp.MustCompile("()`([^`\n]+)`()"),
	regexp.MustCompile(`()\*\*([^*\n]+?)\*\*()`),
	regexp.MustCompile(`(^|[\s(])__([^_\n]+?)__($|[\s).,;:?!])`),
	regexp.MustCompile(`(^|[\s(])\*([^*\s][^*\n]*?)\*($|[\s).,;:?!])`),
	regexp.MustCompile(`(^|[\s(])_([^_\s][^_\n]*?)_($|[\s).,;:?!])`),
}

// A question is typed in capitals when at least this share of its letters,
// and this many, are capitals.
const (
	shoutedShare      = 0.8
	minShoutedLetters = 12
)
