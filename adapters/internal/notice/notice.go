// Package notice holds what chat adapters say for themselves rather than
// for the documents: searching, busy, restarting, refusals, feedback
// receipts. Every platform says the same thing in its own markup.
package notice

const (
	Searching    = "Searching the documents…"
	DraftNote    = "✏️ Draft, still being checked against the documents. Do not rely on it yet."
	Busy         = "cew is busy answering other questions right now. Please ask again in a minute."
	ShuttingDown = "cew is restarting. Please ask again in a minute."
	StatusHint   = "Try the document number, or a few words of its title."
	// FeedbackFailed: a 👍/👎 that could not be recorded.
	FeedbackFailed = "Sorry, your feedback could not be recorded. Please try again."
	// ShareRefused: a share button naming an answer shown to someone else.
	ShareRefused = "This answer can only be shared by the person who asked for it."
)

// Undelivered says an answer could not be delivered, with a reference the
// user can quote.
func Undelivered(ref string) string {
	return "Sorry, cew could not deliver the answer to your question in time. Please ask again; " +
		"if it keeps happening, quote reference " + ref + "."
}

// Refusal is the answer in a place (a Slack workspace, a Microsoft 365
// organisation) that is not mapped to a cew tenant.
func Refusal(place string) string {
	return "This " + place + " is not connected to a cew project, so I cannot answer here. " +
		"Ask your cew administrator to connect it."
}

// FeedbackRecorded thanks the user for a vote.
func FeedbackRecorded(up bool) string {
	vote := "👎"
	if up {
		vote = "👍"
	}
	return "Thanks, your " + vote + " on this answer was recorded."
}
