package generate

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"

	"github.com/cewhq/cew/pipeline/llm"
	"github.com/cewhq/cew/prompts"
	"github.com/cewhq/cew/store"
)

// LLMOptions tunes the LLM generator.
type LLMOptions struct {
	// MaxTokens caps the answer's length (default 800: a few cited
	// sentences, with room for a list of values).
	MaxTokens int
	// Logger receives fallbacks; prompts and answers are never logged.
	Logger *slog.Logger
	// MaxChunks is how many of the ranked chunks the model reads (default
	// 5; for a question about a document itself, its imprint pages first); the
	// extractive fallback reads them all.
	MaxChunks int
}

const (
	defaultMaxTokens = 800
	defaultMaxChunks = 5
)

// LLM answers with a chat model under the strict prompts of package
// prompts. When the model cannot be used — the circuit breaker is open,
// the call timed out, the endpoint failed or refused the request — it
// hands the question to its fallback generator and says so in the Result.
// It is safe for concurrent use.
type LLM struct {
	chat     *llm.Chat
	fallback Generator
	opts     LLMOptions
}

var _ Generator = (*LLM)(nil)

// NewLLM returns an LLM generator. fallback (normally the extractive
// generator) answers when the model cannot; with a nil fallback the model's
// error is returned instead.
func NewLLM(chat *llm.Chat, fallback Generator, opts LLMOptions) *LLM {
	if opts.MaxTokens <= 0 {
		opts.MaxTokens = defaultMaxTokens
	}
	if opts.MaxChunks <= 0 {
		opts.MaxChunks = defaultMaxChunks
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	return &LLM{chat: chat, fallback: fallback, opts: opts}
}

// Generate renders the prompts for the question's category, streams the
// model's answer to req.OnToken, tidies its format (tidyAnswer) and maps a
// refusal, in the not-found sentence or in the model's own words, to
// NotFound. Tokens streamed before a failure have been shown to the reader
// already; the fallback's Result then replaces them.
func (g *LLM) Generate(ctx context.Context, req Request) (Result, error) {
	if len(req.Chunks) == 0 {
		// Nothing to cite: no model can answer within the rules.
		return Result{Text: NotFoundText, NotFound: true, Generator: "llm"}, nil
	}
	read := req
	read.Chunks = modelChunks(req, g.opts.MaxChunks)
	system, user, err := prompts.Render(promptData(read))
	if err != nil {
		return g.fall(ctx, req, "prompt", err)
	}
	res, err := g.chat.Complete(ctx, llm.ChatRequest{System: system, User: user, MaxTokens: g.opts.MaxTokens, OnToken: req.OnToken})
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			// The caller gave up; nobody is waiting for a fallback.
			return Result{}, fmt.Errorf("generate: %w", ctxErr)
		}
		return g.fall(ctx, req, fallbackReason(err), err)
	}
	out := Result{Generator: "llm", PromptTokens: res.PromptTokens, CompletionTokens: res.CompletionTokens}
	out.Text, out.NotFound = tidyAnswer(res.Text, read.Chunks)
	if !out.NotFound {
		out.Text = recite(ctx, req.Question, out.Text, read.Chunks)
	}
	if out.Text == "" {
		fell, ferr := g.fall(ctx, req, "empty_answer", errors.New("the model returned no text"))
		fell.PromptTokens, fell.CompletionTokens = out.PromptTokens, out.CompletionTokens
		return fell, ferr
	}
	return out, nil
}

// modelChunks returns the chunks the model reads, at most max: the ranked
// chunks in their order, except that for a question about a document itself
// the imprint pages (Request.Imprint: title page, the page after it, back
// page), which the pipeline appends after the ranked chunks, come first, as
// they are what answers it.
func modelChunks(req Request, max int) []store.Chunk {
	if len(req.Imprint) == 0 {
		return req.Chunks[:min(len(req.Chunks), max)]
	}
	out := make([]store.Chunk, 0, max)
	for _, id := range req.Imprint {
		if i := slices.IndexFunc(req.Chunks, func(c store.Chunk) bool { return c.ID == id }); i >= 0 && len(out) < max {
			out = append(out, req.Chunks[i])
		}
	}
	for _, c := range req.Chunks {
		if len(out) == max {
			break
		}
		if !slices.Contains(req.Imprint, c.ID) {
			out = append(out, c)
		}
	}
	return out
}

// fall answers with the fallback generator, recording why.
func (g *LLM) fall(ctx context.Context, req Request, reason string, cause error) (Result, error) {
	if g.fallback == nil {
		return Result{}, fmt.Errorf("generate: %s: %w", reason, cause)
	}
	g.opts.Logger.Warn("llm generator fell back", "reason", reason, "err", cause)
	res, err := g.fallback.Generate(ctx, req)
	if err != nil {
		return Result{}, fmt.Errorf("generate: fallback after %s: %w", reason, err)
	}
	res.FellBack, res.FallbackReason = true, reason
	return res, nil
}

// fallbackReason names why a model call failed, for the answer's trace and
// for metrics: circuit_open, timeout, http_<status>, truncated,
// stream_interrupted, not_streamed or network.
func fallbackReason(err error) string {
	switch {
	case errors.Is(err, llm.ErrCircuitOpen):
		return "circuit_open"
	case errors.Is(err, context.DeadlineExceeded):
		return "timeout"
	case llm.StatusCode(err) != 0:
		return "http_" + strconv.Itoa(llm.StatusCode(err))
	case errors.Is(err, llm.ErrTruncated):
		return "truncated"
	case errors.Is(err, llm.ErrStreamInterrupted):
		return "stream_interrupted"
	case errors.Is(err, llm.ErrNotStreamed):
		return "not_streamed"
	}
	return "network"
}

// saysNotFound reports whether the model's whole answer is the not-found
// sentence, allowing for the quotes, case and final period models vary.
func saysNotFound(text string) bool {
	t := strings.Trim(strings.Join(strings.Fields(text), " "), "\"'“”*` ")
	return strings.EqualFold(strings.TrimSuffix(t, "."), strings.TrimSuffix(NotFoundText, "."))
}

// promptData numbers the chunks as the prompt's sources, [S1] first.
func promptData(req Request) prompts.Data {
	d := prompts.Data{Question: req.Question, Category: req.Category, Complexity: req.Complexity, Sources: make([]prompts.Source, len(req.Chunks))}
	for i, c := range req.Chunks {
		d.Sources[i] = promptSource(i, c)
	}
	return d
}

func promptSource(i int, c store.Chunk) prompts.Source {
	return prompts.Source{
		N: i + 1, DocNumber: c.DocNumber, Title: c.Title, Revision: c.Revision, Section: c.Section,
		Sheet: c.Sheet, Page: c.Page, Row: c.Row, Text: c.Text,
	}
}
