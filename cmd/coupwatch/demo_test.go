package main

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coupwatch/coupwatch/alerts"
	"github.com/coupwatch/coupwatch/alerts/broker"
	"github.com/coupwatch/coupwatch/alerts/mqtt"
	"github.com/coupwatch/coupwatch/alerts/outbox"
)

// envWith returns a test env whose getenv answers from vars.
func envWith(vars map[string]string) (*env, *strings.Builder, *strings.Builder) {
	e, _, _ := testEnv("")
	var out, errb strings.Builder
	e.stdout, e.stderr = &syncWriter{w: &out}, &syncWriter{w: &errb}
	e.getenv = func(k string) string { return vars[k] }
	return e, &out, &errb
}

// syncWriter serialises writes from the agent's goroutines.
type syncWriter struct {
	mu sync.Mutex
	w  *strings.Builder
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

func TestDemo(t *testing.T) {
	e, out, errb := envWith(nil)
	dir := filepath.Join(t.TempDir(), "state")
	if code := run([]string{"demo", "--speed", "max", "--dir", dir}, e); code != exitOK {
		t.Fatalf("demo exit %d\n%s\n%s", code, out, errb)
	}
	o := out.String()
	for _, want := range []string{
		"17 alerts from 49 coups at 5 tables: 17 delivered and shown, 0 missing",
		"CR-05  coup 6    WARNING  irregular_throw",
		"RE-01  coup 2    WARNING  wrong_payout",
		"WF-04  coup 8    CRITICAL late_bet",
		"BW-03  coup 5    WARNING  irregular_spin",
		"RE-01  online",
		"RE-01  offline (shutdown)",
		"coupwatch replay --format text --store " + filepath.Join(dir, "journal.db"),
	} {
		if !strings.Contains(o, want) {
			t.Errorf("demo output lacks %q:\n%s", want, o)
		}
	}
	if n := strings.Count(o, "coup "); n < 17 {
		t.Errorf("%d alert lines", n)
	}
	// The kept state replays: the investigator's view of a coup the demo flagged.
	e2, out2, errb2 := envWith(nil)
	if code := run([]string{"replay", "--store", filepath.Join(dir, "journal.db"), "--table", "RE-01", "--coup", "2", "--format", "text"}, e2); code != exitOK {
		t.Fatalf("replay --store exit %d: %s", code, errb2)
	}
	if !strings.Contains(out2.String(), "coup 2") || !strings.Contains(out2.String(), "roulette.payout") {
		t.Errorf("replay of the demo's coup 2:\n%s", out2)
	}
	// A second demo into the same directory refuses (it starts from a clean state).
	e3, _, errb3 := envWith(nil)
	if code := run([]string{"demo", "--dir", dir}, e3); code != exitInvalid || !strings.Contains(errb3.String(), "not empty") {
		t.Errorf("demo into a used directory: exit %d %s", code, errb3)
	}
}

// TestReplayStore runs the agent on a journal, then replays the store: the whole table gives
// the file's output, a coup or a time range exactly its part of it.
func TestReplayStore(t *testing.T) {
	journalPath := longJournal(t, "RE-12", 6)
	dir := t.TempDir()
	vars := map[string]string{"COUPWATCH_MQTT_EMBEDDED_LISTEN": "127.0.0.1:0"}
	e, out, errb := envWith(vars)
	if code := run([]string{"agent", "--journal", journalPath, "--outbox", dir}, e); code != exitOK {
		t.Fatalf("agent exit %d\n%s\n%s", code, out, errb)
	}
	db := filepath.Join(dir, "journal.db")
	replayOut := func(args ...string) (string, string, int) {
		e, out, errb := envWith(nil)
		code := run(append([]string{"replay"}, args...), e)
		return out.String(), errb.String(), code
	}
	file, _, code := replayOut(journalPath)
	if code != exitOK {
		t.Fatal("replay of the file failed")
	}
	coupLines := func(coups ...string) string {
		var b strings.Builder
		for _, l := range strings.SplitAfter(file, "\n") {
			for _, c := range coups {
				if strings.Contains(l, `"coup":"`+c+`"`) {
					b.WriteString(l)
				}
			}
		}
		return b.String()
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"whole table", []string{"--store", db, "--table", "RE-12"}, file},
		{"the only table by default", []string{"--store", db}, file},
		{"one coup", []string{"--store", db, "--table", "RE-12", "--coup", "4"}, coupLines("4")},
		{"time range", []string{"--store", db, "--table", "RE-12", "--from", "2026-12-06T21:01:00Z", "--to", "2026-12-06T21:01:30Z"}, coupLines("2", "3")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, stderr, code := replayOut(tt.args...)
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if got != tt.want {
				t.Errorf("replay %v:\n%s\nwant:\n%s", tt.args, got, tt.want)
			}
		})
	}
	errors := []struct {
		name string
		args []string
		want string
	}{
		{"unknown coup", []string{"--store", db, "--table", "RE-12", "--coup", "99"}, "coup 99: not in the journal store"},
		{"unknown table", []string{"--store", db, "--table", "XX-1"}, "table XX-1: not in the journal store"},
		{"bad time", []string{"--store", db, "--from", "yesterday"}, "--from \"yesterday\""},
		{"coup and range", []string{"--store", db, "--coup", "1", "--from", "2026-12-06T21:00:00Z"}, "exclude each other"},
		{"store and files", []string{"--store", db, journalPath}, "give no journal file"},
		{"store flags without store", []string{"--coup", "1", journalPath}, "go with --store"},
		{"missing store", []string{"--store", filepath.Join(dir, "nope.db")}, "nope.db"},
	}
	for _, tt := range errors {
		t.Run(tt.name, func(t *testing.T) {
			out, stderr, code := replayOut(tt.args...)
			if code != exitInvalid || out != "" || !strings.Contains(stderr, tt.want) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 and %q", code, out, stderr, tt.want)
			}
		})
	}
}

func TestAgentConfigErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte("site: a/b\nmqtt:\n  max_inflight: 0\ntables:\n  - id: T1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	unknown := filepath.Join(dir, "unknown.yaml")
	if err := os.WriteFile(unknown, []byte("mqtt:\n  ur1: tcp://x:1883\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	rt09 := filepath.Join(dir, "rt09.jsonl")
	if err := os.WriteFile(rt09, []byte(`{"t":"2026-11-22T21:00:00.000Z","table":"RT-09","type":"table_open","game":"roulette_european","schema":1}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	garbage := filepath.Join(dir, "garbage.jsonl")
	if err := os.WriteFile(garbage, []byte("not json\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	good := filepath.Join(dir, "good.yaml")
	if err := os.WriteFile(good, []byte("site: s1\nmqtt:\n  url: tcp://broker:1883\n  username: agent\ntables:\n  - id: T1\n    source: {journal: /tmp/t1.jsonl, follow: true}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		env  map[string]string
		code int
		want []string
		not  []string
	}{
		{"no source", []string{}, nil, exitInvalid, []string{"usage: coupwatch agent"}, nil},
		{"invalid values", []string{"--config", bad}, nil, exitInvalid, []string{bad + " is invalid", "site:", "mqtt.max_inflight:", "tables[0].source.journal:"}, nil},
		{"unknown key", []string{"--config", unknown}, nil, exitInvalid, []string{unknown, "unknown key mqtt.ur1"}, nil},
		{"bad env", []string{"--config", good}, map[string]string{"COUPWATCH_MQTT_ACK_TIMEOUT": "soon"}, exitInvalid, []string{"COUPWATCH_MQTT_ACK_TIMEOUT", "ack_timeout"}, nil},
		{"check redacts the password", []string{"--config", good, "--check"}, map[string]string{"COUPWATCH_MQTT_PASSWORD": "p4ssw0rd"}, exitOK, []string{`"password": "[redacted]"`, `"url": "tcp://broker:1883"`, `"keepalive": "30s"`}, []string{"p4ssw0rd"}},
		{"journal flags without journal", []string{"--config", good, "--speed", "1x"}, nil, exitInvalid, []string{"go with --journal"}, nil},
		{"missing journal", []string{"--journal", filepath.Join(dir, "none.jsonl")}, nil, exitInvalid, []string{"none.jsonl"}, nil},
		{"bad speed", []string{"--journal", good, "--speed", "fast"}, nil, exitInvalid, []string{"--speed"}, nil},
		{"paced and followed", []string{"--journal", rt09, "--speed", "1x", "--follow"}, nil, exitInvalid, []string{"give one or the other"}, nil},
		{"another table's journal", []string{"--journal", rt09, "--table", "RT-21"}, nil, exitInvalid, []string{"--table RT-21", "table RT-09's"}, nil},
		{"no valid line", []string{"--journal", garbage}, nil, exitInvalid, []string{garbage + ":1: invalid JSON", "give --table"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, out, errb := envWith(tt.env)
			code := run(append([]string{"agent"}, tt.args...), e)
			all := out.String() + errb.String()
			if code != tt.code {
				t.Fatalf("exit %d, want %d\n%s", code, tt.code, all)
			}
			for _, w := range tt.want {
				if !strings.Contains(all, w) {
					t.Errorf("output lacks %q:\n%s", w, all)
				}
			}
			for _, n := range tt.not {
				if strings.Contains(all, n) {
					t.Errorf("output shows %q:\n%s", n, all)
				}
			}
		})
	}
}

// TestAlertsUsage: filters that could never match are refused before connecting.
func TestAlertsUsage(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--kind", "wrong_payuot"}, `--kind "wrong_payuot" is not a discrepancy kind; want one of [wrong_payout late_bet`},
		{[]string{"--table", "RE/07"}, `--table "RE/07" is not a valid id`},
		{[]string{"--session"}, "--session needs --client-id"},
		{[]string{"extra"}, "usage: coupwatch alerts"},
	}
	for _, tt := range tests {
		e, out, errb := envWith(nil)
		if code := run(append([]string{"alerts", "--mqtt-url", "tcp://127.0.0.1:1"}, tt.args...), e); code != exitInvalid || !strings.Contains(errb.String(), tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", tt.args, code, errb.String(), exitInvalid, tt.want)
		}
		if out.Len() > 0 {
			t.Errorf("%v: printed %q", tt.args, out.String())
		}
	}
}

// TestAlertsFollow: the operator's subscriber prints one line per alert, each once, and the
// tables' status.
func TestAlertsFollow(t *testing.T) {
	b, err := broker.Start("127.0.0.1:0", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	e, out, errb := envWith(nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	e.ctx = ctx
	done := make(chan int, 1)
	go func() {
		done <- run([]string{"alerts", "--follow", "--count", "2", "--mqtt-url", b.URL(), "--table", "RE-07"}, e)
	}()
	// Publish the test journal's alerts, one of them twice, and one for another table.
	var msgs []outbox.Message
	for _, line := range strings.Split(strings.TrimSpace(string(must(os.ReadFile("../../alerts/testdata/roulette.alerts.jsonl")))), "\n")[:2] {
		a, err := alerts.Parse([]byte(line))
		if err != nil {
			t.Fatal(err)
		}
		msgs = append(msgs, outbox.Message{Key: a.ID, Topic: a.Topic(), Payload: []byte(line)})
	}
	other := strings.Replace(string(msgs[1].Payload), `"table":"RE-07"`, `"table":"RE-08"`, 1)
	ob, err := outbox.Open(t.TempDir(), outbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ob.Close()
	status := alerts.NewStatus("casino-1", "RE-07", alerts.Online, "", "edge-1", "v1", time.Now())
	pub := mqtt.NewPublisher(mqtt.PublisherOptions{
		Conn:   mqtt.Conn{URL: b.URL(), ClientID: "test-pub"},
		Status: mqtt.Status{Topic: alerts.StatusTopic("casino-1", "RE-07"), Online: status.Marshal, Will: status.Marshal()},
	})
	pctx, pcancel := context.WithCancel(context.Background())
	pdone := make(chan struct{})
	go func() { defer close(pdone); _ = pub.Run(pctx, ob) }()
	defer func() { pcancel(); <-pdone }()
	// The subscriber's readiness is not visible from here: publish the batch again until it
	// stops (redeliveries of an id are shown once anyway).
	go func() {
		for pctx.Err() == nil {
			if err := ob.Append(msgs[0], msgs[0], outbox.Message{Key: "x", Topic: alerts.AlertTopic("casino-1", "RE-08", "late_bet"), Payload: []byte(other)}, msgs[1]); err != nil {
				return
			}
			time.Sleep(200 * time.Millisecond)
		}
	}()
	select {
	case code := <-done:
		if code != exitOK {
			t.Fatalf("alerts exit %d: %s", code, errb)
		}
	case <-ctx.Done():
		t.Fatalf("alerts did not stop after 2 alerts:\n%s\n%s", out, errb)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	var alertLines []string
	for _, l := range lines {
		if !strings.HasPrefix(l, "--") {
			alertLines = append(alertLines, l)
		}
	}
	want := []string{
		"19:00:26 RE-07  coup 1    CRITICAL late_bet        P1 raised the stake on straight:23 from 5.00 to 10.00 after bets were closed [roulette.late_bet · AM 88-384 art. 8.3 (L560, L566) · dealer D-0377 · lines 7,8 · frames cam1:000915]",
		"19:00:37 RE-07  coup 1    WARNING  wrong_payout    P1 on straight:23: underpaid; due a win of 350.00, the journal shows a win of 300.00 (23 wins on straight:23, paid 35 to 1) [roulette.payout · AM 88-384 art. 8.2 (L533-L556) · dealer D-0377 · lines 4,8,9,11 · frames cam1:000915,cam1:001120,cam1:001310]",
	}
	sort.Strings(alertLines)
	if strings.Join(alertLines, "\n") != strings.Join(want, "\n") {
		t.Errorf("alert lines:\n%s\nwant:\n%s", strings.Join(alertLines, "\n"), strings.Join(want, "\n"))
	}
	if !strings.Contains(out.String(), "--       RE-07  online · agent edge-1 v1") {
		t.Errorf("no status line:\n%s", out)
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}
