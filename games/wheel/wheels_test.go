package wheel_test

import (
	"reflect"
	"testing"

	"github.com/coupwatch/coupwatch/games"
)

func TestBouleFive(t *testing.T) {
	src := journalOf("boule", `"limits":{"min":200,"max":20000}`, join(
		coup("cw", []string{bet("number:5", "P1", 500), bet("red", "P2", 1000), bet("black", "P2", 1000), bet("low", "P3", 1000), bet("high", "P4", 1000), bet("even", "P5", 1000), bet("odd", "P6", 1000)}, "5"),
		coup("ccw", []string{bet("number:7", "P1", 500), bet("red", "P2", 1000), bet("odd", "P3", 1000), bet("high", "P4", 1000), bet("low", "P5", 1000)}, "7"),
	)...)
	o := run(t, src)
	for _, c := range []struct {
		coup, spot, player string
		want               int64
	}{
		{"1", "number:5", "P1", 3500}, {"1", "red", "P2", -1000}, {"1", "black", "P2", -1000}, {"1", "low", "P3", -1000},
		{"1", "high", "P4", -1000}, {"1", "even", "P5", -1000}, {"1", "odd", "P6", -1000},
		{"2", "number:7", "P1", 3500}, {"2", "red", "P2", 1000}, {"2", "odd", "P3", 1000}, {"2", "high", "P4", 1000}, {"2", "low", "P5", -1000},
	} {
		if s := o.Settlement(t, c.coup, c.spot, c.player); s.Expected != c.want {
			t.Errorf("coup %s %s: %d, want %d", c.coup, c.spot, s.Expected, c.want)
		}
	}
	if len(o.Findings) != 0 {
		t.Errorf("findings %v", o)
	}
}

func TestBigWheel(t *testing.T) {
	for _, c := range []struct {
		seg  string
		want int64
	}{{"x1", 1000}, {"x2", 2000}, {"x5", 5000}, {"x10", 10000}, {"x20", 20000}, {"joker_black", 40000}, {"joker_yellow", 40000}} {
		o := run(t, journalOf("big_wheel", "", coupStart, bet(c.seg, "P1", 1000), bet("x1", "P2", 100), `"type":"no_more_bets","cause":"wheel_spin"`, wheelSpin(4, "cw"), result(c.seg), coupEnd))
		if s := o.Settlement(t, "1", c.seg, "P1"); s.Expected != c.want {
			t.Errorf("%s: %d, want %d", c.seg, s.Expected, c.want)
		}
	}
	// The stake-included reading pays N-1.
	o := run(t, journalOf("big_wheel", `"rules":{"payout_includes_stake":true}`, coupStart, bet("x5", "P1", 1000), wheelSpin(4, "cw"), result("x5"), coupEnd))
	if s := o.Settlement(t, "1", "x5", "P1"); s.Expected != 4000 {
		t.Errorf("stake included: %d", s.Expected)
	}
	// Bets after the spin are late even without an announcement; a short spin is irregular but settled.
	o = run(t, journalOf("big_wheel", "", coupStart, bet("x2", "P1", 1000), wheelSpin(2, "cw"), bet("x5", "P3", 500), result("x2"), coupEnd,
		coupStart, bet("x2", "P1", 1000), wheelSpin(3, "cw"), result("x1"), coupEnd))
	if got := o.Rules(); !reflect.DeepEqual(got, []string{"1:big_wheel.late_bet", "1:big_wheel.min_turns"}) {
		t.Errorf("findings %v", got)
	}
	if s := o.Settlement(t, "1", "x5", "P3"); s.Expected != -500 {
		t.Errorf("late stake settled %d", s.Expected)
	}
}

func TestFortune(t *testing.T) {
	lim := `"limits":{"min":100,"max":10000}`
	// Payouts for every colour.
	for _, c := range []struct {
		colour string
		want   int64
	}{{"orange", 500}, {"green", 1500}, {"blue", 2500}, {"red", 5000}, {"violet", 10000}, {"white", 25000}, {"black", 25000}} {
		o := run(t, journalOf("wheel_of_fortune", lim, coupStart, wheelSpin(5, "cw"), bet(c.colour, "P1", 500), bet("white", "P2", 100), rnvp, result(c.colour), coupEnd))
		if s := o.Settlement(t, "1", c.colour, "P1"); s.Expected != c.want {
			t.Errorf("%s: %d, want %d", c.colour, s.Expected, c.want)
		}
		if c.colour == "black" {
			if s := o.Settlement(t, "1", "white", "P2"); s.Expected != -100 {
				t.Errorf("white on black: %d", s.Expected)
			}
		}
	}
	// A short spin voids the draw: nothing is due; stakes stand for the next spin, paying a void draw is wrong.
	o := run(t, journalOf("wheel_of_fortune", lim,
		coupStart, wheelSpin(2, "cw"), bet("red", "P1", 500), bet("orange", "P2", 1000), rnvp, result("red"), money("payout", "red", "P1", 5000), coupEnd,
		coupStart, wheelSpin(4, "ccw"), rnvp, result("orange"), money("collect", "red", "P1", 500), money("payout", "orange", "P2", 1000), coupEnd,
		coupStart, `"type":"spin","revs":5,"dir":"cw","obstructed":true`, bet("green", "P3", 100), rnvp, result("green"), coupEnd,
	))
	if got := o.Rules(); !reflect.DeepEqual(got, []string{"1:wheel_of_fortune.min_turns", "1:wheel_of_fortune.payout", "3:wheel_of_fortune.obstruction"}) {
		t.Errorf("findings %v", got)
	}
	if s := o.Settlement(t, "1", "red", "P1"); s.Outcome != games.Void || s.Expected != 0 || s.Observed != 5000 {
		t.Errorf("void: %+v", s)
	}
	if s := o.Settlement(t, "2", "red", "P1"); s.Expected != -500 {
		t.Errorf("carried stake: %+v", s)
	}
	if s := o.Settlement(t, "2", "orange", "P2"); s.Expected != 1000 {
		t.Errorf("carried stake: %+v", s)
	}
	if s := o.Settlement(t, "3", "green", "P3"); s.Outcome != games.Void {
		t.Errorf("obstructed: %+v", s)
	}
	// Direction alternation, per-colour maxima, ascending payments, twelve players.
	bets := []string{bet("white", "P1", 600), bet("violet", "P2", 1000), bet("orange", "P3", 10000), bet("green", "P4", 5100)}
	ev := append([]string{coupStart, wheelSpin(5, "cw")}, bets...)
	ev = append(ev, rnvp, result("orange"), money("collect", "white", "P1", 600), coupEnd,
		coupStart, wheelSpin(5, "cw"), bet("green", "P1", 100), bet("green", "P2", 300), rnvp, result("green"),
		money("payout", "green", "P2", 900), money("payout", "green", "P1", 300), coupEnd)
	o = run(t, journalOf("wheel_of_fortune", lim, ev...))
	want := []string{"1:wheel_of_fortune.bet_limit", "1:wheel_of_fortune.bet_limit", "2:wheel_of_fortune.direction_alternation", "2:wheel_of_fortune.payment_order"}
	if got := o.Rules(); !reflect.DeepEqual(got, want) {
		t.Errorf("findings %v, want %v%s", got, want, o)
	}
	var players []string
	for i := 1; i <= 13; i++ {
		players = append(players, bet("orange", "P"+string(rune('A'+i)), 100))
	}
	o = run(t, journalOf("wheel_of_fortune", lim, append(append([]string{coupStart, wheelSpin(5, "cw")}, players...), rnvp, result("blue"), coupEnd)...))
	if got := o.Rules(); !reflect.DeepEqual(got, []string{"1:wheel_of_fortune.max_players"}) {
		t.Errorf("13 players: %v", got)
	}
}

// F004 L244-L246 and L257-L259: a re-spin in the same coup replaces a void one, turning the
// other way from it; a loser paid is a wrong payout, not a player paid out of the ascending
// order.
func TestFortuneRespinAndOrder(t *testing.T) {
	lim := `"limits":{"min":100,"max":10000}`
	o := run(t, journalOf("wheel_of_fortune", lim,
		coupStart, wheelSpin(2, "cw"), bet("green", "P1", 1000), wheelSpin(4, "ccw"), rnvp, result("green"),
		money("payout", "green", "P1", 3000), coupEnd,
		coupStart, wheelSpin(5, "cw"), bet("white", "P1", 100), bet("black", "P2", 100), rnvp, result("white"),
		money("payout", "white", "P1", 5000), money("payout", "black", "P2", 5000), coupEnd))
	want := []string{"1:wheel_of_fortune.min_turns", "2:wheel_of_fortune.payout"}
	if got := o.Rules(); !reflect.DeepEqual(got, want) {
		t.Errorf("findings %v, want %v%s", got, want, o)
	}
	if s := o.Settlement(t, "1", "green", "P1"); s.Expected != 3000 {
		t.Errorf("re-spun coup: %+v", s)
	}
}

// A stake over the limit that stands through a void draw (F004 L245-L246) and is restated for
// the next spin is one bet_limit finding, not one per coup.
func TestFortuneCarriedStakeLimitOnce(t *testing.T) {
	lim := `"limits":{"min":100,"max":10000}`
	o := run(t, journalOf("wheel_of_fortune", lim,
		coupStart, wheelSpin(2, "cw"), bet("white", "P1", 600), rnvp, result("white"), coupEnd,
		coupStart, wheelSpin(4, "ccw"), bet("white", "P1", 600), rnvp, result("white"),
		money("payout", "white", "P1", 30000), coupEnd))
	want := []string{"1:wheel_of_fortune.bet_limit", "1:wheel_of_fortune.min_turns"}
	if got := o.Rules(); !reflect.DeepEqual(got, want) {
		t.Errorf("findings %v, want %v%s", got, want, o)
	}
}
