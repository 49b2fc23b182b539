package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/coupwatch/coupwatch/agent"
	"github.com/coupwatch/coupwatch/agent/demo"
	"github.com/coupwatch/coupwatch/alerts"
	"github.com/coupwatch/coupwatch/alerts/broker"
	"github.com/coupwatch/coupwatch/alerts/mqtt"
	"github.com/coupwatch/coupwatch/configs"
	"github.com/coupwatch/coupwatch/games"
	"github.com/coupwatch/coupwatch/games/catalog"
)

// runDemo implements `coupwatch demo`: the agent plays the bundled recorded journals (one
// table per game, with seeded errors) against the embedded broker, while an operator's
// subscriber (`coupwatch alerts --follow`, in-process) prints the alerts as they arrive. It
// exits 0 once every journal is replayed and every alert shown, after a short summary.
func runDemo(e *env, args []string) int {
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	speed := fs.String("speed", "100x", "pace of the recorded journals: max, 1x (real time), 100x...")
	keep := fs.String("dir", "", "keep the demo's outbox and journal store in this directory (default: a temporary directory, removed)")
	verbose := fs.Bool("v", false, "show the agent's log")
	fs.Usage = func() {
		fmt.Fprintln(e.stderr, "usage: coupwatch demo [--speed 100x] [--dir DIR]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return exitInvalid
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return exitInvalid
	}
	pace, err := configs.ParseSpeed(*speed)
	if err != nil {
		fmt.Fprintf(e.stderr, "coupwatch demo: --speed: %v\n", err)
		return exitInvalid
	}
	dir := *keep
	if dir == "" {
		if dir, err = os.MkdirTemp("", "coupwatch-demo-"); err != nil {
			fmt.Fprintf(e.stderr, "coupwatch demo: %v\n", err)
			return exitFailure
		}
		defer os.RemoveAll(dir)
	} else if entries, _ := os.ReadDir(dir); len(entries) > 0 {
		fmt.Fprintf(e.stderr, "coupwatch demo: --dir %s is not empty (the demo starts from a clean state)\n", dir)
		return exitInvalid
	}
	level := slog.LevelWarn
	if *verbose {
		level = slog.LevelInfo
	}
	log := slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: level}))

	b, err := broker.Start("127.0.0.1:0", log)
	if err != nil {
		fmt.Fprintf(e.stderr, "coupwatch demo: %v\n", err)
		return exitFailure
	}
	defer func() {
		if err := b.Close(); err != nil {
			log.Error("stopping the embedded broker", "err", err)
		}
	}()

	// The operator's view: subscribed before the first alert can be published.
	subCtx, stopSub := context.WithCancel(context.WithoutCancel(e.ctx))
	defer stopSub()
	p := newPrinter(e.stdout, false)
	sub := mqtt.NewSubscriber(mqtt.SubscriberOptions{
		Conn:    mqtt.Conn{URL: b.URL(), ClientID: "coupwatch-demo-operator"},
		Filters: []string{alerts.AlertFilter("", "", ""), alerts.StatusFilter("", "")},
		Logger:  log,
	})
	var wg sync.WaitGroup
	defer wg.Wait()
	wg.Go(func() { _ = sub.Run(subCtx, p.Print) })
	select {
	case <-sub.Ready():
	case <-time.After(10 * time.Second):
		fmt.Fprintln(e.stderr, "coupwatch demo: the operator's subscriber could not subscribe")
		return exitFailure
	}

	cfg, err := configs.Defaults()
	if err != nil {
		fmt.Fprintf(e.stderr, "coupwatch demo: %v\n", err)
		return exitFailure
	}
	cfg.Site = "demo"
	cfg.AgentID = "demo-agent"
	cfg.DataDir = dir
	cfg.HTTP.Listen = ""
	cfg.MQTT.URL = b.URL()
	cfg.Store.Retention = 0
	sources := map[string]agent.Source{}
	var games []string
	for _, j := range demo.Journals() {
		name := "embedded:" + j.File
		cfg.Tables = append(cfg.Tables, configs.Table{ID: j.Table, Source: configs.Source{Journal: name, Speed: *speed}})
		sources[j.Table] = agent.FSSource(name, demo.FS(), j.File, pace)
		games = append(games, j.Game)
	}
	cat, err := catalog.New()
	if err != nil {
		fmt.Fprintf(e.stderr, "coupwatch demo: %v\n", err)
		return exitFailure
	}
	var mu sync.Mutex
	var ids []string
	ag, err := agent.New(agent.Options{
		Config: cfg, Catalog: cat, Registry: prometheus.NewRegistry(), Logger: log, AgentVersion: agentVersion(),
		Sources: sources,
		OnAlert: func(a *alerts.Alert) {
			mu.Lock()
			ids = append(ids, a.ID)
			mu.Unlock()
		},
	})
	if err != nil {
		fmt.Fprintf(e.stderr, "coupwatch demo: %v\n", err)
		return exitFailure
	}
	fmt.Fprintf(e.stdout, "coupwatch demo: %d tables (%s) replaying recorded journals at %s; embedded broker %s\n",
		len(cfg.Tables), strings.Join(games, ", "), *speed, b.URL())
	fmt.Fprintf(e.stdout, "alerts as the surveillance room sees them (coupwatch alerts --follow --mqtt-url %s):\n\n", b.URL())
	start := time.Now()
	if err := ag.Run(e.ctx); err != nil {
		fmt.Fprintf(e.stderr, "coupwatch demo: %v\n", err)
		return exitFailure
	}
	if e.ctx.Err() != nil {
		fmt.Fprintln(e.stderr, "coupwatch demo: interrupted")
		return exitFailure
	}
	// Every alert is acknowledged by the broker; wait until the operator has seen each one.
	mu.Lock()
	want := append([]string(nil), ids...)
	mu.Unlock()
	deadline := time.Now().Add(10 * time.Second)
	var missing []string
	for {
		missing = missing[:0]
		for _, id := range want {
			if !p.Shown(id) {
				missing = append(missing, id)
			}
		}
		if len(missing) == 0 || time.Now().After(deadline) {
			break
		}
		select {
		case <-p.notify:
		case <-time.After(50 * time.Millisecond):
		}
	}
	stopSub()
	wg.Wait()
	summary(e, ag.Stats(), len(want), len(missing), time.Since(start), dir, *keep != "")
	if len(missing) > 0 {
		fmt.Fprintf(e.stderr, "coupwatch demo: %d alerts were not shown: %v\n", len(missing), missing)
		return exitFailure
	}
	return exitOK
}

func summary(e *env, stats []agent.TableStats, alertsN, missing int, took time.Duration, dir string, kept bool) {
	w := e.stdout
	fmt.Fprintf(w, "\nsummary (%s):\n", took.Round(100*time.Millisecond))
	coups := 0
	byKind := map[games.Kind]int{}
	for _, s := range stats {
		coups += s.Coups
		var parts []string
		kinds := make([]string, 0, len(s.Findings))
		for k := range s.Findings {
			kinds = append(kinds, string(k))
		}
		sort.Strings(kinds)
		for _, k := range kinds {
			n := s.Findings[games.Kind(k)]
			byKind[games.Kind(k)] += n
			parts = append(parts, fmt.Sprintf("%d %s", n, k))
		}
		found := "no finding"
		if len(parts) > 0 {
			found = strings.Join(parts, ", ")
		}
		fmt.Fprintf(w, "  %-6s %-18s %3d events %3d coups  %s\n", s.Table, s.Game, s.Events, s.Coups, found)
	}
	fmt.Fprintf(w, "  %d alerts from %d coups at %d tables: %d delivered and shown, %d missing\n", alertsN, coups, len(stats), alertsN-missing, missing)
	if kept {
		fmt.Fprintf(w, "  investigate a coup: coupwatch replay --format text --store %s --table %s --coup 2\n", filepath.Join(dir, "journal.db"), stats[0].Table)
	}
}
