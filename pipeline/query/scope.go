package query

import (
	"regexp"
	"strings"
)

// People say where the answer should come from without naming a document:
// "according to the docs, …", "… per the uploaded docs", "… on this
// project", "… for the submittal". Every question is asked of the
// project's documents, so the phrase narrows nothing; left in, its words
// count against every passage (none says "uploaded docs") and "docs" or
// "spec" reads as a document to look up in the register. A phrase that
// names one ("per the pvwatts manual", "from the electrical spec") is no
// scope phrase and stays.

// collection is a reference to the documents as a whole: "the docs",
// "our documents", "the uploaded files", "the specs".
const collection = `(?:(?:the|our|these|those|my|your|this|all\s+the)\s+)?` +
	`(?:(?:uploaded|project|attached|shared|available|provided|submitted|project's)\s+)?` +
	`(?:docs?|documents?|documentation|files?|uploads|drawings|specs?|specifications?|paperwork)`

// scopeWhere says where: "according to the docs", "in our documents",
// "on this project", "for the submittal".
const scopeWhere = `(?:(?:according\s+to|as\s+per|per|in|from|based\s+on|going\s+by|within|checking)\s+` + collection +
	`|(?:on|for|in)\s+(?:this|the|our)\s+(?:project|job|site|submittal|package|bid))`

// scopeOpen is a scope phrase opening the question, set off by
// punctuation ("in our documents, …") or followed by a question word
// ("according to the docs what …"; the phrase is group 1).
var scopeOpen = regexp.MustCompile(`(?i)^\s*(` + scopeWhere + `)(?:\s*[,:;-]+\s*|\s+(?:what|which|how|who|when|where|is|are|does|do|did|can|could|should)\b)`)

// scopeClose is a scope phrase ending the question.
var scopeClose = regexp.MustCompile(`(?i)[\s,;-]*\b` + scopeWhere + `[\s?.!]*$`)

// removeScope returns text without a scope phrase at either end, and what
// it removed as written. A question that is nothing but the phrase keeps
// its words.
func removeScope(text string) (string, []string) {
	start, end := ScopeBounds(text)
	if start == 0 && end == len(text) {
		return text, nil
	}
	var removed []string
	if r := strings.TrimSpace(text[:start]); r != "" {
		removed = append(removed, r)
	}
	out := text[start:end]
	if r := strings.TrimSpace(text[end:]); r != "" {
		removed = append(removed, r)
		if strings.HasSuffix(r, "?") {
			out += "?"
		}
	}
	return tidy(out), removed
}

// ScopeBounds returns where the question within text starts and ends once
// a scope phrase at either end is set aside: the classifier reads only
// that part, so that "pvwatts v3 year and status from the spec" does not
// look up a document called "spec". Text that is nothing but a scope
// phrase is kept whole.
func ScopeBounds(text string) (start, end int) {
	end = len(text)
	if m := scopeOpen.FindStringSubmatchIndex(text); m != nil {
		start = m[1]
		if !strings.ContainsAny(text[m[3]:m[1]], ",:;-") {
			// The question word that ended the match stays.
			start = m[3]
		}
	}
	if loc := scopeClose.FindStringIndex(text[start:]); loc != nil && loc[0] > 0 {
		end = start + loc[0]
	}
	if strings.TrimSpace(strings.Trim(text[start:end], "? ")) == "" {
		return 0, len(text)
	}
	return start, end
}
