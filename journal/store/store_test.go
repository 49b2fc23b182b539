package store_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coupwatch/coupwatch/games"
	"github.com/coupwatch/coupwatch/games/catalog"
	"github.com/coupwatch/coupwatch/games/replay"
	"github.com/coupwatch/coupwatch/journal"
	"github.com/coupwatch/coupwatch/journal/store"
)

const journalFile = "testdata/two_sessions.jsonl"

func catalogT(t testing.TB) *games.Catalog {
	t.Helper()
	cat, err := catalog.New()
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

// ingest stores a journal the way the agent does: each event in canonical form with its line,
// finished coups tagged, the checkpoint advanced, one transaction per event.
func ingest(t testing.TB, st *store.Store, path string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	runner := games.NewRunner(catalogT(t))
	rd := journal.NewReader(f, path)
	ctx := context.Background()
	var out []games.Record
	table := ""
	write := func(b *store.Batch) {
		for _, r := range out {
			switch r := r.(type) {
			case *games.CoupSummary:
				b.Coups = append(b.Coups, store.Coup{Coup: r.Coup, Game: r.Game, Dealer: r.Dealer, Result: r.Result,
					Start: r.Start, End: r.End, FirstLine: r.FirstLine, LastLine: r.LastLine, Discrepancies: r.Discrepancies})
			case *games.Discrepancy:
				b.Findings = append(b.Findings, store.Finding{ID: r.Rule + "@" + r.Coup + "@" + journal.FormatTime(r.T) + r.Spot, Coup: r.Coup, T: r.T,
					Kind: string(r.Kind), Rule: r.Rule, Severity: string(r.Severity), JSON: r.AppendJSON(nil)})
			}
		}
		out = out[:0]
		if err := st.Write(ctx, b); err != nil {
			t.Fatal(err)
		}
	}
	for {
		ev, err := rd.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		table = ev.Table
		if out, err = runner.Apply(ev, out); err != nil {
			t.Fatal(err)
		}
		line, err := journal.Marshal(ev)
		if err != nil {
			t.Fatal(err)
		}
		write(&store.Batch{Table: ev.Table, Source: path, Line: ev.Line,
			Events: []store.Event{{Line: ev.Line, T: ev.T, Type: ev.Type.String(), JSON: line}}})
	}
	out = runner.Close(out)
	write(&store.Batch{Table: table, Source: path, Line: rd.Line(), Done: true})
}

func replayFile(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []string
	err = replay.Run(catalogT(t), []replay.Source{{Name: path, R: f}}, replay.Options{}, func(r games.Record) {
		lines = append(lines, string(r.AppendJSON(nil)))
	})
	if err != nil {
		t.Fatal(err)
	}
	return lines
}

func replayStore(t *testing.T, st *store.Store, sel store.Selection) ([]string, error) {
	t.Helper()
	var lines []string
	err := st.Replay(context.Background(), catalogT(t), sel, func(r games.Record) {
		lines = append(lines, string(r.AppendJSON(nil)))
	})
	return lines, err
}

func openStore(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "db", "journal.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// coupLines returns the lines of the file replay that belong to the given coups.
func coupLines(all []string, coups ...string) []string {
	var out []string
	for _, l := range all {
		for _, c := range coups {
			if strings.Contains(l, `"coup":"`+c+`"`) {
				out = append(out, l)
			}
		}
	}
	return out
}

func ts(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

// TestReplayMatchesFile is the store's contract: a stored journal replays to the same output
// as the file, and any coup or time range replays to exactly that part of it.
func TestReplayMatchesFile(t *testing.T) {
	st := openStore(t)
	ingest(t, st, journalFile)
	want := replayFile(t, journalFile)
	tests := []struct {
		name string
		sel  store.Selection
		want []string
	}{
		{"whole table", store.Selection{Table: "RE-09"}, want},
		{"coup 1 (first session)", store.Selection{Table: "RE-09", Coup: "1"}, coupLines(want, "1")},
		// Coup 4 is in the second session: replayed from its own table_open, it keeps its number
		// and the rotor-alternation finding, which depends on coup 3.
		{"coup 4 (second session, depends on coup 3)", store.Selection{Table: "RE-09", Coup: "4"}, coupLines(want, "4")},
		{"range covering coups 2-4", store.Selection{Table: "RE-09", From: ts("2026-12-02T10:02:00Z"), To: ts("2026-12-02T10:05:00Z")}, coupLines(want, "2", "3", "4")},
		{"open-ended range", store.Selection{Table: "RE-09", From: ts("2026-12-02T10:05:30Z")}, coupLines(want, "5")},
		{"range up to", store.Selection{Table: "RE-09", To: ts("2026-12-02T10:01:59Z")}, coupLines(want, "1")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := replayStore(t, st, tt.sel)
			if err != nil {
				t.Fatal(err)
			}
			if len(tt.want) == 0 {
				t.Fatal("test expects nothing")
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("store replay differs from the file replay\n got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

func TestReplayNotFound(t *testing.T) {
	st := openStore(t)
	ingest(t, st, journalFile)
	for _, sel := range []store.Selection{
		{Table: "NOPE"},
		{Table: "RE-09", Coup: "99"},
		{Table: "RE-09", From: ts("2027-01-01T00:00:00Z")},
	} {
		if _, err := replayStore(t, st, sel); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("%+v: error %v, want ErrNotFound", sel, err)
		}
	}
}

func TestWriteIsIdempotentAndCheckpoints(t *testing.T) {
	st := openStore(t)
	ingest(t, st, journalFile)
	// The agent may redo a step after a crash: storing the same lines again changes nothing.
	ingest(t, st, journalFile)
	ctx := context.Background()
	events, findings, coups, err := st.Counts(ctx, "RE-09")
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Count(must(os.ReadFile(journalFile)), []byte("\n"))
	if events != lines || coups != 5 || findings != 6 {
		t.Errorf("counts: %d events (want %d), %d findings (want 6), %d coups (want 5)", events, lines, findings, coups)
	}
	cp, ok, err := st.Checkpoint(ctx, "RE-09")
	if err != nil || !ok || cp.Line != lines || !cp.Done || cp.Source != journalFile {
		t.Errorf("checkpoint %+v %v %v", cp, ok, err)
	}
	if _, ok, _ := st.Checkpoint(ctx, "NOPE"); ok {
		t.Error("checkpoint for an unknown table")
	}
	got, ok, err := st.StoredLine(ctx, "RE-09", journalFile, 3)
	if err != nil || !ok || !strings.Contains(string(got), `"type":"coup_start"`) {
		t.Errorf("StoredLine 3 = %s %v %v", got, ok, err)
	}
	tables, err := st.Tables(ctx)
	if err != nil || len(tables) != 1 || tables[0] != "RE-09" {
		t.Errorf("Tables = %v %v", tables, err)
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

func TestPruneKeepsWhatReplayNeeds(t *testing.T) {
	st := openStore(t)
	ingest(t, st, journalFile)
	want := replayFile(t, journalFile)
	// Cut in the middle of the second session: the first session goes, the second session's
	// table_open and the dealer before it stay, so its coups still replay identically.
	n, err := st.Prune(context.Background(), ts("2026-12-02T10:04:45Z"))
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Error("nothing pruned")
	}
	got, err := replayStore(t, st, store.Selection{Table: "RE-09"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, "\n") != strings.Join(coupLines(want, "3", "4", "5"), "\n") {
		t.Errorf("after pruning:\n%s", strings.Join(got, "\n"))
	}
	if _, err := replayStore(t, st, store.Selection{Table: "RE-09", Coup: "1"}); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("pruned coup 1: %v", err)
	}
	_, findings, coups, _ := st.Counts(context.Background(), "")
	if coups != 2 || findings != 4 {
		t.Errorf("after pruning: %d coups (want 2: 4 and 5), %d findings (want 4)", coups, findings)
	}
}

func TestReadOnly(t *testing.T) {
	if _, err := store.Open(filepath.Join(t.TempDir(), "missing.db"), store.Options{ReadOnly: true}); err == nil {
		t.Error("read-only open of a missing store succeeded")
	}
	path := filepath.Join(t.TempDir(), "j.db")
	st, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ingest(t, st, journalFile)
	st.Close()
	ro, err := store.Open(path, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	got, err := replayStore(t, ro, store.Selection{Table: "RE-09", Coup: "2"})
	if err != nil || len(got) == 0 {
		t.Fatalf("read-only replay: %v %v", got, err)
	}
	if err := ro.Write(context.Background(), &store.Batch{Table: "X", Source: "s"}); err == nil {
		t.Error("a read-only store accepted a write")
	}
}

// BenchmarkWrite measures the store's write rate with batches as the agent makes them.
func BenchmarkWrite(b *testing.B) {
	st, err := store.Open(filepath.Join(b.TempDir(), "j.db"), store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	line := []byte(`{"t":"2026-12-02T10:01:02.000Z","table":"RE-09","type":"bet","src":"vision","spot":"red","player":"P1","amount":1000}`)
	ctx := context.Background()
	for _, batch := range []int{1, 64} {
		b.Run(map[int]string{1: "batch=1", 64: "batch=64"}[batch], func(b *testing.B) {
			n := 0
			for i := 0; i < b.N; i++ {
				bt := &store.Batch{Table: "RE-09", Source: b.Name()}
				for j := 0; j < batch; j++ {
					n++
					bt.Events = append(bt.Events, store.Event{Line: n, T: time.Unix(0, int64(n)), Type: "bet", JSON: line})
				}
				bt.Line = n
				if err := st.Write(ctx, bt); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "events/s")
		})
	}
}
