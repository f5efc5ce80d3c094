package classify

import (
	"strings"

	"github.com/cewhq/cew/answer"
)

// Word lists are lower-case surfaces as analysis.Tokens returns them, after
// contractions are expanded ("what's" → "what is"). Phrases are
// space-separated words matched as contiguous runs.

// Openers are stripped from the start of a message before it is classified,
// so "hi, what is the default system loss?" is a question. The value says
// which canned reply the opener calls for when nothing follows it.
var openers = phraseMap(map[string]replyKind{
	"hi": replyGreeting, "hello": replyGreeting, "hey": replyGreeting, "hiya": replyGreeting,
	"howdy": replyGreeting, "greetings": replyGreeting, "yo": replyGreeting, "dear": replyGreeting,
	"good morning": replyGreeting, "good afternoon": replyGreeting, "good evening": replyGreeting,
	"good day": replyGreeting, "morning": replyGreeting, "afternoon": replyGreeting, "evening": replyGreeting,
	"thanks": replyThanks, "thank you": replyThanks, "thanks a lot": replyThanks, "thanks again": replyThanks,
	"thank you very much": replyThanks, "thank you so much": replyThanks, "many thanks": replyThanks,
	"thx": replyThanks, "ty": replyThanks, "cheers": replyThanks,
	"ok": replyAcknowledge, "okay": replyAcknowledge, "ok so": replyAcknowledge, "so": replyAcknowledge,
	"great": replyAcknowledge, "cool": replyAcknowledge, "perfect": replyAcknowledge, "nice": replyAcknowledge,
	"alright": replyAcknowledge, "sorry": replyAcknowledge, "cew": replyNone,
	"please": replyAcknowledge, "also": replyAcknowledge, "and": replyAcknowledge,
	"one more question": replyAcknowledge, "another question": replyAcknowledge,
	"quick question": replyAcknowledge, "question": replyAcknowledge,
})

// addressees may follow an opener ("hi team", "thanks cew").
var addressees = wordSet("there", "all", "team", "everyone", "everybody", "folks", "guys", "cew", "bot", "mate")

// leadIns are request wrappers around a question; dropping them leaves
// the question itself ("can you tell me the status of drawing …").
var leadIns = phraseList(
	"can you tell me", "could you tell me", "would you tell me", "can you please tell me",
	"could you please tell me", "please tell me", "tell me", "can you let me know",
	"could you let me know", "let me know", "i want to know", "i would like to know",
	"i'd like to know", "i need to know", "do you know", "can you check", "could you check",
	"please check", "can you find", "could you find", "please find", "can you show me",
	"could you show me", "show me", "please show me", "can you give me", "could you give me",
	"give me", "i need", "i'm looking for", "i am looking for", "looking for",
)

// trailers are stripped from the end of a message ("…, thanks").
var trailers = phraseList(
	"please", "thanks", "thank you", "thanks a lot", "thank you very much", "thx", "cheers",
	"cew", "team", "mate",
)

// aboutPhrases are questions about cew itself.
var aboutPhrases = phraseList(
	"who are you", "what are you", "who is cew", "what is cew", "whats cew", "who made you",
	"who built you", "who created you", "who wrote you", "are you a bot", "are you a robot",
	"are you human", "are you a human", "are you an ai", "are you ai", "are you chatgpt",
	"are you real", "what is your name", "whats your name", "introduce yourself",
	"tell me about yourself", "how are you", "how are you doing", "how are you today",
	"how is it going", "hows it going", "how do you do", "what is up", "whats up", "sup",
	"how are things", "you there", "are you there", "are you alive", "are you working",
	"are you online",
)

// helpPhrases ask how to use cew. They match the whole message.
var helpPhrases = phraseList(
	"help", "help me", "help please", "please help", "help me please", "cew help", "show help",
	"usage", "commands", "command", "what commands", "what commands are there",
	"what commands can i use", "list commands", "options", "instructions", "manual please",
	"getting started", "how to start", "how do i start", "where do i start",
	"what can you do", "what can you do for me", "what can you help with",
	"what can you help me with", "what can i ask", "what can i ask you", "what should i ask",
	"what do you do", "what do you know", "what are you able to do", "what are your capabilities",
	"what are your features", "how do i use this", "how do i use you", "how do i use cew",
	"how do i use it", "how do i use this bot", "how to use", "how to use this", "how to use cew",
	"how to use you", "how does this work", "how does cew work", "how does it work",
	"how do you work", "how can you help", "how can you help me", "how do i ask",
	"how do i ask a question", "how should i ask", "can you help", "can you help me",
)

// listPhrases ask for the whole document register.
var listPhrases = phraseList(
	"status", "document status", "documents", "list documents", "list all documents",
	"list the documents", "show documents", "show all documents", "show the documents",
	"document list", "register", "show the register", "list the register", "document register",
	"what documents do you have", "which documents do you have", "what documents are there",
	"what documents are available", "which documents are available", "what documents are indexed",
	"which documents are indexed", "what documents have you got", "what documents can you search",
	"which documents can you search", "what files do you have", "which files do you have",
)

// Small talk is a message made only of these words with at least one
// anchor among them (or an opener before them), and not shaped like a
// question.
var (
	smalltalkAnchors = map[string]replyKind{
		"hi": replyGreeting, "hello": replyGreeting, "hey": replyGreeting, "hiya": replyGreeting,
		"howdy": replyGreeting, "greetings": replyGreeting, "yo": replyGreeting, "morning": replyGreeting,
		"afternoon": replyGreeting, "evening": replyGreeting,
		"thanks": replyThanks, "thank": replyThanks, "thx": replyThanks, "ty": replyThanks,
		"cheers": replyThanks, "appreciated": replyThanks, "appreciate": replyThanks,
		"bye": replyBye, "goodbye": replyBye, "later": replyBye, "cya": replyBye, "ttyl": replyBye,
		"night": replyBye, "weekend": replyBye, "soon": replyBye,
		"ok": replyAcknowledge, "okay": replyAcknowledge, "k": replyAcknowledge, "kk": replyAcknowledge,
		"cool": replyAcknowledge, "great": replyAcknowledge, "nice": replyAcknowledge,
		"perfect": replyAcknowledge, "awesome": replyAcknowledge, "excellent": replyAcknowledge,
		"brilliant": replyAcknowledge, "wonderful": replyAcknowledge, "fantastic": replyAcknowledge,
		"super": replyAcknowledge, "sure": replyAcknowledge, "alright": replyAcknowledge,
		"fine": replyAcknowledge, "good": replyAcknowledge, "noted": replyAcknowledge,
		"understood": replyAcknowledge, "lovely": replyAcknowledge, "amazing": replyAcknowledge,
		"yes": replyAcknowledge, "yeah": replyAcknowledge, "yep": replyAcknowledge, "no": replyAcknowledge,
		"nope": replyAcknowledge, "np": replyAcknowledge, "lol": replyAcknowledge, "haha": replyAcknowledge,
		"oops": replyAcknowledge, "wow": replyAcknowledge, "helpful": replyThanks, "sense": replyAcknowledge,
	}
	smalltalkFillers = wordSet(
		"a", "an", "the", "you", "your", "it", "that", "this", "is", "was", "for", "all", "so",
		"very", "much", "lot", "again", "too", "and", "really", "me", "my", "i", "am", "we", "there",
		"help", "helped", "one", "job", "done", "well", "day", "time", "now", "have", "see", "take",
		"care", "bot", "cew", "team", "everyone", "folks", "guys", "mate", "of", "to", "as", "always",
		"indeed", "just", "oh", "ah", "hmm", "right", "makes", "got", "sounds", "good", "great", "nice",
		"sorry", "mind", "never", "worries", "problem", "all", "set", "will", "do", "get", "back",
		"talk", "speak", "catch", "up", "go", "works", "work", "nothing", "else", "be", "not",
		"need", "anything", "more", "thats", "thank", "wish", "luck", "bless", "happy", "holidays",
	)
	// smalltalkPhrases are whole messages that would otherwise look like
	// questions or commands.
	smalltalkPhrases = map[string]replyKind{
		"will do": replyAcknowledge, "got it": replyAcknowledge, "that is all": replyAcknowledge,
		"that is it": replyAcknowledge, "that helps": replyThanks, "that helped": replyThanks,
		"that is helpful": replyThanks, "that was helpful": replyThanks, "is that all": replyAcknowledge,
		"never mind": replyAcknowledge, "no worries": replyAcknowledge, "no problem": replyAcknowledge,
		"see you": replyBye, "see ya": replyBye, "see you later": replyBye, "see you soon": replyBye,
		"see you tomorrow": replyBye, "good night": replyBye, "have a good day": replyBye,
		"have a nice day": replyBye, "have a good one": replyBye, "have a great day": replyBye,
		"have a good weekend": replyBye, "take care": replyBye, "talk later": replyBye,
		"i am done": replyBye, "that will be all": replyAcknowledge, "nothing else": replyAcknowledge,
		"well done": replyThanks, "good job": replyThanks, "good bot": replyThanks, "nice one": replyThanks,
		"makes sense": replyAcknowledge, "sounds good": replyAcknowledge, "all good": replyAcknowledge,
	}
)

// questionStarts are words that open a question; a message starting with
// one is small talk only through aboutPhrases or smalltalkPhrases.
var questionStarts = wordSet(
	"what", "which", "who", "whom", "whose", "when", "where", "why", "how", "is", "are", "was",
	"were", "do", "does", "did", "can", "could", "will", "would", "should", "shall", "may",
	"might", "must", "has", "have", "had",
)

// Document-register vocabulary. docWords name a document, so "status of the
// trench layout" is a register lookup while "status of the trench
// excavation" asks about the work.
var (
	docWords = wordSet(
		"drawing", "drawings", "dwg", "document", "documents", "doc", "docs", "manual", "manuals",
		"spec", "specs", "specification", "specifications", "datasheet", "report", "register",
		"procedure", "layout", "layouts", "revision", "revisions", "rev", "transmittal", "submittal",
	)
	revisionWords = wordSet("revision", "revisions", "rev")
	// versionQualifiers make "version" a register word: "latest version of
	// the manual", but not "PVWatts version 5".
	versionQualifiers = wordSet("latest", "current", "newest", "last", "recent", "which", "what")
	supersedeWords    = wordSet("superseded", "supersede", "supersedes", "superseding", "withdrawn")
	// activityWords describe work on site; a command "status trench
	// excavation" asks about progress, not about a document.
	activityWords = wordSet(
		"work", "works", "progress", "excavation", "installation", "construction", "commissioning",
		"erection", "delivery", "deliveries", "procurement", "earthworks", "piling", "trenching",
		"cabling", "testing", "energisation", "energization", "backfill", "backfilling", "site",
		"install", "installed", "excavated", "completed", "complete", "finished", "civil", "civils",
		"mechanical", "electrical", "foundations", "fencing", "grading", "inspection", "crew",
	)
	// registerFillers are trimmed from both ends of a register query so it
	// names only the document.
	registerFillers = wordSet(
		"what", "which", "whats", "is", "are", "was", "the", "a", "an", "of", "for", "on", "at", "in",
		"to", "status", "latest", "current", "currently", "newest", "most", "recent", "last",
		"revision", "revisions", "rev", "version", "drawing", "drawings", "dwg", "document",
		"documents", "doc", "docs", "file", "has", "have", "had", "been", "it", "superseded",
		"supersede", "supersedes", "withdrawn", "still", "valid", "now", "please", "tell", "me", "show",
		"give", "check", "can", "could", "you", "do", "does", "we", "i", "our", "project", "active",
		"issued", "register", "its", "there", "any", "newer", "new", "up", "date", "by", "number",
		"and", "or", "this", "that", "with", "lookup", "look", "find", "get",
	)
)

// Question vocabulary.
var (
	// definitionPhrases decide the category even when value words are
	// present ("what does nominal efficiency mean"). A bare "mean" counts
	// only at the end of a question or before "by", see isDefinition: "the
	// mean temperature" asks for a value.
	definitionPhrases = phraseList(
		"meaning", "meant by", "mean by", "define", "definition", "stand for", "stands for",
		"abbreviation", "acronym", "explain the term", "what is meant",
	)
	statusPhrases = phraseList(
		"status", "progress", "been completed", "been finished", "been installed", "been done",
		"is complete", "is completed", "is finished", "are complete", "are completed", "are finished",
		"how far along", "on schedule", "behind schedule", "ahead of schedule", "on track",
		"percent complete", "per cent complete", "% complete", "still outstanding", "been started",
	)
	drawingWords = wordSet(
		"drawing", "drawings", "dwg", "layout", "layouts", "diagram", "diagrams", "schematic",
		"schematics", "elevation", "elevations", "sld", "sheet", "sheets", "detail",
	)
	drawingPhrases = phraseList(
		"site plan", "plan view", "key plan", "floor plan", "general arrangement",
		"single line", "one line",
	)
	// notDrawingBefore words turn a drawing word into something else:
	// "in detail", "data sheet", "business plan".
	notDrawingBefore = wordSet("in", "more", "greater", "further", "data", "spec", "excel", "work",
		"business", "project", "quality", "safety", "management", "test", "execution", "method")
	selectionWords = wordSet(
		"choose", "choosing", "chosen", "select", "selecting", "selected", "selection", "suitable",
		"suitability", "appropriate", "recommend", "recommended", "recommendation", "preferred",
		"prefer", "compatible", "compatibility", "alternatives", "alternative", "options",
	)
	selectionPhrases = phraseList(
		"should i use", "should we use", "should be used", "can i use", "can we use", "could i use",
		"could we use", "do i need", "do we need", "which type", "what type of", "which kind",
		"what kind of", "which one", "which model", "best suited", "allowed to use", "permitted to use", "should i install", "should we install",
	)
	equipmentWords = wordSet(
		"inverter", "inverters", "module", "modules", "panel", "panels", "cable", "cables",
		"conductor", "conductors", "breaker", "breakers", "fuse", "fuses", "transformer",
		"transformers", "tracker", "trackers", "racking", "combiner", "connector", "connectors",
		"battery", "batteries", "meter", "meters", "switchgear", "mounting", "pile", "piles",
		"product", "products", "model", "models", "manufacturer", "manufacturers", "brand",
		"equipment", "material", "materials", "duct", "ducts", "conduit", "conduits", "gland",
		"glands", "isolator", "isolators", "string", "strings", "structure", "structures",
		"foundation", "foundations", "wire", "wires", "insulation", "sealant", "concrete", "grade",
		"type", "types", "option", "size",
	)
	howValue = wordSet(
		"deep", "thick", "wide", "high", "tall", "long", "far", "many", "much", "big", "large",
		"heavy", "hot", "cold", "often", "fast", "low", "small", "close", "strong", "steep", "old",
		"frequently", "efficient", "narrow", "short", "warm",
	)
	valueWords = wordSet(
		"value", "values", "size", "sizes", "sizing", "rating", "ratings", "rated", "depth", "depths",
		"width", "height", "length", "lengths", "thickness", "diameter", "radius", "distance",
		"distances", "spacing", "clearance", "clearances", "separation", "temperature",
		"temperatures", "voltage", "voltages", "amperage", "power", "capacity", "efficiency",
		"loss", "losses", "ratio", "tilt", "angle", "azimuth", "area", "weight", "load", "loads",
		"pressure", "speed", "resistance", "impedance", "gauge", "percentage", "percent", "rate",
		"limit", "limits", "tolerance", "tolerances", "factor", "coefficient", "coefficients",
		"default", "minimum", "maximum", "min", "max", "nominal", "threshold", "amount",
		"quantity", "quantities", "dimension", "dimensions", "span", "torque", "frequency",
		"irradiance", "slope", "gradient", "cover", "mm", "kv", "kw", "kwp", "mw", "mwp", "kva",
		"mva", "amps", "volts", "watts", "degrees", "metres", "meters", "millimetres",
		"millimeters", "tonnes", "kg", "kn", "mpa", "hz", "ohm", "ohms", "yield", "output",
		"derate", "degradation", "albedo", "cost", "price", "duration", "lifetime",
	)
	valuePhrases = phraseList(
		"number of", "at least", "at most", "up to", "no more than", "no less than", "not exceed",
		"how many", "how much",
	)
	// units follow a number in a question: "600 mm", "5 kW".
	units = wordSet(
		"mm", "cm", "m", "km", "in", "ft", "v", "kv", "mv", "a", "ka", "ma", "w", "kw", "kwp", "mw",
		"mwp", "gw", "kwh", "mwh", "gwh", "va", "kva", "mva", "var", "kvar", "hz", "ohm", "ohms", "kg",
		"t", "kn", "mpa", "kpa", "pa", "bar", "%", "°c", "°", "deg", "degrees", "mm2", "mm²", "m2",
		"m²", "awg", "kcmil", "years", "year", "h", "hours", "s", "ms", "lux", "wp",
	)
	compareWords = wordSet(
		"compare", "compared", "comparing", "comparison", "contrast", "contrasting", "versus", "vs",
		"differ", "differs", "differences", "difference",
	)
	comparePhrases = phraseList(
		"pros and cons", "advantages and disadvantages", "better than", "worse than",
		"relative to", "as opposed to",
	)
	// clauseStarts open a second question after "and"/"also": "what is the
	// depth and what cable is used".
	clauseStarts = wordSet(
		"what", "which", "who", "when", "where", "why", "how", "is", "are", "does", "do", "can",
		"should", "will", "could", "would", "did",
	)
)

// contractions expand the endings analysis.Tokens keeps inside a word.
var contractions = []struct{ suffix, word string }{
	{"n't", "not"}, {"'re", "are"}, {"'m", "am"}, {"'ve", "have"}, {"'ll", "will"}, {"'d", "would"},
}

// contractedIs are the words whose "'s" means "is" rather than a
// possessive.
var contractedIs = wordSet("what", "who", "how", "where", "when", "which", "that", "it", "there",
	"here", "he", "she", "why", "let")

// abbreviations are expanded into Hints.ExpandTerms so keyword retrieval
// finds documents that spell the term out (and the reverse). Keys are
// lower-case abbreviations as tokens.
var abbreviations = map[string]string{
	"ac":    "alternating current",
	"bess":  "battery energy storage system",
	"cwa":   "clean water act",
	"dc":    "direct current",
	"dhi":   "diffuse horizontal irradiance",
	"dni":   "direct normal irradiance",
	"dno":   "distribution network operator",
	"epa":   "environmental protection agency",
	"epc":   "engineering procurement and construction",
	"fgl":   "finished ground level",
	"gcr":   "ground coverage ratio",
	"ghi":   "global horizontal irradiance",
	"hdd":   "horizontal directional drilling",
	"hdpe":  "high-density polyethylene",
	"hv":    "high voltage",
	"iam":   "incidence angle modifier",
	"ifc":   "issued for construction",
	"ilr":   "inverter loading ratio",
	"itp":   "inspection and test plan",
	"lid":   "light-induced degradation",
	"lv":    "low voltage",
	"mppt":  "maximum power point tracking",
	"mv":    "medium voltage",
	"nepa":  "national environmental policy act",
	"ngl":   "natural ground level",
	"noct":  "nominal operating cell temperature",
	"npdes": "national pollutant discharge elimination system",
	"nrel":  "national renewable energy laboratory",
	"poa":   "plane of array",
	"poi":   "point of interconnection",
	"pv":    "photovoltaic",
	"rfi":   "request for information",
	"sam":   "system advisor model",
	"scada": "supervisory control and data acquisition",
	"sld":   "single line diagram",
	"spcc":  "spill prevention control and countermeasure",
	"stc":   "standard test conditions",
	"swa":   "steel wire armoured",
	"swppp": "stormwater pollution prevention plan",
	"tmy":   "typical meteorological year",
	"xlpe":  "cross-linked polyethylene",
}

// ambiguousAbbreviations are also ordinary English words; they expand only
// when written in capitals ("SAM", not "Sam"; "LID", not "lid").
var ambiguousAbbreviations = wordSet("sam", "lid", "poa")

// reply kinds select a canned text.
type replyKind uint8

const (
	replyNone replyKind = iota
	replyAcknowledge
	replyGreeting
	replyThanks
	replyBye
)

func (k replyKind) text() answer.Canned {
	switch k {
	case replyGreeting:
		return ReplyGreeting
	case replyThanks:
		return ReplyThanks
	case replyBye:
		return ReplyBye
	}
	return ReplyAcknowledge
}

func wordSet(ws ...string) map[string]bool {
	m := make(map[string]bool, len(ws))
	for _, w := range ws {
		m[w] = true
	}
	return m
}

// phrase is a run of lower-case words.
type phrase []string

func phraseList(ps ...string) []phrase {
	out := make([]phrase, len(ps))
	for i, p := range ps {
		out[i] = strings.Fields(p)
	}
	return out
}

type weightedPhrase struct {
	words phrase
	kind  replyKind
}

// phraseMap turns a map into a list ordered longest first, so "thank you
// very much" is stripped whole rather than as "thank you".
func phraseMap(m map[string]replyKind) []weightedPhrase {
	out := make([]weightedPhrase, 0, len(m))
	for p, k := range m {
		out = append(out, weightedPhrase{words: strings.Fields(p), kind: k})
	}
	sortPhrases(out)
	return out
}
