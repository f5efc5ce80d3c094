package query

import (
	"regexp"
	"strings"
)

// Engineers paste questions with ticket numbers, item markers and pointers
// to where they looked ("#3", "re: JIRA-1182", "(see table 6)"). Those
// numbers say nothing about the answer; read as constraints they pull the
// answer towards whatever passage happens to hold a 3 or a 6.

// strayPatterns match text that is removed from the question whole. A
// pointer left in the question ("the defaults in table 6") is not removed:
// the pre-guard does not require it (see guard.KeyTerms).
var strayPatterns = []*regexp.Regexp{
	// A parenthesised pointer or note: "(see table 6)", "(ref. 12)",
	// "(ticket 1182)", "(#3)", "(job 2231)".
	regexp.MustCompile(`(?i)[(\[]\s*(?:see|ref\.?|refs?|reference|cf\.?|per|re:?|ticket|issue|jira|task|item|case|req|request|rfi|ncr|wo|po|#)[^)\]]*[)\]]`),
	regexp.MustCompile(`(?i)[(\[]\s*(?:job|proj|project)\s*(?:no\.?|number|#)?\s*[:#-]?\s*[A-Za-z]*-?\d[\w-]*\s*[)\]]`),
	// "re: #8288", "per #12": the marker with the word that points at it.
	regexp.MustCompile(`(?i)\b(?:re|ref|per)\s*:?\s*#\s?[A-Za-z]*-?\d[\w-]*`),
	// "…, need it for RFI 17": a closing note naming the ticket the answer
	// is for.
	regexp.MustCompile(`(?i)[,;?.-]?\s*\bneed (?:it|them|this|that|\d+)(?: \w+){0,2} for (?:an? |the |our |my )?(?:ticket|jira|issue|task|rfi|ncr|wo|po|cr|submittal)\s*[:#-]?\s*[A-Za-z]*-?\d+\s*[?.!]*\s*$`),
	// "#3", "# 12", "#A-17": an item or ticket marker.
	regexp.MustCompile(`(?:^|\s)#\s?[A-Za-z]*-?\d[\w-]*`),
	// "re: JIRA-1182", "ref: ABC-12", "fwd:" at the start or anywhere
	// before a ticket number.
	regexp.MustCompile(`(?i)^\s*(?:re|ref|fwd?|fw)\s*:\s*(?:[A-Za-z]+-?\d[\w-]*\s*[:,-]?\s*)?`),
	regexp.MustCompile(`(?i)\b(?:re|ref)\s*:\s*[A-Za-z]*-?\d[\w-]*`),
	// "ticket 1182", "JIRA-1182", "PRJ-2231", "issue #12", "WO 5531", "PO 7731",
	// "RFI-12", "AI-12" (a meeting's action item) anywhere, with the "re"
	// or "per" that points at it ("re JIRA-904").
	regexp.MustCompile(`(?i)\b(?:(?:re|ref|per)\s*:?\s+)?(?:ticket|jira|prj|issue|task|work order|wo|purchase order|po|p\.o\.|rfi|ncr|action item|ai)\s*[:#-]?\s*(?:[A-Za-z]+-)?\d+\b`),
	// The channel a question is posted to, opening it: "#site-env — per
	// the epa guide …".
	regexp.MustCompile(`(?i)^\s*#[a-z][\w-]*\s*[—–:-]?\s+`),
	// "re PRJ-1182" or "re: ABC-77" that ends the question, whatever the
	// tracker's prefix: a key of letters, a hyphen and a number. Inside a
	// question "re" may point at what it asks about ("re SB-5000 paco").
	regexp.MustCompile(`(?i)[,;-]?\s*\bre\s*:?\s+[a-z]{2,6}-\d{1,6}\s*[?.!]*\s*$`),
	// A closing note of what the answer is for: "…, need it spelled out for
	// the env section of the bid", "- need 2 for the toolbox talk". It
	// names no passage's words.
	regexp.MustCompile(`(?i)[,;?.-]?\s*\bneed (?:it|them|this|that|\d+)(?: \w+){0,2} for (?:the|our|my|a|an) [\w\s-]{1,40}?\s*[?.!]*\s*$`),
	// A note in brackets of what the answer is for, on the asker's side:
	// "(for tbl 2 in our writeup)". Its numbers point at the asker's
	// papers, not the documents'.
	regexp.MustCompile(`(?i)\(\s*for\b[^()]*\b(?:our|my)\b[^()]*\)`),
	// A file's name ("inverters_2012", "CEC_Inverters.csv"): where the user
	// looked, as "the sandia list" is; no passage writes it.
	regexp.MustCompile(`(?i)\b\w*_[\w.-]*?(?:\d{4}[\w.-]*|\.(?:csv|xlsx?|pdf|docx?))\b`),
	// A specification section by its MasterFormat number, with the
	// clause in it ("spec 26 31 00 §2.4.B", "div 01 57 19 ¶1.4"): the
	// asker's project specification, which says why the question is
	// asked, not what answers it.
	regexp.MustCompile(`(?i)\b(?:spec(?:ification)?s?|div(?:ision)?|section|sect?\.?)\s+\d{2}\s\d{2}\s\d{2}(?:\.\d{2})?` +
		`(?:\s*,?\s*(?:§|¶|para\.?|paragraph|clause|art\.?|article)\s*\d+(?:\.[A-Za-z0-9]+)*)?`),
	// A clause by its section or paragraph sign alone: "§3.2.C", "¶ 1.4".
	regexp.MustCompile(`[§¶]\s*\d+(?:\.[A-Za-z0-9]+)*`),
	// A trailing "see table 6" / "per section 11" pointer.
	regexp.MustCompile(`(?i)[,;-]?\s*\b(?:see|per|cf\.?|ref\.?)\s+(?:table|tab\.?|fig\.?|figure|section|sec\.?|page|p\.|eq\.?|eqn\.?|equation|item|appendix)\s*\d+[a-z]?\b\.?`),
}

// keyPatterns match a tracker's key where a model number could stand too:
// in square brackets ("[CR-1134]") or in capitals after a spaced dash, a
// comma or the question mark, ending the question ("… paco - PRJ-3125",
// "… limit? CHG-4418"), and a drawing's number. The key is stray unless
// the index knows it as a model number ("…, PVI-6000").
var keyPatterns = []*regexp.Regexp{
	regexp.MustCompile(`\[\s*([A-Za-z]{2,6}-\d{1,6})\s*\]`),
	// A drawing of the asker's set, and the detail on it: "drawing S-501
	// detail 4 needs the gap …" says what the answer is for, unless the
	// index holds that drawing.
	regexp.MustCompile(`(?i)\b(?:drawing|dwg\.?)\s+([A-Z]{1,3}-?\d{2,4}[A-Z]?)(?:\s+(?:detail|det\.?|section|elevation|elev\.?)\s+\d{1,3}[A-Z]?)?`),
	regexp.MustCompile(`(?:\s[-–—]|[,?])\s*([A-Z]{2,6}-\d{1,6})\s*[?.!]*\s*$`),
}

// numberedItem is "#" and a short number after a word that names the
// numbered things of a document, before more of the question: "scenario
// #4 in the iea bifi table" asks about scenario 4, and the "#" is dropped
// rather than the number; so does "scenario #1 - name + hub height", a
// dash or colon then more of the question. At the end of the question
// ("… sim #3") or with a longer number ("job #4471") it is a ticket.
var numberedItem = regexp.MustCompile(`(?i)\b(scenario|scen|system|case|option|step|site|row|table|tbl|figure|fig|equation|eqn|eq)\s*#\s?(\d{1,2})(\s+(?:[-–—:]\s+)?\w)`)

// removeStray returns text without stray references and the references
// removed, as written. model reports whether the index knows a key as a
// model number (nil: it knows none).
func removeStray(text string, model func(string) bool) (string, []string) {
	text = numberedItem.ReplaceAllString(text, "$1 $2$3")
	var removed []string
	remove := func(m string) string {
		if t := strings.TrimSpace(m); t != "" {
			removed = append(removed, t)
		}
		return " "
	}
	for _, re := range keyPatterns {
		text = re.ReplaceAllStringFunc(text, func(m string) string {
			if model != nil && model(re.FindStringSubmatch(m)[1]) {
				return m
			}
			return remove(m)
		})
	}
	for _, re := range strayPatterns {
		text = re.ReplaceAllStringFunc(text, remove)
	}
	return tidy(text), removed
}

// tidy collapses white space and drops punctuation left dangling at the
// ends by a removal ("? ," → "?").
func tidy(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	s = strings.Trim(s, " ,;:-–—")
	s = strings.ReplaceAll(s, " ?", "?")
	s = strings.ReplaceAll(s, " ,", ",")
	return s
}
