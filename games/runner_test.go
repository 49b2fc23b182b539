package games_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/coupwatch/coupwatch/games"
	"github.com/coupwatch/coupwatch/journal"
)

// brokenEngine panics on results, like an engine with a bug.
type brokenEngine struct{}

func (brokenEngine) Apply(ev *journal.Event, out []games.Record) []games.Record {
	if ev.Type == journal.TypeResult {
		var evs []*journal.Event
		_ = evs[len(ev.Table)] // an index out of range: a runtime panic
	}
	return append(out, &games.CoupSummary{Table: ev.Table, Coup: ev.Type.String()})
}

func (brokenEngine) Close(out []games.Record) []games.Record { return out }

// TestEngineFailureIsContained: a panicking engine becomes an EngineError naming the line, the
// records of the failed event are dropped, and the runner goes on with the next events.
func TestEngineFailureIsContained(t *testing.T) {
	g := &games.Game{ID: "broken", Check: func(*journal.Event) error { return nil },
		New: func(games.Setup) (games.Engine, error) { return brokenEngine{}, nil }}
	cat, err := games.NewCatalog(g)
	if err != nil {
		t.Fatal(err)
	}
	r := games.NewRunner(cat)
	r.SetFile("j.jsonl")
	at := time.Date(2026, 11, 22, 21, 0, 0, 0, time.UTC)
	evs := []*journal.Event{
		{Line: 1, T: at, Table: "T", Type: journal.TypeTableOpen, Game: "broken"},
		{Line: 2, T: at, Table: "T", Type: journal.TypeCoupStart},
		{Line: 3, T: at, Table: "T", Type: journal.TypeResult, Value: "1"},
		{Line: 4, T: at, Table: "T", Type: journal.TypeCoupEnd},
	}
	var out []games.Record
	var failures []error
	for _, ev := range evs {
		out, err = r.Apply(ev, out)
		if err != nil {
			failures = append(failures, err)
		}
	}
	if len(failures) != 1 {
		t.Fatalf("failures %v", failures)
	}
	var ee *games.EngineError
	if !errors.As(failures[0], &ee) || ee.Line != 3 || ee.Table != "T" || len(ee.Stack) == 0 || journal.IsInvalid(failures[0]) {
		t.Errorf("error %#v", failures[0])
	}
	if !strings.Contains(failures[0].Error(), "j.jsonl:3: the broken engine of table T failed") {
		t.Errorf("message %q", failures[0])
	}
	if len(out) != 2 {
		t.Errorf("records %d, want the coup_start and coup_end ones", len(out))
	}
}
