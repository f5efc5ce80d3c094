package eval

import (
	"context"
	"testing"
	"time"

	"github.com/cewhq/cew/answer"
	"github.com/cewhq/cew/pipeline"
)

// clock advances by step on every reading.
type clock struct {
	t    time.Time
	step time.Duration
}

func (c *clock) now() time.Time {
	c.t = c.t.Add(c.step)
	return c.t
}

// streamingAnswerer streams tokens before answering, as the LLM generator
// does, and names the generator in the trace.
type streamingAnswerer struct {
	tokens    []string
	generator string
	fallback  string
}

func (a streamingAnswerer) Answer(_ context.Context, req pipeline.Request) (answer.Answer, error) {
	for _, tok := range a.tokens {
		if req.OnToken != nil {
			req.OnToken(tok)
		}
	}
	ans := answer.Answer{Status: answer.StatusAnswered}
	ans.Trace.Generator, ans.Trace.FallbackReason = a.generator, a.fallback
	return ans, nil
}

func TestTimedAnswer(t *testing.T) {
	tests := []struct {
		name string
		p    streamingAnswerer
		want Timing
	}{
		// Clock readings 10 ms apart: start, first token (if any), end.
		{name: "llm streams", p: streamingAnswerer{tokens: []string{"a", "b", "c"}, generator: "llm"},
			want: Timing{TotalMS: 20, FirstTokenMS: 10, Streamed: true, Generator: "llm"}},
		{name: "extractive does not stream", p: streamingAnswerer{generator: "extractive"},
			want: Timing{TotalMS: 10, Generator: "extractive"}},
		{name: "fell back", p: streamingAnswerer{generator: "extractive", fallback: "timeout"},
			want: Timing{TotalMS: 10, Generator: "extractive", FellBack: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &clock{step: 10 * time.Millisecond}
			_, got, err := timedAnswer(context.Background(), tt.p, pipeline.Request{Tenant: "t", Question: "q"}, c.now)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("timing = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestLatenciesReport(t *testing.T) {
	var l latencies
	for _, tm := range []Timing{
		{TotalMS: 5},
		{TotalMS: 4000, FirstTokenMS: 3000, Streamed: true, Generator: "llm"},
		{TotalMS: 6000, FirstTokenMS: 5000, Streamed: true, Generator: "llm"},
		{TotalMS: 30, Generator: "extractive", FellBack: true},
	} {
		l.add(tm)
	}
	var rep Report
	l.report(&rep, "")
	got := map[string]Metric{}
	for _, m := range rep.Metrics {
		got[m.Name] = m
	}
	want := map[string]Metric{
		"latency_ms/p50":         {Value: 30, N: 4},
		"latency_ms/p99":         {Value: 6000, N: 4},
		"llm/first_token_ms/p50": {Value: 3000, N: 2},
		"llm/first_token_ms/p99": {Value: 5000, N: 2},
		"llm/total_ms/p50":       {Value: 4000, N: 2},
		"llm/fell_back":          {Value: 0.25, N: 4},
	}
	for name, w := range want {
		g, ok := got[name]
		if !ok || g.Value != w.Value || g.N != w.N {
			t.Errorf("%s = %+v (present %v), want value %v n %d", name, g, ok, w.Value, w.N)
		}
	}

	var extractiveOnly latencies
	extractiveOnly.add(Timing{TotalMS: 5, Generator: "extractive"})
	var rep2 Report
	extractiveOnly.report(&rep2, "")
	for _, m := range rep2.Metrics {
		if m.Name[:4] == "llm/" {
			t.Errorf("extractive-only run reports %s", m.Name)
		}
	}
}
