package guard

import (
	"fmt"
	"html"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// DefaultMaxChars is the longest question accepted, in characters (runes).
// A real question fits in a few hundred; the bound keeps a pasted document
// from becoming a query.
const DefaultMaxChars = 1000

// ValidateOptions configures Validate. The zero value uses the defaults.
type ValidateOptions struct {
	// MaxChars is the longest question accepted, in characters after markup
	// is removed; 0 means DefaultMaxChars.
	MaxChars int
}

// Validate cleans a question as it arrives from Slack, Teams or the command
// line and decides whether it can be asked. It removes platform markup
// (mentions, channel and link syntax, HTML tags and entities), tidies
// whitespace, and then checks, in order: something is left (EmptyQuestion),
// no control characters (InvalidChars), not too long (TooLong), at least one
// letter or digit (NoContent), written in English (UnsupportedLang).
//
// On success reason is None and clean is the question to answer. Otherwise
// message is a short explanation for the user and clean is what was left
// after markup was removed.
func Validate(question string, opts ValidateOptions) (clean string, reason Reason, message string) {
	maxChars := opts.MaxChars
	if maxChars <= 0 {
		maxChars = DefaultMaxChars
	}
	if !utf8.ValidString(question) {
		return "", InvalidChars, "Your question contains characters that could not be read; please retype it."
	}
	clean = tidySpace(StripMarkup(question))
	if clean == "" {
		return "", EmptyQuestion, "Please type a question, for example: What is the minimum trench depth for DC cables?"
	}
	for _, r := range clean {
		if isForbiddenControl(r) {
			return clean, InvalidChars, "Your question contains control characters; please retype it as plain text."
		}
	}
	if n := utf8.RuneCountInString(clean); n > maxChars {
		return clean, TooLong, fmt.Sprintf("Your question is %s characters long; the limit is %s. Please shorten it.",
			groupThousands(n), groupThousands(maxChars))
	}
	if !strings.ContainsFunc(clean, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) {
		return clean, NoContent, "Your question has no words or numbers in it; please ask about the project documents."
	}
	if !IsEnglish(clean) {
		return clean, UnsupportedLang, "cew answers questions in English only; please ask again in English."
	}
	return clean, None, ""
}

// Slack encodes mentions, channels, special commands and links in angle
// brackets (https://api.slack.com/reference/surfaces/formatting). Teams
// sends HTML, with the bot mention as <at>name</at>.
var (
	slackMarkup = regexp.MustCompile(`<([@#!])([^<>|]*)(?:\|([^<>]*))?>`)
	slackLink   = regexp.MustCompile(`<((?:https?|mailto|ftp|tel):[^<>|\s]*)(?:\|([^<>]*))?>`)
	teamsAt     = regexp.MustCompile(`(?is)<at\b[^<>]*>.*?</at\s*>`)
	// htmlBreak is a tag that separates lines or blocks of text.
	htmlBreak = regexp.MustCompile(`(?i)</?(?:br|p|div|li|ul|ol|tr|h[1-6]|blockquote)\b[^<>]*>`)
	htmlTag   = regexp.MustCompile(`</?[a-zA-Z][a-zA-Z0-9-]*(?:\s[^<>]*)?/?>`)
)

// StripMarkup removes Slack and Teams markup from a message and decodes HTML
// entities: user and group mentions and <!here>-style commands disappear,
// channels become "#name", links become their label (or the bare URL), Teams
// <at> mentions disappear and other HTML tags leave their text. Entities are
// decoded last, so an escaped "&lt;b&gt;" the user typed stays visible text.
func StripMarkup(s string) string {
	s = teamsAt.ReplaceAllString(s, " ")
	s = slackLink.ReplaceAllStringFunc(s, func(m string) string {
		sub := slackLink.FindStringSubmatch(m)
		if strings.TrimSpace(sub[2]) != "" {
			return sub[2]
		}
		return sub[1]
	})
	s = slackMarkup.ReplaceAllStringFunc(s, func(m string) string {
		sub := slackMarkup.FindStringSubmatch(m)
		kind, id, label := sub[1], sub[2], sub[3]
		switch {
		case kind == "#" && label != "":
			return "#" + label
		case kind == "!" && strings.HasPrefix(id, "date^") && label != "":
			// <!date^1392734382^{date}|Feb 18, 2014>: the fallback text is
			// what a reader sees.
			return label
		}
		return " "
	})
	s = htmlBreak.ReplaceAllString(s, "\n")
	s = htmlTag.ReplaceAllString(s, "")
	return html.UnescapeString(s)
}

// tidySpace trims every line, collapses runs of spaces and tabs, drops
// blank lines and the zero-width characters that copy and paste leaves
// behind. Line breaks survive: they separate several questions.
func tidySpace(s string) string {
	s = strings.Map(func(r rune) rune {
		switch r {
		case '\u200b', '\u200c', '\u200d', '\u2060', '\ufeff', '\u00ad':
			return -1
		case '\u00a0', '\u202f', '\u2007':
			return ' '
		}
		return r
	}, s)
	s = strings.ReplaceAll(s, "\r\n", "\n")
	var lines []string
	for line := range strings.SplitSeq(s, "\n") {
		if f := strings.FieldsFunc(line, func(r rune) bool { return r == ' ' || r == '\t' || r == '\r' }); len(f) > 0 {
			lines = append(lines, strings.Join(f, " "))
		}
	}
	return strings.Join(lines, "\n")
}

// isForbiddenControl reports control characters other than the line breaks
// and tabs tidySpace already handled, and the bidirectional overrides that
// can make a question display differently from what is searched.
func isForbiddenControl(r rune) bool {
	switch {
	case r == '\n' || r == '\t':
		return false
	case unicode.IsControl(r), r == utf8.RuneError:
		return true
	case r >= '\u202a' && r <= '\u202e', r >= '\u2066' && r <= '\u2069':
		return true
	}
	return false
}

// groupThousands writes n with comma separators: 1204 → "1,204".
func groupThousands(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
