package generate

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/cewhq/cew/pipeline/classify"
	"github.com/cewhq/cew/store"
	"github.com/cewhq/cew/store/analysis"
)

var (
	squadPath  = flag.String("squad", "../../../shared/eval/squad2/dev-v2.0.articles-1-8.json", "SQuAD 2.0 file for the extractive calibration")
	squadSweep = flag.Bool("squad.sweep", false, "print answered/refused rates over a grid of thresholds")
)

type squadFile struct {
	Data []struct {
		Title      string `json:"title"`
		Paragraphs []struct {
			Context string `json:"context"`
			QAs     []struct {
				Question     string `json:"question"`
				IsImpossible bool   `json:"is_impossible"`
				Answers      []struct {
					Text string `json:"text"`
				} `json:"answers"`
			} `json:"qas"`
		} `json:"paragraphs"`
	} `json:"data"`
}

// squadCase is one question with the top five paragraphs of its article,
// ranked by BM25, as the chunks the generator sees.
type squadCase struct {
	req        Request
	answerable bool
	gold       []string
}

// loadSQuAD turns the evaluation file into generator requests: each article
// is a small corpus (one chunk per paragraph, titled with the article), and
// each question gets the article's top five paragraphs by BM25. This
// stands in for retrieval and ranking so that the numbers measure the
// generator, not the store.
func loadSQuAD(t testing.TB, path string) []squadCase {
	b, err := os.ReadFile(path)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("SQuAD data must be present in CI: %v", err)
		}
		t.Skipf("SQuAD data not available: %v", err)
	}
	var f squadFile
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	var cases []squadCase
	for _, a := range f.Data {
		chunks := make([]store.Chunk, len(a.Paragraphs))
		docs := make([][]string, len(a.Paragraphs))
		for i, p := range a.Paragraphs {
			chunks[i] = store.Chunk{DocNumber: a.Title, Title: strings.ReplaceAll(a.Title, "_", " "), Page: i + 1, Text: p.Context}
			docs[i] = analysis.Terms(p.Context)
		}
		bm := newBM25(docs)
		for _, p := range a.Paragraphs {
			for _, qa := range p.QAs {
				intent := classify.Classify(qa.Question)
				category, complexity := string(intent.Category), string(intent.Complexity)
				if intent.Kind != classify.KindQuestion {
					category, complexity = "general", "simple"
				}
				var gold []string
				for _, ans := range qa.Answers {
					gold = append(gold, ans.Text)
				}
				top := bm.top(analysis.Terms(qa.Question), 5)
				req := Request{Question: qa.Question, Category: category, Complexity: complexity}
				for _, i := range top {
					req.Chunks = append(req.Chunks, chunks[i])
				}
				cases = append(cases, squadCase{req: req, answerable: !qa.IsImpossible, gold: gold})
			}
		}
	}
	return cases
}

type squadRates struct {
	answerable, unanswerable               int
	answeredGold, answeredOther, refusedOK int
}

func (r squadRates) goldRate() float64    { return float64(r.answeredGold) / float64(r.answerable) }
func (r squadRates) refusedRate() float64 { return float64(r.refusedOK) / float64(r.unanswerable) }

func runSQuAD(t testing.TB, g *Extractive, cases []squadCase) squadRates {
	var r squadRates
	for _, c := range cases {
		res, err := g.Generate(context.Background(), c.req)
		if err != nil {
			t.Fatal(err)
		}
		if c.answerable {
			r.answerable++
			switch {
			case res.NotFound:
			case slices.ContainsFunc(c.gold, func(g string) bool { return strings.Contains(strings.ToLower(res.Text), strings.ToLower(g)) }):
				r.answeredGold++
			default:
				r.answeredOther++
			}
		} else {
			r.unanswerable++
			if res.NotFound {
				r.refusedOK++
			}
		}
	}
	return r
}

// TestSQuADCalibration measures the extractive generator alone, with its
// default thresholds, on SQuAD 2.0 dev (articles 1–8): the share of
// answerable questions answered with a sentence containing a gold answer,
// and the share of unanswerable questions refused. Run with -v to see the
// numbers, and with -squad.sweep to print the grid of thresholds.
//
// The generator's thresholds only drop candidates that barely touch the
// question; what is refused is decided after it, by the pipeline's
// calibrated confidence and guards, and TestSQuADOperatingPoint (cmd/cew)
// holds the refusal rate users get. Here the generator picks a sentence
// holding a gold answer for 70.5 % of answerable questions and refuses
// 12.6 % of unanswerable ones (n = 1,278 and 1,527); the floors guard the
// first and that the generator still refuses what matches nothing.
func TestSQuADCalibration(t *testing.T) {
	const (
		goldFloor    = 0.68
		refusedFloor = 0.10
	)
	if testing.Short() {
		t.Skip("calibration run skipped in -short mode")
	}
	cases := loadSQuAD(t, *squadPath)
	r := runSQuAD(t, NewExtractive(ExtractiveOptions{}), cases)
	t.Logf("SQuAD 2.0 dev articles 1-8, top-5 BM25 paragraphs per article: answerable n=%d: gold %.1f%%, other answer %.1f%%, refused %.1f%%; unanswerable n=%d: refused %.1f%%",
		r.answerable, 100*r.goldRate(), 100*float64(r.answeredOther)/float64(r.answerable),
		100*float64(r.answerable-r.answeredGold-r.answeredOther)/float64(r.answerable),
		r.unanswerable, 100*r.refusedRate())
	if r.goldRate() < goldFloor {
		t.Errorf("answered with a gold answer: %.1f%% of answerable, want at least %.0f%%", 100*r.goldRate(), 100*goldFloor)
	}
	if r.refusedRate() < refusedFloor {
		t.Errorf("refused: %.1f%% of unanswerable, want at least %.0f%%", 100*r.refusedRate(), 100*refusedFloor)
	}
	if *squadSweep {
		for _, cov := range []float64{0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.7} {
			var line strings.Builder
			for _, min := range []float64{0.4, 0.45, 0.47, 0.5, 0.55, 0.6, 0.7} {
				r := runSQuAD(t, NewExtractive(ExtractiveOptions{MinScore: min, MinCoverage: cov}), cases)
				fmt.Fprintf(&line, " score>=%.2f: %.1f/%.1f", min, 100*r.goldRate(), 100*r.refusedRate())
			}
			t.Logf("coverage>=%.2f%s", cov, line.String())
		}
	}
}

// bm25 ranks an article's paragraphs (k1 = 0.9, b = 0.4, as Anserini).
type bm25 struct {
	docs  []map[string]int
	lens  []float64
	avg   float64
	df    map[string]int
	n     float64
	k1, b float64
}

func newBM25(docs [][]string) *bm25 {
	m := &bm25{df: map[string]int{}, n: float64(len(docs)), k1: 0.9, b: 0.4}
	for _, d := range docs {
		tf := map[string]int{}
		for _, t := range d {
			tf[t]++
		}
		for t := range tf {
			m.df[t]++
		}
		m.docs = append(m.docs, tf)
		m.lens = append(m.lens, float64(len(d)))
		m.avg += float64(len(d))
	}
	m.avg /= math.Max(m.n, 1)
	return m
}

func (m *bm25) top(query []string, k int) []int {
	scores := make([]float64, len(m.docs))
	for i, tf := range m.docs {
		for _, q := range query {
			f := float64(tf[q])
			if f == 0 {
				continue
			}
			df := float64(m.df[q])
			idf := math.Log(1 + (m.n-df+0.5)/(df+0.5))
			scores[i] += idf * f * (m.k1 + 1) / (f + m.k1*(1-m.b+m.b*m.lens[i]/m.avg))
		}
	}
	idx := make([]int, len(m.docs))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case scores[a] > scores[b]:
			return -1
		case scores[a] < scores[b]:
			return 1
		}
		return 0
	})
	return idx[:min(k, len(idx))]
}
