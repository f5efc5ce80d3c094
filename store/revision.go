package store

import (
	"strings"
	"unicode"
)

// CompareRevisions orders revision labels the way document controllers read
// them: "02" < "10", "A" < "B" < "Z" < "AA", "P1" < "P2" < "P10",
// "Rev 3" = "03", "2012.1.12" < "2012.2.1". A label is split into runs of
// digits and runs of letters (separators only split); runs compare in turn,
// digits numerically, letters by length then alphabetically. Two common
// conventions decide between schemes: lettered pre-issue revisions come
// before numbered issues (A, B, then 0, 1), and ISO 19650 preliminary
// revisions come before contractual ones (P01…, then C01…). A register
// status such as "Superseded" overrides the order (see MarkActive).
// It returns -1, 0 or +1.
func CompareRevisions(a, b string) int {
	ra, rb := revisionRuns(a), revisionRuns(b)
	if len(ra) > 0 && len(rb) > 0 {
		if c := compareStage(ra[0], rb[0]); c != 0 {
			return c
		}
	}
	for i := 0; i < len(ra) && i < len(rb); i++ {
		if c := compareRun(ra[i], rb[i]); c != 0 {
			return c
		}
	}
	switch {
	case len(ra) < len(rb):
		return -1
	case len(ra) > len(rb):
		return 1
	}
	return 0
}

func revisionRuns(r string) []string {
	r = strings.ToUpper(strings.TrimSpace(r))
	for _, p := range []string{"REVISION", "REV.", "REV", "R."} {
		if strings.HasPrefix(r, p) {
			r = strings.TrimSpace(r[len(p):])
			break
		}
	}
	var runs []string
	start, digits := -1, false
	for i, c := range r {
		isDigit, isLetter := unicode.IsDigit(c), unicode.IsLetter(c)
		if start >= 0 && (!(isDigit || isLetter) || isDigit != digits) {
			runs = append(runs, r[start:i])
			start = -1
		}
		if start < 0 && (isDigit || isLetter) {
			start, digits = i, isDigit
		}
	}
	if start >= 0 {
		runs = append(runs, r[start:])
	}
	return runs
}

// compareStage orders the leading runs of two labels from different
// schemes: ISO 19650's P (preliminary) before C (contractual), and a letter
// (pre-issue) before a number (issued). It returns 0 when neither applies.
func compareStage(a, b string) int {
	switch {
	case a == "P" && b == "C":
		return -1
	case a == "C" && b == "P":
		return 1
	}
	da, db := unicode.IsDigit(rune(a[0])), unicode.IsDigit(rune(b[0]))
	switch {
	case da && !db:
		return 1
	case !da && db:
		return -1
	}
	return 0
}

func compareRun(a, b string) int {
	da, db := unicode.IsDigit(rune(a[0])), unicode.IsDigit(rune(b[0]))
	switch {
	case da && db:
		a, b = strings.TrimLeft(a, "0"), strings.TrimLeft(b, "0")
	case da != db:
		// Past the first run ("3A" against "3-1"), a number before a letter.
		if da {
			return -1
		}
		return 1
	}
	if len(a) != len(b) {
		if len(a) < len(b) {
			return -1
		}
		return 1
	}
	return strings.Compare(a, b)
}

// withdrawnStatuses are register statuses that take a revision out of search
// even when it is the newest one.
var withdrawnStatuses = []string{"superseded", "withdrawn", "void", "cancelled", "canceled", "obsolete", "deleted", "rejected"}

// Withdrawn reports whether a register status removes a revision from search.
func Withdrawn(status string) bool {
	s := strings.ToLower(status)
	for _, w := range withdrawnStatuses {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// MarkActive sets Active on the revisions of one document: exactly the
// highest revision that is not withdrawn is active; if every revision is
// withdrawn none is. revs must all share one tenant and document id.
func MarkActive(revs []Document) {
	best := -1
	for i := range revs {
		revs[i].Active = false
		if Withdrawn(revs[i].Status) {
			continue
		}
		if best < 0 || CompareRevisions(revs[i].Revision, revs[best].Revision) > 0 {
			best = i
		}
	}
	if best >= 0 {
		revs[best].Active = true
	}
}
