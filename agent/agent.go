// Package agent is the live path of coupwatch: one pipeline per table (journal events in, the
// rule engines of games in the middle, alerts out), the durable outbox and MQTT publisher of
// each table, the journal store, retention, metrics and health endpoints, and graceful
// shutdown.
//
// Goroutines and channels: each table runs a source goroutine feeding its pipeline through a
// bounded channel (queueSize; when it is full the source waits: events are never dropped),
// and a publisher goroutine draining the table's outbox (bounded in-flight window; when it is
// full the publisher waits for acknowledgements: alerts are never dropped, they wait on disk).
// Run starts every goroutine and waits for all of them before it returns.
package agent

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/coupwatch/coupwatch/alerts"
	"github.com/coupwatch/coupwatch/alerts/broker"
	"github.com/coupwatch/coupwatch/alerts/mqtt"
	"github.com/coupwatch/coupwatch/alerts/outbox"
	"github.com/coupwatch/coupwatch/configs"
	"github.com/coupwatch/coupwatch/games"
	"github.com/coupwatch/coupwatch/journal/store"
)

// Options wire an agent.
type Options struct {
	Config  *configs.Config
	Catalog *games.Catalog
	// Registry receives every metric and is served on /metrics.
	Registry     *prometheus.Registry
	Logger       *slog.Logger
	AgentVersion string
	// Sources overrides the source of a table (by id); the others read config's source.journal.
	Sources map[string]Source
	// OnAlert, if set, is called for every alert once it is durable.
	OnAlert func(*alerts.Alert)
	// Ready, if set, is called once every table is wired and the HTTP server listens.
	Ready func(*Agent)
	// OnDelivered, if set, is called when the broker acknowledges an alert, with the time from
	// the event's arrival to the acknowledgement (benchmarks).
	OnDelivered func(table, id string, latency time.Duration)
}

// Agent runs the tables of a configuration.
type Agent struct {
	o      Options
	log    *slog.Logger
	tables []*table

	mu         sync.Mutex
	failed     error
	brokerURL  string
	httpAddr   string
	storeReady bool
}

type table struct {
	id  string
	pl  *Pipeline
	ob  *outbox.Outbox
	pub *mqtt.Publisher
}

// New checks the options; Run does the work.
func New(o Options) (*Agent, error) {
	if o.Config == nil || o.Catalog == nil || o.Registry == nil {
		return nil, errors.New("agent: Config, Catalog and Registry are required")
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.AgentVersion == "" {
		o.AgentVersion = "devel"
	}
	if err := o.Config.Validate(); err != nil {
		return nil, err
	}
	return &Agent{o: o, log: o.Logger.With("component", "agent")}, nil
}

// AgentID returns the configured agent id, or the host name.
func AgentID(c *configs.Config) string {
	if c.AgentID != "" {
		return c.AgentID
	}
	if h, err := os.Hostname(); err == nil && h != "" {
		return h
	}
	return "coupwatch"
}

// BrokerURL returns the broker the agent publishes to (the embedded broker's address once Run
// has started it).
func (a *Agent) BrokerURL() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.brokerURL
}

// HTTPAddr returns the address of the metrics and health server ("" when disabled).
func (a *Agent) HTTPAddr() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.httpAddr
}

// Stats returns what each table processed, in configuration order.
func (a *Agent) Stats() []TableStats {
	var out []TableStats
	for _, t := range a.tables {
		out = append(out, t.pl.Stats())
	}
	return out
}

// Undelivered returns the alerts not yet acknowledged by the broker, all tables together.
func (a *Agent) Undelivered() int {
	n := 0
	for _, t := range a.tables {
		n += t.ob.Depth()
	}
	return n
}

// Check reports why the agent is not ready to do its job: the store is not open, a pipeline
// failed, or a table's publisher is not connected to the broker. nil means ready.
func (a *Agent) Check() error {
	a.mu.Lock()
	failed, storeReady := a.failed, a.storeReady
	a.mu.Unlock()
	var problems []string
	if !storeReady {
		problems = append(problems, "journal store not open")
	}
	if failed != nil {
		problems = append(problems, "failed: "+failed.Error())
	}
	for _, t := range a.tables {
		if !t.pub.Connected() {
			problems = append(problems, "table "+t.id+": not connected to the broker")
		}
	}
	if len(problems) > 0 {
		return errors.New(strings.Join(problems, "; "))
	}
	return nil
}

func (a *Agent) fail(err error) {
	a.mu.Lock()
	if a.failed == nil {
		a.failed = err
	}
	a.mu.Unlock()
}

// Run runs every table until its journal ends and every alert is delivered (then it returns
// nil), until ctx is cancelled (graceful shutdown: sources stop, pipelines commit what they
// read, publishers get shutdown.drain_timeout to deliver the outbox; it returns nil), or until
// something fails (it shuts down the same way and returns the error).
func (a *Agent) Run(ctx context.Context) (err error) {
	cfg := a.o.Config
	st, err := store.Open(cfg.StorePath(), store.Options{})
	if err != nil {
		return fmt.Errorf("store.path: %w", err)
	}
	defer func() {
		if cerr := st.Close(); cerr != nil && err == nil {
			err = cerr
		}
	}()
	a.mu.Lock()
	a.storeReady = true
	a.mu.Unlock()

	url := cfg.MQTT.URL
	if cfg.Embedded() {
		b, err := broker.Start(cfg.MQTT.Embedded.Listen, a.o.Logger.With("component", "broker"))
		if err != nil {
			return fmt.Errorf("mqtt.embedded.listen: %w", err)
		}
		defer func() {
			if err := b.Close(); err != nil {
				a.log.Error("stopping the embedded broker", "err", err)
			}
		}()
		url = b.URL()
		a.log.Info("embedded MQTT broker listening", "addr", b.Addr())
	}
	a.mu.Lock()
	a.brokerURL = url
	a.mu.Unlock()
	password, err := cfg.Password()
	if err != nil {
		return err
	}
	tlsCfg, err := cfg.TLSConfig()
	if err != nil {
		return err
	}

	obm := outbox.NewMetrics(a.o.Registry)
	mqm := mqtt.NewMetrics(a.o.Registry)
	agm := NewMetrics(a.o.Registry)
	agentID := AgentID(cfg)
	for i, tc := range cfg.Tables {
		log := a.o.Logger.With("component", "pipeline", "table", tc.ID)
		src := a.o.Sources[tc.ID]
		if src == nil {
			speed, _ := configs.ParseSpeed(tc.Source.Speed) // validated
			fs, err := FileSource(tc.Source.Journal, speed, tc.Source.Follow)
			if err != nil {
				return err
			}
			if !tc.Source.Follow {
				if _, err := os.Stat(tc.Source.Journal); err != nil {
					return fmt.Errorf("tables[%d].source.journal: %w", i, err)
				}
			}
			src = fs
		}
		ob, err := outbox.Open(filepath.Join(cfg.OutboxDir(), tc.ID), outbox.Options{
			SegmentBytes: cfg.Outbox.SegmentBytes, Metrics: obm, Label: tc.ID, Logger: log,
		})
		if err != nil {
			return fmt.Errorf("outbox.dir: %w", err)
		}
		defer ob.Close()
		if n := ob.Depth(); n > 0 {
			log.Info("delivering alerts left in the outbox by the previous run", "alerts", n)
		}
		if n := ob.Corrupt(); n > 0 {
			log.Warn("skipped torn or corrupt outbox records (a crash in the middle of a write; the journal is processed again from the last checkpoint)", "records", n)
		}
		site, id := cfg.Site, tc.ID
		pub := mqtt.NewPublisher(mqtt.PublisherOptions{
			Conn: mqtt.Conn{
				URL: url, ClientID: cfg.MQTT.ClientIDPrefix + "-" + site + "-" + id,
				Username: cfg.MQTT.Username, Password: password.Reveal(), TLS: tlsCfg,
				KeepAlive: cfg.MQTT.KeepAlive, ConnectTimeout: cfg.MQTT.ConnectTimeout,
			},
			Status: mqtt.Status{
				Topic: alerts.StatusTopic(site, id),
				Online: func() []byte {
					return alerts.NewStatus(site, id, alerts.Online, "", agentID, a.o.AgentVersion, time.Now()).Marshal()
				},
				Offline: func() []byte {
					return alerts.NewStatus(site, id, alerts.Offline, "shutdown", agentID, a.o.AgentVersion, time.Now()).Marshal()
				},
				Will: alerts.NewStatus(site, id, alerts.Offline, "connection lost", agentID, a.o.AgentVersion, time.Time{}).Marshal(),
			},
			AckTimeout:   cfg.MQTT.AckTimeout,
			MaxInflight:  cfg.MQTT.MaxInflight,
			ReconnectMin: cfg.MQTT.ReconnectMin, ReconnectMax: cfg.MQTT.ReconnectMax,
			Logger:  a.o.Logger.With("component", "mqtt", "table", id),
			Metrics: mqm,
			Label:   id,
			OnAck:   a.onAck(id),
		})
		pl := NewPipeline(PipelineOptions{
			Table: id, Source: src, Catalog: a.o.Catalog, Outbox: ob, Store: st,
			Site: site, AgentID: agentID, AgentVersion: a.o.AgentVersion,
			Logger: log, Metrics: agm, OnAlert: a.o.OnAlert,
		})
		a.tables = append(a.tables, &table{id: id, pl: pl, ob: ob, pub: pub})
	}

	var bg sync.WaitGroup
	defer bg.Wait()
	bgctx, stopBG := context.WithCancel(context.WithoutCancel(ctx))
	defer stopBG()
	if cfg.HTTP.Listen != "" {
		if err := a.serveHTTP(bgctx, &bg, cfg.HTTP.Listen); err != nil {
			return err
		}
	}
	if cfg.Store.Retention > 0 {
		bg.Go(func() { a.retain(bgctx, st, cfg.Store.Retention, agm) })
	}
	if a.o.Ready != nil {
		a.o.Ready(a)
	}
	return a.run(ctx)
}

// run starts the publishers and pipelines and waits for them.
func (a *Agent) run(ctx context.Context) error {
	pctx, stopPipelines := context.WithCancel(ctx)
	defer stopPipelines()
	pubCtx, stopPublishers := context.WithCancel(context.WithoutCancel(ctx))
	defer stopPublishers()

	// waitCtx ends the wait for deliveries when a publisher fails.
	waitCtx, stopWaiting := context.WithCancel(ctx)
	defer stopWaiting()
	errs := make(chan error, 2*len(a.tables))
	var pubs, pipes sync.WaitGroup
	for _, t := range a.tables {
		pubs.Go(func() {
			if err := t.pub.Run(pubCtx, t.ob); err != nil {
				errs <- fmt.Errorf("table %s: delivering alerts: %w", t.id, err)
				stopPipelines()
				stopWaiting()
			}
		})
		pipes.Go(func() {
			if err := t.pl.Run(pctx); err != nil {
				errs <- err
				stopPipelines()
			}
		})
	}
	pipes.Wait()
	var first error
	select {
	case first = <-errs:
		a.fail(first)
		a.log.Error("stopping after a failure", "err", first)
	default:
	}

	all := func() bool {
		for _, t := range a.tables {
			if !t.pl.Finished() {
				return false
			}
		}
		return true
	}
	switch {
	case first == nil && ctx.Err() == nil && all():
		// Every journal is done: wait until every alert is delivered (or a signal).
		a.log.Info("every journal is done; delivering the last alerts", "undelivered", a.Undelivered())
		if err := a.waitDelivered(waitCtx); err != nil {
			a.drain(a.o.Config.Shutdown.DrainTimeout)
		}
	default:
		a.drain(a.o.Config.Shutdown.DrainTimeout)
	}
	stopPublishers()
	pubs.Wait()
	close(errs)
	for err := range errs {
		if first == nil {
			first = err
		}
	}
	if n := a.Undelivered(); n > 0 {
		a.log.Warn("stopping with undelivered alerts; they are delivered at the next start", "undelivered", n)
	}
	return first
}

func (a *Agent) onAck(table string) func(*outbox.Entry, time.Duration) {
	if a.o.OnDelivered == nil {
		return nil
	}
	return func(e *outbox.Entry, latency time.Duration) { a.o.OnDelivered(table, e.Key, latency) }
}

func (a *Agent) waitDelivered(ctx context.Context) error {
	for _, t := range a.tables {
		if err := t.ob.WaitEmpty(ctx); err != nil {
			return err
		}
	}
	return nil
}

// drain gives the publishers up to timeout to deliver what is in the outboxes.
func (a *Agent) drain(timeout time.Duration) {
	if a.Undelivered() == 0 || timeout <= 0 {
		return
	}
	a.log.Info("delivering the outbox before stopping", "undelivered", a.Undelivered(), "timeout", timeout)
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	_ = a.waitDelivered(ctx)
}

func (a *Agent) serveHTTP(ctx context.Context, wg *sync.WaitGroup, addr string) error {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("http.listen: %w", err)
	}
	a.mu.Lock()
	a.httpAddr = l.Addr().String()
	a.mu.Unlock()
	srv := &http.Server{Handler: a.Handler(), ReadHeaderTimeout: 5 * time.Second}
	wg.Go(func() {
		if err := srv.Serve(l); err != nil && !errors.Is(err, http.ErrServerClosed) {
			a.log.Error("HTTP server stopped", "err", err)
		}
	})
	wg.Go(func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
	})
	a.log.Info("serving /metrics, /healthz and /readyz", "addr", l.Addr().String())
	return nil
}

// Handler serves /metrics (the agent's registry), /healthz (the process answers) and /readyz
// (Check: store open, no pipeline failed, every table connected to the broker).
func (a *Agent) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(a.o.Registry, promhttp.HandlerOpts{Registry: a.o.Registry}))
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprintln(w, "ok")
	})
	mux.HandleFunc("/readyz", func(w http.ResponseWriter, _ *http.Request) {
		if err := a.Check(); err != nil {
			http.Error(w, "not ready: "+err.Error(), http.StatusServiceUnavailable)
			return
		}
		fmt.Fprintln(w, "ready")
	})
	return mux
}

// retain prunes the store at start and every hour.
func (a *Agent) retain(ctx context.Context, st *store.Store, keep time.Duration, m *Metrics) {
	tick := time.NewTicker(time.Hour)
	defer tick.Stop()
	for {
		n, err := st.Prune(ctx, time.Now().Add(-keep))
		switch {
		case err != nil && ctx.Err() == nil:
			a.log.Error("pruning the journal store", "err", err)
		case n > 0:
			m.pruned.Add(float64(n))
			a.log.Info("pruned the journal store", "events", n, "older_than", time.Now().Add(-keep).Format(time.RFC3339))
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}
