package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/coupwatch/coupwatch/alerts"
	"github.com/coupwatch/coupwatch/alerts/mqtt"
	"github.com/coupwatch/coupwatch/alerts/mqtt/mqtttest"
	"github.com/coupwatch/coupwatch/games"
	"github.com/coupwatch/coupwatch/games/catalog"
	"github.com/coupwatch/coupwatch/games/replay"
)

// longJournal writes a European roulette journal of n coups, 30 s apart, each with a late
// bet and an underpaid straight (two alerts per coup), and every fifth spin short (a third).
func longJournal(t testing.TB, table string, n int) string {
	t.Helper()
	var b strings.Builder
	t0 := time.Date(2026, 12, 6, 21, 0, 0, 0, time.UTC)
	ts := func(d time.Duration) string { return t0.Add(d).Format("2006-01-02T15:04:05.000Z") }
	ev := func(d time.Duration, body string) {
		fmt.Fprintf(&b, `{"t":"%s","table":"%s",%s}`+"\n", ts(d), table, body)
	}
	ev(0, `"type":"table_open","game":"roulette_european","limits":{"min":100,"max":100000},"schema":1`)
	ev(time.Second, `"type":"dealer","dealer":"D-7001"`)
	rotor := []string{"cw", "ccw"}
	for c := 1; c <= n; c++ {
		base := time.Duration(c) * 30 * time.Second
		num := 1 + c%36
		revs := 9
		if c%5 == 0 {
			revs = 6
		}
		ev(base, fmt.Sprintf(`"type":"coup_start","coup":"%d"`, c))
		ev(base+2*time.Second, fmt.Sprintf(`"type":"bet","spot":"straight:%d","player":"P1","amount":100`, num))
		ev(base+3*time.Second, `"type":"bet","spot":"red","player":"P2","amount":200`)
		ev(base+8*time.Second, fmt.Sprintf(`"type":"spin","frame":"cam2:%06d","ball_revs":%d,"ball_dir":"%s","rotor_dir":"%s"`, c*750, revs, rotor[(c+1)%2], rotor[c%2]))
		ev(base+12*time.Second, `"type":"no_more_bets","cause":"announce"`)
		ev(base+13*time.Second, fmt.Sprintf(`"type":"bet","frame":"cam1:%06d","spot":"black","player":"P3","amount":500`, c*750+30))
		ev(base+18*time.Second, fmt.Sprintf(`"type":"result","value":"%d"`, num))
		ev(base+20*time.Second, `"type":"collect","spot":"red","player":"P2"`)
		ev(base+21*time.Second, `"type":"collect","spot":"black","player":"P3"`)
		ev(base+23*time.Second, fmt.Sprintf(`"type":"payout","frame":"cam1:%06d","spot":"straight:%d","player":"P1","amount":3000`, c*750+200, num))
		ev(base+26*time.Second, `"type":"coup_end"`)
	}
	path := filepath.Join(t.TempDir(), table+".jsonl")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// expectedAlerts replays a journal and returns its alerts' ids.
func expectedAlerts(t testing.TB, site, path string) map[string]bool {
	t.Helper()
	cat, err := catalog.New()
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ids := map[string]bool{}
	err = replay.Run(cat, []replay.Source{{Name: path, R: f}}, replay.Options{}, func(r games.Record) {
		if d, ok := r.(*games.Discrepancy); ok {
			ids[alerts.ID(site, d)] = true
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	return ids
}

var buildOnce struct {
	sync.Once
	path string
	err  error
	out  []byte
}

// binary builds bin/coupwatch for the integration tests (once per test run).
func binary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "coupwatch-bin-")
		if err != nil {
			buildOnce.err = err
			return
		}
		buildOnce.path = filepath.Join(dir, "coupwatch")
		cmd := exec.Command("go", "build", "-o", buildOnce.path, ".")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		buildOnce.out, buildOnce.err = cmd.CombinedOutput()
	})
	if buildOnce.err != nil {
		t.Fatalf("building coupwatch: %v\n%s", buildOnce.err, buildOnce.out)
	}
	return buildOnce.path
}

// agentProc is a coupwatch agent running as a subprocess.
type agentProc struct {
	cmd  *exec.Cmd
	out  *bytes.Buffer
	done chan error
}

func startAgent(t *testing.T, args ...string) *agentProc {
	t.Helper()
	cmd := exec.Command(binary(t), append([]string{"agent"}, args...)...)
	cmd.Env = append(os.Environ(), "COUPWATCH_MQTT_RECONNECT_MAX=500ms", "COUPWATCH_MQTT_ACK_TIMEOUT=3s", "COUPWATCH_SITE=it")
	out := &bytes.Buffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &agentProc{cmd: cmd, out: out, done: make(chan error, 1)}
	go func() { p.done <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-p.done
	})
	return p
}

// wait waits for the agent to exit and fails the test unless it exits 0.
func (p *agentProc) wait(t *testing.T, timeout time.Duration) {
	t.Helper()
	select {
	case err := <-p.done:
		p.done <- err // for the cleanup
		if err != nil {
			t.Fatalf("agent: %v\n%s", err, p.out)
		}
	case <-time.After(timeout):
		t.Fatalf("agent still running after %s\n%s", timeout, p.out)
	}
}

func (p *agentProc) kill(t *testing.T) {
	t.Helper()
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	err := <-p.done
	p.done <- err
}

func checkAll(t *testing.T, col *mqtttest.Collector, want map[string]bool) {
	t.Helper()
	got := col.WaitDistinct(len(want), 30*time.Second)
	ids := col.IDs()
	var missing []string
	for id := range want {
		if ids[id] == 0 {
			missing = append(missing, id)
		}
	}
	if got != len(want) || len(missing) > 0 {
		t.Fatalf("%d distinct alerts received, want %d; %d missing", got, len(want), len(missing))
	}
	n, invalid := col.Received()
	if len(invalid) > 0 {
		t.Errorf("invalid messages: %v", invalid)
	}
	t.Logf("%d alerts, %d messages received (%d redeliveries)", len(want), n, n-len(want))
}

// TestMosquittoIntegration runs the agent binary against a real mosquitto broker and counts
// the distinct alert ids a subscriber receives: none may be lost, whatever happens.
func TestMosquittoIntegration(t *testing.T) {
	if testing.Short() {
		t.Skip("integration test")
	}
	mqtttest.New(t) // skips with a clear message without mosquitto
	const coups = 60
	tests := []struct {
		name string
		run  func(t *testing.T, m *mqtttest.Mosquitto, col *mqtttest.Collector, args []string)
	}{
		{"delivery", func(t *testing.T, m *mqtttest.Mosquitto, col *mqtttest.Collector, args []string) {
			startAgent(t, args...).wait(t, 60*time.Second)
		}},
		{"broker down at start", func(t *testing.T, m *mqtttest.Mosquitto, col *mqtttest.Collector, args []string) {
			m.Stop()
			a := startAgent(t, args...)
			time.Sleep(2 * time.Second)
			m.Start()
			a.wait(t, 60*time.Second)
			if !strings.Contains(a.out.String(), "cannot reach the broker") {
				t.Errorf("the agent never found the broker down:\n%s", a.out)
			}
		}},
		{"broker killed mid-run", func(t *testing.T, m *mqtttest.Mosquitto, col *mqtttest.Collector, args []string) {
			a := startAgent(t, args...)
			time.Sleep(1500 * time.Millisecond)
			m.Kill()
			time.Sleep(1500 * time.Millisecond)
			m.Start()
			a.wait(t, 60*time.Second)
			if !strings.Contains(a.out.String(), "lost the broker connection") {
				t.Errorf("the broker was not killed mid-run:\n%s", a.out)
			}
		}},
		{"agent killed with SIGKILL and restarted", func(t *testing.T, m *mqtttest.Mosquitto, col *mqtttest.Collector, args []string) {
			status := watchStatus(t, m.URL())
			a := startAgent(t, args...)
			time.Sleep(1500 * time.Millisecond)
			a.kill(t)
			if n := len(col.IDs()); n == 0 || n >= 3*60 {
				t.Errorf("%d alerts before the kill: the agent was not killed mid-run", n)
			}
			// The broker publishes the agent's last will for its table.
			if !status.waitFor("offline (connection lost)", 10*time.Second) {
				t.Errorf("no last will after SIGKILL; statuses seen: %v", status.seen())
			}
			b := startAgent(t, args...)
			b.wait(t, 60*time.Second)
			if !strings.Contains(b.out.String(), "resuming after the last committed line") {
				t.Errorf("the restarted agent did not resume:\n%s", b.out)
			}
			if !status.waitFor("offline (shutdown)", 5*time.Second) {
				t.Errorf("no offline status after a clean exit; seen %v", status.seen())
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := mqtttest.Start(t)
			col := mqtttest.Collect(t, m.URL())
			time.Sleep(1200 * time.Millisecond) // autosave_interval 1: the collector's session is on disk
			journalPath := longJournal(t, "RE-11", coups)
			want := expectedAlerts(t, "it", journalPath)
			if len(want) < 2*coups {
				t.Fatalf("test journal has only %d alerts", len(want))
			}
			// 60 coups of 30 s at 600x: about 3 seconds.
			args := []string{"--journal", journalPath, "--speed", "600x", "--mqtt-url", m.URL(), "--outbox", t.TempDir()}
			tt.run(t, m, col, args)
			checkAll(t, col, want)
		})
	}
}

// statusWatch records the retained status messages of every table.
type statusWatch struct {
	mu     sync.Mutex
	states []string
}

func watchStatus(t *testing.T, url string) *statusWatch {
	t.Helper()
	w := &statusWatch{}
	sub := mqtt.NewSubscriber(mqtt.SubscriberOptions{Conn: mqtt.Conn{URL: url, ClientID: fmt.Sprintf("status-%d", time.Now().UnixNano())}, Filters: []string{alerts.StatusFilter("", "")}})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = sub.Run(ctx, func(m mqtt.Message) {
			var s alerts.Status
			if json.Unmarshal(m.Payload, &s) == nil {
				st := s.State
				if s.Reason != "" {
					st += " (" + s.Reason + ")"
				}
				w.mu.Lock()
				w.states = append(w.states, st)
				w.mu.Unlock()
			}
		})
	}()
	t.Cleanup(func() { cancel(); <-done })
	<-sub.Ready()
	return w
}

func (w *statusWatch) seen() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.states...)
}

func (w *statusWatch) waitFor(state string, timeout time.Duration) bool {
	for deadline := time.Now().Add(timeout); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		for _, s := range w.seen() {
			if s == state {
				return true
			}
		}
	}
	return false
}
