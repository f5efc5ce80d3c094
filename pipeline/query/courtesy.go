package query

import (
	"regexp"
	"strings"
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
// someone to answer ("quick q:", "tldr:", "does anyone know", "can you tell me",
// "pls check"), each followed by optional punctuation.
var courtesyOpen = regexp.MustCompile(`(?i)^\s*(?:@[\w.-]+\s*[,:]?\s+)?` +
	`(?:(?:hey|hi|hello|hiya|yo|good morning)(?:\s+(?:cew|there|team|all|folks|guys|everyone))?\s*[,!:.-]*\s+)?` +
	`(?:(?:sorry\s+if\s+(?:this|it)(?:'s|\s+is)\s+(?:a\s+)?(?:basic|dumb|stupid|obvious|silly|naive)(?:\s+(?:one|question|q))?|` +
	`(?:probably\s+)?(?:a\s+)?(?:basic|dumb|stupid|silly|naive|noob|newbie)\s+(?:question|q)(?:\s+but)?)\s*[,!:.-]*\s+)?` +
	`(?:(?:quick|short)\s+(?:q|question)\s*[:,.-]+\s*|q\s*:\s*|question\s*:\s*|tl;?\s?dr\s*[:,.-]+\s*|` +
	`(?:(?:does|do)\s+)?(?:any(?:one|body)|some(?:one|body))\s+know\s+|any\s+ideas?\s*[:,-]?\s+|` +
	`(?:can|could|would)\s+(?:you|u|someone|anyone)\s+(?:please\s+|pls\s+)?(?:tell|confirm|check|find|look up)\s+(?:me\s+)?|` +
	`(?:please|pls|plz)\s+(?:tell\s+me|check|confirm|find|look up)\s+|` +
	`(?:i\s+)?need\s+to\s+know\s+|(?:just\s+|i'?m\s+|i\s+am\s+)?wondering\s+|do\s+(?:you|u)\s+know\s+)?`)

// courtesyClose matches the thanks and pleas a question may end with:
// "- thanks!", "pls", "asap", "cheers", "thx in advance", "lmk".
var courtesyClose = regexp.MustCompile(`(?i)[\s,;.!-]*\b(?:thanks(?:\s+(?:in\s+advance|a\s+lot|so\s+much))?|thank\s+(?:you|u)|thx|tia|ty|cheers|` +
	`pls|plz|please|asap|much\s+appreciated|appreciate\s+it|lmk|let\s+me\s+know)\b[\s!.?]*$`)

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
