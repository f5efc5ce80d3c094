package teams

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/cewhq/cew/adapters/internal/notice"
	"github.com/cewhq/cew/answer"
)

// Adaptive Card and Teams limits.
const (
	// cardSchema and cardVersion: Teams renders Adaptive Cards up to 1.5.
	cardSchema  = "http://adaptivecards.io/schemas/adaptive-card.json"
	cardVersion = "1.5"
	// maxCardBytes keeps a card's JSON under Teams' 28 KB limit on a
	// message, with room for the rest of the activity.
	maxCardBytes = 26 * 1024
	// maxRelatedShown bounds the "Closest documents" of a not-found answer.
	maxRelatedShown = 5
	// maxURLLen bounds an "Open in Drive" link; longer ones are left out.
	maxURLLen = 2048
	// maxAnswerRunes bounds the answer text before any other shortening.
	maxAnswerRunes = 12000
)

// quoteBudgets are the quote lengths tried, longest first, until a card
// fits; 0 leaves the quotes out. Citations themselves are never dropped.
var quoteBudgets = []int{300, 120, 40, 0}

// Card is an Adaptive Card (schema 1.5) with Teams' msteams property.
type Card struct {
	Schema       string    `json:"$schema"`
	Type         string    `json:"type"`
	Version      string    `json:"version"`
	FallbackText string    `json:"fallbackText,omitempty"`
	Body         []element `json:"body"`
	Actions      []action  `json:"actions,omitempty"`
	MSTeams      *msTeams  `json:"msteams,omitempty"`
}

type msTeams struct {
	Width string `json:"width"`
}

// element is the subset of Adaptive Card elements cew renders: TextBlock
// for cew's own words, RichTextBlock with TextRuns for anything that comes
// from documents or users (TextRuns are never read as Markdown, so
// document text cannot make links or mentions), Container, ActionSet.
type element struct {
	Type      string    `json:"type"`
	Text      string    `json:"text,omitempty"`
	Wrap      bool      `json:"wrap,omitempty"`
	Weight    string    `json:"weight,omitempty"`
	Size      string    `json:"size,omitempty"`
	IsSubtle  bool      `json:"isSubtle,omitempty"`
	Spacing   string    `json:"spacing,omitempty"`
	Separator bool      `json:"separator,omitempty"`
	Style     string    `json:"style,omitempty"`
	Inlines   []textRun `json:"inlines,omitempty"`
	Items     []element `json:"items,omitempty"`
	Actions   []action  `json:"actions,omitempty"`
}

type textRun struct {
	Type     string `json:"type"`
	Text     string `json:"text"`
	Weight   string `json:"weight,omitempty"`
	Italic   bool   `json:"italic,omitempty"`
	IsSubtle bool   `json:"isSubtle,omitempty"`
}

type action struct {
	Type  string      `json:"type"`
	Title string      `json:"title"`
	URL   string      `json:"url,omitempty"`
	Data  *actionData `json:"data,omitempty"`
}

// actionData is what cew's Action.Submit buttons send back.
type actionData struct {
	Cew      string `json:"cew"` // "feedback" or "status"
	AnswerID string `json:"answer_id,omitempty"`
	Vote     string `json:"vote,omitempty"` // "up" or "down"
	Doc      string `json:"doc,omitempty"`
}

// Values of actionData.Cew.
const (
	actionFeedback = "feedback"
	actionStatus   = "status"
)

// RenderCard renders an answer as an Adaptive Card. It is pure: the same
// answer always gives the same card, under Teams' size limit, with every
// cited source kept.
func RenderCard(ans answer.Answer) Card {
	var c Card
	for _, q := range quoteBudgets {
		c = renderCard(ans, q, maxAnswerRunes)
		if cardSize(c) <= maxCardBytes {
			return c
		}
	}
	// Still too large without quotes: shorten the answer text itself.
	for runes := maxAnswerRunes / 2; runes >= 200; runes /= 2 {
		c = renderCard(ans, 0, runes)
		if cardSize(c) <= maxCardBytes {
			return c
		}
	}
	return c
}

func cardSize(c Card) int {
	data, _ := json.Marshal(c)
	return len(data)
}

func newCard(fallback string, body ...element) Card {
	return Card{
		Schema: cardSchema, Type: "AdaptiveCard", Version: cardVersion,
		FallbackText: answer.Snippet(fallback, 300), Body: body, MSTeams: &msTeams{Width: "Full"},
	}
}

func renderCard(ans answer.Answer, quoteRunes, answerRunes int) Card {
	switch {
	case ans.Status == answer.StatusAnswered && ans.Intent == answer.IntentDocumentStatus:
		return statusCard(ans)
	case ans.Status == answer.StatusAnswered:
		return answeredCard(ans, quoteRunes, answerRunes)
	case ans.Status == answer.StatusNotFound && ans.Intent == answer.IntentDocumentStatus:
		return newCard(ans.Answer, append(paragraphs(ans.Answer, answerRunes), subtle(notice.StatusHint))...)
	case ans.Status == answer.StatusNotFound:
		return notFoundCard(ans)
	case ans.Status == answer.StatusError:
		text := answer.OrApology(ans)
		return newCard(text, paragraphs(text, answerRunes)...)
	}
	// Blocked (validation, rate limit) and canned replies: the text alone.
	return newCard(ans.Answer, paragraphs(ans.Answer, answerRunes)...)
}

// answeredCard: the answer, each cited source, confidence, feedback.
func answeredCard(ans answer.Answer, quoteRunes, answerRunes int) Card {
	body := paragraphs(ans.Answer, answerRunes)
	if len(ans.Sources) > 0 {
		body = append(body, heading("Sources"))
		for i, s := range ans.Sources {
			body = append(body, sourceContainer(fmt.Sprintf("[S%d] ", i+1), s, quoteRunes, nil))
		}
	}
	body = append(body, confidenceBlock(ans))
	c := newCard(ans.Answer, body...)
	c.Actions = feedbackActions(ans.ID)
	return c
}

// notFoundCard: the exact not-found sentence, why in plain words, and the
// closest documents with their Drive links and a status button.
func notFoundCard(ans answer.Answer) Card {
	text := ans.Answer
	if strings.TrimSpace(text) == "" {
		text = answer.NotFoundText
	}
	body := paragraphs(text, maxAnswerRunes)
	if why := answer.Why(ans); why != "" {
		body = append(body, rich(run("Why: ", "Bolder"), plainRun(why)))
	}
	if len(ans.Related) > 0 {
		body = append(body, heading("Closest documents"))
		related := ans.Related
		if len(related) > maxRelatedShown {
			related = related[:maxRelatedShown]
		}
		for _, s := range related {
			var status []action
			if s.DocNumber != "" {
				status = append(status, action{Type: "Action.Submit", Title: "Status",
					Data: &actionData{Cew: actionStatus, Doc: s.DocNumber}})
			}
			body = append(body, sourceContainer("", s, 0, status))
		}
		if hidden := len(ans.Related) - len(related); hidden > 0 {
			body = append(body, subtle(fmt.Sprintf("…and %d more documents", hidden)))
		}
	}
	c := newCard(text, body...)
	c.Actions = feedbackActions(ans.ID)
	return c
}

// statusCard: a register lookup, one block per document.
func statusCard(ans answer.Answer) Card {
	title := "Document status"
	if n := len(ans.Sources); n > 1 {
		title = fmt.Sprintf("Document status: %d matching documents", n)
	}
	body := []element{heading(title)}
	for _, s := range ans.Sources {
		name := answer.Name(s)
		items := []element{rich(run(name, "Bolder"))}
		if line := strings.TrimSpace(strings.TrimPrefix(s.Snippet, name)); line != "" {
			r, n := utf8.DecodeRuneInString(line)
			items = append(items, rich(plainRun(strings.ToUpper(string(r))+line[n:])))
		}
		if a, ok := openInDrive(s.DriveLink); ok {
			items = append(items, element{Type: "ActionSet", Actions: []action{a}})
		}
		body = append(body, element{Type: "Container", Separator: true, Spacing: "Medium", Items: items})
	}
	if r := strings.TrimSpace(ans.Confidence.Reason); r != "" {
		body = append(body, rich(subtleRun(r)))
	}
	return newCard(ans.Answer, body...)
}

// HelpCard is the usage of cew in Teams ("help", the command list).
func HelpCard() Card {
	text := answer.CannedText(answer.CannedHelp, answer.PlatformTeams)
	return newCard(text, append([]element{heading("How to use cew")}, paragraphs(text, maxAnswerRunes)...)...)
}

// WelcomeCard greets a person or team that added cew.
func WelcomeCard() Card {
	greeting := answer.CannedText(answer.CannedGreeting, answer.PlatformTeams)
	help := answer.CannedText(answer.CannedHelp, answer.PlatformTeams)
	body := append(paragraphs(greeting, maxAnswerRunes), paragraphs(help, maxAnswerRunes)...)
	return newCard(greeting, body...)
}

// NoticeCard is a one-line message of the adapter itself.
func NoticeCard(text string) Card {
	return newCard(text, paragraphs(text, maxAnswerRunes)...)
}

// sourceContainer is one document: "[S1] name", where in it, a short
// quote, the Drive button and any other actions.
func sourceContainer(label string, s answer.Source, quoteRunes int, more []action) element {
	items := []element{rich(run(label+answer.Name(s), "Bolder"))}
	if loc := answer.Location(s); len(loc) > 0 {
		items = append(items, rich(subtleRun(strings.Join(loc, " · "))))
	}
	if q := strings.TrimSpace(s.Snippet); q != "" && quoteRunes > 0 {
		items = append(items, rich(textRun{Type: "TextRun", Text: "“" + answer.Snippet(q, quoteRunes) + "”", Italic: true}))
	}
	var actions []action
	if a, ok := openInDrive(s.DriveLink); ok {
		actions = append(actions, a)
	}
	if actions = append(actions, more...); len(actions) > 0 {
		items = append(items, element{Type: "ActionSet", Actions: actions})
	}
	return element{Type: "Container", Separator: true, Spacing: "Medium", Items: items}
}

// openInDrive is the "Open in Drive" button; only http(s) links get one.
func openInDrive(link string) (action, bool) {
	link = strings.TrimSpace(link)
	l := strings.ToLower(link)
	if (!strings.HasPrefix(l, "https://") && !strings.HasPrefix(l, "http://")) || len(link) > maxURLLen {
		return action{}, false
	}
	return action{Type: "Action.OpenUrl", Title: "Open in Drive", URL: link}, true
}

func confidenceBlock(ans answer.Answer) element {
	c := ans.Confidence
	level := "unknown"
	if c.Level != "" {
		level = string(c.Level) + " (" + strconv.FormatFloat(c.Score, 'f', 2, 64) + ")"
	}
	runs := []textRun{subtleRun("Confidence: "), {Type: "TextRun", Text: level, Weight: "Bolder", IsSubtle: true}}
	if r := strings.TrimSpace(c.Reason); r != "" {
		runs = append(runs, subtleRun(" · "+r))
	}
	if ans.Cached {
		runs = append(runs, subtleRun(" · cached answer"))
	}
	e := rich(runs...)
	e.Separator, e.Spacing = true, "Medium"
	return e
}

// feedbackActions are the 👍/👎 buttons; their data carries the answer id.
func feedbackActions(answerID string) []action {
	if answerID == "" {
		return nil
	}
	return []action{
		{Type: "Action.Submit", Title: "👍 Helpful", Data: &actionData{Cew: actionFeedback, AnswerID: answerID, Vote: "up"}},
		{Type: "Action.Submit", Title: "👎 Not helpful", Data: &actionData{Cew: actionFeedback, AnswerID: answerID, Vote: "down"}},
	}
}

// paragraphs renders text as one RichTextBlock per non-empty line, at most
// maxRunes runes in all (the rest is cut with a note).
func paragraphs(text string, maxRunes int) []element {
	text = strings.TrimSpace(text)
	shortened := false
	if utf8.RuneCountInString(text) > maxRunes {
		text, shortened = string([]rune(text)[:maxRunes]), true
	}
	var out []element
	for _, line := range strings.Split(text, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			out = append(out, rich(plainRun(line)))
		}
	}
	if shortened {
		out = append(out, subtle("…(shortened)"))
	}
	return out
}

func heading(text string) element {
	return element{Type: "TextBlock", Text: text, Weight: "Bolder", Size: "Medium", Wrap: true, Separator: true, Spacing: "Medium"}
}

// subtle is a line of cew's own words.
func subtle(text string) element {
	return element{Type: "TextBlock", Text: text, IsSubtle: true, Size: "Small", Wrap: true}
}

func rich(runs ...textRun) element {
	return element{Type: "RichTextBlock", Inlines: runs}
}

func plainRun(text string) textRun { return textRun{Type: "TextRun", Text: text} }

func subtleRun(text string) textRun { return textRun{Type: "TextRun", Text: text, IsSubtle: true} }

func run(text, weight string) textRun { return textRun{Type: "TextRun", Text: text, Weight: weight} }
