package bot

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/cewhq/cew/cache"
	"github.com/cewhq/cew/pipeline/llm"
	"github.com/cewhq/cew/prompts"
)

// rewriteMaxTokens bounds a rewritten question; one line is enough.
const rewriteMaxTokens = 120

// LLMRewriter rewrites follow-ups with a chat model (prompts/rewrite.tmpl).
type LLMRewriter struct {
	chat *llm.Chat
}

// NewLLMRewriter returns a Rewriter on chat.
func NewLLMRewriter(chat *llm.Chat) *LLMRewriter { return &LLMRewriter{chat: chat} }

// Rewrite returns the standalone question.
func (r *LLMRewriter) Rewrite(ctx context.Context, question string, turns []cache.Turn) (string, error) {
	data := prompts.RewriteData{Question: question}
	for _, t := range turns {
		q := t.Standalone
		if q == "" {
			q = t.Question
		}
		data.Turns = append(data.Turns, prompts.Turn{Question: q, Answer: t.Answer})
	}
	system, user, err := prompts.RenderRewrite(data)
	if err != nil {
		return "", fmt.Errorf("bot: rewrite prompt: %w", err)
	}
	res, err := r.chat.Complete(ctx, llm.ChatRequest{System: system, User: user, MaxTokens: rewriteMaxTokens})
	if err != nil {
		return "", fmt.Errorf("bot: rewrite: %w", err)
	}
	line, _, _ := strings.Cut(strings.TrimSpace(res.Text), "\n")
	if line = strings.TrimSpace(line); line == "" {
		return "", errors.New("bot: rewrite: empty reply")
	}
	return line, nil
}
