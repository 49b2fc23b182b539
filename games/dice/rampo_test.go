package dice_test

import (
	"fmt"
	"testing"
)

func announce() ev { return ev{"type": "no_more_bets", "cause": "announce"} }

func rampoRules(table string) map[string]any { return map[string]any{"paytable": table} }

// diceFor returns two faces making n, the easy way where possible.
func diceFor(n int) (int, int) {
	a := n / 2
	if a > 6 {
		a = 6
	}
	if a < 1 {
		a = 1
	}
	return a, n - a
}

// TestRampoPayTables checks every number and colour under each wording: the base rate when the
// player takes the win, the rampo rate when the number repeats.
func TestRampoPayTables(t *testing.T) {
	base := map[string][13]int64{
		"2014": {2: 30, 3: 15, 4: 9, 5: 6, 6: 5, 7: 4, 8: 5, 9: 6, 10: 9, 11: 15, 12: 30},
		"B":    {2: 30, 3: 15, 4: 9, 5: 6, 6: 5, 7: 4, 8: 5, 9: 6, 10: 9, 11: 15, 12: 30},
		"A":    {2: 25, 3: 12, 4: 9, 5: 6, 6: 5, 7: 4, 8: 5, 9: 6, 10: 9, 11: 12, 12: 25},
	}
	rampo := map[string][13]int64{
		"2014": {2: 170, 3: 40, 4: 30, 5: 22, 6: 12, 8: 12, 9: 22, 10: 30, 11: 40, 12: 170},
		"B":    {2: 170, 3: 40, 4: 30, 5: 22, 6: 12, 8: 12, 9: 22, 10: 30, 11: 40, 12: 170},
		"A":    {2: 70, 3: 24, 4: 18, 5: 12, 6: 10, 8: 10, 9: 12, 10: 18, 11: 24, 12: 70},
	}
	colours := map[int]string{2: "white", 3: "red", 4: "yellow", 5: "green", 6: "black", 7: "white", 8: "red", 9: "yellow", 10: "green", 11: "black", 12: "white"}
	for _, table := range []string{"2014", "A", "B"} {
		for n := 2; n <= 12; n++ {
			t.Run(fmt.Sprintf("%s_%d", table, n), func(t *testing.T) {
				a, b := diceFor(n)
				num := fmt.Sprintf("number:%d", n)
				colour := "colour:" + colours[n]
				other := "colour:red"
				if colours[n] == "red" {
					other = "colour:black"
				}
				first := coup("1", "P1", bet(num, "P1", 100), bet(num, "P2", 100), bet(colour, "P3", 100), bet(other, "P4", 100), announce(), throw(a, b))
				if n != 7 {
					first = coup("1", "P1", bet(num, "P1", 100), bet(num, "P2", 100), bet(colour, "P3", 100), bet(other, "P4", 100), announce(), throw(a, b),
						act("P1", "decline", num), act("P2", "rampo", num))
				}
				second := coup("2", "P1", bet("colour:white", "P1", 100), announce(), throw(b, a))
				if n == 7 {
					second = coup("2", "P2", bet("colour:white", "P2", 100), announce(), throw(b, a))
				}
				o := replayJournal(t, session("rampo", rampoRules(table), 100, 4000, first, second))
				colourPays := int64(4)
				if colours[n] == "white" {
					colourPays = 3
				}
				want := map[string]int64{
					"1 " + num + " P1":    base[table][n] * 100,
					"1 " + colour + " P3": colourPays * 100,
					"1 " + other + " P4":  -100,
				}
				if n == 7 {
					want["1 "+num+" P2"] = 400
				} else {
					want["2 "+num+" P2"] = rampo[table][n] * 100
					if _, ok := o.settlements["1 "+num+" P2"]; ok {
						t.Errorf("the held stake was settled on the first throw")
					}
				}
				o.want(t, want)
				if len(o.findings) > 0 {
					t.Errorf("unexpected findings %q", o.findings)
				}
			})
		}
	}
}

// TestRampo checks the rampo mechanism, the throw and procedure rules and the options.
func TestRampo(t *testing.T) {
	cases := []struct {
		name     string
		rules    map[string]any
		min, max int64
		coups    [][]ev
		settle   map[string]int64
		findings []string
	}{
		{"2014: a winner with no choice is held and loses on a miss", rampoRules("2014"), 100, 4000, [][]ev{
			coup("1", "P1", bet("number:6", "P1", 500), announce(), throw(2, 4)),
			coup("2", "P1", bet("colour:red", "P1", 100), announce(), throw(4, 4), collect("number:6", "P1", 500))},
			map[string]int64{"2 number:6 P1": -500, "2 colour:red P1": 400}, nil},
		{"a winner paid with no choice recorded took the win", rampoRules("2014"), 100, 4000, [][]ev{
			coup("1", "P1", bet("number:6", "P1", 500), announce(), throw(2, 4), pay("number:6", "P1", 2500))},
			map[string]int64{"1 number:6 P1": 2500}, nil},
		{"a held number taken back before the rampo throw is paid the base rate", rampoRules("2014"), 100, 4000, [][]ev{
			coup("1", "P1", bet("number:9", "P1", 500), bet("number:9", "P2", 200), announce(), throw(4, 5)),
			coup("2", "P1", act("P2", "decline", "number:9"), pay("number:9", "P2", 1200), bet("number:9", "P1", 0), pay("number:9", "P1", 3000),
				bet("colour:green", "P1", 100), announce(), throw(4, 5))},
			map[string]int64{"2 number:9 P1": 3000, "2 number:9 P2": 1200, "2 colour:green P1": -100}, nil},
		// F004 L676-L678: a new winning stake on a number whose held stake repeats is itself held
		// when no choice is recorded; the rampo payment on the same spot does not show a decline.
		{"a new winner beside a repeated held number stays held", rampoRules("2014"), 100, 4000, [][]ev{
			coup("1", "P1", bet("number:6", "P1", 500), announce(), throw(3, 3), act("P1", "rampo", "number:6")),
			coup("2", "P1", bet("number:6", "P1", 100), announce(), throw(1, 5), pay("number:6", "P1", 6000)),
			coup("3", "P1", bet("colour:red", "P1", 100), announce(), throw(2, 4), pay("number:6", "P1", 1200))},
			map[string]int64{"2 number:6 P1": 6000, "3 number:6 P1": 1200}, nil},
		{"failed rampo hands the stake back when the house says so", map[string]any{"paytable": "2014", "failed_rampo": "push"}, 100, 4000, [][]ev{
			coup("1", "P1", bet("number:8", "P1", 500), announce(), throw(4, 4), act("P1", "rampo", "number:8")),
			coup("2", "P1", bet("colour:red", "P1", 100), announce(), throw(1, 2))},
			map[string]int64{"2 number:8 P1": 0}, nil},
		{"decline paid the table minimum in the other reading", map[string]any{"paytable": "2014", "decline_pays": "table_minimum"}, 100, 4000, [][]ev{
			coup("1", "P1", bet("number:8", "P1", 500), announce(), throw(4, 4), act("P1", "decline", "number:8"), pay("number:8", "P1", 2500))},
			map[string]int64{"1 number:8 P1": 100}, []string{"1 rampo.payout number:8 P1"}},
		{"a held stake waits through a coup nul", rampoRules("B"), 100, 2000, [][]ev{
			coup("1", "P1", bet("number:3", "P1", 100), announce(), throw(1, 2), act("P1", "rampo", "number:3")),
			coup("2", "P1", bet("colour:red", "P1", 100), announce(), throw(2, 1, "cocked")),
			coup("3", "P1", bet("colour:red", "P1", 100), announce(), throw(2, 1))},
			map[string]int64{"3 number:3 P1": 4000, "3 colour:red P1": 400}, []string{"2 rampo.void_throw  P1"}},
		{"coup nul: payments on it are wrong, refunds are not", rampoRules("2014"), 100, 4000, [][]ev{
			coup("1", "P1", bet("colour:red", "P1", 100), bet("colour:white", "P2", 100), announce(), throw(4, 4, "on_chip"),
				pay("colour:red", "P1", 400), refund("colour:white", "P2", 100))},
			nil, []string{"1 rampo.void_throw  P1", "1 rampo.payout colour:red P1"}},
		// F004 L650-L651: the chef de table «peut retirer» the turn of a repeat offender, his
		// discretion: by default each coup nul is one finding.
		{"every fault voids the throw, one finding each", rampoRules("2014"), 100, 4000, [][]ev{
			coup("1", "P1", bet("colour:red", "P1", 100), announce(), throw(4, 4, "no_wall")),
			coup("2", "P1", bet("colour:red", "P1", 100), announce(), throw(4, 4, "slid")),
			coup("3", "P1", bet("colour:red", "P1", 100), announce(), throw(4, 4, "broken"))},
			nil, []string{"1 rampo.void_throw  P1", "2 rampo.void_throw  P1", "3 rampo.void_throw  P1"}},
		{"repetition reported when the house asks", map[string]any{"paytable": "2014", "repeat_violations": 2}, 100, 4000, [][]ev{
			coup("1", "P1", bet("colour:red", "P1", 100), announce(), throw(4, 4, "no_wall")),
			coup("2", "P1", bet("colour:red", "P1", 100), announce(), throw(4, 4, "slid")),
			coup("3", "P1", bet("colour:red", "P1", 100), announce(), throw(4, 4, "broken"))},
			nil, []string{"1 rampo.void_throw  P1", "2 rampo.void_throw  P1", "2 rampo.repeated_violations  P1", "3 rampo.void_throw  P1"}},
		{"dice changed during a rampo attempt, not before one", rampoRules("2014"), 100, 4000, [][]ev{
			coup("1", "P1", act("P1", "change_dice", ""), bet("number:10", "P1", 100), announce(), throw(4, 6)),
			coup("2", "P1", act("P1", "change_dice", ""), bet("colour:red", "P1", 100), announce(), throw(4, 6))},
			map[string]int64{"2 number:10 P1": 3000}, []string{"2 rampo.dice_change_during_rampo  P1"}},
		{"2014: the shooter keeps the dice after a 7", rampoRules("2014"), 100, 4000, [][]ev{
			coup("1", "P1", bet("colour:red", "P1", 100), announce(), throw(3, 4)),
			coup("2", "P1", bet("colour:red", "P1", 100), announce(), throw(3, 5))},
			map[string]int64{"2 colour:red P1": 400}, []string{"2 rampo.dice_pass  P1"}},
		{"consolidated wording: the 7 does not end the turn", rampoRules("A"), 100, 2000, [][]ev{
			coup("1", "P1", bet("colour:red", "P1", 100), announce(), throw(3, 4)),
			coup("2", "P1", bet("colour:red", "P1", 100), announce(), throw(3, 5))},
			nil, nil},
		{"shooter without a stake", rampoRules("2014"), 100, 4000, [][]ev{
			coup("1", "P1", bet("colour:red", "P2", 100), announce(), throw(3, 5))},
			map[string]int64{"1 colour:red P2": 400}, []string{"1 rampo.shooter_bet  P1"}},
		{"a held stake counts as the shooter's bet", rampoRules("2014"), 100, 4000, [][]ev{
			coup("1", "P1", bet("number:5", "P1", 100), announce(), throw(2, 3)),
			coup("2", "P1", announce(), throw(1, 4))},
			map[string]int64{"2 number:5 P1": 2200}, nil},
		{"late bet", rampoRules("2014"), 100, 4000, [][]ev{
			coup("1", "P1", bet("colour:red", "P1", 100), announce(), bet("colour:red", "P2", 500), throw(3, 5))},
			map[string]int64{"1 colour:red P2": 2000}, []string{"1 rampo.late_bet colour:red P2"}},
		{"2014 limits: 40 times the minimum on numbers, 200 on colours", rampoRules("2014"), 100, 4000, [][]ev{
			coup("1", "P1", bet("number:8", "P1", 4100), bet("colour:red", "P2", 20000), bet("colour:white", "P3", 20100), bet("number:7", "P4", 50), announce(), throw(3, 5))},
			nil, []string{"1 rampo.bet_limit number:8 P1", "1 rampo.bet_limit colour:white P3", "1 rampo.bet_limit number:7 P4"}},
		{"consolidated limits: 20 and 100 times the minimum, at least 1.00", rampoRules("A"), 50, 0, [][]ev{
			coup("1", "P1", bet("number:8", "P1", 2000), bet("number:9", "P2", 2100), bet("colour:red", "P3", 10000), bet("colour:black", "P4", 10100), bet("colour:green", "P5", 90), announce(), throw(3, 4))},
			nil, []string{"1 rampo.bet_limit number:9 P2", "1 rampo.bet_limit colour:black P4", "1 rampo.bet_limit colour:green P5"}},
		{"more than eight players", rampoRules("2014"), 100, 4000, [][]ev{
			coup("1", "P1", bet("colour:red", "P1", 100), bet("colour:red", "P2", 100), bet("colour:red", "P3", 100), bet("colour:red", "P4", 100),
				bet("colour:red", "P5", 100), bet("colour:red", "P6", 100), bet("colour:red", "P7", 100), bet("colour:red", "P8", 100), bet("colour:red", "P9", 100),
				announce(), throw(3, 4))},
			nil, []string{"1 rampo.max_players  "}},
		{"2014 order: losers first, the rampo zone before the colours", rampoRules("2014"), 100, 4000, [][]ev{
			coup("1", "P1", bet("number:8", "P1", 100), announce(), throw(3, 5), act("P1", "rampo", "number:8")),
			coup("2", "P1", bet("colour:red", "P2", 100), bet("colour:white", "P3", 100), announce(), throw(6, 2),
				pay("colour:red", "P2", 400), pay("number:8", "P1", 1200), collect("colour:white", "P3", 100))},
			nil, []string{"2 rampo.payment_order number:8 P1"}},
		{"2014 order followed", rampoRules("2014"), 100, 4000, [][]ev{
			coup("1", "P1", bet("number:8", "P1", 100), announce(), throw(3, 5), act("P1", "rampo", "number:8")),
			coup("2", "P1", bet("colour:red", "P2", 100), bet("colour:white", "P3", 100), announce(), throw(6, 2),
				collect("colour:white", "P3", 100), pay("number:8", "P1", 1200), pay("colour:red", "P2", 400))},
			nil, nil},
		{"consolidated order: the rampo zone is paid last", rampoRules("B"), 100, 2000, [][]ev{
			coup("1", "P1", bet("number:8", "P1", 100), announce(), throw(3, 5), act("P1", "rampo", "number:8")),
			coup("2", "P1", bet("colour:red", "P2", 100), bet("number:8", "P3", 100), announce(), throw(6, 2),
				act("P3", "decline", "number:8"), pay("number:8", "P1", 1200), pay("number:8", "P3", 500), pay("colour:red", "P2", 400))},
			nil, []string{"2 rampo.payment_order number:8 P3"}},
		{"losers collected after a payment", rampoRules("B"), 100, 2000, [][]ev{
			coup("1", "P1", bet("colour:red", "P1", 100), bet("colour:white", "P2", 100), announce(), throw(6, 2),
				pay("colour:red", "P1", 400), collect("colour:white", "P2", 100))},
			nil, []string{"1 rampo.payment_order colour:white P2"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := replayJournal(t, session("rampo", c.rules, c.min, c.max, c.coups...))
			o.want(t, c.settle, c.findings...)
		})
	}
}

// TestRampoOrderIgnoresTakeBackBeforeThrow: a held number taken back before the next throw is
// paid then (F004 L680-L681), outside the order of the payments that follow the throw (L682-L685):
// collecting a loser of that throw afterwards is no breach of «losers first».
func TestRampoOrderIgnoresTakeBackBeforeThrow(t *testing.T) {
	for _, table := range []string{"2014", "B"} {
		t.Run(table, func(t *testing.T) {
			o := replayJournal(t, session("rampo", rampoRules(table), 100, 4000,
				coup("1", "P1", bet("colour:red", "P1", 100), bet("number:4", "P2", 100), announce(), throw(1, 3),
					collect("colour:red", "P1", 100), act("P2", "rampo", "number:4")),
				coup("2", "P1", act("P2", "decline", "number:4"), pay("number:4", "P2", 900),
					bet("colour:red", "P1", 100), announce(), throw(4, 5), collect("colour:red", "P1", 100)),
				// The order is still checked after the throw: a loser collected after a payment.
				coup("3", "P1", bet("colour:red", "P1", 100), bet("colour:yellow", "P3", 100), announce(), throw(4, 5),
					pay("colour:yellow", "P3", 400), collect("colour:red", "P1", 100)),
			))
			o.want(t, map[string]int64{"2 number:4 P2": 900, "2 colour:red P1": -100, "3 colour:yellow P3": 400},
				"3 rampo.payment_order colour:red P1")
		})
	}
}
