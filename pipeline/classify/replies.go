package classify

import "github.com/cewhq/cew/answer"

// The canned replies classification picks; their wording, phrased for each
// platform, lives with the answer contract (answer.CannedText).
const (
	ReplyGreeting    = answer.CannedGreeting
	ReplyThanks      = answer.CannedThanks
	ReplyBye         = answer.CannedBye
	ReplyAcknowledge = answer.CannedAcknowledge
	// ReplyAbout answers "who are you", "how are you" and other questions
	// about cew itself.
	ReplyAbout = answer.CannedAbout
	ReplyHelp  = answer.CannedHelp
)
