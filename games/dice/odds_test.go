package dice_test

import (
	"math/big"
	"testing"

	"github.com/coupwatch/coupwatch/games/dice"
)

func rat(s string) *big.Rat {
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		panic("bad rational " + s)
	}
	return r
}

// TestLineOdds enumerates the dice through the engine's pass line and don't pass resolution:
// the pass line wins 244/495 of the time, and don't pass (12 barred) gives the house 3/220.
func TestLineOdds(t *testing.T) {
	o := dice.ComputeLineOdds()
	checks := []struct {
		name      string
		got, want *big.Rat
	}{
		{"pass wins", o.PassWin, rat("244/495")},
		{"pass loses", o.PassLose, rat("251/495")},
		{"pass edge", o.PassEdge(), rat("7/495")},
		{"don't pass wins", o.DontWin, rat("949/1980")},
		{"don't pass loses", o.DontLose, rat("976/1980")},
		{"don't pass pushes on 12", o.DontPush, rat("1/36")},
		{"don't pass edge", o.DontEdge(), rat("3/220")},
	}
	for _, c := range checks {
		if c.got.Cmp(c.want) != 0 {
			t.Errorf("%s: got %s, want %s", c.name, c.got.RatString(), c.want.RatString())
		}
	}
	total := new(big.Rat).Add(o.DontWin, o.DontLose)
	total.Add(total, o.DontPush)
	if total.Cmp(big.NewRat(1, 1)) != 0 || new(big.Rat).Add(o.PassWin, o.PassLose).Cmp(big.NewRat(1, 1)) != 0 {
		t.Errorf("the outcomes do not add up to 1")
	}
}

// TestExpectations checks the player's exact expectation of each bet, through the engine's own
// pay tables, against the figures derived by hand in docs/games/dice.md.
func TestExpectations(t *testing.T) {
	cases := []struct {
		spot    string
		point   int
		highLow int64
		want    string
	}{
		{"pass", 0, 15, "-7/495"},
		{"dont_pass", 0, 15, "-3/220"},
		{"come", 6, 15, "-7/495"},
		{"field", 0, 15, "-1/18"},
		{"any7", 0, 15, "-1/6"},
		{"eleven", 0, 15, "-1/6"},
		{"any_craps", 0, 15, "-1/9"},
		{"craps:2", 0, 15, "-1/6"},
		{"craps:3", 0, 15, "-1/6"},
		{"craps:12", 0, 15, "-1/6"},
		{"horn", 0, 15, "-1/6"},
		{"seven_eleven", 0, 15, "-1/6"},
		{"c_e", 0, 15, "-5/36"},
		{"three_way_craps", 0, 15, "-1/6"},
		{"high_low", 0, 15, "-1/9"},
		{"high_low", 0, 14, "-1/6"},
		{"horn_high:11", 0, 15, "-1/6"},
		{"horn_high:2", 0, 15, "-1/6"},
		{"world", 0, 15, "-1/6"},
		{"hop:1-2", 0, 15, "-1/6"},
		{"hop:3-3", 0, 15, "-1/6"},
		{"big6", 0, 15, "-1/11"},
		{"hard:4", 0, 15, "-1/9"},
		{"hard:6", 0, 15, "-1/11"},
		{"place:6", 0, 15, "-1/66"},
		{"place:5", 0, 15, "-1/25"},
		{"place:4", 0, 15, "-1/15"},
		{"buy:4", 0, 15, "0"},
		{"lay:10", 0, 15, "0"},
		{"odds:pass", 5, 15, "0"},
		{"odds:dont_pass", 8, 15, "0"},
		{"odds:come:9", 0, 15, "0"},
	}
	for _, c := range cases {
		got, err := dice.Expectation(c.spot, c.point, c.highLow)
		if err != nil {
			t.Errorf("%s: %v", c.spot, err)
			continue
		}
		if got.Cmp(rat(c.want)) != 0 {
			t.Errorf("%s (point %d, high-low %d): expectation %s, want %s", c.spot, c.point, c.highLow, got.RatString(), c.want)
		}
	}
	if _, err := dice.Expectation("odds:pass", 0, 15); err == nil {
		t.Error("pass odds without a point must be refused")
	}
	if _, err := dice.Expectation("lay:7", 0, 15); err == nil {
		t.Error("lay:7 is not a spot")
	}
}
