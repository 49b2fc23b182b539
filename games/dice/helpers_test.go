package dice_test

import (
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/coupwatch/coupwatch/games"
	"github.com/coupwatch/coupwatch/games/gamestest"
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
	open := map[string]any{"limits": map[string]any{"min": min, "max": max}}
	if rules != nil {
		open["rules"] = rules
	}
	j := gamestest.Table{ID: "T-1", Start: time.Date(2026, 11, 22, 20, 0, 0, 0, time.UTC), Game: game, Open: gamestest.Fragment(open)}.New()
	j.Line(`"type":"dealer","dealer":"D-1"`)
	for _, c := range coups {
		for _, e := range c {
			j.Line(gamestest.Fragment(e))
		}
	}
	return []byte(j.String())
}

// output is the replay of a journal, by record type.
type output struct {
	settlements map[string]int64 // "coup spot player" -> summed expected
	outcomes    map[string]string
	findings    []string // "coup rule spot player", sorted
	wrong       map[string]int64
	jsonl       []byte
}

func replayJournal(t *testing.T, data []byte) output {
	t.Helper()
	out := gamestest.Run(t, diceCatalog(t), string(data))
	o := output{settlements: out.Due(), outcomes: map[string]string{}, wrong: map[string]int64{}, jsonl: out.JSONL}
	for _, s := range out.Settlements {
		o.outcomes[s.Coup+" "+s.Spot+" "+s.Player] = string(s.Outcome)
	}
	for _, d := range out.Findings {
		o.findings = append(o.findings, d.Coup+" "+d.Rule+" "+d.Spot+" "+d.Player)
		if d.Kind == games.WrongPayout {
			o.wrong[d.Coup+" "+d.Spot+" "+d.Player] = d.Expected.Amount()
		}
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

func (o output) dump() string { return string(o.jsonl) }
