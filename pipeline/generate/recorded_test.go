package generate_test

import (
	"context"
	"strings"
	"testing"

	"github.com/cewhq/cew/pipeline/generate"
	"github.com/cewhq/cew/pipeline/guard"
	"github.com/cewhq/cew/pipeline/llm"
	"github.com/cewhq/cew/pipeline/llm/llmtest"
)

// TestRecordedAnswers replays what real local models answered to cew's
// prompts (llmtest.Recordings) through the LLM generator and the
// post-guard: refusals in the model's own words become the not-found
// sentence, citation and format variants are read, and every claim still
// meets the post-guard unchanged.
func TestRecordedAnswers(t *testing.T) {
	recs := llmtest.Recordings(t)
	if len(recs) == 0 {
		t.Fatal("no recordings")
	}
	for _, rec := range recs {
		t.Run(rec.Name, func(t *testing.T) {
			srv := llmtest.NewServer(t)
			srv.Script(rec.Response())
			chat := llm.NewChat(llm.EndpointConfig{BaseURL: srv.URL, Model: rec.Model, Retry: fastRetry})
			// No fallback: a recording the generator cannot use must fail
			// here, not be papered over by the extractive answer.
			g := generate.NewLLM(chat, nil, generate.LLMOptions{})
			var streamed strings.Builder
			res, err := g.Generate(context.Background(), generate.Request{
				Question: rec.Question, Category: rec.Category, Complexity: rec.Complexity,
				Chunks: rec.Sources, OnToken: func(s string) { streamed.WriteString(s) },
			})
			if err != nil {
				t.Fatal(err)
			}
			if streamed.String() != rec.Answer {
				t.Errorf("streamed %q, want the recorded answer", streamed.String())
			}
			if res.NotFound != rec.Want.NotFound {
				t.Fatalf("NotFound = %v, want %v (%s); text %q", res.NotFound, rec.Want.NotFound, rec.Want.Why, res.Text)
			}
			if rec.Want.NotFound {
				if res.Text != generate.NotFoundText {
					t.Errorf("text = %q, want the not-found sentence", res.Text)
				}
				return
			}
			if res.Text != rec.Want.Text {
				t.Errorf("text handed to the post-guard:\n got %q\nwant %q\n(%s)", res.Text, rec.Want.Text, rec.Want.Why)
			}
			v := guard.Post(context.Background(), rec.Question, res.Text, rec.Sources, guard.DefaultPostOptions())
			if string(v.Reason) != rec.Want.Reason {
				t.Errorf("post-guard reason = %q (%s), want %q (%s)", v.Reason, v.Detail, rec.Want.Reason, rec.Want.Why)
			}
		})
	}
}
