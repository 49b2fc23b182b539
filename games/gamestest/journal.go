// Package gamestest is the test support shared by the game engine packages: a journal
// builder, a replay that collects the records by type, and golden-file comparisons.
//
// Only _test.go files import it. It keeps no state and registers no flags: a test package
// declares its own -update flag and passes its value in.
package gamestest

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// Table is the table_open that starts a journal, and how its lines are stamped.
type Table struct {
	ID    string    // the table of every line
	Start time.Time // the table_open is stamped a second after Start, each next line a second later
	Game  string
	// Limits and Rules are the table_open's limits and rules objects ("" for none); Open is any
	// other table_open fields, a JSON fragment ("" for none).
	Limits, Rules, Open string
}

// Journal builds a journal for one table line by line: each line is
// {"t":...,"table":...,<fragment>}, stamped a second after the previous one.
type Journal struct {
	table string
	t     time.Time
	b     strings.Builder
}

// New starts a journal with the table_open line:
// "type":"table_open","game":...,"schema":1, then limits, rules and the Open fields.
func (tb Table) New() *Journal {
	j := &Journal{table: tb.ID, t: tb.Start}
	open := fmt.Sprintf(`"type":"table_open","game":%q,"schema":1`, tb.Game)
	if tb.Limits != "" {
		open += `,"limits":` + tb.Limits
	}
	if tb.Rules != "" {
		open += `,"rules":` + tb.Rules
	}
	if tb.Open != "" {
		open += "," + tb.Open
	}
	return j.Line(open)
}

// Journal returns the whole journal: the table_open, then one line per event.
func (tb Table) Journal(events ...string) string { return tb.New().Lines(events...).String() }

// Line appends one line; frag is the event as a JSON fragment without t and table
// (`"type":"bet","spot":"red",...`).
func (j *Journal) Line(frag string) *Journal {
	j.t = j.t.Add(time.Second)
	fmt.Fprintf(&j.b, `{"t":%q,"table":%q,%s}`+"\n", j.t.Format(time.RFC3339Nano), j.table, frag)
	return j
}

// Lines appends one line per fragment.
func (j *Journal) Lines(frags ...string) *Journal {
	for _, f := range frags {
		j.Line(f)
	}
	return j
}

// String returns the journal written so far.
func (j *Journal) String() string { return j.b.String() }

// Fragment encodes fields as a JSON fragment for Line or Table.Open: the object without its
// braces. It panics on a value JSON cannot encode (a mistake in the test).
func Fragment(fields map[string]any) string {
	b, err := json.Marshal(fields)
	if err != nil {
		panic(fmt.Sprintf("gamestest.Fragment: %v", err))
	}
	return string(b[1 : len(b)-1])
}
