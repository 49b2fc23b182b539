package capture

import "github.com/prometheus/client_golang/prometheus"

// Metrics are the capture counters, labelled by camera name.
type Metrics struct {
	frames, dropped, reconnects, errors, stale, corrupt *prometheus.CounterVec
	lastFrame                                           *prometheus.GaugeVec
}

// NewMetrics registers the capture metrics on reg (nil: not registered, for tests and
// tools).
func NewMetrics(reg prometheus.Registerer) *Metrics {
	cv := func(name, help string) *prometheus.CounterVec {
		return prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: "coupwatch", Subsystem: "capture", Name: name, Help: help}, []string{"camera"})
	}
	m := &Metrics{
		frames:     cv("frames_total", "Frames read from the camera."),
		dropped:    cv("frames_dropped_total", "Frames dropped because detection fell behind (the oldest queued frame goes)."),
		reconnects: cv("reconnects_total", "Times the camera was (re)opened after a failure, a stall or the end of a looped file."),
		errors:     cv("errors_total", "Failed opens and lost connections."),
		stale:      cv("stale_total", "Times the watchdog found no frame for the configured time and dropped the connection."),
		corrupt:    cv("corrupt_frames_total", "Frames skipped because they could not be decoded."),
		lastFrame: prometheus.NewGaugeVec(prometheus.GaugeOpts{Namespace: "coupwatch", Subsystem: "capture", Name: "last_frame_timestamp_seconds",
			Help: "When the last frame was read (Unix time)."}, []string{"camera"}),
	}
	if reg != nil {
		reg.MustRegister(m.frames, m.dropped, m.reconnects, m.errors, m.stale, m.corrupt, m.lastFrame)
	}
	return m
}

// FramesCounter, DroppedCounter, ReconnectsCounter, ErrorsCounter, StaleCounter and
// CorruptCounter return one camera's counters (for tests and status pages).
func (m *Metrics) FramesCounter(camera string) prometheus.Counter {
	return m.frames.WithLabelValues(camera)
}

// DroppedCounter counts the frames dropped because detection fell behind.
func (m *Metrics) DroppedCounter(camera string) prometheus.Counter {
	return m.dropped.WithLabelValues(camera)
}

// ReconnectsCounter counts the camera's reconnections.
func (m *Metrics) ReconnectsCounter(camera string) prometheus.Counter {
	return m.reconnects.WithLabelValues(camera)
}

// ErrorsCounter counts failed opens and lost connections.
func (m *Metrics) ErrorsCounter(camera string) prometheus.Counter {
	return m.errors.WithLabelValues(camera)
}

// StaleCounter counts the watchdog's interventions.
func (m *Metrics) StaleCounter(camera string) prometheus.Counter {
	return m.stale.WithLabelValues(camera)
}

// CorruptCounter counts skipped undecodable frames.
func (m *Metrics) CorruptCounter(camera string) prometheus.Counter {
	return m.corrupt.WithLabelValues(camera)
}
