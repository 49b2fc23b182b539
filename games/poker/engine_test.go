package poker_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/coupwatch/coupwatch/games"
	"github.com/coupwatch/coupwatch/games/gamestest"
	"github.com/coupwatch/coupwatch/journal"
)

// journalOf builds a journal: a table_open for game with rules and limits 500/15000, then
// one line per fragment ("type":"bet",...), each stamped with a time and the table.
func journalOf(game, rules string, fragments ...string) string {
	return gamestest.Table{ID: "T-1", Start: time.Date(2026, 11, 22, 19, 59, 59, 0, time.UTC), Game: game,
		Limits: `{"min":500,"max":15000}`, Rules: rules}.New().Line(`"type":"dealer","dealer":"D-1"`).Lines(fragments...).String()
}

type outcome struct {
	settled  map[string]int64 // "coup spot player" -> expected
	outcomes map[string]string
	rules    []string // "coup rule spot player", sorted
}

func run(t *testing.T, j string) (outcome, error) {
	t.Helper()
	out, err := gamestest.Replay(t, catalog(t), j)
	o := outcome{settled: out.Due(), outcomes: map[string]string{}}
	for _, s := range out.Settlements {
		o.outcomes[s.Coup+" "+s.Spot+" "+s.Player] = string(s.Outcome)
	}
	for _, d := range out.Findings {
		o.rules = append(o.rules, strings.TrimSpace(fmt.Sprintf("%s %s %s %s", d.Coup, d.Rule, d.Spot, d.Player)))
	}
	sort.Strings(o.rules)
	return o, err
}

// uthCoup is a one-box ultimate hold'em coup: P1 on box 1 with Ante and Blind 1000,
// the given play fragments before the flop, at the flop and at the river; the board is
// 2C 7C 9H JS 4C.
func uthCoup(bets []string, pre, flop, river []string, dealer, box1 string, money ...string) []string {
	f := []string{`"type":"coup_start","coup":"1"`}
	if bets == nil {
		bets = []string{`"type":"bet","spot":"box:1:ante","player":"P1","amount":1000`, `"type":"bet","spot":"box:1:blind","player":"P1","amount":1000`}
	}
	f = append(f, bets...)
	f = append(f, `"type":"no_more_bets"`)
	for _, to := range []string{"box:1", "box:1", "dealer", "dealer"} {
		f = append(f, fmt.Sprintf(`"type":"card","to":%q,"card":"XX"`, to))
	}
	f = append(f, pre...)
	for _, c := range []string{"2C", "7C", "9H"} {
		f = append(f, fmt.Sprintf(`"type":"card","to":"board","card":%q`, c))
	}
	f = append(f, flop...)
	for _, c := range []string{"JS", "4C"} {
		f = append(f, fmt.Sprintf(`"type":"card","to":"board","card":%q`, c))
	}
	f = append(f, river...)
	f = append(f, fmt.Sprintf(`"type":"reveal","to":"dealer","cards":%s`, cardsJSON(dealer)),
		fmt.Sprintf(`"type":"reveal","to":"box:1","cards":%s`, cardsJSON(box1)))
	f = append(f, money...)
	return append(f, `"type":"coup_end"`)
}

func cardsJSON(s string) string {
	b, _ := json.Marshal(strings.Fields(s))
	return string(b)
}

func play(amount int) string {
	if amount == 0 {
		return `"type":"action","player":"P1","action":"play","spot":"box:1:play"`
	}
	return fmt.Sprintf(`"type":"action","player":"P1","action":"play","spot":"box:1:play","amount":%d`, amount)
}

func TestUltimateHoldem(t *testing.T) {
	ante := `"type":"bet","spot":"box:1:ante","player":"P1","amount":1000`
	blind := `"type":"bet","spot":"box:1:blind","player":"P1","amount":1000`
	tests := []struct {
		name    string
		rules   string
		coup    []string
		settled map[string]int64
		rules_  []string
	}{
		{name: "play without amount at the flop is twice the Ante",
			coup:    uthCoup(nil, nil, []string{play(0)}, nil, "KS KD", "AS AD"),
			settled: map[string]int64{"1 box:1:play P1": 2000, "1 box:1:ante P1": 1000, "1 box:1:blind P1": 0}},
		{name: "a second Play is reported and both amounts are settled",
			coup:    uthCoup(nil, []string{play(3000)}, []string{play(2000)}, nil, "KS KD", "AS AD"),
			settled: map[string]int64{"1 box:1:play P1": 5000},
			rules_:  []string{"1 ultimate_holdem.second_play box:1:play P1"}},
		{name: "Play 1x before the river",
			coup:    uthCoup(nil, []string{play(1000)}, nil, nil, "KS KD", "AS AD"),
			settled: map[string]int64{"1 box:1:play P1": 1000},
			rules_:  []string{"1 ultimate_holdem.play_amount box:1:play P1"}},
		{name: "Ante without Blind",
			coup:    uthCoup([]string{ante}, []string{play(4000)}, nil, nil, "KS KD", "AS AD"),
			settled: map[string]int64{"1 box:1:ante P1": 1000, "1 box:1:play P1": 4000},
			rules_:  []string{"1 ultimate_holdem.ante_blind box:1:blind P1"}},
		{name: "limits.spots lifts the cap for Trips",
			coup: uthCoup([]string{ante, blind, `"type":"bet","spot":"box:1:trips","player":"P1","amount":20000`}, []string{play(4000)}, nil, nil,
				"KS KD", "AS AD"),
			settled: map[string]int64{"1 box:1:trips P1": -20000}},
		{name: "Blind 3 to 2 rounded down by default",
			coup: uthCoup([]string{`"type":"bet","spot":"box:1:ante","player":"P1","amount":555`, `"type":"bet","spot":"box:1:blind","player":"P1","amount":555`},
				[]string{play(2220)}, nil, nil, "KS KD", "8C 5C"),
			settled: map[string]int64{"1 box:1:blind P1": 832}},
		{name: "Blind 3 to 2 rounded up with rules.rounding", rules: `{"rounding":"up"}`,
			coup: uthCoup([]string{`"type":"bet","spot":"box:1:ante","player":"P1","amount":555`, `"type":"bet","spot":"box:1:blind","player":"P1","amount":555`},
				[]string{play(2220)}, nil, nil, "KS KD", "8C 5C"),
			settled: map[string]int64{"1 box:1:blind P1": 833}},
		{name: "a pair made with the board qualifies the croupier",
			coup:    uthCoup(nil, nil, nil, []string{play(1000)}, "9C 5D", "KS QS"),
			settled: map[string]int64{"1 box:1:ante P1": -1000, "1 box:1:play P1": -1000, "1 box:1:blind P1": -1000}},
		{name: "a Play decision after the croupier's cards are shown",
			coup: func() []string {
				c := uthCoup(nil, nil, nil, nil, "KS KD", "AS AD")
				return append(c[:len(c)-1], play(1000), `"type":"coup_end"`)
			}(),
			settled: map[string]int64{"1 box:1:play P1": 1000},
			rules_:  []string{"1 ultimate_holdem.decision_after_dealer box:1:play P1"}},
		{name: "a board laid face down counts as it is turned up (L356, L359)",
			coup: func() []string {
				c := uthCoup(nil, nil, nil, nil, "KS KD", "AS AD")
				var out []string
				for _, f := range c {
					if strings.Contains(f, `"to":"board"`) {
						continue
					}
					out = append(out, f)
					if strings.Contains(f, `"to":"dealer","card":"XX"`) && strings.Count(strings.Join(out, ""), `"to":"dealer"`) == 2 {
						for i := 0; i < 5; i++ {
							out = append(out, `"type":"card","to":"board","card":"XX"`)
						}
						out = append(out, play(4000), `"type":"reveal","to":"board","cards":["2C","7C","9H"]`,
							`"type":"reveal","to":"board","cards":["JS","4C"]`)
					}
				}
				return out
			}(),
			settled: map[string]int64{"1 box:1:play P1": 4000, "1 box:1:ante P1": 1000}},
		{name: "Trips of a hand folded face down and never shown is lost (L361)",
			coup: func() []string {
				c := uthCoup([]string{ante, blind, `"type":"bet","spot":"box:1:trips","player":"P1","amount":500`}, nil, nil,
					[]string{`"type":"action","player":"P1","action":"fold","spot":"box:1"`}, "KS KD", "AS AD")
				var out []string
				for _, f := range c {
					if !strings.Contains(f, `"to":"box:1","cards"`) {
						out = append(out, f)
					}
				}
				return out
			}(),
			settled: map[string]int64{"1 box:1:ante P1": -1000, "1 box:1:blind P1": -1000, "1 box:1:trips P1": -500}},
		{name: "the croupier relieved before any bet starts the coup with him",
			coup: append([]string{`"type":"coup_start","coup":"1"`, `"type":"dealer","dealer":"D-2"`},
				uthCoup(nil, []string{play(4000)}, nil, nil, "KS KD", "AS AD")[1:]...),
			settled: map[string]int64{"1 box:1:play P1": 4000}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rules := tt.rules
			if strings.HasPrefix(tt.name, "limits.spots") {
				// limits are in table_open: replace the default limits line.
				j := strings.Replace(journalOf("ultimate_holdem", "", tt.coup...), `"limits":{"min":500,"max":15000}`,
					`"limits":{"min":500,"max":15000,"spots":{"trips":{"max":30000}}}`, 1)
				o, err := run(t, j)
				check(t, o, err, tt.settled, tt.rules_)
				return
			}
			o, err := run(t, journalOf("ultimate_holdem", rules, tt.coup...))
			check(t, o, err, tt.settled, tt.rules_)
		})
	}
}

func check(t *testing.T, o outcome, err error, settled map[string]int64, rules []string) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range settled {
		got, ok := o.settled[k]
		if !ok {
			t.Errorf("no settlement %s (got %v)", k, o.settled)
			continue
		}
		if got != want {
			t.Errorf("settlement %s = %d, want %d", k, got, want)
		}
	}
	sort.Strings(rules)
	if strings.Join(o.rules, "\n") != strings.Join(rules, "\n") {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(o.rules, "\n"), strings.Join(rules, "\n"))
	}
}

// tcpCoup is a three card poker coup for P1 on box 1 and P2 on box 2.
func tcpCoup(bets, mid, decisions []string, dealer, box1, box2 string, money ...string) []string {
	f := []string{`"type":"coup_start","coup":"1"`}
	if bets == nil {
		bets = []string{`"type":"bet","spot":"box:1:ante","player":"P1","amount":1000`, `"type":"bet","spot":"box:2:ante","player":"P2","amount":1000`}
	}
	f = append(append(f, bets...), `"type":"no_more_bets"`)
	for r := 0; r < 3; r++ {
		for _, to := range []string{"box:1", "box:2", "dealer"} {
			f = append(f, fmt.Sprintf(`"type":"card","to":%q,"card":"XX"`, to))
		}
		if r == 0 {
			f = append(f, mid...)
		}
	}
	if decisions == nil {
		decisions = []string{`"type":"action","player":"P1","action":"play","spot":"box:1:play","amount":1000`,
			`"type":"action","player":"P2","action":"play","spot":"box:2:play","amount":1000`}
	}
	f = append(f, decisions...)
	f = append(f, fmt.Sprintf(`"type":"reveal","to":"dealer","cards":%s`, cardsJSON(dealer)),
		fmt.Sprintf(`"type":"reveal","to":"box:1","cards":%s`, cardsJSON(box1)),
		fmt.Sprintf(`"type":"reveal","to":"box:2","cards":%s`, cardsJSON(box2)))
	f = append(f, money...)
	return append(f, `"type":"coup_end"`)
}

func TestThreeCardPoker(t *testing.T) {
	tests := []struct {
		name    string
		rules   string
		coup    []string
		settled map[string]int64
		rules_  []string
	}{
		{name: "queen high qualifies, jack high does not",
			coup:    tcpCoup(nil, nil, nil, "QC 7D 3S", "KH 2D 4S", "JD TC 4H"),
			settled: map[string]int64{"1 box:1:ante P1": 1000, "1 box:1:play P1": 1000, "1 box:2:ante P2": -1000, "1 box:2:play P2": -1000}},
		{name: "jack high does not qualify: Ante 1 to 1, Play returned",
			coup:    tcpCoup(nil, nil, nil, "JC 7D 3S", "2H 5D 4S", "8D 8C 4H"),
			settled: map[string]int64{"1 box:1:ante P1": 1000, "1 box:1:play P1": 0, "1 box:2:ante P2": 1000, "1 box:2:play P2": 0}},
		{name: "the croupier relieved during the deal",
			coup:    tcpCoup(nil, []string{`"type":"dealer","dealer":"D-2"`}, nil, "QC 7D 3S", "KH 2D 4S", "JD TC 4H"),
			settled: map[string]int64{"1 box:1:ante P1": 1000},
			rules_:  []string{"1 three_card_poker.dealer_relieved"}},
		{name: "a look during the deal voids the hand",
			coup:    tcpCoup(nil, []string{`"type":"action","player":"P2","action":"peek","spot":"box:2"`}, nil, "QC 7D 3S", "KH 2D 4S", "JD TC 4H"),
			settled: map[string]int64{"1 box:1:ante P1": 1000, "1 box:2:ante P2": 0, "1 box:2:play P2": 0},
			rules_:  []string{"1 three_card_poker.early_look box:2 P2"}},
		{name: "cards revealed during the deal void the hand",
			coup:    tcpCoup(nil, []string{`"type":"reveal","to":"box:1","cards":["KH"]`}, nil, "QC 7D 3S", "KH 2D 4S", "JD TC 4H"),
			settled: map[string]int64{"1 box:1:ante P1": 0, "1 box:1:play P1": 0, "1 box:2:ante P2": -1000},
			rules_:  []string{"1 three_card_poker.early_look box:1 P1"}},
		{name: "a card dealt face up is no misdeal",
			coup: func() []string {
				c := tcpCoup(nil, nil, nil, "QC 7D 3S", "KH 2D 4S", "JD TC 4H")
				c[4] = `"type":"card","to":"box:1","card":"KH"`
				return c
			}(),
			settled: map[string]int64{"1 box:1:ante P1": 1000, "1 box:2:ante P2": -1000}},
		{name: "a look after the deal changes nothing",
			coup: tcpCoup(nil, nil, []string{`"type":"action","player":"P2","action":"look","spot":"box:2"`,
				`"type":"action","player":"P1","action":"play","spot":"box:1:play","amount":1000`,
				`"type":"action","player":"P2","action":"fold","spot":"box:2"`}, "QC 7D 3S", "KH 2D 4S", "JD TC 4H"),
			settled: map[string]int64{"1 box:1:ante P1": 1000, "1 box:2:ante P2": -1000}},
		{name: "a raise without amount is the initial stake",
			coup: tcpCoup(nil, nil, []string{`"type":"action","player":"P1","action":"play","spot":"box:1:play"`,
				`"type":"action","player":"P2","action":"fold","spot":"box:2"`}, "QC 7D 3S", "KH 2D 4S", "JD TC 4H"),
			settled: map[string]int64{"1 box:1:play P1": 1000}},
		{name: "a second raise",
			coup: tcpCoup(nil, nil, []string{`"type":"action","player":"P1","action":"play","spot":"box:1:play","amount":1000`,
				`"type":"action","player":"P1","action":"play","spot":"box:1:play","amount":1000`,
				`"type":"action","player":"P2","action":"fold","spot":"box:2"`}, "QC 7D 3S", "KH 2D 4S", "JD TC 4H"),
			settled: map[string]int64{"1 box:1:play P1": 2000},
			rules_:  []string{"1 three_card_poker.play_amount box:1:play P1"}},
		{name: "payment order ascending",
			coup: tcpCoup(nil, nil, nil, "QC 7D 3S", "KH 2D 4S", "JD TC 4H",
				`"type":"payout","spot":"box:1:ante","player":"P1","amount":1000`, `"type":"collect","spot":"box:2:ante","player":"P2","amount":1000`),
			rules_: []string{"1 three_card_poker.payment_order box:2:ante P2"}},
		{name: "losers collected first, then winners paid, each counter-clockwise (L494-L496)",
			coup: tcpCoup(nil, nil, nil, "QC 7D 3S", "JD TC 4H", "KH 2D 4S",
				`"type":"collect","spot":"box:1:ante","player":"P1","amount":1000`, `"type":"collect","spot":"box:1:play","player":"P1","amount":1000`,
				`"type":"payout","spot":"box:2:ante","player":"P2","amount":1000`, `"type":"payout","spot":"box:2:play","player":"P2","amount":1000`)},
		{name: "pas de jeu: side bets of a hand never turned up are lost (L533-L536, L551-L553)",
			coup: func() []string {
				c := tcpCoup([]string{`"type":"bet","spot":"box:1:ante","player":"P1","amount":1000`, `"type":"bet","spot":"box:2:ante","player":"P2","amount":1000`,
					`"type":"bet","spot":"box:2:pairplus","player":"P2","amount":500`, `"type":"bet","spot":"box:2:bonus","player":"P2","amount":500`}, nil, nil,
					"JC 7D 3S", "KH 2D 4S", "JD TC 4H", `"type":"collect","spot":"box:2:pairplus","player":"P2","amount":500`)
				var out []string
				for _, f := range c {
					if !strings.Contains(f, `"to":"box:2","cards"`) {
						out = append(out, f)
					}
				}
				return out
			}(),
			settled: map[string]int64{"1 box:2:ante P2": 1000, "1 box:2:play P2": 0, "1 box:2:pairplus P2": -500, "1 box:2:bonus P2": -500}},
		{name: "payment order off", rules: `{"payment_order":false}`,
			coup: tcpCoup(nil, nil, nil, "QC 7D 3S", "KH 2D 4S", "JD TC 4H",
				`"type":"payout","spot":"box:1:ante","player":"P1","amount":1000`, `"type":"collect","spot":"box:2:ante","player":"P2","amount":1000`)},
		{name: "a stake withdrawn before the deal leaves no hand to deal",
			coup: tcpCoup([]string{`"type":"bet","spot":"box:1:ante","player":"P1","amount":1000`, `"type":"bet","spot":"box:3:ante","player":"P3","amount":1000`,
				`"type":"bet","spot":"box:3:ante","player":"P3","amount":0`, `"type":"bet","spot":"box:2:ante","player":"P2","amount":1000`}, nil, nil,
				"QC 7D 3S", "KH 2D 4S", "JD TC 4H"),
			settled: map[string]int64{"1 box:1:ante P1": 1000, "1 box:2:ante P2": -1000}},
		{name: "N fois la mise read as N for 1", rules: `{"payout_includes_stake":true}`,
			coup: tcpCoup([]string{`"type":"bet","spot":"box:1:ante","player":"P1","amount":1000`, `"type":"bet","spot":"box:1:pairplus","player":"P1","amount":1000`,
				`"type":"bet","spot":"box:2:ante","player":"P2","amount":1000`}, nil, nil, "QC 7D 3S", "8H 8D 8S", "JD TC 4H"),
			settled: map[string]int64{"1 box:1:ante P1": 3000, "1 box:1:play P1": 1000, "1 box:1:pairplus P1": 29000}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, err := run(t, journalOf("three_card_poker", tt.rules, tt.coup...))
			check(t, o, err, tt.settled, tt.rules_)
		})
	}
}

// TestInvalidInput checks what makes a journal invalid: impossible spots and places,
// events of other games, unknown or malformed rules options.
func TestInvalidInput(t *testing.T) {
	tests := []struct {
		game, rules, line, want string
	}{
		{"ultimate_holdem", "", `"type":"bet","spot":"box:1:bonus","player":"P1","amount":500`, `spot "box:1:bonus" cannot exist`},
		{"ultimate_holdem", "", `"type":"bet","spot":"box:0:ante","player":"P1","amount":500`, `cannot exist`},
		{"ultimate_holdem", "", `"type":"card","to":"punto","card":"AS"`, `cards cannot go to "punto"`},
		{"ultimate_holdem", "", `"type":"spin","ball_revs":9`, `spin events do not belong`},
		{"ultimate_holdem", "", `"type":"action","player":"P1","action":"play","spot":"box:1:ante:x"`, `action spot`},
		{"three_card_poker", "", `"type":"card","to":"board","card":"AS"`, `cards cannot go to "board"`},
		{"three_card_poker", "", `"type":"bet","spot":"box:1:blind","player":"P1","amount":500`, `cannot exist`},
		{"ultimate_holdem", `{"deal_style":"fan"}`, "", `rules.deal_style`},
		{"ultimate_holdem", `{"limit_spots":["ante","bonus"]}`, "", `rules.limit_spots`},
		{"ultimate_holdem", `{"shoe":6}`, "", `rules.shoe: unknown option`},
		{"three_card_poker", `{"flush_tiebreak":"suits"}`, "", `rules.flush_tiebreak`},
		{"three_card_poker", `{"max_multiple":-1}`, "", `rules.max_multiple`},
	}
	for _, tt := range tests {
		var lines []string
		if tt.line != "" {
			lines = append(lines, `"type":"coup_start"`, tt.line)
		}
		_, err := run(t, journalOf(tt.game, tt.rules, lines...))
		var le *journal.LineError
		if !errors.As(err, &le) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s %s %s: error %v, want a line error containing %q", tt.game, tt.rules, tt.line, err, tt.want)
		}
	}
}

// TestRulesDocumented checks every rule of both games: id prefix, kind, article and summary.
func TestRulesDocumented(t *testing.T) {
	for _, g := range catalog(t).Games() {
		for _, r := range g.Rules {
			if !strings.HasPrefix(r.ID, g.ID+".") || r.Article == "" || r.Summary == "" || r.Severity == "" {
				t.Errorf("%s: rule %+v is not fully documented", g.ID, r)
			}
			ok := false
			for _, k := range games.Kinds() {
				ok = ok || k == r.Kind
			}
			if !ok {
				t.Errorf("%s: rule %s has kind %q", g.ID, r.ID, r.Kind)
			}
		}
		if len(g.Options) == 0 {
			t.Errorf("%s documents no options", g.ID)
		}
	}
}
