package eval

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"time"
	"unicode"

	"github.com/cewhq/cew/answer"
	"github.com/cewhq/cew/ingest"
	"github.com/cewhq/cew/pipeline"
	"github.com/cewhq/cew/store"
)

// SQuAD is the part of a SQuAD 2.0 file the evaluation reads.
type SQuAD struct {
	Data []SQuADArticle `json:"data"`
}

// SQuADArticle is one article: its title and paragraphs.
type SQuADArticle struct {
	Title      string           `json:"title"`
	Paragraphs []SQuADParagraph `json:"paragraphs"`
}

// SQuADParagraph is a paragraph and the questions asked about it.
type SQuADParagraph struct {
	Context string          `json:"context"`
	QAs     []SQuADQuestion `json:"qas"`
}

// SQuADQuestion is one question with its gold answers (none when
// IsImpossible).
type SQuADQuestion struct {
	ID           string `json:"id"`
	Question     string `json:"question"`
	IsImpossible bool   `json:"is_impossible"`
	Answers      []struct {
		Text string `json:"text"`
	} `json:"answers"`
}

// LoadSQuAD reads a SQuAD 2.0 JSON file.
func LoadSQuAD(path string) (SQuAD, error) {
	var s SQuAD
	data, err := os.ReadFile(path)
	if err != nil {
		return s, fmt.Errorf("eval: %w", err)
	}
	if err := json.Unmarshal(data, &s); err != nil {
		return s, fmt.Errorf("eval: %s: %w", path, err)
	}
	return s, nil
}

// Articles returns the questions of articles from to to (1-based, both
// included) of s, to be asked against an index of all of s.
func (s SQuAD) Articles(from, to int) (SQuAD, error) {
	if from < 1 || to < from || to > len(s.Data) {
		return SQuAD{}, fmt.Errorf("eval: articles %d-%d: the file holds articles 1-%d", from, to, len(s.Data))
	}
	out := s
	out.Data = s.Data[from-1 : to]
	return out, nil
}

// IngestSQuAD indexes every paragraph as its own document titled with its
// article and numbered as page = paragraph position within the article.
func IngestSQuAD(ctx context.Context, st ingest.Store, tenant string, s SQuAD, embed ingest.Embedder) error {
	ix := &indexer{st: st, embed: embed}
	for ai, a := range s.Data {
		title := strings.ReplaceAll(a.Title, "_", " ")
		for pi, p := range a.Paragraphs {
			id := fmt.Sprintf("squad-%02d-%03d", ai+1, pi+1)
			doc := store.Document{Tenant: tenant, ID: id, Number: id, Title: title}
			if err := ix.add(ctx, doc, ingest.Block{Page: pi + 1, Text: p.Context}); err != nil {
				return err
			}
		}
	}
	return ix.flush(ctx)
}

// Answerer is the pipeline under evaluation.
type Answerer interface {
	Answer(ctx context.Context, req pipeline.Request) (answer.Answer, error)
}

// QAOutcome is one question's result, for error analysis.
type QAOutcome struct {
	ID string `json:"id"`
	// Article is the title of the SQuAD article the question is about.
	Article    string        `json:"article"`
	Question   string        `json:"question"`
	Answerable bool          `json:"answerable"`
	Status     answer.Status `json:"status"`
	Reason     answer.Reason `json:"reason"`
	Answer     string        `json:"answer"`
	Correct    bool          `json:"correct"`
	Gold       []string      `json:"gold,omitempty"`
	Timing     Timing        `json:"timing"`
	// Confidence and Features are the calibrated confidence of an answer
	// and what it was judged by (see pipeline/confidence).
	Confidence answer.Confidence  `json:"confidence"`
	Features   map[string]float64 `json:"features,omitempty"`
}

// QA asks every question through the pipeline and reports answered-and-
// correct on answerable questions (the answer contains a gold answer, case-
// and punctuation-insensitive), refusals on unanswerable ones, wrong answers
// on both, and latency percentiles. limit > 0 stops after that many questions.
func QA(ctx context.Context, s SQuAD, p Answerer, tenant string, limit int, now func() time.Time) (Report, []QAOutcome, error) {
	rep := Report{Name: "qa", Dataset: "squad2", Config: map[string]any{}}
	var (
		outcomes                                []QAOutcome
		times                                   latencies
		answerable, correct, answeredWrong      int
		refusedAnswerable                       int
		unanswerable, refused, answeredNoAnswer int
	)
	for _, a := range s.Data {
		for _, p2 := range a.Paragraphs {
			for _, q := range p2.QAs {
				if limit > 0 && len(outcomes) == limit {
					break
				}
				if err := ctx.Err(); err != nil {
					return rep, outcomes, err
				}
				ans, timing, err := timedAnswer(ctx, p, pipeline.Request{Tenant: tenant, Question: q.Question}, now)
				times.add(timing)
				if err != nil {
					return rep, outcomes, fmt.Errorf("eval: question %s: %w", q.ID, err)
				}
				o := QAOutcome{ID: q.ID, Question: q.Question, Answerable: !q.IsImpossible, Status: ans.Status, Reason: ans.Reason, Answer: ans.Answer, Timing: timing,
					Confidence: ans.Confidence, Features: ans.Trace.Features, Article: a.Title}
				answered := ans.Status == answer.StatusAnswered
				if q.IsImpossible {
					unanswerable++
					if answered {
						answeredNoAnswer++
					} else {
						refused++
					}
				} else {
					answerable++
					for _, g := range q.Answers {
						o.Gold = append(o.Gold, g.Text)
					}
					switch {
					case answered && ContainsAnswer(ans.Answer, o.Gold):
						correct++
						o.Correct = true
					case answered:
						answeredWrong++
					default:
						refusedAnswerable++
					}
				}
				outcomes = append(outcomes, o)
			}
		}
	}
	total := answerable + unanswerable
	rep.add("answerable/answered_correct", ratio(correct, answerable), answerable)
	rep.add("answerable/answered_wrong", ratio(answeredWrong, answerable), answerable)
	rep.add("answerable/refused", ratio(refusedAnswerable, answerable), answerable)
	rep.add("unanswerable/refused", ratio(refused, unanswerable), unanswerable)
	rep.add("unanswerable/answered", ratio(answeredNoAnswer, unanswerable), unanswerable)
	rep.add("all/wrong_answer_rate", ratio(answeredWrong+answeredNoAnswer, total), total)
	rep.add("all/accuracy", ratio(correct+refused, total), total)
	times.report(&rep, "")
	return rep, outcomes, nil
}

// Percentile is the nearest-rank percentile p (0..1) of values.
func Percentile(values []float64, p float64) float64 {
	if len(values) == 0 {
		return 0
	}
	sorted := append([]float64(nil), values...)
	sort.Float64s(sorted)
	i := int(p*float64(len(sorted))+0.999999) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}

// ContainsAnswer reports whether answer contains one of the gold answers,
// ignoring case, punctuation and articles (SQuAD's normalisation).
func ContainsAnswer(answer string, gold []string) bool {
	a := " " + normaliseAnswer(answer) + " "
	for _, g := range gold {
		if g := normaliseAnswer(g); g != "" && strings.Contains(a, " "+g+" ") {
			return true
		}
	}
	return false
}

func normaliseAnswer(s string) string {
	s = strings.ToLower(s)
	s = strings.Map(func(r rune) rune {
		if unicode.IsPunct(r) || unicode.IsSymbol(r) {
			return ' '
		}
		return r
	}, s)
	var words []string
	for _, w := range strings.Fields(s) {
		if w == "a" || w == "an" || w == "the" {
			continue
		}
		words = append(words, w)
	}
	return strings.Join(words, " ")
}

// Questions lists every question of the file, in order.
func (s SQuAD) Questions() []string {
	var out []string
	for _, a := range s.Data {
		for _, p := range a.Paragraphs {
			for _, q := range p.QAs {
				out = append(out, q.Question)
			}
		}
	}
	return out
}

// OutOfDomain asks questions that the tenant's documents cannot answer (for
// example SQuAD's, against the PV sample corpus) and reports how many were
// refused: every answer here is a wrong answer.
func OutOfDomain(ctx context.Context, questions []string, p Answerer, tenant, corpus string) (Report, error) {
	rep := Report{Name: "out_of_domain", Dataset: "squad2 questions vs " + corpus, Config: map[string]any{}}
	refused := 0
	byReason := map[string]int{}
	for i, q := range questions {
		if err := ctx.Err(); err != nil {
			return rep, err
		}
		ans, err := p.Answer(ctx, pipeline.Request{Tenant: tenant, Question: q})
		if err != nil {
			return rep, fmt.Errorf("eval: out-of-domain question %d: %w", i, err)
		}
		if ans.Status != answer.StatusAnswered {
			refused++
			byReason[string(ans.Reason)]++
		}
	}
	rep.Config["refusals_by_reason"] = byReason
	rep.add("refused", ratio(refused, len(questions)), len(questions))
	rep.add("answered", ratio(len(questions)-refused, len(questions)), len(questions))
	return rep, nil
}
