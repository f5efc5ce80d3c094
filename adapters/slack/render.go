package slack

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/cewhq/cew/adapters/internal/notice"
	"github.com/cewhq/cew/answer"
	slackapi "github.com/slack-go/slack"
)

// Slack's Block Kit limits.
const (
	// maxTextLen is Slack's limit of 3000 characters per text object
	// (section text, context element). Lengths are counted in UTF-16 code
	// units, which is never less than Slack's own character count.
	maxTextLen = 3000
	// maxBlocks is Slack's limit of 50 blocks per message.
	maxBlocks = 50
	// maxButtonTextLen is Slack's limit of 75 characters of button text.
	maxButtonTextLen = 75
	// maxButtonValueLen is Slack's limit of 2000 characters per button value.
	maxButtonValueLen = 2000
	// maxFallbackLen bounds a message's top-level text, which Slack shows in
	// notifications; Slack truncates text over 40,000 characters, a
	// notification needs far less.
	maxFallbackLen = 3000
	// maxURLLen is Slack's limit of 3000 characters per button url.
	maxURLLen = 3000
	// maxRelatedShown bounds the "Closest documents" of a not-found answer.
	maxRelatedShown = 5
)

// Action ids of the buttons cew renders; interactivity dispatches on them.
const (
	actionFeedbackUp   = "cew_feedback_up"
	actionFeedbackDown = "cew_feedback_down"
	actionShare        = "cew_share"
	// actionOpenPrefix starts the ids of "Open in Drive" link buttons. Slack
	// reports clicks on link buttons too; they need no handling.
	actionOpenPrefix = "cew_open_"
)

// refusal answers in a workspace that is not mapped to a tenant.
var refusal = notice.Refusal("Slack workspace")

// Render turns an answer into Block Kit blocks for a channel or DM message.
// It is pure: the same answer always renders the same blocks, within
// Slack's limits, with every document and answer text escaped so it can
// neither mention anyone nor render links.
func Render(ans answer.Answer) []slackapi.Block {
	return render(ans, renderOptions{})
}

// RenderStatus renders a document status lookup ("/cew status <document>"):
// one card per document with its register status and an "Open in Drive"
// button. Render uses it for status answers.
func RenderStatus(ans answer.Answer) []slackapi.Block {
	if ans.Status != answer.StatusAnswered {
		return Render(ans)
	}
	return statusBlocks(ans, renderOptions{}, maxBlocks)
}

// FallbackText is the plain text Slack shows in notifications and to
// clients that cannot display blocks.
func FallbackText(ans answer.Answer) string {
	text := strings.TrimSpace(ans.Answer)
	if text == "" {
		text = answer.Apology(ans.ID)
	}
	parts := splitText(text, maxFallbackLen)
	return escape(parts[0])
}

// renderOptions are the variations of a message.
type renderOptions struct {
	// shareValue, when set, adds a "Share in channel" button with this
	// value (ephemeral slash-command answers).
	shareValue string
	// askedBy and question head a shared answer, so the channel sees what
	// was asked and by whom.
	askedBy  string
	question string
}

func render(ans answer.Answer, opt renderOptions) []slackapi.Block {
	var head []slackapi.Block
	if opt.question != "" {
		head = append(head, askedContext(opt.askedBy, opt.question))
	}
	room := maxBlocks - len(head)
	var body []slackapi.Block
	switch {
	case ans.Status == answer.StatusAnswered && ans.Intent == answer.IntentDocumentStatus:
		body = statusBlocks(ans, opt, room)
	case ans.Status == answer.StatusAnswered:
		body = answeredBlocks(ans, opt, room)
	case ans.Status == answer.StatusNotFound && ans.Intent == answer.IntentDocumentStatus:
		// A register lookup that matched nothing says so itself.
		body = append(textSections(ans.Answer, room-1), contextText(escape(notice.StatusHint)))
	case ans.Status == answer.StatusNotFound:
		body = notFoundBlocks(ans, opt, room)
	case ans.Status == answer.StatusError:
		body = textSections(answer.OrApology(ans), room)
	default: // blocked (validation, rate limit), smalltalk, help: the message alone
		body = textSections(ans.Answer, room)
	}
	return append(head, body...)
}

// answeredBlocks: the answer, each cited source with its Drive button, the
// confidence line and the feedback buttons.
func answeredBlocks(ans answer.Answer, opt renderOptions, room int) []slackapi.Block {
	trailer := []slackapi.Block{confidenceContext(ans)}
	if a := actionsBlock(ans.ID, opt.shareValue); a != nil {
		trailer = append(trailer, a)
	}
	// The answer itself comes first: at most what leaves room for the
	// trailer and, when there are sources, a divider and one source line.
	answerRoom := room - len(trailer)
	if len(ans.Sources) > 0 {
		answerRoom -= 2
	}
	blocks := textSections(ans.Answer, answerRoom)
	if budget := room - len(blocks) - len(trailer) - 1; len(ans.Sources) > 0 && budget > 0 {
		blocks = append(blocks, slackapi.NewDividerBlock())
		blocks = append(blocks, listBlocks(ans.Sources, budget, sourceSection, "sources")...)
	}
	return append(blocks, trailer...)
}

// notFoundBlocks: the exact not-found sentence, why in plain words, and the
// closest documents to look in.
func notFoundBlocks(ans answer.Answer, opt renderOptions, room int) []slackapi.Block {
	text := ans.Answer
	if strings.TrimSpace(text) == "" {
		text = answer.NotFoundText
	}
	blocks := textSections(text, 1)
	if why := answer.Why(ans); why != "" {
		blocks = append(blocks, contextText("*Why:* "+escape(why)))
	}
	var trailer []slackapi.Block
	if a := actionsBlock(ans.ID, opt.shareValue); a != nil {
		trailer = append(trailer, a)
	}
	if len(ans.Related) > 0 {
		blocks = append(blocks, section("*Closest documents:*"))
		related := ans.Related
		if len(related) > maxRelatedShown {
			related = related[:maxRelatedShown]
		}
		budget := room - len(blocks) - len(trailer)
		list := listBlocks(related, budget, relatedSection, "documents")
		if hidden := len(ans.Related) - len(related); hidden > 0 && len(list) == len(related) && budget > len(list) {
			list = append(list, contextText(fmt.Sprintf("…and %d more documents", hidden)))
		}
		blocks = append(blocks, list...)
	}
	return append(blocks, trailer...)
}

// statusBlocks: a card per document of a register lookup.
func statusBlocks(ans answer.Answer, opt renderOptions, room int) []slackapi.Block {
	title := "*Document status*"
	if n := len(ans.Sources); n > 1 {
		title = fmt.Sprintf("*Document status: %d matching documents*", n)
	}
	blocks := []slackapi.Block{section(title)}
	var trailer []slackapi.Block
	if r := strings.TrimSpace(ans.Confidence.Reason); r != "" {
		trailer = append(trailer, contextText(escape(r)))
	}
	if opt.shareValue != "" {
		trailer = append(trailer, slackapi.NewActionBlock(blockActions, shareButton(opt.shareValue)))
	}
	if len(ans.Sources) == 0 {
		blocks = append(blocks, textSections(ans.Answer, room-len(blocks)-len(trailer))...)
	}
	blocks = append(blocks, listBlocks(ans.Sources, room-len(blocks)-len(trailer), statusCard, "documents")...)
	return append(blocks, trailer...)
}

// listBlocks renders up to budget items, replacing the last ones with an
// "…and N more" line when they do not all fit.
func listBlocks(items []answer.Source, budget int, one func(int, answer.Source) slackapi.Block, noun string) []slackapi.Block {
	if budget <= 0 || len(items) == 0 {
		return nil
	}
	shown := len(items)
	if shown > budget {
		shown = budget - 1 // room for the "…and N more" line
	}
	out := make([]slackapi.Block, 0, shown+1)
	for i := range shown {
		out = append(out, one(i, items[i]))
	}
	if shown < len(items) {
		out = append(out, contextText(fmt.Sprintf("…and %d more %s", len(items)-shown, noun)))
	}
	return out
}

// sourceSection is one cited source: "[S1] number — title", where in the
// document, a short quote, and the Drive button.
func sourceSection(i int, s answer.Source) slackapi.Block {
	var b strings.Builder
	fmt.Fprintf(&b, "*[S%d] %s*", i+1, escape(answer.Name(s)))
	if loc := location(s); loc != "" {
		b.WriteString("\n" + escape(loc))
	}
	if q := strings.TrimSpace(s.Snippet); q != "" {
		b.WriteString("\n>" + escape(q))
	}
	return linkSection(b.String(), s.DriveLink, i)
}

// relatedSection is one document worth looking in after a not-found answer.
func relatedSection(i int, s answer.Source) slackapi.Block {
	text := "• " + escape(answer.Name(s))
	if loc := location(s); loc != "" {
		text += "\n" + escape(loc)
	}
	return linkSection(text, s.DriveLink, i)
}

// statusCard is one document of a register lookup: its name, then its
// status line without the name repeated.
func statusCard(i int, s answer.Source) slackapi.Block {
	name := answer.Name(s)
	text := "*" + escape(name) + "*"
	if line := strings.TrimSpace(strings.TrimPrefix(s.Snippet, name)); line != "" {
		r, n := utf8.DecodeRuneInString(line)
		text += "\n" + escape(string(unicode.ToUpper(r))+line[n:])
	}
	return linkSection(text, s.DriveLink, i)
}

// linkSection is a section with an "Open in Drive" button when there is a
// link to open.
func linkSection(text, link string, i int) slackapi.Block {
	var acc *slackapi.Accessory
	if link = strings.TrimSpace(link); isWebLink(link) {
		btn := slackapi.NewButtonBlockElement(actionOpenPrefix+strconv.Itoa(i+1), "", plain("Open in Drive"))
		btn.URL = link
		acc = slackapi.NewAccessory(btn)
	}
	return slackapi.NewSectionBlock(mrkdwn(truncateEscaped(text, maxTextLen)), nil, acc)
}

// isWebLink keeps anything but http(s) links (javascript:, slack:// …) and
// links over Slack's limit off buttons.
func isWebLink(link string) bool {
	l := strings.ToLower(link)
	return (strings.HasPrefix(l, "https://") || strings.HasPrefix(l, "http://")) && len(link) <= maxURLLen
}

// location says where in the document a source is, as one line.
func location(s answer.Source) string {
	return strings.Join(answer.Location(s), " · ")
}

// confidenceContext: "Confidence: high (0.86) · reason".
func confidenceContext(ans answer.Answer) slackapi.Block {
	c := ans.Confidence
	text := "Confidence: *" + escape(string(c.Level)) + "* (" + strconv.FormatFloat(c.Score, 'f', 2, 64) + ")"
	if c.Level == "" {
		text = "Confidence: *unknown*"
	}
	if r := strings.TrimSpace(c.Reason); r != "" {
		text += " · " + escape(r)
	}
	if ans.Cached {
		text += " · cached answer"
	}
	return contextText(text)
}

// Block ids.
const blockActions = "cew_actions"

// actionsBlock holds the feedback buttons (whose value is the answer id) and
// the share button of an ephemeral answer; nil when there is neither.
func actionsBlock(answerID, shareValue string) slackapi.Block {
	var els []slackapi.BlockElement
	if answerID != "" && len(answerID) <= maxButtonValueLen {
		els = append(els,
			slackapi.NewButtonBlockElement(actionFeedbackUp, answerID, plain("👍 Helpful")),
			slackapi.NewButtonBlockElement(actionFeedbackDown, answerID, plain("👎 Not helpful")))
	}
	if shareValue != "" {
		els = append(els, shareButton(shareValue))
	}
	if len(els) == 0 {
		return nil
	}
	return slackapi.NewActionBlock(blockActions, els...)
}

func shareButton(value string) slackapi.BlockElement {
	btn := slackapi.NewButtonBlockElement(actionShare, value, plain("Share in channel"))
	btn.Style = slackapi.StylePrimary
	return btn
}

// askedContext heads a shared answer: who asked what.
func askedContext(user, question string) slackapi.Block {
	who := "Asked"
	if validUserID(user) {
		who = "Asked by <@" + user + ">"
	}
	return contextText(truncateEscaped(who+" with /cew: "+escape(question), maxTextLen))
}

// validUserID accepts Slack user ids only, so nothing else can be turned
// into a mention.
func validUserID(id string) bool {
	if len(id) < 2 || len(id) > 32 || (id[0] != 'U' && id[0] != 'W') {
		return false
	}
	for _, r := range id {
		if (r < 'A' || r > 'Z') && (r < '0' || r > '9') {
			return false
		}
	}
	return true
}

// textSections renders text as mrkdwn sections of at most maxTextLen
// characters each, split on paragraph, line, sentence or word boundaries,
// using at most room blocks (the last one says the text was shortened).
func textSections(text string, room int) []slackapi.Block {
	if room <= 0 {
		return nil
	}
	text = strings.TrimSpace(text)
	if text == "" {
		return nil
	}
	parts := splitText(text, maxTextLen)
	if len(parts) > room {
		parts = parts[:room]
		last := parts[room-1]
		parts[room-1] = truncateRaw(last, maxTextLen-len(" …(shortened)")) + " …(shortened)"
	}
	out := make([]slackapi.Block, len(parts))
	for i, p := range parts {
		out[i] = slackapi.NewSectionBlock(mrkdwn(escape(p)), nil, nil)
	}
	return out
}

func section(text string) slackapi.Block {
	return slackapi.NewSectionBlock(mrkdwn(text), nil, nil)
}

func contextText(text string) slackapi.Block {
	return slackapi.NewContextBlock("", mrkdwn(truncateEscaped(text, maxTextLen)))
}

// mrkdwn is a verbatim mrkdwn text object: Slack must not turn "@channel",
// channel names or bare URLs in document text into mentions or links.
func mrkdwn(text string) *slackapi.TextBlockObject {
	return slackapi.NewTextBlockObject(slackapi.MarkdownType, text, false, true)
}

func plain(text string) *slackapi.TextBlockObject {
	return slackapi.NewTextBlockObject(slackapi.PlainTextType, truncateRaw(text, maxButtonTextLen), true, false)
}

// escape makes text inert in mrkdwn: Slack's control sequences (<!channel>,
// <!here>, <@U…>, <url|label>) all start with "<", and Slack asks for
// exactly these three characters to be escaped.
func escape(s string) string {
	return mrkdwnEscaper.Replace(s)
}

var mrkdwnEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

// textLen is a length as Slack counts it, in UTF-16 code units.
func textLen(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

// escapedLen is textLen(escape(s)) without building the string.
func escapedLen(s string) int {
	n := 0
	for _, r := range s {
		switch r {
		case '&':
			n += 5
		case '<', '>':
			n += 4
		default:
			n += utf16.RuneLen(r)
		}
	}
	return n
}

// splitText cuts raw text into parts whose escaped length is at most limit,
// preferring paragraph breaks, then line breaks, then sentence ends, then
// spaces; a part is cut mid-word only when a single word is over the limit.
func splitText(text string, limit int) []string {
	var parts []string
	for escapedLen(text) > limit {
		end := prefixWithin(text, limit) // byte offset: text[:end] fits
		cut := breakPoint(text[:end])
		part := strings.TrimRight(text[:cut], " \n")
		if part == "" {
			part, cut = text[:end], end
		}
		parts = append(parts, part)
		text = strings.TrimLeft(text[cut:], " \n")
	}
	if text != "" || len(parts) == 0 {
		parts = append(parts, text)
	}
	return parts
}

// prefixWithin is the longest prefix (in bytes, on a rune boundary) whose
// escaped length is at most limit.
func prefixWithin(text string, limit int) int {
	n := 0
	for i, r := range text {
		w := utf16.RuneLen(r)
		switch r {
		case '&':
			w = 5
		case '<', '>':
			w = 4
		}
		if n+w > limit {
			return i
		}
		n += w
	}
	return len(text)
}

// breakPoint is where to end a part taken from prefix: after the last
// paragraph break, line break, sentence end or space in its second half.
func breakPoint(prefix string) int {
	half := len(prefix) / 2
	for _, sep := range []string{"\n\n", "\n"} {
		if i := strings.LastIndex(prefix, sep); i >= half {
			return i + len(sep)
		}
	}
	for i := len(prefix) - 2; i >= half; i-- {
		if (prefix[i] == '.' || prefix[i] == '!' || prefix[i] == '?' || prefix[i] == ';') && prefix[i+1] == ' ' {
			return i + 2
		}
	}
	if i := strings.LastIndexByte(prefix, ' '); i >= half {
		return i + 1
	}
	return len(prefix)
}

// truncateRaw shortens raw text to at most limit escaped characters.
func truncateRaw(text string, limit int) string {
	if escapedLen(text) <= limit {
		return text
	}
	return strings.TrimSpace(text[:prefixWithin(text, limit-1)]) + "…"
}

// truncateEscaped shortens already escaped mrkdwn to at most limit
// characters without cutting an entity (&amp;) in half.
func truncateEscaped(text string, limit int) string {
	if textLen(text) <= limit {
		return text
	}
	n, end := 0, 0
	for i, r := range text {
		w := utf16.RuneLen(r)
		if n+w > limit-1 {
			break
		}
		n += w
		end = i + utf8.RuneLen(r)
	}
	s := text[:end]
	if amp := strings.LastIndexByte(s, '&'); amp >= 0 && !strings.Contains(s[amp:], ";") {
		s = s[:amp]
	}
	return s + "…"
}

// shareRef is the value of a "Share in channel" button: the answer to
// share and, for when this replica no longer holds it, how to ask again.
type shareRef struct {
	AnswerID string `json:"id"`
	Status   bool   `json:"st,omitempty"` // a /cew status lookup
	Question string `json:"q"`
}

// encodeShareRef fits the reference into Slack's button value limit by
// shortening the question.
func encodeShareRef(r shareRef) string {
	for {
		data, err := json.Marshal(r)
		if err != nil {
			return ""
		}
		if len(data) <= maxButtonValueLen {
			return string(data)
		}
		over := len(data) - maxButtonValueLen
		cut := max(0, len(r.Question)-over-8)
		for cut > 0 && !utf8.RuneStart(r.Question[cut]) {
			cut--
		}
		r.Question = r.Question[:cut]
	}
}

func decodeShareRef(value string) (shareRef, bool) {
	var r shareRef
	if err := json.Unmarshal([]byte(value), &r); err != nil || (r.AnswerID == "" && r.Question == "") {
		return shareRef{}, false
	}
	return r, true
}
