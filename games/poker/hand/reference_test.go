package hand

import (
	"math/rand/v2"
	"testing"

	"github.com/coupwatch/coupwatch/journal"
)

// refEval5 is a deliberately plain five-card evaluator, written from the rules of
// poker with rank counts and sorting, independent of the bit tricks of evalMask. It
// is the oracle the fast evaluator is checked against.
func refEval5(cards [5]journal.Card) Value {
	var count [15]int
	flush := true
	for _, c := range cards {
		count[highRank(c.Rank)]++
		if c.Suit != cards[0].Suit {
			flush = false
		}
	}
	straight := uint32(0)
	for top := uint32(14); top >= 6 && straight == 0; top-- {
		ok := true
		for r := top - 4; r <= top; r++ {
			ok = ok && count[r] == 1
		}
		if ok {
			straight = top
		}
	}
	if straight == 0 && count[14] == 1 && count[2] == 1 && count[3] == 1 && count[4] == 1 && count[5] == 1 {
		straight = 5 // the wheel
	}
	// Ranks ordered by (count, rank), both descending.
	var order []uint32
	for n := 4; n >= 1; n-- {
		for r := uint32(14); r >= 2; r-- {
			if count[r] == n {
				order = append(order, r)
			}
		}
	}
	pack := func(cat Category, ranks []uint32) Value {
		v := Value(cat) << categoryShift
		for i, r := range ranks {
			v |= Value(r) << (16 - 4*i)
		}
		return v
	}
	top := count[order[0]]
	switch {
	case straight != 0 && flush:
		return pack(StraightFlush, []uint32{straight})
	case top == 4:
		return pack(Quads, order)
	case top == 3 && len(order) == 2:
		return pack(FullHouse, order)
	case flush:
		return pack(Flush, order)
	case straight != 0:
		return pack(Straight, []uint32{straight})
	case top == 3:
		return pack(Trips, order)
	case top == 2 && len(order) == 3:
		return pack(TwoPair, order)
	case top == 2:
		return pack(Pair, order)
	}
	return pack(HighCard, order)
}

// refBest is the best refEval5 over every five-card subset.
func refBest(cards []journal.Card) Value {
	var best Value
	n := len(cards)
	for a := 0; a < n; a++ {
		for b := a + 1; b < n; b++ {
			for c := b + 1; c < n; c++ {
				for d := c + 1; d < n; d++ {
					for e := d + 1; e < n; e++ {
						best = max(best, refEval5([5]journal.Card{cards[a], cards[b], cards[c], cards[d], cards[e]}))
					}
				}
			}
		}
	}
	return best
}

// TestEval5MatchesReference compares every five-card hand with the plain evaluator,
// Value for Value, and checks the 7,462 distinct hand values of poker.
func TestEval5MatchesReference(t *testing.T) {
	seen := make(map[Value]bool, 7462)
	var c [5]journal.Card
	for a := 0; a < 52; a++ {
		c[0] = journal.CardFromIndex(a)
		for b := a + 1; b < 52; b++ {
			c[1] = journal.CardFromIndex(b)
			for d := b + 1; d < 52; d++ {
				c[2] = journal.CardFromIndex(d)
				for e := d + 1; e < 52; e++ {
					c[3] = journal.CardFromIndex(e)
					for f := e + 1; f < 52; f++ {
						c[4] = journal.CardFromIndex(f)
						got, want := Eval5(c), refEval5(c)
						if got != want {
							t.Fatalf("Eval5(%v) = %v (%#x), reference %v (%#x)", c, got, uint32(got), want, uint32(want))
						}
						seen[got] = true
					}
				}
			}
		}
	}
	if len(seen) != 7462 {
		t.Errorf("%d distinct five-card values, want 7462", len(seen))
	}
}

// TestBestMatchesReference compares random hands of five to nine cards with the best
// of their five-card subsets under the plain evaluator (nine cards can hold two
// flushes, or a flush beside a full house).
func TestBestMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	n := 200_000
	if testing.Short() {
		n = 20_000
	}
	for i := 0; i < n; i++ {
		perm := rng.Perm(52)
		size := 5 + i%5
		cards := make([]journal.Card, size)
		for j := range cards {
			cards[j] = journal.CardFromIndex(perm[j])
		}
		want := refBest(cards)
		if got := Best(cards); got != want {
			t.Fatalf("Best(%v) = %v, reference %v", cards, got, want)
		}
		if size == 7 {
			if got := Eval7([7]journal.Card(cards)); got != want {
				t.Fatalf("Eval7(%v) = %v, reference %v", cards, got, want)
			}
		}
	}
}

// TestFaceDownCards checks that face-down and malformed cards add nothing to a hand.
func TestFaceDownCards(t *testing.T) {
	for _, c := range []journal.Card{{}, {Rank: journal.Ace}, {Rank: journal.King}, {Suit: journal.Spades}, {Rank: 5, Suit: 7}, {Rank: 14, Suit: journal.Clubs}} {
		if b := bit(c) & liveBits; b != 0 {
			t.Errorf("bit(%+v) = %#x, want no live bit", c, b)
		}
	}
	valid := []journal.Card{{Rank: 2, Suit: journal.Spades}, {Rank: 3, Suit: journal.Spades}, {Rank: 9, Suit: journal.Hearts}}
	c := [7]journal.Card{{Rank: journal.Queen}, {Rank: journal.Queen}, {}, {}, valid[0], valid[1], valid[2]}
	if got := Eval7(c); got.String() != "high card [9 3 2]" {
		t.Errorf("Eval7 with face-down cards = %v, want high card [9 3 2]", got)
	}
}
