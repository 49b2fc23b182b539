package games

import (
	"fmt"
	"runtime/debug"
	"strconv"

	"github.com/coupwatch/coupwatch/journal"
)

// Runner feeds journal events to one engine per table. It validates what only the games know
// (the game exists, the spot is possible at that game, the rules options are known) and
// returns a *journal.LineError for invalid input. The same Runner code runs in the live agent
// and in `coupwatch replay`, so both give the same verdicts.
type Runner struct {
	cat    *Catalog
	file   string
	tables map[string]*tableRun
	order  []string
	// last caches the most recent table: journals are usually one table.
	lastID string
	last   *tableRun
}

type tableRun struct {
	id     string
	game   *Game
	engine Engine
	dealer string
	coups  int
	open   *journal.Event // the table's last table_open
}

// NewRunner returns a runner over the games of cat.
func NewRunner(cat *Catalog) *Runner {
	return &Runner{cat: cat, tables: make(map[string]*tableRun)}
}

// SetFile names the journal being read, for error messages.
func (r *Runner) SetFile(name string) { r.file = name }

func (r *Runner) invalid(ev *journal.Event, format string, args ...any) error {
	return &journal.LineError{File: r.file, Line: ev.Line, Msg: fmt.Sprintf(format, args...)}
}

func (r *Runner) table(id string) *tableRun {
	if r.last != nil && r.lastID == id {
		return r.last
	}
	t := r.tables[id]
	if t == nil {
		t = &tableRun{id: id}
		r.tables[id] = t
		r.order = append(r.order, id)
	}
	r.lastID, r.last = id, t
	return t
}

// Game returns the game open at a table, if any.
func (r *Runner) Game(table string) (*Game, bool) {
	t := r.tables[table]
	if t == nil || t.game == nil {
		return nil, false
	}
	return t.game, true
}

// Apply feeds one event. Records are appended to out. An invalid event leaves the runner's
// state as it was before the event.
func (r *Runner) Apply(ev *journal.Event, out []Record) ([]Record, error) {
	t := r.table(ev.Table)
	switch ev.Type {
	case journal.TypeTableOpen:
		return r.open(t, ev, out)
	case journal.TypeNote:
		if t.engine == nil {
			return out, nil
		}
	case journal.TypeDealer:
		t.dealer = ev.Dealer
		if t.engine == nil {
			return out, nil
		}
	default:
		if t.engine == nil {
			return out, r.invalid(ev, "%s event for table %s before any table_open for it", ev.Type, ev.Table)
		}
		if err := t.game.Check(ev); err != nil {
			return out, r.invalid(ev, "%s: %v", t.game.ID, err)
		}
	}
	return r.apply(t, ev, out)
}

// EngineError is an engine that failed (a panic) on an event: a bug in coupwatch, not in the
// journal. The runner survives it, so a live agent keeps watching its other tables and the
// next coups of this one; the table's open coup may be judged on partial state.
type EngineError struct {
	File  string
	Line  int
	Table string
	Game  string
	Panic any
	Stack []byte
}

func (e *EngineError) Error() string {
	return fmt.Sprintf("%s:%d: the %s engine of table %s failed on this event: %v", e.File, e.Line, e.Game, e.Table, e.Panic)
}

func (r *Runner) apply(t *tableRun, ev *journal.Event, out []Record) (res []Record, err error) {
	n := len(out)
	defer func() {
		if p := recover(); p != nil {
			res = out[:n]
			err = &EngineError{File: r.file, Line: ev.Line, Table: t.id, Game: t.game.ID, Panic: p, Stack: debug.Stack()}
		}
	}()
	return t.engine.Apply(ev, out), nil
}

func (r *Runner) open(t *tableRun, ev *journal.Event, out []Record) ([]Record, error) {
	g, ok := r.cat.Game(ev.Game)
	if !ok {
		return out, r.invalid(ev, "unknown game %q (known: %v)", ev.Game, r.cat.IDs())
	}
	opts, err := ParseOptions(g.ID, ev.Rules)
	if err != nil {
		return out, r.invalid(ev, "%v", err)
	}
	open := ev.Clone()
	seq := t.coups
	eng, err := g.New(Setup{
		Table: ev.Table, Game: g, Open: open, Prev: t.open, Dealer: t.dealer, Options: opts,
		NextCoup: func() string { seq++; t.coups = seq; return strconv.Itoa(seq) },
	})
	if err == nil {
		err = opts.Err()
	}
	if err != nil {
		return out, r.invalid(ev, "%s: %v", g.ID, err)
	}
	if t.engine != nil {
		out = t.engine.Close(out)
	}
	t.game, t.engine, t.open = g, eng, open
	return out, nil
}

// Close ends the open coup of every table (end of input or shutdown), in the order the
// tables first appeared.
func (r *Runner) Close(out []Record) []Record {
	for _, id := range r.order {
		if t := r.tables[id]; t.engine != nil {
			out = t.engine.Close(out)
		}
	}
	return out
}
