package baccara_test

import (
	"math"
	"testing"

	"github.com/coupwatch/coupwatch/games/baccara"
	"github.com/coupwatch/coupwatch/journal"
)

// outcomeCounts counts punto banco coups over the ordered six-card space of a shoe of decks
// decks, using the engine's own drawing rules (baccara.Point, IsNatural, PuntoRule, BancoRule).
// Cards are enumerated by baccara value with combinatorial weights: the number of ordered ways
// to draw them, times the ordered ways to draw the unused cards of the six.
func outcomeCounts(decks int) (banco, punto, tie uint64) {
	var left [10]uint64
	left[0] = uint64(16 * decks) // tens, jacks, queens, kings
	for v := 1; v <= 9; v++ {
		left[v] = uint64(4 * decks)
	}
	total := uint64(52 * decks)
	// One card of each value, for Point.
	card := [10]journal.Card{{Rank: journal.King, Suit: journal.Spades}}
	for v := 1; v <= 9; v++ {
		card[v] = journal.Card{Rank: journal.Rank(v), Suit: journal.Hearts}
	}
	// rest(k) is the number of ordered ways to draw the 6-k cards no hand uses.
	rest := func(k int) uint64 {
		n := uint64(1)
		for i := k; i < 6; i++ {
			n *= total - uint64(i)
		}
		return n
	}
	add := func(p, b int, w uint64) {
		switch {
		case b > p:
			banco += w
		case p > b:
			punto += w
		default:
			tie += w
		}
	}
	take := func(v int) uint64 { w := left[v]; left[v]--; return w }
	for p1 := 0; p1 < 10; p1++ {
		w1 := take(p1)
		for b1 := 0; b1 < 10; b1++ {
			w2 := w1 * take(b1)
			for p2 := 0; p2 < 10; p2++ {
				w3 := w2 * take(p2)
				for b2 := 0; b2 < 10; b2++ {
					w4 := w3 * take(b2)
					pt := baccara.Point(card[p1], card[p2])
					bt := baccara.Point(card[b1], card[b2])
					switch {
					case baccara.IsNatural(pt) || baccara.IsNatural(bt):
						add(pt, bt, w4*rest(4))
					case baccara.PuntoRule(pt) == baccara.Draw:
						for p3 := 0; p3 < 10; p3++ {
							w5 := w4 * take(p3)
							pf := baccara.Point(card[p1], card[p2], card[p3])
							if baccara.BancoRule(bt, p3) == baccara.Draw {
								for b3 := 0; b3 < 10; b3++ {
									w6 := w5 * left[b3]
									add(pf, baccara.Point(card[b1], card[b2], card[b3]), w6)
								}
							} else {
								add(pf, bt, w5*rest(5))
							}
							left[p3]++
						}
					case baccara.BancoRule(bt, baccara.NoThird) == baccara.Draw:
						for b3 := 0; b3 < 10; b3++ {
							w5 := w4 * take(b3)
							add(pt, baccara.Point(card[b1], card[b2], card[b3]), w5*rest(5))
							left[b3]++
						}
					default:
						add(pt, bt, w4*rest(4))
					}
					left[b2]++
				}
				left[p2]++
			}
			left[b1]++
		}
		left[p1]++
	}
	return banco, punto, tie
}

// TestEightDeckProbabilities reproduces the published exact counts of 8-deck punto banco over
// the ordered six-card space with the engine's drawing rules, and the house edges.
func TestEightDeckProbabilities(t *testing.T) {
	banco, punto, tie := outcomeCounts(8)
	const (
		wantBanco = 2292252566437888
		wantPunto = 2230518282592256
		wantTie   = 475627426473216
		wantTotal = 4998398275503360
	)
	if banco != wantBanco || punto != wantPunto || tie != wantTie {
		t.Errorf("counts: banco %d punto %d tie %d; want %d %d %d", banco, punto, tie, uint64(wantBanco), uint64(wantPunto), uint64(wantTie))
	}
	total := banco + punto + tie
	if total != wantTotal {
		t.Errorf("total %d, want %d (416×415×414×413×412×411)", total, uint64(wantTotal))
	}
	// House edge: banco pays 19 for 20 and pushes on a tie; punto pays 1 to 1.
	edgeBanco := (float64(punto) - 0.95*float64(banco)) / float64(total) * 100
	edgePunto := (float64(banco) - float64(punto)) / float64(total) * 100
	if math.Abs(edgeBanco-1.0579) > 0.00005 || math.Abs(edgePunto-1.2351) > 0.00005 {
		t.Errorf("house edge banco %.4f%% punto %.4f%%, want 1.0579%% and 1.2351%%", edgeBanco, edgePunto)
	}
}
