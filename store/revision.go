package store

import (
	"strings"
	"unicode"
)

// CompareRevisions orders revision labels the way document controllers read
// them: "02" < "10", "A" < "B" < "AA", "P1" < "P2", "Rev 3" = "03". Runs of
// digits compare numerically and everything else case-insensitively.
// It returns -1, 0 or +1.
func CompareRevisions(a, b string) int {
	a, b = normaliseRevision(a), normaliseRevision(b)
	for a != "" && b != "" {
		ra, rb := rune(a[0]), rune(b[0])
		if unicode.IsDigit(ra) && unicode.IsDigit(rb) {
			na, restA := digitRun(a)
			nb, restB := digitRun(b)
			if c := compareNumeric(na, nb); c != 0 {
				return c
			}
			a, b = restA, restB
			continue
		}
		if ra != rb {
			// A letter revision after a numeric one is a later stage in
			// common schemes only by convention; order by byte so the result
			// is at least total and stable.
			if ra < rb {
				return -1
			}
			return 1
		}
		a, b = a[1:], b[1:]
	}
	switch {
	case len(a) < len(b):
		return -1
	case len(a) > len(b):
		return 1
	}
	return 0
}

func normaliseRevision(r string) string {
	r = strings.ToUpper(strings.TrimSpace(r))
	for _, p := range []string{"REVISION", "REV.", "REV", "R."} {
		if strings.HasPrefix(r, p) {
			r = strings.TrimSpace(r[len(p):])
			break
		}
	}
	return strings.Map(func(c rune) rune {
		if unicode.IsSpace(c) || c == '-' || c == '_' || c == '.' {
			return -1
		}
		return c
	}, r)
}

func digitRun(s string) (digits, rest string) {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return strings.TrimLeft(s[:i], "0"), s[i:]
}

func compareNumeric(a, b string) int {
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
