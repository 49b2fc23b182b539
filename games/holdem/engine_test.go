package holdem_test

import (
	"reflect"
	"strings"
	"testing"
)

// std is a four-handed coup: seats 1-4, button 4, small blind 1, big blind 2, every player
// limps, P3 bets the flop and P1 calls, P1 bets the river and P3 calls; P1 (aces) beats P3
// (kings). The pot is 3600.
func std(tb *table, id string) *table {
	return tb.coup(id, 1, 2).deal(1, 2, 3, 4).
		act(3, "call", 200).act(4, "call", 200).act(1, "call", 100).act(2, "check", 0).
		flop("2C", "7D", "9H").
		act(1, "check", 0).act(2, "check", 0).act(3, "bet", 400).act(4, "fold", 0).act(1, "call", 400).act(2, "fold", 0).
		turn("KS").act(1, "check", 0).act(3, "check", 0).
		river("3D").act(1, "bet", 1000).act(3, "call", 1000).
		reveal(1, "AH", "AD").reveal(3, "KH", "QH")
}

func TestCoups(t *testing.T) {
	tests := []struct {
		name  string
		src   string
		rules []string
		due   map[string]int64
	}{
		{
			name: "clean showdown, 5% rake",
			src:  std(newTable(`{"rake":"percent","rake_percent":5}`), "1").rake(180).pay("pot:main", 1, 3420).end().String(),
			due:  map[string]int64{"1 pot:main P1": 3420, "1 rake house": 180},
		},
		{
			name:  "wrong winner paid and rake short",
			src:   std(newTable(""), "1").rake(100).pay("pot:main", 3, 3420).end().String(),
			rules: []string{"1:pot_award:P3", "1:rake:house"},
			due:   map[string]int64{"1 pot:main P1": 3420, "1 rake house": 180},
		},
		{
			name: "everyone folds to a raise: the whole pot, raked (L89)",
			src: newTable("").coup("1", 1, 2).deal(1, 2, 3, 4).
				act(3, "raise", 600).act(4, "fold", 0).act(1, "fold", 0).act(2, "fold", 0).
				rake(45).pay("pot:main", 3, 855).end().String(),
			due: map[string]int64{"1 pot:main P3": 855, "1 rake house": 45},
		},
		{
			name: "uncalled bet returned, no flop no drop",
			src: newTable(`{"uncalled_bet":"return","no_flop_no_drop":true}`).coup("1", 1, 2).deal(1, 2, 3, 4).
				act(3, "raise", 600).act(4, "fold", 0).act(1, "fold", 0).act(2, "fold", 0).
				line(`"type":"refund","spot":"seat:3","player":"P3","amount":400`).pay("pot:main", 3, 500).end().String(),
			due: map[string]int64{"1 pot:main P3": 500, "1 seat:3 P3": 0, "1 rake house": 0},
		},
		{
			name: "speaking out of turn, then the player passed over speaks",
			src: newTable("").coup("1", 1, 2).deal(1, 2, 3, 4).
				act(4, "call", 200).act(3, "call", 200).act(1, "call", 100).act(2, "check", 0).
				flop("2C", "7D", "9H").act(1, "check", 0).act(2, "check", 0).act(3, "check", 0).act(4, "check", 0).
				turn("KS").act(1, "check", 0).act(2, "check", 0).act(3, "check", 0).act(4, "check", 0).
				river("3D").act(1, "check", 0).act(2, "check", 0).act(3, "check", 0).act(4, "check", 0).
				reveal(1, "AH", "AD").reveal(2, "5C", "6C").reveal(3, "KH", "QH").reveal(4, "4S", "4H").end().String(),
			rules: []string{"1:action_order:P4"},
			due:   map[string]int64{"1 pot:main P1": 760, "1 rake house": 40},
		},
		{
			name: "post-flop the small blind speaks first, not the big blind",
			src: newTable("").coup("1", 1, 2).deal(1, 2, 3, 4).
				act(3, "call", 200).act(4, "call", 200).act(1, "call", 100).act(2, "check", 0).
				flop("2C", "7D", "9H").act(2, "check", 0).act(1, "check", 0).act(3, "check", 0).act(4, "check", 0).end().String(),
			rules: []string{"1:action_order:P2"},
		},
		{
			name: "big blind did not speak before the flop",
			src: newTable("").coup("1", 1, 2).deal(1, 2, 3, 4).
				act(3, "call", 200).act(4, "call", 200).act(1, "call", 100).
				flop("2C", "7D", "9H").act(1, "check", 0).act(2, "check", 0).end().String(),
			rules: []string{"1:betting_round"},
		},
		{
			name: "check facing a bet, corrected by a call",
			src: newTable("").coup("1", 1, 2).deal(1, 2, 3, 4).
				act(3, "call", 200).act(4, "call", 200).act(1, "call", 100).act(2, "check", 0).
				flop("2C", "7D", "9H").act(1, "bet", 200).act(2, "check", 0).act(2, "call", 200).act(3, "fold", 0).act(4, "fold", 0).
				turn("KS").end().String(),
			rules: []string{"1:illegal_action:P2"},
		},
		{
			name: "small blind calls the wrong amount",
			src: newTable("").coup("1", 1, 2).deal(1, 2, 3, 4).
				act(3, "call", 200).act(4, "call", 200).act(1, "call", 200).act(2, "check", 0).
				flop("2C", "7D", "9H").end().String(),
			rules: []string{"1:illegal_action:P1"},
		},
		{
			name: "opening bet under the big blind, all-in under it allowed",
			src: newTable("").coup("1", 1, 2).deal(1, 2, 3, 4).
				act(3, "call", 200).act(4, "call", 200).act(1, "call", 100).act(2, "check", 0).
				flop("2C", "7D", "9H").act(1, "bet", 100).act(2, "all_in", 150).act(3, "call", 150).act(4, "call", 150).act(1, "call", 50).
				turn("KS").end().String(),
			rules: []string{"1:min_bet:P1"},
		},
		{
			name: "re-raise under double the highest bet (Monaco)",
			src: newTable("").coup("1", 1, 2).deal(1, 2, 3, 4).
				act(3, "call", 200).act(4, "call", 200).act(1, "call", 100).act(2, "check", 0).
				flop("2C", "7D", "9H").act(1, "bet", 400).act(2, "raise", 800).act(3, "raise", 1200).act(4, "fold", 0).
				act(1, "fold", 0).act(2, "call", 400).turn("KS").end().String(),
			rules: []string{"1:min_raise:P3"},
		},
		{
			name: "the same re-raise under the usual rule (increment)",
			src: newTable(`{"min_raise":"increment"}`).coup("1", 1, 2).deal(1, 2, 3, 4).
				act(3, "call", 200).act(4, "call", 200).act(1, "call", 100).act(2, "check", 0).
				flop("2C", "7D", "9H").act(1, "bet", 400).act(2, "raise", 800).act(3, "raise", 1200).act(4, "fold", 0).
				act(1, "fold", 0).act(2, "call", 400).turn("KS").end().String(),
		},
		{
			name: "short all-in raise, then a raise to double it",
			src: newTable("").coup("1", 1, 2).deal(1, 2, 3, 4).
				act(3, "raise", 400).act(4, "all_in", 500).act(1, "fold", 0).act(2, "fold", 0).act(3, "raise", 1000).
				flop("2C", "7D", "9H").turn("KS").river("3D").
				reveal(3, "AH", "AD").reveal(4, "KH", "QH").end().String(),
			due: map[string]int64{"1 pot:main P3": 1235, "1 pot:side1 P3": 855},
		},
		{
			name: "missing burn before the turn, two burns before the river",
			src: newTable("").coup("1", 1, 2).deal(1, 2, 3, 4).
				act(3, "call", 200).act(4, "call", 200).act(1, "call", 100).act(2, "check", 0).
				flop("2C", "7D", "9H").act(1, "check", 0).act(2, "check", 0).act(3, "check", 0).act(4, "check", 0).
				board("KS").act(1, "check", 0).act(2, "check", 0).act(3, "check", 0).act(4, "check", 0).
				burn().burn().board("3D").end().String(),
			rules: []string{"1:burn", "1:burn"},
		},
		{
			name: "deal starts with the big blind",
			src: newTable("").coup("1", 1, 2).deal(2, 3, 4, 1).
				act(3, "fold", 0).act(4, "fold", 0).act(1, "fold", 0).end().String(),
			rules: []string{"1:deal"},
			due:   map[string]int64{"1 pot:main P2": 285},
		},
		{
			name: "a seat dealt three cards",
			src: newTable("").coup("1", 1, 2).deal(1, 2, 3, 4).line(`"type":"card","to":"seat:3","card":"XX"`).
				act(3, "fold", 0).act(4, "fold", 0).act(1, "fold", 0).end().String(),
			rules: []string{"1:deal:P3"},
		},
		{
			name: "button moves clockwise each coup",
			src: newTable("").coup("1", 1, 2).deal(1, 2, 3, 4).act(3, "fold", 0).act(4, "fold", 0).act(1, "fold", 0).end().
				coup("2", 2, 3).deal(2, 3, 4, 1).act(4, "fold", 0).act(1, "fold", 0).act(2, "fold", 0).end().
				coup("3", 2, 3).deal(2, 3, 4, 1).act(4, "fold", 0).act(1, "fold", 0).act(2, "fold", 0).end().String(),
			rules: []string{"3:button:P2"},
		},
		{
			name: "big blind over twice the small blind, then blinds changed",
			src: newTable("").
				line(`"type":"coup_start","coup":"1"`).act(1, "post_sb", 100).act(2, "post_bb", 300).deal(1, 2, 3, 4).
				act(3, "fold", 0).act(4, "fold", 0).act(1, "fold", 0).end().
				coup("2", 2, 3).deal(2, 3, 4, 1).act(4, "fold", 0).act(1, "fold", 0).act(2, "fold", 0).end().
				line(`"type":"coup_start","coup":"3"`).act(3, "post_sb", 200).act(4, "post_bb", 400).deal(3, 4, 1, 2).
				act(1, "fold", 0).act(2, "fold", 0).act(3, "fold", 0).end().String(),
			rules: []string{"1:blinds:P2", "3:blinds:P3"},
		},
		{
			name: "big blind posted by the wrong seat",
			src: newTable("").line(`"type":"coup_start","coup":"1"`).act(1, "post_sb", 100).act(3, "post_bb", 200).deal(1, 2, 3, 4).
				act(4, "fold", 0).act(1, "fold", 0).act(2, "fold", 0).end().String(),
			rules: []string{"1:blinds:P3"},
		},
		{
			name: "option: twice the big blind, speaks last and checks",
			src: newTable("").coup("1", 1, 2).act(3, "option", 400).deal(1, 2, 3, 4).
				act(4, "call", 400).act(1, "call", 300).act(2, "call", 200).act(3, "check", 0).
				flop("2C", "7D", "9H").act(1, "check", 0).act(2, "check", 0).act(3, "check", 0).act(4, "check", 0).end().String(),
		},
		{
			name: "option of the wrong amount, and raises from double the option",
			src: newTable("").coup("1", 1, 2).act(3, "option", 300).deal(1, 2, 3, 4).
				act(4, "raise", 600).act(1, "fold", 0).act(2, "fold", 0).act(3, "call", 300).
				flop("2C", "7D", "9H").end().String(),
			rules: []string{"1:option:P3"},
		},
		{
			name: "option posted after the deal",
			src: newTable("").coup("1", 1, 2).deal(1, 2, 3, 4).act(3, "option", 400).
				act(4, "call", 400).act(1, "fold", 0).act(2, "fold", 0).act(3, "check", 0).
				flop("2C", "7D", "9H").end().String(),
			rules: []string{"1:option:P3"},
		},
		{
			name: "the option player speaks before the others",
			src: newTable("").coup("1", 1, 2).act(3, "option", 400).deal(1, 2, 3, 4).
				act(3, "check", 0).act(4, "call", 400).act(1, "fold", 0).act(2, "fold", 0).
				flop("2C", "7D", "9H").end().String(),
			rules: []string{"1:action_order:P3"},
		},
		{
			name: "action after folding",
			src: newTable("").coup("1", 1, 2).deal(1, 2, 3, 4).
				act(3, "fold", 0).act(4, "call", 200).act(1, "call", 100).act(2, "check", 0).
				flop("2C", "7D", "9H").act(1, "check", 0).act(2, "check", 0).act(3, "bet", 400).act(4, "check", 0).end().String(),
			rules: []string{"1:illegal_action:P3"},
		},
		{
			name: "dealer relieved during the coup",
			src: newTable("").coup("1", 1, 2).deal(1, 2, 3, 4).line(`"type":"dealer","dealer":"D-2"`).
				act(3, "fold", 0).act(4, "fold", 0).act(1, "fold", 0).end().
				line(`"type":"dealer","dealer":"D-3"`).coup("2", 2, 3).deal(2, 3, 4, 1).act(4, "fold", 0).act(1, "fold", 0).act(2, "fold", 0).end().String(),
			rules: []string{"1:dealer_change"},
		},
		{
			name: "a player changes seat",
			src: newTable("").coup("1", 1, 2).deal(1, 2, 3, 4).act(3, "fold", 0).act(4, "fold", 0).act(1, "fold", 0).end().
				coup("2", 1, 2).deal(1, 2, 3, 6).
				act(3, "fold", 0).line(`"type":"action","player":"P4","spot":"seat:6","action":"fold"`).act(1, "fold", 0).end().String(),
			rules: []string{"2:seat_change:P4"},
		},
		{
			// AM 2008-761 art. 1 (seed 003 L33, L41): the seat change is the breach; the button
			// moving on as if the player had kept his seat is not a second one.
			name: "a player changes seat, the blinds move on",
			src: newTable("").coup("1", 1, 2).deal(1, 2, 3, 4).act(3, "fold", 0).act(4, "fold", 0).act(1, "fold", 0).end().
				coup("2", 2, 3).deal(2, 3, 6, 1).
				line(`"type":"action","player":"P4","spot":"seat:6","action":"fold"`).act(1, "fold", 0).act(2, "fold", 0).end().String(),
			rules: []string{"2:seat_change:P4"},
		},
		{
			name: "a new player in seat 6 and the button out of place",
			src: newTable("").coup("1", 1, 2).deal(1, 2, 3, 4).act(3, "fold", 0).act(4, "fold", 0).act(1, "fold", 0).end().
				coup("2", 3, 6).deal(3, 6, 1, 2).
				act(1, "fold", 0).act(2, "fold", 0).act(3, "fold", 0).end().String(),
			rules: []string{"2:button:P3"},
		},
		{
			name: "a misdeal: blinds handed back, nothing judged",
			src: newTable("").coup("1", 1, 2).deal(1, 2, 3, 4).
				line(`"type":"refund","spot":"seat:1","player":"P1","amount":100`).
				line(`"type":"refund","spot":"seat:2","player":"P2","amount":200`).end().String(),
		},
		{
			name: "an eleventh player in seat 11",
			src: newTable("").coup("1", 1, 2).deal(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11).
				act(3, "fold", 0).act(4, "fold", 0).act(5, "fold", 0).act(6, "fold", 0).act(7, "fold", 0).act(8, "fold", 0).
				act(9, "fold", 0).act(10, "fold", 0).act(11, "fold", 0).act(1, "fold", 0).end().String(),
			rules: []string{"1:seats:P11"},
			due:   map[string]int64{"1 pot:main P2": 285},
		},
		{
			name: "an action hold'em does not offer is reported and changes nothing",
			src: newTable("").coup("1", 1, 2).deal(1, 2, 3).act(3, "surrender", 0).act(3, "fold", 0).act(1, "fold", 0).
				rake(15).pay("pot:main", 2, 285).end().String(),
			rules: []string{"1:illegal_action:P3"},
			due:   map[string]int64{"1 pot:main P2": 285},
		},
		{
			name: "recaves: between coups allowed, during a coup or under the cave reported",
			src: newTable(`{"buy_in":50000}`).act(4, "recave", 50000).coup("1", 1, 2).deal(1, 2, 3, 4).act(3, "fold", 0).
				act(4, "recave", 50000).act(4, "fold", 0).act(1, "fold", 0).rake(15).pay("pot:main", 2, 285).end().
				act(3, "rebuy", 40000).act(1, "recave", 60000).
				coup("2", 2, 3).deal(2, 3, 4, 1).act(4, "fold", 0).act(1, "fold", 0).act(2, "fold", 0).end().String(),
			rules: []string{"1:recave:P4", "2:recave:P3"},
			due:   map[string]int64{"1 pot:main P2": 285},
		},
		{
			name: "no hand shown: the pot is not judged",
			src: newTable("").coup("1", 1, 2).deal(1, 2, 3, 4).
				act(3, "call", 200).act(4, "fold", 0).act(1, "fold", 0).act(2, "check", 0).
				flop("2C", "7D", "9H").act(2, "check", 0).act(3, "check", 0).turn("KS").act(2, "check", 0).act(3, "check", 0).
				river("3D").act(2, "check", 0).act(3, "check", 0).rake(25).pay("pot:main", 2, 1).end().String(),
			due: map[string]int64{"1 rake house": 25},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := run(t, tc.src)
			if got := o.rules(); !reflect.DeepEqual(got, tc.rules) {
				t.Errorf("findings %v, want %v%s", got, tc.rules, o)
			}
			due := o.Due()
			for k, v := range tc.due {
				if got, ok := due[k]; !ok || got != v {
					t.Errorf("%s: due %d (settled %v), want %d%s", k, got, ok, v, o)
				}
			}
		})
	}
}

func TestHeadsUp(t *testing.T) {
	// Two players: the button is the big blind (the two players left of it post the blinds),
	// so the small blind speaks first in every round.
	src := newTable("").coup("1", 1, 2).deal(1, 2).
		act(1, "call", 100).act(2, "check", 0).
		flop("2C", "7D", "9H").act(1, "check", 0).act(2, "check", 0).
		turn("KS").act(1, "check", 0).act(2, "check", 0).end().
		coup("2", 2, 1).deal(2, 1).act(2, "fold", 0).end().String()
	if o := run(t, src); len(o.Findings) != 0 {
		t.Errorf("literal heads-up: %v%s", o.rules(), o)
	}
	src = newTable(`{"heads_up":"button_small_blind"}`).coup("1", 1, 2).deal(2, 1).
		act(1, "call", 100).act(2, "check", 0).
		flop("2C", "7D", "9H").act(2, "check", 0).act(1, "check", 0).end().String()
	if o := run(t, src); len(o.Findings) != 0 {
		t.Errorf("button posts the small blind: %v%s", o.rules(), o)
	}
}

// allIns builds a coup where P1 is all in for 1000, P2 for 3000, P3 and P4 call 3000 and P4
// bets 2000 more on the flop that P3 calls; side pots: main 4000, side1 6000, side2 4000.
func allIns(rules string, hands [4][2]string) string {
	tb := newTable(rules).coup("1", 1, 2).deal(1, 2, 3, 4).
		act(3, "raise", 1000).act(4, "call", 1000).act(1, "all_in", 900).act(2, "all_in", 2800).act(3, "call", 2000).act(4, "call", 2000).
		flop("2C", "7D", "9H").act(3, "check", 0).act(4, "bet", 2000).act(3, "call", 2000).
		turn("KS").act(3, "check", 0).act(4, "check", 0).
		river("3D").act(3, "check", 0).act(4, "check", 0)
	for i, h := range hands {
		tb.reveal(i+1, h[0], h[1])
	}
	return tb.end().String()
}

func TestSidePots(t *testing.T) {
	tests := []struct {
		name  string
		rules string
		hands [4][2]string
		due   map[string]int64
	}{
		{
			name:  "shortest all-in best: second best takes the outer pots (L98-L99)",
			hands: [4][2]string{{"AH", "AD"}, {"QH", "QD"}, {"JH", "JD"}, {"TH", "TD"}},
			due:   map[string]int64{"1 pot:main P1": 3800, "1 pot:side1 P2": 5700, "1 pot:side2 P3": 3800, "1 rake house": 700},
		},
		{
			name:  "a player not all in best: he takes every pot (L100)",
			hands: [4][2]string{{"QH", "QD"}, {"JH", "JD"}, {"AH", "AD"}, {"TH", "TD"}},
			due:   map[string]int64{"1 pot:main P3": 3800, "1 pot:side1 P3": 5700, "1 pot:side2 P3": 3800},
		},
		{
			name:  "tie on the main pot, odd chips clockwise from the button",
			rules: `{"rake":"percent","rake_percent":3}`,
			hands: [4][2]string{{"AH", "KD"}, {"QH", "QD"}, {"JH", "JD"}, {"AS", "KC"}},
			// P1 and P4 both hold kings with an ace: main 4000 - 120 = 3880 shared; the kings
			// beat P2's queens and P3's jacks for side1 (6000 - 180) and side2 (4000 - 120).
			due: map[string]int64{"1 pot:main P1": 1940, "1 pot:main P4": 1940, "1 pot:side1 P4": 5820, "1 pot:side2 P4": 3880},
		},
		{
			name:  "odd unit split in euros",
			rules: `{"rake":"percent","rake_percent":3,"rounding":{"unit":100}}`,
			hands: [4][2]string{{"AH", "KD"}, {"4C", "6S"}, {"5H", "8D"}, {"AS", "KC"}},
			// main 3880 shared in euros: 1900 each and 80 left, to P1 first clockwise from
			// the button (seat 4).
			due: map[string]int64{"1 pot:main P1": 1980, "1 pot:main P4": 1900},
		},
		{
			name:  "odd unit to the house",
			rules: `{"rake":"percent","rake_percent":3,"rounding":{"unit":100},"odd_chip":"house"}`,
			hands: [4][2]string{{"AH", "KD"}, {"4C", "6S"}, {"5H", "8D"}, {"AS", "KC"}},
			due:   map[string]int64{"1 pot:main P1": 1900, "1 pot:main P4": 1900, "1 rake house": 420 + 80},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := run(t, allIns(tc.rules, tc.hands))
			if len(o.Findings) != 0 {
				t.Errorf("findings %v%s", o.rules(), o)
			}
			due := o.Due()
			for k, v := range tc.due {
				if due[k] != v {
					t.Errorf("%s: due %d, want %d%s", k, due[k], v, o)
				}
			}
		})
	}
}

func TestRakeModes(t *testing.T) {
	// std's pot is 3600 on a single pot.
	tests := []struct {
		rules string
		rake  int64
	}{
		{`{"rake":"percent","rake_percent":2.5}`, 90},
		{`{"rake":"percent","rake_percent":6,"rake_cap":150}`, 150},
		{`{"rake":"fixed","rake_brackets":[{"from":0,"amount":0},{"from":1000,"amount":100},{"from":3000,"amount":250}]}`, 250},
		{`{"rake":"fixed","rake_brackets":[{"from":5000,"amount":300}]}`, 0},
		{`{"rake":"hourly","rake_hourly":[{"from_hour":0,"amount":120},{"from_hour":2,"amount":200}]}`, 120},
		{`{"rake":"none"}`, 0},
		// France: 4 % of 3600 = 144, rounded up to the half euro: 150.
		{`{"rake":"france"}`, 150},
		// Buy-in 500 €: cap 75 €, far above.
		{`{"rake":"france","buy_in":50000}`, 150},
		// Buy-in 1 000 €: cap 100 €, not reached; buy-in 4 999 €: cap 499.90 €.
		{`{"rake":"france","buy_in":499900}`, 150},
	}
	for _, tc := range tests {
		t.Run(tc.rules, func(t *testing.T) {
			o := run(t, std(newTable(tc.rules), "1").end().String())
			if got := o.Due()["1 rake house"]; got != tc.rake {
				t.Errorf("rake %d, want %d%s", got, tc.rake, o)
			}
			if got := o.Due()["1 pot:main P1"]; got != 3600-tc.rake {
				t.Errorf("award %d, want %d%s", got, 3600-tc.rake, o)
			}
		})
	}
}

func TestFranceCaps(t *testing.T) {
	// A big pot: P3 and P1 put in 200 000 each (4 000 €), pot 400 200: 4 % is 16 008 ->
	// 16 050 rounded up to the half euro.
	big := func(rules string) string {
		return newTable(rules).coup("1", 1, 2).deal(1, 2, 3, 4).
			act(3, "raise", 200000).act(4, "fold", 0).act(1, "call", 199900).act(2, "fold", 0).
			flop("2C", "7D", "9H").turn("KS").river("3D").reveal(1, "AH", "AD").reveal(3, "KH", "QH").end().String()
	}
	tests := []struct {
		rules string
		rake  int64
	}{
		{`{"rake":"france"}`, 16050},
		{`{"rake":"france","buy_in":50000}`, 7500},    // 15 % of 500 €
		{`{"rake":"france","buy_in":100000}`, 10000},  // 10 % of 1 000 €
		{`{"rake":"france","buy_in":400000}`, 16050},  // 10 % of 4 000 € = 400 €: not reached
		{`{"rake":"france","buy_in":500000}`, 16050},  // 5 % of 5 000 € = 250 €: not reached
		{`{"rake":"france","buy_in":1000000}`, 16050}, // 3 % of 10 000 € = 300 €
		{`{"rake":"france","buy_in":1000000,"rake_percent":4}`, 16050},
		{`{"rake":"france","buy_in":5000000}`, 16050}, // 1 % of 50 000 € = 500 €
		{`{"rake":"france","buy_in":50300}`, 7545},    // cap 75.45 €, after rounding
		{`{"rake":"france","buy_in":50300,"rake_cap_order":"cap_then_round"}`, 7550},
	}
	for _, tc := range tests {
		t.Run(tc.rules, func(t *testing.T) {
			o := run(t, big(tc.rules))
			if got := o.Due()["1 rake house"]; got != tc.rake {
				t.Errorf("rake %d, want %d%s", got, tc.rake, o)
			}
		})
	}
}

func TestInvalid(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"seat 21", newTable("").coup("1", 1, 2).act(21, "fold", 0).String(), "not a seat"},
		{"raise without amount", newTable("").coup("1", 1, 2).act(3, "raise", 0).String(), "positive amount"},
		{"card to a box", newTable("").coup("1", 1, 2).line(`"type":"card","to":"box:1","card":"XX"`).String(), "does not exist at hold'em"},
		{"payout on a spot", newTable("").coup("1", 1, 2).line(`"type":"payout","spot":"red","player":"P1","amount":1`).String(), "cannot exist"},
		{"unknown option", newTable(`{"rake_percentage":5}`).String(), "unknown option"},
		{"fixed rake without brackets", newTable(`{"rake":"fixed"}`).String(), "rake_brackets"},
		{"bad blinds", newTable(`{"small_blind":100,"big_blind":300}`).String(), "big_blind"},
		{"rate with three decimals", newTable(`{"rake_percent":2.125}`).String(), "two decimals"},
		{"brackets for the wrong mode", newTable(`{"rake":"percent","rake_brackets":[]}`).String(), "applies only"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tryRun(t, tc.src)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one with %q", err, tc.want)
			}
		})
	}
}
