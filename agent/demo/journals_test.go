package demo_test

import (
	"bytes"
	"flag"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coupwatch/coupwatch/agent/demo"
	"github.com/coupwatch/coupwatch/games"
	"github.com/coupwatch/coupwatch/games/catalog"
	"github.com/coupwatch/coupwatch/games/replay"
	"github.com/coupwatch/coupwatch/journal"
)

var update = flag.Bool("update", false, "regenerate the demo journals")

// seeded lists, per game, the findings each demo journal is written to contain:
// "coup kind rule". Nothing else may be found: a clean coup must stay clean.
var seeded = map[string][]string{
	"roulette_european": {
		"2 wrong_payout roulette.payout",
		"4 late_bet roulette.late_bet",
		"6 irregular_spin roulette.min_ball_revolutions",
		"8 irregular_spin roulette.rotor_alternation",
		"9 bet_limit roulette.bet_limit",
	},
	"roulette_american": {
		"3 wrong_payout roulette.payout",
		"5 irregular_spin roulette.ball_against_rotor",
		"7 late_bet roulette.late_bet",
	},
	"big_wheel": {
		"2 wrong_payout big_wheel.payout",
		"5 irregular_spin big_wheel.min_turns",
		"7 late_bet big_wheel.late_bet",
	},
	"craps": {
		"3 wrong_payout craps.payout",
		"6 irregular_throw craps.no_dice",
		"8 late_bet craps.late_bet",
	},
	"wheel_of_fortune": {
		"3 wrong_payout wheel_of_fortune.payout",
		"6 irregular_spin wheel_of_fortune.direction_alternation",
		"8 late_bet wheel_of_fortune.late_bet",
	},
}

// TestJournals checks that the embedded journals are the generator's output and that each
// raises exactly its seeded findings.
func TestJournals(t *testing.T) {
	cat, err := catalog.New()
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range demo.Journals() {
		t.Run(j.Game, func(t *testing.T) {
			want := generate(t, j)
			path := filepath.Join(filepath.FromSlash(j.File))
			if *update {
				if err := os.WriteFile(path, want, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			got, err := fs.ReadFile(demo.FS(), j.File)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("%s is not the generator's output: run go test ./agent/demo -update", j.File)
			}
			var found []string
			err = replay.Run(cat, []replay.Source{{Name: j.File, R: bytes.NewReader(got)}}, replay.Options{}, func(r games.Record) {
				switch r := r.(type) {
				case *games.Discrepancy:
					found = append(found, r.Coup+" "+string(r.Kind)+" "+r.Rule)
				case *games.CoupSummary:
					if r.Table != j.Table || r.Game != j.Game {
						t.Errorf("coup %s at %s (%s), want %s (%s)", r.Coup, r.Table, r.Game, j.Table, j.Game)
					}
				}
			})
			if err != nil {
				t.Fatal(err)
			}
			sort.Strings(found)
			exp := slices.Clone(seeded[j.Game])
			sort.Strings(exp)
			if strings.Join(found, "\n") != strings.Join(exp, "\n") {
				t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(found, "\n"), strings.Join(exp, "\n"))
			}
		})
	}
}

// gen writes one journal.
type gen struct {
	t     *testing.T
	table string
	now   time.Time
	buf   bytes.Buffer
	w     *journal.Writer
	rnd   *rand.Rand
}

func (g *gen) at(d time.Duration) time.Time { g.now = g.now.Add(d); return g.now }

func (g *gen) emit(ev journal.Event) {
	ev.Table = g.table
	if ev.T.IsZero() {
		ev.T = g.at(time.Duration(800+g.rnd.IntN(1600)) * time.Millisecond)
	}
	if err := g.w.Write(&ev); err != nil {
		g.t.Fatal(err)
	}
}

func (g *gen) frame(cam string) string {
	return fmt.Sprintf("%s:%06d", cam, g.now.Sub(time.Date(2026, 12, 5, 20, 0, 0, 0, time.UTC)).Milliseconds()/40)
}

type stake struct {
	spot, player string
	amount       int64
}

func generate(t *testing.T, j demo.Journal) []byte {
	g := &gen{t: t, table: j.Table, now: time.Date(2026, 12, 5, 20, 0, 0, 0, time.UTC)}
	g.w = journal.NewWriter(&g.buf)
	seed := uint64(0)
	for _, c := range j.Game {
		seed = seed*31 + uint64(c)
	}
	g.rnd = rand.New(rand.NewPCG(seed, 2026))
	switch j.Game {
	case "roulette_european", "roulette_american":
		g.roulette(j.Game)
	case "big_wheel":
		g.bigWheel()
	case "wheel_of_fortune":
		g.fortune()
	case "craps":
		g.craps()
	default:
		t.Fatalf("no generator for %s", j.Game)
	}
	if err := g.w.Flush(); err != nil {
		t.Fatal(err)
	}
	return g.buf.Bytes()
}

func (g *gen) open(game string, min, max int64, dealer string) {
	g.emit(journal.Event{Type: journal.TypeNote, Src: "operator", Text: "demo journal: " + game + " with seeded errors (see agent/demo)"})
	g.emit(journal.Event{Type: journal.TypeTableOpen, Src: "operator", Game: game, HasLimits: true, Limits: journal.Limits{Min: min, Max: max}})
	g.emit(journal.Event{Type: journal.TypeDealer, Src: "operator", Dealer: dealer})
}

func (g *gen) pick(s []string) string { return s[g.rnd.IntN(len(s))] }

// rouletteSpot returns a random spot and its net payout ratio for a result range.
func (g *gen) rouletteSpot() (string, int64) {
	n := 1 + g.rnd.IntN(33)
	switch g.rnd.IntN(6) {
	case 0:
		return "straight:" + strconv.Itoa(n), 35
	case 1:
		return g.pick([]string{"red", "black", "even", "odd", "low", "high"}), 1
	case 2:
		return "dozen:" + strconv.Itoa(1+g.rnd.IntN(3)), 2
	case 3:
		return "column:" + strconv.Itoa(1+g.rnd.IntN(3)), 2
	case 4:
		// a corner on the layout: n, n+1, n+3, n+4 with n not in the right column
		c := 1 + 3*g.rnd.IntN(11) + g.rnd.IntN(2)
		return fmt.Sprintf("corner:%d-%d-%d-%d", c, c+1, c+3, c+4), 8
	}
	s := 1 + 3*g.rnd.IntN(11) + g.rnd.IntN(2)
	return fmt.Sprintf("split:%d-%d", s, s+1), 17
}

var reds = map[int]bool{1: true, 3: true, 5: true, 7: true, 9: true, 12: true, 14: true, 16: true, 18: true, 19: true, 21: true, 23: true, 25: true, 27: true, 30: true, 32: true, 34: true, 36: true}

func rouletteWins(spot string, n int) bool {
	kind, rest, _ := strings.Cut(spot, ":")
	switch kind {
	case "straight", "split", "corner":
		for _, x := range strings.Split(rest, "-") {
			if v, _ := strconv.Atoi(x); v == n {
				return true
			}
		}
		return false
	case "red":
		return reds[n]
	case "black":
		return !reds[n]
	case "even":
		return n%2 == 0
	case "odd":
		return n%2 == 1
	case "low":
		return n <= 18
	case "high":
		return n >= 19
	case "dozen":
		k, _ := strconv.Atoi(rest)
		return (n-1)/12+1 == k
	case "column":
		k, _ := strconv.Atoi(rest)
		return (n-1)%3+1 == k
	}
	panic(spot)
}

// europeanRank and americanRank mirror the regulations' order of payments.
func europeanRank(spot string) int {
	switch kind, _, _ := strings.Cut(spot, ":"); kind {
	case "column", "dozen":
		return 0
	case "red", "black", "odd", "even", "high", "low":
		return 1
	case "corner":
		return 3
	case "split":
		return 4
	}
	return 5
}

func americanRank(spot string) int {
	order := []string{"column", "high", "odd", "black", "red", "even", "low", "dozen", "street", "basket", "corner", "split", "straight"}
	kind, _, _ := strings.Cut(spot, ":")
	return slices.Index(order, kind)
}

func (g *gen) roulette(game string) {
	european := game == "roulette_european"
	g.open(game, 100, 50000, "D-3101")
	rotor := "cw"
	for coup := 1; coup <= 10; coup++ {
		g.at(20 * time.Second)
		g.emit(journal.Event{Type: journal.TypeCoupStart, Src: "dealer", Coup: strconv.Itoa(coup)})
		var stakes []stake
		ratio := map[string]int64{}
		for p := 1; p <= 3+g.rnd.IntN(3); p++ {
			spot, r := g.rouletteSpot()
			player := "P" + strconv.Itoa(p)
			amount := int64(100 * (1 + g.rnd.IntN(20)))
			if european && coup == 9 && p == 1 {
				amount = 60000 // over the table maximum of 500.00
			}
			stakes = append(stakes, stake{spot, player, amount})
			ratio[spot+"/"+player] = r
			g.emit(journal.Event{Type: journal.TypeBet, Src: "vision", Conf: 0.97, HasConf: true, Frame: g.frame("cam1"), Spot: spot, Player: player, Amount: amount, HasAmount: true})
		}
		if european {
			if coup != 8 { // coup 8: the rotor turns the same way again
				rotor = map[string]string{"cw": "ccw", "ccw": "cw"}[rotor]
			}
		}
		ball := map[string]string{"cw": "ccw", "ccw": "cw"}[rotor]
		if !european && coup == 5 {
			ball = rotor // launched the same way as the rotor
		}
		revs := float64(8 + g.rnd.IntN(6))
		if european && coup == 6 {
			revs = 5
		}
		g.emit(journal.Event{Type: journal.TypeSpin, Src: "vision", Frame: g.frame("cam2"), BallRevs: revs, HasBallRevs: true, BallDir: ball, RotorDir: rotor})
		g.emit(journal.Event{Type: journal.TypeNoMoreBets, Src: "dealer", Cause: "announce"})
		if european && coup == 4 {
			// P1 raises the stake after "rien ne va plus".
			stakes[0].amount += 500
			s := stakes[0]
			g.emit(journal.Event{Type: journal.TypeBet, Src: "vision", Frame: g.frame("cam1"), Spot: s.spot, Player: s.player, Amount: s.amount, HasAmount: true})
		}
		if !european && coup == 7 {
			spot, r := "straight:17", int64(35)
			stakes = append(stakes, stake{spot, "P9", 500})
			ratio[spot+"/P9"] = r
			g.emit(journal.Event{Type: journal.TypeBet, Src: "vision", Frame: g.frame("cam1"), Spot: spot, Player: "P9", Amount: 500, HasAmount: true})
		}
		n := 1 + g.rnd.IntN(36)
		g.at(8 * time.Second)
		g.emit(journal.Event{Type: journal.TypeResult, Src: "vision", Conf: 0.99, HasConf: true, Frame: g.frame("cam2"), Value: strconv.Itoa(n)})
		var winners []stake
		for _, s := range stakes {
			if rouletteWins(s.spot, n) {
				winners = append(winners, s)
				continue
			}
			g.emit(journal.Event{Type: journal.TypeCollect, Src: "vision", Spot: s.spot, Player: s.player, Amount: s.amount, HasAmount: true})
		}
		rank := europeanRank
		if !european {
			rank = americanRank
		}
		sort.SliceStable(winners, func(a, b int) bool {
			if !european && winners[a].player != winners[b].player {
				return winners[a].player < winners[b].player
			}
			return rank(winners[a].spot) < rank(winners[b].spot)
		})
		wrongDone := false
		for _, s := range winners {
			pay := s.amount * ratio[s.spot+"/"+s.player]
			if ((european && coup == 2) || (!european && coup == 3)) && !wrongDone {
				pay -= s.amount / 2 // underpaid by half the stake
				wrongDone = true
			}
			g.emit(journal.Event{Type: journal.TypePayout, Src: "vision", Frame: g.frame("cam1"), Spot: s.spot, Player: s.player, Amount: pay, HasAmount: true})
		}
		if ((european && coup == 2) || (!european && coup == 3)) && !wrongDone {
			g.t.Fatalf("%s coup %d: no winner to underpay (change the seed)", game, coup)
		}
		g.emit(journal.Event{Type: journal.TypeCoupEnd, Src: "dealer"})
	}
}

type segment struct {
	name   string
	weight int
	pays   int64
}

func (g *gen) segment(segs []segment) segment {
	total := 0
	for _, s := range segs {
		total += s.weight
	}
	r := g.rnd.IntN(total)
	for _, s := range segs {
		if r < s.weight {
			return s
		}
		r -= s.weight
	}
	return segs[0]
}

func (g *gen) bigWheel() {
	segs := []segment{{"x1", 24, 1}, {"x2", 15, 2}, {"x5", 7, 5}, {"x10", 4, 10}, {"x20", 2, 20}, {"joker_black", 1, 40}, {"joker_yellow", 1, 40}}
	g.open("big_wheel", 100, 20000, "D-3301")
	for coup := 1; coup <= 8; coup++ {
		g.at(20 * time.Second)
		g.emit(journal.Event{Type: journal.TypeCoupStart, Src: "dealer", Coup: strconv.Itoa(coup)})
		var stakes []stake
		pays := map[string]int64{}
		for p := 1; p <= 3+g.rnd.IntN(2); p++ {
			s := segs[g.rnd.IntN(len(segs))]
			if coup == 2 && p == 1 {
				s = segs[2] // x5, the result of coup 2
			}
			st := stake{s.name, "P" + strconv.Itoa(p), int64(100 * (1 + g.rnd.IntN(10)))}
			stakes = append(stakes, st)
			pays[st.spot] = s.pays
			g.emit(journal.Event{Type: journal.TypeBet, Src: "vision", Frame: g.frame("cam1"), Spot: st.spot, Player: st.player, Amount: st.amount, HasAmount: true})
		}
		g.emit(journal.Event{Type: journal.TypeNoMoreBets, Src: "dealer", Cause: "wheel_spin"})
		revs := float64(4 + g.rnd.IntN(4))
		if coup == 5 {
			revs = 2 // under the three turns the regulation requires
		}
		g.emit(journal.Event{Type: journal.TypeSpin, Src: "vision", Frame: g.frame("cam2"), Revs: revs, HasRevs: true, Dir: "cw"})
		if coup == 7 {
			st := stake{"x2", "P8", 500}
			stakes = append(stakes, st)
			pays[st.spot] = 2
			g.emit(journal.Event{Type: journal.TypeBet, Src: "vision", Frame: g.frame("cam1"), Spot: st.spot, Player: st.player, Amount: st.amount, HasAmount: true})
		}
		res := g.segment(segs)
		if coup == 2 {
			res = segs[2]
		}
		g.at(7 * time.Second)
		g.emit(journal.Event{Type: journal.TypeResult, Src: "vision", Frame: g.frame("cam2"), Value: res.name})
		for _, s := range stakes {
			if s.spot != res.name {
				g.emit(journal.Event{Type: journal.TypeCollect, Src: "vision", Spot: s.spot, Player: s.player, Amount: s.amount, HasAmount: true})
			}
		}
		for _, s := range stakes {
			if s.spot == res.name {
				pay := s.amount * pays[s.spot]
				if coup == 2 && s.player == "P1" {
					pay = s.amount * 4 // x5 paid four times the stake
				}
				g.emit(journal.Event{Type: journal.TypePayout, Src: "vision", Frame: g.frame("cam1"), Spot: s.spot, Player: s.player, Amount: pay, HasAmount: true})
			}
		}
		g.emit(journal.Event{Type: journal.TypeCoupEnd, Src: "dealer"})
	}
}

func (g *gen) fortune() {
	segs := []segment{{"orange", 24, 1}, {"green", 12, 3}, {"blue", 8, 5}, {"red", 4, 10}, {"violet", 2, 20}, {"white", 1, 50}, {"black", 1, 50}}
	g.open("wheel_of_fortune", 100, 10000, "D-3401")
	dir := "ccw"
	for coup := 1; coup <= 9; coup++ {
		g.at(20 * time.Second)
		g.emit(journal.Event{Type: journal.TypeCoupStart, Src: "dealer", Coup: strconv.Itoa(coup)})
		if coup != 6 { // coup 6: the wheel is launched the same way again
			dir = map[string]string{"cw": "ccw", "ccw": "cw"}[dir]
		}
		g.emit(journal.Event{Type: journal.TypeSpin, Src: "vision", Frame: g.frame("cam2"), Revs: float64(4 + g.rnd.IntN(3)), HasRevs: true, Dir: dir})
		var stakes []stake
		pays := map[string]int64{}
		for p := 1; p <= 2+g.rnd.IntN(3); p++ {
			s := segs[g.rnd.IntN(4)] // orange, green, blue, red: maxima far above these stakes
			if coup == 3 && p == 1 {
				s = segs[1] // green, the result of coup 3
			}
			st := stake{s.name, "P" + strconv.Itoa(p), int64(100 * (1 + g.rnd.IntN(5)))}
			stakes = append(stakes, st)
			pays[st.spot] = s.pays
			g.emit(journal.Event{Type: journal.TypeBet, Src: "vision", Frame: g.frame("cam1"), Spot: st.spot, Player: st.player, Amount: st.amount, HasAmount: true})
		}
		g.emit(journal.Event{Type: journal.TypeNoMoreBets, Src: "dealer", Cause: "announce"})
		if coup == 8 {
			st := stake{"orange", "P7", 200}
			stakes = append(stakes, st)
			pays[st.spot] = 1
			g.emit(journal.Event{Type: journal.TypeBet, Src: "vision", Frame: g.frame("cam1"), Spot: st.spot, Player: st.player, Amount: st.amount, HasAmount: true})
		}
		res := g.segment(segs[:4])
		if coup == 3 {
			res = segs[1]
		}
		g.at(6 * time.Second)
		g.emit(journal.Event{Type: journal.TypeResult, Src: "vision", Frame: g.frame("cam2"), Value: res.name})
		var winners []stake
		for _, s := range stakes {
			if s.spot != res.name {
				g.emit(journal.Event{Type: journal.TypeCollect, Src: "vision", Spot: s.spot, Player: s.player, Amount: s.amount, HasAmount: true})
			} else {
				winners = append(winners, s)
			}
		}
		// Winners are paid in ascending order of their winnings (F004 L257-L259).
		sort.SliceStable(winners, func(a, b int) bool { return winners[a].amount < winners[b].amount })
		for _, s := range winners {
			pay := s.amount * pays[s.spot]
			if coup == 3 && s.player == "P1" {
				pay = s.amount * 2 // green paid 2 to 1 instead of 3 to 1
			}
			g.emit(journal.Event{Type: journal.TypePayout, Src: "vision", Frame: g.frame("cam1"), Spot: s.spot, Player: s.player, Amount: pay, HasAmount: true})
		}
		g.emit(journal.Event{Type: journal.TypeCoupEnd, Src: "dealer"})
	}
}

// craps plays one shooter's pass line (a throw per coup, the point carried between coups) and
// one-roll bets around it: field, any seven, any craps, eleven.
func (g *gen) craps() {
	g.open("craps", 100, 50000, "D-3501")
	players := []string{"P1", "P2", "P3", "P4"}
	shooter, point := 0, 0
	var carried []stake // one-roll stakes of a void throw stand for the next one
	for coup := 1; coup <= 12; coup++ {
		g.at(15 * time.Second)
		g.emit(journal.Event{Type: journal.TypeCoupStart, Src: "dealer", Coup: strconv.Itoa(coup)})
		sh := players[shooter]
		g.emit(journal.Event{Type: journal.TypeAction, Src: "dealer", Player: sh, Action: "shooter"})
		g.emit(journal.Event{Type: journal.TypeBet, Src: "vision", Frame: g.frame("cam1"), Spot: "pass", Player: sh, Amount: 1000, HasAmount: true})
		stakes := carried
		carried = nil
		if stakes == nil {
			for _, p := range players {
				if p == sh || g.rnd.IntN(3) == 0 {
					continue
				}
				spot := g.pick([]string{"field", "any7", "any_craps", "eleven"})
				if coup == 3 && len(stakes) == 0 {
					spot = "any7" // coup 3 throws a 7: this one is underpaid
				}
				stakes = append(stakes, stake{spot, p, int64(100 * (1 + g.rnd.IntN(5)))})
			}
		}
		for _, s := range stakes {
			g.emit(journal.Event{Type: journal.TypeBet, Src: "vision", Frame: g.frame("cam1"), Spot: s.spot, Player: s.player, Amount: s.amount, HasAmount: true})
		}
		g.emit(journal.Event{Type: journal.TypeNoMoreBets, Src: "dealer", Cause: "dice_release"})
		if coup == 8 {
			g.emit(journal.Event{Type: journal.TypeBet, Src: "vision", Frame: g.frame("cam1"), Spot: "field", Player: "P9", Amount: 500, HasAmount: true})
		}
		d1, d2 := 1+g.rnd.IntN(6), 1+g.rnd.IntN(6)
		if coup == 3 {
			d1, d2 = 3, 4
		}
		g.at(3 * time.Second)
		if coup == 6 {
			// The dice leave the table: no dice, nothing is decided, the stakes stand.
			g.emit(journal.Event{Type: journal.TypeDice, Src: "vision", Frame: g.frame("cam2"), Values: []int{d1, d2}, Faults: []string{"off_table"}})
			g.emit(journal.Event{Type: journal.TypeCoupEnd, Src: "dealer"})
			carried = stakes
			continue
		}
		g.emit(journal.Event{Type: journal.TypeDice, Src: "vision", Frame: g.frame("cam2"), Values: []int{d1, d2}})
		sum := d1 + d2
		type money struct {
			s   stake
			net int64
		}
		var moves []money
		overpaid := false
		for _, s := range stakes {
			var net int64 = -s.amount
			switch {
			case s.spot == "field" && (sum == 2 || sum == 12):
				net = 2 * s.amount
			case s.spot == "field" && (sum == 3 || sum == 4 || sum == 9 || sum == 10 || sum == 11):
				net = s.amount
			case s.spot == "any7" && sum == 7:
				net = 4 * s.amount
				if coup == 3 && !overpaid {
					net = 5 * s.amount // paid five to one instead of four
					overpaid = true
				}
			case s.spot == "any_craps" && (sum == 2 || sum == 3 || sum == 12):
				net = 7 * s.amount
			case s.spot == "eleven" && sum == 11:
				net = 14 * s.amount
			}
			moves = append(moves, money{s, net})
		}
		pass := stake{"pass", sh, 1000}
		switch {
		case point == 0 && (sum == 7 || sum == 11):
			moves = append(moves, money{pass, 1000})
		case point == 0 && (sum == 2 || sum == 3 || sum == 12):
			moves = append(moves, money{pass, -1000})
		case point == 0:
			point = sum
		case sum == point:
			moves = append(moves, money{pass, 1000})
			point = 0
		case sum == 7:
			moves = append(moves, money{pass, -1000})
			point = 0
			shooter = (shooter + 1) % len(players) // seven-out: the dice pass
		}
		for _, m := range moves { // losers first
			if m.net < 0 {
				g.emit(journal.Event{Type: journal.TypeCollect, Src: "vision", Spot: m.s.spot, Player: m.s.player, Amount: m.s.amount, HasAmount: true})
			}
		}
		for _, m := range moves {
			if m.net > 0 {
				g.emit(journal.Event{Type: journal.TypePayout, Src: "vision", Frame: g.frame("cam1"), Spot: m.s.spot, Player: m.s.player, Amount: m.net, HasAmount: true})
			}
		}
		g.emit(journal.Event{Type: journal.TypeCoupEnd, Src: "dealer"})
	}
}
