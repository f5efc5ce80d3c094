package bot

import (
	"github.com/cewhq/cew/answer"
	"github.com/prometheus/client_golang/prometheus"
)

// Metrics are the bot's Prometheus series. A nil *Metrics records nothing,
// so tests and the CLI need not register any.
type Metrics struct {
	requests    *prometheus.CounterVec
	stages      *prometheus.HistogramVec
	verdicts    *prometheus.CounterVec
	cache       *prometheus.CounterVec
	tokens      *prometheus.CounterVec
	degradation *prometheus.CounterVec
	feedbacks   *prometheus.CounterVec
}

// NewMetrics registers the bot's series on reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "cew_answers_total", Help: "Answers by platform and status.",
		}, []string{"platform", "status"}),
		stages: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "cew_stage_duration_seconds", Help: "Pipeline stage latency.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30},
		}, []string{"stage"}),
		verdicts: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "cew_guard_verdicts_total", Help: "Questions not answered, by reason code.",
		}, []string{"reason"}),
		cache: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "cew_cache_lookups_total", Help: "Answer cache lookups by result (hit, miss).",
		}, []string{"result"}),
		tokens: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "cew_llm_tokens_total", Help: "LLM tokens by kind (prompt, completion).",
		}, []string{"kind"}),
		degradation: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "cew_degraded_answers_total", Help: "Answers produced while a dependency failed, by dependency.",
		}, []string{"dependency"}),
		feedbacks: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "cew_feedback_total", Help: "Feedback votes by platform and vote.",
		}, []string{"platform", "vote"}),
	}
	reg.MustRegister(m.requests, m.stages, m.verdicts, m.cache, m.tokens, m.degradation, m.feedbacks)
	return m
}

func (m *Metrics) observe(p answer.Platform, ans answer.Answer) {
	if m == nil {
		return
	}
	m.requests.WithLabelValues(string(p), string(ans.Status)).Inc()
	if ans.Reason != "" {
		m.verdicts.WithLabelValues(string(ans.Reason)).Inc()
	}
	if !ans.Cached {
		for stage, v := range ans.TimingsMS {
			m.stages.WithLabelValues(stage).Observe(v / 1000)
		}
	}
	if t := ans.Trace; t.PromptTokens+t.CompletionTokens > 0 {
		m.tokens.WithLabelValues("prompt").Add(float64(t.PromptTokens))
		m.tokens.WithLabelValues("completion").Add(float64(t.CompletionTokens))
	}
	for _, d := range ans.Trace.Degraded {
		m.degradation.WithLabelValues(d).Inc()
	}
}

func (m *Metrics) cacheLookup(hit bool) {
	if m == nil {
		return
	}
	if hit {
		m.cache.WithLabelValues("hit").Inc()
		return
	}
	m.cache.WithLabelValues("miss").Inc()
}

func (m *Metrics) feedback(p answer.Platform, vote string) {
	if m == nil {
		return
	}
	m.feedbacks.WithLabelValues(string(p), vote).Inc()
}
