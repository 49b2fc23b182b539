package poker_test

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

// gen writes a generated journal: random deals, the players' decisions, and the dealer's
// money as the regulation wants it, with a wrong payout seeded now and then. The money is
// computed here from the pay tables, independently of the engines, so a clean replay
// (only the seeded findings) cross-checks them over thousands of random coups.
type gen struct {
	tb     testing.TB
	rng    *rand.Rand
	w      *journal.Writer
	buf    bytes.Buffer
	t      time.Time
	table  string
	events int
	seeded int
}

func newGen(tb testing.TB, game, table string, seed uint64) *gen {
	g := &gen{tb: tb, rng: rand.New(rand.NewPCG(seed, 7)), t: time.Date(2026, 11, 22, 20, 0, 0, 0, time.UTC), table: table}
	g.w = journal.NewWriter(&g.buf)
	g.emit(journal.Event{Type: journal.TypeTableOpen, Game: game, HasLimits: true, Limits: journal.Limits{Min: 500, Max: 15000}, Schema: 1})
	g.emit(journal.Event{Type: journal.TypeDealer, Dealer: "D-0001"})
	return g
}

func (g *gen) emit(ev journal.Event) {
	g.t = g.t.Add(200 * time.Millisecond)
	ev.T, ev.Table = g.t, g.table
	if err := g.w.Write(&ev); err != nil {
		g.tb.Fatal(err)
	}
	g.events++
}

func (g *gen) bet(spot, player string, amount int64) {
	g.emit(journal.Event{Type: journal.TypeBet, Spot: spot, Player: player, Amount: amount, Frame: fmt.Sprintf("cam#%d", g.events)})
}

func (g *gen) card(to string) {
	g.emit(journal.Event{Type: journal.TypeCard, To: to})
}

func (g *gen) act(player, action, spot string, amount int64) {
	g.emit(journal.Event{Type: journal.TypeAction, Player: player, Action: action, Spot: spot, Amount: amount, HasAmount: amount > 0})
}

// money emits what the dealer does with a stake whose net is due: a payout (now and then
// wrong by one euro), a collect, or nothing for a push.
func (g *gen) money(spot, player string, stake, due int64) {
	switch {
	case due > 0:
		if g.rng.IntN(50) == 0 {
			due += 100
			g.seeded++
		}
		g.emit(journal.Event{Type: journal.TypePayout, Spot: spot, Player: player, Amount: due, HasAmount: true})
	case due < 0:
		g.emit(journal.Event{Type: journal.TypeCollect, Spot: spot, Player: player, Amount: stake, HasAmount: true})
	}
}

type genBox struct {
	n                  int
	player             string
	ante, trips, extra int64 // extra: Blind (hold'em) or Pair Plus (three card poker)
	bonus, play        int64
	folded             bool
	cards              []journal.Card
}

func (g *gen) boxes() []*genBox {
	var out []*genBox
	for n := 1; n <= 7; n++ {
		if g.rng.IntN(10) < 7 {
			out = append(out, &genBox{n: n, player: fmt.Sprintf("P%d", n), ante: 100 * int64(5+g.rng.IntN(26))})
		}
	}
	if len(out) == 0 {
		out = append(out, &genBox{n: 4, player: "P4", ante: 1000})
	}
	return out
}

func spot(b *genBox, part string) string { return fmt.Sprintf("box:%d:%s", b.n, part) }

func cmp[V ~uint32](a, b V) int {
	switch {
	case a > b:
		return 1
	case a < b:
		return -1
	}
	return 0
}

// uthCoupGen generates one ultimate hold'em coup.
func (g *gen) uthCoup(id int) {
	deck := g.rng.Perm(52)
	next := func() journal.Card { c := journal.CardFromIndex(deck[0]); deck = deck[1:]; return c }
	g.emit(journal.Event{Type: journal.TypeCoupStart, Coup: fmt.Sprint(id)})
	boxes := g.boxes()
	for _, b := range boxes {
		b.extra = b.ante
		g.bet(spot(b, "ante"), b.player, b.ante)
		g.bet(spot(b, "blind"), b.player, b.ante)
		if g.rng.IntN(2) == 0 {
			b.trips = 500
			g.bet(spot(b, "trips"), b.player, b.trips)
		}
	}
	g.emit(journal.Event{Type: journal.TypeNoMoreBets, Cause: "announce"})
	for r := 0; r < 2; r++ {
		for _, b := range boxes {
			b.cards = append(b.cards, next())
			g.card(fmt.Sprintf("box:%d", b.n))
		}
	}
	dealer := []journal.Card{next(), next()}
	g.card("dealer")
	g.card("dealer")
	when := map[int]int{} // box -> 0 pre-flop, 1 flop, 2 river, 3 fold
	for _, b := range boxes {
		when[b.n] = g.rng.IntN(4)
	}
	decide := func(phase int, mult int64) {
		for _, b := range boxes {
			switch {
			case when[b.n] == phase:
				m := mult
				if phase == 0 && g.rng.IntN(2) == 0 {
					m = 3
				}
				b.play = m * b.ante
				g.act(b.player, "play", spot(b, "play"), b.play)
			case phase == 2 && when[b.n] == 3:
				b.folded = true
				g.act(b.player, "fold", fmt.Sprintf("box:%d", b.n), 0)
				g.money(spot(b, "ante"), b.player, b.ante, -b.ante)
				g.money(spot(b, "blind"), b.player, b.ante, -b.ante)
			case when[b.n] > phase:
				g.act(b.player, "check", fmt.Sprintf("box:%d", b.n), 0)
			}
		}
	}
	decide(0, 4)
	board := []journal.Card{next(), next(), next()}
	for _, c := range board {
		g.emit(journal.Event{Type: journal.TypeCard, To: "board", Card: c})
	}
	decide(1, 2)
	board = append(board, next(), next())
	for _, c := range board[3:] {
		g.emit(journal.Event{Type: journal.TypeCard, To: "board", Card: c})
	}
	decide(2, 1)
	g.emit(journal.Event{Type: journal.TypeReveal, To: "dealer", Cards: dealer})
	dv := hand.Best(append(dealer[:2:2], board...))
	qualified := dv.Category() >= hand.Pair
	for i := len(boxes) - 1; i >= 0; i-- {
		b := boxes[i]
		g.emit(journal.Event{Type: journal.TypeReveal, To: fmt.Sprintf("box:%d", b.n), Cards: b.cards})
		pv := hand.Best(append(b.cards[:2:2], board...))
		if !b.folded {
			c := cmp(pv, dv)
			if qualified {
				g.money(spot(b, "ante"), b.player, b.ante, int64(c)*b.ante)
			}
			g.money(spot(b, "play"), b.player, b.play, int64(c)*b.play)
			blind := int64(c) * b.ante
			if c > 0 {
				blind = map[hand.Category]int64{hand.Straight: b.ante, hand.Flush: b.ante * 3 / 2, hand.FullHouse: 3 * b.ante,
					hand.Quads: 10 * b.ante, hand.StraightFlush: 50 * b.ante}[pv.Category()]
				if pv.IsRoyal() {
					blind = 500 * b.ante
				}
			}
			g.money(spot(b, "blind"), b.player, b.ante, blind)
		}
		if b.trips > 0 {
			due := map[hand.Category]int64{hand.Trips: 3, hand.Straight: 4, hand.Flush: 7, hand.FullHouse: 8, hand.Quads: 30, hand.StraightFlush: 40}[pv.Category()] * b.trips
			if pv.IsRoyal() {
				due = 50 * b.trips
			}
			if due == 0 {
				due = -b.trips
			}
			g.money(spot(b, "trips"), b.player, b.trips, due)
		}
	}
	g.emit(journal.Event{Type: journal.TypeCoupEnd})
}

// tcpCoupGen generates one three card poker coup.
func (g *gen) tcpCoup(id int) {
	deck := g.rng.Perm(52)
	next := func() journal.Card { c := journal.CardFromIndex(deck[0]); deck = deck[1:]; return c }
	g.emit(journal.Event{Type: journal.TypeCoupStart, Coup: fmt.Sprint(id)})
	boxes := g.boxes()
	for _, b := range boxes {
		g.bet(spot(b, "ante"), b.player, b.ante)
		if g.rng.IntN(2) == 0 {
			b.extra = 500
			g.bet(spot(b, "pairplus"), b.player, b.extra)
		}
		if g.rng.IntN(3) == 0 {
			b.bonus = 500
			g.bet(spot(b, "bonus"), b.player, b.bonus)
		}
	}
	g.emit(journal.Event{Type: journal.TypeNoMoreBets, Cause: "announce"})
	var dealer []journal.Card
	for r := 0; r < 3; r++ {
		for _, b := range boxes {
			b.cards = append(b.cards, next())
			g.card(fmt.Sprintf("box:%d", b.n))
		}
		dealer = append(dealer, next())
		g.card("dealer")
	}
	for _, b := range boxes {
		if g.rng.IntN(5) == 0 {
			b.folded = true
			g.act(b.player, "fold", fmt.Sprintf("box:%d", b.n), 0)
			g.money(spot(b, "ante"), b.player, b.ante, -b.ante)
			if b.bonus > 0 {
				g.money(spot(b, "bonus"), b.player, b.bonus, -b.bonus)
			}
			continue
		}
		b.play = b.ante
		g.act(b.player, "play", spot(b, "play"), b.play)
	}
	g.emit(journal.Event{Type: journal.TypeReveal, To: "dealer", Cards: dealer})
	dv := hand.Eval3([3]journal.Card(dealer))
	qualified := dv.Category() > hand.High3 || dv.TopRank() >= 12
	for i := len(boxes) - 1; i >= 0; i-- {
		b := boxes[i]
		g.emit(journal.Event{Type: journal.TypeReveal, To: fmt.Sprintf("box:%d", b.n), Cards: b.cards})
		pv := hand.Eval3([3]journal.Card(b.cards))
		if !b.folded {
			switch c := cmp(pv, dv); {
			case !qualified:
				g.money(spot(b, "ante"), b.player, b.ante, b.ante)
			case c > 0:
				mult := map[hand.Category3]int64{hand.Trips3: 4, hand.StraightFlush3: 5}[pv.Category()]
				g.money(spot(b, "ante"), b.player, b.ante, max(mult, 1)*b.ante)
				g.money(spot(b, "play"), b.player, b.play, b.play)
			default:
				g.money(spot(b, "ante"), b.player, b.ante, int64(c)*b.ante)
				g.money(spot(b, "play"), b.player, b.play, int64(c)*b.play)
			}
			if b.bonus > 0 {
				due := map[hand.Category3]int64{hand.Straight3: 1, hand.Trips3: 4, hand.StraightFlush3: 5}[pv.Category()] * b.bonus
				if due == 0 {
					due = -b.bonus
				}
				g.money(spot(b, "bonus"), b.player, b.bonus, due)
			}
		}
		if b.extra > 0 {
			due := map[hand.Category3]int64{hand.Pair3: 1, hand.Flush3: 3, hand.Straight3: 6, hand.Trips3: 30, hand.StraightFlush3: 40}[pv.Category()] * b.extra
			if due == 0 {
				due = -b.extra
			}
			g.money(spot(b, "pairplus"), b.player, b.extra, due)
		}
	}
	g.emit(journal.Event{Type: journal.TypeCoupEnd})
}

func generate(tb testing.TB, game string, minEvents int) *gen {
	tb.Helper()
	g := newGen(tb, game, "GEN-1", 2026)
	for id := 1; g.events < minEvents; id++ {
		if game == "ultimate_holdem" {
			g.uthCoup(id)
		} else {
			g.tcpCoup(id)
		}
	}
	if err := g.w.Flush(); err != nil {
		tb.Fatal(err)
	}
	return g
}

// TestGeneratedJournals replays thousands of random coups of each game: the engines must
// find exactly the seeded wrong payouts, and nothing else.
func TestGeneratedJournals(t *testing.T) {
	n := 100_000
	if testing.Short() {
		n = 10_000
	}
	for _, game := range []string{"ultimate_holdem", "three_card_poker"} {
		t.Run(game, func(t *testing.T) {
			g := generate(t, game, n)
			var counts replay.Counts
			var first []string
			err := replay.Run(catalog(t), []replay.Source{{Name: "gen.jsonl", R: bytes.NewReader(g.buf.Bytes())}}, replay.Options{}, func(r games.Record) {
				counts.Add(r)
				if d, ok := r.(*games.Discrepancy); ok && d.Kind != games.WrongPayout && len(first) < 5 {
					first = append(first, fmt.Sprintf("coup %s %s: %s", d.Coup, d.Rule, d.Detail))
				}
			})
			if err != nil {
				t.Fatal(err)
			}
			if g.seeded == 0 {
				t.Fatal("no wrong payout was seeded")
			}
			if counts.Discrepancies != g.seeded || counts.ByKind[games.WrongPayout] != g.seeded {
				t.Errorf("%d discrepancies %v for %d seeded wrong payouts; first others: %v", counts.Discrepancies, counts.ByKind, g.seeded, first)
			}
			if counts.Coups == 0 || counts.Settlements < counts.Coups {
				t.Errorf("replay settled little: %v", counts)
			}
		})
	}
}

// The replay benchmarks run a generated journal of about 1,000,000 events end to end
// (parsing, the engine, encoding every record), one op per journal:
//
//	go test ./games/poker -run '^$' -bench Replay -benchmem -cpu 1 -count 5
func BenchmarkReplayUltimateHoldem(b *testing.B) { benchReplay(b, "ultimate_holdem") }

func BenchmarkReplayThreeCardPoker(b *testing.B) { benchReplay(b, "three_card_poker") }

func benchReplay(b *testing.B, game string) {
	g := generate(b, game, 1_000_000)
	gamestest.BenchReplay(b, catalog(b), g.buf.Bytes())
}
