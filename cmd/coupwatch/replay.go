package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/coupwatch/coupwatch/games"
	"github.com/coupwatch/coupwatch/games/catalog"
	"github.com/coupwatch/coupwatch/games/replay"
	"github.com/coupwatch/coupwatch/games/report"
	"github.com/coupwatch/coupwatch/journal"
	"github.com/coupwatch/coupwatch/journal/store"
)

// runReplay implements `coupwatch replay [--format jsonl|text] FILE...`: every journal is read
// and checked before anything is printed, so invalid input prints nothing and exits 2. With
// --store it replays from the agent's journal store instead of files (see replayStore).
func runReplay(e *env, args []string) int {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	format := fs.String("format", "jsonl", "output format: jsonl (the journal spec's replay output) or text (an account of each coup for an investigator)")
	skip := fs.Bool("skip-unknown", false, "skip journal events of an unknown type instead of rejecting the journal")
	var sf storeFlags
	fs.StringVar(&sf.path, "store", "", "replay from the agent's journal store (SQLite file) instead of journal files")
	fs.StringVar(&sf.table, "table", "", "with --store: the table to replay (may be left out when the store holds one table)")
	fs.StringVar(&sf.coup, "coup", "", "with --store: replay only this coup")
	fs.StringVar(&sf.from, "from", "", "with --store: replay the coups that started at or after this time (RFC 3339)")
	fs.StringVar(&sf.to, "to", "", "with --store: replay the coups that started at or before this time (RFC 3339)")
	fs.Usage = func() {
		fmt.Fprintln(e.stderr, "usage: coupwatch replay [flags] FILE...   ('-' reads standard input)")
		fmt.Fprintln(e.stderr, "       coupwatch replay [flags] --store DB [--table T] [--coup C | --from TIME --to TIME]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return exitInvalid
	}
	if *format != "jsonl" && *format != "json" && *format != "text" {
		fmt.Fprintf(e.stderr, "coupwatch replay: --format must be jsonl or text, got %q\n", *format)
		return exitInvalid
	}
	if sf.path != "" {
		if fs.NArg() > 0 {
			fmt.Fprintln(e.stderr, "coupwatch replay: --store replays from the store; give no journal file")
			return exitInvalid
		}
		return replayStore(e, sf, *format)
	}
	if sf.table != "" || sf.coup != "" || sf.from != "" || sf.to != "" {
		fmt.Fprintln(e.stderr, "coupwatch replay: --table, --coup, --from and --to go with --store")
		return exitInvalid
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return exitInvalid
	}
	cat, err := catalog.New()
	if err != nil {
		fmt.Fprintf(e.stderr, "coupwatch replay: %v\n", err)
		return exitFailure
	}
	var srcs []replay.Source
	for _, name := range fs.Args() {
		if name == "-" {
			srcs = append(srcs, replay.Source{Name: "<stdin>", R: e.stdin})
			continue
		}
		f, err := os.Open(name)
		if err != nil {
			fmt.Fprintf(e.stderr, "coupwatch replay: %v\n", err)
			return exitInvalid
		}
		defer f.Close()
		srcs = append(srcs, replay.Source{Name: name, R: f})
	}
	return replayTo(e, cat, srcs, replay.Options{SkipUnknownTypes: *skip}, *format)
}

// replayTo runs the sources and prints the records only once every line has been read.
func replayTo(e *env, cat *games.Catalog, srcs []replay.Source, opts replay.Options, format string) int {
	return printRecords(e, format, func(emit func(games.Record)) error {
		return replay.Run(cat, srcs, opts, emit)
	})
}

// printRecords runs a replay and prints its records only once it has succeeded.
func printRecords(e *env, format string, run func(emit func(games.Record)) error) int {
	var buf bytes.Buffer
	var emit func(games.Record)
	var text *report.Text
	if format == "text" {
		text = report.NewText(&buf)
		emit = text.Record
	} else {
		line := make([]byte, 0, 512)
		emit = func(r games.Record) {
			line = r.AppendJSON(line[:0])
			line = append(line, '\n')
			buf.Write(line)
		}
	}
	if err := run(emit); err != nil {
		fmt.Fprintf(e.stderr, "coupwatch replay: %v\n", err)
		if journal.IsInvalid(err) || errors.Is(err, store.ErrNotFound) {
			return exitInvalid
		}
		return exitFailure
	}
	if text != nil {
		if err := text.Close(); err != nil {
			fmt.Fprintf(e.stderr, "coupwatch replay: %v\n", err)
			return exitFailure
		}
	}
	w := bufio.NewWriter(e.stdout)
	if _, err := io.Copy(w, &buf); err != nil {
		fmt.Fprintf(e.stderr, "coupwatch replay: writing output: %v\n", err)
		return exitFailure
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintf(e.stderr, "coupwatch replay: writing output: %v\n", err)
		return exitFailure
	}
	return exitOK
}

// storeFlags select what `replay --store` replays.
type storeFlags struct {
	path, table, coup, from, to string
}

// replayStore replays a table's coups from the agent's journal store: the whole table, one
// coup (--coup) or the coups that started in a time range (--from/--to), with the verdicts the
// live agent gave (see store.Replay).
func replayStore(e *env, sf storeFlags, format string) int {
	sel := store.Selection{Table: sf.table, Coup: sf.coup}
	for _, b := range []struct {
		flag, v string
		t       *time.Time
	}{{"--from", sf.from, &sel.From}, {"--to", sf.to, &sel.To}} {
		if b.v == "" {
			continue
		}
		t, err := time.Parse(time.RFC3339Nano, b.v)
		if err != nil {
			fmt.Fprintf(e.stderr, "coupwatch replay: %s %q: want an RFC 3339 time such as 2026-11-22T21:00:00Z\n", b.flag, b.v)
			return exitInvalid
		}
		*b.t = t
	}
	if sel.Coup != "" && (!sel.From.IsZero() || !sel.To.IsZero()) {
		fmt.Fprintln(e.stderr, "coupwatch replay: --coup and --from/--to exclude each other")
		return exitInvalid
	}
	if !sel.From.IsZero() && !sel.To.IsZero() && sel.To.Before(sel.From) {
		fmt.Fprintln(e.stderr, "coupwatch replay: --to is before --from")
		return exitInvalid
	}
	st, err := store.Open(sf.path, store.Options{ReadOnly: true})
	if err != nil {
		fmt.Fprintf(e.stderr, "coupwatch replay: %v\n", err)
		return exitInvalid
	}
	defer st.Close()
	ctx := e.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	if sel.Table == "" {
		tables, err := st.Tables(ctx)
		if err != nil {
			fmt.Fprintf(e.stderr, "coupwatch replay: %v\n", err)
			return exitFailure
		}
		if len(tables) == 0 {
			fmt.Fprintf(e.stderr, "coupwatch replay: %s holds no journal\n", sf.path)
			return exitInvalid
		}
		if len(tables) != 1 {
			fmt.Fprintf(e.stderr, "coupwatch replay: --table is required: the store holds tables %s\n", strings.Join(tables, ", "))
			return exitInvalid
		}
		sel.Table = tables[0]
	}
	cat, err := catalog.New()
	if err != nil {
		fmt.Fprintf(e.stderr, "coupwatch replay: %v\n", err)
		return exitFailure
	}
	return printRecords(e, format, func(emit func(games.Record)) error {
		return st.Replay(ctx, cat, sel, emit)
	})
}
