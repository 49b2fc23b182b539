package agent_test

import (
	"bytes"
	"context"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/coupwatch/coupwatch/agent"
	"github.com/coupwatch/coupwatch/agent/demo"
	"github.com/coupwatch/coupwatch/alerts"
	"github.com/coupwatch/coupwatch/alerts/mqtt/mqtttest"
	"github.com/coupwatch/coupwatch/configs"
	"github.com/coupwatch/coupwatch/games"
	"github.com/coupwatch/coupwatch/games/catalog"
	"github.com/coupwatch/coupwatch/games/replay"
	"github.com/coupwatch/coupwatch/journal/store"
)

// syncBuffer is a log destination safe for concurrent writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func catalogT(t testing.TB) *games.Catalog {
	t.Helper()
	cat, err := catalog.New()
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

// demoJournal writes a demo journal to a file and returns its path.
func demoJournal(t testing.TB, game string) (path, table string) {
	t.Helper()
	for _, j := range demo.Journals() {
		if j.Game == game {
			b, err := fs.ReadFile(demo.FS(), j.File)
			if err != nil {
				t.Fatal(err)
			}
			path = filepath.Join(t.TempDir(), game+".jsonl")
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
			return path, j.Table
		}
	}
	t.Fatalf("no demo journal for %s", game)
	return "", ""
}

// expectedIDs replays a journal file and returns the alert ids its discrepancies must get.
func expectedIDs(t testing.TB, site, path string) map[string]bool {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ids := map[string]bool{}
	err = replay.Run(catalogT(t), []replay.Source{{Name: path, R: f}}, replay.Options{}, func(r games.Record) {
		if d, ok := r.(*games.Discrepancy); ok {
			ids[alerts.ID(site, d)] = true
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	return ids
}

func replayLines(t testing.TB, path string) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var b strings.Builder
	err = replay.Run(catalogT(t), []replay.Source{{Name: path, R: f}}, replay.Options{}, func(r games.Record) {
		b.Write(r.AppendJSON(nil))
		b.WriteByte('\n')
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

type run struct {
	cfg  *configs.Config
	reg  *prometheus.Registry
	logs *syncBuffer
	ag   *agent.Agent
}

// config returns a configuration for one table reading path, with state under dir and the
// embedded broker on a free port.
func config(t testing.TB, dir, table, path, speed string) *configs.Config {
	t.Helper()
	cfg, err := configs.Defaults()
	if err != nil {
		t.Fatal(err)
	}
	cfg.Site = "test-site"
	cfg.AgentID = "test-agent"
	cfg.DataDir = dir
	cfg.HTTP.Listen = "127.0.0.1:0"
	cfg.MQTT.Embedded.Listen = "127.0.0.1:0"
	cfg.MQTT.ReconnectMin = 20 * time.Millisecond
	cfg.MQTT.ReconnectMax = 200 * time.Millisecond
	cfg.Shutdown.DrainTimeout = 5 * time.Second
	cfg.Tables = []configs.Table{{ID: table, Source: configs.Source{Journal: path, Speed: speed}}}
	return cfg
}

// start runs an agent; ready is called once it is wired (the embedded broker listens).
func start(t testing.TB, ctx context.Context, cfg *configs.Config, ready func(*agent.Agent)) (*run, <-chan error) {
	t.Helper()
	r := &run{cfg: cfg, reg: prometheus.NewRegistry(), logs: &syncBuffer{}}
	log := slog.New(slog.NewTextHandler(io.MultiWriter(r.logs, testLog(t)), &slog.HandlerOptions{Level: slog.LevelInfo}))
	ag, err := agent.New(agent.Options{Config: cfg, Catalog: catalogT(t), Registry: r.reg, Logger: log, AgentVersion: "test", Ready: ready})
	if err != nil {
		t.Fatal(err)
	}
	r.ag = ag
	done := make(chan error, 1)
	go func() { done <- ag.Run(ctx) }()
	return r, done
}

func testLog(t testing.TB) io.Writer {
	if testing.Verbose() {
		return os.Stderr
	}
	return io.Discard
}

func wait(t testing.TB, done <-chan error, timeout time.Duration) error {
	t.Helper()
	select {
	case err := <-done:
		return err
	case <-time.After(timeout):
		t.Fatalf("the agent did not stop within %s", timeout)
		return nil
	}
}

func metric(t testing.TB, reg *prometheus.Registry, name string) float64 {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	sum := 0.0
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
		for _, m := range mf.Metric {
			switch {
			case m.Counter != nil:
				sum += m.Counter.GetValue()
			case m.Gauge != nil:
				sum += m.Gauge.GetValue()
			case m.Histogram != nil:
				sum += float64(m.Histogram.GetSampleCount())
			}
		}
	}
	return sum
}

func missing(want map[string]bool, got map[string]int) []string {
	var out []string
	for id := range want {
		if got[id] == 0 {
			out = append(out, id)
		}
	}
	sort.Strings(out)
	return out
}

// TestJournalToAlerts runs one table from a journal against the embedded broker: every alert
// arrives, the agent stops by itself, and the store replays to the file's output.
func TestJournalToAlerts(t *testing.T) {
	path, table := demoJournal(t, "roulette_european")
	dir := t.TempDir()
	var col *mqtttest.Collector
	r, done := start(t, context.Background(), config(t, dir, table, path, "max"), func(a *agent.Agent) {
		col = mqtttest.Collect(t, a.BrokerURL())
	})
	if err := wait(t, done, 60*time.Second); err != nil {
		t.Fatal(err)
	}
	want := expectedIDs(t, "test-site", path)
	got := col.WaitDistinct(len(want), 10*time.Second)
	if m := missing(want, col.IDs()); got != len(want) || len(m) > 0 {
		t.Fatalf("received %d distinct alerts, want %d; missing %v", got, len(want), m)
	}
	if n, invalid := col.Received(); len(invalid) > 0 || n != len(want) {
		t.Errorf("received %d messages (%d invalid): %v", n, len(invalid), invalid)
	}
	checks := []struct {
		name string
		want float64
	}{
		{"coupwatch_findings_total", float64(len(want))},
		{"coupwatch_coups_total", 10},
		{"coupwatch_outbox_depth", 0},
		{"coupwatch_mqtt_published_total", float64(len(want))},
		{"coupwatch_alert_latency_seconds", float64(len(want))},
		{"coupwatch_invalid_events_total", 0},
	}
	for _, c := range checks {
		if got := metric(t, r.reg, c.name); got != c.want {
			t.Errorf("%s = %v, want %v", c.name, got, c.want)
		}
	}
	if got := metric(t, r.reg, "coupwatch_events_total"); got < 100 {
		t.Errorf("coupwatch_events_total = %v", got)
	}

	// The store holds the journal in canonical form: replaying it gives the file's output.
	st, err := store.Open(r.cfg.StorePath(), store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var b strings.Builder
	if err := st.Replay(context.Background(), catalogT(t), store.Selection{Table: table}, func(rec games.Record) {
		b.Write(rec.AppendJSON(nil))
		b.WriteByte('\n')
	}); err != nil {
		t.Fatal(err)
	}
	if b.String() != replayLines(t, path) {
		t.Errorf("store replay differs from the file replay:\n%s", b.String())
	}
	_, findings, coups, err := st.Counts(context.Background(), table)
	if err != nil || findings != len(want) || coups != 10 {
		t.Errorf("store: %d findings, %d coups, %v", findings, coups, err)
	}

	// A second run over the same state finds the journal done and delivers nothing new.
	r2, done2 := start(t, context.Background(), config(t, dir, table, path, "max"), nil)
	if err := wait(t, done2, 30*time.Second); err != nil {
		t.Fatal(err)
	}
	if got := metric(t, r2.reg, "coupwatch_findings_total"); got != 0 {
		t.Errorf("second run found %v discrepancies again", got)
	}
	if !strings.Contains(r2.logs.String(), "journal already processed") {
		t.Errorf("second run did not say the journal was processed:\n%s", r2.logs.String())
	}
}

// TestStopAndResume stops the agent in the middle of a journal (as SIGTERM does) and starts
// it again: no alert is lost, the store holds every event once, and replaying it gives the
// file's output (the open coup continued where it stopped).
func TestStopAndResume(t *testing.T) {
	path, table := demoJournal(t, "wheel_of_fortune")
	dir := t.TempDir()
	want := expectedIDs(t, "test-site", path)
	seen := map[string]int{}
	for round := 0; round < 2; round++ {
		ctx, cancel := context.WithCancel(context.Background())
		var col *mqtttest.Collector
		_, done := start(t, ctx, config(t, dir, table, path, "200x"), func(a *agent.Agent) {
			col = mqtttest.Collect(t, a.BrokerURL())
		})
		if round == 0 {
			time.Sleep(1200 * time.Millisecond) // the journal lasts about 3.5 s at 200x
			cancel()
		}
		if err := wait(t, done, 60*time.Second); err != nil {
			t.Fatal(err)
		}
		cancel()
		time.Sleep(200 * time.Millisecond)
		for id, n := range col.IDs() {
			seen[id] += n
		}
		col.Stop()
		if round == 0 && len(seen) == len(want) {
			t.Fatal("the first run delivered everything: stop it earlier")
		}
	}
	if m := missing(want, seen); len(m) > 0 || len(seen) != len(want) {
		t.Fatalf("after a stop and a restart: %d distinct alerts, want %d, missing %v", len(seen), len(want), m)
	}
	st, err := store.Open(filepath.Join(dir, "journal.db"), store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var b strings.Builder
	if err := st.Replay(context.Background(), catalogT(t), store.Selection{Table: table}, func(rec games.Record) {
		b.Write(rec.AppendJSON(nil))
		b.WriteByte('\n')
	}); err != nil {
		t.Fatal(err)
	}
	if b.String() != replayLines(t, path) {
		t.Errorf("store replay after a restart differs from the file replay")
	}
}

// TestInvalidLinesAreSkipped: in live operation an invalid line is logged once with its file
// and line, counted, and the pipeline goes on.
func TestInvalidLinesAreSkipped(t *testing.T) {
	good, table := demoJournal(t, "big_wheel")
	b, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	// Line 10 becomes broken JSON; line 20 names a spot the big wheel does not have.
	bad := cloneLines(lines)
	bad[9] = "{\"t\":\"2026-12-05T20:00:30.000Z\",\"table\":\n"
	bad[19] = strings.Replace(bad[19], `"spot":"x`, `"spot":"straight:1`, 1)
	if bad[19] == lines[19] {
		t.Fatalf("line 20 has no spot to break: %s", lines[19])
	}
	path := filepath.Join(t.TempDir(), "broken.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(bad, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	var col *mqtttest.Collector
	r, done := start(t, context.Background(), config(t, t.TempDir(), table, path, "max"), func(a *agent.Agent) {
		col = mqtttest.Collect(t, a.BrokerURL())
	})
	if err := wait(t, done, 60*time.Second); err != nil {
		t.Fatal(err)
	}
	if got := metric(t, r.reg, "coupwatch_invalid_events_total"); got != 2 {
		t.Errorf("invalid events = %v, want 2", got)
	}
	logs := r.logs.String()
	for _, where := range []string{path + ":10:", path + ":20:"} {
		if n := strings.Count(logs, where); n != 1 {
			t.Errorf("%q logged %d times, want once:\n%s", where, n, logs)
		}
	}
	if got := metric(t, r.reg, "coupwatch_coups_total"); got != 8 {
		t.Errorf("coups = %v, want 8: the pipeline must go on after an invalid line", got)
	}
	if n := col.WaitDistinct(3, 10*time.Second); n < 3 {
		t.Errorf("%d alerts delivered", n)
	}
}

func cloneLines(s []string) []string { return append([]string(nil), s...) }

// TestFollowAndHealth follows a journal as it is written, serves the health endpoints, and
// stops on cancellation.
func TestFollowAndHealth(t *testing.T) {
	src, table := demoJournal(t, "roulette_american")
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(strings.TrimSuffix(string(b), "\n"), "\n")
	path := filepath.Join(t.TempDir(), "live.jsonl")
	cfg := config(t, t.TempDir(), table, path, "max")
	cfg.Tables[0].Source.Follow = true
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var col *mqtttest.Collector
	r, done := start(t, ctx, cfg, func(a *agent.Agent) {
		col = mqtttest.Collect(t, a.BrokerURL())
	})
	// The journal appears after the agent started, and is written a piece at a time, with a
	// line split across two writes.
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for i, l := range lines {
		if i == 40 {
			f.WriteString(l[:10])
			time.Sleep(300 * time.Millisecond)
			f.WriteString(l[10:])
			continue
		}
		f.WriteString(l)
	}
	want := expectedIDs(t, "test-site", src)
	// Without the end of the journal, the last coup is still open: its findings come at coup_end,
	// which is written, so every alert arrives.
	if got := col.WaitDistinct(len(want), 20*time.Second); got != len(want) {
		t.Fatalf("following: %d distinct alerts, want %d", got, len(want))
	}
	for deadline := time.Now().Add(10 * time.Second); r.ag.Undelivered() > 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d alerts still undelivered", r.ag.Undelivered())
		}
	}
	base := "http://" + r.ag.HTTPAddr()
	for _, c := range []struct {
		path, want string
		code       int
	}{
		{"/healthz", "ok", 200},
		{"/readyz", "ready", 200},
		{"/metrics", "coupwatch_outbox_depth{table=\"" + table + "\"} 0", 200},
		// Error counters are there before their first error, at 0 (alerting rules take rate()).
		{"/metrics", "coupwatch_invalid_events_total{table=\"" + table + "\"} 0", 200},
		{"/metrics", "coupwatch_mqtt_publish_errors_total{table=\"" + table + "\"} 0", 200},
		{"/metrics", "coupwatch_mqtt_connect_errors_total{table=\"" + table + "\"} 0", 200},
		{"/metrics", "coupwatch_outbox_corrupt_records_total{table=\"" + table + "\"} 0", 200},
	} {
		resp, err := http.Get(base + c.path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != c.code || !strings.Contains(string(body), c.want) {
			t.Errorf("GET %s: %d %q, want %d with %q", c.path, resp.StatusCode, body, c.code, c.want)
		}
	}
	cancel()
	if err := wait(t, done, 30*time.Second); err != nil {
		t.Fatal(err)
	}
}
