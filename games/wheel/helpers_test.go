package wheel_test

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/coupwatch/coupwatch/games"
	"github.com/coupwatch/coupwatch/games/replay"
	"github.com/coupwatch/coupwatch/games/wheel"
)

// journalOf builds a journal for a table: open is the table_open's extra fields, each event a
// JSON fragment without t and table ("type":"bet",...). Times advance a second per line.
func journalOf(game, open string, events ...string) string {
	var b strings.Builder
	t := time.Date(2026, 11, 22, 21, 0, 0, 0, time.UTC)
	line := func(frag string) {
		t = t.Add(time.Second)
		fmt.Fprintf(&b, `{"t":%q,"table":"T-1",%s}`+"\n", t.Format(time.RFC3339Nano), frag)
	}
	o := fmt.Sprintf(`"type":"table_open","game":%q,"schema":1`, game)
	if open != "" {
		o += "," + open
	}
	line(o)
	for _, e := range events {
		line(e)
	}
	return b.String()
}

type out struct {
	settlements []*games.Settlement
	findings    []*games.Discrepancy
	coups       []*games.CoupSummary
}

func (o out) settlement(t *testing.T, coup, spot, player string) *games.Settlement {
	t.Helper()
	for _, s := range o.settlements {
		if s.Coup == coup && s.Spot == spot && s.Player == player {
			return s
		}
	}
	t.Fatalf("no settlement for coup %s %s %s; have %s", coup, spot, player, o)
	return nil
}

// rules returns the rule ids of the findings, sorted.
func (o out) rules() []string {
	var r []string
	for _, d := range o.findings {
		r = append(r, d.Coup+":"+d.Rule)
	}
	sort.Strings(r)
	return r
}

func (o out) String() string {
	var b strings.Builder
	for _, s := range o.settlements {
		fmt.Fprintf(&b, "\n  settle %s %s %s %s %d", s.Coup, s.Spot, s.Player, s.Outcome, s.Expected)
	}
	for _, d := range o.findings {
		fmt.Fprintf(&b, "\n  find %s %s %s %s: %s", d.Coup, d.Rule, d.Spot, d.Player, d.Detail)
	}
	return b.String()
}

func run(t *testing.T, src string) out {
	t.Helper()
	o, err := tryRun(src)
	if err != nil {
		t.Fatalf("replay: %v\n%s", err, src)
	}
	return o
}

func tryRun(src string) (out, error) {
	cat, err := games.NewCatalog(wheel.Games()...)
	if err != nil {
		return out{}, err
	}
	var o out
	err = replay.Run(cat, []replay.Source{{Name: "t.jsonl", R: strings.NewReader(src)}}, replay.Options{}, func(r games.Record) {
		// Every record must encode as JSON.
		var m map[string]any
		if jerr := json.Unmarshal(r.AppendJSON(nil), &m); jerr != nil {
			panic(jerr)
		}
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

func bet(spot, player string, amount int64) string {
	return fmt.Sprintf(`"type":"bet","spot":%q,"player":%q,"amount":%d`, spot, player, amount)
}

func money(kind, spot, player string, amount int64) string {
	return fmt.Sprintf(`"type":%q,"spot":%q,"player":%q,"amount":%d`, kind, spot, player, amount)
}

func result(v string) string { return fmt.Sprintf(`"type":"result","value":%q`, v) }

func spin(revs int, ball, rotor string) string {
	return fmt.Sprintf(`"type":"spin","ball_revs":%d,"ball_dir":%q,"rotor_dir":%q`, revs, ball, rotor)
}

func wheelSpin(revs int, dir string) string {
	return fmt.Sprintf(`"type":"spin","revs":%d,"dir":%q`, revs, dir)
}

func action(player, act, spot string) string {
	return fmt.Sprintf(`"type":"action","player":%q,"action":%q,"spot":%q`, player, act, spot)
}

const (
	coupStart = `"type":"coup_start"`
	rnvp      = `"type":"no_more_bets","cause":"announce"`
	coupEnd   = `"type":"coup_end"`
)

// coup returns the events of one roulette coup: bets, a regular spin, the cut-off, the result,
// then the given money and actions, then coup_end.
func coup(rotor string, bets []string, res string, after ...string) []string {
	ball := "cw"
	if rotor == "cw" {
		ball = "ccw"
	}
	ev := append([]string{coupStart}, bets...)
	ev = append(ev, spin(9, ball, rotor), rnvp, result(res))
	ev = append(ev, after...)
	return append(ev, coupEnd)
}

func join(parts ...[]string) []string {
	var all []string
	for _, p := range parts {
		all = append(all, p...)
	}
	return all
}
