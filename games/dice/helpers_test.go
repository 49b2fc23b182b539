package dice_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/coupwatch/coupwatch/games"
	"github.com/coupwatch/coupwatch/games/dice"
	"github.com/coupwatch/coupwatch/games/replay"
)

// ev is one journal event without its time and table.
type ev map[string]any

func bet(spot, player string, amount int64) ev {
	return ev{"type": "bet", "spot": spot, "player": player, "amount": amount}
}
func pay(spot, player string, amount int64) ev {
	return ev{"type": "payout", "spot": spot, "player": player, "amount": amount}
}
func collect(spot, player string, amount int64) ev {
	return ev{"type": "collect", "spot": spot, "player": player, "amount": amount}
}
func refund(spot, player string, amount int64) ev {
	return ev{"type": "refund", "spot": spot, "player": player, "amount": amount}
}
func act(player, action, spot string) ev {
	e := ev{"type": "action", "player": player, "action": action}
	if spot != "" {
		e["spot"] = spot
	}
	return e
}
func rake(amount int64) ev { return ev{"type": "rake", "amount": amount} }
func closeBets() ev        { return ev{"type": "no_more_bets", "cause": "dice_release"} }
func throw(a, b int, faults ...string) ev {
	e := ev{"type": "dice", "values": []int{a, b}}
	if len(faults) > 0 {
		e["faults"] = faults
	}
	return e
}

// coup is one throw: coup_start, the shooter, the body (bets, the cut-off, the dice, money),
// coup_end.
func coup(id, shooter string, body ...ev) []ev {
	out := []ev{{"type": "coup_start", "coup": id}}
	if shooter != "" {
		out = append(out, act(shooter, "shooter", ""))
	}
	out = append(out, body...)
	return append(out, ev{"type": "coup_end"})
}

// session builds a journal: table_open with rules and limits, then the coups.
func session(game string, rules map[string]any, min, max int64, coups ...[]ev) []byte {
	var b bytes.Buffer
	t := time.Date(2026, 11, 22, 20, 0, 0, 0, time.UTC)
	write := func(e ev) {
		t = t.Add(time.Second)
		e["t"] = t.Format("2006-01-02T15:04:05.000Z")
		e["table"] = "T-1"
		line, err := json.Marshal(e)
		if err != nil {
			panic(err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	open := ev{"type": "table_open", "game": game, "schema": 1, "limits": map[string]any{"min": min, "max": max}}
	if rules != nil {
		open["rules"] = rules
	}
	write(open)
	write(ev{"type": "dealer", "dealer": "D-1"})
	for _, c := range coups {
		for _, e := range c {
			write(e)
		}
	}
	return b.Bytes()
}

// output is the replay of a journal, by record type.
type output struct {
	settlements map[string]int64 // "coup spot player" -> summed expected
	outcomes    map[string]string
	findings    []string // "coup rule spot player", sorted
	wrong       map[string]int64
	records     []map[string]any
}

func replayJournal(t *testing.T, data []byte) output {
	t.Helper()
	cat, err := games.NewCatalog(dice.Games()...)
	if err != nil {
		t.Fatal(err)
	}
	o := output{settlements: map[string]int64{}, outcomes: map[string]string{}, wrong: map[string]int64{}}
	err = replay.Run(cat, []replay.Source{{Name: "test.jsonl", R: bytes.NewReader(data)}}, replay.Options{}, func(r games.Record) {
		var m map[string]any
		if err := json.Unmarshal(r.AppendJSON(nil), &m); err != nil {
			t.Fatalf("record is not JSON: %v", err)
		}
		o.records = append(o.records, m)
		s := func(k string) string {
			v, _ := m[k].(string)
			return v
		}
		key := s("coup") + " " + s("spot") + " " + s("player")
		switch m["type"] {
		case "settlement":
			o.settlements[key] += int64(m["expected"].(float64))
			o.outcomes[key] = s("outcome")
		case "discrepancy":
			o.findings = append(o.findings, s("coup")+" "+s("rule")+" "+s("spot")+" "+s("player"))
			if s("kind") == "wrong_payout" {
				o.wrong[key] = int64(m["expected"].(float64))
			}
		}
	})
	if err != nil {
		t.Fatalf("replay: %v", err)
	}
	sort.Strings(o.findings)
	return o
}

// want checks the findings exactly (sorted "coup rule spot player" lines) and the listed
// settlements ("coup spot player" -> expected).
func (o output) want(t *testing.T, settlements map[string]int64, findings ...string) {
	t.Helper()
	for k, v := range settlements {
		got, ok := o.settlements[k]
		switch {
		case !ok:
			t.Errorf("no settlement %q (have %v)", k, o.settlements)
		case got != v:
			t.Errorf("settlement %q: expected %d, got %d", k, v, got)
		}
	}
	sort.Strings(findings)
	if strings.Join(findings, "\n") != strings.Join(o.findings, "\n") {
		t.Errorf("findings:\n got  %q\n want %q", o.findings, findings)
	}
}

func (o output) dump() string {
	var b strings.Builder
	for _, r := range o.records {
		fmt.Fprintln(&b, r)
	}
	return b.String()
}
