package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/coupwatch/coupwatch/alerts"
	"github.com/coupwatch/coupwatch/alerts/mqtt"
	"github.com/coupwatch/coupwatch/configs"
	"github.com/coupwatch/coupwatch/games"
)

// runAlerts implements `coupwatch alerts [--follow] --mqtt-url URL`: a subscriber that prints
// one readable line per alert (and per table status change), as a surveillance operator reads
// them. Redeliveries (same id) are shown once.
func runAlerts(e *env, args []string) int {
	fs := flag.NewFlagSet("alerts", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	url := fs.String("mqtt-url", "tcp://127.0.0.1:1883", "broker URL (tcp://, ssl://, ws://...)")
	follow := fs.Bool("follow", false, "keep following until interrupted (otherwise stop after --wait)")
	wait := fs.Duration("wait", 10*time.Second, "without --follow: how long to listen")
	count := fs.Int("count", 0, "stop after this many distinct alerts (0: no limit)")
	site := fs.String("site", "", "only this site")
	table := fs.String("table", "", "only this table")
	kind := fs.String("kind", "", "only this kind of discrepancy (wrong_payout, late_bet, ...)")
	asJSON := fs.Bool("json", false, "print the alert messages as they arrive (JSON Lines) instead of readable lines")
	status := fs.Bool("status", true, "show the tables' status (online, offline)")
	clientID := fs.String("client-id", "", "MQTT client id; with --session the broker keeps alerts for it while it is away")
	session := fs.Bool("session", false, "keep a persistent session at the broker (needs --client-id)")
	username := fs.String("username", "", "MQTT user name")
	passwordFile := fs.String("password-file", "", "file holding the MQTT password (or set COUPWATCH_MQTT_PASSWORD)")
	caFile := fs.String("ca", "", "CA certificate (PEM) to verify the broker")
	certFile := fs.String("cert", "", "client certificate (PEM)")
	keyFile := fs.String("key", "", "client key (PEM)")
	fs.Usage = func() {
		fmt.Fprintln(e.stderr, "usage: coupwatch alerts [--follow] [--mqtt-url URL] [filters]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return exitInvalid
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return exitInvalid
	}
	for _, f := range []struct{ name, v string }{{"--site", *site}, {"--table", *table}, {"--kind", *kind}} {
		if f.v != "" && !configs.ValidID(f.v) {
			fmt.Fprintf(e.stderr, "coupwatch alerts: %s %q is not a valid id\n", f.name, f.v)
			return exitInvalid
		}
	}
	if *kind != "" && !slices.Contains(games.Kinds(), games.Kind(*kind)) {
		fmt.Fprintf(e.stderr, "coupwatch alerts: --kind %q is not a discrepancy kind; want one of %v\n", *kind, games.Kinds())
		return exitInvalid
	}
	if *session && *clientID == "" {
		fmt.Fprintln(e.stderr, "coupwatch alerts: --session needs --client-id (the broker keeps the session under that id)")
		return exitInvalid
	}
	conn := mqtt.Conn{URL: *url, ClientID: *clientID, Username: *username, KeepAlive: 30 * time.Second, ConnectTimeout: 10 * time.Second}
	if conn.ClientID == "" {
		conn.ClientID = fmt.Sprintf("coupwatch-alerts-%d", time.Now().UnixNano())
	}
	if *passwordFile != "" {
		b, err := os.ReadFile(*passwordFile)
		if err != nil {
			fmt.Fprintf(e.stderr, "coupwatch alerts: --password-file: %v\n", err)
			return exitInvalid
		}
		conn.Password = strings.TrimRight(string(b), "\r\n")
	} else if p := e.getenv(configs.EnvName("mqtt.password")); p != "" {
		conn.Password = p
	}
	if *caFile != "" || *certFile != "" {
		cfg, err := clientTLS(*caFile, *certFile, *keyFile)
		if err != nil {
			fmt.Fprintf(e.stderr, "coupwatch alerts: %v\n", err)
			return exitInvalid
		}
		conn.TLS = cfg
	}
	filters := []string{alerts.AlertFilter(*site, *table, *kind)}
	if *status {
		filters = append(filters, alerts.StatusFilter(*site, *table))
	}
	ctx := e.ctx
	var cancel context.CancelFunc
	if *follow {
		ctx, cancel = context.WithCancel(ctx)
	} else {
		ctx, cancel = context.WithTimeout(ctx, *wait)
	}
	defer cancel()
	p := newPrinter(e.stdout, *asJSON)
	p.limit, p.onLimit = *count, cancel
	sub := mqtt.NewSubscriber(mqtt.SubscriberOptions{Conn: conn, Filters: filters, Persistent: *session, Logger: e.logger("alerts")})
	if err := sub.Run(ctx, p.Print); err != nil {
		fmt.Fprintf(e.stderr, "coupwatch alerts: %v\n", err)
		return exitFailure
	}
	select {
	case <-sub.Ready():
	default:
		fmt.Fprintf(e.stderr, "coupwatch alerts: could not subscribe at %s\n", *url)
		return exitFailure
	}
	return exitOK
}

func clientTLS(ca, cert, key string) (*tls.Config, error) {
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	if ca != "" {
		pem, err := os.ReadFile(ca)
		if err != nil {
			return nil, fmt.Errorf("--ca: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("--ca: %s holds no PEM certificate", ca)
		}
		cfg.RootCAs = pool
	}
	if cert != "" || key != "" {
		c, err := tls.LoadX509KeyPair(cert, key)
		if err != nil {
			return nil, fmt.Errorf("--cert/--key: %w", err)
		}
		cfg.Certificates = []tls.Certificate{c}
	}
	return cfg, nil
}

// printer writes alerts and status messages for people, each alert once.
type printer struct {
	w       io.Writer
	json    bool
	limit   int
	onLimit func()

	mu     sync.Mutex
	seen   map[string]bool
	order  []string // for forgetting the oldest ids
	shown  int
	dups   int
	status map[string]string // table -> last state shown
	notify chan struct{}
}

const rememberIDs = 100000

func newPrinter(w io.Writer, asJSON bool) *printer {
	return &printer{w: w, json: asJSON, seen: map[string]bool{}, status: map[string]string{}, notify: make(chan struct{}, 1)}
}

// Print handles one message from the broker.
func (p *printer) Print(m mqtt.Message) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if strings.HasSuffix(m.Topic, "/status") {
		p.printStatus(m)
		return
	}
	a, err := alerts.Parse(m.Payload)
	if err != nil {
		fmt.Fprintf(p.w, "?? %s: %v\n", m.Topic, err)
		return
	}
	if p.seen[a.ID] {
		p.dups++
		return
	}
	p.seen[a.ID] = true
	p.order = append(p.order, a.ID)
	if len(p.order) > rememberIDs {
		delete(p.seen, p.order[0])
		p.order = p.order[1:]
	}
	p.shown++
	if p.json {
		fmt.Fprintf(p.w, "%s\n", m.Payload)
	} else {
		fmt.Fprintln(p.w, formatAlert(a))
	}
	select {
	case p.notify <- struct{}{}:
	default:
	}
	if p.limit > 0 && p.shown >= p.limit && p.onLimit != nil {
		p.onLimit()
	}
}

func (p *printer) printStatus(m mqtt.Message) {
	var s alerts.Status
	if err := json.Unmarshal(m.Payload, &s); err != nil || s.Table == "" {
		return
	}
	key := s.Site + "/" + s.Table
	state := s.State
	if s.Reason != "" {
		state += " (" + s.Reason + ")"
	}
	if p.status[key] == state {
		return
	}
	p.status[key] = state
	if p.json {
		return
	}
	fmt.Fprintf(p.w, "%-8s %-6s %s · agent %s %s\n", "--", s.Table, state, s.Agent, s.AgentVersion)
}

// Shown returns whether the alert with this id has been printed.
func (p *printer) Shown(id string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.seen[id]
}

// Counts returns the alerts shown and the redeliveries skipped.
func (p *printer) Counts() (shown, duplicates int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.shown, p.dups
}

// formatAlert renders an alert on one line: the journal time, table, coup, severity, kind, the
// detail sentence (which states what was expected and what happened), then the references:
//
//	20:02:31 RE-01  coup 2    WARNING  wrong_payout    P3 on dozen:2: underpaid; ... [roulette.payout · AM 88-384 art. 8.2 (L533-L556) · dealer D-3101 · lines 20,23,26]
func formatAlert(a *alerts.Alert) string {
	clock := a.T
	if t, err := a.Time(); err == nil {
		clock = t.UTC().Format("15:04:05")
	}
	var refs []string
	refs = append(refs, a.Rule)
	if a.Article != "" {
		refs = append(refs, a.Article)
	}
	if a.Dealer != nil {
		refs = append(refs, "dealer "+*a.Dealer)
	}
	if len(a.Evidence.Lines) > 0 {
		ls := make([]string, len(a.Evidence.Lines))
		for i, l := range a.Evidence.Lines {
			ls[i] = fmt.Sprint(l)
		}
		refs = append(refs, "lines "+strings.Join(ls, ","))
	}
	if len(a.Evidence.Frames) > 0 {
		refs = append(refs, "frames "+strings.Join(a.Evidence.Frames, ","))
	}
	return fmt.Sprintf("%s %-6s coup %-4s %-8s %-15s %s [%s]", clock, a.Table, a.Coup, strings.ToUpper(a.Severity), a.Kind, a.Detail, strings.Join(refs, " · "))
}
