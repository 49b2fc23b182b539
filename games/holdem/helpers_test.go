package holdem_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/coupwatch/coupwatch/games"
	"github.com/coupwatch/coupwatch/games/holdem"
	"github.com/coupwatch/coupwatch/games/replay"
)

// table writes a hold'em journal line by line; times advance a second per line.
type table struct {
	b strings.Builder
	t time.Time
}

func newTable(rules string) *table {
	tb := &table{t: time.Date(2026, 11, 22, 21, 0, 0, 0, time.UTC)}
	open := `"type":"table_open","game":"texas_holdem_nl","schema":1,"limits":{"min":100,"max":10000000}`
	if rules != "" {
		open += `,"rules":` + rules
	}
	tb.line(open)
	tb.line(`"type":"dealer","dealer":"D-1"`)
	return tb
}

func (tb *table) line(frag string) *table {
	tb.t = tb.t.Add(time.Second)
	fmt.Fprintf(&tb.b, `{"t":%q,"table":"NL-1",%s}`+"\n", tb.t.Format(time.RFC3339Nano), frag)
	return tb
}

// coup starts a coup and posts the blinds: sb and bb are seats, amounts 100 and 200.
func (tb *table) coup(id string, sb, bb int) *table {
	tb.line(fmt.Sprintf(`"type":"coup_start","coup":%q`, id))
	tb.act(sb, "post_sb", 100)
	return tb.act(bb, "post_bb", 200)
}

// act writes an action by player P<seat> at seat:<seat>; amount 0 is left out.
func (tb *table) act(seat int, action string, amount int64) *table {
	frag := fmt.Sprintf(`"type":"action","player":"P%d","spot":"seat:%d","action":%q`, seat, seat, action)
	if amount > 0 {
		frag += fmt.Sprintf(`,"amount":%d`, amount)
	}
	return tb.line(frag)
}

// deal deals two face-down cards to each seat, one at a time, in the given order.
func (tb *table) deal(seats ...int) *table {
	for r := 0; r < 2; r++ {
		for _, s := range seats {
			tb.line(fmt.Sprintf(`"type":"card","to":"seat:%d","card":"XX"`, s))
		}
	}
	return tb
}

func (tb *table) burn() *table { return tb.line(`"type":"card","to":"burn","card":"XX"`) }

func (tb *table) board(cards ...string) *table {
	for _, c := range cards {
		tb.line(fmt.Sprintf(`"type":"card","to":"board","card":%q`, c))
	}
	return tb
}

// flop, turn and river burn a card first.
func (tb *table) flop(a, b, c string) *table { return tb.burn().board(a, b, c) }
func (tb *table) turn(a string) *table       { return tb.burn().board(a) }
func (tb *table) river(a string) *table      { return tb.burn().board(a) }

func (tb *table) reveal(seat int, a, b string) *table {
	return tb.line(fmt.Sprintf(`"type":"reveal","to":"seat:%d","cards":[%q,%q]`, seat, a, b))
}

func (tb *table) rake(amount int64) *table {
	return tb.line(fmt.Sprintf(`"type":"rake","amount":%d`, amount))
}

func (tb *table) pay(spot string, seat int, amount int64) *table {
	return tb.line(fmt.Sprintf(`"type":"payout","spot":%q,"player":"P%d","amount":%d`, spot, seat, amount))
}

func (tb *table) end() *table { return tb.line(`"type":"coup_end"`) }

func (tb *table) String() string { return tb.b.String() }

type out struct {
	settlements []*games.Settlement
	findings    []*games.Discrepancy
	coups       []*games.CoupSummary
}

// due returns the expected amounts by "coup spot player".
func (o out) due() map[string]int64 {
	m := map[string]int64{}
	for _, s := range o.settlements {
		m[s.Coup+" "+s.Spot+" "+s.Player] += s.Expected
	}
	return m
}

// rules returns "coup:rule[:player]" for each finding, sorted.
func (o out) rules() []string {
	var r []string
	for _, d := range o.findings {
		k := d.Coup + ":" + strings.TrimPrefix(d.Rule, "texas_holdem_nl.")
		if d.Player != "" {
			k += ":" + d.Player
		}
		r = append(r, k)
	}
	sort.Strings(r)
	return r
}

func (o out) String() string {
	var b strings.Builder
	for _, s := range o.settlements {
		fmt.Fprintf(&b, "\n  settle %s %s %s %s %d (%s)", s.Coup, s.Spot, s.Player, s.Outcome, s.Expected, s.Detail)
	}
	for _, d := range o.findings {
		fmt.Fprintf(&b, "\n  find %s %s %s %s: %s", d.Coup, d.Rule, d.Spot, d.Player, d.Detail)
	}
	for _, c := range o.coups {
		fmt.Fprintf(&b, "\n  coup %s: %s", c.Coup, c.Result)
	}
	return b.String()
}

func catalog(t testing.TB) *games.Catalog {
	t.Helper()
	cat, err := games.NewCatalog(holdem.Games()...)
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

func tryRun(t testing.TB, src string) (out, error) {
	var o out
	err := replay.Run(catalog(t), []replay.Source{{Name: "test.jsonl", R: strings.NewReader(src)}}, replay.Options{}, func(r games.Record) {
		switch r := r.(type) {
		case *games.Settlement:
			o.settlements = append(o.settlements, r)
		case *games.Discrepancy:
			o.findings = append(o.findings, r)
		case *games.CoupSummary:
			o.coups = append(o.coups, r)
		}
	})
	return o, err
}

func run(t *testing.T, src string) out {
	t.Helper()
	o, err := tryRun(t, src)
	if err != nil {
		t.Fatalf("replay: %v\n%s", err, src)
	}
	return o
}
