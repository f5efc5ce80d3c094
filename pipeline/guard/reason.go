// Package guard holds the checks that keep cew from saying anything the
// documents do not say: input validation, the pre-generation guard on the
// retrieved chunks, and the post-generation guard on the answer itself.
package guard

import "github.com/cewhq/cew/answer"

// Reason codes why a question was not answered; the codes are the answer
// contract's, named here by the guards that produce them.
type Reason = answer.Reason

const (
	None             = answer.ReasonNone
	EmptyQuestion    = answer.ReasonEmptyQuestion
	TooLong          = answer.ReasonTooLong
	InvalidChars     = answer.ReasonInvalidChars
	NoContent        = answer.ReasonNoContent
	UnsupportedLang  = answer.ReasonUnsupportedLang
	NoChunks         = answer.ReasonNoChunks
	LowRelevance     = answer.ReasonLowRelevance
	NoKeywordMatch   = answer.ReasonNoKeywordMatch
	MissingMetadata  = answer.ReasonMissingMetadata
	NoSource         = answer.ReasonNoSource
	Uncited          = answer.ReasonUncited
	InvalidCitation  = answer.ReasonInvalidCitation
	Forbidden        = answer.ReasonForbidden
	Compliance       = answer.ReasonCompliance
	UngroundedNumber = answer.ReasonUngroundedNumber
	Ungrounded       = answer.ReasonUngrounded
	WrongLanguage    = answer.ReasonWrongLanguage
	// AnswerTypeMismatch: the answer holds no value of the kind asked for.
	AnswerTypeMismatch = answer.ReasonAnswerTypeMismatch
	// QualifierMismatch: the answer is about a sibling of the case asked.
	QualifierMismatch = answer.ReasonQualifierMismatch
	// LowConfidence: calibrated confidence too low to show the answer.
	LowConfidence = answer.ReasonLowConfidence
	DocNotFound   = answer.ReasonDocNotFound
	Internal      = answer.ReasonInternal
)
