package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/coupwatch/coupwatch/games"
	"github.com/coupwatch/coupwatch/games/catalog"
	"github.com/coupwatch/coupwatch/games/replay"
	"github.com/coupwatch/coupwatch/games/report"
	"github.com/coupwatch/coupwatch/journal"
)

// runReplay implements `coupwatch replay [--format jsonl|text] FILE...`: every journal is read
// and checked before anything is printed, so invalid input prints nothing and exits 2.
func runReplay(e *env, args []string) int {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	format := fs.String("format", "jsonl", "output format: jsonl (the journal spec's replay output) or text (an account of each coup for an investigator)")
	skip := fs.Bool("skip-unknown", false, "skip journal events of an unknown type instead of rejecting the journal")
	fs.Usage = func() {
		fmt.Fprintln(e.stderr, "usage: coupwatch replay [flags] FILE...   ('-' reads standard input)")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return exitInvalid
	}
	if *format != "jsonl" && *format != "json" && *format != "text" {
		fmt.Fprintf(e.stderr, "coupwatch replay: --format must be jsonl or text, got %q\n", *format)
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
	if err := replay.Run(cat, srcs, opts, emit); err != nil {
		fmt.Fprintf(e.stderr, "coupwatch replay: %v\n", err)
		if journal.IsInvalid(err) {
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
