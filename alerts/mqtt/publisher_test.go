package mqtt_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/coupwatch/coupwatch/alerts"
	"github.com/coupwatch/coupwatch/alerts/broker"
	"github.com/coupwatch/coupwatch/alerts/mqtt"
	"github.com/coupwatch/coupwatch/alerts/mqtt/mqtttest"
	"github.com/coupwatch/coupwatch/alerts/outbox"
)

func testLogger(t *testing.T) *slog.Logger {
	if testing.Verbose() {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return slog.New(slog.DiscardHandler)
}

// alertMsg returns a valid alert message with a unique id.
func alertMsg(i int) outbox.Message {
	id := fmt.Sprintf("%032x", i+1)
	a := map[string]any{"id": id, "schema": alerts.Schema, "table": "T1", "kind": "late_bet", "rule": "roulette.late_bet", "detail": "test"}
	b, _ := json.Marshal(a)
	return outbox.Message{Key: id, Topic: alerts.AlertTopic("site", "T1", "late_bet"), Payload: b, Born: time.Now()}
}

type fixture struct {
	ob   *outbox.Outbox
	pub  *mqtt.Publisher
	reg  *prometheus.Registry
	stop func()
}

func startPublisher(t *testing.T, url string, status mqtt.Status) *fixture {
	t.Helper()
	reg := prometheus.NewRegistry()
	ob, err := outbox.Open(t.TempDir(), outbox.Options{Metrics: outbox.NewMetrics(reg), Label: "T1"})
	if err != nil {
		t.Fatal(err)
	}
	pub := mqtt.NewPublisher(mqtt.PublisherOptions{
		Conn:         mqtt.Conn{URL: url, ClientID: "coupwatch-test-T1", KeepAlive: 2 * time.Second, ConnectTimeout: 2 * time.Second},
		Status:       status,
		AckTimeout:   3 * time.Second,
		MaxInflight:  32,
		ReconnectMin: 50 * time.Millisecond, ReconnectMax: 500 * time.Millisecond,
		Logger:  testLogger(t),
		Metrics: mqtt.NewMetrics(reg),
		Label:   "T1",
	})
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() {
		if err := pub.Run(ctx, ob); err != nil {
			t.Errorf("Run: %v", err)
		}
	})
	f := &fixture{ob: ob, pub: pub, reg: reg}
	var once sync.Once
	f.stop = func() {
		once.Do(func() {
			cancel()
			wg.Wait()
			ob.Close()
		})
	}
	t.Cleanup(f.stop)
	return f
}

func (f *fixture) append(t *testing.T, from, to int) {
	t.Helper()
	for i := from; i < to; i++ {
		if err := f.ob.Append(alertMsg(i)); err != nil {
			t.Fatal(err)
		}
	}
}

func (f *fixture) waitEmpty(t *testing.T, timeout time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	if err := f.ob.WaitEmpty(ctx); err != nil {
		t.Fatalf("outbox still holds %d alerts after %s", f.ob.Depth(), timeout)
	}
}

func TestEmbeddedBrokerDelivery(t *testing.T) {
	b, err := broker.Start("127.0.0.1:0", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	col := mqtttest.Collect(t, b.URL())

	var statuses sync.Map
	statusSub := mqtt.NewSubscriber(mqtt.SubscriberOptions{Conn: mqtt.Conn{URL: b.URL(), ClientID: "status-watch"}, Filters: []string{alerts.StatusFilter("", "")}})
	sctx, scancel := context.WithCancel(context.Background())
	var swg sync.WaitGroup
	swg.Go(func() {
		_ = statusSub.Run(sctx, func(m mqtt.Message) {
			var s alerts.Status
			if json.Unmarshal(m.Payload, &s) == nil {
				statuses.Store(s.State, true)
			}
		})
	})
	defer func() { scancel(); swg.Wait() }()
	<-statusSub.Ready()

	status := mqtt.Status{
		Topic: alerts.StatusTopic("site", "T1"),
		Online: func() []byte {
			return alerts.NewStatus("site", "T1", alerts.Online, "", "a", "v", time.Now()).Marshal()
		},
		Offline: func() []byte {
			return alerts.NewStatus("site", "T1", alerts.Offline, "shutdown", "a", "v", time.Now()).Marshal()
		},
		Will: alerts.NewStatus("site", "T1", alerts.Offline, "connection lost", "a", "v", time.Time{}).Marshal(),
	}
	f := startPublisher(t, b.URL(), status)
	const n = 500
	f.append(t, 0, n)
	f.waitEmpty(t, 20*time.Second)
	if got := col.WaitDistinct(n, 10*time.Second); got != n {
		t.Fatalf("subscriber got %d distinct alerts, want %d\n%s", got, n, "")
	}
	if v := metricValue(t, f.reg, "coupwatch_mqtt_connected"); v != 1 {
		t.Errorf("connected gauge %v", v)
	}
	f.stop()
	deadline := time.Now().Add(5 * time.Second)
	for {
		_, on := statuses.Load(alerts.Online)
		_, off := statuses.Load(alerts.Offline)
		if on && off {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("status messages seen: online %v, offline %v", on, off)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// metricValue returns the value of a single-series gauge or counter.
func metricValue(t *testing.T, reg *prometheus.Registry, name string) float64 {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() != name || len(mf.Metric) != 1 {
			continue
		}
		if g := mf.Metric[0].Gauge; g != nil {
			return g.GetValue()
		}
		if c := mf.Metric[0].Counter; c != nil {
			return c.GetValue()
		}
	}
	t.Fatalf("no single-series metric %s", name)
	return 0
}

// TestBrokerDownAtStart: the broker is not there when the publisher starts; alerts wait in
// the outbox and all arrive once it is.
func TestBrokerDownAtStart(t *testing.T) {
	m := mqtttest.New(t)
	// Register the collector's persistent session first, then take the broker down.
	m.Start()
	col := mqtttest.Collect(t, m.URL())
	time.Sleep(1500 * time.Millisecond) // autosave_interval 1: the session is on disk
	m.Stop()

	f := startPublisher(t, m.URL(), mqtt.Status{})
	const n = 200
	f.append(t, 0, n)
	time.Sleep(time.Second)
	if d := f.ob.Depth(); d != n {
		t.Fatalf("outbox depth %d with the broker down, want %d", d, n)
	}
	m.Start()
	f.waitEmpty(t, 20*time.Second)
	if got := col.WaitDistinct(n, 20*time.Second); got != n {
		t.Fatalf("subscriber got %d distinct alerts, want %d\n%s", got, n, m.Log())
	}
}

// TestBrokerKilledMidRun: mosquitto is killed (SIGKILL) while alerts flow and restarted; not
// one alert is lost.
func TestBrokerKilledMidRun(t *testing.T) {
	m := mqtttest.Start(t)
	col := mqtttest.Collect(t, m.URL())
	time.Sleep(1500 * time.Millisecond) // the collector's session is saved

	f := startPublisher(t, m.URL(), mqtt.Status{})
	const n = 600
	var wg sync.WaitGroup
	wg.Go(func() {
		for i := 0; i < n; i++ {
			if err := f.ob.Append(alertMsg(i)); err != nil {
				t.Error(err)
				return
			}
			time.Sleep(2 * time.Millisecond)
		}
	})
	time.Sleep(400 * time.Millisecond)
	m.Kill()
	time.Sleep(700 * time.Millisecond)
	m.Start()
	wg.Wait()
	f.waitEmpty(t, 30*time.Second)
	if got := col.WaitDistinct(n, 30*time.Second); got != n {
		t.Fatalf("subscriber got %d distinct alerts, want %d\n%s", got, n, m.Log())
	}
	if v := metricValue(t, f.reg, "coupwatch_mqtt_connects_total"); v < 2 {
		t.Errorf("connects_total = %v, want a reconnection", v)
	}
}

// TestRefusedCredentials: a broker that refuses the agent's user name or password stops the
// publisher with an error naming the keys to fix (retrying cannot help); the alerts stay in
// the outbox. The right password delivers them.
func TestRefusedCredentials(t *testing.T) {
	m := mqtttest.New(t)
	m.RequirePassword("agent", "s3cret")
	m.Start()
	for _, tc := range []struct {
		name, user, password string
		refused              bool
	}{
		{"wrong password", "agent", "wrong", true},
		{"no credentials", "", "", true},
		{"right password", "agent", "s3cret", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ob, err := outbox.Open(t.TempDir(), outbox.Options{Label: "T1"})
			if err != nil {
				t.Fatal(err)
			}
			defer ob.Close()
			if err := ob.Append(alertMsg(0)); err != nil {
				t.Fatal(err)
			}
			pub := mqtt.NewPublisher(mqtt.PublisherOptions{
				Conn: mqtt.Conn{URL: m.URL(), ClientID: "coupwatch-test-auth", Username: tc.user, Password: tc.password,
					KeepAlive: 2 * time.Second, ConnectTimeout: 2 * time.Second},
				AckTimeout:   3 * time.Second,
				MaxInflight:  8,
				ReconnectMin: 50 * time.Millisecond, ReconnectMax: 200 * time.Millisecond,
				Logger: testLogger(t),
				Label:  "T1",
			})
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			errc := make(chan error, 1)
			go func() { errc <- pub.Run(ctx, ob) }()
			if !tc.refused {
				wctx, wcancel := context.WithTimeout(ctx, 5*time.Second)
				defer wcancel()
				if err := ob.WaitEmpty(wctx); err != nil {
					t.Fatalf("the alert was not delivered: %v", err)
				}
				cancel()
				if err := <-errc; err != nil {
					t.Errorf("Run: %v", err)
				}
				return
			}
			select {
			case err := <-errc:
				if err == nil || !strings.Contains(err.Error(), "refused the agent's credentials (mqtt.username, mqtt.password)") {
					t.Errorf("Run: %v", err)
				}
			case <-ctx.Done():
				t.Fatal("the publisher still retries refused credentials")
			}
			if d := ob.Depth(); d != 1 {
				t.Errorf("outbox depth %d, want the alert kept", d)
			}
		})
	}
}

// TestSameClientIDBacksOff: two publishers with one client id (two agents started for one
// table) knock each other off the broker; each retries with its back-off instead of
// reconnecting at once in a loop.
func TestSameClientIDBacksOff(t *testing.T) {
	m := mqtttest.Start(t)
	reg := prometheus.NewRegistry()
	metrics := mqtt.NewMetrics(reg)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		ob, err := outbox.Open(t.TempDir(), outbox.Options{Label: "T1"})
		if err != nil {
			t.Fatal(err)
		}
		defer ob.Close()
		pub := mqtt.NewPublisher(mqtt.PublisherOptions{
			Conn:         mqtt.Conn{URL: m.URL(), ClientID: "coupwatch-test-same", KeepAlive: 2 * time.Second, ConnectTimeout: 2 * time.Second},
			AckTimeout:   3 * time.Second,
			MaxInflight:  8,
			ReconnectMin: 50 * time.Millisecond, ReconnectMax: time.Second,
			Logger:  testLogger(t),
			Metrics: metrics,
			Label:   "T1",
		})
		wg.Go(func() {
			if err := pub.Run(ctx, ob); err != nil {
				t.Errorf("Run: %v", err)
			}
		})
	}
	wg.Wait()
	// With the back-off (50 ms doubling to 1 s) each publisher connects about 6 times in 3 s.
	if n := metricValue(t, reg, "coupwatch_mqtt_connects_total"); n > 30 {
		t.Errorf("%v connections in 3 s: the two publishers reconnect in a loop", n)
	}
}
