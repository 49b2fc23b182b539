package mqtt

import "github.com/prometheus/client_golang/prometheus"

// Metrics are the MQTT delivery metrics of one registry, labelled by table.
type Metrics struct {
	published     *prometheus.CounterVec
	publishErrors *prometheus.CounterVec
	connectErrors *prometheus.CounterVec
	connects      *prometheus.CounterVec
	connected     *prometheus.GaugeVec
	latency       *prometheus.HistogramVec
}

// NewMetrics registers the MQTT metrics on reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		published: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "coupwatch_mqtt_published_total", Help: "Alerts published with QoS 1 and acknowledged by the broker.",
		}, []string{"table"}),
		publishErrors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "coupwatch_mqtt_publish_errors_total", Help: "Publishes that failed or were not acknowledged in time (the alert stays in the outbox and is sent again).",
		}, []string{"table"}),
		connectErrors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "coupwatch_mqtt_connect_errors_total", Help: "Failed connection attempts to the broker.",
		}, []string{"table"}),
		connects: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "coupwatch_mqtt_connects_total", Help: "Successful connections to the broker.",
		}, []string{"table"}),
		connected: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "coupwatch_mqtt_connected", Help: "1 while the table's publisher is connected to the broker.",
		}, []string{"table"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "coupwatch_alert_latency_seconds",
			Help:    "From the moment the agent received the event behind an alert to the broker's acknowledgement of the alert.",
			Buckets: []float64{0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800},
		}, []string{"table"}),
	}
	reg.MustRegister(m.published, m.publishErrors, m.connectErrors, m.connects, m.connected, m.latency)
	return m
}

// start creates the table's counters at 0, so that they are on /metrics before their first
// increment (a rate() over a series that appears with its first error misses that error).
func (m *Metrics) start(table string) {
	for _, c := range []*prometheus.CounterVec{m.published, m.publishErrors, m.connectErrors, m.connects} {
		c.WithLabelValues(table)
	}
}
