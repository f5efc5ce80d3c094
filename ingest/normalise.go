package ingest

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// normaliseText prepares extracted text for indexing and quoting: NFKC folds
// compatibility characters (the "ﬃ" ligature becomes "ffi", non-breaking
// spaces become spaces); soft hyphens, zero-width characters and control
// characters other than newline and tab are dropped; runs of spaces collapse
// and each line is trimmed; more than one blank line collapses to one.
func normaliseText(s string) string {
	s = norm.NFKC.String(s)
	var b strings.Builder
	b.Grow(len(s))
	blank := 0
	for i, line := range strings.Split(s, "\n") {
		line = cleanLine(line)
		if line == "" {
			blank++
			continue
		}
		if i > 0 && b.Len() > 0 {
			if blank > 0 {
				b.WriteString("\n\n")
			} else {
				b.WriteByte('\n')
			}
		}
		blank = 0
		b.WriteString(line)
	}
	return b.String()
}

func cleanLine(line string) string {
	var b strings.Builder
	b.Grow(len(line))
	space := false
	for _, r := range line {
		switch {
		case r == '\u00ad', r == '\u200b', r == '\u200c', r == '\u200d', r == '\ufeff', r == '\u0002':
			// Soft hyphen, zero-width characters, BOM, and the U+0002 that
			// PDFium emits for a soft hyphen at a line end.
			continue
		case r == '\t' || unicode.IsSpace(r):
			space = true
			continue
		case unicode.IsControl(r) || r == unicode.ReplacementChar:
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteRune(r)
	}
	return b.String()
}
