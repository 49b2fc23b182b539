package agent_test

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/coupwatch/coupwatch/agent"
	"github.com/coupwatch/coupwatch/alerts/mqtt/mqtttest"
	"github.com/coupwatch/coupwatch/configs"
	"github.com/coupwatch/coupwatch/journal"
)

// chanSource is a live source fed by the benchmark, as vision feeds the agent.
type chanSource struct {
	name string
	in   chan *journal.Event
}

func (s *chanSource) Name() string { return s.name }

func (s *chanSource) Run(ctx context.Context, resume int, out chan<- agent.Item) error {
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case ev, ok := <-s.in:
			if !ok {
				return nil
			}
			select {
			case out <- agent.Item{Ev: ev, Arrived: time.Now()}:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
	}
}

// liveTable generates a roulette table's events: each late bet is one finding.
type liveTable struct {
	table string
	line  int
	t     time.Time
	coup  int
	bets  int
}

func (lt *liveTable) ev(typ journal.Type, f func(ev *journal.Event)) *journal.Event {
	lt.line++
	lt.t = lt.t.Add(10 * time.Millisecond)
	ev := &journal.Event{Line: lt.line, T: lt.t, Table: lt.table, Type: typ}
	if f != nil {
		f(ev)
	}
	return ev
}

func (lt *liveTable) open() []*journal.Event {
	return []*journal.Event{
		lt.ev(journal.TypeTableOpen, func(ev *journal.Event) {
			ev.Game, ev.Schema, ev.HasLimits, ev.Limits = "roulette_european", 1, true, journal.Limits{Min: 100, Max: 1 << 40}
		}),
		lt.ev(journal.TypeDealer, func(ev *journal.Event) { ev.Dealer = "D-1" }),
	}
}

// lateBet returns the events up to the next late bet (a new coup every 50 late bets).
func (lt *liveTable) lateBet() []*journal.Event {
	var evs []*journal.Event
	if lt.bets%50 == 0 {
		if lt.coup > 0 {
			evs = append(evs, lt.ev(journal.TypeCoupEnd, nil))
		}
		lt.coup++
		evs = append(evs,
			lt.ev(journal.TypeCoupStart, func(ev *journal.Event) { ev.Coup = fmt.Sprint(lt.coup) }),
			lt.ev(journal.TypeNoMoreBets, func(ev *journal.Event) { ev.Cause = "announce" }))
	}
	lt.bets++
	evs = append(evs, lt.ev(journal.TypeBet, func(ev *journal.Event) {
		ev.Spot, ev.Player, ev.Amount, ev.HasAmount = "red", "P1", int64(100*lt.bets), true
	}))
	return evs
}

func benchConfig(b *testing.B, url string, tables ...string) *configs.Config {
	cfg, err := configs.Defaults()
	if err != nil {
		b.Fatal(err)
	}
	cfg.Site = "bench"
	cfg.DataDir = b.TempDir()
	cfg.HTTP.Listen = ""
	cfg.MQTT.URL = url
	cfg.MQTT.Embedded.Listen = "127.0.0.1:0"
	for _, t := range tables {
		cfg.Tables = append(cfg.Tables, configs.Table{ID: t, Source: configs.Source{Journal: "bench:" + t}})
	}
	return cfg
}

// BenchmarkEventToAck measures the latency from an event's arrival at the agent to the
// broker's acknowledgement of the alert it causes (outbox fsync, store transaction, QoS 1
// publish, PUBACK) against mosquitto on loopback, at 100 findings per second. Each iteration
// is one finding, 10 ms apart: run with -benchtime 1000x for a 10-second sample.
func BenchmarkEventToAck(b *testing.B) {
	m := mqtttest.Start(b)
	src := &chanSource{name: "bench:RE-B1", in: make(chan *journal.Event, 16)}
	var mu sync.Mutex
	var lat []time.Duration
	delivered := make(chan struct{}, b.N+1)
	ag, err := agent.New(agent.Options{
		Config: benchConfig(b, m.URL(), "RE-B1"), Catalog: catalogT(b), Registry: prometheus.NewRegistry(),
		Sources: map[string]agent.Source{"RE-B1": src},
		OnDelivered: func(_, _ string, d time.Duration) {
			mu.Lock()
			lat = append(lat, d)
			mu.Unlock()
			delivered <- struct{}{}
		},
	})
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- ag.Run(ctx) }()
	lt := &liveTable{table: "RE-B1", t: time.Date(2026, 12, 7, 20, 0, 0, 0, time.UTC)}
	for _, ev := range lt.open() {
		src.in <- ev
	}
	b.ResetTimer()
	tick := time.NewTicker(10 * time.Millisecond) // 100 findings per second
	for i := 0; i < b.N; i++ {
		<-tick.C
		for _, ev := range lt.lateBet() {
			src.in <- ev
		}
	}
	tick.Stop()
	for i := 0; i < b.N; i++ {
		select {
		case <-delivered:
		case <-time.After(30 * time.Second):
			b.Fatalf("%d of %d alerts acknowledged after 30 s", i, b.N)
		}
	}
	b.StopTimer()
	cancel()
	if err := <-done; err != nil {
		b.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	slices.Sort(lat)
	q := func(p float64) float64 { return float64(lat[int(p*float64(len(lat)-1))]) / float64(time.Millisecond) }
	b.ReportMetric(q(0.50), "p50-ms")
	b.ReportMetric(q(0.99), "p99-ms")
	b.ReportMetric(q(1), "max-ms")
}

// BenchmarkMemoryPerTable measures the heap an agent holds per watched table: pipeline,
// engines, outbox, MQTT client (embedded broker excluded from the count by a warm-up table).
func BenchmarkMemoryPerTable(b *testing.B) {
	const tables = 20
	for i := 0; i < b.N; i++ {
		ids := make([]string, tables)
		sources := map[string]agent.Source{}
		feeds := make([]*chanSource, tables)
		for t := range ids {
			ids[t] = fmt.Sprintf("T%02d", t)
			feeds[t] = &chanSource{name: "bench:" + ids[t], in: make(chan *journal.Event, 64)}
			sources[ids[t]] = feeds[t]
		}
		measure := func(n int) uint64 {
			cfg := benchConfig(b, "", ids[:n]...)
			var wg sync.WaitGroup
			var delivered sync.WaitGroup
			delivered.Add(n * 10)
			ag, err := agent.New(agent.Options{Config: cfg, Catalog: catalogT(b), Registry: prometheus.NewRegistry(), Sources: sources,
				OnDelivered: func(_, _ string, _ time.Duration) { delivered.Done() }})
			if err != nil {
				b.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			wg.Go(func() {
				if err := ag.Run(ctx); err != nil {
					b.Error(err)
				}
			})
			for t := 0; t < n; t++ {
				lt := &liveTable{table: ids[t], t: time.Date(2026, 12, 7, 20, 0, 0, 0, time.UTC)}
				for _, ev := range lt.open() {
					feeds[t].in <- ev
				}
				for k := 0; k < 10; k++ {
					for _, ev := range lt.lateBet() {
						feeds[t].in <- ev
					}
				}
			}
			delivered.Wait()
			runtime.GC()
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			cancel()
			wg.Wait()
			return ms.HeapAlloc
		}
		runtime.GC()
		one := measure(1)
		all := measure(tables)
		b.ReportMetric(float64(all-one)/float64(tables-1), "heap-bytes/table")
	}
}
