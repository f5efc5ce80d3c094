package generate

import (
	"context"
	"fmt"
	"strings"

	"github.com/cewhq/cew/pipeline/guard"
	"github.com/cewhq/cew/pipeline/llm"
	"github.com/cewhq/cew/prompts"
)

// verifyMaxTokens: the verifier answers one word.
const verifyMaxTokens = 8

// Verifier asks the chat model whether a claim is supported by its
// evidence (prompts/verify.tmpl). The post-guard calls it only for sentences
// in the ambiguous support band; any error counts as unsupported there.
type Verifier struct {
	chat *llm.Chat
}

var _ guard.Verifier = (*Verifier)(nil)

// NewVerifier returns a Verifier on chat.
func NewVerifier(chat *llm.Chat) *Verifier { return &Verifier{chat: chat} }

// Supported reports whether the model judges the claim supported. Only an
// exact SUPPORTED verdict counts; anything else is unsupported.
func (v *Verifier) Supported(ctx context.Context, claim string, evidence []string) (bool, error) {
	d := prompts.VerifyData{Claim: claim}
	for i, e := range evidence {
		d.Evidence = append(d.Evidence, prompts.Source{N: i + 1, Text: e})
	}
	system, user, err := prompts.RenderVerify(d)
	if err != nil {
		return false, fmt.Errorf("generate: verify prompt: %w", err)
	}
	res, err := v.chat.Complete(ctx, llm.ChatRequest{System: system, User: user, MaxTokens: verifyMaxTokens})
	if err != nil {
		return false, fmt.Errorf("generate: verify: %w", err)
	}
	verdict := strings.ToUpper(strings.Trim(strings.TrimSpace(res.Text), ".!\"'`"))
	return verdict == prompts.VerdictSupported, nil
}
