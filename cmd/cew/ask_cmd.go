package main

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"os/user"
	"strings"

	"github.com/spf13/cobra"

	"github.com/cewhq/cew/answer"
	"github.com/cewhq/cew/bot"
)

// cliUser names who asks from the terminal, for the audit trail.
func cliUser() string {
	if u, err := user.Current(); err == nil {
		return u.Username
	}
	return "cli"
}

func newAskCmd(a *app) *cobra.Command {
	var (
		asJSON  bool
		session string
	)
	cmd := &cobra.Command{
		Use:   `ask ["question"]`,
		Short: "Ask a question; the answer cites its sources or says it was not found",
		Long: `Ask a question about the indexed documents. The answer quotes or paraphrases only
the documents, cites every statement with [S#], and lists each source's document,
revision, page or sheet and row, section and Drive link, with a confidence.

With --json, prints the answer contract (one JSON object). Without a question, reads one
question per line from stdin (an interactive prompt on a terminal); with --json that
prints one JSON object per line, in order.

With --session ID, the conversation is remembered (in Redis when CEW_REDIS_URL is set,
so it spans runs) and follow-ups such as "and for AC cables?" are rewritten into
standalone questions. Reading from stdin without --session keeps one conversation for
the run.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := a.openStore(cmd.Context())
			if err != nil {
				return err
			}
			b, err := a.newBot(cmd.Context(), st, nil, answer.PlatformCLI)
			if err != nil {
				return err
			}
			if session == "" && len(args) == 0 {
				session = "run-" + rand.Text()
			}
			user := cliUser()
			ask := func(q string) error {
				ans, err := b.Handle(cmd.Context(), cliQuery(a.cfg.Tenant, session, user, q))
				if err != nil {
					a.logger.Error("answer failed", "answer_id", ans.ID, "err", err)
				}
				if asJSON {
					return json.NewEncoder(a.stdout).Encode(ans)
				}
				printAnswer(a.stdout, ans)
				return nil
			}
			if len(args) == 1 {
				return ask(args[0])
			}
			return readQuestions(cmd.Context(), a, !asJSON && a.isTTY(a.stdin), ask)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the answer contract as JSON")
	cmd.Flags().StringVar(&session, "session", "", "conversation id: remember turns and rewrite follow-ups")
	return cmd
}

// cliQuery is one question from the terminal. Only a session (--session,
// or one run reading stdin) is a conversation: a one-off question neither
// reads nor joins the memory of other runs, which a shared cache keeps.
func cliQuery(tenant, session, user, text string) bot.Query {
	q := bot.Query{Platform: answer.PlatformCLI, Tenant: tenant, User: user, Text: text}
	if session != "" {
		q.Channel, q.Thread = "cli", session
	}
	return q
}

// readQuestions feeds stdin lines to ask, prompting when interactive. An
// interrupt ends it at once, even while it waits for a line: the read runs
// in its own goroutine, left blocked on stdin as the command exits.
func readQuestions(ctx context.Context, a *app, interactive bool, ask func(string) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // releases the reader when ask fails
	lines := make(chan string)
	scanErr := make(chan error, 1)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(a.stdin)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			select {
			case lines <- sc.Text():
			case <-ctx.Done():
				scanErr <- ctx.Err()
				return
			}
		}
		scanErr <- sc.Err()
	}()
	prompt := func() {
		if interactive {
			fmt.Fprint(a.stdout, "cew> ")
		}
	}
	prompt()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case line, ok := <-lines:
			if !ok {
				if interactive {
					fmt.Fprintln(a.stdout)
				}
				return <-scanErr
			}
			if q := strings.TrimSpace(line); q != "" {
				if err := ask(q); err != nil {
					return err
				}
			}
			prompt()
		}
	}
}

// printAnswer renders an answer for a terminal.
func printAnswer(w io.Writer, ans answer.Answer) {
	fmt.Fprintln(w, ans.Answer)
	if len(ans.Sources) > 0 {
		fmt.Fprintln(w, "\nSources:")
		for i, s := range ans.Sources {
			fmt.Fprintf(w, "  [S%d] %s, rev %s, %s\n", i+1, s.DocName, orDash(s.Revision), location(s))
			if s.DriveLink != "" {
				fmt.Fprintf(w, "       %s\n", s.DriveLink)
			}
		}
	}
	if ans.Status == answer.StatusNotFound || ans.Status == answer.StatusBlocked {
		fmt.Fprintf(w, "(%s: %s)\n", ans.Reason, ans.Confidence.Reason)
		if len(ans.Related) > 0 {
			fmt.Fprintln(w, "Closest documents:")
			for _, s := range ans.Related {
				fmt.Fprintf(w, "  - %s, rev %s, %s\n", s.DocName, orDash(s.Revision), location(s))
			}
		}
	}
	if ans.Status == answer.StatusAnswered {
		fmt.Fprintf(w, "Confidence: %s (%.2f) — %s\n", ans.Confidence.Level, ans.Confidence.Score, ans.Confidence.Reason)
	}
	fmt.Fprintln(w)
}
