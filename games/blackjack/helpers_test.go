package blackjack_test

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/coupwatch/coupwatch/games"
	"github.com/coupwatch/coupwatch/games/blackjack"
	"github.com/coupwatch/coupwatch/games/replay"
)

// journalOf builds a blackjack journal: rules is the table_open's rules object ("" for none),
// each event a JSON fragment without t and table. Times advance a second per line.
func journalOf(rules string, events ...string) string {
	var b strings.Builder
	t := time.Date(2026, 11, 22, 21, 0, 0, 0, time.UTC)
	line := func(frag string) {
		t = t.Add(time.Second)
		fmt.Fprintf(&b, `{"t":%q,"table":"BJ-T",%s}`+"\n", t.Format(time.RFC3339Nano), frag)
	}
	open := `"type":"table_open","game":"blackjack","schema":1,"limits":{"min":500,"max":50000}`
	if rules != "" {
		open += `,"rules":` + rules
	}
	line(open)
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

// net returns the expected nets of a coup's settlements, summed by spot and player, as
// "spot player net" lines sorted.
func (o out) nets(coup string) []string {
	sum := map[string]int64{}
	for _, s := range o.settlements {
		if s.Coup == coup {
			sum[s.Spot+" "+s.Player] += s.Expected
		}
	}
	var r []string
	for k, v := range sum {
		r = append(r, fmt.Sprintf("%s %d", k, v))
	}
	sort.Strings(r)
	return r
}

// rules returns "coup:rule" for every finding, sorted.
func (o out) rules() []string {
	r := []string{}
	for _, d := range o.findings {
		r = append(r, d.Coup+":"+d.Rule)
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
	return b.String()
}

func tryRun(src string) (out, error) {
	cat, err := games.NewCatalog(blackjack.Games()...)
	if err != nil {
		return out{}, err
	}
	var o out
	err = replay.Run(cat, []replay.Source{{Name: "t.jsonl", R: strings.NewReader(src)}}, replay.Options{}, func(r games.Record) {
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

func run(t *testing.T, src string) out {
	t.Helper()
	o, err := tryRun(src)
	if err != nil {
		t.Fatalf("replay: %v\n%s", err, src)
	}
	return o
}

func bet(spot, player string, amount int64) string {
	return fmt.Sprintf(`"type":"bet","spot":%q,"player":%q,"amount":%d`, spot, player, amount)
}

func card(to, c string) string { return fmt.Sprintf(`"type":"card","to":%q,"card":%q`, to, c) }

func act(player, action, spot string) string {
	return fmt.Sprintf(`"type":"action","player":%q,"action":%q,"spot":%q`, player, action, spot)
}

func actAmount(player, action, spot string, amount int64) string {
	return fmt.Sprintf(`"type":"action","player":%q,"action":%q,"spot":%q,"amount":%d`, player, action, spot, amount)
}

func money(kind, spot, player string, amount int64) string {
	return fmt.Sprintf(`"type":%q,"spot":%q,"player":%q,"amount":%d`, kind, spot, player, amount)
}

func coupStart(id string) string { return fmt.Sprintf(`"type":"coup_start","coup":%q`, id) }

const (
	rnvp    = `"type":"no_more_bets","cause":"announce"`
	coupEnd = `"type":"coup_end"`
)

// burns returns n face-down burnt cards.
func burns(n int) []string {
	var r []string
	for i := 0; i < n; i++ {
		r = append(r, card("burn", "XX"))
	}
	return r
}

// deal returns the initial deal: first cards of the boxes in order, the croupier's card, second
// cards. boxes maps box spots (in deal order) to their two cards.
func deal(dealer string, boxes ...[3]string) []string {
	var r []string
	for _, b := range boxes {
		r = append(r, card(b[0], b[1]))
	}
	r = append(r, card("dealer", dealer))
	for _, b := range boxes {
		r = append(r, card(b[0], b[2]))
	}
	return r
}

func join(parts ...any) []string {
	var all []string
	for _, p := range parts {
		switch p := p.(type) {
		case string:
			all = append(all, p)
		case []string:
			all = append(all, p...)
		default:
			panic(fmt.Sprintf("join: %T", p))
		}
	}
	return all
}
