package teams

import (
	"fmt"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// metrics are the adapter's Prometheus series. A nil *metrics records
// nothing.
type metrics struct {
	ack       prometheus.Histogram
	apiErrors *prometheus.CounterVec
	refusals  *prometheus.CounterVec
	dropped   *prometheus.CounterVec
}

func newMetrics(reg prometheus.Registerer) (*metrics, error) {
	if reg == nil {
		return nil, nil
	}
	m := &metrics{
		ack: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "cew_teams_ack_seconds",
			Help:    "Time from receiving a Teams activity to acknowledging it.",
			Buckets: []float64{.0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5},
		}),
		apiErrors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "cew_teams_api_errors_total",
			Help: "Failed Bot Connector and token calls, by method and kind (rate_limited, server, network, api).",
		}, []string{"method", "kind"}),
		refusals: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "cew_teams_refused_requests_total",
			Help: "Activities refused before they were read, by reason (unauthorized, keys_unavailable, too_large, malformed).",
		}, []string{"reason"}),
		dropped: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "cew_teams_dropped_total",
			Help: "Work not done, by reason (busy, shutting_down, duplicate, lost_answer, ignored).",
		}, []string{"reason"}),
	}
	for _, c := range []prometheus.Collector{m.ack, m.apiErrors, m.refusals, m.dropped} {
		if err := reg.Register(c); err != nil {
			return nil, fmt.Errorf("adapters/teams: metrics: %w", err)
		}
	}
	return m, nil
}

func (m *metrics) acked(d time.Duration) {
	if m != nil {
		m.ack.Observe(d.Seconds())
	}
}

func (m *metrics) apiError(method, kind string) {
	if m != nil {
		m.apiErrors.WithLabelValues(method, kind).Inc()
	}
}

func (m *metrics) refused(reason string) {
	if m != nil {
		m.refusals.WithLabelValues(reason).Inc()
	}
}

func (m *metrics) drop(reason string) {
	if m != nil {
		m.dropped.WithLabelValues(reason).Inc()
	}
}
