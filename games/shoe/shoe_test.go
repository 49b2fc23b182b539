package shoe_test

import (
	"testing"

	"github.com/coupwatch/coupwatch/games/shoe"
	"github.com/coupwatch/coupwatch/journal"
)

func TestComposition(t *testing.T) {
	s := shoe.New(2)
	ah, _ := journal.ParseCard("AH")
	for i := 0; i < 2; i++ {
		if !s.Deal(ah) {
			t.Fatalf("ace of hearts number %d does not fit in two decks", i+1)
		}
	}
	if s.Deal(ah) {
		t.Error("a third ace of hearts in two decks must be reported")
	}
	s.Deal(journal.Card{})
	if s.Dealt() != 4 || s.Remaining() != 100 || s.Seen(ah) != 3 {
		t.Errorf("dealt %d remaining %d seen %d", s.Dealt(), s.Remaining(), s.Seen(ah))
	}
	if !s.Reveal(journal.Card{Rank: journal.King, Suit: journal.Spades}) || s.Dealt() != 4 {
		t.Error("a revealed card is not dealt again")
	}
	s.Reset()
	if s.Dealt() != 0 || s.Seen(ah) != 0 || !s.Deal(ah) {
		t.Error("reset")
	}
}
