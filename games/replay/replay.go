// Package replay runs coup journals through the rule engines: the offline path of
// `coupwatch replay`, sharing the games.Runner with the live agent.
package replay

import (
	"errors"
	"fmt"
	"io"

	"github.com/coupwatch/coupwatch/games"
	"github.com/coupwatch/coupwatch/journal"
)

// Source is one journal to replay.
type Source struct {
	// Name is how errors refer to it (the file path).
	Name string
	R    io.Reader
}

// Options tune a replay.
type Options struct {
	// SkipUnknownTypes skips events of a type this version does not know.
	SkipUnknownTypes bool
}

// Run replays the sources in order through one runner (a table's state carries from one file to
// the next, as when a day is split over several files) and calls emit for every record. It
// stops at the first invalid line with a *journal.LineError. Callers that must not print
// half-way collect the records and print them only when Run returns nil.
func Run(cat *games.Catalog, srcs []Source, opts Options, emit func(games.Record)) error {
	runner := games.NewRunner(cat)
	var out []games.Record
	flush := func() {
		for _, r := range out {
			emit(r)
		}
		clear(out)
		out = out[:0]
	}
	for _, src := range srcs {
		runner.SetFile(src.Name)
		rd := journal.NewReader(src.R, src.Name)
		rd.SkipUnknownTypes(opts.SkipUnknownTypes)
		for {
			ev, err := rd.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				return err
			}
			if out, err = runner.Apply(ev, out); err != nil {
				return err
			}
			if len(out) > 0 {
				flush()
			}
		}
	}
	out = runner.Close(out)
	flush()
	return nil
}

// Counts summarises a replay.
type Counts struct {
	Coups, Settlements, Discrepancies int
	ByKind                            map[games.Kind]int
}

// Add counts one record.
func (c *Counts) Add(r games.Record) {
	switch r := r.(type) {
	case *games.CoupSummary:
		c.Coups++
	case *games.Settlement:
		c.Settlements++
	case *games.Discrepancy:
		c.Discrepancies++
		if c.ByKind == nil {
			c.ByKind = map[games.Kind]int{}
		}
		c.ByKind[r.Kind]++
	}
}

func (c Counts) String() string {
	return fmt.Sprintf("%d coups, %d settlements, %d discrepancies", c.Coups, c.Settlements, c.Discrepancies)
}
