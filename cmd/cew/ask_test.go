package main

import (
	"context"
	"log/slog"
	"testing"

	"github.com/cewhq/cew/bot"
)

// TestOneOffQuestionsHaveNoConversation: without --session, `cew ask
// "question"` is not a follow-up of an earlier run's question (all such runs
// used to share one conversation in a shared cache); with a session it is.
func TestOneOffQuestionsHaveNoConversation(t *testing.T) {
	tests := []struct {
		name, session, want string
	}{
		{"one-off question", "", "and for AC cables?"},
		{"session", "site-visit", "What is the minimum trench depth for AC cables?"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := &app{cfg: Config{DataDir: t.TempDir(), Tenant: "acme", Store: "embedded"}, logger: slog.New(slog.DiscardHandler)}
			defer a.close()
			st, err := a.openStore()
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			b, err := a.newBot(ctx, st, nil, bot.PlatformCLI)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := b.Handle(ctx, cliQuery("acme", tc.session, "me", "What is the minimum trench depth for DC cables?")); err != nil {
				t.Fatal(err)
			}
			ans, err := b.Handle(ctx, cliQuery("acme", tc.session, "me", "and for AC cables?"))
			if err != nil {
				t.Fatal(err)
			}
			if ans.StandaloneQuestion != tc.want {
				t.Errorf("standalone question = %q, want %q", ans.StandaloneQuestion, tc.want)
			}
		})
	}
}
