// Package generate writes the answer from the ranked chunks: the extractive
// generator quotes the sentences that answer the question (it cannot invent
// text), and the LLM generator asks an OpenAI-compatible chat model under
// the strict prompts of package prompts, falling back to the extractive one
// when the model is unavailable. Both cite every sentence as [S#], where #
// is the chunk's position in the request plus one.
package generate

import (
	"context"
	"strconv"

	"github.com/cewhq/cew/pipeline/guard"
	"github.com/cewhq/cew/store"
)

// NotFoundText is the one sentence cew says when the chunks do not answer
// the question; the system prompt dictates the same sentence.
const NotFoundText = guard.NotFoundText

// Request is one question with the ranked chunks it may be answered from.
type Request struct {
	Question string
	// Category and Complexity come from the classifier: "definition",
	// "selection", "technical_value", "drawing", "status", "general";
	// "simple" or "complex".
	Category, Complexity string
	// Expect is what kind of answer the question wants (the dimension of
	// its value, the qualifiers it names); the zero value wants nothing in
	// particular.
	Expect guard.Expectation
	// Stray are the parts of the question that ask nothing of their own
	// (query.Analysis.Stray: "(ref 9)", "#4412"), left out of Question;
	// they are read only for the references they name by number.
	Stray []string
	// Chunks are numbered [S1]… in this order.
	Chunks []store.Chunk
	// QueryVector is the question's embedding when retrieval made one.
	QueryVector []float32
	// Imprint lists the ids of the chunks that are a document's title
	// pages or back page, read for a question about the document itself
	// (guard.Expectation.Imprint).
	Imprint []string
	// Before holds, for a chunk that opens with rows of a table whose
	// header a page or chunk break left in the chunk before it, that
	// chunk, when it is not among Chunks: it is read for the header alone
	// (see OpensWithRows), never quoted or cited.
	Before []store.Chunk
	// OnToken receives the answer as it is written, when the generator
	// streams (the LLM generator does).
	OnToken func(string)
}

// Result is a generated answer.
type Result struct {
	// Text cites every sentence, or is NotFoundText.
	Text string
	// NotFound is set when the generator found no answer in the chunks.
	NotFound bool
	// Generator names the generator that wrote Text: "extractive" or
	// "llm".
	Generator string
	// FellBack is set when the LLM generator could not answer and the
	// fallback wrote Text; FallbackReason says why ("circuit_open",
	// "timeout", "http_500", "http_400", …).
	FellBack       bool
	FallbackReason string
	// Token usage of the LLM call, when one was made.
	PromptTokens, CompletionTokens int
	// Features are what the generator knows about how well Text answers
	// (the extractive reader's, see evidence), for the calibrated
	// confidence; nil when it knows nothing.
	Features map[string]float64
}

// Generator writes answers.
type Generator interface {
	Generate(ctx context.Context, req Request) (Result, error)
}

// citation is the marker for the chunk at index i of a request.
func citation(i int) string { return "[S" + strconv.Itoa(i+1) + "]" }
