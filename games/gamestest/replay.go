package gamestest

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/coupwatch/coupwatch/games"
	"github.com/coupwatch/coupwatch/games/replay"
)

// Catalog returns the catalog of the given games; an invalid one fails the test.
func Catalog(t testing.TB, gs ...*games.Game) *games.Catalog {
	t.Helper()
	cat, err := games.NewCatalog(gs...)
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

// Output is what a replay wrote: the records by type, and all of them as JSON lines.
type Output struct {
	Settlements []*games.Settlement
	Findings    []*games.Discrepancy
	Coups       []*games.CoupSummary
	// JSONL is every record, in order, one JSON object per line.
	JSONL []byte
}

// Replay replays the journal src, named t.jsonl in errors, through cat. A record that does
// not encode as a JSON object fails the test. On a replay error the output holds the records
// written before it.
func Replay(t testing.TB, cat *games.Catalog, src string) (Output, error) {
	t.Helper()
	return replayFrom(t, cat, "t.jsonl", strings.NewReader(src))
}

// Run is Replay where a replay error fails the test.
func Run(t testing.TB, cat *games.Catalog, src string) Output {
	t.Helper()
	o, err := Replay(t, cat, src)
	if err != nil {
		t.Fatalf("replay: %v\n%s", err, src)
	}
	return o
}

// ReplayFile replays the journal file at path through cat; an error fails the test.
func ReplayFile(t testing.TB, cat *games.Catalog, path string) Output {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	o, err := replayFrom(t, cat, path, f)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func replayFrom(t testing.TB, cat *games.Catalog, name string, r io.Reader) (Output, error) {
	t.Helper()
	var o Output
	err := replay.Run(cat, []replay.Source{{Name: name, R: r}}, replay.Options{}, func(r games.Record) {
		start := len(o.JSONL)
		o.JSONL = r.AppendJSON(o.JSONL)
		var m map[string]any
		if err := json.Unmarshal(o.JSONL[start:], &m); err != nil {
			t.Fatalf("record is not a JSON object: %v\n%s", err, o.JSONL[start:])
		}
		o.JSONL = append(o.JSONL, '\n')
		switch r := r.(type) {
		case *games.Settlement:
			o.Settlements = append(o.Settlements, r)
		case *games.Discrepancy:
			o.Findings = append(o.Findings, r)
		case *games.CoupSummary:
			o.Coups = append(o.Coups, r)
		}
	})
	return o, err
}

// Settlement returns the settlement of a stake in a coup; there must be one.
func (o Output) Settlement(t testing.TB, coup, spot, player string) *games.Settlement {
	t.Helper()
	for _, s := range o.Settlements {
		if s.Coup == coup && s.Spot == spot && s.Player == player {
			return s
		}
	}
	t.Fatalf("no settlement for coup %s %s %s; have %s", coup, spot, player, o)
	return nil
}

// Rules returns "coup:rule" for every finding, sorted (empty, not nil, for none).
func (o Output) Rules() []string {
	r := []string{}
	for _, d := range o.Findings {
		r = append(r, d.Coup+":"+d.Rule)
	}
	sort.Strings(r)
	return r
}

// Due returns the expected nets of the settlements, summed by "coup spot player".
func (o Output) Due() map[string]int64 {
	m := map[string]int64{}
	for _, s := range o.Settlements {
		m[s.Coup+" "+s.Spot+" "+s.Player] += s.Expected
	}
	return m
}

// Nets returns the expected nets of the settlements, summed by stake, as "coup spot player net"
// lines, sorted (empty, not nil, for none).
func (o Output) Nets() []string {
	return netLines(o.Due())
}

// CoupNets returns the expected nets of one coup's settlements, summed by stake, as
// "spot player net" lines, sorted (empty, not nil, for none).
func (o Output) CoupNets(coup string) []string {
	sum := map[string]int64{}
	for _, s := range o.Settlements {
		if s.Coup == coup {
			sum[s.Spot+" "+s.Player] += s.Expected
		}
	}
	return netLines(sum)
}

func netLines(sum map[string]int64) []string {
	r := []string{}
	for k, v := range sum {
		r = append(r, fmt.Sprintf("%s %d", k, v))
	}
	sort.Strings(r)
	return r
}

// String lists the settlements, findings and coup results, one per line, for failure messages.
func (o Output) String() string {
	var b strings.Builder
	for _, s := range o.Settlements {
		fmt.Fprintf(&b, "\n  settle %s %s %s %s %d (%s)", s.Coup, s.Spot, s.Player, s.Outcome, s.Expected, s.Detail)
	}
	for _, d := range o.Findings {
		fmt.Fprintf(&b, "\n  find %s %s %s %s: %s", d.Coup, d.Rule, d.Spot, d.Player, d.Detail)
	}
	for _, c := range o.Coups {
		fmt.Fprintf(&b, "\n  coup %s: %s", c.Coup, c.Result)
	}
	return b.String()
}
