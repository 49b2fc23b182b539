package agent

import "github.com/prometheus/client_golang/prometheus"

// Metrics are the pipeline metrics of one registry. Labels are bounded: table, game, kind
// and rule (rules are a fixed set per game); never a coup id or an amount.
type Metrics struct {
	events   *prometheus.CounterVec
	invalid  *prometheus.CounterVec
	coups    *prometheus.CounterVec
	findings *prometheus.CounterVec
	up       *prometheus.GaugeVec
	commit   prometheus.Histogram
	pruned   prometheus.Counter
}

// NewMetrics registers the pipeline metrics on reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		events: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "coupwatch_events_total", Help: "Journal events processed (rate() gives events per second).",
		}, []string{"table"}),
		invalid: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "coupwatch_invalid_events_total", Help: "Invalid journal lines skipped (each is logged once with its file and line).",
		}, []string{"table"}),
		coups: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "coupwatch_coups_total", Help: "Coups finished.",
		}, []string{"table", "game"}),
		findings: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "coupwatch_findings_total", Help: "Discrepancies found (each becomes an alert).",
		}, []string{"table", "game", "kind", "rule"}),
		up: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "coupwatch_table_up", Help: "1 while the table's pipeline runs.",
		}, []string{"table"}),
		commit: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "coupwatch_commit_seconds", Help: "Time to make one batch durable (outbox fsync and store transaction).",
			Buckets: prometheus.ExponentialBuckets(0.0001, 2, 16),
		}),
		pruned: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "coupwatch_store_pruned_events_total", Help: "Journal events deleted from the store by the retention setting.",
		}),
	}
	reg.MustRegister(m.events, m.invalid, m.coups, m.findings, m.up, m.commit, m.pruned)
	return m
}
