package main

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
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
question per line from stdin (an interactive prompt on a terminal; from a file or a pipe
each question is printed above its answer); with --json that prints one JSON object per
line, in order.

Exit status: 0 when every question was answered (a greeting or a register lookup
counts), 1 when at least one was not found, blocked or failed, 2 for a usage or
configuration error (bad flags or settings, no index, no documents indexed).
The same holds with --json, whose output does not change.

With --session ID, the conversation is remembered (in Redis when CEW_REDIS_URL is set,
so it spans runs) and follow-ups such as "and for AC cables?" are rewritten into
standalone questions. Without CEW_REDIS_URL the memory lasts only while the command
runs. Reading from stdin without --session keeps one conversation for the run.

A line of stdin over 1 MiB is refused on its own (blocked, TOO_LONG) and the lines
after it are still answered.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := a.openStore(cmd.Context())
			if err != nil {
				return err
			}
			if err := a.requireDocuments(cmd.Context(), st); err != nil {
				return err
			}
			if session != "" && a.cfg.RedisURL == "" {
				fmt.Fprintf(a.stderr, "note: without CEW_REDIS_URL, session %q is remembered only while this command runs\n", session)
			}
			b, err := a.newBot(cmd.Context(), st, nil, answer.PlatformCLI)
			if err != nil {
				return err
			}
			if session == "" && len(args) == 0 {
				session = "run-" + rand.Text()
			}
			user := cliUser()
			interactive := !asJSON && len(args) == 0 && a.isTTY(a.stdin)
			// Questions read from a file or a pipe are printed above their
			// answers, so the output reads on its own.
			echo := !asJSON && len(args) == 0 && !interactive
			unanswered := 0
			show := func(ans answer.Answer) error {
				if !answered(ans) {
					unanswered++
				}
				if asJSON {
					return json.NewEncoder(a.stdout).Encode(ans)
				}
				if echo {
					fmt.Fprintf(a.stdout, "Q: %s\n", answer.Snippet(ans.Question, 300))
				}
				printAnswer(a.stdout, ans)
				return nil
			}
			ask := func(line inputLine) error {
				if line.TooLong {
					return show(refusedLine(line, a.cfg.MaxQuestionChars))
				}
				ans, err := b.Handle(cmd.Context(), cliQuery(a.cfg.Tenant, session, user, line.Text))
				if err != nil {
					a.logger.Error("answer failed", "answer_id", ans.ID, "err", err)
				}
				return show(ans)
			}
			if len(args) == 1 {
				err = ask(inputLine{Number: 1, Text: args[0]})
			} else {
				err = readQuestions(cmd.Context(), a, interactive, ask)
			}
			if err != nil {
				return err
			}
			if unanswered > 0 {
				return exitError{1}
			}
			return nil
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

// maxLineBytes bounds one line read from stdin. A longer line is refused
// on its own (its questions could not be answered anyway: a question is at
// most CEW_MAX_QUESTION_CHARS characters) and the lines after it go on.
const maxLineBytes = 1 << 20

// inputLine is one line of stdin: its text, or, when it was longer than
// maxLineBytes, its first bytes and its length.
type inputLine struct {
	Number  int
	Text    string
	TooLong bool
	Bytes   int
}

// readQuestions feeds stdin lines to ask, prompting when interactive. An
// interrupt ends it at once, even while it waits for a line: the read runs
// in its own goroutine, left blocked on stdin as the command exits.
func readQuestions(ctx context.Context, a *app, interactive bool, ask func(inputLine) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // releases the reader when ask fails
	lines := make(chan inputLine)
	readErr := make(chan error, 1)
	go func() {
		defer close(lines)
		readErr <- readLines(ctx, a.stdin, lines)
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
				return <-readErr
			}
			if line.TooLong || strings.TrimSpace(line.Text) != "" {
				line.Text = strings.TrimSpace(line.Text)
				if err := ask(line); err != nil {
					return err
				}
			}
			prompt()
		}
	}
}

// readLines sends r's lines, of any length: a line over maxLineBytes is
// sent cut, marked TooLong, and the rest of it is read and dropped.
func readLines(ctx context.Context, r io.Reader, out chan<- inputLine) error {
	br := bufio.NewReaderSize(r, 64<<10)
	for n := 1; ; n++ {
		var (
			line    []byte
			size    int
			readErr error
		)
		for {
			chunk, err := br.ReadSlice('\n')
			size += len(chunk)
			if len(line) < maxLineBytes {
				line = append(line, chunk[:min(len(chunk), maxLineBytes-len(line))]...)
			}
			if !errors.Is(err, bufio.ErrBufferFull) {
				readErr = err
				break
			}
		}
		if size == 0 && readErr != nil {
			if errors.Is(readErr, io.EOF) {
				return nil
			}
			return readErr
		}
		content := size
		if readErr == nil {
			content-- // the newline
		}
		tooLong := content > maxLineBytes
		text := strings.TrimRight(string(line), "\r\n")
		if tooLong {
			// the cut may have split a character
			text = strings.ToValidUTF8(text, "")
		}
		select {
		case out <- inputLine{Number: n, Text: text, TooLong: tooLong, Bytes: size}:
		case <-ctx.Done():
			return ctx.Err()
		}
		if readErr != nil {
			if errors.Is(readErr, io.EOF) {
				return nil
			}
			return readErr
		}
	}
}

// refusedLine is the answer to a line too long to read: blocked, like a
// question over the length limit, so a batch keeps one answer per line.
func refusedLine(line inputLine, maxChars int) answer.Answer {
	why := fmt.Sprintf("Line %d is %s long, over the %s a line may have; it was not read. A question is at most %d characters.",
		line.Number, byteCount(line.Bytes), byteCount(maxLineBytes), maxChars)
	q := answer.Snippet(line.Text, 80)
	return answer.Answer{
		ID: rand.Text(), Status: answer.StatusBlocked, Reason: answer.ReasonTooLong, Answer: why,
		Sources: []answer.Source{}, Confidence: answer.Confidence{Level: answer.LevelLow, Reason: why},
		TimingsMS: map[string]float64{}, Question: q, StandaloneQuestion: q,
	}
}

// byteCount formats a size: "1 MiB", "3.2 MiB", "512 bytes".
func byteCount(n int) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// answered reports whether ans counts as answered for the exit status: an
// answer, a canned reply or a register lookup that found its document.
func answered(ans answer.Answer) bool {
	return ans.Status == answer.StatusAnswered || ans.Status == answer.StatusSmalltalk
}

// printAnswer renders an answer for a terminal. A refusal says why once:
// the reason line is left out when the answer already says it (blocked
// questions, whose answer is the reason).
func printAnswer(w io.Writer, ans answer.Answer) {
	fmt.Fprintln(w, ans.Answer)
	if len(ans.Sources) > 0 {
		fmt.Fprintln(w, "\nSources:")
		for i, s := range ans.Sources {
			fmt.Fprintf(w, "  [S%d] %s\n", i+1, sourceLine(s))
			if s.DriveLink != "" {
				fmt.Fprintf(w, "       %s\n", s.DriveLink)
			}
		}
	}
	if ans.Status == answer.StatusNotFound || ans.Status == answer.StatusBlocked {
		if why := strings.TrimSpace(ans.Confidence.Reason); why != "" && !strings.Contains(ans.Answer, why) {
			fmt.Fprintf(w, "(%s: %s)\n", ans.Reason, why)
		}
		if len(ans.Related) > 0 {
			fmt.Fprintln(w, "Closest documents:")
			for _, s := range ans.Related {
				fmt.Fprintf(w, "  - %s\n", sourceLine(s))
			}
		}
	}
	if ans.Status == answer.StatusAnswered {
		fmt.Fprintf(w, "Confidence: %s (%.2f) — %s\n", ans.Confidence.Level, ans.Confidence.Score, ans.Confidence.Reason)
	}
	fmt.Fprintln(w)
}
