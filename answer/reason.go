package answer

import "strings"

// Reason codes why a question was not answered. Not answering is a value,
// not an error. The guards that produce the codes name them in their own
// package too (guard.NoChunks is ReasonNoChunks).
type Reason string

const (
	ReasonNone             Reason = ""
	ReasonEmptyQuestion    Reason = "EMPTY_QUESTION"
	ReasonTooLong          Reason = "TOO_LONG"
	ReasonInvalidChars     Reason = "INVALID_CHARACTERS"
	ReasonNoContent        Reason = "NO_CONTENT"
	ReasonUnsupportedLang  Reason = "UNSUPPORTED_LANGUAGE"
	ReasonNoChunks         Reason = "NO_CHUNKS_FOUND"
	ReasonLowRelevance     Reason = "LOW_RELEVANCE"
	ReasonNoKeywordMatch   Reason = "NO_KEYWORD_MATCH"
	ReasonMissingMetadata  Reason = "MISSING_METADATA"
	ReasonNoSource         Reason = "NO_SOURCE"
	ReasonUncited          Reason = "UNCITED"
	ReasonInvalidCitation  Reason = "INVALID_CITATION"
	ReasonForbidden        Reason = "FORBIDDEN_LANGUAGE"
	ReasonCompliance       Reason = "COMPLIANCE_CLAIM"
	ReasonUngroundedNumber Reason = "UNGROUNDED_NUMBER"
	ReasonUngrounded       Reason = "UNGROUNDED"
	ReasonWrongLanguage    Reason = "WRONG_LANGUAGE"
	// ReasonAnswerTypeMismatch: the answer holds no value of the kind asked
	// for (a depth answered with a percentage).
	ReasonAnswerTypeMismatch Reason = "ANSWER_TYPE_MISMATCH"
	// ReasonQualifierMismatch: the answer is about a sibling of the case
	// asked for (DC cables when AC was asked).
	ReasonQualifierMismatch Reason = "QUALIFIER_MISMATCH"
	// ReasonLowConfidence: the answer passed every check but its
	// calibrated confidence is too low to show.
	ReasonLowConfidence Reason = "LOW_CONFIDENCE"
	ReasonDocNotFound   Reason = "DOCUMENT_NOT_FOUND"
	ReasonInternal      Reason = "INTERNAL_ERROR"
	// ReasonRateLimited: the user or the tenant asked more than the limit.
	ReasonRateLimited Reason = "RATE_LIMITED"
)

// reasonTexts says in plain words why a question was not answered.
var reasonTexts = map[Reason]string{
	ReasonNoChunks:           "No passage in the uploaded documents matches the question.",
	ReasonLowRelevance:       "The closest passages are not relevant enough to answer from.",
	ReasonNoKeywordMatch:     "The documents do not mention the key terms of the question.",
	ReasonMissingMetadata:    "The matching passages cannot be traced to a document page or sheet row.",
	ReasonNoSource:           "The draft answer did not cite the documents.",
	ReasonUncited:            "Part of the draft answer was not backed by a citation.",
	ReasonInvalidCitation:    "The draft answer cited a passage that was not retrieved.",
	ReasonForbidden:          "The draft answer guessed instead of quoting the documents.",
	ReasonCompliance:         "The draft answer claimed compliance or approval that the documents do not state.",
	ReasonUngroundedNumber:   "A number in the draft answer does not appear in the cited passages.",
	ReasonUngrounded:         "The draft answer was not supported closely enough by the cited passages.",
	ReasonWrongLanguage:      "The draft answer was not in the language of the question.",
	ReasonAnswerTypeMismatch: "The passages found do not state a value of the kind asked for.",
	ReasonQualifierMismatch:  "The passages found are about a different case than the one asked (for example DC rather than AC).",
	ReasonLowConfidence:      "The closest passage does not answer the question clearly enough to quote.",
	ReasonDocNotFound:        "No document in the register matches.",
}

// Why says in plain words why ans was not answered: the text of its reason
// code, or its confidence reason for codes without one.
func Why(ans Answer) string {
	if why, ok := reasonTexts[ans.Reason]; ok {
		return why
	}
	return strings.TrimSpace(ans.Confidence.Reason)
}
