// Package guard holds the checks that keep cew from saying anything the
// documents do not say: input validation, the pre-generation guard on the
// retrieved chunks, and the post-generation guard on the answer itself.
package guard

// Reason codes why a question was not answered. Not answering is a value,
// not an error.
type Reason string

const (
	None             Reason = ""
	EmptyQuestion    Reason = "EMPTY_QUESTION"
	TooLong          Reason = "TOO_LONG"
	InvalidChars     Reason = "INVALID_CHARACTERS"
	NoContent        Reason = "NO_CONTENT"
	UnsupportedLang  Reason = "UNSUPPORTED_LANGUAGE"
	NoChunks         Reason = "NO_CHUNKS_FOUND"
	LowRelevance     Reason = "LOW_RELEVANCE"
	NoKeywordMatch   Reason = "NO_KEYWORD_MATCH"
	MissingMetadata  Reason = "MISSING_METADATA"
	NoSource         Reason = "NO_SOURCE"
	Uncited          Reason = "UNCITED"
	InvalidCitation  Reason = "INVALID_CITATION"
	Forbidden        Reason = "FORBIDDEN_LANGUAGE"
	Compliance       Reason = "COMPLIANCE_CLAIM"
	UngroundedNumber Reason = "UNGROUNDED_NUMBER"
	Ungrounded       Reason = "UNGROUNDED"
	WrongLanguage    Reason = "WRONG_LANGUAGE"
	DocNotFound      Reason = "DOCUMENT_NOT_FOUND"
	Internal         Reason = "INTERNAL_ERROR"
)
