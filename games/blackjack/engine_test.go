package blackjack_test

import (
	"reflect"
	"testing"

	"github.com/coupwatch/coupwatch/games/blackjack"
	"github.com/coupwatch/coupwatch/journal"
)

func TestCoups(t *testing.T) {
	three := []string{bet("box:1", "P1", 1000), bet("box:2", "P2", 1000), bet("box:3", "P3", 1000)}
	tests := []struct {
		name   string
		rules  string
		events []string
		// findings are "coup:rule", sorted; nets the expected nets of coup 1 ("spot player net", sorted).
		findings []string
		nets     []string
	}{
		{
			name: "blackjack 3 to 2 beats a three-card 21, equal 21s push",
			events: join(coupStart("1"), three, rnvp, burns(5),
				deal("9C", [3]string{"box:1", "AS", "KD"}, [3]string{"box:2", "7H", "7D"}, [3]string{"box:3", "TC", "9S"}),
				act("P2", "hit", "box:2"), card("box:2", "7C"), act("P3", "stand", "box:3"),
				card("dealer", "5H"), card("dealer", "7S"),
				money("collect", "box:3", "P3", 1000), money("payout", "box:1", "P1", 1500), coupEnd),
			nets: []string{"box:1 P1 1500", "box:2 P2 0", "box:3 P3 -1000"},
		},
		{
			name: "dealer blackjack: insurance 2 to 1, a double lost whole, blackjacks push",
			events: join(coupStart("1"), three, rnvp, burns(5),
				deal("AH", [3]string{"box:1", "5C", "6D"}, [3]string{"box:2", "AS", "QD"}, [3]string{"box:3", "9H", "8C"}),
				actAmount("P3", "insurance", "box:3:insurance", 500),
				actAmount("P1", "double", "box:1", 1000), card("box:1", "TS"), act("P3", "stand", "box:3"),
				card("dealer", "KH"),
				money("payout", "box:3:insurance", "P3", 1000), money("collect", "box:3", "P3", 1000), money("collect", "box:1", "P1", 2000), coupEnd),
			nets: []string{"box:1 P1 -2000", "box:2 P2 0", "box:3 P3 -1000", "box:3:insurance P3 1000"},
		},
		{
			name: "even money on a blackjack against an ace is paid 1 to 1 whatever the dealer draws",
			events: join(coupStart("1"), bet("box:1", "P1", 1000), rnvp, burns(5),
				deal("AS", [3]string{"box:1", "AD", "KC"}), act("P1", "even_money", "box:1"),
				money("payout", "box:1", "P1", 1000), card("dealer", "TH"), coupEnd),
			nets: []string{"box:1 P1 1000"},
		},
		{
			name: "even money against a seven is not offered (refused: the blackjack is paid 3 to 2)",
			events: join(coupStart("1"), bet("box:1", "P1", 1000), rnvp, burns(5),
				deal("7C", [3]string{"box:1", "AH", "JD"}), act("P1", "even_money", "box:1"),
				card("dealer", "TS"), coupEnd),
			findings: []string{"1:blackjack.even_money"},
			nets:     []string{"box:1 P1 1500"},
		},
		{
			name: "the dealer stands on 16",
			events: join(coupStart("1"), bet("box:1", "P1", 1000), rnvp, burns(5),
				deal("TD", [3]string{"box:1", "TH", "8C"}), act("P1", "stand", "box:1"), card("dealer", "6S"), coupEnd),
			findings: []string{"1:blackjack.dealer_draw"},
			nets:     []string{"box:1 P1 1000"},
		},
		{
			name: "split aces take one card each; 21 on a split ace is paid even money",
			events: join(coupStart("1"), bet("box:1", "P1", 1000), rnvp, burns(5),
				deal("9S", [3]string{"box:1", "AC", "AD"}), actAmount("P1", "split", "box:1", 1000),
				card("box:1.1", "KH"), card("box:1.2", "5D"), act("P1", "hit", "box:1.2"), card("box:1.2", "4C"),
				card("dealer", "8H"), coupEnd),
			findings: []string{"1:blackjack.hit"},
			nets:     []string{"box:1.1 P1 1000", "box:1.2 P1 1000"},
		},
		{
			name: "a pair makes at most three hands",
			events: join(coupStart("1"), bet("box:1", "P1", 1000), rnvp, burns(5),
				deal("7H", [3]string{"box:1", "8C", "8D"}),
				actAmount("P1", "split", "box:1", 1000), card("box:1.1", "8H"),
				actAmount("P1", "split", "box:1.1", 1000), card("box:1.1", "8S"),
				actAmount("P1", "split", "box:1.1", 1000),
				card("box:1.1", "TC"), card("box:1.2", "TD"), card("box:1.3", "TH"), card("box:1.4", "TS"),
				card("dealer", "KC"), coupEnd),
			findings: []string{"1:blackjack.split"},
			nets:     []string{"box:1.1 P1 1000", "box:1.2 P1 1000", "box:1.3 P1 1000", "box:1.4 P1 1000"},
		},
		{
			name: "a split of a nine and a ten is refused",
			events: join(coupStart("1"), bet("box:1", "P1", 1000), rnvp, burns(5),
				deal("7H", [3]string{"box:1", "9C", "TD"}), actAmount("P1", "split", "box:1", 1000),
				card("box:1.1", "9H"), act("P1", "stand", "box:1.1"), card("box:1.2", "8D"), card("dealer", "QC"), coupEnd),
			findings: []string{"1:blackjack.split"},
			nets:     []string{"box:1.1 P1 1000", "box:1.2 P1 1000"},
		},
		{
			name:  "a house that splits identical cards only refuses king-jack",
			rules: `{"split_cards":"identical"}`,
			events: join(coupStart("1"), bet("box:1", "P1", 1000), rnvp, burns(5),
				deal("7H", [3]string{"box:1", "KC", "JD"}), actAmount("P1", "split", "box:1", 1000),
				card("box:1.1", "9H"), card("box:1.2", "8D"), card("dealer", "QC"), coupEnd),
			findings: []string{"1:blackjack.split"},
			nets:     []string{"box:1.1 P1 1000", "box:1.2 P1 1000"},
		},
		{
			name: "a double after a hit and a double for less",
			events: join(coupStart("1"), bet("box:1", "P1", 1000), bet("box:2", "P2", 1000), rnvp, burns(5),
				deal("9C", [3]string{"box:1", "2C", "3D"}, [3]string{"box:2", "5H", "6H"}),
				act("P1", "hit", "box:1"), card("box:1", "4S"), actAmount("P1", "double", "box:1", 1000), card("box:1", "9D"),
				actAmount("P2", "double", "box:2", 500), card("box:2", "7C"), card("dealer", "TC"), coupEnd),
			findings: []string{"1:blackjack.double", "1:blackjack.double"},
			nets:     []string{"box:1 P1 -2000", "box:2 P2 -1500"},
		},
		{
			name:  "a house that accepts a double for less",
			rules: `{"double_for_less":true}`,
			events: join(coupStart("1"), bet("box:2", "P2", 1000), rnvp, burns(5),
				deal("9C", [3]string{"box:2", "5H", "6H"}), actAmount("P2", "double", "box:2", 500), card("box:2", "TC"),
				card("dealer", "TD"), coupEnd),
			nets: []string{"box:2 P2 1500"},
		},
		{
			name: "Perfect Pairs 25/12/6 and 21+3 9 to 1, losers collected first",
			events: join(coupStart("1"),
				bet("box:1", "P1", 1000), bet("box:1:pairs", "P1", 100), bet("box:1:21+3", "P1", 100),
				bet("box:2", "P2", 1000), bet("box:2:pairs", "P2", 100),
				bet("box:3", "P3", 1000), bet("box:3:pairs", "P3", 100), bet("box:3:21+3", "P3", 100), rnvp, burns(5),
				deal("QH", [3]string{"box:1", "KH", "KH"}, [3]string{"box:2", "KH", "KD"}, [3]string{"box:3", "5C", "5D"}),
				money("collect", "box:3:21+3", "P3", 100), money("payout", "box:1:pairs", "P1", 2500), money("payout", "box:1:21+3", "P1", 900),
				money("payout", "box:2:pairs", "P2", 1200), money("payout", "box:3:pairs", "P3", 600),
				act("P3", "hit", "box:3"), card("box:3", "9C"), card("dealer", "7S"), coupEnd),
			nets: []string{"box:1 P1 1000", "box:1:21+3 P1 900", "box:1:pairs P1 2500", "box:2 P2 1000", "box:2:pairs P2 1200",
				"box:3 P3 1000", "box:3:21+3 P3 -100", "box:3:pairs P3 600"},
		},
		{
			name:  "side bets read as N for 1",
			rules: `{"side_bets_pay":"for_one"}`,
			events: join(coupStart("1"), bet("box:1", "P1", 1000), bet("box:1:pairs", "P1", 100), bet("box:1:21+3", "P1", 100), rnvp, burns(5),
				deal("8S", [3]string{"box:1", "6D", "6H"}), act("P1", "stand", "box:1"), card("dealer", "9S"), coupEnd),
			nets: []string{"box:1 P1 -1000", "box:1:21+3 P1 -100", "box:1:pairs P1 1100"},
		},
		{
			name: "a 21+3 winner paid before a loser is collected",
			events: join(coupStart("1"), bet("box:1", "P1", 1000), bet("box:1:21+3", "P1", 100), bet("box:2", "P2", 1000), bet("box:2:21+3", "P2", 100), rnvp, burns(5),
				deal("4S", [3]string{"box:1", "2S", "3S"}, [3]string{"box:2", "TD", "9C"}),
				money("payout", "box:1:21+3", "P1", 900), money("collect", "box:2:21+3", "P2", 100),
				act("P1", "stand", "box:1"), act("P2", "stand", "box:2"), card("dealer", "TC"), card("dealer", "3D"), coupEnd),
			findings: []string{"1:blackjack.side_bet_order"},
			nets:     []string{"box:1 P1 -1000", "box:1:21+3 P1 900", "box:2 P2 1000", "box:2:21+3 P2 -100"},
		},
		{
			name: "a side bet needs the player's blackjack stake on the box; one placed after the first card is late",
			events: join(coupStart("1"), bet("box:1", "P1", 1000), bet("box:1:pairs", "P9", 100), rnvp, burns(5),
				card("box:1", "8C"), bet("box:1:21+3", "P1", 100), card("dealer", "9D"), card("box:1", "8D"),
				act("P1", "stand", "box:1"), card("dealer", "8H"), coupEnd),
			findings: []string{"1:blackjack.late_bet", "1:blackjack.side_bet"},
			nets:     []string{"box:1 P1 -1000", "box:1:21+3 P1 -100", "box:1:pairs P9 600"},
		},
		{
			name: "four burns at the start of the shoe",
			events: join(coupStart("1"), bet("box:1", "P1", 1000), rnvp, burns(4),
				deal("9D", [3]string{"box:1", "TC", "8D"}), card("dealer", "8H"), coupEnd),
			findings: []string{"1:blackjack.burn"},
			nets:     []string{"box:1 P1 1000"},
		},
		{
			name:  "no burn at the start of a shoe opened at table_open, then a card burnt during a coup",
			rules: `{"fresh_shoe_at_open":true}`,
			events: join(coupStart("1"), bet("box:1", "P1", 1000), rnvp,
				deal("9D", [3]string{"box:1", "TC", "8D"}), card("dealer", "8H"), coupEnd,
				coupStart("2"), bet("box:1", "P1", 1000), rnvp,
				deal("9C", [3]string{"box:1", "TS", "8S"}), card("burn", "XX"), card("dealer", "8C"), coupEnd),
			findings: []string{"1:blackjack.burn", "2:blackjack.burn"},
		},
		{
			// A journal may open mid-shoe (rules.fresh_shoe_at_open false): no burns to expect.
			name: "a journal opening mid-shoe, then a card burnt during a coup",
			events: join(coupStart("1"), bet("box:1", "P1", 1000), rnvp,
				deal("9D", [3]string{"box:1", "TC", "8D"}), card("dealer", "8H"), coupEnd,
				coupStart("2"), bet("box:1", "P1", 1000), rnvp,
				deal("9C", [3]string{"box:1", "TS", "8S"}), card("burn", "XX"), card("dealer", "8C"), coupEnd),
			findings: []string{"2:blackjack.burn"},
		},
		{
			// AM 88-384 art. 5.1 (L224): standing players stake within the hand's maximum.
			name: "two players' stakes on one box over the hand's maximum",
			events: join(coupStart("1"), bet("box:1", "P1", 30000), bet("box:1", "P6", 25000), bet("box:2", "P2", 50000), rnvp, burns(5),
				deal("9D", [3]string{"box:1", "TC", "8D"}, [3]string{"box:2", "TS", "9S"}), card("dealer", "8H"), coupEnd),
			findings: []string{"1:blackjack.bet_limit"},
			nets:     []string{"box:1 P1 30000", "box:1 P6 25000", "box:2 P2 50000"},
		},
		{
			// One breach, one finding: a late stake over the maximum on a box nobody had staked
			// is the late bet only (no limit, no deal order finding).
			name: "a late stake over the maximum on an empty box",
			events: join(coupStart("1"), bet("box:1", "P1", 1000), rnvp, burns(5), card("box:1", "TC"), bet("box:2", "P2", 60000),
				card("box:2", "5C"), card("dealer", "9H"), card("box:1", "6D"), card("box:2", "6C"),
				act("P1", "stand", "box:1"), act("P2", "stand", "box:2"), card("dealer", "8C"), coupEnd),
			findings: []string{"1:blackjack.late_bet"},
			nets:     []string{"box:1 P1 -1000", "box:2 P2 -60000"},
		},
		{
			name:  "a stop card with less than a deck behind it, a coup dealt after it, then a new shoe",
			rules: `{"decks":1}`,
			events: join(coupStart("1"), bet("box:1", "P1", 1000), rnvp, burns(5),
				deal("9D", [3]string{"box:1", "TC", "8D"}), card("stop", "XX"), card("dealer", "8H"), coupEnd,
				coupStart("2"), bet("box:1", "P1", 1000), rnvp, deal("9C", [3]string{"box:1", "TS", "8S"}), card("dealer", "8C"), coupEnd,
				coupStart("3"), bet("box:1", "P1", 1000), rnvp, burns(5), deal("9S", [3]string{"box:1", "TD", "8C"}), card("dealer", "8S"), coupEnd),
			findings: []string{"1:blackjack.stop_card", "2:blackjack.stop_card"},
		},
		{
			name:  "a stop card seen between coups ends the shoe",
			rules: `{"decks":6}`,
			events: join(coupStart("1"), bet("box:1", "P1", 1000), rnvp, burns(5),
				deal("9D", [3]string{"box:1", "TC", "8D"}), card("dealer", "8H"), coupEnd, card("stop", "XX"),
				coupStart("2"), bet("box:1", "P1", 1000), rnvp, deal("9C", [3]string{"box:1", "TS", "8S"}), card("dealer", "8C"), coupEnd),
			findings: []string{"2:blackjack.stop_card"},
		},
		{
			name:  "a card seen more often than the decks hold",
			rules: `{"decks":1}`,
			events: join(coupStart("1"), bet("box:1", "P1", 1000), rnvp, burns(5),
				deal("9D", [3]string{"box:1", "AS", "AS"}), act("P1", "stand", "box:1"), card("dealer", "8H"), coupEnd),
			findings: []string{"1:blackjack.card_count"},
			nets:     []string{"box:1 P1 -1000"},
		},
		{
			name:  "a continuous shuffler: burns at its start only, the count per coup, no stop card",
			rules: `{"decks":1,"csm":true}`,
			events: join(coupStart("1"), bet("box:1", "P1", 1000), rnvp, burns(5),
				deal("9D", [3]string{"box:1", "AS", "KS"}), card("dealer", "8H"), coupEnd,
				coupStart("2"), bet("box:1", "P1", 1000), rnvp, deal("9D", [3]string{"box:1", "AS", "KS"}), card("stop", "XX"), card("dealer", "8H"), coupEnd),
			findings: []string{"2:blackjack.stop_card"},
		},
		{
			name: "the croupier deals himself before box 2, then a hole card",
			events: join(coupStart("1"), bet("box:1", "P1", 1000), bet("box:2", "P2", 1000), rnvp, burns(5),
				card("box:1", "TC"), card("dealer", "9D"), card("box:2", "9C"), card("box:1", "8D"), card("box:2", "9S"),
				card("dealer", "8H"), coupEnd),
			findings: []string{"1:blackjack.deal_order"},
		},
		{
			name: "a hole card in the second round",
			events: join(coupStart("1"), bet("box:1", "P1", 1000), rnvp, burns(5),
				card("box:1", "TC"), card("dealer", "9D"), card("dealer", "8H"), card("box:1", "8D"), coupEnd),
			findings: []string{"1:blackjack.deal_order"},
			nets:     []string{"box:1 P1 1000"},
		},
		{
			name: "box 1 draws after box 2 has played; a card to a hand that stood",
			events: join(coupStart("1"), bet("box:1", "P1", 1000), bet("box:2", "P2", 1000), rnvp, burns(5),
				deal("9D", [3]string{"box:1", "TC", "4D"}, [3]string{"box:2", "TS", "2C"}),
				act("P2", "hit", "box:2"), card("box:2", "5C"), act("P2", "stand", "box:2"),
				act("P1", "hit", "box:1"), card("box:1", "5D"), card("box:2", "2D"), card("dealer", "8H"), coupEnd),
			findings: []string{"1:blackjack.play_order", "1:blackjack.player_cards"},
		},
		{
			name: "a bust collected only after the next box played",
			events: join(coupStart("1"), bet("box:1", "P1", 1000), bet("box:2", "P2", 1000), rnvp, burns(5),
				deal("9D", [3]string{"box:1", "TC", "6D"}, [3]string{"box:2", "TS", "9C"}),
				act("P1", "hit", "box:1"), card("box:1", "KD"), act("P2", "stand", "box:2"),
				money("collect", "box:1", "P1", 1000), card("dealer", "8H"), money("payout", "box:2", "P2", 1000), coupEnd),
			findings: []string{"1:blackjack.bust_collect"},
			nets:     []string{"box:1 P1 -1000", "box:2 P2 1000"},
		},
		{
			name: "the final sweep from the croupier's left",
			events: join(coupStart("1"), bet("box:1", "P1", 1000), bet("box:2", "P2", 1000), rnvp, burns(5),
				deal("9D", [3]string{"box:1", "TC", "9H"}, [3]string{"box:2", "TS", "6C"}),
				card("dealer", "8H"), money("payout", "box:1", "P1", 1000), money("collect", "box:2", "P2", 1000), coupEnd),
			findings: []string{"1:blackjack.settlement_order"},
			nets:     []string{"box:1 P1 1000", "box:2 P2 -1000"},
		},
		{
			name:  "a house that sweeps left to right",
			rules: `{"settlement_order":"left_to_right"}`,
			events: join(coupStart("1"), bet("box:1", "P1", 1000), bet("box:2", "P2", 1000), rnvp, burns(5),
				deal("9D", [3]string{"box:1", "TC", "9H"}, [3]string{"box:2", "TS", "6C"}),
				card("dealer", "8H"), money("payout", "box:1", "P1", 1000), money("collect", "box:2", "P2", 1000), coupEnd),
		},
		{
			name: "surrender is not offered",
			events: join(coupStart("1"), bet("box:1", "P1", 1000), rnvp, burns(5),
				deal("TD", [3]string{"box:1", "TC", "6H"}), act("P1", "surrender", "box:1"), card("dealer", "8H"), coupEnd),
			findings: []string{"1:blackjack.action"},
			nets:     []string{"box:1 P1 -1000"},
		},
		{
			name: "insurance against a nine, and insurance after the next card",
			events: join(coupStart("1"), bet("box:1", "P1", 1000), rnvp, burns(5),
				deal("9D", [3]string{"box:1", "TC", "6H"}), actAmount("P1", "insurance", "box:1:insurance", 500), card("dealer", "8H"), coupEnd,
				coupStart("2"), bet("box:1", "P1", 1000), rnvp,
				deal("AD", [3]string{"box:1", "TS", "4H"}), act("P1", "hit", "box:1"), card("box:1", "3C"),
				actAmount("P1", "insurance", "box:1:insurance", 500), card("dealer", "9H"), coupEnd),
			findings: []string{"1:blackjack.insurance", "2:blackjack.insurance"},
			nets:     []string{"box:1 P1 -1000", "box:1:insurance P1 -500"},
		},
		{
			name: "a card dealt face down",
			events: join(coupStart("1"), bet("box:1", "P1", 1000), rnvp, burns(5),
				deal("9D", [3]string{"box:1", "TC", "XX"}), card("dealer", "8H"), coupEnd),
			findings: []string{"1:blackjack.face_up"},
		},
		{
			name: "a stake over the table maximum",
			events: join(coupStart("1"), bet("box:1", "P1", 60000), rnvp, burns(5),
				deal("9D", [3]string{"box:1", "TC", "9H"}), card("dealer", "8H"), coupEnd),
			findings: []string{"1:blackjack.bet_limit"},
			nets:     []string{"box:1 P1 60000"},
		},
		{
			name: "by default the dealer stands on ace-seven",
			events: join(coupStart("1"), bet("box:1", "P1", 1000), rnvp, burns(5),
				deal("AD", [3]string{"box:1", "TC", "9H"}), card("dealer", "7H"), coupEnd),
			nets: []string{"box:1 P1 1000"},
		},
		{
			name:  "read literally («17 ou 21») ace-seven is 8 and the dealer must draw",
			rules: `{"dealer_soft_ace":"17_or_21"}`,
			events: join(coupStart("1"), bet("box:1", "P1", 1000), rnvp, burns(5),
				deal("AD", [3]string{"box:1", "TC", "9H"}), card("dealer", "7H"), coupEnd),
			findings: []string{"1:blackjack.dealer_draw"},
			nets:     []string{"box:1 P1 1000"},
		},
		{
			name:  "a house where a blackjack beats the dealer's",
			rules: `{"blackjack_tie":"win"}`,
			events: join(coupStart("1"), bet("box:1", "P1", 1000), rnvp, burns(5),
				deal("AD", [3]string{"box:1", "AC", "KH"}), card("dealer", "QH"), coupEnd),
			nets: []string{"box:1 P1 1500"},
		},
		{
			name: "rounding of 3 to 2 on an odd stake goes down",
			events: join(coupStart("1"), bet("box:1", "P1", 1005), rnvp, burns(5),
				deal("9D", [3]string{"box:1", "AC", "KH"}), card("dealer", "8H"), coupEnd),
			nets: []string{"box:1 P1 1507"},
		},
		{
			name: "a late raise is settled as placed",
			events: join(coupStart("1"), bet("box:1", "P1", 1000), rnvp, burns(5),
				card("box:1", "TC"), bet("box:1", "P1", 3000), card("dealer", "9D"), card("box:1", "9H"), card("dealer", "8H"), coupEnd),
			findings: []string{"1:blackjack.late_bet"},
			nets:     []string{"box:1 P1 3000"},
		},
		{
			name: "a wrong payout on a split hand",
			events: join(coupStart("1"), bet("box:1", "P1", 1000), rnvp, burns(5),
				deal("6D", [3]string{"box:1", "8S", "8H"}), actAmount("P1", "split", "box:1", 1000),
				card("box:1.1", "TD"), card("box:1.2", "2C"), actAmount("P1", "double", "box:1.2", 1000), card("box:1.2", "9C"),
				card("dealer", "TH"), card("dealer", "7C"), money("payout", "box:1.2", "P1", 1000), money("payout", "box:1.1", "P1", 1000), coupEnd),
			findings: []string{"1:blackjack.payout"},
			nets:     []string{"box:1.1 P1 1000", "box:1.2 P1 2000"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := run(t, journalOf(tt.rules, tt.events...))
			want := tt.findings
			if want == nil {
				want = []string{}
			}
			if got := o.Rules(); !reflect.DeepEqual(got, want) {
				t.Errorf("findings %v, want %v%s", got, want, o)
			}
			if tt.nets != nil {
				if got := o.CoupNets("1"); !reflect.DeepEqual(got, tt.nets) {
					t.Errorf("coup 1 nets %v, want %v%s", got, tt.nets, o)
				}
			}
		})
	}
}

// TestSideBets settles Perfect Pairs and 21+3 on one box's first two cards and the dealer's
// first card (AM 88-384 art. 5.2 6°-7°, L286-L309).
func TestSideBets(t *testing.T) {
	tests := []struct {
		rules, c1, c2, up string
		pairs, plus3      int64 // expected nets on 100
	}{
		{"", "KH", "KH", "2C", 2500, -100},
		{"", "KH", "KD", "2C", 1200, -100},
		{"", "KH", "KC", "2C", 600, -100},
		{"", "KH", "QH", "2C", -100, -100},
		{`{"pairs_match":"value"}`, "KH", "QC", "2C", 600, -100},
		{`{"pairs_match":"value"}`, "KH", "QH", "2C", 1200, -100},
		{"", "2H", "3C", "4D", -100, 900},
		{"", "AH", "2C", "3D", -100, 900},
		{"", "QH", "KC", "AD", -100, 900},
		{"", "KH", "AC", "2D", -100, -100},
		{`{"straight_ace":"low"}`, "QH", "KC", "AD", -100, -100},
		{`{"straight_ace":"high"}`, "AH", "2C", "3D", -100, -100},
		{"", "2H", "9H", "KH", -100, 900},
		{"", "7H", "7C", "7D", 600, 900},
		{"", "7H", "7H", "7H", 2500, 900},
		{"", "9S", "TS", "JS", -100, 900},
	}
	for _, tt := range tests {
		o := run(t, journalOf(tt.rules, coupStart("1"), bet("box:1", "P1", 1000), bet("box:1:pairs", "P1", 100), bet("box:1:21+3", "P1", 100),
			rnvp, card("burn", "XX"), card("burn", "XX"), card("burn", "XX"), card("burn", "XX"), card("burn", "XX"),
			card("box:1", tt.c1), card("dealer", tt.up), card("box:1", tt.c2), act("P1", "stand", "box:1"), card("dealer", "TS"), card("dealer", "9S"), coupEnd))
		var pairs, plus3 int64
		for _, s := range o.Settlements {
			switch s.Spot {
			case "box:1:pairs":
				pairs = s.Expected
			case "box:1:21+3":
				plus3 = s.Expected
			}
		}
		if pairs != tt.pairs || plus3 != tt.plus3 {
			t.Errorf("%s %s with %s %s: pairs %d 21+3 %d, want %d %d", tt.c1, tt.c2, tt.up, tt.rules, pairs, plus3, tt.pairs, tt.plus3)
		}
	}
}

func TestCheck(t *testing.T) {
	g := blackjack.Blackjack()
	tests := []struct {
		ev journal.Event
		ok bool
	}{
		{journal.Event{Type: journal.TypeBet, Spot: "box:1"}, true},
		{journal.Event{Type: journal.TypeBet, Spot: "box:7:pairs"}, true},
		{journal.Event{Type: journal.TypeBet, Spot: "box:2:21+3"}, true},
		{journal.Event{Type: journal.TypeBet, Spot: "box:2:insurance"}, true},
		{journal.Event{Type: journal.TypeBet, Spot: "box:2.1"}, false},
		{journal.Event{Type: journal.TypeBet, Spot: "box:0"}, false},
		{journal.Event{Type: journal.TypeBet, Spot: "box:2:jackpot"}, false},
		{journal.Event{Type: journal.TypeBet, Spot: "box:2.1:pairs"}, false},
		{journal.Event{Type: journal.TypeBet, Spot: "punto"}, false},
		{journal.Event{Type: journal.TypePayout, Spot: "box:2.3"}, true},
		{journal.Event{Type: journal.TypeAction, Action: "hit", Spot: "box:2.3"}, true},
		{journal.Event{Type: journal.TypeAction, Action: "hit"}, true},
		{journal.Event{Type: journal.TypeAction, Action: "hit", Spot: "banco"}, false},
		{journal.Event{Type: journal.TypeCard, To: "box:3.2"}, true},
		{journal.Event{Type: journal.TypeCard, To: "dealer"}, true},
		{journal.Event{Type: journal.TypeCard, To: "stop"}, true},
		{journal.Event{Type: journal.TypeCard, To: "burn"}, true},
		{journal.Event{Type: journal.TypeCard, To: "board"}, false},
		{journal.Event{Type: journal.TypeCard, To: "noir"}, false},
		{journal.Event{Type: journal.TypeResult, Value: "17"}, true}, // the announced point (L240)
		{journal.Event{Type: journal.TypeSpin}, false},
		{journal.Event{Type: journal.TypeDice}, false},
	}
	for _, tt := range tests {
		ev := tt.ev
		if err := g.Check(&ev); (err == nil) != tt.ok {
			t.Errorf("%s %s%s: err = %v, want ok=%v", ev.Type, ev.Spot, ev.To, err, tt.ok)
		}
	}
}

// TestOptions rejects malformed or unknown rules options.
func TestOptions(t *testing.T) {
	for _, rules := range []string{`{"decks":0}`, `{"split_cards":"suit"}`, `{"dealer_soft_ace":"h17"}`, `{"surrender":true}`, `{"csm":"yes"}`} {
		if _, err := tryRun(t, journalOf(rules, coupStart("1"))); err == nil {
			t.Errorf("rules %s accepted", rules)
		}
	}
	if _, err := tryRun(t, journalOf(`{"decks":8,"csm":false,"burn_cards":5,"rounding":"nearest","settlement_order":"off"}`, coupStart("1"))); err != nil {
		t.Errorf("valid rules rejected: %v", err)
	}
}
