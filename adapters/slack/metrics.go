package slack

import (
	"fmt"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// metrics are the adapter's Prometheus series. A nil *metrics records
// nothing.
type metrics struct {
	ack       *prometheus.HistogramVec
	apiErrors *prometheus.CounterVec
	refusals  *prometheus.CounterVec
	dropped   *prometheus.CounterVec
}

func newMetrics(reg prometheus.Registerer) (*metrics, error) {
	if reg == nil {
		return nil, nil
	}
	m := &metrics{
		ack: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "cew_slack_ack_seconds",
			Help: "Time from receiving a Slack request to acknowledging it, by endpoint (Slack allows 3 s).",
			Buckets: []float64{.0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1,
				2.5, 3},
		}, []string{"endpoint"}),
		apiErrors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "cew_slack_api_errors_total",
			Help: "Failed Slack Web API and response_url calls, by method and kind (rate_limited, server, network, api).",
		}, []string{"method", "kind"}),
		refusals: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "cew_slack_refused_requests_total",
			Help: "Requests refused before parsing (bad or missing signature, stale timestamp), by endpoint.",
		}, []string{"endpoint"}),
		dropped: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "cew_slack_dropped_total",
			Help: "Work not done, by reason (busy, shutting_down, duplicate, lost_answer).",
		}, []string{"reason"}),
	}
	for _, c := range []prometheus.Collector{m.ack, m.apiErrors, m.refusals, m.dropped} {
		if err := reg.Register(c); err != nil {
			return nil, fmt.Errorf("adapters/slack: metrics: %w", err)
		}
	}
	return m, nil
}

func (m *metrics) acked(endpoint string, d time.Duration) {
	if m == nil {
		return
	}
	m.ack.WithLabelValues(endpoint).Observe(d.Seconds())
}

func (m *metrics) apiError(method, kind string) {
	if m == nil {
		return
	}
	m.apiErrors.WithLabelValues(method, kind).Inc()
}

func (m *metrics) refused(endpoint string) {
	if m == nil {
		return
	}
	m.refusals.WithLabelValues(endpoint).Inc()
}

func (m *metrics) drop(reason string) {
	if m == nil {
		return
	}
	m.dropped.WithLabelValues(reason).Inc()
}
