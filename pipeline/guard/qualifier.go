package guard

import (
	"slices"
	"strings"

	"github.com/cewhq/cew/store/analysis"
)

// Documents often state one value for each of a set of contrasting cases —
// a trench depth for DC cables and another for AC cables, a temperature
// coefficient for standard, premium and thin-film modules. A question that
// names one case must be answered by a passage about that case, never by its
// sibling: "the minimum trench depth for DC cables is 800 mm" does not
// answer a question about AC cables, however many words the two share.

// Qualifier is one mention of a case from a set of contrasting cases.
type Qualifier struct {
	// Group and Slot locate the case in qualifierGroups; two qualifiers
	// of one group and different slots are siblings.
	Group, Slot int
	// Text is the mention as written.
	Text string
	// Joined marks a case written right beside a sibling, as one
	// modifier: "premium thin film modules" asks about modules that are
	// both, which a passage about thin film alone does not answer.
	Joined bool `json:",omitempty"`
}

// qualifierGroups are sets of mutually exclusive cases; each case lists its
// spellings, as words (matched on their index terms, in order).
var qualifierGroups = [][][]string{
	{{"AC", "alternating current"}, {"DC", "direct current"}},
	{{"LV", "low voltage"}, {"MV", "medium voltage"}, {"HV", "high voltage"}},
	{{"V1", "version 1"}, {"V2", "version 2"}, {"V3", "version 3"}, {"V4", "version 4"}, {"V5", "version 5"}},
	{{"standard module", "standard modules", "standard option"}, {"premium"}, {"thin film", "thin-film", "CdTe"}},
	{{"fixed", "fixed tilt", "fixed-tilt"}, {"1-axis", "one axis", "one-axis", "single axis", "single-axis", "1 axis"},
		{"2-axis", "two axis", "two-axis", "dual axis", "dual-axis", "2 axis"}},
	{{"open rack", "open-rack"}, {"roof mount", "roof-mount", "roof mounted", "roof-mounted"}},
	{{"monofacial", "mono-facial"}, {"bifacial", "bi-facial"}},
	{{"1-up", "1 up", "one up", "one-up"}, {"2-up", "2 up", "two up", "two-up"}},
	{{"portrait"}, {"landscape"}},
	{{"minimum", "min"}, {"maximum", "max"}},
	{{"TMY2", "TMY2s"}, {"TMY3", "TMY3s"}},
	{{"residential"}, {"commercial"}, {"utility-scale", "utility scale"}},
	// Tools a value belongs to: a PVWatts default is not SAM's. A question
	// naming a tool is answered only by a passage that names it (see
	// scopeGroups).
	{{"PVWatts"}, {"SAM", "System Advisor Model"}, {"PVsyst"}, {"PVGIS"}, {"HelioScope"}, {"PV*SOL", "PVSOL"},
		{"RETScreen"}, {"Aurora Solar", "Aurora"}, {"PlantPredict"}, {"PVcase"}, {"OpenSolar"}, {"SolarFarmer"}},
	{{"onshore"}, {"offshore"}},
	{{"northern hemisphere"}, {"southern hemisphere"}},
	{{"front side", "front-side", "frontside"}, {"rear side", "rear-side", "rearside", "back side", "backside"}},
	{{"clear day", "clear days", "clear-sky day"}, {"cloudy day", "cloudy days"}},
	{{"sunrise"}, {"sunset"}},
	// "c-Si" is left out: the module database writes it for
	// monocrystalline cells, engineers for crystalline silicon of either
	// kind.
	{{"mono-Si", "monocrystalline", "mono-crystalline"}, {"mc-Si", "multicrystalline", "multi-crystalline", "polycrystalline", "poly-Si"},
		{"a-Si", "amorphous"}, {"CIGS"}},
}

// groupOf returns the index of the group whose first case is first spelt
// so, or -1.
func groupOf(spelling string) int {
	for g, set := range qualifierGroups {
		if set[0][0] == spelling {
			return g
		}
	}
	return -1
}

// boundGroup is the group of "minimum" and "maximum".
var boundGroup = groupOf("minimum")

// IsBound reports whether q is "minimum" or "maximum": a limit the same
// sentence often states both ways, not a case a passage keeps apart.
func IsBound(q Qualifier) bool { return q.Group == boundGroup }

// joinable are the groups whose cases, written side by side, make one
// modifier of a thing that would be both ("premium thin film", "fixed
// 1-axis"). "dc ac ratio", "lv mv transformer", "v1 v5 change", "tmy2 tmy3"
// and "min max" name a relation between two cases instead; tools are never
// both.
var joinable = map[int]bool{
	groupOf("standard module"): true, groupOf("fixed"): true, groupOf("open rack"): true, groupOf("monofacial"): true,
	groupOf("1-up"): true, groupOf("portrait"): true, groupOf("residential"): true, groupOf("onshore"): true,
}

// scopeGroups are the groups whose cases scope a whole document: a passage
// answers for the case only when it or its document names the case.
var scopeGroups = map[int]bool{groupOf("PVWatts"): true}

// IsScope reports whether q names a tool, whose case scopes a whole
// document (see scopeGroups).
func IsScope(q Qualifier) bool { return scopeGroups[q.Group] }

// qualifierSpellings finds every spelling of every case in a text.
var qualifierSpellings = func() *analysis.PhraseTable[[2]int] {
	spec := map[string][2]int{}
	for g, set := range qualifierGroups {
		for sl, spellings := range set {
			for _, sp := range spellings {
				spec[sp] = [2]int{g, sl}
			}
		}
	}
	return analysis.NewPhraseTable(spec)
}()

// Qualifiers returns the contrasting cases text mentions, in order, each
// case once. Engineers type "ac" and "dc" in lower case, so case does not
// matter.
func Qualifiers(text string) []Qualifier {
	toks := analysis.Tokens(text)
	var out []Qualifier
	seen := map[[2]int]int{}
	var last [2]int // the previous mention's case
	lastEnd := -1   // and the byte its text ends at
	for i := 0; i < len(toks); i++ {
		key, n := qualifierSpellings.At(toks[i:])
		if n == 0 {
			continue
		}
		if _, ok := seen[key]; !ok {
			seen[key] = len(out)
			out = append(out, Qualifier{Group: key[0], Slot: key[1], Text: text[toks[i].Start:toks[i+n-1].End]})
		}
		if lastEnd >= 0 && last[0] == key[0] && last[1] != key[1] && joinable[key[0]] &&
			strings.TrimSpace(text[lastEnd:toks[i].Start]) == "" {
			out[seen[last]].Joined, out[seen[key]].Joined = true, true
		}
		last, lastEnd = key, toks[i+n-1].End
		i += n - 1
	}
	return out
}

// SiblingOnly returns the first asked qualifier that a passage contradicts:
// the passage names a sibling of it and not the qualifier itself. text is
// the passage and context what frames it (a table's header, a section
// heading, the document title); a mention in either counts, so a passage of
// the PVWatts manual does not answer for SAM, nor a study of single-axis
// trackers for two-axis ones. It returns the asked qualifier and the
// sibling, or ok false when the passage is about the asked cases or names
// none of their siblings.
func SiblingOnly(asked []Qualifier, text, context string) (want, got Qualifier, ok bool) {
	if len(asked) == 0 {
		return Qualifier{}, Qualifier{}, false
	}
	mentioned := Qualifiers(text)
	framed := Qualifiers(context)
	both := append(slices.Clone(mentioned), framed...)
	has := func(q Qualifier) bool {
		return Mentions(mentioned, q) || Mentions(framed, q) || coversCase(text+"\n"+context, both, q)
	}
	for _, a := range asked {
		if has(a) {
			continue
		}
		if scopeGroups[a.Group] {
			// Nothing but the tool's own passages speaks for it.
			return a, Qualifier{Group: a.Group, Slot: -1, Text: "another source"}, true
		}
		for _, m := range append(mentioned, framed...) {
			if m.Group == a.Group && m.Slot != a.Slot && (a.Joined || !Mentions(asked, m)) {
				return a, m, true
			}
		}
	}
	return Qualifier{}, Qualifier{}, false
}

// trackingGroup is the group of fixed, 1-axis and 2-axis arrays.
var trackingGroup = groupOf("fixed")

// trackingWords name tracking arrays of any kind.
var trackingWords = analysis.TermSet("tracking tracker trackers tracked")

// coversCase reports whether text speaks of q's case by a word that covers
// it with its siblings: "fixed open rack and tracking systems" speaks of
// 1-axis and 2-axis arrays both, when it names neither (named are text's
// qualifiers): under the title "… on Single Axis Trackers", "tracker
// rotation" is a 1-axis tracker's.
func coversCase(text string, named []Qualifier, q Qualifier) bool {
	if q.Group != trackingGroup || q.Slot == 0 {
		return false
	}
	for _, m := range named {
		if m.Group == trackingGroup && m.Slot != 0 {
			return false
		}
	}
	for _, t := range analysis.Tokens(text) {
		if trackingWords[t.Term] {
			return true
		}
	}
	return false
}

// AskedCases returns the cases a question asks about: those it names
// (Qualifiers) and, when it names a fixed array and tracking ones only by a
// word that covers them all ("is the study for fixed tilt or trackers"),
// the 1-axis and 2-axis cases too. A passage about single-axis trackers
// answers that question; it is not about the sibling of what was asked.
func AskedCases(question string) []Qualifier {
	named := Qualifiers(question)
	fixed := slices.ContainsFunc(named, func(q Qualifier) bool { return q.Group == trackingGroup && q.Slot == 0 })
	if !fixed || !coversCase(question, named, Qualifier{Group: trackingGroup, Slot: 1}) {
		return named
	}
	for slot := 1; slot < len(qualifierGroups[trackingGroup]); slot++ {
		spellings := qualifierGroups[trackingGroup][slot]
		named = append(named, Qualifier{Group: trackingGroup, Slot: slot, Text: spellings[0]})
	}
	return named
}

// Mentions reports whether qs holds the case of q (any spelling).
func Mentions(qs []Qualifier, q Qualifier) bool {
	for _, m := range qs {
		if m.Group == q.Group && m.Slot == q.Slot {
			return true
		}
	}
	return false
}
