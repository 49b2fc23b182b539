// Package mqtttest runs a real mosquitto broker for integration tests and benchmarks, and
// collects the alerts a subscriber receives. Tests skip with a clear message when mosquitto
// is not installed (`make test` installs it).
package mqtttest

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/coupwatch/coupwatch/alerts"
	"github.com/coupwatch/coupwatch/alerts/mqtt"
)

// Mosquitto is a mosquitto broker on a random loopback port, with persistence in a temporary
// directory (so a persistent subscriber's session survives a broker restart).
type Mosquitto struct {
	tb   testing.TB
	Port int
	dir  string
	conf string
	mu   sync.Mutex
	cmd  *exec.Cmd
	done chan struct{}
}

// Binary returns mosquitto's path, or "" when it is not installed.
func Binary() string {
	if p, err := exec.LookPath("mosquitto"); err == nil {
		return p
	}
	for _, p := range []string{"/usr/sbin/mosquitto", "/usr/local/sbin/mosquitto"} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return ""
}

// New prepares a broker on a free loopback port without starting it; Start starts it.
func New(tb testing.TB) *Mosquitto {
	tb.Helper()
	if Binary() == "" {
		tb.Skip("mosquitto is not installed (apt-get install mosquitto; `make test` does it): skipping the broker integration test")
	}
	m := &Mosquitto{tb: tb, Port: FreePort(tb), dir: tb.TempDir()}
	m.conf = filepath.Join(m.dir, "mosquitto.conf")
	// max_queued_messages is raised as in deploy/mosquitto/mosquitto.conf: mosquitto's default
	// per-client queue of 1000 drops messages for a subscriber under a burst.
	conf := fmt.Sprintf(`listener %d 127.0.0.1
allow_anonymous true
persistence true
persistence_location %s/
autosave_interval 1
max_queued_messages 1000000
max_inflight_messages 1000
log_dest stderr
log_type error
log_type warning
log_type notice
log_type information
connection_messages true
`, m.Port, m.dir)
	if os.Geteuid() == 0 {
		// As root mosquitto drops to the mosquitto user, which cannot write the test's
		// directory: stay root.
		conf += "user root\n"
	}
	if err := os.WriteFile(m.conf, []byte(conf), 0o600); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(m.Kill)
	return m
}

// RequirePassword makes the broker (prepared by New, not yet started) refuse anonymous
// clients and accept user with password only.
func (m *Mosquitto) RequirePassword(user, password string) {
	m.tb.Helper()
	pw := filepath.Join(m.dir, "passwd")
	if out, err := exec.Command("mosquitto_passwd", "-b", "-c", pw, user, password).CombinedOutput(); err != nil {
		m.tb.Fatalf("mosquitto_passwd: %v: %s", err, out)
	}
	b, err := os.ReadFile(m.conf)
	if err != nil {
		m.tb.Fatal(err)
	}
	conf := strings.Replace(string(b), "allow_anonymous true\n", "allow_anonymous false\npassword_file "+pw+"\n", 1)
	if err := os.WriteFile(m.conf, []byte(conf), 0o600); err != nil {
		m.tb.Fatal(err)
	}
}

// Start runs a mosquitto broker for the test and waits until it accepts connections.
func Start(tb testing.TB) *Mosquitto {
	tb.Helper()
	m := New(tb)
	m.Start()
	return m
}

// URL returns the broker's URL.
func (m *Mosquitto) URL() string { return "tcp://127.0.0.1:" + strconv.Itoa(m.Port) }

// Start starts (or restarts) the broker and waits until it listens.
func (m *Mosquitto) Start() {
	m.tb.Helper()
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.cmd != nil {
		m.tb.Fatal("mosquitto is already running")
	}
	cmd := exec.Command(Binary(), "-c", m.conf)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	logf, err := os.OpenFile(filepath.Join(m.dir, "mosquitto.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		m.tb.Fatal(err)
	}
	defer logf.Close()
	cmd.Stderr = logf
	if err := cmd.Start(); err != nil {
		m.tb.Fatalf("starting mosquitto: %v", err)
	}
	done := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(done)
	}()
	m.cmd, m.done = cmd, done
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", "127.0.0.1:"+strconv.Itoa(m.Port), 200*time.Millisecond)
		if err == nil {
			c.Close()
			return
		}
		select {
		case <-done:
			log, _ := os.ReadFile(filepath.Join(m.dir, "mosquitto.log"))
			m.cmd = nil
			m.tb.Fatalf("mosquitto exited at start: %s", log)
		default:
		}
		if time.Now().After(deadline) {
			m.tb.Fatalf("mosquitto does not listen on %d after 10s", m.Port)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Kill stops the broker with SIGKILL (no goodbye to clients, no final save) and waits.
func (m *Mosquitto) Kill() { m.signal(syscall.SIGKILL) }

// Stop stops the broker with SIGTERM (it saves its persistence file) and waits.
func (m *Mosquitto) Stop() { m.signal(syscall.SIGTERM) }

func (m *Mosquitto) signal(sig syscall.Signal) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.cmd == nil {
		return
	}
	_ = m.cmd.Process.Signal(sig)
	<-m.done
	m.cmd = nil
}

// FreePort returns a loopback TCP port that was free a moment ago.
func FreePort(tb testing.TB) int {
	tb.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// Collector subscribes to alerts with a persistent session and counts the distinct ids.
type Collector struct {
	mu       sync.Mutex
	ids      map[string]int // id -> deliveries
	received int
	invalid  []string
	changed  chan struct{}
	cancel   context.CancelFunc
	done     chan struct{}
}

// Collect subscribes to every alert on the broker at url (persistent session, QoS 1) and
// returns once the subscription is acknowledged. It stops when the test ends.
func Collect(tb testing.TB, url string) *Collector {
	tb.Helper()
	c := &Collector{ids: map[string]int{}, changed: make(chan struct{}, 1), done: make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background())
	c.cancel = cancel
	sub := mqtt.NewSubscriber(mqtt.SubscriberOptions{
		Conn:       mqtt.Conn{URL: url, ClientID: fmt.Sprintf("collector-%d", time.Now().UnixNano()), KeepAlive: 5 * time.Second},
		Filters:    []string{alerts.AlertFilter("", "", "")},
		Persistent: true,
	})
	go func() {
		defer close(c.done)
		_ = sub.Run(ctx, c.add)
	}()
	tb.Cleanup(c.Stop)
	select {
	case <-sub.Ready():
	case <-time.After(15 * time.Second):
		tb.Fatalf("the collector could not subscribe at %s", url)
	}
	return c
}

func (c *Collector) add(m mqtt.Message) {
	a, err := alerts.Parse(m.Payload)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.received++
	if err != nil {
		c.invalid = append(c.invalid, err.Error())
	} else {
		c.ids[a.ID]++
	}
	select {
	case c.changed <- struct{}{}:
	default:
	}
}

// Stop ends the subscription.
func (c *Collector) Stop() {
	c.cancel()
	<-c.done
}

// IDs returns the distinct alert ids received and how often each came.
func (c *Collector) IDs() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make(map[string]int, len(c.ids))
	for k, v := range c.ids {
		out[k] = v
	}
	return out
}

// Received returns the number of messages received (duplicates included) and the invalid ones.
func (c *Collector) Received() (int, []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.received, append([]string(nil), c.invalid...)
}

// WaitDistinct waits until n distinct ids have arrived or the timeout passes; it returns the
// number of distinct ids.
func (c *Collector) WaitDistinct(n int, timeout time.Duration) int {
	deadline := time.After(timeout)
	for {
		c.mu.Lock()
		got := len(c.ids)
		c.mu.Unlock()
		if got >= n {
			return got
		}
		select {
		case <-c.changed:
		case <-deadline:
			return got
		}
	}
}

// Log returns the broker's log so far (for failure messages).
func (m *Mosquitto) Log() string {
	b, _ := os.ReadFile(filepath.Join(m.dir, "mosquitto.log"))
	return string(b)
}
