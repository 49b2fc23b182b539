package outbox

import (
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Metrics are the outbox metrics of one registry, shared by every outbox (one per table,
// told apart by the table label).
type Metrics struct {
	appended *prometheus.CounterVec
	acked    *prometheus.CounterVec
	corrupt  *prometheus.CounterVec
	fsync    prometheus.Histogram

	depthDesc  *prometheus.Desc
	oldestDesc *prometheus.Desc

	mu    sync.Mutex
	boxes map[*Outbox]struct{}
	now   func() time.Time
}

// NewMetrics registers the outbox metrics on reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		appended: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "coupwatch_outbox_appended_total", Help: "Alerts written (and fsynced) to the outbox.",
		}, []string{"table"}),
		acked: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "coupwatch_outbox_acked_total", Help: "Alerts acknowledged by the broker and removed from the outbox.",
		}, []string{"table"}),
		corrupt: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "coupwatch_outbox_corrupt_records_total", Help: "Torn or corrupt outbox records skipped when the outbox was opened (a crash in the middle of a write).",
		}, []string{"table"}),
		fsync: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "coupwatch_outbox_fsync_seconds", Help: "Time to write and fsync one batch of alerts.",
			Buckets: prometheus.ExponentialBuckets(0.0001, 2, 16),
		}),
		depthDesc: prometheus.NewDesc("coupwatch_outbox_depth", "Alerts in the outbox not yet acknowledged by the broker.", []string{"table"}, nil),
		oldestDesc: prometheus.NewDesc("coupwatch_outbox_oldest_age_seconds",
			"Age of the oldest alert not yet acknowledged by the broker (0 when the outbox is empty).", []string{"table"}, nil),
		boxes: map[*Outbox]struct{}{},
		now:   time.Now,
	}
	reg.MustRegister(m.appended, m.acked, m.corrupt, m.fsync, m)
	return m
}

func (m *Metrics) attach(o *Outbox) {
	m.mu.Lock()
	m.boxes[o] = struct{}{}
	m.mu.Unlock()
}

func (m *Metrics) detach(o *Outbox) {
	m.mu.Lock()
	delete(m.boxes, o)
	m.mu.Unlock()
}

// Describe implements prometheus.Collector for the gauges read from the outboxes.
func (m *Metrics) Describe(ch chan<- *prometheus.Desc) {
	ch <- m.depthDesc
	ch <- m.oldestDesc
}

// Collect implements prometheus.Collector.
func (m *Metrics) Collect(ch chan<- prometheus.Metric) {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	for o := range m.boxes {
		ch <- prometheus.MustNewConstMetric(m.depthDesc, prometheus.GaugeValue, float64(o.Depth()), o.opts.Label)
		age := 0.0
		if t, ok := o.Oldest(); ok {
			age = now.Sub(t).Seconds()
		}
		ch <- prometheus.MustNewConstMetric(m.oldestDesc, prometheus.GaugeValue, age, o.opts.Label)
	}
}
