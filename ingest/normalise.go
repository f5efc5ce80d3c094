package ingest

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// normaliseText prepares extracted text for indexing and quoting: NFKC folds
// compatibility characters (the "ﬃ" ligature becomes "ffi", non-breaking
// spaces become spaces); soft hyphens, zero-width characters and control
// characters other than newline and tab are dropped; runs of spaces collapse
// and each line is trimmed; more than one blank line collapses to one.
func normaliseText(s string) string {
	s = foldCompatibility(s)
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

// foldCompatibility applies NFKC except to superscript and subscript digits
// and signs and the micro sign, which carry meaning in units ("mm²", "m³",
// "µm") and must be quoted as the document prints them.
func foldCompatibility(s string) string {
	if norm.NFKC.IsNormalString(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	start := 0
	for i, r := range s {
		if keepAsPrinted(r) {
			b.WriteString(norm.NFKC.String(s[start:i]))
			b.WriteRune(r)
			start = i + utf8.RuneLen(r)
		}
	}
	b.WriteString(norm.NFKC.String(s[start:]))
	return b.String()
}

func keepAsPrinted(r rune) bool {
	switch {
	case r == '²' || r == '³' || r == '¹' || r == 'µ':
		return true
	case r >= '\u2070' && r <= '\u209f': // superscripts and subscripts block
		return true
	}
	return false
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
