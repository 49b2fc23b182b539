package hand_test

import (
	"strings"
	"testing"

	"github.com/coupwatch/coupwatch/games/poker/hand"
	"github.com/coupwatch/coupwatch/journal"
)

func cards(t *testing.T, s string) []journal.Card {
	t.Helper()
	var out []journal.Card
	for _, f := range strings.Fields(s) {
		c, err := journal.ParseCard(f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, c)
	}
	return out
}

func TestBest(t *testing.T) {
	tests := []struct {
		cards string
		want  string
		royal bool
	}{
		{"AS KS QS JS TS", "straight flush [A K Q J T]", true},
		{"9H KH QH JH TH 2C 2D", "straight flush [K Q J T 9]", false},
		{"AD 2D 3D 4D 5D KC KH", "straight flush [5 4 3 2 A]", false},
		{"7C 7D 7H 7S 2C 3D AH", "four of a kind [7 7 7 7 A]", false},
		{"7C 7D 7H 7S KC KD KH", "four of a kind [7 7 7 7 K]", false},
		{"QC QD QH 7S 7C 2D 3H", "full house [Q Q Q 7 7]", false},
		{"QC QD QH 7S 7C 7D 3H", "full house [Q Q Q 7 7]", false},
		{"2C 2D 2H 7S 7C AD AH", "full house [2 2 2 A A]", false},
		{"2H 5H 9H JH KH AH 3C", "flush [A K J 9 5]", false},
		{"2H 3H 4H 5H 7H 6C 8D", "flush [7 5 4 3 2]", false},
		{"AS 2D 3C 4H 5S 9C 9D", "straight [5 4 3 2 A]", false},
		{"AS 2D 3C 4H 5S 6C KD", "straight [6 5 4 3 2]", false},
		{"TS JD QC KH AS 9C 9D", "straight [A K Q J T]", false},
		{"QS KD AC 2H 3S 7C 8D", "high card [A K Q 8 7]", false},
		{"8C 8D 8H AS KC 2D 3H", "three of a kind [8 8 8 A K]", false},
		{"8C 8D 4H 4S KC KD 3H", "two pair [K K 8 8 4]", false},
		{"8C 8D 4H 4S 2C 2D AH", "two pair [8 8 4 4 A]", false},
		{"JC JD 2H 5S 9C KD 3H", "pair [J J K 9 5]", false},
		{"2C 4D 6H 8S TC QD AH", "high card [A Q T 8 6]", false},
		{"KC KD 7S 7H 2C", "two pair [K K 7 7 2]", false},
		{"KC KD 7S 9H 2C 3D", "pair [K K 9 7 3]", false},
		{"KC KD 7S", "pair [K K 7]", false},
		{"XX KC KD 7S", "pair [K K 7]", false},
	}
	for _, tt := range tests {
		c := cards(t, tt.cards)
		v := hand.Best(c)
		if got := v.String(); got != tt.want {
			t.Errorf("Best(%s) = %s, want %s", tt.cards, got, tt.want)
		}
		if v.IsRoyal() != tt.royal {
			t.Errorf("Best(%s).IsRoyal() = %v", tt.cards, v.IsRoyal())
		}
		switch len(c) {
		case 5:
			if e := hand.Eval5([5]journal.Card(c)); e != v {
				t.Errorf("Eval5(%s) = %s, Best %s", tt.cards, e, v)
			}
		case 7:
			if e := hand.Eval7([7]journal.Card(c)); e != v {
				t.Errorf("Eval7(%s) = %s, Best %s", tt.cards, e, v)
			}
		}
	}
}

// TestOrder lists hands from the weakest to the strongest; equal neighbours tie.
func TestOrder(t *testing.T) {
	steps := []struct {
		cards string
		tie   bool // ties with the previous hand
	}{
		{"2C 3D 4H 5S 7C", false},
		{"2D 3H 4S 5C 7D", true}, // suits never break a tie
		{"2C 3D 4H 6S 7C", false},
		{"AC KD QH JS 9C", false},
		{"2C 2D 3H 4S 5D", false}, // the lowest pair
		{"2C 2D AH KS QD", false},
		{"AC AD 2H 3S 4C", false},
		{"AC AD KH QS JC", false},
		{"3C 3D 2H 2S 4C", false}, // the lowest two pair
		{"AC AD KH KS 2C", false},
		{"AC AD KH KS QC", false},
		{"AH AS KD KC QS", true},
		{"2C 2D 2H 3S 4C", false}, // the lowest three of a kind
		{"AC AD AH KS QC", false},
		{"AC 2D 3H 4S 5C", false}, // the wheel, the lowest straight
		{"2C 3D 4H 5S 6C", false},
		{"TC JD QH KS AC", false},
		{"2C 3C 4C 5C 7C", false}, // the lowest flush
		{"AD KD QD JD 9D", false},
		{"2C 2D 2H 3S 3C", false}, // the lowest full house
		{"AC AD AH KS KC", false},
		{"2C 2D 2H 2S 3C", false},
		{"AC AD AH AS KC", false},
		{"AC 2C 3C 4C 5C", false}, // steel wheel, the lowest straight flush
		{"9H TH JH QH KH", false},
		{"TS JS QS KS AS", false},
	}
	var prev hand.Value
	for i, s := range steps {
		v := hand.Eval5([5]journal.Card(cards(t, s.cards)))
		switch {
		case i == 0:
		case s.tie && v != prev:
			t.Errorf("%s (%s) should tie with the previous hand (%s)", s.cards, v, prev)
		case !s.tie && v <= prev:
			t.Errorf("%s (%s) should beat the previous hand (%s)", s.cards, v, prev)
		}
		prev = v
	}
}

func TestCategoryNames(t *testing.T) {
	want := []string{"high card", "pair", "two pair", "three of a kind", "straight", "flush", "full house", "four of a kind", "straight flush"}
	for c, w := range want {
		if got := hand.Category(c).String(); got != w {
			t.Errorf("Category(%d) = %q, want %q", c, got, w)
		}
	}
	want3 := []string{"high card", "pair", "flush", "straight", "three of a kind", "straight flush"}
	for c, w := range want3 {
		if got := hand.Category3(c).String(); got != w {
			t.Errorf("Category3(%d) = %q, want %q", c, got, w)
		}
	}
}

func TestEval3(t *testing.T) {
	tests := []struct {
		cards string
		want  string
	}{
		{"AS 2D 3C", "straight [3 2 A]"},
		{"QS KD AC", "straight [A K Q]"},
		{"KS AD 2C", "high card [A K 2]"}, // no wrap-around
		{"4S 5S 6S", "straight flush [6 5 4]"},
		{"AH 2H 3H", "straight flush [3 2 A]"},
		{"7C 7D 7H", "three of a kind [7 7 7]"},
		{"2C 9C KC", "flush [K 9 2]"},
		{"QH 5D QS", "pair [Q Q 5]"},
		{"5D QH 5S", "pair [5 5 Q]"},
		{"JC 8H 5D", "high card [J 8 5]"},
	}
	for _, tt := range tests {
		if got := hand.Eval3([3]journal.Card(cards(t, tt.cards))).String(); got != tt.want {
			t.Errorf("Eval3(%s) = %s, want %s", tt.cards, got, tt.want)
		}
	}
	// The three card poker ranking, weakest first: straight above flush, straight
	// flush above three of a kind; kickers decide within a category.
	order := []string{"JC 8H 5D", "QC 8H 5D", "QC 9H 2D", "2C 2D 3H", "2C 2D 4H", "AC AD KH",
		"2C 4C 6C", "2C 5C 6C", "AS 2D 3C", "2S 3D 4C", "QS KD AC", "2C 2D 2H", "AC AD AH", "AH 2H 3H", "QS KS AS"}
	var prev hand.Value3
	for i, s := range order {
		v := hand.Eval3([3]journal.Card(cards(t, s)))
		if i > 0 && v <= prev {
			t.Errorf("%s (%s) should beat %s (%s)", s, v, order[i-1], prev)
		}
		prev = v
	}
	if a, b := hand.Eval3([3]journal.Card(cards(t, "KC 9C 5C"))), hand.Eval3([3]journal.Card(cards(t, "KH 9H 5H"))); a != b {
		t.Errorf("K-9-5 flushes should tie: %s vs %s", a, b)
	}
}
