package eval

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cewhq/cew/pipeline/guard"
)

// groundingFixtures are HaluEval-shaped samples written for this test: a
// knowledge passage, a question, a correct answer and a hallucinated one.
var groundingFixtures = []HaluEvalQA{
	{
		Knowledge:          "DC cables shall be laid at a minimum depth of 800 mm below finished ground level.LV AC cables shall be laid at a minimum depth of 600 mm.",
		Question:           "What is the minimum depth for DC cables?",
		RightAnswer:        "800 mm below finished ground level",
		HallucinatedAnswer: "DC cables must be laid at a minimum depth of 1000 mm.",
	},
	{
		Knowledge:          "Total system losses are specified as a percentage, with a default value of 14 %. This replaces the former DC-to-AC derate factor in PVWatts V1.",
		Question:           "What does the default system loss in PVWatts replace?",
		RightAnswer:        "the former DC-to-AC derate factor",
		HallucinatedAnswer: "It replaces the Sandia inverter efficiency model.",
	},
	{
		Knowledge:          "The albedo, or ground reflectance, is by default fixed at 0.2. When using TMY3 data as input, the hourly albedo from the data file is used.",
		Question:           "Is the albedo always fixed?",
		RightAnswer:        "no",
		HallucinatedAnswer: "Yes, the albedo is always fixed at 0.2 and is probably never read from the weather file.",
	},
	{
		Knowledge:          "Construction activities that disturb one or more acres of land must obtain coverage under an NPDES permit for stormwater discharges.",
		Question:           "Which permit covers stormwater discharges from construction?",
		RightAnswer:        "an NPDES permit",
		HallucinatedAnswer: "The Clean Air Act permit issued by the county covers them.",
	},
}

func writeFixtures(t *testing.T, samples []HaluEvalQA) string {
	t.Helper()
	var b strings.Builder
	for _, s := range samples {
		line, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(line)
		b.WriteString("\n")
	}
	path := filepath.Join(t.TempDir(), "qa.json")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestGrounding(t *testing.T) {
	path := writeFixtures(t, groundingFixtures)
	tests := []struct {
		name      string
		limit     int
		wantN     int
		wantTP    int
		wantFP    int
		wantAcc   float64
		wantKey   string
		wantCount int
	}{
		{name: "all samples", wantN: 4, wantTP: 4, wantFP: 0, wantAcc: 1, wantKey: "hallucinated/UNGROUNDED_NUMBER", wantCount: 1},
		{name: "limit", limit: 2, wantN: 2, wantTP: 2, wantFP: 0, wantAcc: 1, wantKey: "hallucinated/UNGROUNDED", wantCount: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep, err := Grounding(context.Background(), path, guard.DefaultPostOptions(), tt.limit)
			if err != nil {
				t.Fatal(err)
			}
			if rep.N != tt.wantN || rep.Right != tt.wantN || rep.Hallucinated != tt.wantN {
				t.Errorf("N, Right, Hallucinated = %d, %d, %d, want %d each", rep.N, rep.Right, rep.Hallucinated, tt.wantN)
			}
			var tp, fp int
			for _, b := range rep.ByLength {
				tp += b.TP
				fp += b.FP
			}
			if tp != tt.wantTP || fp != tt.wantFP {
				t.Errorf("TP, FP = %d, %d, want %d, %d (by reason %v)", tp, fp, tt.wantTP, tt.wantFP, rep.ByReason)
			}
			if rep.Accuracy != tt.wantAcc {
				t.Errorf("accuracy = %v, want %v", rep.Accuracy, tt.wantAcc)
			}
			if rep.ByReason[tt.wantKey] != tt.wantCount {
				t.Errorf("by reason %v, want %s = %d", rep.ByReason, tt.wantKey, tt.wantCount)
			}
			if rep.Config["min_support"] != guard.DefaultPostOptions().MinSupport {
				t.Errorf("config %v does not record the threshold", rep.Config)
			}
		})
	}
}

func TestGroundingMetrics(t *testing.T) {
	// A threshold above any support score rejects every answer: recall 1,
	// precision and accuracy 0.5.
	path := writeFixtures(t, groundingFixtures)
	rep, err := Grounding(context.Background(), path, guard.PostOptions{MinSupport: 1.01, AmbiguousBelow: 1.01}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Recall != 1 || rep.Precision != 0.5 || rep.Accuracy != 0.5 {
		t.Errorf("accuracy %v, precision %v, recall %v; want 0.5, 0.5, 1", rep.Accuracy, rep.Precision, rep.Recall)
	}
	if want := 2.0 / 3; math.Abs(rep.F1-want) > 1e-12 {
		t.Errorf("F1 = %v, want %v", rep.F1, want)
	}
}

func TestGroundingErrors(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(bad, []byte("{\"knowledge\": \"x\"}\nnot json\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name   string
		ctx    context.Context
		path   string
		wantIs error
		wantIn string
	}{
		{name: "missing file", ctx: context.Background(), path: filepath.Join(t.TempDir(), "none.json"), wantIs: os.ErrNotExist},
		{name: "malformed line", ctx: context.Background(), path: bad, wantIn: "line 2"},
		{name: "cancelled", ctx: cancelled, path: writeFixtures(t, groundingFixtures), wantIs: context.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Grounding(tt.ctx, tt.path, guard.PostOptions{}, 0)
			if err == nil {
				t.Fatal("no error")
			}
			if tt.wantIs != nil && !errors.Is(err, tt.wantIs) {
				t.Errorf("error %v is not %v", err, tt.wantIs)
			}
			if !strings.Contains(err.Error(), tt.wantIn) || !strings.HasPrefix(err.Error(), "eval: ") {
				t.Errorf("error %q, want the eval prefix and %q", err, tt.wantIn)
			}
		})
	}
}

func TestCiteEverySentence(t *testing.T) {
	tests := []struct {
		name, answer, want string
	}{
		{name: "entity", answer: "Arthur's Magazine", want: "Arthur's Magazine [S1]"},
		{name: "sentence", answer: "First for Women was started first.", want: "First for Women was started first [S1]."},
		{name: "two sentences", answer: "It is 6 km long. It opened in 1990!", want: "It is 6 km long [S1]. It opened in 1990 [S1]!"},
		{name: "empty", answer: "", want: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := CiteEverySentence(tt.answer, 1); got != tt.want {
				t.Errorf("CiteEverySentence(%q) = %q, want %q", tt.answer, got, tt.want)
			}
		})
	}
}

// TestGroundingHaluEval runs the development file when it is present and
// logs the numbers; it fails only below the target accuracy.
func TestGroundingHaluEval(t *testing.T) {
	const path = "../../../shared/eval/halueval/qa_one-turn_data.json"
	if _, err := os.Stat(path); err != nil {
		t.Skip("HaluEval development file not present")
	}
	if testing.Short() {
		t.Skip("evaluation skipped in -short mode")
	}
	rep, err := Grounding(context.Background(), path, guard.DefaultPostOptions(), 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("n=%d accuracy=%.3f precision=%.3f recall=%.3f F1=%.3f by reason %v", rep.N, rep.Accuracy, rep.Precision, rep.Recall, rep.F1, rep.ByReason)
	for k, b := range rep.ByLength {
		t.Logf("  %s: %+v", k, b)
	}
	if rep.Accuracy < 0.75 {
		t.Errorf("accuracy %.3f below the 0.75 target", rep.Accuracy)
	}
}
