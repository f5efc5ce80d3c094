// Package answer is the answer contract every layer speaks: the pipeline
// produces an Answer, the bot caches and records it, every adapter renders
// it and every evaluation reads it (`cew ask --json`). It also holds the
// words that go with the contract on every platform: the not-found
// sentence, reasons in plain words, where a source sits in its document,
// the apology, and the canned replies phrased for each platform.
package answer

import (
	"strings"
	"unicode/utf8"
)

// Status says what kind of answer this is.
type Status string

const (
	StatusAnswered  Status = "answered"
	StatusNotFound  Status = "not_found"
	StatusBlocked   Status = "blocked"
	StatusSmalltalk Status = "smalltalk"
	StatusError     Status = "error"
)

// Level is how confident cew is in an answer.
type Level string

const (
	LevelHigh   Level = "high"
	LevelMedium Level = "medium"
	LevelLow    Level = "low"
)

// NotFoundText is the one sentence cew says when it cannot ground an answer.
const NotFoundText = "This information was not found in the uploaded documents."

// Source is a cited chunk, as every adapter renders it.
type Source struct {
	// ChunkID is not in the answer contract; `cew search --json` adds it.
	ChunkID   string  `json:"-"`
	DocID     string  `json:"doc_id"`
	DocName   string  `json:"doc_name"`
	Revision  string  `json:"revision"`
	Page      int     `json:"page"`
	Section   string  `json:"section"`
	Sheet     string  `json:"sheet"`
	Row       int     `json:"row"`
	DriveLink string  `json:"drive_link"`
	Snippet   string  `json:"snippet"`
	Score     float64 `json:"score"`
	// DocNumber is the document number, for renderers; the contract carries
	// it inside doc_name.
	DocNumber string `json:"-"`
	// Title is the document title without its number.
	Title string `json:"-"`
	// Text is the whole chunk, for guards and for the LLM prompt.
	Text string `json:"-"`
}

// Confidence is how sure cew is of an answer, with a reason a person can read.
type Confidence struct {
	Level  Level   `json:"level"`
	Score  float64 `json:"score"`
	Reason string  `json:"reason"`
}

// Answer is the contract every adapter renders and every evaluation reads
// (`cew ask --json`).
type Answer struct {
	ID      string   `json:"id"`
	Status  Status   `json:"status"`
	Reason  Reason   `json:"reason"`
	Answer  string   `json:"answer"`
	Intent  string   `json:"intent"`
	Sources []Source `json:"sources"`
	// Related are other documents retrieved but not cited (where else to look).
	Related    []Source           `json:"related,omitempty"`
	Confidence Confidence         `json:"confidence"`
	Cached     bool               `json:"cached"`
	TimingsMS  map[string]float64 `json:"timings_ms"`
	// Question is the question as asked; StandaloneQuestion is what was
	// answered after a follow-up was rewritten (equal when nothing was).
	Question           string `json:"question"`
	StandaloneQuestion string `json:"standalone_question"`
	// Trace records how the answer was produced, for audit and metrics.
	Trace Trace `json:"-"`
}

// IntentDocumentStatus is the intent of a register status lookup answer.
const IntentDocumentStatus = "document_status"

// Trace is the part of an answer's history that is not in the contract.
type Trace struct {
	Category   string
	Complexity string
	// Read is the question as the reader saw it (stray references removed,
	// shorthand spelled out, spelling corrected); Corrections are the words
	// replaced ("pvwats → pvwatts"), Stray the references removed ("#3")
	// and Expect the dimensions an answer's value may have.
	Read        string
	Corrections []string
	Stray       []string
	Expect      []string
	// Features are what the calibrated confidence judged the answer by.
	Features  map[string]float64
	Generator string
	// Degraded names dependencies that failed while answering (embedder,
	// reranker, llm); such answers are never cached.
	Degraded         []string
	FallbackReason   string
	PromptTokens     int
	CompletionTokens int
	PreGuard         string
	PostGuard        string
	// CitedChunks are the chunk ids behind Sources, in order.
	CitedChunks []string
}

// DocName is how a document is named to users: "number — title", or just one
// of them when the other is empty or repeats it.
func DocName(number, title string) string {
	switch {
	case number == "":
		return title
	case title == "" || strings.EqualFold(number, title):
		return number
	}
	return number + " — " + title
}

// Snippet shortens text to at most n runes on a word boundary, on one line.
func Snippet(text string, n int) string {
	text = strings.Join(strings.Fields(text), " ")
	if utf8.RuneCountInString(text) <= n {
		return text
	}
	r := []rune(text)[:n]
	s := string(r)
	if i := strings.LastIndexByte(s, ' '); i > n/2 {
		s = s[:i]
	}
	return s + "…"
}
