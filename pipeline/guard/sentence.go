package guard

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Sentence is one statement of an answer with the sources it cites.
type Sentence struct {
	// Text is the sentence as written, citations included, without a
	// leading bullet marker.
	Text string
	// Claim is Text without its citation markers: what must be supported.
	Claim string
	// Citations are the source numbers cited, in order, repeats removed;
	// numbers that could not be read are 0.
	Citations []int
	// Bullet is set for an item of a bulleted or numbered list.
	Bullet bool
}

// CitationGroupPattern is the grammar of a citation group, "[S1]", "[S1,
// S3]" or "[S1; S2]", for patterns elsewhere that must read citations the
// way the guard does.
const CitationGroupPattern = `\[S\d+(?:\s*[,;]\s*S?\d+)*\]`

// StripCitations removes every citation group of s with the space before
// it: "… 800 mm [S1]." reads "… 800 mm.".
func StripCitations(s string) string { return citationWithSpace.ReplaceAllString(s, "") }

// citationGroup matches "[S1]", "[S1, S3]" and "[S1; S2]": the same grammar
// the pipeline renumbers when it formats sources, so a citation the guard
// accepts is always one the user sees renumbered correctly.
var (
	citationGroup = regexp.MustCompile(CitationGroupPattern)
	citationNum   = regexp.MustCompile(`\d+`)
	// citationAtStart finds a citation at the start of a string without
	// scanning the rest of it.
	citationAtStart = regexp.MustCompile(`^` + citationGroup.String())
	// citationWithSpace also takes the space before a citation, so the
	// claim of "… 800 mm [S1]." reads "… 800 mm.".
	citationWithSpace = regexp.MustCompile(`\s*` + citationGroup.String())
	// bulletMarker is a list item's marker at the start of a line.
	bulletMarker = regexp.MustCompile(`^(?:[-*•–—▪◦]|\d{1,3}[.)]|[a-zA-Z][.)])\s+`)
)

// maxCitationNumber bounds what is parsed, so "[S99999999999999999999]" is
// an invalid citation rather than an overflow.
const maxCitationNumber = 1 << 20

// SplitSentences cuts an answer into sentences. Lines are cut first (every
// list item is its own sentence), then each line at sentence-ending
// punctuation. A citation belongs to the sentence it ends: in "… 800 mm
// [S1]. Next …" and in "… 800 mm. [S1] Next …" alike, [S1] cites the first
// sentence. A line holding only citations belongs to the line before.
func SplitSentences(answer string) []Sentence {
	var out []Sentence
	for line := range strings.SplitSeq(strings.ReplaceAll(answer, "\r\n", "\n"), "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if strings.TrimSpace(citationGroup.ReplaceAllString(line, "")) == "" && len(out) > 0 {
			last := &out[len(out)-1]
			last.Text += " " + line
			last.Citations = appendCitations(last.Citations, line)
			continue
		}
		bullet := false
		if loc := bulletMarker.FindStringIndex(line); loc != nil {
			line, bullet = strings.TrimSpace(line[loc[1]:]), true
		}
		for _, s := range splitLine(line) {
			out = append(out, Sentence{
				Text:      s,
				Claim:     strings.Join(strings.Fields(citationWithSpace.ReplaceAllString(s, "")), " "),
				Citations: appendCitations(nil, s),
				Bullet:    bullet,
			})
		}
	}
	return out
}

// appendCitations appends the distinct source numbers cited in s.
func appendCitations(dst []int, s string) []int {
	for _, group := range citationGroup.FindAllString(s, -1) {
		for _, num := range citationNum.FindAllString(group, -1) {
			n, err := strconv.Atoi(num)
			if err != nil || n > maxCitationNumber {
				n = 0
			}
			if !containsInt(dst, n) {
				dst = append(dst, n)
			}
		}
	}
	return dst
}

func containsInt(s []int, n int) bool {
	for _, v := range s {
		if v == n {
			return true
		}
	}
	return false
}

// RenumberCitations rewrites the numbers inside every citation group
// ("[S3]", "[S1, S3]") through renumber; numbers it does not map stay.
func RenumberCitations(text string, renumber map[int]int) string {
	return citationGroup.ReplaceAllStringFunc(text, func(group string) string {
		return citationNum.ReplaceAllStringFunc(group, func(num string) string {
			n, err := strconv.Atoi(num)
			if err != nil {
				return num
			}
			if m, ok := renumber[n]; ok {
				return strconv.Itoa(m)
			}
			return num
		})
	})
}

// SplitLine cuts one line of text into sentences, as the post-guard reads
// them; the extractive generator quotes units cut by the same rules.
func SplitLine(line string) []string { return splitLine(line) }

// splitLine cuts one line at sentence ends: ".", "!" or "?" (with any
// closing quotes or brackets) followed by space, where the next text starts
// like a sentence and the period does not end an abbreviation or an
// initial. Citations right after the punctuation stay with the sentence.
func splitLine(line string) []string {
	var out []string
	start := 0
	for i := 0; i < len(line); {
		r, size := utf8.DecodeRuneInString(line[i:])
		if r != '.' && r != '!' && r != '?' {
			i += size
			continue
		}
		end := i + size
		for end < len(line) {
			c, n := utf8.DecodeRuneInString(line[end:])
			if !strings.ContainsRune(`"')]”’»`, c) {
				break
			}
			end += n
		}
		if end < len(line) && line[end] != ' ' && line[end] != '\t' && !citationAtStart.MatchString(line[end:]) {
			i = end
			continue
		}
		// Pull in citations written after the punctuation.
		next := skipSpace(line, end)
		for {
			loc := citationAtStart.FindStringIndex(line[next:])
			if loc == nil {
				break
			}
			end = next + loc[1]
			next = skipSpace(line, end)
		}
		if next < len(line) && (r == '.' && !endsSentence(line[start:i]) || !startsSentence(line[next:]) || !hasWordChar(line[next:]) ||
			inTableRow(line[start:i], line[next:])) {
			// Not a sentence end; nor is one followed only by punctuation
			// ("… LAST MINUTE!!!) [S1].") or one inside a table row.
			i = end
			continue
		}
		if s := strings.TrimSpace(line[start:end]); s != "" {
			out = append(out, s)
		}
		start, i = next, next
	}
	if s := strings.TrimSpace(line[start:]); s != "" {
		out = append(out, s)
	}
	return out
}

// inTableRow reports whether a sentence end stands between two cells of
// one table row quoted as "a | b | c": "Status: V1 | Original online
// calculator. | 239 TMY2 sites. Added 1998 | Retiring [S1]" is one row, and
// the row, not a part of a cell, is what its citation vouches for.
func inTableRow(before, after string) bool {
	if i := citationGroup.FindStringIndex(after); i != nil {
		after = after[:i[0]]
	}
	return strings.Contains(before, " | ") && strings.Contains(after, " | ") ||
		strings.HasPrefix(after, "| ")
}

// hasWordChar reports whether s holds a letter or a digit.
func hasWordChar(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) })
}

func skipSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i
}

// startsSentence reports whether text could begin a sentence: anything but
// a lower-case letter, which after a period ("approx. four") continues the
// sentence.
func startsSentence(text string) bool {
	r, _ := utf8.DecodeRuneInString(text)
	return !unicode.IsLower(r)
}

// endsSentence reports whether a period after before ends a sentence rather
// than an abbreviation ("e.g.", "No.", "approx.") or an initial ("J.",
// "U.S.").
func endsSentence(before string) bool {
	i := strings.LastIndexFunc(before, func(r rune) bool { return unicode.IsSpace(r) || r == '(' })
	word := before[i+1:]
	if word == "" {
		return true
	}
	if r, size := utf8.DecodeRuneInString(word); size == len(word) && unicode.IsUpper(r) {
		return false
	}
	if strings.Contains(word, ".") && len(word) <= 5 && !strings.ContainsFunc(word, func(r rune) bool { return r != '.' && !unicode.IsLetter(r) }) {
		// "e.g", "i.e", "U.S": dotted abbreviations.
		return false
	}
	_, abbr := abbreviations[strings.ToLower(word)]
	return !abbr
}

// abbreviations are words that end in a period without ending a sentence
// in technical writing.
var abbreviations = func() map[string]struct{} {
	m := map[string]struct{}{}
	for _, w := range strings.Fields(`approx appx ca cf dia e.g eg etc fig figs i.e ie incl max min
		mr mrs ms dr no nos nr num pp p ref refs rev sec sect st vs vol eq eqs eqn eqns al tab approx no
		jan feb mar apr jun jul aug sep sept oct nov dec inc ltd co corp dept est mfr mfrs mfg`) {
		m[w] = struct{}{}
	}
	return m
}()
