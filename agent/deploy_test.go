package agent_test

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/coupwatch/coupwatch/agent"
	"github.com/coupwatch/coupwatch/alerts/mqtt"
	"github.com/coupwatch/coupwatch/alerts/outbox"
)

// recorder is a Registerer that keeps the names of the metrics registered on it.
type recorder struct{ names map[string]bool }

func (r *recorder) Register(c prometheus.Collector) error {
	ch := make(chan *prometheus.Desc, 16)
	go func() { c.Describe(ch); close(ch) }()
	name := regexp.MustCompile(`fqName: "([^"]+)"`)
	for d := range ch {
		if m := name.FindStringSubmatch(d.String()); m != nil {
			r.names[m[1]] = true
		}
	}
	return nil
}

func (r *recorder) MustRegister(cs ...prometheus.Collector) {
	for _, c := range cs {
		_ = r.Register(c)
	}
}

func (r *recorder) Unregister(prometheus.Collector) bool { return true }

// TestDeployReferencesKnownMetrics keeps the Prometheus rules, the Grafana dashboard and
// docs/agent.md in step with the metrics the agent exports.
func TestDeployReferencesKnownMetrics(t *testing.T) {
	r := &recorder{names: map[string]bool{}}
	agent.NewMetrics(r)
	outbox.NewMetrics(r)
	mqtt.NewMetrics(r)
	if len(r.names) < 15 {
		t.Fatalf("only %d metrics registered: %v", len(r.names), r.names)
	}
	ref := regexp.MustCompile(`coupwatch_[a-z_]+`)
	for _, f := range []string{"../deploy/prometheus/coupwatch-rules.yml", "../deploy/grafana/coupwatch-dashboard.json", "../docs/agent.md"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range ref.FindAllString(string(b), -1) {
			base := name
			for _, suf := range []string{"_bucket", "_count", "_sum"} {
				base = strings.TrimSuffix(base, suf)
			}
			if !r.names[base] && !strings.HasSuffix(name, "_") {
				t.Errorf("%s refers to %s, which the agent does not export", f, name)
			}
		}
	}
	doc, _ := os.ReadFile("../docs/agent.md")
	for name := range r.names {
		if !strings.Contains(string(doc), name) && !strings.Contains(string(doc), strings.TrimSuffix(strings.TrimSuffix(name, "_acked_total"), "_connect_errors_total")) {
			t.Errorf("docs/agent.md does not list %s", name)
		}
	}
}

// TestMosquittoConfRaisesQueue: the shipped mosquitto config must not drop alerts in a burst.
func TestMosquittoConfRaisesQueue(t *testing.T) {
	b, err := os.ReadFile("../deploy/mosquitto/mosquitto.conf")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^max_queued_messages\s+(\d+)`).FindStringSubmatch(string(b))
	if m == nil || len(m[1]) < 6 {
		t.Errorf("deploy/mosquitto/mosquitto.conf must raise max_queued_messages well above the default 1000, got %v", m)
	}
}
