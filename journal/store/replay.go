package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/coupwatch/coupwatch/games"
	"github.com/coupwatch/coupwatch/journal"
)

// Selection says what to replay from the store: a table, and optionally one coup or the coups
// that started in a time range.
type Selection struct {
	Table string
	// Coup selects the coup(s) with this id.
	Coup string
	// From and To select the coups that started in [From, To]; a zero bound is open.
	From, To time.Time
}

// ErrNotFound is returned when the selection matches nothing in the store.
var ErrNotFound = errors.New("not in the journal store")

func (sel Selection) ranged() bool { return !sel.From.IsZero() || !sel.To.IsZero() }

// Replay runs the selected journal through the rule engines exactly as `coupwatch replay`
// runs a file, and calls emit for the records of the selected coups.
//
// The engines need the table's state (the game and its rules, the limits, the dealer, and
// for some rules the previous coups), so a selection is replayed from the table_open that
// governs it (with the dealer event before that), and only the selected coups' records are
// emitted. A coup_start without an id gets back the id the agent gave it, so coup numbers are
// those of the live agent. Stored lines keep their journal line numbers: evidence refers to
// the original journal.
func (s *Store) Replay(ctx context.Context, cat *games.Catalog, sel Selection, emit func(games.Record)) error {
	start, err := s.startSeq(ctx, sel)
	if err != nil {
		return err
	}
	var dealerSeq sql.NullInt64
	if err := s.db.QueryRowContext(ctx, `SELECT max(seq) FROM events WHERE tbl = ? AND type = 'dealer' AND seq < ?`, sel.Table, start).Scan(&dealerSeq); err != nil {
		return fmt.Errorf("journal store: %w", err)
	}
	f := newFilter(sel, emit)
	if sel.Coup != "" {
		var last sql.NullInt64
		if err := s.db.QueryRowContext(ctx, `SELECT max(seq) FROM events WHERE tbl = ? AND coup = ?`, sel.Table, sel.Coup).Scan(&last); err != nil {
			return fmt.Errorf("journal store: %w", err)
		}
		f.lastSeq = last
	}
	// The store has one connection: no other query may run while rows is open.
	rows, err := s.db.QueryContext(ctx, `SELECT e.seq, e.source, s.name, e.line, e.coup, e.json FROM events e JOIN sources s ON e.source = s.id
		WHERE e.tbl = ? AND (e.seq >= ? OR e.seq = ?) ORDER BY e.seq`, sel.Table, start, dealerSeq)
	if err != nil {
		return fmt.Errorf("journal store: %w", err)
	}
	defer rows.Close()

	runner := games.NewRunner(cat)
	feed := &rowFeed{rows: rows}
	var out []games.Record
	for !f.finished() {
		src, ok, err := feed.nextSource()
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		name := "store:" + sel.Table + ":" + src
		runner.SetFile(name)
		rd := journal.NewReader(feed, name)
		for !f.finished() {
			ev, err := rd.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				return err
			}
			r := feed.row(rd.Line())
			ev.Line = r.line
			if ev.Type == journal.TypeCoupStart && ev.Coup == "" && r.coup != "" {
				ev.Coup = r.coup
			}
			if out, err = runner.Apply(ev, out); err != nil {
				return err
			}
			f.seq = r.seq
			for _, rec := range out {
				f.record(rec)
			}
			clear(out)
			out = out[:0]
		}
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	if err := feed.err(); err != nil {
		return err
	}
	if !f.finished() {
		for _, rec := range runner.Close(out) {
			f.record(rec)
		}
	}
	if f.emitted == 0 && (sel.Coup != "" || sel.ranged()) {
		return fmt.Errorf("table %s: %s: %w", sel.Table, sel.describe(), ErrNotFound)
	}
	return nil
}

func (sel Selection) describe() string {
	if sel.Coup != "" {
		return "coup " + sel.Coup
	}
	from, to := "the beginning", "the end"
	if !sel.From.IsZero() {
		from = journal.FormatTime(sel.From)
	}
	if !sel.To.IsZero() {
		to = journal.FormatTime(sel.To)
	}
	return "no coup started between " + from + " and " + to
}

// startSeq returns the first event to replay: the table_open governing the selection.
func (s *Store) startSeq(ctx context.Context, sel Selection) (int64, error) {
	var first sql.NullInt64
	var err error
	switch {
	case sel.Coup != "":
		err = s.db.QueryRowContext(ctx, `SELECT min(seq) FROM events WHERE tbl = ? AND coup = ?`, sel.Table, sel.Coup).Scan(&first)
		if err == nil && !first.Valid {
			// Not tagged yet (the coup is still open at the agent): replay the whole table.
			err = s.db.QueryRowContext(ctx, `SELECT min(seq) FROM events WHERE tbl = ?`, sel.Table).Scan(&first)
		}
	case !sel.From.IsZero():
		err = s.db.QueryRowContext(ctx, `SELECT min(seq) FROM events WHERE tbl = ? AND t >= ?`, sel.Table, sel.From.UnixNano()).Scan(&first)
	default:
		err = s.db.QueryRowContext(ctx, `SELECT min(seq) FROM events WHERE tbl = ?`, sel.Table).Scan(&first)
	}
	if err != nil {
		return 0, fmt.Errorf("journal store: %w", err)
	}
	if !first.Valid {
		return 0, fmt.Errorf("table %s: %w", sel.Table, ErrNotFound)
	}
	var open sql.NullInt64
	if err := s.db.QueryRowContext(ctx, `SELECT max(seq) FROM events WHERE tbl = ? AND type = 'table_open' AND seq <= ?`, sel.Table, first.Int64).Scan(&open); err != nil {
		return 0, fmt.Errorf("journal store: %w", err)
	}
	if open.Valid {
		return open.Int64, nil
	}
	return first.Int64, nil
}

// filter passes on the records of the selected coups, in order.
type filter struct {
	sel     Selection
	emit    func(games.Record)
	pending map[string][]games.Record // records of coups not summarised yet (ranged selections)
	done    bool
	emitted int
	// seq is the stored event being replayed; lastSeq the last event of the selected coup.
	seq     int64
	lastSeq sql.NullInt64
}

func newFilter(sel Selection, emit func(games.Record)) *filter {
	return &filter{sel: sel, emit: emit, pending: map[string][]games.Record{}}
}

func (f *filter) finished() bool { return f.done }

func (f *filter) out(r games.Record) {
	f.emit(r)
	f.emitted++
}

func (f *filter) record(r games.Record) {
	if f.done {
		return
	}
	_, coup := r.CoupKey()
	switch {
	case f.sel.Coup != "":
		if coup != f.sel.Coup {
			return
		}
		f.out(r)
		if _, end := r.(*games.CoupSummary); end && f.lastSeq.Valid && f.seq >= f.lastSeq.Int64 {
			f.done = true // no later event belongs to a coup with this id
		}
	case f.sel.ranged():
		if coup == "" {
			if d, ok := r.(*games.Discrepancy); ok && f.inRange(d.T) {
				f.out(r)
			}
			return
		}
		f.pending[coup] = append(f.pending[coup], r)
		if c, ok := r.(*games.CoupSummary); ok {
			recs := f.pending[coup]
			delete(f.pending, coup)
			if !f.sel.To.IsZero() && c.Start.After(f.sel.To) {
				f.done = true // coups start in order: none after this one is selected
				return
			}
			if f.inRange(c.Start) {
				for _, r := range recs {
					f.out(r)
				}
			}
		}
	default:
		f.out(r)
	}
}

func (f *filter) inRange(t time.Time) bool {
	return (f.sel.From.IsZero() || !t.Before(f.sel.From)) && (f.sel.To.IsZero() || !t.After(f.sel.To))
}

// storedRow is one stored event.
type storedRow struct {
	seq    int64
	source int64
	name   string
	line   int
	coup   string
	json   []byte
}

// rowFeed serves the stored lines of one source at a time as a journal (an io.Reader of
// JSON Lines) and remembers each line's original number and coup for the reader's lines.
type rowFeed struct {
	rows    *sql.Rows
	peeked  *storedRow
	cur     int64 // source being served
	buf     []byte
	fed     []storedRow // rows fed to the reader and not yet read back, in order
	fedBase int         // reader line number of fed[0]
	lineNo  int         // reader lines fed in this source
	scanErr error
	eof     bool
}

func (f *rowFeed) next() (*storedRow, bool) {
	if f.peeked != nil {
		r := f.peeked
		f.peeked = nil
		return r, true
	}
	if f.eof || f.scanErr != nil {
		return nil, false
	}
	if !f.rows.Next() {
		f.eof = true
		f.scanErr = f.rows.Err()
		return nil, false
	}
	var r storedRow
	var coup sql.NullString
	if err := f.rows.Scan(&r.seq, &r.source, &r.name, &r.line, &coup, &r.json); err != nil {
		f.scanErr = fmt.Errorf("journal store: %w", err)
		return nil, false
	}
	r.coup = coup.String
	return &r, true
}

// nextSource starts serving the next source's rows; ok is false at the end.
func (f *rowFeed) nextSource() (string, bool, error) {
	r, ok := f.next()
	if !ok {
		return "", false, f.scanErr
	}
	f.peeked = r
	f.cur = r.source
	f.fed = f.fed[:0]
	f.fedBase = 1
	f.lineNo = 0
	return r.name, true, nil
}

// Read implements io.Reader over the current source's rows.
func (f *rowFeed) Read(p []byte) (int, error) {
	for len(f.buf) == 0 {
		r, ok := f.next()
		if !ok {
			return 0, io.EOF
		}
		if r.source != f.cur {
			f.peeked = r
			return 0, io.EOF
		}
		f.fed = append(f.fed, *r)
		f.lineNo++
		f.buf = append(append(f.buf[:0], r.json...), '\n')
	}
	n := copy(p, f.buf)
	f.buf = f.buf[n:]
	return n, nil
}

// row returns the stored row behind the reader's line n (lines are read in order).
func (f *rowFeed) row(n int) storedRow {
	for f.fedBase < n && len(f.fed) > 0 {
		f.fed = f.fed[1:]
		f.fedBase++
	}
	if len(f.fed) == 0 || f.fedBase != n {
		return storedRow{line: n}
	}
	return f.fed[0]
}

func (f *rowFeed) err() error { return f.scanErr }
