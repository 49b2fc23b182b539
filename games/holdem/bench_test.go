package holdem_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/coupwatch/coupwatch/games/gamestest"

	"github.com/coupwatch/coupwatch/games"
	"github.com/coupwatch/coupwatch/games/poker/hand"
	"github.com/coupwatch/coupwatch/games/replay"
	"github.com/coupwatch/coupwatch/journal"
)

// gen writes a six-handed no limit journal of legal coups played by random players: the button
// moves, the blinds are posted, the cards dealt from the small blind, every betting round played
// in turn with checks, bets, calls, raises to double the highest bet and folds, one burn before
// each street, the showdown, a 5 % rake and the pot paid to the best hands (odd cents clockwise
// from the button). A wrong payout now and then gives the engine findings to write.
type gen struct {
	rng    *rand.Rand
	w      *journal.Writer
	t      time.Time
	events int
	tb     testing.TB
}

func (g *gen) emit(ev journal.Event) {
	g.t = g.t.Add(500 * time.Millisecond)
	ev.T, ev.Table = g.t, "NL-9"
	if ev.Type == journal.TypeAction || ev.Type == journal.TypeCard {
		ev.Frame = fmt.Sprintf("cam-NL-9#%d", g.events)
	}
	if err := g.w.Write(&ev); err != nil {
		g.tb.Fatal(err)
	}
	g.events++
}

const genSeats = 6

func (g *gen) act(s int, action string, amount int64) {
	ev := journal.Event{Type: journal.TypeAction, Player: fmt.Sprintf("P%d", s), Spot: fmt.Sprintf("seat:%d", s), Action: action}
	if amount > 0 {
		ev.Amount, ev.HasAmount = amount, true
	}
	g.emit(ev)
}

// coup plays one coup with the button at seat btn; wrong makes the dealer pay 100 too little.
func (g *gen) coup(id int, btn int, wrong bool) {
	nextSeat := func(s int) int { return s%genSeats + 1 }
	g.emit(journal.Event{Type: journal.TypeCoupStart, Coup: fmt.Sprint(id)})
	deck := g.rng.Perm(52)
	card := func() journal.Card { c := journal.CardFromIndex(deck[0]); deck = deck[1:]; return c }
	var bet, total [genSeats + 1]int64
	var folded, acted [genSeats + 1]bool
	sb, bb := nextSeat(btn), nextSeat(nextSeat(btn))
	g.act(sb, "post_sb", 100)
	g.act(bb, "post_bb", 200)
	bet[sb], bet[bb], total[sb], total[bb] = 100, 200, 100, 200
	g.emit(journal.Event{Type: journal.TypeNoMoreBets, Cause: "announce"})
	var hole [genSeats + 1][2]journal.Card
	for r := 0; r < 2; r++ {
		for i, s := 0, sb; i < genSeats; i, s = i+1, nextSeat(s) {
			hole[s][r] = card()
			g.emit(journal.Event{Type: journal.TypeCard, To: fmt.Sprintf("seat:%d", s)})
		}
	}
	live := genSeats
	var board []journal.Card
	round := func(from int, highest int64) {
		raises := 0
		for s := nextSeat(from); live > 1; s = nextSeat(s) {
			if folded[s] || (acted[s] && bet[s] == highest) {
				done := true
				for t := 1; t <= genSeats; t++ {
					if !folded[t] && (!acted[t] || bet[t] < highest) {
						done = false
					}
				}
				if done {
					break
				}
				continue
			}
			owed := highest - bet[s]
			x := g.rng.IntN(10)
			switch {
			case owed > 0 && x < 2:
				g.act(s, "fold", 0)
				folded[s] = true
				live--
			case owed > 0 && (x < 8 || raises >= 3):
				g.act(s, "call", owed)
				bet[s], total[s] = highest, total[s]+owed
			case owed == 0 && (x < 7 || raises >= 3):
				g.act(s, "check", 0)
			default:
				to := 2 * highest
				action := "raise"
				if highest == 0 {
					to, action = 200*int64(1+g.rng.IntN(4)), "bet"
				}
				g.act(s, action, to-bet[s])
				total[s] += to - bet[s]
				bet[s], highest = to, to
				raises++
			}
			acted[s] = true
		}
		bet, acted = [genSeats + 1]int64{}, [genSeats + 1]bool{}
	}
	round(bb, 200)
	for _, n := range []int{3, 1, 1} {
		if live < 2 {
			break
		}
		g.emit(journal.Event{Type: journal.TypeCard, To: "burn"})
		for i := 0; i < n; i++ {
			c := card()
			board = append(board, c)
			g.emit(journal.Event{Type: journal.TypeCard, To: "board", Card: c})
		}
		round(btn, 0)
	}
	var pot int64
	for s := 1; s <= genSeats; s++ {
		pot += total[s]
	}
	var winners []int
	var best hand.Value
	for i, s := 0, nextSeat(btn); i < genSeats; i, s = i+1, nextSeat(s) {
		if folded[s] {
			continue
		}
		if live == 1 {
			winners = []int{s}
			break
		}
		g.emit(journal.Event{Type: journal.TypeReveal, To: fmt.Sprintf("seat:%d", s), Cards: hole[s][:]})
		v := hand.Best(append([]journal.Card{hole[s][0], hole[s][1]}, board...))
		switch {
		case len(winners) == 0 || v > best:
			winners, best = []int{s}, v
		case v == best:
			winners = append(winners, s)
		}
	}
	rake := pot * 5 / 100
	g.emit(journal.Event{Type: journal.TypeRake, Amount: rake, HasAmount: true})
	net := pot - rake
	each, rem := net/int64(len(winners)), net%int64(len(winners))
	for i, s := range winners {
		due := each
		if int64(i) < rem {
			due++
		}
		if wrong && i == 0 {
			due -= 100
		}
		g.emit(journal.Event{Type: journal.TypePayout, Spot: "pot:main", Player: fmt.Sprintf("P%d", s), Amount: due, HasAmount: true})
	}
	g.emit(journal.Event{Type: journal.TypeCoupEnd})
}

// holdemJournal generates about n events; every tenth coup has a wrong payout.
func holdemJournal(tb testing.TB, n int, seed uint64) (src []byte, events, wrong int) {
	tb.Helper()
	var buf bytes.Buffer
	g := &gen{rng: rand.New(rand.NewPCG(seed, 7)), w: journal.NewWriter(&buf), t: time.Date(2026, 11, 22, 20, 0, 0, 0, time.UTC), tb: tb}
	g.emit(journal.Event{Type: journal.TypeTableOpen, Game: "texas_holdem_nl", Rules: []byte(`{"rake":"percent","rake_percent":5}`)})
	g.emit(journal.Event{Type: journal.TypeDealer, Dealer: "D-0001"})
	for id := 1; g.events < n; id++ {
		w := id%10 == 0
		if w {
			wrong++
		}
		g.coup(id, (id-1)%genSeats+1, w)
	}
	if err := g.w.Flush(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes(), g.events, wrong
}

// TestGeneratedCoups replays thousands of random legal coups: the only findings must be the
// wrong payouts the generator made, so the order of speech, the round ends, the blinds, the
// button and the pots are followed without a false alarm.
func TestGeneratedCoups(t *testing.T) {
	for seed := uint64(1); seed <= 5; seed++ {
		src, _, wrong := holdemJournal(t, 20000, seed)
		var findings []*games.Discrepancy
		coups := 0
		err := replay.Run(catalog(t), []replay.Source{{Name: "gen.jsonl", R: bytes.NewReader(src)}}, replay.Options{}, func(r games.Record) {
			switch r := r.(type) {
			case *games.Discrepancy:
				findings = append(findings, r)
			case *games.CoupSummary:
				coups++
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(findings) != wrong {
			for i, d := range findings {
				if i < 5 {
					t.Errorf("seed %d coup %s: %s %s: %s", seed, d.Coup, d.Rule, d.Player, d.Detail)
				}
			}
			t.Fatalf("seed %d: %d findings over %d coups, want the %d wrong payouts", seed, len(findings), coups, wrong)
		}
		for _, d := range findings {
			if d.Rule != "texas_holdem_nl.pot_award" || d.Expected.Amount()-d.Observed.Amount() != 100 {
				t.Errorf("seed %d coup %s: unexpected %s: %s", seed, d.Coup, d.Rule, d.Detail)
			}
		}
	}
}

// BenchmarkReplay replays a generated journal of about 100 000 events through games/replay.
func BenchmarkReplay(b *testing.B) {
	src, _, _ := holdemJournal(b, 100000, 1)
	b.ReportAllocs()
	gamestest.BenchReplay(b, catalog(b), src)
}
