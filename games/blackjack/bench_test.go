package blackjack_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/coupwatch/coupwatch/games/gamestest"

	"github.com/coupwatch/coupwatch/games"
	"github.com/coupwatch/coupwatch/games/blackjack"
	"github.com/coupwatch/coupwatch/games/replay"
	"github.com/coupwatch/coupwatch/journal"
)

// genHand is a hand of the generated journal.
type genHand struct {
	spot    string
	cards   []journal.Card
	stake   int64
	split   bool
	doubled bool
	bust    bool
}

// blackjackJournal generates a correct six-deck blackjack journal of about n events, dealt from
// shuffled shoes with their burns and stop card: five boxes, Perfect Pairs and 21+3 now and then,
// splits of aces and eights, doubles on 10 and 11, hits to 17, the dealer standing on every 17,
// busts collected at once, side bets settled losers first and the final sweep from the dealer's
// right. One winning payout in about fifty is overpaid by 1.00; it returns the journal and the
// number of overpayments seeded.
func blackjackJournal(tb testing.TB, n int) ([]byte, int) {
	tb.Helper()
	rng := rand.New(rand.NewPCG(7, 11))
	var buf bytes.Buffer
	w := journal.NewWriter(&buf)
	t := time.Date(2026, 11, 22, 20, 0, 0, 0, time.UTC)
	events := 0
	emit := func(ev journal.Event) {
		t = t.Add(200 * time.Millisecond)
		ev.T, ev.Table = t, "BJ-B"
		if err := w.Write(&ev); err != nil {
			tb.Fatal(err)
		}
		events++
	}
	emit(journal.Event{Type: journal.TypeTableOpen, Game: "blackjack", Rules: []byte(`{"decks":6}`), HasLimits: true, Limits: journal.Limits{Min: 500, Max: 50000}})
	emit(journal.Event{Type: journal.TypeDealer, Dealer: "D-0001"})
	var deck []journal.Card
	next, stopAt := 0, 0
	shuffle := func() {
		deck = deck[:0]
		for d := 0; d < 6; d++ {
			for i := 0; i < 52; i++ {
				deck = append(deck, journal.CardFromIndex(i))
			}
		}
		rng.Shuffle(len(deck), func(i, j int) { deck[i], deck[j] = deck[j], deck[i] })
		next, stopAt = 0, len(deck)-80-rng.IntN(30)
	}
	stopped := true
	draw := func(to string) journal.Card {
		if next == stopAt {
			emit(journal.Event{Type: journal.TypeCard, To: "stop"})
			stopped = true
		}
		c := deck[next]
		next++
		emit(journal.Event{Type: journal.TypeCard, To: to, Card: c})
		return c
	}
	seeded := 0
	pay := func(spot, player string, net int64) {
		switch {
		case net > 0:
			if rng.IntN(50) == 0 {
				net += 100
				seeded++
			}
			emit(journal.Event{Type: journal.TypePayout, Spot: spot, Player: player, Amount: net, HasAmount: true})
		case net < 0:
			emit(journal.Event{Type: journal.TypeCollect, Spot: spot, Player: player, Amount: -net, HasAmount: true})
		}
	}
	total := func(cs []journal.Card) int { t, _ := blackjack.Total(cs); return t }
	for coup := 1; events < n; coup++ {
		emit(journal.Event{Type: journal.TypeCoupStart, Coup: fmt.Sprint(coup)})
		boxes := 1 + rng.IntN(5)
		stakes := make([]int64, boxes+1)
		pairs := make([]int64, boxes+1)
		plus3 := make([]int64, boxes+1)
		player := func(b int) string { return fmt.Sprintf("P%d", b) }
		for b := 1; b <= boxes; b++ {
			stakes[b] = int64(5+rng.IntN(45)) * 100
			emit(journal.Event{Type: journal.TypeBet, Spot: fmt.Sprintf("box:%d", b), Player: player(b), Amount: stakes[b]})
			if rng.IntN(4) == 0 {
				pairs[b] = int64(1+rng.IntN(5)) * 100
				emit(journal.Event{Type: journal.TypeBet, Spot: fmt.Sprintf("box:%d:pairs", b), Player: player(b), Amount: pairs[b]})
			}
			if rng.IntN(4) == 0 {
				plus3[b] = int64(1+rng.IntN(5)) * 100
				emit(journal.Event{Type: journal.TypeBet, Spot: fmt.Sprintf("box:%d:21+3", b), Player: player(b), Amount: plus3[b]})
			}
		}
		emit(journal.Event{Type: journal.TypeNoMoreBets, Cause: "announce"})
		if stopped {
			shuffle()
			stopped = false
			for i := 0; i < 5; i++ {
				next++
				emit(journal.Event{Type: journal.TypeCard, To: "burn"})
			}
		}
		hands := make([][]*genHand, boxes+1)
		for b := 1; b <= boxes; b++ {
			hands[b] = []*genHand{{spot: fmt.Sprintf("box:%d", b), stake: stakes[b]}}
			hands[b][0].cards = append(hands[b][0].cards, draw(hands[b][0].spot))
		}
		dealer := []journal.Card{draw("dealer")}
		for b := 1; b <= boxes; b++ {
			hands[b][0].cards = append(hands[b][0].cards, draw(hands[b][0].spot))
		}
		// Side bets: losers collected, then winners paid (AM 88-384 art. 5.2 6°-7°).
		type side struct {
			spot string
			p    string
			net  int64
		}
		var sides []side
		for b := 1; b <= boxes; b++ {
			c := hands[b][0].cards
			if pairs[b] > 0 {
				net := -pairs[b]
				if c[0].Rank == c[1].Rank {
					switch {
					case c[0] == c[1]:
						net = 25 * pairs[b]
					case c[0].Red() == c[1].Red():
						net = 12 * pairs[b]
					default:
						net = 6 * pairs[b]
					}
				}
				sides = append(sides, side{fmt.Sprintf("box:%d:pairs", b), player(b), net})
			}
			if plus3[b] > 0 {
				net := -plus3[b]
				if plus3Wins(c[0], c[1], dealer[0]) {
					net = 9 * plus3[b]
				}
				sides = append(sides, side{fmt.Sprintf("box:%d:21+3", b), player(b), net})
			}
		}
		for _, s := range sides {
			if s.net < 0 {
				pay(s.spot, s.p, s.net)
			}
		}
		for _, s := range sides {
			if s.net > 0 {
				pay(s.spot, s.p, s.net)
			}
		}
		// The players play box by box.
		for b := 1; b <= boxes; b++ {
			h0 := hands[b][0]
			c := h0.cards
			if c[0].Rank == c[1].Rank && (c[0].Rank == journal.Ace || c[0].Rank == 8) {
				emit(journal.Event{Type: journal.TypeAction, Player: player(b), Action: "split", Spot: h0.spot, Amount: stakes[b], HasAmount: true})
				h0.spot = fmt.Sprintf("box:%d.1", b)
				h1 := &genHand{spot: fmt.Sprintf("box:%d.2", b), stake: stakes[b], cards: []journal.Card{c[1]}, split: true}
				h0.cards, h0.split = c[:1:1], true
				hands[b] = append(hands[b], h1)
			}
			for _, h := range hands[b] {
				if h.split {
					h.cards = append(h.cards, draw(h.spot))
					if h.cards[0].Rank == journal.Ace {
						continue // split aces take one card each
					}
				}
				if t := total(h.cards); t == 10 || t == 11 {
					emit(journal.Event{Type: journal.TypeAction, Player: player(b), Action: "double", Spot: h.spot, Amount: h.stake, HasAmount: true})
					h.stake *= 2
					h.doubled = true
					h.cards = append(h.cards, draw(h.spot))
				} else {
					for total(h.cards) < 17 {
						emit(journal.Event{Type: journal.TypeAction, Player: player(b), Action: "hit", Spot: h.spot})
						h.cards = append(h.cards, draw(h.spot))
					}
					if total(h.cards) <= 21 && !(len(h.cards) == 2 && total(h.cards) == 21) {
						emit(journal.Event{Type: journal.TypeAction, Player: player(b), Action: "stand", Spot: h.spot})
					}
				}
				if total(h.cards) > 21 {
					h.bust = true
					pay(h.spot, player(b), -h.stake) // collected at once (L236)
				}
			}
		}
		live := false
		for b := 1; b <= boxes; b++ {
			for _, h := range hands[b] {
				live = live || !h.bust
			}
		}
		rule := blackjack.DealerRule{}
		if live {
			for rule.MustDraw(dealer) {
				dealer = append(dealer, draw("dealer"))
			}
		}
		d := total(dealer)
		dbj := len(dealer) == 2 && d == 21
		// The sweep from the dealer's right (L240).
		for b := boxes; b >= 1; b-- {
			for _, h := range hands[b] {
				if h.bust {
					continue
				}
				p := total(h.cards)
				bj := !h.split && len(h.cards) == 2 && p == 21
				var net int64
				switch {
				case bj && dbj:
				case bj:
					net = h.stake * 3 / 2
				case dbj:
					net = -h.stake
				case d > 21 || p > d:
					net = h.stake
				case p < d:
					net = -h.stake
				}
				pay(h.spot, player(b), net)
			}
		}
		emit(journal.Event{Type: journal.TypeCoupEnd})
	}
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes(), seeded
}

func plus3Wins(a, b, c journal.Card) bool {
	if a.Suit == b.Suit && b.Suit == c.Suit {
		return true
	}
	if a.Rank == b.Rank && b.Rank == c.Rank {
		return true
	}
	r := [3]int{int(a.Rank), int(b.Rank), int(c.Rank)}
	for pass := 0; pass < 2; pass++ {
		lo, hi := min(r[0], r[1], r[2]), max(r[0], r[1], r[2])
		if hi-lo == 2 && r[0] != r[1] && r[1] != r[2] && r[0] != r[2] {
			return true
		}
		for i := range r {
			if r[i] == 1 {
				r[i] = 14
			}
		}
	}
	return false
}

// TestGeneratedJournal replays the benchmark's journal: thousands of correct coups must yield
// the seeded overpayments and nothing else.
func TestGeneratedJournal(t *testing.T) {
	data, seeded := blackjackJournal(t, 60_000)
	cat, err := games.NewCatalog(blackjack.Games()...)
	if err != nil {
		t.Fatal(err)
	}
	var counts replay.Counts
	var first *games.Discrepancy
	err = replay.Run(cat, []replay.Source{{Name: "gen.jsonl", R: bytes.NewReader(data)}}, replay.Options{}, func(r games.Record) {
		counts.Add(r)
		if d, ok := r.(*games.Discrepancy); ok && d.Kind != games.WrongPayout && first == nil {
			first = d
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if first != nil {
		t.Fatalf("unexpected finding in coup %s: %s %s", first.Coup, first.Rule, first.Detail)
	}
	if seeded == 0 || counts.ByKind[games.WrongPayout] != seeded || counts.Discrepancies != seeded {
		t.Errorf("%d overpayments seeded, replay found %v", seeded, counts.ByKind)
	}
	t.Logf("%d coups, %d splits, %d doubles, %d stop cards, %d side bets; %d overpayments seeded",
		counts.Coups, bytes.Count(data, []byte(`"split"`)), bytes.Count(data, []byte(`"double"`)),
		bytes.Count(data, []byte(`"stop"`)), bytes.Count(data, []byte(`:pairs"`))+bytes.Count(data, []byte(`:21+3"`)), seeded)
	if counts.Coups < 1000 {
		t.Errorf("only %d coups", counts.Coups)
	}
}

// BenchmarkReplayBlackjack replays a generated one-million-event blackjack journal end to end:
// parsing, the rule engine, encoding every record.
//
//	go test ./games/blackjack -run '^$' -bench ReplayBlackjack -benchmem -cpu 1
func BenchmarkReplayBlackjack(b *testing.B) {
	data, _ := blackjackJournal(b, 1_000_000)
	gamestest.BenchReplay(b, gamestest.Catalog(b, blackjack.Games()...), data)
}
