package wheel_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/coupwatch/coupwatch/games"
	"github.com/coupwatch/coupwatch/games/wheel"
	"github.com/coupwatch/coupwatch/journal"
)

func TestSpotValidity(t *testing.T) {
	games := map[string]func() *games.Game{"eu": wheel.European, "us": wheel.American, "boule": wheel.Boule, "big": wheel.BigWheel, "wof": wheel.Fortune}
	tests := []struct {
		game, spot string
		ok         bool
	}{
		{"eu", "straight:0", true}, {"eu", "straight:36", true}, {"eu", "straight:37", false}, {"eu", "straight:00", false},
		{"eu", "straight:07", false}, {"eu", "split:8-11", true}, {"eu", "split:11-8", false}, {"eu", "split:1-3", false},
		{"eu", "split:3-4", false}, {"eu", "split:0-3", true}, {"eu", "split:0-4", false}, {"eu", "street:28-29-30", true},
		{"eu", "street:29-30-31", false}, {"eu", "street:0-1-2", true}, {"eu", "street:0-2-3", true}, {"eu", "street:0-1-3", false},
		{"eu", "corner:13-14-16-17", true}, {"eu", "corner:14-15-17-18", true}, {"eu", "corner:15-16-18-19", false},
		{"eu", "corner:0-1-2-3", true}, {"eu", "corner:33-34-36-37", false}, {"eu", "line:1-2-3-4-5-6", true},
		{"eu", "line:31-32-33-34-35-36", true}, {"eu", "line:2-3-4-5-6-7", false}, {"eu", "dozen:3", true}, {"eu", "dozen:4", false},
		{"eu", "column:1", true}, {"eu", "dozens:1-2", true}, {"eu", "dozens:2-3", true}, {"eu", "dozens:1-3", false},
		{"eu", "columns:2-3", true}, {"eu", "red", true}, {"eu", "basket:0-00-1-2-3", false}, {"eu", "number:5", false},
		{"eu", "split:8", false}, {"eu", "split:8-11-14", false}, {"eu", "split:8-", false},
		{"us", "straight:00", true}, {"us", "split:0-00", true}, {"us", "split:00-3", true}, {"us", "split:00-1", false},
		{"us", "street:0-00-2", true}, {"us", "street:00-2-3", true}, {"us", "basket:0-00-1-2-3", true}, {"us", "corner:0-1-2-3", false},
		{"us", "dozens:1-2", false}, {"us", "columns:1-2", false}, {"us", "straight:00-0", false},
		{"boule", "number:9", true}, {"boule", "number:0", false}, {"boule", "number:10", false}, {"boule", "red", true}, {"boule", "straight:5", false},
		{"big", "x20", true}, {"big", "joker_yellow", true}, {"big", "x3", false}, {"wof", "violet", true}, {"wof", "yellow", false},
	}
	for _, tt := range tests {
		g := games[tt.game]()
		err := g.Check(&journal.Event{Type: journal.TypeBet, Spot: tt.spot, Player: "P", Amount: 100})
		if (err == nil) != tt.ok {
			t.Errorf("%s %s: err = %v, want ok=%v", tt.game, tt.spot, err, tt.ok)
		}
	}
}

func TestResultValidity(t *testing.T) {
	tests := []struct {
		g     *games.Game
		value string
		ok    bool
	}{
		{wheel.European(), "0", true}, {wheel.European(), "36", true}, {wheel.European(), "00", false}, {wheel.European(), "37", false},
		{wheel.American(), "00", true}, {wheel.American(), "05", false}, {wheel.Boule(), "5", true}, {wheel.Boule(), "0", false},
		{wheel.BigWheel(), "joker_black", true}, {wheel.BigWheel(), "x3", false}, {wheel.Fortune(), "white", true}, {wheel.Fortune(), "x1", false},
	}
	for _, tt := range tests {
		err := tt.g.Check(&journal.Event{Type: journal.TypeResult, Value: tt.value})
		if (err == nil) != tt.ok {
			t.Errorf("%s result %s: err = %v", tt.g.ID, tt.value, err)
		}
	}
}

// TestEuropeanPayouts settles one stake of 1000 on every kind of spot against 17.
func TestEuropeanPayouts(t *testing.T) {
	tests := []struct {
		spot     string
		expected int64
		outcome  games.Outcome
	}{
		{"straight:17", 35000, games.Win}, {"split:14-17", 17000, games.Win}, {"street:16-17-18", 11000, games.Win},
		{"corner:13-14-16-17", 8000, games.Win}, {"line:13-14-15-16-17-18", 5000, games.Win}, {"dozen:2", 2000, games.Win},
		{"column:2", 2000, games.Win}, {"dozens:1-2", 500, games.Win}, {"columns:2-3", 500, games.Win}, {"black", 1000, games.Win},
		{"odd", 1000, games.Win}, {"low", 1000, games.Win}, {"red", -1000, games.Lose}, {"high", -1000, games.Lose},
		{"straight:0", -1000, games.Lose}, {"dozen:3", -1000, games.Lose},
	}
	for _, tt := range tests {
		o := run(t, journalOf("roulette_european", "", coup("cw", []string{bet(tt.spot, "P1", 1000)}, "17")...))
		s := o.Settlement(t, "1", tt.spot, "P1")
		if s.Expected != tt.expected || s.Outcome != tt.outcome || s.Stake != 1000 || s.HasObserved {
			t.Errorf("%s: got %s %d (observed %v), want %s %d", tt.spot, s.Outcome, s.Expected, s.HasObserved, tt.outcome, tt.expected)
		}
		if len(o.Findings) != 0 {
			t.Errorf("%s: unexpected findings %v", tt.spot, o)
		}
	}
}

func TestEuropeanZero(t *testing.T) {
	src := journalOf("roulette_european", "", join(
		coup("cw", []string{bet("red", "P1", 1001), bet("even", "P2", 3000), bet("odd", "P3", 2000), bet("split:0-3", "P4", 100), bet("dozen:1", "P5", 500), bet("corner:0-1-2-3", "P6", 100), bet("street:0-2-3", "P7", 100)}, "0",
			action("P1", "share", "red"), action("P2", "prison", "even"), money("collect", "red", "P1", 501), money("collect", "dozen:1", "P5", 500)),
		coup("ccw", []string{bet("straight:5", "P1", 500)}, "0", action("P2", "prison", "even")), // P3's odd was imprisoned by default
		coup("cw", []string{bet("black", "P1", 500)}, "4"),
	)...)
	o := run(t, src)
	checks := []struct {
		coup, spot, player string
		outcome            games.Outcome
		expected           int64
	}{
		{"1", "red", "P1", games.Half, -501}, // half of 10.01 handed back is 5.00, rounded down
		{"1", "even", "P2", games.Prison, 0},
		{"1", "odd", "P3", games.Prison, 0},
		{"1", "split:0-3", "P4", games.Win, 1700},
		{"1", "dozen:1", "P5", games.Lose, -500},
		{"1", "corner:0-1-2-3", "P6", games.Win, 800},
		{"1", "street:0-2-3", "P7", games.Win, 1100},
		{"2", "even", "P2", games.Prison, 0}, // second zero: in prison again
		{"2", "odd", "P3", games.Prison, 0},
		{"2", "straight:5", "P1", games.Lose, -500},
		{"3", "black", "P1", games.Win, 500},
		{"3", "even", "P2", games.Released, -1500}, // released after two zeros: worth half
		{"3", "odd", "P3", games.Lose, -2000},
	}
	for _, c := range checks {
		s := o.Settlement(t, c.coup, c.spot, c.player)
		if s.Outcome != c.outcome || s.Expected != c.expected {
			t.Errorf("coup %s %s %s: got %s %d, want %s %d", c.coup, c.spot, c.player, s.Outcome, s.Expected, c.outcome, c.expected)
		}
	}
	if len(o.Findings) != 0 {
		t.Errorf("unexpected findings: %v", o)
	}
}

func TestZeroChoiceOptions(t *testing.T) {
	// With prison_release full, a prisoner released after two zeros is worth its whole stake;
	// with zero_choice share, an unrecorded choice is a share.
	src := journalOf("roulette_european", `"rules":{"prison_release":"full","zero_choice":"share"}`, join(
		coup("cw", []string{bet("even", "P2", 3000)}, "0", action("P2", "prison", "even")),
		coup("ccw", []string{bet("red", "P1", 1000)}, "0", action("P2", "prison", "even")),
		coup("cw", nil, "4"),
	)...)
	o := run(t, src)
	if s := o.Settlement(t, "2", "red", "P1"); s.Outcome != games.Half || s.Expected != -500 {
		t.Errorf("default share: %s %d", s.Outcome, s.Expected)
	}
	if s := o.Settlement(t, "3", "even", "P2"); s.Outcome != games.Released || s.Expected != 0 {
		t.Errorf("full release: %s %d", s.Outcome, s.Expected)
	}
	// Share at the second zero hands back a quarter.
	src = journalOf("roulette_european", "", join(
		coup("cw", []string{bet("even", "P2", 4000)}, "0", action("P2", "prison", "even")),
		coup("ccw", nil, "0", action("P2", "share", "even"), money("collect", "even", "P2", 3000)),
	)...)
	o = run(t, src)
	if s := o.Settlement(t, "2", "even", "P2"); s.Outcome != games.Half || s.Expected != -3000 || s.Observed != -3000 {
		t.Errorf("share at second zero: %s %d observed %d", s.Outcome, s.Expected, s.Observed)
	}
	if len(o.Findings) != 0 {
		t.Errorf("unexpected findings: %v", o)
	}
}

func TestZeroChoiceInferredAndMisplaced(t *testing.T) {
	src := journalOf("roulette_european", "", join(
		// No choice recorded but exactly half collected: read as a share, not a wrong payout.
		coup("cw", []string{bet("red", "P1", 2000)}, "0", money("collect", "red", "P1", 1000)),
		// A choice when zero did not come is a procedure finding.
		coup("ccw", []string{bet("red", "P1", 2000)}, "5", action("P1", "share", "red")),
		// The whole even chance taken at zero is a wrong payout (it should be halved or imprisoned).
		coup("cw", []string{bet("red", "P3", 2000)}, "0", money("collect", "red", "P3", 2000)),
	)...)
	o := run(t, src)
	if s := o.Settlement(t, "1", "red", "P1"); s.Outcome != games.Half {
		t.Errorf("inferred share: %s", s.Outcome)
	}
	want := []string{"2:roulette.zero_choice", "3:roulette.payout"}
	if got := o.Rules(); !reflect.DeepEqual(got, want) {
		t.Errorf("findings %v, want %v%s", got, want, o)
	}
}

func TestAmericanZeros(t *testing.T) {
	for _, z := range []string{"0", "00"} {
		src := journalOf("roulette_american", "", coup("cw", []string{bet("red", "P1", 1000), bet("basket:0-00-1-2-3", "P2", 1000),
			bet("straight:"+z, "P3", 100), bet("split:0-00", "P4", 100), bet("dozen:1", "P5", 1000)}, z)...)
		o := run(t, src)
		for _, c := range []struct {
			spot string
			exp  int64
		}{{"red", -1000}, {"basket:0-00-1-2-3", 6000}, {"straight:" + z, 3500}, {"split:0-00", 1700}, {"dozen:1", -1000}} {
			player := map[string]string{"red": "P1", "basket:0-00-1-2-3": "P2", "split:0-00": "P4", "dozen:1": "P5"}[c.spot]
			if player == "" {
				player = "P3"
			}
			if s := o.Settlement(t, "1", c.spot, player); s.Expected != c.exp {
				t.Errorf("%s on %s: %d, want %d", c.spot, z, s.Expected, c.exp)
			}
		}
	}
}

func TestSpinChecks(t *testing.T) {
	src := journalOf("roulette_european", "", join(
		[]string{coupStart, bet("red", "P1", 1000), spin(9, "ccw", "cw"), rnvp, result("1"), coupEnd},
		[]string{coupStart, bet("red", "P1", 1000), spin(9, "ccw", "cw"), rnvp, result("1"), coupEnd}, // rotor not alternated
		[]string{coupStart, bet("red", "P1", 1000), spin(6, "cw", "ccw"), rnvp, result("1"), coupEnd}, // 6 revolutions
		[]string{coupStart, bet("red", "P1", 1000), spin(8, "cw", "cw"), rnvp, result("1"), coupEnd},  // ball with the rotor
	)...)
	o := run(t, src)
	want := []string{"2:roulette.rotor_alternation", "3:roulette.min_ball_revolutions", "4:roulette.ball_against_rotor"}
	if got := o.Rules(); !reflect.DeepEqual(got, want) {
		t.Errorf("findings %v, want %v", got, want)
	}
	for _, d := range o.Findings {
		if d.Kind != games.IrregularSpin || d.Spot != "" || len(d.Evidence.Lines) == 0 {
			t.Errorf("finding %+v", d)
		}
	}
	// Coups with an irregular spin are still settled.
	if len(o.Settlements) != 4 {
		t.Errorf("%d settlements", len(o.Settlements))
	}
	// American roulette has no rotor alternation rule; boule has no spin rule at all by default.
	src = journalOf("roulette_american", "", join(
		[]string{coupStart, spin(9, "ccw", "cw"), result("1"), coupEnd},
		[]string{coupStart, spin(9, "ccw", "cw"), result("1"), coupEnd},
	)...)
	if o := run(t, src); len(o.Findings) != 0 {
		t.Errorf("american: %v", o)
	}
	src = journalOf("boule", "", []string{coupStart, spin(3, "cw", "cw"), result("1"), coupEnd}...)
	if o := run(t, src); len(o.Findings) != 0 {
		t.Errorf("boule: %v", o)
	}
	src = journalOf("boule", `"rules":{"min_ball_revs":5}`, []string{coupStart, spin(3, "ccw", "cw"), result("1"), coupEnd}...)
	if o := run(t, src); !reflect.DeepEqual(o.Rules(), []string{"1:boule.min_ball_revolutions"}) {
		t.Errorf("boule with house minimum: %v", o.Rules())
	}
}

func TestLateBets(t *testing.T) {
	src := journalOf("roulette_european", "", []string{coupStart,
		bet("red", "P1", 1000), bet("black", "P2", 1000), bet("odd", "P4", 500), rnvp,
		bet("red", "P1", 1000),       // same amount restated: not a change
		bet("black", "P2", 2000),     // raised
		bet("straight:5", "P3", 100), // placed
		bet("odd", "P4", 0),          // withdrawn
		result("5"), bet("even", "P5", 100), coupEnd}...)
	o := run(t, src)
	var got []string
	for _, d := range o.Findings {
		if d.Kind != games.LateBet {
			t.Errorf("unexpected %v", d)
			continue
		}
		got = append(got, d.Spot+"/"+d.Player)
	}
	want := []string{"black/P2", "straight:5/P3", "odd/P4", "even/P5"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("late bets %v, want %v", got, want)
	}
	// Late stakes are settled as placed; a withdrawn stake is not settled.
	if s := o.Settlement(t, "1", "black", "P2"); s.Stake != 2000 || s.Expected != -2000 {
		t.Errorf("raised stake settled on %d: %d", s.Stake, s.Expected)
	}
	if s := o.Settlement(t, "1", "straight:5", "P3"); s.Expected != 3500 {
		t.Errorf("late straight: %d", s.Expected)
	}
	for _, s := range o.Settlements {
		if s.Spot == "odd" {
			t.Errorf("withdrawn stake settled: %+v", s)
		}
	}
}

func TestLimits(t *testing.T) {
	src := journalOf("roulette_european", `"limits":{"min":200,"max":50000,"spots":{"straight":{"max":2500}}}`, []string{coupStart,
		bet("red", "P1", 100), bet("black", "P2", 60000), bet("straight:4", "P3", 3000), bet("straight:5", "P3", 2500),
		bet("even", "P4", 60000), bet("even", "P4", 50000), // lowered before the cut-off: fine
		rnvp, result("5"), coupEnd}...)
	o := run(t, src)
	var got []string
	for _, d := range o.Findings {
		got = append(got, d.Rule+" "+d.Spot+"/"+d.Player)
	}
	want := []string{"roulette.bet_limit red/P1", "roulette.bet_limit black/P2", "roulette.bet_limit straight:4/P3"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestPaymentOrder(t *testing.T) {
	// European (L574): columns/dozens, even chances, streets, corners, splits, straights —
	// across the table, by default.
	ok := journalOf("roulette_european", "", coup("cw", []string{bet("straight:17", "P1", 100), bet("black", "P2", 100), bet("dozen:2", "P3", 100), bet("red", "P4", 100)}, "17",
		money("collect", "red", "P4", 100), money("payout", "dozen:2", "P3", 200), money("payout", "black", "P2", 100), money("payout", "straight:17", "P1", 3500))...)
	if o := run(t, ok); len(o.Findings) != 0 {
		t.Errorf("ordered payments flagged: %v", o)
	}
	bad := journalOf("roulette_european", `"rules":{"payment_order":"global"}`, coup("cw", []string{bet("straight:17", "P1", 100), bet("black", "P2", 100)}, "17",
		money("payout", "straight:17", "P1", 3500), money("payout", "black", "P2", 100))...)
	if o := run(t, bad); !reflect.DeepEqual(o.Rules(), []string{"1:roulette.payment_order"}) {
		t.Errorf("straight before black: %v", o.Rules())
	}
	if o := run(t, strings.Replace(bad, `"payment_order":"global"`, `"payment_order":"per_player"`, 1)); len(o.Findings) != 0 {
		t.Errorf("per player, different players: %v", o)
	}
	// A house whose two croupiers pay at once (art. 8.3, L564) turns the check off.
	if o := run(t, strings.Replace(bad, `"payment_order":"global"`, `"payment_order":"off"`, 1)); len(o.Findings) != 0 {
		t.Errorf("off: %v", o)
	}
	if o := run(t, strings.Replace(bad, `"rules":{"payment_order":"global"}`, `"rules":{}`, 1)); !reflect.DeepEqual(o.Rules(), []string{"1:roulette.payment_order"}) {
		t.Errorf("default, straight before black: %v", o.Rules())
	}
	// American: per player; losers collected first.
	us := journalOf("roulette_american", "", coup("cw", []string{bet("straight:17", "P1", 100), bet("black", "P1", 100), bet("column:2", "P2", 100), bet("red", "P3", 100)}, "17",
		money("payout", "straight:17", "P1", 3500), money("payout", "black", "P1", 100), money("payout", "column:2", "P2", 200), money("collect", "red", "P3", 100))...)
	if o := run(t, us); !reflect.DeepEqual(o.Rules(), []string{"1:roulette.collect_before_pay", "1:roulette.payment_order"}) {
		t.Errorf("american order: %v", o)
	}
}

func TestWrongPayouts(t *testing.T) {
	src := journalOf("roulette_european", "", coup("cw", []string{bet("straight:17", "P1", 100), bet("black", "P2", 1000), bet("red", "P3", 1000), bet("even", "P4", 1000)}, "17",
		money("collect", "red", "P3", 1000), money("payout", "even", "P4", 1000), // a loser paid
		money("payout", "black", "P2", 900),        // underpaid
		money("payout", "split:1-2", "P9", 500),    // nothing to settle there
		money("payout", "straight:17", "P1", 3600), // overpaid
	)...)
	o := run(t, src)
	got := map[string][2]int64{}
	for _, d := range o.Findings {
		if d.Kind != games.WrongPayout {
			t.Errorf("unexpected %v", d)
		}
		got[d.Spot] = [2]int64{d.Expected.Amount(), d.Observed.Amount()}
		if (d.Spot == "straight:17" || d.Spot == "even" || d.Spot == "split:1-2") != (d.Severity == games.Critical) {
			t.Errorf("%s severity %s", d.Spot, d.Severity)
		}
	}
	want := map[string][2]int64{"even": {-1000, 1000}, "black": {1000, 900}, "straight:17": {3500, 3600}, "split:1-2": {0, 500}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("wrong payouts %v, want %v", got, want)
	}
}

func TestRoundingOption(t *testing.T) {
	tests := []struct {
		rules string
		want  int64
	}{
		{"", 500}, {`"rules":{"rounding":"nearest"}`, 501}, {`"rules":{"rounding":"up"}`, 501},
		{`"rules":{"rounding":{"unit":100,"mode":"down"}}`, 500}, {`"rules":{"rounding":100}`, 500},
	}
	for _, tt := range tests {
		o := run(t, journalOf("roulette_european", tt.rules, coup("cw", []string{bet("dozens:1-2", "P1", 1001)}, "3")...))
		if s := o.Settlement(t, "1", "dozens:1-2", "P1"); s.Expected != tt.want {
			t.Errorf("%s: %d, want %d", tt.rules, s.Expected, tt.want)
		}
	}
}

func TestInvalidInput(t *testing.T) {
	tests := []struct {
		src, want string
	}{
		{journalOf("roulette_european", `"rules":{"decks":6}`), `t.jsonl:1: roulette_european: rules.decks: unknown option for roulette_european`},
		{journalOf("roulette_european", `"rules":{"zero_choice":"keep"}`), `rules.zero_choice: must be one of prison, share`},
		{journalOf("roulette_european", `"rules":{"rounding":{"unit":0}}`), `rules.rounding.unit`},
		{journalOf("roulette_european", "", coupStart, bet("straight:37", "P1", 100)), `t.jsonl:3: roulette_european: spot "straight:37" cannot exist`},
		{journalOf("roulette_european", "", coupStart, bet("straight:00", "P1", 100)), `t.jsonl:3: roulette_european: spot "straight:00"`},
		{journalOf("roulette_european", "", coupStart, result("00")), `t.jsonl:3: roulette_european: result "00"`},
		{journalOf("baccarat", ""), `t.jsonl:1: unknown game "baccarat"`},
		{journalOf("boule", "", `"type":"card","to":"dealer","card":"AS"`), `card events do not belong`},
		{journalOf("wheel_of_fortune", `"rules":{"colour_max":{"pink":3}}`), `rules.colour_max.pink: unknown colour`},
	}
	for _, tt := range tests {
		_, err := tryRun(t, tt.src)
		if err == nil || !strings.Contains(err.Error(), tt.want) || !journal.IsInvalid(err) {
			t.Errorf("error %v, want %q", err, tt.want)
		}
	}
	// Events before any table_open.
	_, err := tryRun(t, `{"t":"2026-11-22T21:00:00Z","table":"T-1","type":"bet","spot":"red","player":"P1","amount":100}`+"\n")
	if err == nil || !strings.Contains(err.Error(), "before any table_open") {
		t.Errorf("bet before table_open: %v", err)
	}
}

func TestCoupNumberingAndSummary(t *testing.T) {
	src := journalOf("roulette_european", "", `"type":"dealer","dealer":"D-1"`, coupStart, bet("red", "P1", 100), result("1"), coupEnd,
		`"type":"coup_start","coup":"A7"`, result("2"), `"type":"dealer","dealer":"D-2"`, coupEnd,
		bet("red", "P1", 100), result("3")) // an implicit coup, closed at the end of the journal
	o := run(t, src)
	var ids, dealers, results []string
	for _, c := range o.Coups {
		ids = append(ids, c.Coup)
		dealers = append(dealers, c.Dealer)
		results = append(results, c.Result)
	}
	if !reflect.DeepEqual(ids, []string{"1", "A7", "3"}) || !reflect.DeepEqual(dealers, []string{"D-1", "D-1", "D-2"}) || !reflect.DeepEqual(results, []string{"1", "2", "3"}) {
		t.Errorf("coups %v dealers %v results %v", ids, dealers, results)
	}
}

// AM 88-384 art. 8.1 (L527): when an object falls into the cylinder the croupier stops the game
// and launches the ball again in the same coup; the relaunch is not a new spin of the cylinder,
// so only the coup's first spin is compared with the previous coup.
func TestRelaunchInTheSameCoup(t *testing.T) {
	src := journalOf("roulette_european", "", join(
		[]string{coupStart, bet("red", "P1", 1000), spin(9, "cw", "ccw"), rnvp, result("1"), coupEnd},
		[]string{coupStart, bet("red", "P1", 1000), spin(9, "ccw", "cw"), rnvp, spin(10, "ccw", "cw"), result("3"), coupEnd},
		[]string{coupStart, bet("red", "P1", 1000), spin(9, "cw", "ccw"), rnvp, result("5"), coupEnd},
		[]string{coupStart, bet("red", "P1", 1000), spin(9, "cw", "ccw"), rnvp, result("7"), coupEnd}, // not alternated
	)...)
	o := run(t, src)
	if got, want := o.Rules(), []string{"4:roulette.rotor_alternation"}; !reflect.DeepEqual(got, want) {
		t.Errorf("findings %v, want %v", got, want)
	}
}

// Order checks judge the payments due: a loser paid or a winner collected is a wrong payout,
// reported once, not also a payment or collection out of order (AM 88-384 art. 4.2, L166-L168).
func TestOrderIgnoresWrongPayments(t *testing.T) {
	src := journalOf("roulette_american", "", join(
		// P2's losing red is paid before P1's column: a wrong payout only.
		[]string{coupStart, bet("column:1", "P1", 1000), bet("red", "P2", 1000), spin(9, "ccw", "cw"), rnvp, result("4"),
			money("payout", "red", "P2", 1000), money("payout", "column:1", "P1", 2000), coupEnd},
		// P2's winning black is collected after P1 is paid: a wrong payout only.
		[]string{coupStart, bet("column:1", "P1", 1000), bet("black", "P2", 1000), spin(9, "ccw", "cw"), rnvp, result("4"),
			money("payout", "column:1", "P1", 2000), money("collect", "black", "P2", 1000), coupEnd},
	)...)
	o := run(t, src)
	if got, want := o.Rules(), []string{"1:roulette.payout", "2:roulette.payout"}; !reflect.DeepEqual(got, want) {
		t.Errorf("findings %v, want %v%s", got, want, o)
	}
}
