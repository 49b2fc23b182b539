// Package store is the journal store: every journal event and every finding the agent saw,
// kept in SQLite (pure Go, modernc.org/sqlite) and indexed by table, coup and time, so an
// investigator can replay any coup (`coupwatch replay --store`) and statistics can be
// computed later. Events are stored as their canonical journal line (journal.Marshal) with the
// line number they had in their journal, so a stored journal replays to the same output as the
// file it came from.
//
// The store also keeps, per table, the agent's checkpoint: the last journal line whose events
// and findings are durable. It is written in the same transaction as the events, which is what
// lets an agent resume exactly where it stopped.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"time"

	_ "modernc.org/sqlite" // the "sqlite" database/sql driver, pure Go
)

// schema is the store's DDL. Times are Unix nanoseconds (UTC).
const schema = `
CREATE TABLE IF NOT EXISTS sources (
	id      INTEGER PRIMARY KEY,
	tbl     TEXT NOT NULL,
	name    TEXT NOT NULL,
	UNIQUE (tbl, name)
);
CREATE TABLE IF NOT EXISTS events (
	seq     INTEGER PRIMARY KEY,
	tbl     TEXT NOT NULL,
	source  INTEGER NOT NULL REFERENCES sources(id),
	line    INTEGER NOT NULL,
	t       INTEGER NOT NULL,
	type    TEXT NOT NULL,
	coup    TEXT,
	json    TEXT NOT NULL,
	UNIQUE (source, line)
);
CREATE INDEX IF NOT EXISTS events_tbl_t ON events (tbl, t);
CREATE INDEX IF NOT EXISTS events_tbl_coup ON events (tbl, coup);
CREATE INDEX IF NOT EXISTS events_tbl_type ON events (tbl, type, seq);
CREATE TABLE IF NOT EXISTS findings (
	id       TEXT PRIMARY KEY,
	tbl      TEXT NOT NULL,
	coup     TEXT NOT NULL,
	t        INTEGER NOT NULL,
	kind     TEXT NOT NULL,
	rule     TEXT NOT NULL,
	severity TEXT NOT NULL,
	json     TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS findings_tbl_t ON findings (tbl, t);
CREATE INDEX IF NOT EXISTS findings_tbl_coup ON findings (tbl, coup);
CREATE TABLE IF NOT EXISTS coups (
	tbl           TEXT NOT NULL,
	source        INTEGER NOT NULL REFERENCES sources(id),
	first_line    INTEGER NOT NULL,
	last_line     INTEGER NOT NULL,
	coup          TEXT NOT NULL,
	game          TEXT NOT NULL,
	dealer        TEXT,
	result        TEXT,
	start         INTEGER NOT NULL,
	end           INTEGER NOT NULL,
	discrepancies INTEGER NOT NULL,
	PRIMARY KEY (source, first_line)
);
CREATE INDEX IF NOT EXISTS coups_tbl_start ON coups (tbl, start);
CREATE INDEX IF NOT EXISTS coups_tbl_coup ON coups (tbl, coup);
CREATE TABLE IF NOT EXISTS checkpoints (
	tbl    TEXT PRIMARY KEY,
	source TEXT NOT NULL,
	line   INTEGER NOT NULL,
	done   INTEGER NOT NULL
);
`

// Store is an open journal store. It is safe for concurrent use.
type Store struct {
	db   *sql.DB
	path string

	mu      sync.Mutex
	sources map[[2]string]int64
}

// Options tune Open.
type Options struct {
	// ReadOnly opens an existing store for reading (replay): it is never created or changed.
	ReadOnly bool
}

// Open opens the store at path, creating it (and its directory) unless opts.ReadOnly.
func Open(path string, opts Options) (*Store, error) {
	if opts.ReadOnly {
		if _, err := os.Stat(path); err != nil {
			return nil, fmt.Errorf("journal store: %w", err)
		}
	} else if err := os.MkdirAll(filepath.Dir(path), 0o750); err != nil {
		return nil, fmt.Errorf("journal store: %w", err)
	}
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(10000)")
	q.Add("_pragma", "foreign_keys(1)")
	if opts.ReadOnly {
		q.Add("mode", "ro")
	} else {
		// WAL: readers (an investigator's replay) never block the agent. synchronous(NORMAL):
		// a process crash loses nothing; a power cut may lose the last transactions, and the
		// checkpoint with them, so the agent redoes them (alerts are in the fsynced outbox).
		q.Add("_pragma", "journal_mode(WAL)")
		q.Add("_pragma", "synchronous(NORMAL)")
		q.Add("_txlock", "immediate")
	}
	dsn := "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + q.Encode()
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("journal store %s: %w", path, err)
	}
	// One connection: SQLite has one writer anyway, and this keeps the pragmas on it.
	db.SetMaxOpenConns(1)
	s := &Store{db: db, path: path, sources: map[[2]string]int64{}}
	if !opts.ReadOnly {
		if _, err := db.Exec(schema); err != nil {
			db.Close()
			return nil, fmt.Errorf("journal store %s: creating the schema: %w", path, err)
		}
	} else if err := db.Ping(); err != nil {
		db.Close()
		return nil, fmt.Errorf("journal store %s: %w", path, err)
	}
	return s, nil
}

// Close closes the store.
func (s *Store) Close() error {
	if err := s.db.Close(); err != nil {
		return fmt.Errorf("journal store %s: %w", s.path, err)
	}
	return nil
}

// Path returns the store's file.
func (s *Store) Path() string { return s.path }

// Event is one journal event to store.
type Event struct {
	// Line is the event's line number in its journal.
	Line int
	T    time.Time
	Type string
	// JSON is the canonical journal line (journal.Marshal), without newline.
	JSON []byte
}

// Finding is one discrepancy to store, as its alert message.
type Finding struct {
	ID       string
	Coup     string
	T        time.Time
	Kind     string
	Rule     string
	Severity string
	// JSON is the alert message.
	JSON []byte
}

// Coup is the summary of a finished coup.
type Coup struct {
	Coup                string
	Game                string
	Dealer              string
	Result              string
	Start, End          time.Time
	FirstLine, LastLine int
	Discrepancies       int
}

// Checkpoint says how far a table's journal has been processed.
type Checkpoint struct {
	// Source names the journal (its path, or a camera pipeline's id).
	Source string
	// Line is the last line whose events and findings are stored.
	Line int
	// Done is set once the journal ended and its last coup was closed.
	Done bool
}

// Batch is what one pipeline step stores, in one transaction.
type Batch struct {
	Table    string
	Source   string
	Events   []Event
	Findings []Finding
	Coups    []Coup
	// Checkpoint is the line processed so far (Done when the journal ended).
	Line int
	Done bool
}

// Write stores a batch atomically: events (once each: a line already stored is skipped),
// findings (once per id), finished coups (their events are tagged with the coup id) and the
// checkpoint.
func (s *Store) Write(ctx context.Context, b *Batch) error {
	src, err := s.sourceID(ctx, b.Table, b.Source)
	if err != nil {
		return err
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("journal store: %w", err)
	}
	defer tx.Rollback()
	if len(b.Events) > 0 {
		st, err := tx.PrepareContext(ctx, `INSERT OR IGNORE INTO events (tbl, source, line, t, type, json) VALUES (?, ?, ?, ?, ?, ?)`)
		if err != nil {
			return fmt.Errorf("journal store: %w", err)
		}
		for _, e := range b.Events {
			if _, err := st.ExecContext(ctx, b.Table, src, e.Line, e.T.UnixNano(), e.Type, e.JSON); err != nil {
				st.Close()
				return fmt.Errorf("journal store: storing line %d of %s: %w", e.Line, b.Source, err)
			}
		}
		st.Close()
	}
	for _, f := range b.Findings {
		_, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO findings (id, tbl, coup, t, kind, rule, severity, json) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
			f.ID, b.Table, f.Coup, f.T.UnixNano(), f.Kind, f.Rule, f.Severity, f.JSON)
		if err != nil {
			return fmt.Errorf("journal store: storing finding %s: %w", f.ID, err)
		}
	}
	for _, c := range b.Coups {
		_, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO coups (tbl, source, first_line, last_line, coup, game, dealer, result, start, end, discrepancies)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			b.Table, src, c.FirstLine, c.LastLine, c.Coup, c.Game, nullable(c.Dealer), c.Result, c.Start.UnixNano(), c.End.UnixNano(), c.Discrepancies)
		if err != nil {
			return fmt.Errorf("journal store: storing coup %s: %w", c.Coup, err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE events SET coup = ? WHERE source = ? AND line BETWEEN ? AND ?`, c.Coup, src, c.FirstLine, c.LastLine); err != nil {
			return fmt.Errorf("journal store: tagging coup %s: %w", c.Coup, err)
		}
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO checkpoints (tbl, source, line, done) VALUES (?, ?, ?, ?)
		ON CONFLICT (tbl) DO UPDATE SET source = excluded.source, line = excluded.line, done = excluded.done`,
		b.Table, b.Source, b.Line, b.Done)
	if err != nil {
		return fmt.Errorf("journal store: checkpoint: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("journal store: %w", err)
	}
	return nil
}

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func (s *Store) sourceID(ctx context.Context, table, name string) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	key := [2]string{table, name}
	if id, ok := s.sources[key]; ok {
		return id, nil
	}
	if _, err := s.db.ExecContext(ctx, `INSERT OR IGNORE INTO sources (tbl, name) VALUES (?, ?)`, table, name); err != nil {
		return 0, fmt.Errorf("journal store: %w", err)
	}
	var id int64
	if err := s.db.QueryRowContext(ctx, `SELECT id FROM sources WHERE tbl = ? AND name = ?`, table, name).Scan(&id); err != nil {
		return 0, fmt.Errorf("journal store: %w", err)
	}
	s.sources[key] = id
	return id, nil
}

// Checkpoint returns a table's checkpoint; ok is false when the table was never seen.
func (s *Store) Checkpoint(ctx context.Context, table string) (cp Checkpoint, ok bool, err error) {
	err = s.db.QueryRowContext(ctx, `SELECT source, line, done FROM checkpoints WHERE tbl = ?`, table).Scan(&cp.Source, &cp.Line, &cp.Done)
	if errors.Is(err, sql.ErrNoRows) {
		return Checkpoint{}, false, nil
	}
	if err != nil {
		return Checkpoint{}, false, fmt.Errorf("journal store: %w", err)
	}
	return cp, true, nil
}

// StoredLine returns the canonical line stored for a source's line number.
func (s *Store) StoredLine(ctx context.Context, table, source string, line int) ([]byte, bool, error) {
	var b []byte
	err := s.db.QueryRowContext(ctx, `SELECT e.json FROM events e JOIN sources s ON e.source = s.id WHERE s.tbl = ? AND s.name = ? AND e.line = ?`, table, source, line).Scan(&b)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("journal store: %w", err)
	}
	return b, true, nil
}

// Tables returns the tables the store knows, sorted.
func (s *Store) Tables(ctx context.Context) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT DISTINCT tbl FROM sources ORDER BY tbl`)
	if err != nil {
		return nil, fmt.Errorf("journal store: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var t string
		if err := rows.Scan(&t); err != nil {
			return nil, fmt.Errorf("journal store: %w", err)
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// Counts returns how many events, findings and coups the store holds for a table ("" = all).
func (s *Store) Counts(ctx context.Context, table string) (events, findings, coups int, err error) {
	for _, q := range []struct {
		sql string
		n   *int
	}{
		{`SELECT count(*) FROM events WHERE ? = '' OR tbl = ?`, &events},
		{`SELECT count(*) FROM findings WHERE ? = '' OR tbl = ?`, &findings},
		{`SELECT count(*) FROM coups WHERE ? = '' OR tbl = ?`, &coups},
	} {
		if err := s.db.QueryRowContext(ctx, q.sql, table, table).Scan(q.n); err != nil {
			return 0, 0, 0, fmt.Errorf("journal store: %w", err)
		}
	}
	return events, findings, coups, nil
}

// Prune deletes what is older than before: coups that ended and findings raised before it,
// and events before it, except what the rest still needs to replay (the latest table_open
// before the cut and the dealer event before that). It returns the number of events deleted.
func (s *Store) Prune(ctx context.Context, before time.Time) (int64, error) {
	tables, err := s.Tables(ctx)
	if err != nil {
		return 0, err
	}
	cut := before.UnixNano()
	var deleted int64
	for _, tbl := range tables {
		tx, err := s.db.BeginTx(ctx, nil)
		if err != nil {
			return deleted, fmt.Errorf("journal store: %w", err)
		}
		var keep sql.NullInt64
		if err := tx.QueryRowContext(ctx, `SELECT max(seq) FROM events WHERE tbl = ? AND type = 'table_open' AND t < ?`, tbl, cut).Scan(&keep); err != nil {
			tx.Rollback()
			return deleted, fmt.Errorf("journal store: %w", err)
		}
		if keep.Valid {
			var dealer sql.NullInt64
			if err := tx.QueryRowContext(ctx, `SELECT max(seq) FROM events WHERE tbl = ? AND type = 'dealer' AND seq < ?`, tbl, keep.Int64).Scan(&dealer); err != nil {
				tx.Rollback()
				return deleted, fmt.Errorf("journal store: %w", err)
			}
			res, err := tx.ExecContext(ctx, `DELETE FROM events WHERE tbl = ? AND seq < ? AND seq IS NOT ?`, tbl, keep.Int64, dealer)
			if err != nil {
				tx.Rollback()
				return deleted, fmt.Errorf("journal store: %w", err)
			}
			n, _ := res.RowsAffected()
			deleted += n
		}
		for _, q := range []string{`DELETE FROM findings WHERE tbl = ? AND t < ?`, `DELETE FROM coups WHERE tbl = ? AND end < ?`} {
			if _, err := tx.ExecContext(ctx, q, tbl, cut); err != nil {
				tx.Rollback()
				return deleted, fmt.Errorf("journal store: %w", err)
			}
		}
		if err := tx.Commit(); err != nil {
			return deleted, fmt.Errorf("journal store: %w", err)
		}
	}
	return deleted, nil
}
