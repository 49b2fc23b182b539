package prison_test

import (
	"reflect"
	"testing"

	"github.com/coupwatch/coupwatch/games"
	"github.com/coupwatch/coupwatch/games/prison"
	"github.com/coupwatch/coupwatch/journal"
)

func TestShareAndRelease(t *testing.T) {
	down := games.DefaultRounding()
	up := games.Rounding{Unit: 1, Mode: games.RoundUp}
	tests := []struct {
		r              games.Rounding
		initial        int64
		zeros          int
		share, reduced int64
	}{
		{down, 1000, 1, 500, 1000},
		{down, 1000, 2, 250, 500},
		{down, 1000, 3, 125, 250},
		{down, 1001, 1, 500, 1001},
		{up, 1001, 1, 501, 1001},
		{down, 1000, 4, 62, 125},
	}
	for _, tt := range tests {
		if got := prison.ShareBack(tt.r, tt.initial, tt.zeros); got != tt.share {
			t.Errorf("share back of %d at zero %d: %d, want %d", tt.initial, tt.zeros, got, tt.share)
		}
		if got := prison.ReleaseValue(tt.r, tt.initial, tt.zeros, true); got != tt.reduced {
			t.Errorf("reduced release of %d after %d zeros: %d, want %d", tt.initial, tt.zeros, got, tt.reduced)
		}
		if got := prison.ReleaseValue(tt.r, tt.initial, tt.zeros, false); got != tt.initial {
			t.Errorf("full release of %d: %d", tt.initial, got)
		}
	}
}

func TestBook(t *testing.T) {
	b := prison.NewBook()
	act := func(line int, player, action, spot string) *journal.Event {
		return &journal.Event{Line: line, Type: journal.TypeAction, Player: player, Action: action, Spot: spot}
	}
	b.Record(act(3, "P1", "share", "red"))
	b.Record(act(4, "P1", "prison", "red")) // the last choice counts
	b.Record(act(5, "P2", "share", "odd"))
	b.Record(act(6, "P3", "hit", "odd")) // not a choice
	b.Record(act(7, "P4", "prison", "black"))
	b.Record(act(8, "P10", "share", "")) // no spot: the player's choice for each of his stakes
	b.Record(act(9, "P11", "prison", ""))
	if b.Len() != 5 {
		t.Fatalf("%d choices recorded, want 5", b.Len())
	}
	r := games.DefaultRounding()
	c, ev := b.Decide(games.StakeKey{Spot: "red", Player: "P1"}, 1000, 1, prison.Share, r, nil)
	if c != prison.Prison || !reflect.DeepEqual(ev.Lines, []int{3, 4}) {
		t.Errorf("P1: %s %v", c, ev.Lines)
	}
	// No choice recorded: the default, unless the money shows a share's collect.
	money := games.NewLedger()
	money.Add(&journal.Event{Line: 9, Type: journal.TypeCollect, Spot: "even", Player: "P5", Amount: 500, HasAmount: true})
	money.Add(&journal.Event{Line: 10, Type: journal.TypeCollect, Spot: "low", Player: "P6", Amount: 1000, HasAmount: true})
	if c, _ := b.Decide(games.StakeKey{Spot: "even", Player: "P5"}, 1000, 1, prison.Prison, r, money); c != prison.Share {
		t.Errorf("a collect of half shows a share, got %s", c)
	}
	if c, _ := b.Decide(games.StakeKey{Spot: "low", Player: "P6"}, 1000, 1, prison.Prison, r, money); c != prison.Prison {
		t.Errorf("a collect of the whole stake is no share, got %s", c)
	}
	// The journal spec's refund: «half back at zero» shows a share too.
	money.Add(&journal.Event{Line: 11, Type: journal.TypeRefund, Spot: "odd", Player: "P8", Amount: 500, HasAmount: true})
	money.Add(&journal.Event{Line: 12, Type: journal.TypeRefund, Spot: "even", Player: "P9", Amount: 1000, HasAmount: true})
	if c, _ := b.Decide(games.StakeKey{Spot: "odd", Player: "P8"}, 1000, 1, prison.Prison, r, money); c != prison.Share {
		t.Errorf("a refund of half shows a share, got %s", c)
	}
	if c, _ := b.Decide(games.StakeKey{Spot: "even", Player: "P9"}, 1000, 1, prison.Prison, r, money); c != prison.Prison {
		t.Errorf("a refund of the whole stake is no share, got %s", c)
	}
	if c, _ := b.Decide(games.StakeKey{Spot: "high", Player: "P7"}, 1000, 2, prison.Share, r, money); c != prison.Share {
		t.Errorf("the default, got %s", c)
	}
	for _, spot := range []string{"red", "even"} {
		if c, ev := b.Decide(games.StakeKey{Spot: spot, Player: "P10"}, 1000, 1, prison.Prison, r, nil); c != prison.Share || !reflect.DeepEqual(ev.Lines, []int{8}) {
			t.Errorf("P10 %s: a choice with no spot applies to each stake, got %s %v", spot, c, ev.Lines)
		}
	}
	var unused []string
	for _, u := range b.Unused() {
		unused = append(unused, u.Key.Spot+" "+u.Key.Player+" "+string(u.Choice))
		if u.Key.Spot == "" && u.Where() != "his stakes" {
			t.Errorf("Where() = %q for a choice with no spot", u.Where())
		}
	}
	if want := []string{" P11 prison", "black P4 prison", "odd P2 share"}; !reflect.DeepEqual(unused, want) {
		t.Errorf("unused %v, want %v", unused, want)
	}
	b.Reset()
	if b.Len() != 0 || len(b.Unused()) != 0 {
		t.Error("reset")
	}
}

func TestParseChoice(t *testing.T) {
	for s, ok := range map[string]bool{"share": true, "prison": true, "half": false, "": false} {
		if _, got := prison.ParseChoice(s); got != ok {
			t.Errorf("%q: %v", s, got)
		}
	}
}

// TestShareZeros: with prison_release full a share is always reckoned at the first zero.
func TestShareZeros(t *testing.T) {
	for _, tt := range []struct {
		n       int
		reduced bool
		want    int
	}{{1, true, 1}, {2, true, 2}, {3, true, 3}, {1, false, 1}, {2, false, 1}, {3, false, 1}} {
		if got := prison.ShareZeros(tt.n, tt.reduced); got != tt.want {
			t.Errorf("ShareZeros(%d, %v) = %d, want %d", tt.n, tt.reduced, got, tt.want)
		}
	}
}
