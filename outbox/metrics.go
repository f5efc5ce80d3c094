package outbox

import (
	"fmt"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Metrics are the outboxes' Prometheus series, labelled by platform. A nil
// *Metrics records nothing.
type Metrics struct {
	enqueuedTotal    *prometheus.CounterVec
	deliveredTotal   *prometheus.CounterVec
	failedTotal      *prometheus.CounterVec
	undeliveredTotal *prometheus.CounterVec
	pending          *prometheus.GaugeVec
	delay            *prometheus.HistogramVec
}

// NewMetrics registers the series on reg; nil registers nothing.
func NewMetrics(reg prometheus.Registerer) (*Metrics, error) {
	if reg == nil {
		return nil, nil
	}
	m := &Metrics{
		enqueuedTotal: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "cew_outbox_enqueued_total",
			Help: "Replies stored for delivery, by platform.",
		}, []string{"platform"}),
		deliveredTotal: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "cew_outbox_delivered_total",
			Help: "Replies delivered, by platform and whether it took more than one attempt.",
		}, []string{"platform", "retried"}),
		failedTotal: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "cew_outbox_failed_attempts_total",
			Help: "Delivery attempts that failed, by platform.",
		}, []string{"platform"}),
		undeliveredTotal: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "cew_outbox_undelivered_total",
			Help: "Replies never delivered, by platform and reason (deadline, rejected, unqueued).",
		}, []string{"platform", "reason"}),
		pending: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "cew_outbox_pending",
			Help: "Replies waiting in the outbox queue, by platform (sampled every 5 s).",
		}, []string{"platform"}),
		delay: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "cew_outbox_delivery_delay_seconds",
			Help:    "Time from storing a reply to delivering it, by platform.",
			Buckets: []float64{.01, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 900},
		}, []string{"platform"}),
	}
	for _, c := range []prometheus.Collector{m.enqueuedTotal, m.deliveredTotal, m.failedTotal, m.undeliveredTotal, m.pending, m.delay} {
		if err := reg.Register(c); err != nil {
			return nil, fmt.Errorf("outbox: metrics: %w", err)
		}
	}
	return m, nil
}

func (m *Metrics) enqueued(platform string) {
	if m != nil {
		m.enqueuedTotal.WithLabelValues(platform).Inc()
	}
}

func (m *Metrics) deliveredAfter(platform string, retried bool, delay time.Duration) {
	if m != nil {
		m.deliveredTotal.WithLabelValues(platform, strconv.FormatBool(retried)).Inc()
		m.delay.WithLabelValues(platform).Observe(delay.Seconds())
	}
}

func (m *Metrics) failed(platform string) {
	if m != nil {
		m.failedTotal.WithLabelValues(platform).Inc()
	}
}

func (m *Metrics) undelivered(platform, reason string) {
	if m != nil {
		m.undeliveredTotal.WithLabelValues(platform, reason).Inc()
	}
}

func (m *Metrics) pendingNow(platform string, n int) {
	if m != nil {
		m.pending.WithLabelValues(platform).Set(float64(n))
	}
}
