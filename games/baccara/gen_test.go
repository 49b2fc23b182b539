package baccara_test

import (
	"bytes"
	"math/rand/v2"
	"strconv"
	"testing"
	"time"

	"github.com/coupwatch/coupwatch/games/baccara"
	"github.com/coupwatch/coupwatch/journal"
)

// shift generates a correct journal of coups at one table: real shuffled shoes with their
// burn and stop cards, random stakes, draws by the drawing tables (options chosen at random)
// and every stake settled right, with the payments computed here, independently of the engine.
type shift struct {
	t     testing.TB
	r     *rand.Rand
	game  string
	decks int
	w     *journal.Writer
	buf   bytes.Buffer
	at    time.Time
	coup  int

	shoe   []journal.Card
	pos    int
	stopAt int
	// last: the open coup is the last of the shoe; lastNext: the next one is.
	last, lastNext bool
	dealtInCoup    int

	// chemin de fer bank
	banker    int
	bank      int64
	keepsBank bool
}

func newShift(t testing.TB, game string, seed uint64) *shift {
	s := &shift{t: t, r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), game: game, decks: 6,
		at: time.Date(2026, 11, 23, 18, 0, 0, 0, time.UTC)}
	if game == "punto_banco" {
		s.decks = 8
	}
	s.w = journal.NewWriter(&s.buf)
	s.emit(&journal.Event{Type: journal.TypeTableOpen, Game: game, Schema: 1, HasLimits: true,
		Limits: journal.Limits{Min: 500, Max: 1_000_000}})
	s.emit(&journal.Event{Type: journal.TypeDealer, Dealer: "D-9"})
	return s
}

func (s *shift) emit(ev *journal.Event) {
	s.at = s.at.Add(700 * time.Millisecond)
	ev.T, ev.Table, ev.Src = s.at, "GEN-1", "test"
	if err := s.w.Write(ev); err != nil {
		s.t.Fatal(err)
	}
}

func (s *shift) bytes() []byte {
	if err := s.w.Flush(); err != nil {
		s.t.Fatal(err)
	}
	return s.buf.Bytes()
}

// newShoe shuffles a shoe, burns (punto banco: the exposed card's value after it; the other
// games one card, which marks the new shoe) and places the stop card.
func (s *shift) newShoe() {
	s.shoe = s.shoe[:0]
	for d := 0; d < s.decks; d++ {
		for i := 0; i < 52; i++ {
			s.shoe = append(s.shoe, journal.CardFromIndex(i))
		}
	}
	s.r.Shuffle(len(s.shoe), func(i, j int) { s.shoe[i], s.shoe[j] = s.shoe[j], s.shoe[i] })
	s.pos = 0
	s.last, s.lastNext = false, false
	n := 0
	if s.game == "punto_banco" {
		v := int(s.shoe[0].Rank)
		n = min(v, 10)
	}
	for i := 0; i <= n; i++ {
		s.emit(&journal.Event{Type: journal.TypeCard, To: "burn", Card: s.shoe[s.pos]})
		s.pos++
	}
	left := 104
	switch s.game {
	case "chemin_de_fer":
		left = 6 + s.r.IntN(2)
	case "banque_a_tout_va":
		left = 9 + s.r.IntN(2)
	}
	s.stopAt = len(s.shoe) - left
}

func (s *shift) deal(place string) journal.Card {
	if s.pos == s.stopAt {
		s.emit(&journal.Event{Type: journal.TypeCard, To: "stop", Card: journal.Card{}})
		if s.game == "banque_a_tout_va" && s.dealtInCoup > 0 {
			s.lastNext = true
		} else {
			s.last = true
		}
	}
	c := s.shoe[s.pos]
	s.pos++
	s.dealtInCoup++
	s.emit(&journal.Event{Type: journal.TypeCard, To: place, Card: c})
	return c
}

func (s *shift) bet(spot, player string, amount int64) {
	s.emit(&journal.Event{Type: journal.TypeBet, Spot: spot, Player: player, Amount: amount, HasAmount: true})
}

func (s *shift) money(typ journal.Type, spot, player string, amount int64) {
	s.emit(&journal.Event{Type: typ, Spot: spot, Player: player, Amount: amount, HasAmount: true})
}

func (s *shift) stake() int64 { return int64(1+s.r.IntN(40)) * 500 }

// coupStart opens a coup, starting a new shoe first when the last one is done.
func (s *shift) coupStart() {
	need := s.shoe == nil || s.last
	if s.lastNext {
		// Banque à tout va: the last coup needs up to nine cards (art. 12.10).
		need = len(s.shoe)-s.pos < 9
		s.lastNext, s.last = false, !need
	}
	s.coup++
	s.dealtInCoup = 0
	s.emit(&journal.Event{Type: journal.TypeCoupStart, Coup: strconv.Itoa(s.coup)})
	if need {
		s.newShoe()
	}
}

// hand plays out a hand's two cards.
func points(cs ...journal.Card) int { return baccara.Point(cs...) }

type moneyEv struct {
	typ    journal.Type
	spot   string
	player string
	amount int64
}

// settle emits collects first, then payouts, in the given groups.
func (s *shift) settle(groups ...[]moneyEv) {
	for _, g := range groups {
		for _, m := range g {
			if m.typ == journal.TypeCollect {
				s.money(m.typ, m.spot, m.player, m.amount)
			}
		}
		for _, m := range g {
			if m.typ != journal.TypeCollect {
				s.money(m.typ, m.spot, m.player, m.amount)
			}
		}
	}
}

func net(g *[]moneyEv, spot, player string, n int64) {
	switch {
	case n > 0:
		*g = append(*g, moneyEv{journal.TypePayout, spot, player, n})
	case n < 0:
		*g = append(*g, moneyEv{journal.TypeCollect, spot, player, -n})
	}
}

func (s *shift) puntoBancoCoup() {
	s.coupStart()
	type bet struct {
		spot, player string
		amount       int64
	}
	spots := []string{"punto", "banco", "tie", "dragon:punto", "dragon:banco", "pair:punto", "pair:banco", "pair:both"}
	var bets []bet
	for i, n := 0, 2+s.r.IntN(5); i < n; i++ {
		b := bet{spots[s.r.IntN(len(spots))], "P" + strconv.Itoa(i+1), s.stake()}
		bets = append(bets, b)
		s.bet(b.spot, b.player, b.amount)
	}
	s.emit(&journal.Event{Type: journal.TypeNoMoreBets, Cause: "announce"})
	p := []journal.Card{s.deal("punto")}
	b := []journal.Card{s.deal("banco")}
	p = append(p, s.deal("punto"))
	b = append(b, s.deal("banco"))
	p2, b2 := points(p...), points(b...)
	if p2 < 8 && b2 < 8 {
		third := baccara.NoThird
		if p2 <= 5 {
			p = append(p, s.deal("punto"))
			third = baccara.Value(p[2])
		}
		if baccara.BancoRule(b2, third) == baccara.Draw {
			b = append(b, s.deal("banco"))
		}
	}
	pf, bf := points(p...), points(b...)
	var main, pairs, dragon []moneyEv
	for _, x := range bets {
		S := x.amount
		switch x.spot {
		case "punto":
			net(&main, x.spot, x.player, sign(pf-bf)*S)
		case "banco":
			w := sign(bf - pf)
			if w > 0 {
				net(&main, x.spot, x.player, S*19/20)
			} else {
				net(&main, x.spot, x.player, w*S)
			}
		case "tie":
			if pf == bf {
				net(&main, x.spot, x.player, 8*S)
			} else {
				net(&main, x.spot, x.player, -S)
			}
		case "dragon:punto", "dragon:banco":
			h, o := p, b
			if x.spot == "dragon:banco" {
				h, o = b, p
			}
			hf, of := points(h...), points(o...)
			nat := len(h) == 2 && hf >= 8
			m := []int64{0, 0, 0, 0, 1, 3, 4, 7, 8, 20}[max(hf-of, 0)]
			switch {
			case hf > of && nat:
				net(&dragon, x.spot, x.player, S)
			case hf > of && m > 0:
				net(&dragon, x.spot, x.player, m*S)
			case hf == of && nat:
			default:
				net(&dragon, x.spot, x.player, -S)
			}
		case "pair:punto", "pair:banco", "pair:both":
			pp, bp := p[0].Rank == p[1].Rank, b[0].Rank == b[1].Rank
			k := 0
			if (x.spot != "pair:banco" && pp) || (x.spot == "pair:both" && bp) || (x.spot == "pair:banco" && bp) {
				k = 1
			}
			if x.spot == "pair:both" && pp && bp {
				k = 2
			}
			switch {
			case k == 0:
				net(&pairs, x.spot, x.player, -S)
			case x.spot == "pair:both":
				net(&pairs, x.spot, x.player, 12*S*int64(k)/2-S)
			default:
				net(&pairs, x.spot, x.player, 11*S)
			}
		}
	}
	s.settle(main, pairs, dragon)
	s.emit(&journal.Event{Type: journal.TypeCoupEnd})
}

func sign(n int) int64 {
	switch {
	case n > 0:
		return 1
	case n < 0:
		return -1
	}
	return 0
}

func (s *shift) cheminCoup() {
	s.coupStart()
	if !s.keepsBank || s.bank > 500_000 {
		s.banker = (s.banker % 9) + 1
		s.bank = int64(2+s.r.IntN(20)) * 500
	}
	bankPlayer := "P" + strconv.Itoa(s.banker)
	s.bet("bank", bankPlayer, s.bank)
	// Pontes cover the bank: one for half or more, others complete it.
	type ponte struct {
		player string
		amount int64
	}
	var pontes []ponte
	left := s.bank
	for i := 1; left > 0; i++ {
		a := left
		if i < 3 && left >= 2000 && s.r.IntN(2) == 0 {
			a = left / 2
		}
		pl := "P" + strconv.Itoa((s.banker+i-1)%9+1)
		if pl == bankPlayer {
			pl = "X" + strconv.Itoa(i)
		}
		pontes = append(pontes, ponte{pl, a})
		s.bet("banco", pl, a)
		left -= a
	}
	s.emit(&journal.Event{Type: journal.TypeNoMoreBets, Cause: "announce"})
	p := []journal.Card{s.deal("ponte")}
	k := []journal.Card{s.deal("banker")}
	p = append(p, s.deal("ponte"))
	k = append(k, s.deal("banker"))
	p2, k2 := points(p...), points(k...)
	if p2 < 8 && k2 < 8 {
		third := baccara.NoThird
		if d := baccara.PonteRule(p2); d == baccara.Draw || (d == baccara.Option && s.r.IntN(2) == 0) {
			p = append(p, s.deal("ponte"))
			third = baccara.Value(p[2])
		}
		if d := baccara.BankerRule(baccara.Conventional, k2, third); d == baccara.Draw || (d == baccara.Option && s.r.IntN(2) == 0) {
			k = append(k, s.deal("banker"))
		}
	}
	pf, kf := points(p...), points(k...)
	switch {
	case kf > pf:
		for _, x := range pontes {
			s.money(journal.TypeCollect, "banco", x.player, x.amount)
		}
		won := s.bank * 95 / 100
		s.emit(&journal.Event{Type: journal.TypeRake, Amount: s.bank - won, HasAmount: true})
		s.money(journal.TypePayout, "bank", bankPlayer, won)
		s.bank += won
		s.keepsBank = true
	case pf > kf:
		s.money(journal.TypeCollect, "bank", bankPlayer, s.bank)
		for _, x := range pontes {
			s.money(journal.TypePayout, "banco", x.player, x.amount)
		}
		s.keepsBank = false
	}
	s.emit(&journal.Event{Type: journal.TypeCoupEnd})
}

func (s *shift) tableauxCoup() {
	s.coupStart()
	type bet struct {
		spot, player string
		amount       int64
	}
	spots := []string{"right", "left", "both"}
	var bets []bet
	for i, n := 0, 2+s.r.IntN(5); i < n; i++ {
		b := bet{spots[s.r.IntN(3)], "P" + strconv.Itoa(i+1), s.stake()}
		bets = append(bets, b)
		s.bet(b.spot, b.player, b.amount)
	}
	s.emit(&journal.Event{Type: journal.TypeNoMoreBets, Cause: "announce"})
	names := []string{"right", "left", "banker"}
	hands := make([][]journal.Card, 3)
	for round := 0; round < 2; round++ {
		for h := range hands {
			hands[h] = append(hands[h], s.deal(names[h]))
		}
	}
	k2 := points(hands[2]...)
	thirds := []int{baccara.NoThird, baccara.NoThird}
	if k2 < 8 {
		for h := 0; h < 2; h++ {
			if pt := points(hands[h]...); pt < 8 {
				if d := baccara.PonteRule(pt); d == baccara.Draw || (d == baccara.Option && s.r.IntN(2) == 0) {
					hands[h] = append(hands[h], s.deal(names[h]))
					thirds[h] = baccara.Value(hands[h][2])
				}
			}
		}
		var ds []baccara.Decision
		for h := 0; h < 2; h++ {
			if points(hands[h][:2]...) < 8 {
				ds = append(ds, baccara.BankerRule(baccara.Conventional, k2, thirds[h]))
			}
		}
		draw := false
		if len(ds) > 0 {
			d := ds[0]
			for _, x := range ds[1:] {
				if x != d {
					d = baccara.Option
				}
			}
			draw = d == baccara.Draw || (d == baccara.Option && s.r.IntN(2) == 0)
		}
		if draw {
			hands[2] = append(hands[2], s.deal("banker"))
		}
	}
	// A tableau showing a natural meets the banker's first two cards (rules.natural_tableau).
	var res [2]int64
	for h := range res {
		k := points(hands[2]...)
		if points(hands[h][:2]...) >= 8 {
			k = k2
		}
		res[h] = sign(points(hands[h]...) - k)
	}
	var g []moneyEv
	for _, x := range bets {
		S := x.amount
		switch x.spot {
		case "right":
			net(&g, x.spot, x.player, res[0]*S)
		case "left":
			net(&g, x.spot, x.player, res[1]*S)
		default:
			// Both tableaux: each half of the stake follows one tableau (12.9, win and loss push).
			net(&g, x.spot, x.player, (res[0]+res[1])*S/2)
		}
	}
	s.settle(g)
	s.emit(&journal.Event{Type: journal.TypeCoupEnd})
}

// generate returns a journal of n coups of game.
func generate(t testing.TB, game string, n int, seed uint64) []byte {
	s := newShift(t, game, seed)
	for i := 0; i < n; i++ {
		switch game {
		case "punto_banco":
			s.puntoBancoCoup()
		case "chemin_de_fer":
			s.cheminCoup()
		default:
			s.tableauxCoup()
		}
	}
	return s.bytes()
}
