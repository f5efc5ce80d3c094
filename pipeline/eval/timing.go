package eval

import (
	"context"
	"sync"
	"time"

	"github.com/cewhq/cew/answer"
	"github.com/cewhq/cew/pipeline"
)

// Timing is how long one answer took: in all, and until the generator's
// first streamed token when it streamed (the LLM generator does; the
// extractive one and answers refused before generation do not).
type Timing struct {
	TotalMS      float64 `json:"total_ms"`
	FirstTokenMS float64 `json:"first_token_ms,omitempty"`
	Streamed     bool    `json:"streamed,omitempty"`
	// Generator wrote the answer ("llm", "extractive", "" when none ran);
	// FellBack is set when the LLM could not answer and the extractive
	// generator did.
	Generator string `json:"generator,omitempty"`
	FellBack  bool   `json:"fell_back,omitempty"`
}

// timedAnswer asks one question through p, timing the whole answer and its
// first streamed token.
func timedAnswer(ctx context.Context, p Answerer, req pipeline.Request, now func() time.Time) (answer.Answer, Timing, error) {
	var (
		mu    sync.Mutex
		first time.Time
	)
	req.OnToken = func(string) {
		mu.Lock()
		if first.IsZero() {
			first = now()
		}
		mu.Unlock()
	}
	start := now()
	ans, err := p.Answer(ctx, req)
	t := Timing{TotalMS: msSince(start, now()), Generator: ans.Trace.Generator, FellBack: ans.Trace.FallbackReason != ""}
	mu.Lock()
	if !first.IsZero() {
		t.Streamed, t.FirstTokenMS = true, msSince(start, first)
	}
	mu.Unlock()
	return ans, t, err
}

func msSince(start, end time.Time) float64 {
	return float64(end.Sub(start).Microseconds()) / 1000
}

// latencies collects the timings of an evaluation's answers.
type latencies struct {
	total, firstToken, generated []float64
	fellBack                     int
}

func (l *latencies) add(t Timing) {
	l.total = append(l.total, t.TotalMS)
	if t.Streamed {
		l.firstToken = append(l.firstToken, t.FirstTokenMS)
	}
	if t.Generator == "llm" {
		l.generated = append(l.generated, t.TotalMS)
	}
	if t.FellBack {
		l.fellBack++
	}
}

// report adds the percentiles, each metric's name prefixed: every answer's
// total time, and for answers the LLM wrote, the time to the first token
// and the total time, with how many answers fell back to the extractive
// generator.
func (l latencies) report(rep *Report, prefix string) {
	rep.add(prefix+"latency_ms/p50", Percentile(l.total, 0.50), len(l.total))
	rep.add(prefix+"latency_ms/p90", Percentile(l.total, 0.90), len(l.total))
	rep.add(prefix+"latency_ms/p99", Percentile(l.total, 0.99), len(l.total))
	if len(l.firstToken) == 0 && len(l.generated) == 0 && l.fellBack == 0 {
		return
	}
	rep.add(prefix+"llm/first_token_ms/p50", Percentile(l.firstToken, 0.50), len(l.firstToken))
	rep.add(prefix+"llm/first_token_ms/p99", Percentile(l.firstToken, 0.99), len(l.firstToken))
	rep.add(prefix+"llm/total_ms/p50", Percentile(l.generated, 0.50), len(l.generated))
	rep.add(prefix+"llm/total_ms/p99", Percentile(l.generated, 0.99), len(l.generated))
	rep.add(prefix+"llm/fell_back", ratio(l.fellBack, len(l.total)), len(l.total))
}
