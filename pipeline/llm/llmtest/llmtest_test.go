package llmtest_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/cewhq/cew/pipeline/llm"
	"github.com/cewhq/cew/pipeline/llm/llmtest"
)

func dot(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}

func TestEmbeddings(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.SetEmbeddingDim(64)
	e := llm.NewEmbedder(llm.EndpointConfig{BaseURL: srv.URL, Model: "hash"})
	texts := []string{
		"Minimum trench depth for DC cables",
		"The trenches for DC cable are 800 mm deep at minimum depth",
		"Default soiling loss is 2%",
		"",
	}
	vecs, err := e.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	for i, text := range texts {
		// The embedder normalises again in float32, so compare closely,
		// not bit for bit.
		want := llmtest.Embed(text, 64)
		if len(vecs[i]) != 64 {
			t.Fatalf("vector %d has length %d", i, len(vecs[i]))
		}
		for j := range want {
			if d := vecs[i][j] - want[j]; d > 1e-6 || d < -1e-6 {
				t.Errorf("vector %d differs from llmtest.Embed at %d: %v vs %v", i, j, vecs[i][j], want[j])
				break
			}
		}
	}
	tests := []struct {
		name      string
		a, b      int
		low, high float64
	}{
		{name: "shared stems are similar", a: 0, b: 1, low: 0.4, high: 1},
		{name: "unrelated texts are not", a: 0, b: 2, low: -0.3, high: 0.3},
		{name: "a text is itself", a: 2, b: 2, low: 0.999, high: 1.001},
		{name: "no terms gives zero", a: 3, b: 0, low: 0, high: 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := dot(vecs[tc.a], vecs[tc.b]); got < tc.low || got > tc.high {
				t.Errorf("similarity = %.3f, want in [%.2f, %.2f]", got, tc.low, tc.high)
			}
		})
	}
	if srv.EmbeddingCalls() != 1 || srv.Calls() != 0 {
		t.Errorf("embedding calls = %d, chat calls = %d; want 1 and 0", srv.EmbeddingCalls(), srv.Calls())
	}
}

func TestScriptOrderAndDefault(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Script(llmtest.Answer("first [S1]."), llmtest.Error(http.StatusBadRequest, "bad"))
	chat := llm.NewChat(llm.EndpointConfig{BaseURL: srv.URL, Model: "m", Retry: llm.RetryPolicy{InitialInterval: time.Millisecond, MaxInterval: time.Millisecond, MaxTries: 1}})
	ask := func() (string, error) {
		res, err := chat.Complete(context.Background(), llm.ChatRequest{System: "s", User: "u"})
		return res.Text, err
	}
	tests := []struct {
		name       string
		setDefault *llmtest.Response
		wantText   string
		wantStatus int
	}{
		{name: "first scripted", wantText: "first [S1]."},
		{name: "second scripted", wantStatus: http.StatusBadRequest},
		{name: "nothing scripted", wantStatus: http.StatusInternalServerError},
		{name: "default", setDefault: &llmtest.Response{Text: "default [S1]."}, wantText: "default [S1]."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.setDefault != nil {
				srv.SetDefault(*tc.setDefault)
			}
			text, err := ask()
			if text != tc.wantText || llm.StatusCode(err) != tc.wantStatus {
				t.Errorf("got %q, status %d (%v); want %q, status %d", text, llm.StatusCode(err), err, tc.wantText, tc.wantStatus)
			}
		})
	}
	if got := srv.Requests(); len(got) != 4 || !strings.Contains(string(got[0].Body), `"messages"`) {
		t.Errorf("recorded %d requests", len(got))
	}
}
