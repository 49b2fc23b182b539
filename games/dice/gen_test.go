package dice_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/coupwatch/coupwatch/journal"
)

// writer writes generated events with increasing times.
type writer struct {
	tb    testing.TB
	w     *journal.Writer
	t     time.Time
	table string
	n     int
}

func newWriter(tb testing.TB, buf *bytes.Buffer, table string) *writer {
	return &writer{tb: tb, w: journal.NewWriter(buf), t: time.Date(2026, 11, 22, 20, 0, 0, 0, time.UTC), table: table}
}

func (w *writer) emit(ev journal.Event) {
	w.t = w.t.Add(700 * time.Millisecond)
	ev.T, ev.Table = w.t, w.table
	if err := w.w.Write(&ev); err != nil {
		w.tb.Fatal(err)
	}
	w.n++
}

func (w *writer) money(typ journal.Type, spot, player string, amount int64) {
	w.emit(journal.Event{Type: typ, Spot: spot, Player: player, Amount: amount, HasAmount: true})
}

// crapsJournal generates a craps session of about n events: eight players, a shooter who
// keeps the dice until he sevens out, line bets, field, any seven, hard 8, big 6 and place
// bets, and the dealer's correct money, except a wrong payout every ~40 payments. It returns the
// journal and the number of wrong payouts seeded. The payouts are computed here independently
// of the engine, so a replay finding anything else is a disagreement between the two.
func crapsJournal(tb testing.TB, n int, seed uint64) ([]byte, int) {
	rng := rand.New(rand.NewPCG(seed, 7))
	var buf bytes.Buffer
	w := newWriter(tb, &buf, "CR-01")
	w.emit(journal.Event{Type: journal.TypeTableOpen, Game: "craps", HasLimits: true, Limits: journal.Limits{Min: 100, Max: 100000}})
	w.emit(journal.Event{Type: journal.TypeDealer, Dealer: "D-0001"})
	players := []string{"P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8"}
	type key struct{ spot, player string }
	stakes := map[key]int64{}
	var order []key // placement order, for deterministic money
	place := func(k key, amt int64) {
		if _, ok := stakes[k]; !ok {
			order = append(order, k)
		}
		stakes[k] = amt
		w.emit(journal.Event{Type: journal.TypeBet, Spot: k.spot, Player: k.player, Amount: amt, HasAmount: true, Frame: fmt.Sprintf("cam-CR-01#%d", w.n)})
	}
	point, shooter, coupNo, seeded := 0, 0, 0, 0
	for w.n < n {
		coupNo++
		sh := players[shooter]
		w.emit(journal.Event{Type: journal.TypeCoupStart, Coup: fmt.Sprint(coupNo)})
		w.emit(journal.Event{Type: journal.TypeAction, Player: sh, Action: "shooter"})
		if point == 0 {
			if _, ok := stakes[key{"pass", sh}]; !ok {
				place(key{"pass", sh}, 1000)
			}
			for _, p := range players {
				if p == sh {
					continue
				}
				if _, ok := stakes[key{"dont_pass", p}]; !ok && rng.IntN(4) == 0 {
					place(key{"dont_pass", p}, int64(100*(1+rng.IntN(20))))
				} else if _, ok := stakes[key{"pass", p}]; !ok && rng.IntN(2) == 0 {
					place(key{"pass", p}, int64(100*(1+rng.IntN(20))))
				}
			}
		}
		for _, p := range players {
			switch rng.IntN(6) {
			case 0:
				place(key{"field", p}, int64(100*(1+rng.IntN(10))))
			case 1:
				place(key{"any7", p}, int64(100*(1+rng.IntN(5))))
			case 2:
				if _, ok := stakes[key{"hard:8", p}]; !ok {
					place(key{"hard:8", p}, 100)
				}
			case 3:
				if _, ok := stakes[key{"big6", p}]; !ok {
					place(key{"big6", p}, 500)
				}
			case 4:
				if _, ok := stakes[key{"place:8", p}]; !ok && point != 0 {
					place(key{"place:8", p}, 600)
				}
			}
		}
		w.emit(journal.Event{Type: journal.TypeNoMoreBets, Cause: "dice_release"})
		d1, d2 := 1+rng.IntN(6), 1+rng.IntN(6)
		t := d1 + d2
		w.emit(journal.Event{Type: journal.TypeDice, Values: []int{d1, d2}})
		type money struct {
			k   key
			net int64
		}
		var losers, winners []money
		keep := order[:0]
		for _, k := range order {
			amt, ok := stakes[k]
			if !ok {
				continue
			}
			net, decided, stays := int64(0), false, false
			switch k.spot {
			case "pass":
				switch {
				case point == 0 && (t == 7 || t == 11), point != 0 && t == point:
					net, decided = amt, true
				case point == 0 && (t == 2 || t == 3 || t == 12), point != 0 && t == 7:
					net, decided = -amt, true
				}
			case "dont_pass":
				switch {
				case point == 0 && (t == 2 || t == 3), point != 0 && t == 7:
					net, decided = amt, true
				case point == 0 && (t == 7 || t == 11), point != 0 && t == point:
					net, decided = -amt, true
				}
			case "field":
				decided = true
				switch t {
				case 2, 12:
					net = 2 * amt
				case 3, 4, 9, 10, 11:
					net = amt
				default:
					net = -amt
				}
			case "any7":
				decided, net = true, -amt
				if t == 7 {
					net = 4 * amt
				}
			case "hard:8":
				switch {
				case t == 8 && d1 == d2:
					net, decided, stays = 9*amt, true, true
				case t == 8 || t == 7:
					net, decided = -amt, true
				}
			case "big6":
				switch t {
				case 6:
					net, decided, stays = amt, true, true
				case 7:
					net, decided = -amt, true
				}
			case "place:8":
				if point != 0 {
					switch t {
					case 8:
						net, decided, stays = amt*7/6, true, true
					case 7:
						net, decided = -amt, true
					}
				}
			}
			if decided {
				if net < 0 {
					losers = append(losers, money{k, net})
				} else {
					winners = append(winners, money{k, net})
				}
				if !stays {
					delete(stakes, k)
					continue
				}
			}
			keep = append(keep, k)
		}
		order = keep
		for _, m := range losers {
			w.money(journal.TypeCollect, m.k.spot, m.k.player, -m.net)
		}
		for _, m := range winners {
			paid := m.net
			if rng.IntN(40) == 0 {
				paid += 100
				seeded++
			}
			w.money(journal.TypePayout, m.k.spot, m.k.player, paid)
		}
		w.emit(journal.Event{Type: journal.TypeCoupEnd})
		switch {
		case point == 0 && (t == 4 || t == 5 || t == 6 || t == 8 || t == 9 || t == 10):
			point = t
		case point != 0 && t == point:
			point = 0
		case point != 0 && t == 7:
			point = 0
			shooter = (shooter + 1) % len(players)
		}
	}
	if err := w.w.Flush(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes(), seeded
}

// rampoJournal generates a rampo session (2014 wording) of about n events: eight players on
// colours and numbers, winners of numbers other than 7 taking the win or trying the rampo, the
// dice passing on a 7, and the dealer's money in the 2014 order, with a wrong payout now and
// then. The rates are written here independently of the engine.
func rampoJournal(tb testing.TB, n int, seed uint64) ([]byte, int) {
	rng := rand.New(rand.NewPCG(seed, 11))
	var buf bytes.Buffer
	w := newWriter(tb, &buf, "RP-01")
	w.emit(journal.Event{Type: journal.TypeTableOpen, Game: "rampo", Rules: []byte(`{"paytable":"2014"}`), HasLimits: true, Limits: journal.Limits{Min: 100, Max: 4000}})
	w.emit(journal.Event{Type: journal.TypeDealer, Dealer: "D-0002"})
	players := []string{"P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8"}
	colours := []string{"red", "black", "green", "yellow", "white"}
	colourOf := map[int]string{2: "white", 3: "red", 4: "yellow", 5: "green", 6: "black", 7: "white", 8: "red", 9: "yellow", 10: "green", 11: "black", 12: "white"}
	base := map[int]int64{2: 30, 3: 15, 4: 9, 5: 6, 6: 5, 7: 4, 8: 5, 9: 6, 10: 9, 11: 15, 12: 30}
	rampo := map[int]int64{2: 170, 3: 40, 4: 30, 5: 22, 6: 12, 8: 12, 9: 22, 10: 30, 11: 40, 12: 170}
	var held []stake
	shooter, coupNo, seeded := 0, 0, 0
	pay := func(spot, player string, net int64) {
		if rng.IntN(40) == 0 {
			net += 100
			seeded++
		}
		w.money(journal.TypePayout, spot, player, net)
	}
	for w.n < n {
		coupNo++
		w.emit(journal.Event{Type: journal.TypeCoupStart, Coup: fmt.Sprint(coupNo)})
		w.emit(journal.Event{Type: journal.TypeAction, Player: players[shooter], Action: "shooter"})
		var stakes []stake
		for i, p := range players {
			if i != shooter && rng.IntN(3) == 0 {
				continue
			}
			s := stake{player: p, amount: int64(100 * (1 + rng.IntN(10)))}
			if rng.IntN(2) == 0 {
				s.spot = "colour:" + colours[rng.IntN(len(colours))]
			} else {
				s.n = 2 + rng.IntN(11)
				s.spot = fmt.Sprintf("number:%d", s.n)
			}
			if has(stakes, s.spot, p) || has(held, s.spot, p) {
				continue
			}
			stakes = append(stakes, s)
			w.emit(journal.Event{Type: journal.TypeBet, Spot: s.spot, Player: p, Amount: s.amount, HasAmount: true})
		}
		if !has(stakes, "", players[shooter]) && !has(held, "", players[shooter]) {
			s := stake{spot: "colour:red", player: players[shooter], amount: 100}
			stakes = append(stakes, s)
			w.emit(journal.Event{Type: journal.TypeBet, Spot: s.spot, Player: s.player, Amount: s.amount, HasAmount: true})
		}
		w.emit(journal.Event{Type: journal.TypeNoMoreBets, Cause: "announce"})
		d1, d2 := 1+rng.IntN(6), 1+rng.IntN(6)
		t := d1 + d2
		w.emit(journal.Event{Type: journal.TypeDice, Values: []int{d1, d2}})
		// Losers first, then the rampo zone, then the colours (F004 L682-L685).
		for _, h := range held {
			if h.n != t {
				w.money(journal.TypeCollect, h.spot, h.player, h.amount)
			}
		}
		var winners []stake
		for _, s := range stakes {
			wins := (s.n == 0 && s.spot == "colour:"+colourOf[t]) || s.n == t
			if !wins {
				w.money(journal.TypeCollect, s.spot, s.player, s.amount)
				continue
			}
			winners = append(winners, s)
		}
		for _, h := range held {
			if h.n == t {
				pay(h.spot, h.player, rampo[t]*h.amount)
			}
		}
		held = held[:0]
		for _, s := range winners {
			if s.n == 0 {
				m := int64(4)
				if colourOf[t] == "white" {
					m = 3
				}
				pay(s.spot, s.player, m*s.amount)
			}
		}
		for _, s := range winners {
			switch {
			case s.n == 7:
				pay(s.spot, s.player, base[7]*s.amount)
			case s.n != 0 && rng.IntN(2) == 0:
				w.emit(journal.Event{Type: journal.TypeAction, Player: s.player, Action: "decline", Spot: s.spot})
				pay(s.spot, s.player, base[s.n]*s.amount)
			case s.n != 0:
				w.emit(journal.Event{Type: journal.TypeAction, Player: s.player, Action: "rampo", Spot: s.spot})
				held = append(held, s)
			}
		}
		w.emit(journal.Event{Type: journal.TypeCoupEnd})
		if t == 7 {
			shooter = (shooter + 1) % len(players)
		}
	}
	if err := w.w.Flush(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes(), seeded
}

// stake is a generated rampo stake: a colour, or a number n.
type stake struct {
	spot, player string
	n            int
	amount       int64
}

// has reports whether the player has a stake on the spot (any spot when spot is "").
func has(s []stake, spot, player string) bool {
	for _, x := range s {
		if x.player == player && (spot == "" || x.spot == spot) {
			return true
		}
	}
	return false
}
