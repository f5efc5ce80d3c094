package query

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/cewhq/cew/pipeline/guard"
)

// People ask in chat the way they talk: "hey, quick q: paco of the
// SB7000TL-US-22 thanks", "does anyone know which thermal model pvwatts
// uses", "@cew albedo default pls". The greeting, the lead-in and the
// courtesy at the end ask nothing; left in, their words count against
// every passage (none says "thanks") and the question reads as longer and
// vaguer than it is.

// courtesyOpen matches what a question may open with before it asks: a
// typed mention, a greeting (with whom it greets), an apology for asking
// ("sorry if this is basic -", "dumb question but"), and a lead-in that asks
// someone to answer ("quick q:", "tldr:", "true or false:", "does anyone
// know", "can you tell me", "pls check") or says how exact the answer need
// be ("ballpark", "roughly": the document's figure is what there is), each
// followed by optional punctuation.
var courtesyOpen = regexp.MustCompile(`(?i)^\s*(?:@[\w.-]+\s*[,:]?\s+)?` +
	`(?:(?:(?:hey|hi|hello|hiya|yo|good\s+(?:morning|afternoon|evening))(?:\s+` + greeted + `)?\s*[,!:.-]*|` +
	`(?:morning|afternoon|evening)(?:\s+` + greeted + `\s*[,!:.-]*|\s*[,!:.-]+))\s+)?` +
	`(?:(?:sorry\s+if\s+(?:this|it)(?:'s|\s+is)\s+(?:a\s+)?(?:basic|dumb|stupid|obvious|silly|naive)(?:\s+(?:one|question|q))?|` +
	`(?:probably\s+)?(?:a\s+)?(?:basic|dumb|stupid|silly|naive|noob|newbie)\s+(?:question|q)(?:\s+but)?)\s*[,!:.-]*\s+)?` +
	`(?:(?:quick|short)\s+(?:q|question)\s*[:,.-]+\s*|(?:ballpark|roughly|approximately)(?:\s+(?:figure|number))?\s*[:,.-]*\s+|q\s*:\s*|question\s*:\s*|tl;?\s?dr\s*[:,.-]+\s*|true\s+or\s+false\s*[:?,.-]+\s*|` +
	`(?:(?:does|do)\s+)?(?:any(?:one|body)|some(?:one|body))\s+know\s+|any\s+ideas?\s*[:,-]?\s+|` +
	`(?:can|could|would)\s+(?:you|u|someone|anyone)\s+(?:please\s+|pls\s+)?(?:tell|confirm|check|find|look up)\s+(?:me\s+)?|` +
	`(?:please|pls|plz)\s+(?:tell\s+me|check|confirm|find|look up)\s+|` +
	`(?:i\s+)?need\s+to\s+know\s+|(?:just\s+|i'?m\s+|i\s+am\s+)?wondering\s+|do\s+(?:you|u)\s+know\s+)?`)

// greeted are whom a greeting greets: "hi all", "morning folks". A bare
// "morning" greets only so, or with punctuation after it ("Morning,");
// "morning peak irradiance" asks about the morning.
const greeted = `(?:cew|there|team|all|folks|guys|everyone|people|y'all)`

// courtesyClose matches the thanks and pleas a question may end with:
// "- thanks!", "pls", "asap", "cheers", "thx in advance", "lmk".
var courtesyClose = regexp.MustCompile(`(?i)[\s,;.!-]*\b(?:thanks(?:\s+(?:in\s+advance|a\s+lot|so\s+much))?|thank\s+(?:you|u)|thx|tia|ty|cheers|` +
	`pls|plz|please|asap|much\s+appreciated|appreciate\s+it|lmk|let\s+me\s+know)\b[\s!.?]*$`)

// signOff matches a message's closing on lines of its own, with the
// name it is signed with, in capitals: "Cheers,\nDan", "Thanks\n- Priya",
// "Best regards,\nJ. Smith"; "thanks\nalso pnt" asks for more.
var signOff = regexp.MustCompile(`(?i)\n\s*(?:cheers|thanks|thank\s+you|thx|ta|regards|best|best\s+regards|kind\s+regards|many\s+thanks|rgds)\s*[,!.]*\s*` +
	`(?:\n\s*[-–—]?\s*(?-i:[A-Z][\w.'-]*(?:\s+[A-Z][\w.'-]*){0,2})\s*[.!]?)?\s*$`)

// removeCourtesy returns text without its greeting, lead-in and closing
// courtesy, and what it removed as written. A question that is nothing
// but courtesy keeps its words: it asks nothing else to read.
func removeCourtesy(text string) (string, []string) {
	var removed []string
	out := text
	if m := courtesyOpen.FindString(out); strings.TrimSpace(m) != "" {
		removed = append(removed, strings.TrimSpace(m))
		out = out[len(m):]
	}
	for {
		loc := courtesyClose.FindStringIndex(out)
		if loc == nil || loc[0] == 0 {
			break
		}
		removed = append(removed, strings.TrimSpace(out[loc[0]:loc[1]]))
		out = out[:loc[0]]
	}
	if strings.TrimSpace(out) == "" {
		return text, nil
	}
	return tidy(out), removed
}

// withoutListMarkers returns text without the numbers of asks it lists,
// "1." (or "1)") at its start or after a colon, then "2.", "3." in order:
// "storm water q's: 1. what does SWPPP stand for 2. what's the web
// address". The numbers are layout, not values asked about; items not
// closed by punctuation are joined by "and". A number after a word that
// numbers a document's parts ("table 1. … table 2.") is no marker.
func withoutListMarkers(text string) string {
	type cut struct {
		from, to int
		sep      string // " and " after an ask not closed by punctuation
	}
	var cuts []cut
	want := 1
	for _, m := range listMarker.FindAllStringSubmatchIndex(text, -1) {
		n, at := text[m[2]:m[3]], m[2]
		if n != strconv.Itoa(want) {
			continue
		}
		before := strings.TrimRight(text[:at], " \t")
		if want == 1 && before != "" && !strings.HasSuffix(before, ":") {
			continue
		}
		if fields := strings.Fields(before); len(fields) > 0 && numbersParts(strings.ToLower(strings.Trim(fields[len(fields)-1], ".,;:"))) {
			continue
		}
		c := cut{from: at, to: m[3] + 1, sep: " "}
		if want > 1 && before != "" && !strings.ContainsAny(before[len(before)-1:], ".?!;:,") {
			// "1. soiling loss 2. shading loss": both are asked.
			c.sep = " and "
		}
		cuts = append(cuts, c)
		want++
	}
	if want < 3 {
		return text
	}
	for _, c := range slices.Backward(cuts) {
		text = strings.TrimRight(text[:c.from], " \t") + c.sep + text[c.to:]
	}
	return tidy(text)
}

// listMarker is a number of one digit and a full stop or bracket, then a
// word: "1. what", "2) default".
var listMarker = regexp.MustCompile(`(?:^|\s)(\d)[.)]\s+\pL`)

// numbersParts reports whether a word numbers a document's parts or a
// list's cases — the guard's pointer words ("table", "eq", "page") and
// their clippings, steps, scenarios, versions: "table 2. default values"
// is no list's second item.
func numbersParts(w string) bool { return guard.IsPointerWord(w) || numberingNouns[w] }

// numberingNouns are the words besides the guard's pointer words that
// number parts or cases.
var numberingNouns = map[string]bool{"tbl": true, "sec": true, "step": true, "scenario": true, "system": true, "case": true,
	"version": true, "v": true, "p": true, "ref": true, "item": true, "option": true}

// tickedItem matches a checklist's item ticked off ("[x] max tracker
// rotation 55 deg"): the asker has it; it is not asked.
var tickedItem = regexp.MustCompile(`^\s*\[[xX✓✔]\]`)

// quoteMark matches the mark of a line that quotes another message ("> we
// can reuse the one from the old job"): the line says what the reply is
// about, and is read without its mark.
var quoteMark = regexp.MustCompile(`^\s*>\s*`)

// demurral matches what a reply's line may open with to disagree with
// what it quotes before it asks: "not quite —", "don't think so -",
// "nope,". It asks nothing.
var demurral = regexp.MustCompile(`(?i)^(?:not\s+quite|not\s+really|nope|nah|(?:i\s+)?don'?t\s+think\s+so|hmm+)\s*[,.!:;—–-]+\s*`)

// codeFence matches a line that opens or closes a pasted block.
var codeFence = regexp.MustCompile("^```[\\w-]*$")

// openItem matches the box of a checklist's item still open: "[ ] row
// pitch for the gcr 0.25 case" asks for the row pitch.
var openItem = regexp.MustCompile(`^\s*\[\s?\]\s*`)

// joinLines reads a question of several lines: the items ticked off a
// checklist and a line's opening demurral ("not quite —") are removed
// (and returned, as written), the mark of a quoted line and the box of an
// open item are dropped, and the lines are joined,
// each ending a clause ("Expected: one row\nActual: two rows" reads
// "Expected: one row. Actual: two rows"). The sign-off of a message
// ("Cheers,\nDan") is removed too. A question of one line is returned as
// it is; one of nothing but ticked items keeps them.
func joinLines(text string) (string, []string) {
	if !strings.Contains(text, "\n") {
		return text, nil
	}
	var kept, removed []string
	if loc := signOff.FindStringIndex(text); loc != nil && strings.TrimSpace(text[:loc[0]]) != "" {
		removed = append(removed, strings.TrimSpace(text[loc[0]:]))
		text = text[:loc[0]]
	}
	for _, line := range strings.Split(text, "\n") {
		switch line = strings.TrimSpace(line); {
		case line == "" || codeFence.MatchString(line):
			// A blank line, or the fence of a pasted block ("```yaml"):
			// layout, not words.
		case tickedItem.MatchString(line):
			removed = append(removed, line)
		default:
			line = openItem.ReplaceAllString(quoteMark.ReplaceAllString(line, ""), "")
			if rest := demurral.ReplaceAllString(line, ""); rest != line && rest != "" {
				removed, line = append(removed, strings.TrimSpace(line[:len(line)-len(rest)])), rest
			}
			if line != "" {
				kept = append(kept, line)
			}
		}
	}
	if len(kept) == 0 {
		return text, removed
	}
	for i, line := range kept[:len(kept)-1] {
		if !strings.ContainsAny(line[len(line)-1:], ".?!:;,-–—") {
			kept[i] = line + "."
		}
	}
	return strings.Join(kept, " "), removed
}
