package blackjack_test

import (
	"math/big"
	"testing"

	"github.com/coupwatch/coupwatch/games/blackjack"
	"github.com/coupwatch/coupwatch/journal"
)

// dealerOutcomes are the dealer's final outcomes, in the published table's column order.
var dealerOutcomes = []string{"17", "18", "19", "20", "21", "BJ", "bust"}

// publishedS17 is the published table of the dealer's final outcome probabilities for an
// infinite deck, dealer stands on soft 17, before any peek for blackjack (the no-hole-card game
// of Monaco, where the dealer's blackjack is one of his outcomes), by up card, to six decimals.
// Source: the infinite-deck dealer outcome table in the layout of the Wizard of Odds,
// «Blackjack Appendix 2B — Dealer Probabilities» (wizardofodds.com/games/blackjack/appendix/2b/,
// which gives the same S17, no-peek outcomes for 1 to 8 decks; the infinite-deck figures are
// their limit and are the standard reference values: bust 0.353608 with a 2 up, 0.423150 with a
// 6, 0.212109 with a ten, 0.115286 with an ace).
var publishedS17 = map[journal.Rank][7]float64{
	2:           {0.139809, 0.134907, 0.129655, 0.124026, 0.117993, 0, 0.353608},
	3:           {0.135034, 0.130482, 0.125581, 0.120329, 0.114700, 0, 0.373875},
	4:           {0.130490, 0.125938, 0.121386, 0.116485, 0.111233, 0, 0.394468},
	5:           {0.122251, 0.122251, 0.117700, 0.113148, 0.108246, 0, 0.416404},
	6:           {0.165438, 0.106267, 0.106267, 0.101715, 0.097163, 0, 0.423150},
	7:           {0.368566, 0.137797, 0.078625, 0.078625, 0.074074, 0, 0.262312},
	8:           {0.128567, 0.359336, 0.128567, 0.069395, 0.069395, 0, 0.244741},
	9:           {0.119995, 0.119995, 0.350765, 0.119995, 0.060824, 0, 0.228425},
	journal.Ten: {0.111424, 0.111424, 0.111424, 0.342194, 0.034501, 0.076923, 0.212109},
	journal.Ace: {0.130789, 0.130789, 0.130789, 0.130789, 0.053866, 0.307692, 0.115286},
}

// dealerDistribution computes exactly, with rational arithmetic, the probability of each final
// outcome of a dealer who starts from cards and draws by the engine's own rule from an infinite
// deck (each rank 1/13, the four ten-valued ranks together 4/13).
func dealerDistribution(rule blackjack.DealerRule, cards []journal.Card, p *big.Rat, out map[string]*big.Rat) {
	if !rule.MustDraw(cards) {
		k := "bust"
		switch t := rule.Total(cards); {
		case blackjack.IsBlackjack(cards):
			k = "BJ"
		case t <= 21:
			k = dealerOutcomes[t-17]
		}
		out[k].Add(out[k], p)
		return
	}
	for r := journal.Ace; r <= journal.Ten; r++ {
		w := int64(1)
		if r == journal.Ten {
			w = 4
		}
		q := new(big.Rat).Mul(p, big.NewRat(w, 13))
		next := append(cards[:len(cards):len(cards)], journal.Card{Rank: r, Suit: journal.Spades})
		dealerDistribution(rule, next, q, out)
	}
}

// TestDealerProbabilitiesInfiniteDeck checks the engine's drawing rule (stand on every 17,
// soft 17 included: AM 88-384 art. 5.2 1°, L238) against the published infinite-deck S17
// dealer outcome table.
func TestDealerProbabilitiesInfiniteDeck(t *testing.T) {
	rule := blackjack.DealerRule{}
	for up, want := range publishedS17 {
		out := map[string]*big.Rat{}
		for _, k := range dealerOutcomes {
			out[k] = new(big.Rat)
		}
		dealerDistribution(rule, []journal.Card{{Rank: up, Suit: journal.Hearts}}, big.NewRat(1, 1), out)
		sum := new(big.Rat)
		for i, k := range dealerOutcomes {
			sum.Add(sum, out[k])
			got, _ := out[k].Float64()
			if d := got - want[i]; d > 5e-7 || d < -5e-7 {
				t.Errorf("up card %s: P(%s) = %.9f, published %.6f", journal.Card{Rank: up, Suit: journal.Hearts}, k, got, want[i])
			}
		}
		if sum.Cmp(big.NewRat(1, 1)) != 0 {
			t.Errorf("up card %d: the outcomes add up to %s, not 1", up, sum.FloatString(12))
		}
	}
}

// TestDealerRuleReadings pins the two readings of «17 ou 21» on the hands where they differ.
func TestDealerRuleReadings(t *testing.T) {
	c := func(s ...string) []journal.Card {
		var cs []journal.Card
		for _, x := range s {
			k, err := journal.ParseCard(x)
			if err != nil {
				t.Fatal(err)
			}
			cs = append(cs, k)
		}
		return cs
	}
	tests := []struct {
		cards         []journal.Card
		total, liter  int
		draw, drawLit bool
	}{
		{c("AH", "6C"), 17, 17, false, false},
		{c("AH", "7C"), 18, 8, false, true},
		{c("AH", "9C"), 20, 10, false, true},
		{c("AH", "TC"), 21, 21, false, false},
		{c("AH", "5C"), 16, 6, true, true},
		{c("AH", "5C", "TD"), 16, 16, true, true},
		{c("AH", "AD", "5C"), 17, 17, false, false},
		{c("TH", "6C"), 16, 16, true, true},
		{c("TH", "7C"), 17, 17, false, false},
		{c("TH", "6C", "9D"), 25, 25, false, false},
	}
	std, lit := blackjack.DealerRule{}, blackjack.DealerRule{Literal: true}
	for _, tt := range tests {
		if got := std.Total(tt.cards); got != tt.total {
			t.Errorf("%v: total %d, want %d", tt.cards, got, tt.total)
		}
		if got := lit.Total(tt.cards); got != tt.liter {
			t.Errorf("%v: literal total %d, want %d", tt.cards, got, tt.liter)
		}
		if got := std.MustDraw(tt.cards); got != tt.draw {
			t.Errorf("%v: must draw %v", tt.cards, got)
		}
		if got := lit.MustDraw(tt.cards); got != tt.drawLit {
			t.Errorf("%v: literal must draw %v", tt.cards, got)
		}
	}
}
