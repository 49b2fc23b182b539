package baccara_test

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/coupwatch/coupwatch/games/baccara"
	"github.com/coupwatch/coupwatch/games/gamestest"
)

// script turns a compact coup script into a journal. One command per line:
//
//	coup [ID]                 coup_start
//	bet SPOT PLAYER AMOUNT    bet
//	nmb                       no_more_bets
//	cards PLACE:CARD ...      one card event per token, in order
//	reveal PLACE CARD ...     reveal
//	pay|collect|refund SPOT PLAYER [AMOUNT]
//	rake AMOUNT
//	end                       coup_end
func script(t testing.TB, game, rules, limits, src string) []byte {
	t.Helper()
	open := map[string]any{}
	if rules != "" {
		open["rules"] = json.RawMessage(rules)
	}
	if limits != "" {
		open["limits"] = json.RawMessage(limits)
	}
	j := gamestest.Table{ID: "T1", Start: time.Date(2026, 11, 22, 20, 0, 0, 0, time.UTC), Game: game, Open: gamestest.Fragment(open)}.New()
	emit := func(fields map[string]any) { j.Line(gamestest.Fragment(fields)) }
	for _, line := range strings.Split(src, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		amount := func(i int) int64 {
			var n int64
			if _, err := fmt.Sscan(f[i], &n); err != nil {
				t.Fatalf("bad amount in %q", line)
			}
			return n
		}
		switch f[0] {
		case "coup":
			ev := map[string]any{"type": "coup_start"}
			if len(f) > 1 {
				ev["coup"] = f[1]
			}
			emit(ev)
		case "bet":
			emit(map[string]any{"type": "bet", "spot": f[1], "player": f[2], "amount": amount(3)})
		case "nmb":
			emit(map[string]any{"type": "no_more_bets", "cause": "announce"})
		case "cards":
			for _, c := range f[1:] {
				place, cd, _ := strings.Cut(c, ":")
				emit(map[string]any{"type": "card", "to": place, "card": cd})
			}
		case "reveal":
			emit(map[string]any{"type": "reveal", "to": f[1], "cards": f[2:]})
		case "pay", "collect", "refund":
			typ := map[string]string{"pay": "payout", "collect": "collect", "refund": "refund"}[f[0]]
			ev := map[string]any{"type": typ, "spot": f[1], "player": f[2]}
			if len(f) > 3 {
				ev["amount"] = amount(3)
			}
			emit(ev)
		case "rake":
			emit(map[string]any{"type": "rake", "amount": amount(1)})
		case "end":
			emit(map[string]any{"type": "coup_end"})
		default:
			t.Fatalf("unknown script command %q", line)
		}
	}
	return []byte(j.String())
}

// run replays a journal through the baccara games and returns its settlements and
// discrepancies in the test's compact form: "COUP SPOT PLAYER EXPECTED" and
// "COUP RULE SPOT PLAYER" (- for an empty spot or player).
func run(t testing.TB, journal []byte) (settle, found []string, err error) {
	t.Helper()
	out, err := gamestest.Replay(t, gamestest.Catalog(t, baccara.Games()...), string(journal))
	dash := func(s string) string {
		if s == "" {
			return "-"
		}
		return s
	}
	for _, r := range out.Settlements {
		settle = append(settle, fmt.Sprintf("%s %s %s %d", r.Coup, r.Spot, r.Player, r.Expected))
	}
	for _, r := range out.Findings {
		found = append(found, fmt.Sprintf("%s %s %s %s", r.Coup, r.Rule, dash(r.Spot), dash(r.Player)))
	}
	sort.Strings(settle)
	sort.Strings(found)
	return settle, found, err
}

type engineCase struct {
	name   string
	game   string
	rules  string
	limits string
	script string
	settle []string // every settlement, "COUP SPOT PLAYER EXPECTED"
	found  []string // every discrepancy, "COUP RULE SPOT PLAYER"
}

func checkCases(t *testing.T, cases []engineCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			settle, found, err := run(t, script(t, tc.game, tc.rules, tc.limits, tc.script))
			if err != nil {
				t.Fatalf("replay: %v", err)
			}
			want := append([]string(nil), tc.settle...)
			sort.Strings(want)
			if strings.Join(settle, "\n") != strings.Join(want, "\n") {
				t.Errorf("settlements:\n got %q\nwant %q", settle, want)
			}
			wantF := append([]string(nil), tc.found...)
			sort.Strings(wantF)
			if strings.Join(found, "\n") != strings.Join(wantF, "\n") {
				t.Errorf("discrepancies:\n got %q\nwant %q", found, wantF)
			}
		})
	}
}
