package eval

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/cewhq/cew/pipeline/guard"
	"github.com/cewhq/cew/store"
)

// HaluEvalQA is one HaluEval QA sample: a knowledge passage, a question, a
// correct answer and a hallucinated one.
type HaluEvalQA struct {
	Knowledge          string `json:"knowledge"`
	Question           string `json:"question"`
	RightAnswer        string `json:"right_answer"`
	HallucinatedAnswer string `json:"hallucinated_answer"`
}

// GroundingReport is the post-guard's score as a hallucination detector.
// "Hallucinated" is the positive class: the guard flags an answer by
// rejecting it.
type GroundingReport struct {
	// N is the number of samples; each gives two judgements.
	N            int `json:"n"`
	Right        int `json:"right"`
	Hallucinated int `json:"hallucinated"`
	// Accuracy is over the 2N judgements; Precision, Recall and F1 are for
	// the hallucinated class.
	Accuracy  float64 `json:"accuracy"`
	Precision float64 `json:"precision"`
	Recall    float64 `json:"recall"`
	F1        float64 `json:"f1"`
	// ByReason counts rejections by reason code, keyed "right/CODE" (a
	// correct answer wrongly rejected) and "hallucinated/CODE" (caught).
	ByReason map[string]int `json:"by_reason"`
	// ByLength splits the judgements by answer length in words, because
	// correct answers are mostly short entities and hallucinated ones
	// mostly sentences: a guard keyed on length would look good overall
	// and fail within a bucket.
	ByLength map[string]GroundingBucket `json:"by_length"`
	Config   map[string]any             `json:"config"`
}

// GroundingBucket is the confusion matrix of one answer-length bucket.
type GroundingBucket struct {
	// TP: hallucinated and rejected; FN: hallucinated and passed; TN:
	// right and passed; FP: right and rejected.
	TP       int     `json:"tp"`
	FN       int     `json:"fn"`
	TN       int     `json:"tn"`
	FP       int     `json:"fp"`
	Accuracy float64 `json:"accuracy"`
}

// Grounding runs the post-guard over the HaluEval QA file at path: for each
// sample the knowledge is the one cited chunk [S1], and the right and the
// hallucinated answer, each with " [S1]" attached to every sentence
// (HaluEval answers carry no citations), go through guard.Post. limit > 0
// stops after that many samples.
func Grounding(ctx context.Context, path string, opts guard.PostOptions, limit int) (GroundingReport, error) {
	samples, err := LoadHaluEvalQA(path, limit)
	if err != nil {
		return GroundingReport{}, err
	}
	rep := GroundingReport{
		ByReason: map[string]int{},
		ByLength: map[string]GroundingBucket{},
		Config: map[string]any{
			"dataset":         path,
			"limit":           limit,
			"min_support":     opts.MinSupport,
			"ambiguous_below": opts.AmbiguousBelow,
			"verifier":        opts.Verifier != nil,
		},
	}
	var tp, fp, tn, fn int
	for _, s := range samples {
		if err := ctx.Err(); err != nil {
			return GroundingReport{}, fmt.Errorf("eval: grounding: %w", err)
		}
		chunks := []store.Chunk{{
			ID: "halueval", DocID: "halueval", Title: "knowledge", Section: "knowledge", Text: s.Knowledge,
		}}
		for _, hallucinated := range []bool{false, true} {
			answer := s.RightAnswer
			if hallucinated {
				answer = s.HallucinatedAnswer
			}
			v := guard.Post(ctx, s.Question, CiteEverySentence(answer, 1), chunks, opts)
			if err := ctx.Err(); err != nil {
				// A cancelled verifier fails closed; that is not a judgement.
				return GroundingReport{}, fmt.Errorf("eval: grounding: %w", err)
			}
			flagged := !v.OK
			label := "right"
			if hallucinated {
				label = "hallucinated"
			}
			if flagged {
				rep.ByReason[label+"/"+string(v.Reason)]++
			}
			key := lengthBucket(answer)
			b := rep.ByLength[key]
			switch {
			case hallucinated && flagged:
				tp++
				b.TP++
			case hallucinated:
				fn++
				b.FN++
			case flagged:
				fp++
				b.FP++
			default:
				tn++
				b.TN++
			}
			b.Accuracy = ratio(b.TP+b.TN, b.TP+b.TN+b.FP+b.FN)
			rep.ByLength[key] = b
		}
	}
	rep.N = len(samples)
	rep.Right, rep.Hallucinated = len(samples), len(samples)
	rep.Accuracy = ratio(tp+tn, tp+tn+fp+fn)
	rep.Precision = ratio(tp, tp+fp)
	rep.Recall = ratio(tp, tp+fn)
	if rep.Precision+rep.Recall > 0 {
		rep.F1 = 2 * rep.Precision * rep.Recall / (rep.Precision + rep.Recall)
	}
	return rep, nil
}

// LoadHaluEvalQA reads a HaluEval QA JSON-lines file; limit > 0 keeps the
// first limit samples.
func LoadHaluEvalQA(path string, limit int) ([]HaluEvalQA, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("eval: halueval: %w", err)
	}
	defer f.Close()
	var out []HaluEvalQA
	r := bufio.NewReader(f)
	for line := 1; limit <= 0 || len(out) < limit; line++ {
		raw, err := r.ReadBytes('\n')
		if len(strings.TrimSpace(string(raw))) > 0 {
			var s HaluEvalQA
			if uerr := json.Unmarshal(raw, &s); uerr != nil {
				return nil, fmt.Errorf("eval: halueval: %s line %d: %w", path, line, uerr)
			}
			out = append(out, s)
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("eval: halueval: %s: %w", path, err)
		}
	}
	return out, nil
}

// CiteEverySentence attaches " [Sn]" to each sentence of an uncited answer,
// before its closing punctuation, the way a generator writes citations.
func CiteEverySentence(answer string, n int) string {
	marker := fmt.Sprintf(" [S%d]", n)
	var parts []string
	for _, s := range guard.SplitSentences(answer) {
		text := s.Text
		end := len(text)
		for end > 0 && strings.IndexByte(".!?", text[end-1]) >= 0 {
			end--
		}
		parts = append(parts, text[:end]+marker+text[end:])
	}
	return strings.Join(parts, " ")
}

// lengthBucket names an answer's length class in words.
func lengthBucket(answer string) string {
	switch n := len(strings.Fields(answer)); {
	case n <= 3:
		return "1-3 words"
	case n <= 10:
		return "4-10 words"
	default:
		return "11+ words"
	}
}
