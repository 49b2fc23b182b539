package main

import (
	"flag"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strings"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"github.com/coupwatch/coupwatch/agent"
	"github.com/coupwatch/coupwatch/configs"
	"github.com/coupwatch/coupwatch/games/catalog"
)

// runAgent implements `coupwatch agent`: the live service, one pipeline per configured table,
// or one table from a recorded journal (--journal).
func runAgent(e *env, args []string) int {
	fs := flag.NewFlagSet("agent", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	cfgPath := fs.String("config", "", "configuration file (YAML); COUPWATCH_* environment variables override it")
	check := fs.Bool("check", false, "validate the configuration, print it (secrets redacted) and exit")
	journalPath := fs.String("journal", "", "run one table from this coup journal instead of the configured tables")
	table := fs.String("table", "", "with --journal: the table id (default: the journal's)")
	speed := fs.String("speed", "max", "with --journal: max (as fast as possible), 1x (the recorded timing), 10x...")
	follow := fs.Bool("follow", false, "with --journal: keep reading as the journal grows (a journal written live)")
	mqttURL := fs.String("mqtt-url", "", "broker URL (tcp://host:1883, ssl://host:8883...); \"embedded\" runs the embedded broker (overrides mqtt.url)")
	outboxDir := fs.String("outbox", "", "outbox directory (overrides outbox.dir; with --journal the store defaults to DIR/journal.db)")
	storePath := fs.String("store", "", "journal store file (overrides store.path)")
	site := fs.String("site", "", "site id, the second topic level (overrides site)")
	httpAddr := fs.String("http", "", "listen address of /metrics, /healthz and /readyz (overrides http.listen; \"off\" disables; with --journal it is off unless given)")
	fs.Usage = func() {
		fmt.Fprintln(e.stderr, "usage: coupwatch agent --config FILE")
		fmt.Fprintln(e.stderr, "       coupwatch agent --journal FILE [--speed max|1x] [--mqtt-url URL] [--outbox DIR]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return exitInvalid
	}
	if fs.NArg() > 0 || (*cfgPath == "" && *journalPath == "") {
		fs.Usage()
		return exitInvalid
	}
	cfg, err := configs.Load(*cfgPath, e.getenv)
	if err != nil {
		fmt.Fprintf(e.stderr, "coupwatch agent: %v\n", err)
		return exitInvalid
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if *journalPath != "" {
		if sp, err := configs.ParseSpeed(*speed); err != nil {
			fmt.Fprintf(e.stderr, "coupwatch agent: --speed: %v\n", err)
			return exitInvalid
		} else if sp > 0 && *follow {
			fmt.Fprintln(e.stderr, "coupwatch agent: --speed paces a recorded journal and --follow reads one as it is written: give one or the other")
			return exitInvalid
		}
		id := *table
		src, err := agent.FileSource(*journalPath, 0, false)
		var jid string
		if err == nil {
			jid, err = src.Table()
		}
		switch {
		case id == "" && err != nil:
			fmt.Fprintf(e.stderr, "coupwatch agent: %v (give --table)\n", err)
			return exitInvalid
		case id == "":
			id = jid
		case err == nil && jid != id:
			// Every line would be skipped as another table's.
			fmt.Fprintf(e.stderr, "coupwatch agent: --table %s: the journal %s is table %s's\n", id, *journalPath, jid)
			return exitInvalid
		}
		cfg.Tables = []configs.Table{{ID: id, Source: configs.Source{Journal: *journalPath, Speed: *speed, Follow: *follow}}}
		if !set["http"] {
			cfg.HTTP.Listen = ""
		}
		if set["outbox"] && !set["store"] && cfg.Store.Path == "" {
			cfg.Store.Path = filepath.Join(*outboxDir, "journal.db")
		}
	} else if set["table"] || set["speed"] || set["follow"] {
		fmt.Fprintln(e.stderr, "coupwatch agent: --table, --speed and --follow go with --journal")
		return exitInvalid
	}
	if set["mqtt-url"] {
		cfg.MQTT.URL = *mqttURL
	}
	if set["outbox"] {
		cfg.Outbox.Dir = *outboxDir
	}
	if set["store"] {
		cfg.Store.Path = *storePath
	}
	if set["site"] {
		cfg.Site = *site
	}
	if set["http"] {
		cfg.HTTP.Listen = *httpAddr
		if *httpAddr == "off" {
			cfg.HTTP.Listen = ""
		}
	}
	if err := cfg.Validate(); err != nil {
		src := "configuration"
		if *cfgPath != "" {
			src = *cfgPath
		}
		fmt.Fprintf(e.stderr, "coupwatch agent: %s is invalid:\n  %s\n", src, strings.ReplaceAll(err.Error(), "\n", "\n  "))
		return exitInvalid
	}
	if *check {
		fmt.Fprintln(e.stdout, cfg.String())
		return exitOK
	}
	log := newLogger(e.stderr, cfg.Log)
	cat, err := catalog.New()
	if err != nil {
		log.Error("building the game catalog", "err", err)
		return exitFailure
	}
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	ag, err := agent.New(agent.Options{Config: cfg, Catalog: cat, Registry: reg, Logger: log, AgentVersion: agentVersion()})
	if err != nil {
		fmt.Fprintf(e.stderr, "coupwatch agent: %v\n", err)
		return exitInvalid
	}
	log.Info("coupwatch agent starting", "version", agentVersion(), "site", cfg.Site, "tables", len(cfg.Tables), "store", cfg.StorePath(), "outbox", cfg.OutboxDir())
	if err := ag.Run(e.ctx); err != nil {
		log.Error("agent stopped", "err", err)
		return exitFailure
	}
	return exitOK
}

// newLogger returns the agent's logger as the configuration asks.
func newLogger(w io.Writer, c configs.Log) *slog.Logger {
	var level slog.Level
	_ = level.UnmarshalText([]byte(c.Level)) // validated
	opts := &slog.HandlerOptions{Level: level}
	if c.Format == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}
