package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/cewhq/cew/answer"
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
			st, err := a.openStore(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			b, err := a.newBot(ctx, st, nil, answer.PlatformCLI)
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

// TestReadQuestionsStopsOnInterrupt: an interrupt at the interactive prompt
// ends the loop without waiting for another line of input.
func TestReadQuestionsStopsOnInterrupt(t *testing.T) {
	stdin, w := io.Pipe() // a terminal nobody types into
	defer w.Close()
	ctx, cancel := context.WithCancel(context.Background())
	a := &app{stdin: stdin, stdout: io.Discard}
	done := make(chan error, 1)
	go func() { done <- readQuestions(ctx, a, true, func(inputLine) error { return nil }) }()
	time.Sleep(20 * time.Millisecond)
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("readQuestions kept waiting for input after the interrupt")
	}
}

func TestReadQuestions(t *testing.T) {
	var out bytes.Buffer
	a := &app{stdin: strings.NewReader("first\n\n  second  \nthird"), stdout: &out}
	var got []string
	err := readQuestions(context.Background(), a, false, func(l inputLine) error {
		got = append(got, l.Text)
		return nil
	})
	if err != nil || strings.Join(got, "|") != "first|second|third" || out.Len() != 0 {
		t.Errorf("questions %q, err %v, output %q", got, err, out.String())
	}
	stop := errors.New("stop")
	a.stdin = strings.NewReader("one\ntwo\n")
	if err := readQuestions(context.Background(), a, false, func(inputLine) error { return stop }); !errors.Is(err, stop) {
		t.Errorf("err = %v, want the callback's error", err)
	}
}

// TestReadLinesOfAnyLength: a line over maxLineBytes is cut and marked,
// the lines after it still come, and none is lost at the end of input.
func TestReadLinesOfAnyLength(t *testing.T) {
	long := strings.Repeat("x", maxLineBytes+10)
	exact := strings.Repeat("y", maxLineBytes)
	tests := []struct {
		name  string
		input string
		want  []inputLine
	}{
		{"short lines", "one\ntwo\r\nthree", []inputLine{{Number: 1, Text: "one", Bytes: 4}, {Number: 2, Text: "two", Bytes: 5}, {Number: 3, Text: "three", Bytes: 5}}},
		{"a long line between two", "before\n" + long + "\nafter\n", []inputLine{
			{Number: 1, Text: "before", Bytes: 7},
			{Number: 2, Text: long[:maxLineBytes], TooLong: true, Bytes: maxLineBytes + 11},
			{Number: 3, Text: "after", Bytes: 6}}},
		{"a line of exactly the limit", exact + "\nnext", []inputLine{{Number: 1, Text: exact, Bytes: maxLineBytes + 1}, {Number: 2, Text: "next", Bytes: 4}}},
		{"a long last line without a newline", long, []inputLine{{Number: 1, Text: long[:maxLineBytes], TooLong: true, Bytes: maxLineBytes + 10}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := make(chan inputLine, 10)
			if err := readLines(context.Background(), strings.NewReader(tc.input), out); err != nil {
				t.Fatal(err)
			}
			close(out)
			var got []inputLine
			for l := range out {
				got = append(got, l)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("%d lines, want %d", len(got), len(tc.want))
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("line %d = {%d %d chars %v %d}, want {%d %d chars %v %d}", i, got[i].Number, len(got[i].Text), got[i].TooLong, got[i].Bytes,
						tc.want[i].Number, len(tc.want[i].Text), tc.want[i].TooLong, tc.want[i].Bytes)
				}
			}
		})
	}
}
