package answer

import (
	"fmt"
	"strings"
)

// Name is how a source's document is named: its contract name, else number
// and title, else its id.
func Name(s Source) string {
	if s.DocName != "" {
		return s.DocName
	}
	if s.DocNumber != "" || s.Title != "" {
		return strings.Trim(s.DocNumber+" — "+s.Title, " —")
	}
	return s.DocID
}

// Location says where in its document a source sits, as parts a renderer
// joins: "Rev 03", then "page 6" or "sheet Cables, row 12", then
// "section 4.2 Trenches". Parts that are unknown are left out.
func Location(s Source) []string {
	var parts []string
	if s.Revision != "" {
		parts = append(parts, "Rev "+s.Revision)
	}
	switch {
	case s.Sheet != "" && s.Row > 0:
		parts = append(parts, fmt.Sprintf("sheet %s, row %d", s.Sheet, s.Row))
	case s.Sheet != "":
		parts = append(parts, "sheet "+s.Sheet)
	case s.Page > 0:
		parts = append(parts, fmt.Sprintf("page %d", s.Page))
	}
	if s.Section != "" {
		parts = append(parts, "section "+s.Section)
	}
	return parts
}

// Apology is what a user reads when answering failed: ref is the reference
// to quote (the answer or event id), "" for none.
func Apology(ref string) string {
	if ref == "" {
		return "Sorry, something went wrong while searching the documents. Please try again."
	}
	return "Sorry, something went wrong while searching the documents. Please try again; " +
		"if it keeps happening, quote reference " + ref + "."
}

// OrApology is an error answer's text, or the apology when it has none.
func OrApology(ans Answer) string {
	if strings.TrimSpace(ans.Answer) != "" {
		return ans.Answer
	}
	return Apology(ans.ID)
}

// Failed is the answer a user reads when answering failed: ans itself when
// it already apologises, else the apology alone, quoting ans's id or, when
// it has none, ref (the event or activity id).
func Failed(ans Answer, ref string) Answer {
	if ans.Status == StatusError && strings.TrimSpace(ans.Answer) != "" {
		return ans
	}
	if ans.ID != "" {
		ref = ans.ID
	}
	return Answer{ID: ans.ID, Status: StatusError, Answer: Apology(ref)}
}
