package dice_test

import (
	"fmt"
	"testing"
)

// crapsWithPoint opens a craps table and, when point is not 0, sets it with a first throw.
func crapsWithPoint(rules map[string]any, point int, coups ...[]ev) []byte {
	first := []ev{}
	if point != 0 {
		a := point / 2
		b := point - a
		if a == b { // make the point the easy way so hard ways are not involved
			a, b = a-1, b+1
		}
		// P2 holds the line bets the odds go behind.
		first = coup("0", "P1", bet("pass", "P1", 1000), bet("pass", "P2", 1000), bet("dont_pass", "P2", 1000), closeBets(), throw(a, b))
	}
	return session("craps", rules, 100, 100000, append([][]ev{first}, coups...)...)
}

// TestCrapsPayouts resolves one stake on one throw for every chance of art. 6.3.
func TestCrapsPayouts(t *testing.T) {
	cases := []struct {
		spot  string
		stake int64
		point int
		dice  [2]int
		want  int64 // net; 0 with standing = no settlement
		none  bool
		rules map[string]any
	}{
		// A — simple chances (L357-L399).
		{spot: "pass", stake: 1000, dice: [2]int{5, 6}, want: 1000},
		{spot: "pass", stake: 1000, dice: [2]int{1, 2}, want: -1000},
		{spot: "pass", stake: 1000, dice: [2]int{6, 6}, want: -1000},
		{spot: "pass", stake: 1000, dice: [2]int{2, 2}, none: true},
		{spot: "pass", stake: 1000, point: 5, dice: [2]int{1, 4}, want: 1000},
		{spot: "pass", stake: 1000, point: 5, dice: [2]int{3, 4}, want: -1000},
		{spot: "pass", stake: 1000, point: 5, dice: [2]int{5, 6}, none: true},
		{spot: "dont_pass", stake: 1000, dice: [2]int{1, 1}, want: 1000},
		{spot: "dont_pass", stake: 1000, dice: [2]int{1, 2}, want: 1000},
		{spot: "dont_pass", stake: 1000, dice: [2]int{5, 6}, want: -1000},
		{spot: "dont_pass", stake: 1000, dice: [2]int{6, 6}, want: 0},
		{spot: "field", stake: 1000, dice: [2]int{1, 1}, want: 2000},
		{spot: "field", stake: 1000, dice: [2]int{6, 6}, want: 2000},
		{spot: "field", stake: 1000, dice: [2]int{1, 2}, want: 1000},
		{spot: "field", stake: 1000, dice: [2]int{4, 5}, want: 1000},
		{spot: "field", stake: 1000, dice: [2]int{2, 3}, want: -1000},
		{spot: "field", stake: 1000, dice: [2]int{2, 6}, want: -1000},
		{spot: "big6", stake: 1000, dice: [2]int{1, 5}, want: 1000},
		{spot: "big8", stake: 1000, dice: [2]int{4, 4}, want: 1000},
		{spot: "big8", stake: 1000, dice: [2]int{3, 4}, want: -1000},
		{spot: "big8", stake: 1000, dice: [2]int{3, 3}, none: true},
		// B — multiple chances, «mise comprise» 1°-7° (L403-L433).
		{spot: "hard:4", stake: 100, dice: [2]int{2, 2}, want: 700},
		{spot: "hard:10", stake: 100, dice: [2]int{5, 5}, want: 700},
		{spot: "hard:6", stake: 100, dice: [2]int{3, 3}, want: 900},
		{spot: "hard:8", stake: 100, dice: [2]int{4, 4}, want: 900},
		{spot: "hard:8", stake: 100, dice: [2]int{5, 3}, want: -100},
		{spot: "hard:8", stake: 100, dice: [2]int{5, 2}, want: -100},
		{spot: "hard:8", stake: 100, dice: [2]int{5, 4}, none: true},
		{spot: "any7", stake: 500, dice: [2]int{3, 4}, want: 2000},
		{spot: "any7", stake: 500, dice: [2]int{3, 3}, want: -500},
		{spot: "eleven", stake: 500, dice: [2]int{6, 5}, want: 7000},
		{spot: "any_craps", stake: 500, dice: [2]int{1, 2}, want: 3500},
		{spot: "any_craps", stake: 500, dice: [2]int{6, 6}, want: 3500},
		{spot: "craps:2", stake: 100, dice: [2]int{1, 1}, want: 2900},
		{spot: "craps:3", stake: 100, dice: [2]int{2, 1}, want: 1400},
		{spot: "craps:12", stake: 100, dice: [2]int{6, 6}, want: 2900},
		{spot: "craps:12", stake: 100, dice: [2]int{1, 1}, want: -100},
		// B — combined bets «mise non comprise» 8°-17° (L435-L457).
		{spot: "horn", stake: 400, dice: [2]int{6, 6}, want: 2600},
		{spot: "horn", stake: 400, dice: [2]int{1, 1}, want: 2600},
		{spot: "horn", stake: 400, dice: [2]int{1, 2}, want: 1100},
		{spot: "horn", stake: 400, dice: [2]int{5, 6}, want: 1100},
		{spot: "horn", stake: 400, dice: [2]int{3, 4}, want: -400},
		{spot: "seven_eleven", stake: 200, dice: [2]int{3, 4}, want: 300},
		{spot: "seven_eleven", stake: 200, dice: [2]int{5, 6}, want: 1300},
		{spot: "c_e", stake: 200, dice: [2]int{1, 1}, want: 600},
		{spot: "c_e", stake: 200, dice: [2]int{6, 5}, want: 1300},
		{spot: "c_e", stake: 200, dice: [2]int{3, 4}, want: -200},
		{spot: "three_way_craps", stake: 300, dice: [2]int{1, 2}, want: 1200},
		{spot: "three_way_craps", stake: 300, dice: [2]int{6, 6}, want: 2700},
		{spot: "high_low", stake: 200, dice: [2]int{1, 1}, want: 3000},
		{spot: "high_low", stake: 200, dice: [2]int{6, 6}, want: 2800, rules: map[string]any{"high_low_pays": 14}},
		{spot: "high_low", stake: 200, dice: [2]int{1, 2}, want: -200},
		{spot: "horn_high:11", stake: 500, dice: [2]int{1, 2}, want: 1000},
		{spot: "horn_high:11", stake: 500, dice: [2]int{5, 6}, want: 2500},
		{spot: "horn_high:3", stake: 500, dice: [2]int{5, 6}, want: 1000},
		{spot: "horn_high:3", stake: 500, dice: [2]int{2, 1}, want: 2500},
		{spot: "horn_high:12", stake: 500, dice: [2]int{6, 6}, want: 5500},
		{spot: "horn_high:12", stake: 500, dice: [2]int{1, 1}, want: 2500},
		{spot: "horn_high:2", stake: 500, dice: [2]int{1, 1}, want: 5500},
		{spot: "horn_high:2", stake: 500, dice: [2]int{6, 6}, want: 2500},
		{spot: "horn_high:2", stake: 500, dice: [2]int{3, 4}, want: -500},
		{spot: "world", stake: 500, dice: [2]int{3, 4}, want: 0},
		{spot: "world", stake: 500, dice: [2]int{5, 6}, want: 1000},
		{spot: "world", stake: 500, dice: [2]int{6, 6}, want: 2500},
		{spot: "world", stake: 500, dice: [2]int{4, 4}, want: -500},
		// C — odds (L459-L481).
		{spot: "odds:pass", stake: 1000, point: 4, dice: [2]int{1, 3}, want: 2000},
		{spot: "odds:pass", stake: 1000, point: 9, dice: [2]int{4, 5}, want: 1500},
		{spot: "odds:pass", stake: 1000, point: 8, dice: [2]int{2, 6}, want: 1200},
		{spot: "odds:pass", stake: 1000, point: 8, dice: [2]int{2, 5}, want: -1000},
		{spot: "odds:dont_pass", stake: 2000, point: 10, dice: [2]int{2, 5}, want: 1000},
		{spot: "odds:dont_pass", stake: 1500, point: 5, dice: [2]int{2, 5}, want: 1000},
		{spot: "odds:dont_pass", stake: 1200, point: 6, dice: [2]int{2, 5}, want: 1000},
		{spot: "odds:dont_pass", stake: 1200, point: 6, dice: [2]int{2, 4}, want: -1200},
		// D — place bets (L483-L487): off on the come-out.
		{spot: "place:6", stake: 600, point: 4, dice: [2]int{2, 4}, want: 700},
		{spot: "place:9", stake: 500, point: 4, dice: [2]int{3, 6}, want: 700},
		{spot: "place:10", stake: 500, point: 4, dice: [2]int{5, 5}, want: 900},
		{spot: "place:10", stake: 500, point: 4, dice: [2]int{5, 2}, want: -500},
		{spot: "place:6", stake: 600, dice: [2]int{2, 4}, none: true},
		{spot: "place:6", stake: 600, dice: [2]int{3, 4}, none: true},
		{spot: "place:6", stake: 600, dice: [2]int{3, 4}, want: -600, rules: map[string]any{"place_working_on_come_out": true}},
		// E, F — buy and lay (L489-L491).
		{spot: "buy:10", stake: 1000, point: 4, dice: [2]int{4, 6}, want: 2000},
		{spot: "buy:5", stake: 1000, point: 4, dice: [2]int{4, 1}, want: 1500},
		{spot: "buy:8", stake: 1000, point: 4, dice: [2]int{4, 4}, want: 1200},
		{spot: "buy:8", stake: 1000, dice: [2]int{4, 3}, want: -1000},
		{spot: "lay:4", stake: 2000, point: 10, dice: [2]int{4, 3}, want: 1000},
		{spot: "lay:9", stake: 1500, point: 10, dice: [2]int{4, 3}, want: 1000},
		{spot: "lay:6", stake: 1200, point: 10, dice: [2]int{4, 3}, want: 1000},
		{spot: "lay:6", stake: 1200, point: 10, dice: [2]int{1, 5}, want: -1200},
		// G — composants (L493).
		{spot: "hop:2-5", stake: 100, dice: [2]int{5, 2}, want: 1400},
		{spot: "hop:3-3", stake: 100, dice: [2]int{3, 3}, want: 2900},
		{spot: "hop:2-5", stake: 100, dice: [2]int{3, 4}, want: -100},
		{spot: "hop:1-1", stake: 100, dice: [2]int{1, 1}, want: 2900},
	}
	for _, c := range cases {
		name := fmt.Sprintf("%s_point%d_%d-%d", c.spot, c.point, c.dice[0], c.dice[1])
		t.Run(name, func(t *testing.T) {
			body := []ev{bet(c.spot, "P2", c.stake), closeBets(), throw(c.dice[0], c.dice[1])}
			if c.point == 0 {
				body = append([]ev{bet("pass", "P1", 1000)}, body...) // the shooter's line bet
			}
			data := crapsWithPoint(c.rules, c.point, coup("1", "P1", body...))
			check(t, replayJournal(t, data), c.spot, c.want, c.none)
		})
	}
}

func check(t *testing.T, o output, spot string, want int64, none bool) {
	t.Helper()
	got, ok := o.settlements["1 "+spot+" P2"]
	switch {
	case none && ok:
		t.Errorf("%s: want no decision, got a settlement of %d", spot, got)
	case !none && !ok:
		t.Errorf("%s: no settlement\n%s", spot, o.dump())
	case !none && got != want:
		t.Errorf("%s: expected %d, got %d", spot, want, got)
	}
	if len(o.findings) > 0 {
		t.Errorf("unexpected findings %q", o.findings)
	}
}

// TestCrapsLifecycle checks the bet rules of art. 6.3 reported as findings, and that a legal
// change raises none.
func TestCrapsLifecycle(t *testing.T) {
	point6 := coup("1", "P1", bet("pass", "P1", 1000), bet("dont_pass", "P2", 1000), closeBets(), throw(2, 4))
	cases := []struct {
		name     string
		coups    [][]ev
		settle   map[string]int64
		findings []string
	}{
		{"pass reduced with the point on", [][]ev{point6, coup("2", "P1", bet("pass", "P1", 500), closeBets(), throw(3, 3))},
			map[string]int64{"2 pass P1": 500}, []string{"2 craps.pass_line_locked pass P1"}},
		{"pass withdrawn with the point on", [][]ev{point6, coup("2", "P1", bet("pass", "P1", 0), bet("dont_pass", "P1", 500), closeBets(), throw(3, 5))},
			nil, []string{"2 craps.pass_line_locked pass P1", "2 craps.dont_pass_after_point dont_pass P1"}},
		{"pass corrected before its first throw", [][]ev{coup("1", "P1", bet("pass", "P1", 1000), bet("pass", "P1", 500), closeBets(), throw(5, 6))},
			map[string]int64{"1 pass P1": 500}, nil},
		{"pass raised and late pass entry allowed", [][]ev{point6, coup("2", "P1", bet("pass", "P1", 2000), bet("pass", "P3", 500), closeBets(), throw(3, 3))},
			map[string]int64{"2 pass P1": 2000, "2 pass P3": 500}, nil},
		{"don't pass raised", [][]ev{point6, coup("2", "P1", bet("dont_pass", "P2", 1500), closeBets(), throw(3, 4))},
			map[string]int64{"2 dont_pass P2": 1500}, []string{"2 craps.dont_raised dont_pass P2"}},
		{"don't pass reduced is allowed", [][]ev{point6, coup("2", "P1", bet("dont_pass", "P2", 500), closeBets(), throw(3, 4))},
			map[string]int64{"2 dont_pass P2": 500}, nil},
		{"come on the come-out", [][]ev{coup("1", "P1", bet("pass", "P1", 1000), bet("come", "P3", 500), closeBets(), throw(5, 6))},
			map[string]int64{"1 come P3": 500}, []string{"1 craps.come_needs_point come P3"}},
		{"don't come on the come-out", [][]ev{coup("1", "P1", bet("pass", "P1", 1000), bet("dont_come", "P3", 500), closeBets(), throw(1, 2))},
			map[string]int64{"1 dont_come P3": 500}, []string{"1 craps.come_needs_point dont_come P3"}},
		{"odds without the player's own pass", [][]ev{point6, coup("2", "P1", bet("odds:pass", "P3", 500), closeBets(), throw(3, 3))},
			map[string]int64{"2 odds:pass P3": 600}, []string{"2 craps.odds_without_flat odds:pass P3"}},
		{"pass odds on the come-out", [][]ev{coup("1", "P1", bet("pass", "P1", 1000), bet("odds:pass", "P1", 1000), closeBets(), throw(2, 2))},
			nil, []string{"1 craps.odds_without_flat odds:pass P1"}},
		{"come odds on the wrong number", [][]ev{point6,
			coup("2", "P1", bet("come", "P3", 500), closeBets(), throw(4, 5)),
			coup("3", "P1", bet("odds:come:8", "P3", 500), bet("odds:come:9", "P3", 500), closeBets(), throw(5, 4))},
			map[string]int64{"3 come P3": 500, "3 odds:come:9 P3": 750}, []string{"3 craps.odds_without_flat odds:come:8 P3"}},
		{"don't come travels, wins on 7 with its odds", [][]ev{point6,
			coup("2", "P1", bet("dont_come", "P3", 1000), closeBets(), throw(2, 2)),
			coup("3", "P1", bet("odds:dont_come:4", "P3", 1000), closeBets(), throw(1, 6))},
			map[string]int64{"3 dont_come P3": 1000, "3 odds:dont_come:4 P3": 500, "3 pass P1": -1000, "3 dont_pass P2": 1000}, nil},
		{"don't come pushes on 12 and stays", [][]ev{point6,
			coup("2", "P1", bet("dont_come", "P3", 1000), closeBets(), throw(6, 6)),
			coup("3", "P1", closeBets(), throw(5, 6))},
			map[string]int64{"2 dont_come P3": 0, "3 dont_come P3": -1000}, nil},
		{"don't come raised after a push", [][]ev{point6,
			coup("2", "P1", bet("dont_come", "P3", 1000), closeBets(), throw(6, 6)),
			coup("3", "P1", bet("dont_come", "P3", 2000), closeBets(), throw(1, 2))},
			map[string]int64{"3 dont_come P3": 2000}, []string{"3 craps.dont_raised dont_come P3"}},
		{"come odds off on the come-out after a point is made", [][]ev{point6,
			coup("2", "P1", bet("come", "P3", 500), closeBets(), throw(4, 4)),
			coup("3", "P1", bet("odds:come:8", "P3", 500), closeBets(), throw(3, 3)),
			coup("4", "P1", bet("pass", "P1", 1000), closeBets(), throw(3, 5), pay("odds:come:8", "P3", 600))},
			map[string]int64{"3 pass P1": 1000, "4 come P3": 500, "4 odds:come:8 P3": 0}, []string{"4 craps.payout odds:come:8 P3"}},
		{"come odds working on the come-out when asked", [][]ev{point6,
			coup("2", "P1", bet("come", "P3", 500), closeBets(), throw(4, 4)),
			coup("3", "P1", bet("odds:come:8", "P3", 500), closeBets(), throw(3, 3)),
			coup("4", "P1", bet("pass", "P1", 1000), act("P3", "working", "odds:come:8"), closeBets(), throw(3, 5))},
			map[string]int64{"4 come P3": 500, "4 odds:come:8 P3": 600}, nil},
		{"place bet off on the come-out: a payment on it is wrong", [][]ev{
			coup("1", "P1", bet("pass", "P1", 1000), bet("place:8", "P3", 600), closeBets(), throw(5, 6)),
			coup("2", "P1", bet("pass", "P1", 1000), closeBets(), throw(2, 6), pay("place:8", "P3", 700)),
			coup("3", "P1", closeBets(), throw(3, 5), pay("place:8", "P3", 700))},
			map[string]int64{"1 pass P1": 1000, "3 pass P1": 1000, "3 place:8 P3": 700}, []string{"2 craps.payout place:8 P3"}},
		{"place bet keeps working after a win", [][]ev{point6,
			coup("2", "P1", bet("place:8", "P3", 600), closeBets(), throw(2, 6)),
			coup("3", "P1", closeBets(), throw(3, 4))},
			map[string]int64{"2 place:8 P3": 700, "3 place:8 P3": -600}, nil},
		{"field is decided and leaves the layout", [][]ev{
			coup("1", "P1", bet("pass", "P1", 1000), bet("field", "P3", 500), closeBets(), throw(2, 2)),
			coup("2", "P1", closeBets(), throw(5, 5))},
			map[string]int64{"1 field P3": 500}, nil},
		{"stake taken down and handed back", [][]ev{point6,
			coup("2", "P1", bet("place:5", "P3", 500), closeBets(), throw(1, 1)),
			coup("3", "P1", bet("place:5", "P3", 0), refund("place:5", "P3", 500), closeBets(), throw(2, 3))},
			map[string]int64{"3 place:5 P3": 0}, nil},
		{"late bet is settled as placed", [][]ev{
			coup("1", "P1", bet("pass", "P1", 1000), closeBets(), bet("any7", "P2", 500), throw(3, 4), pay("any7", "P2", 2000))},
			map[string]int64{"1 any7 P2": 2000}, []string{"1 craps.late_bet any7 P2"}},
		{"limits", [][]ev{
			coup("1", "P1", bet("pass", "P1", 50), bet("field", "P2", 200000), closeBets(), throw(3, 4))},
			map[string]int64{"1 pass P1": 50, "1 field P2": -200000}, []string{"1 craps.bet_limit pass P1", "1 craps.bet_limit field P2"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := replayJournal(t, session("craps", nil, 100, 100000, c.coups...))
			o.want(t, c.settle, c.findings...)
		})
	}
}

// TestCrapsThrows checks "no dice", the shooter's bet, the passing of the dice and the
// commission.
func TestCrapsThrows(t *testing.T) {
	cases := []struct {
		name     string
		rules    map[string]any
		coups    [][]ev
		settle   map[string]int64
		findings []string
	}{
		{"no dice decides nothing; a payment on it is wrong", nil, [][]ev{
			coup("1", "P1", bet("pass", "P1", 1000), bet("field", "P2", 500), closeBets(), throw(6, 6, "off_table"), pay("field", "P2", 1000)),
			coup("2", "P1", closeBets(), throw(1, 1))},
			map[string]int64{"2 pass P1": -1000, "2 field P2": 1000},
			[]string{"1 craps.no_dice  P1", "1 craps.payout field P2"}},
		{"stakes handed back on no dice are not payments", nil, [][]ev{
			coup("1", "P1", bet("pass", "P1", 1000), bet("field", "P2", 500), closeBets(), throw(3, 4, "stacked"), refund("field", "P2", 500))},
			nil, []string{"1 craps.no_dice  P1"}},
		{"one die seen and no fault named is no dice", nil, [][]ev{
			coup("1", "P1", bet("pass", "P1", 1000), closeBets(), ev{"type": "dice", "values": []int{4}}),
			coup("2", "P1", closeBets(), throw(3, 4))},
			map[string]int64{"2 pass P1": 1000}, []string{"1 craps.no_dice  P1"}},
		{"no wall is not required by the text", nil, [][]ev{
			coup("1", "P1", bet("pass", "P1", 1000), closeBets(), throw(3, 4, "no_wall"))},
			map[string]int64{"1 pass P1": 1000}, nil},
		{"no wall when the house requires the wall", map[string]any{"wall_required": true}, [][]ev{
			coup("1", "P1", bet("pass", "P1", 1000), closeBets(), throw(3, 4, "no_wall"))},
			nil, []string{"1 craps.no_dice  P1"}},
		// AM 88-384 art. 6.2 (L345): the chef de table «peut retirer» the turn of a repeat
		// offender; that is his discretion, so by default each faulty throw is one finding.
		{"repeated violations are not a finding of their own", nil, [][]ev{
			coup("1", "P1", bet("pass", "P1", 1000), closeBets(), throw(3, 4, "slid")),
			coup("2", "P1", closeBets(), throw(3, 4, "rubbed", "held")),
			coup("3", "P1", closeBets(), throw(3, 4, "mirror")),
			coup("4", "P2", bet("pass", "P2", 1000), closeBets(), throw(3, 4))},
			map[string]int64{"4 pass P1": 1000, "4 pass P2": 1000},
			[]string{"1 craps.no_dice  P1", "2 craps.no_dice  P1", "3 craps.no_dice  P1"}},
		{"repeated violations reported when the house asks", map[string]any{"repeat_violations": 2}, [][]ev{
			coup("1", "P1", bet("pass", "P1", 1000), closeBets(), throw(3, 4, "slid")),
			coup("2", "P1", closeBets(), throw(3, 4, "rubbed", "held")),
			coup("3", "P1", closeBets(), throw(3, 4, "mirror"))},
			nil, []string{"1 craps.no_dice  P1", "2 craps.no_dice  P1", "2 craps.repeated_violations  P1", "3 craps.no_dice  P1"}},
		{"a repeat offender's turn may be withdrawn with the point on", nil, [][]ev{
			coup("1", "P1", bet("pass", "P1", 1000), bet("pass", "P2", 1000), closeBets(), throw(3, 5)),
			coup("2", "P1", closeBets(), throw(3, 4, "off_table")),
			coup("3", "P1", closeBets(), throw(3, 4, "in_tray")),
			coup("4", "P2", closeBets(), throw(4, 4))},
			map[string]int64{"4 pass P1": 1000, "4 pass P2": 1000},
			[]string{"2 craps.no_dice  P1", "3 craps.no_dice  P1"}},
		// L361 and L349: a shooter who takes his pass line down with the point on breaks the
		// pass line rule; that one breach is not reported again as a shooter without a bet.
		{"shooter taking his pass line down is one finding", nil, [][]ev{
			coup("1", "P1", bet("pass", "P1", 1000), closeBets(), throw(3, 5)),
			coup("2", "P1", bet("pass", "P1", 0), closeBets(), throw(2, 2)),
			coup("3", "P1", closeBets(), throw(4, 4)),
			coup("4", "P1", bet("field", "P1", 1000), closeBets(), throw(5, 6))},
			map[string]int64{"4 field P1": 1000},
			[]string{"2 craps.pass_line_locked pass P1", "4 craps.shooter_bet  P1"}},
		{"shooter without a line bet", nil, [][]ev{
			coup("1", "P1", bet("field", "P1", 1000), closeBets(), throw(3, 4))},
			map[string]int64{"1 field P1": -1000}, []string{"1 craps.shooter_bet  P1"}},
		{"shooter with only a don't pass", nil, [][]ev{
			coup("1", "P1", bet("dont_pass", "P1", 1000), closeBets(), throw(3, 4))},
			map[string]int64{"1 dont_pass P1": -1000}, nil},
		{"shooter keeps the dice after a seven-out", nil, [][]ev{
			coup("1", "P1", bet("pass", "P1", 1000), closeBets(), throw(3, 5)),
			coup("2", "P1", closeBets(), throw(3, 4)),
			coup("3", "P1", bet("pass", "P1", 1000), closeBets(), throw(5, 6))},
			map[string]int64{"2 pass P1": -1000, "3 pass P1": 1000}, []string{"3 craps.dice_pass  P1"}},
		{"dice change hands with the point on", nil, [][]ev{
			coup("1", "P1", bet("pass", "P1", 1000), bet("pass", "P2", 1000), closeBets(), throw(3, 5)),
			coup("2", "P2", closeBets(), throw(2, 6))},
			map[string]int64{"2 pass P1": 1000}, []string{"2 craps.dice_pass  P2"}},
		{"dice change hands after a seven-out and on a come-out", nil, [][]ev{
			coup("1", "P1", bet("pass", "P1", 1000), bet("pass", "P2", 1000), closeBets(), throw(3, 5)),
			coup("2", "P1", closeBets(), throw(3, 4)),
			coup("3", "P2", bet("pass", "P2", 1000), closeBets(), throw(5, 6)),
			coup("4", "P3", bet("pass", "P3", 1000), closeBets(), throw(5, 6))},
			nil, []string{"4 craps.dice_pass  P3"}},
		{"dice handed on after a come-out decision, allowed by the house", map[string]any{"dice_pass_on_come_out": true}, [][]ev{
			coup("1", "P1", bet("pass", "P1", 1000), bet("pass", "P2", 1000), closeBets(), throw(3, 5)),
			coup("2", "P1", closeBets(), throw(3, 4)),
			coup("3", "P2", bet("pass", "P2", 1000), closeBets(), throw(5, 6)),
			coup("4", "P3", bet("pass", "P3", 1000), closeBets(), throw(5, 6))},
			nil, nil},
		{"commission right", nil, [][]ev{
			coup("1", "P1", bet("pass", "P1", 1000), bet("buy:4", "P2", 2000), rake(100), bet("lay:5", "P3", 3000), rake(100), closeBets(), throw(5, 6))},
			nil, nil},
		{"commission over 5%", nil, [][]ev{
			coup("1", "P1", bet("pass", "P1", 1000), bet("lay:10", "P3", 4000), rake(200), closeBets(), throw(5, 6))},
			nil, []string{"1 craps.commission lay:10 P3"}},
		{"commission with no buy or lay", nil, [][]ev{
			coup("1", "P1", bet("pass", "P1", 1000), rake(100), closeBets(), throw(5, 6))},
			nil, []string{"1 craps.commission  "}},
		{"odd commission rounds either way", nil, [][]ev{
			coup("1", "P1", bet("pass", "P1", 1000), bet("buy:6", "P2", 2050), rake(103), closeBets(), throw(5, 6))},
			nil, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := replayJournal(t, session("craps", c.rules, 100, 100000, c.coups...))
			o.want(t, c.settle, c.findings...)
		})
	}
}
