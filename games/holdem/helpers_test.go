package holdem_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/coupwatch/coupwatch/games"
	"github.com/coupwatch/coupwatch/games/gamestest"
	"github.com/coupwatch/coupwatch/games/holdem"
)

// table writes a hold'em journal line by line; times advance a second per line.
type table struct{ *gamestest.Journal }

func newTable(rules string) *table {
	tb := &table{gamestest.Table{ID: "NL-1", Start: time.Date(2026, 11, 22, 21, 0, 0, 0, time.UTC), Game: "texas_holdem_nl",
		Limits: `{"min":100,"max":10000000}`, Rules: rules}.New()}
	return tb.line(`"type":"dealer","dealer":"D-1"`)
}

func (tb *table) line(frag string) *table {
	tb.Line(frag)
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

// out is a replay's output.
type out struct{ gamestest.Output }

// rules returns "coup:rule[:player]" for each finding, the rule without its texas_holdem_nl.
// prefix, sorted (nil for none).
func (o out) rules() []string {
	var r []string
	for _, d := range o.Findings {
		k := d.Coup + ":" + strings.TrimPrefix(d.Rule, "texas_holdem_nl.")
		if d.Player != "" {
			k += ":" + d.Player
		}
		r = append(r, k)
	}
	sort.Strings(r)
	return r
}

func catalog(t testing.TB) *games.Catalog {
	t.Helper()
	return gamestest.Catalog(t, holdem.Games()...)
}

func tryRun(t testing.TB, src string) (out, error) {
	t.Helper()
	o, err := gamestest.Replay(t, catalog(t), src)
	return out{o}, err
}

func run(t *testing.T, src string) out {
	t.Helper()
	return out{gamestest.Run(t, catalog(t), src)}
}
