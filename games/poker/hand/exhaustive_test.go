package hand_test

import (
	"testing"

	"github.com/coupwatch/coupwatch/games/poker/hand"
	"github.com/coupwatch/coupwatch/journal"
)

// The published category counts: every hand of a 52-card deck, by category.
var (
	fiveCardCounts = [9]int{
		hand.HighCard: 1_302_540, hand.Pair: 1_098_240, hand.TwoPair: 123_552, hand.Trips: 54_912,
		hand.Straight: 10_200, hand.Flush: 5_108, hand.FullHouse: 3_744, hand.Quads: 624, hand.StraightFlush: 40,
	}
	sevenCardCounts = [9]int{
		hand.HighCard: 23_294_460, hand.Pair: 58_627_800, hand.TwoPair: 31_433_400, hand.Trips: 6_461_620,
		hand.Straight: 6_180_020, hand.Flush: 4_047_644, hand.FullHouse: 3_473_184, hand.Quads: 224_848, hand.StraightFlush: 41_584,
	}
	threeCardCounts = [6]int{
		hand.High3: 16_440, hand.Pair3: 3_744, hand.Flush3: 1_096, hand.Straight3: 720, hand.Trips3: 52, hand.StraightFlush3: 48,
	}
)

func deck() [52]journal.Card {
	var d [52]journal.Card
	for i := range d {
		d[i] = journal.CardFromIndex(i)
	}
	return d
}

// TestFiveCardCounts rates all 2,598,960 five-card hands, through Eval5 and Best.
func TestFiveCardCounts(t *testing.T) {
	d := deck()
	var viaEval5, viaBest [9]int
	var c [5]journal.Card
	royals := 0
	for a := 0; a < 52; a++ {
		c[0] = d[a]
		for b := a + 1; b < 52; b++ {
			c[1] = d[b]
			for e := b + 1; e < 52; e++ {
				c[2] = d[e]
				for f := e + 1; f < 52; f++ {
					c[3] = d[f]
					for g := f + 1; g < 52; g++ {
						c[4] = d[g]
						v := hand.Eval5(c)
						viaEval5[v.Category()]++
						viaBest[hand.Best(c[:]).Category()]++
						if v.IsRoyal() {
							royals++
						}
					}
				}
			}
		}
	}
	if viaEval5 != fiveCardCounts {
		t.Errorf("Eval5 counts %v, want %v", viaEval5, fiveCardCounts)
	}
	if viaBest != fiveCardCounts {
		t.Errorf("Best counts %v, want %v", viaBest, fiveCardCounts)
	}
	if royals != 4 {
		t.Errorf("%d royal flushes, want 4", royals)
	}
}

// TestSevenCardCounts rates all 133,784,560 seven-card hands through Eval7. The hand
// array is updated one card per loop level, so the loops cost little beside Eval7;
// the two halves of the first-card range run in parallel. Skipped under -short only.
func TestSevenCardCounts(t *testing.T) {
	if testing.Short() {
		t.Skip("133,784,560 hands: skipped under -short")
	}
	d := deck()
	count := func(firsts []int, out *[9]int) {
		var c [7]journal.Card
		var n [9]int
		for _, a := range firsts {
			c[0] = d[a]
			for b := a + 1; b < 52; b++ {
				c[1] = d[b]
				for e := b + 1; e < 52; e++ {
					c[2] = d[e]
					for f := e + 1; f < 52; f++ {
						c[3] = d[f]
						for g := f + 1; g < 52; g++ {
							c[4] = d[g]
							for h := g + 1; h < 52; h++ {
								c[5] = d[h]
								for i := h + 1; i < 52; i++ {
									c[6] = d[i]
									n[hand.Eval7(c).Category()]++
								}
							}
						}
					}
				}
			}
		}
		*out = n
	}
	// Hands starting with card 0 are the most numerous: deal the first cards
	// alternately so the two halves are about even.
	var halves [2][]int
	for a := 0; a <= 45; a++ {
		halves[a%2] = append(halves[a%2], a)
	}
	var got [2][9]int
	done := make(chan struct{})
	go func() { count(halves[1], &got[1]); close(done) }()
	count(halves[0], &got[0])
	<-done
	var total [9]int
	sum := 0
	for k := range total {
		total[k] = got[0][k] + got[1][k]
		sum += total[k]
	}
	if sum != 133_784_560 {
		t.Errorf("%d hands rated, want 133784560", sum)
	}
	if total != sevenCardCounts {
		t.Errorf("Eval7 counts %v, want %v", total, sevenCardCounts)
	}
}

// TestThreeCardCounts rates all 22,100 three-card hands.
func TestThreeCardCounts(t *testing.T) {
	d := deck()
	var n [6]int
	for a := 0; a < 52; a++ {
		for b := a + 1; b < 52; b++ {
			for c := b + 1; c < 52; c++ {
				n[hand.Eval3([3]journal.Card{d[a], d[b], d[c]}).Category()]++
			}
		}
	}
	if n != threeCardCounts {
		t.Errorf("Eval3 counts %v, want %v", n, threeCardCounts)
	}
}
