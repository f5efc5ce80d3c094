package generate

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/cewhq/cew/pipeline/guard"
	"github.com/cewhq/cew/store"
	"github.com/cewhq/cew/store/analysis"
)

// Small local models follow the answer format loosely: they cite "[1]",
// "(S1)" or "[Source 1]", open with "Based on the provided sources,",
// dress the answer in markdown, say that they cannot find the answer in
// words of their own, and name the document they quote. tidyAnswer
// rewrites that wrapping into the format the post-guard reads, and never
// touches a claim: every word, number and unit a sentence states reaches
// the post-guard as the model wrote it.

// Citation spellings other than "[S1]".
var (
	// "[Source 1]", "[source S1]", "(Source 1)", "(S1)", "(S1, S2)",
	// "[S 1]", "【S1】", "[Sources 1, 2]".
	// A bare "(1)" is left alone: it numbers equations and list items.
	looseCitation = regexp.MustCompile(`(?i)[\[(【]\s*(?:sources?\s*:?\s*s?|s)\s*(\d{1,3}(?:\s*(?:,|;|and|&)\s*(?:sources?\s*)?s?\s*\d{1,3})*)\s*[\])】]`)
	// "[S1-S3]": a range.
	citationRange = regexp.MustCompile(`(?i)\[\s*s?(\d{1,3})\s*[-–]\s*s?(\d{1,3})\s*\]`)
	// A citation group the guard reads.
	strictCitation = regexp.MustCompile(guard.CitationGroupPattern)
	// numericCitation is "[1]" or "[1, 2]": a citation when the model
	// numbers sources that way, a reference when it copies "[12]" from a
	// document.
	numericCitation = regexp.MustCompile(`\[\s*(\d{1,3}(?:\s*,\s*\d{1,3})*)\s*\]`)
	citedNumber     = regexp.MustCompile(`\d+`)
)

// Wrapping around the answer.
var (
	// A lead-in that attributes the answer to the sources, which the
	// citations already do: "Based on the provided sources, …",
	// "According to the sources, …", "From the information provided: …".
	leadIn = regexp.MustCompile(`(?i)^(?:(?:based\s+on|according\s+to|from|per|in)\s+(?:(?:the\s+)?(?:(?:provided|given|numbered|above|available|quoted|supplied)\s+)?(?:sources?|documents?|information|context|excerpts?|data|text)(?:\s+(?:provided|given|above|supplied))?(?:\s*` + guard.CitationGroupPattern + `)?|` + guard.CitationGroupPattern + `)\s*[,:]\s*|(?:answer|response)\s*:\s*|here\s+is\s+the\s+answer\s*:\s*)`)
	// An attribution clause around a citation: "…, as stated in Table 3
	// of the PVWatts Version 5 Manual [S1]." or "…, as specified in the
	// [S4] document on page 14." Groups 1 and 3 are what it names before
	// and after the citation, group 2 the citation.
	attribution      = regexp.MustCompile(`(?i),?\s+(?:as\s+|which\s+is\s+)?(?:stated|given|listed|shown|specified|mentioned|reported|noted|defined|indicated|found)\s+(?:in|on|by)\s+([^.\[\n]*?)\s*(` + guard.CitationGroupPattern + `)((?:[^.!?\[\n]|\.\d)*)`)
	markdownEmphasis = regexp.MustCompile("\\*\\*|__|`+")
	markdownHeading  = regexp.MustCompile(`(?m)^\s{0,3}#{1,6}\s+.*$`)
)

// refusal matches a sentence that says the sources do not answer, in the
// model's own words rather than the not-found sentence.
var refusal = regexp.MustCompile(`(?i)` + strings.Join([]string{
	`\bnot\s+found\s+in\s+(?:the\s+)?(?:uploaded|provided|given)`,
	`\b(?:sources?|documents?|excerpts?|context|information)\s+(?:provided\s+)?(?:do|does|did)\s+not\s+(?:contain|mention|specify|provide|state|include|give|say|list|cover|address|answer)`,
	`\b(?:sources?|documents?|context)\s+(?:provided\s+)?(?:don't|doesn't)\s+`,
	`\bno\s+(?:information|mention|data|details?|value)\s+(?:is\s+|was\s+)?(?:provided\s+|given\s+|available\s+)?(?:about|on|regarding|for|of|in)\b`,
	`\b(?:i|we)\s+(?:cannot|can't|could\s+not|couldn't|am\s+unable\s+to|was\s+unable\s+to|do\s+not|don't)\s+(?:find|answer|determine|locate|see|have)`,
	`\b(?:is|are|was|were)\s+not\s+(?:mentioned|specified|provided|stated|given|listed|included|available|found)\s+in\s+(?:the\s+|any\s+(?:of\s+the\s+)?)?(?:provided\s+|given\s+|numbered\s+)?(?:sources?|documents?|excerpts?|context|information)`,
	`\bthere\s+is\s+no\s+(?:information|mention|data|value)\b`,
	`\bunable\s+to\s+(?:find|answer|determine)\b`,
	`\bnot\s+(?:enough|sufficient)\s+information\b`,
}, "|"))

// tidyAnswer normalises a model's answer for the post-guard; nSources is
// the number of sources the prompt gave. notFound is set when the model
// said, in any words, that the sources do not answer: cew then says the
// not-found sentence itself.
func tidyAnswer(text string, sources []store.Chunk) (tidy string, notFound bool) {
	text = markdownHeading.ReplaceAllString(text, "")
	text = markdownEmphasis.ReplaceAllString(text, "")
	text = normaliseCitations(text, len(sources))

	var lines []string
	for line := range strings.SplitSeq(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if refusal.MatchString(line) || saysNotFound(strictCitation.ReplaceAllString(line, "")) {
			// A refusal anywhere decides: the rest of such an answer is
			// either a guess or about something the question did not ask
			// (the DC depth when it asked for AC).
			return NotFoundText, true
		}
		lines = append(lines, tidyLine(line, sources))
	}
	return strings.Join(lines, "\n"), false
}

// tidyLine removes a lead-in and attribution clauses from one line.
func tidyLine(line string, sources []store.Chunk) string {
	if loc := leadIn.FindStringIndex(line); loc != nil && loc[1] < len(line) {
		rest := line[loc[1]:]
		// A citation inside the lead-in ("According to [S2], …") moves
		// to the end of the line.
		if c := strictCitation.FindString(line[:loc[1]]); c != "" && !strings.Contains(rest, c) {
			rest = appendCitation(rest, c)
		}
		line = upperFirst(rest)
	}
	return attribution.ReplaceAllStringFunc(line, func(m string) string {
		g := attribution.FindStringSubmatch(m)
		if !namesCitedSource(g[1]+" "+g[3], g[2], sources) {
			return m
		}
		return " " + g[2]
	})
}

// namesCitedSource reports whether an attribution clause ("Table 3 of the
// NREL-TP-6A20-62641 — PVWatts Version 5 Manual", or nothing before the
// citation itself: "as stated in [S3]") says nothing but where
// the cited sources are: every word of it is a word of their document
// number, title or section, or a word that points into a document. The
// citation says as much, so the clause can go; a clause with any other
// word ("section 3.4 for DC cables") is a claim and stays for the guard.
func namesCitedSource(clause, citation string, sources []store.Chunk) bool {
	names := map[string]bool{}
	for _, w := range strings.Fields("the a an of in on at from table tables figure fig page pages section sheet row rows source sources document documents manual report spreadsheet database eqn equation and") {
		names[w] = true
	}
	for _, num := range citedNumber.FindAllString(citation, -1) {
		n, _ := strconv.Atoi(num)
		if n < 1 || n > len(sources) {
			return false
		}
		c := sources[n-1]
		for _, t := range analysis.Tokens(c.DocNumber + " " + c.Title + " " + c.Section + " " + c.Sheet) {
			names[t.Text] = true
		}
	}
	for _, t := range analysis.Tokens(clause) {
		if !names[t.Text] && t.Kind != analysis.Number {
			return false
		}
	}
	return true
}

// appendCitation puts a citation before the line's final punctuation.
func appendCitation(line, citation string) string {
	trimmed := strings.TrimRight(line, " ")
	if n := len(trimmed); n > 0 && strings.ContainsRune(".!?", rune(trimmed[n-1])) {
		return trimmed[:n-1] + " " + citation + trimmed[n-1:]
	}
	return trimmed + " " + citation
}

// normaliseCitations rewrites other citation spellings as "[S#]". Bare
// numbers ("[1]") count as citations only when the answer cites no source
// as "[S#]" at all and every number is a source given; otherwise they are
// references the model copied from a document ("… losses [12]").
func normaliseCitations(text string, nSources int) string {
	text = citationRange.ReplaceAllStringFunc(text, func(m string) string {
		g := citationRange.FindStringSubmatch(m)
		from, _ := strconv.Atoi(g[1])
		to, _ := strconv.Atoi(g[2])
		if from < 1 || to < from || to > nSources {
			return m
		}
		var b strings.Builder
		for n := from; n <= to; n++ {
			b.WriteString(citation(n - 1))
		}
		return b.String()
	})
	text = looseCitation.ReplaceAllStringFunc(text, func(m string) string {
		return citationGroupOf(citedNumber.FindAllString(m, -1))
	})
	if strictCitation.MatchString(text) {
		return text
	}
	for _, m := range numericCitation.FindAllStringSubmatch(text, -1) {
		for _, num := range citedNumber.FindAllString(m[1], -1) {
			if n, err := strconv.Atoi(num); err != nil || n < 1 || n > nSources {
				return text
			}
		}
	}
	return numericCitation.ReplaceAllStringFunc(text, func(m string) string {
		return citationGroupOf(citedNumber.FindAllString(m, -1))
	})
}

func citationGroupOf(nums []string) string {
	var b strings.Builder
	for _, num := range nums {
		n, _ := strconv.Atoi(num)
		b.WriteString("[S" + strconv.Itoa(n) + "]")
	}
	return b.String()
}

func upperFirst(s string) string {
	r, size := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError || !unicode.IsLower(r) {
		return s
	}
	return string(unicode.ToUpper(r)) + s[size:]
}
