// Package blackjack is the rule engine of blackjack as Monaco's AM 88-384 art. 5 regulates it:
// no hole card, dealer stands on every 17, blackjack paid 3 to 2, insurance, even money, splits,
// doubles, the Perfect Pairs and 21+3 side bets, and the shoe procedure of art. 1 and 5.1
// (burns, stop card, deck composition).
package blackjack

import (
	"fmt"
	"strings"

	"github.com/coupwatch/coupwatch/games"
	"github.com/coupwatch/coupwatch/journal"
)

// Games returns the games of the package: blackjack.
func Games() []*games.Game { return []*games.Game{Blackjack()} }

const am = "AM 88-384"

// The rule ids.
const (
	rulePayout       = "blackjack.payout"
	ruleLate         = "blackjack.late_bet"
	ruleLimit        = "blackjack.bet_limit"
	ruleBurn         = "blackjack.burn"
	ruleStop         = "blackjack.stop_card"
	ruleCount        = "blackjack.card_count"
	ruleFaceUp       = "blackjack.face_up"
	ruleDealOrder    = "blackjack.deal_order"
	rulePlayOrder    = "blackjack.play_order"
	rulePlayerCards  = "blackjack.player_cards"
	ruleHit          = "blackjack.hit"
	ruleDouble       = "blackjack.double"
	ruleSplit        = "blackjack.split"
	ruleInsurance    = "blackjack.insurance"
	ruleEvenMoney    = "blackjack.even_money"
	ruleSideBet      = "blackjack.side_bet"
	ruleDealerDraw   = "blackjack.dealer_draw"
	ruleBustCollect  = "blackjack.bust_collect"
	ruleSettleOrder  = "blackjack.settlement_order"
	ruleSideBetOrder = "blackjack.side_bet_order"
	ruleAction       = "blackjack.action"
	ruleStanding     = "blackjack.standing_player"
)

// Blackjack is blackjack, AM 88-384 art. 5.
func Blackjack() *games.Game {
	g := &games.Game{
		ID:     "blackjack",
		Name:   "Blackjack",
		Source: "Monaco AM 88-384 art. 1 and 5 (seed 001 L37-L91, L192-L325)",
		Spots:  "box:N (the blackjack stake), box:N.H (hand H of a split box, for money), box:N:pairs (Perfect Pairs), box:N:21+3, box:N:insurance",
		Rules: []games.Rule{
			{ID: rulePayout, Kind: games.WrongPayout, Severity: games.Critical, Article: am + " art. 5.2 1°-7° (L242-L311)",
				Summary: "Each stake is paid net: a win 1 to 1, a two-card 21 (blackjack) 3 to 2 and it beats any other 21, equal points push, insurance 2 to 1 when the dealer makes blackjack, even money 1 to 1, Perfect Pairs 25/12/6 and 21+3 9 to 1; a bust or a lower point loses the whole stake, doubles and splits included.",
				Reading: "Without a hole card the dealer's blackjack beats every hand but a player's blackjack, which pushes (rules.blackjack_tie); doubled and split stakes are lost to it (only the initial stake can be insured, L280). A 21 on a split hand is paid even money (L270). Side bets pay N to 1 with the stake returned (rules.side_bets_pay)."},
			{ID: ruleLate, Kind: games.LateBet, Severity: games.Critical, Article: am + " art. 5.2 1° (L232)",
				Summary: "No stake is placed, changed or withdrawn once the first card is out of the shoe and turned on the table (or after no_more_bets); the stake is still settled as placed.",
				Reading: "Burnt cards stay face down: the cut-off is the first card dealt face up to a box or the dealer. A late stake is reported once, as a late bet: its amount is not checked again against the limits, nor a late side bet against the blackjack stake it needs; a box staked late is dealt without a deal-order finding."},
			{ID: ruleLimit, Kind: games.BetLimit, Severity: games.Warning, Article: "table limits (table_open.limits); " + am + " art. 5.1 (L224)",
				Summary: "Each blackjack stake lies within the table's minimum and maximum, and the stakes of all the players on one box (standing players backing a seated one) together within the hand's maximum.",
				Reading: "Several players' stakes on one box are reported once, on the stake that takes the total over the maximum. Side bets are checked against limits.spots \"pairs\" / \"21+3\" (or the exact spot) when given, else against the table maximum only; insurance is bounded by half the stake, not by the table limits."},
			{ID: ruleBurn, Kind: games.Procedure, Severity: games.Warning, Article: am + " art. 5.1 (L206, L214, L218)",
				Summary: "The croupier burns the first five cards of a new shoe (and of a continuous shuffler at its start or resumption) before dealing, and no card during a coup.",
				Reading: "Burns before a coup's first card show a new shoe (a shuffle); a journal may open mid-shoe, so a first deal without burns is not reported unless rules.fresh_shoe_at_open says the table_open starts a new shoe."},
			{ID: ruleStop, Kind: games.Procedure, Severity: games.Warning, Article: am + " art. 5.1 (L204, L210, L212)",
				Summary: "The stop card leaves a talon of at least one 52-card deck; when it appears the coup is finished and the cards reshuffled, so the next coup starts from a new shoe (with its five burns); a continuous shuffler has no stop card."},
			{ID: ruleCount, Kind: games.Procedure, Severity: games.Critical, Article: am + " art. 1.4 (L85) and art. 5.1 (L198)",
				Summary: "No card is seen more often than the shoe's decks hold (a card in excess or foreign to the decks).",
				Reading: "Counted per shoe (from one shuffle to the next); with a continuous shuffler the cards go back after every coup, so the count is per coup."},
			{ID: ruleFaceUp, Kind: games.Procedure, Severity: games.Warning, Article: am + " art. 5.1 (L208)",
				Summary: "Every card is dealt face up (burnt cards excepted)."},
			{ID: ruleDealOrder, Kind: games.Procedure, Severity: games.Warning, Article: am + " art. 5.2 1° (L232)",
				Summary: "One card to each box with a stake from the croupier's left, then one card to the croupier, then a second card to each box in the same order; the croupier has one card only until the players have played.",
				Reading: "A third card to a box while another box still waits for its cards is that box served out of turn (reported on it); a box with a stake that play reaches without its two cards is reported on that box."},
			{ID: rulePlayOrder, Kind: games.Procedure, Severity: games.Warning, Article: am + " art. 5.1 (L226) and 5.2 1° (L234, L238)",
				Summary: "Hands are played box by box from the croupier's left, each settled before the next is offered a card, and the croupier draws only once every player has finished.",
				Reading: "A stand is not held to the box order (the gesture may be seen late), but a hand still played, a stand included, after the croupier drew means he drew too soon: a second card taken at the end of the deal is a hole card. Reported once per coup, on the first hand played after it."},
			{ID: rulePlayerCards, Kind: games.Procedure, Severity: games.Warning, Article: am + " art. 5.2 1° (L234), 4° (L268), 5° (L276)",
				Summary: "A hand gets a card only as its player's decisions allow: none after standing or busting, exactly one after a double, one per split ace."},
			{ID: ruleHit, Kind: games.Procedure, Severity: games.Warning, Article: am + " art. 5.2 1° (L234), 4° (L268), 5° (L276)",
				Summary: "A player may not ask for a card after standing, busting, doubling (one card only) or on a split ace (one card only)."},
			{ID: ruleDouble, Kind: games.Procedure, Severity: games.Warning, Article: am + " art. 5.2 5° (L276-L278)",
				Summary: "A double is made on the first two cards of a hand (split hands included, split aces excepted), adds a stake equal to the initial one and takes exactly one card.",
				Reading: "«doubler sa mise» admits no double for less (rules.double_for_less)."},
			{ID: ruleSplit, Kind: games.Procedure, Severity: games.Warning, Article: am + " art. 5.2 4° (L264-L272)",
				Summary: "A split is made on two first cards of equal value (identical cards where the house says so), adds a stake equal to the initial one, and a player makes at most three hands from one pair, two from a pair of aces."},
			{ID: ruleInsurance, Kind: games.Procedure, Severity: games.Warning, Article: am + " art. 5.2 2° (L250-L254)",
				Summary: "Insurance is offered only when the croupier's first card is an ace, once the players have their two cards and before the next card comes out, to a player with a stake on the box, for at most half of that stake."},
			{ID: ruleEvenMoney, Kind: games.Procedure, Severity: games.Warning, Article: am + " art. 5.2 3° (L258-L260)",
				Summary: "Even money is paid only on a two-card blackjack when the croupier's first card is an ace, a ten or a face.",
				Reading: "The text does not say when it is asked: as the digest presumes, before the croupier draws his second card (rules.even_money_timing = before_draw); a request after it is refused and the blackjack settled as such (any: accepted at any time). A request on a hand that is not a blackjack, or against a croupier's 2 to 9 (or before his first card), is refused and the hand settled as dealt."},
			{ID: ruleSideBet, Kind: games.Procedure, Severity: games.Warning, Article: am + " art. 5.2 6°-7° (L284, L300)",
				Summary: "Perfect Pairs and 21+3 are staked before the deal only on a box where the same player has a blackjack stake."},
			{ID: ruleDealerDraw, Kind: games.Procedure, Severity: games.Warning, Article: am + " art. 5.2 1° (L238)",
				Summary: "The croupier draws on 16 or less and stands on 17 or more, soft 17 included; the hands are settled against the cards as he dealt them.",
				Reading: "«17 ou 21» is read as 17 to 21: an ace counts 11 whenever that keeps the total at 21 or under (rules.dealer_soft_ace). Standing short is reported only when a hand still waits on the dealer's point: a hand standing, or, while his one card is an ace or a ten (no hole card, L232), a player's blackjack (a push against his blackjack, L242) or an insurance stake (L256)."},
			{ID: ruleBustCollect, Kind: games.Procedure, Severity: games.Info, Article: am + " art. 5.2 1° (L236)",
				Summary: "A hand over 21 is collected at once, before the next hand is offered a card.",
				Reading: "Reported when the journal shows the collect after play moved on; a collect never seen is a camera gap, not a finding."},
			{ID: ruleSettleOrder, Kind: games.Procedure, Severity: games.Info, Article: am + " art. 5.2 1° (L240)",
				Summary: "After his point, the croupier collects and pays the boxes in order from his right to his left.",
				Reading: "«de droite à gauche» is read from the croupier's side: the highest box first, down to box 1 (rules.settlement_order); hands of one split box may go in any order; blackjacks paid and busts collected earlier are not part of the sweep. A hand settled before the croupier's last card is reported once a coup (a bust collected at once, even money and a blackjack paid against a 2 to 9 excepted)."},
			{ID: ruleSideBetOrder, Kind: games.Procedure, Severity: games.Info, Article: am + " art. 5.2 6°-7° (L294, L311)",
				Summary: "On Perfect Pairs and on 21+3 the losing stakes are collected before the winning ones are paid."},
			{ID: ruleAction, Kind: games.Procedure, Severity: games.Warning, Article: am + " art. 5.2 1°-5° (L230-L280)",
				Summary: "A player decides only among hit, stand, double, split, insurance and even money (or turns an offer down); surrender and other decisions are not offered."},
			{ID: ruleStanding, Kind: games.Procedure, Severity: games.Warning, Article: am + " art. 5.1 (L224)",
				Summary: "Players standing behind a seated player's box give him no instructions and follow his initiatives: they may follow his double or split with their own stake, never make one alone.",
				Reading: "The seated player is the one whose stake on the box came first. A double or split by a standing player that follows none of the seated player's is reported on the standing player and changes nothing on the hand; his hit or stand is no decision and is ignored. A standing player following a split may do so until the second hand has its second card."},
		},
		Options: []games.OptionDoc{
			{Key: "decks", Default: "6", Doc: "52-card decks in the shoe (set by the management, L198)"},
			{Key: "csm", Default: "false", Doc: "cards dealt from a continuous shuffling machine: no cut or stop card, five burns at its start only (L212-L218)"},
			{Key: "burn_cards", Default: "5", Doc: "cards burnt at the start of a shoe (0 turns the check off)"},
			{Key: "fresh_shoe_at_open", Default: "false", Doc: "the journal starts with a new shoe at table_open, so its first deal must follow the burns (otherwise a journal may start mid-shoe and a shoe is known from its start only after its burns)"},
			{Key: "dealer_soft_ace", Default: `"17_to_21"`, Doc: "the ace in the dealer's hand counts 11 when the total stays at 21 or under (17_to_21) or only when it makes exactly 17 or 21 (17_or_21, the literal L238)"},
			{Key: "blackjack_tie", Default: `"push"`, Doc: "a player's blackjack against the dealer's: push, or win (paid 3 to 2)"},
			{Key: "split_cards", Default: `"value"`, Doc: "pairs that may be split: any two cards of equal value (value) or identical ranks only (identical, L272)"},
			{Key: "double_for_less", Default: "false", Doc: "accept a double for less than the initial stake"},
			{Key: "pairs_match", Default: `"rank"`, Doc: "a Perfect Pairs pair is two cards of the same rank (rank) or of the same value (value)"},
			{Key: "straight_ace", Default: `"both"`, Doc: "in 21+3 the ace makes a straight low and high (both), low only (low) or high only (high)"},
			{Key: "side_bets_pay", Default: `"to_one"`, Doc: "«N fois la mise» on Perfect Pairs and 21+3 read as N to 1 (to_one) or N for 1 (for_one, net N-1)"},
			{Key: "even_money_timing", Default: `"before_draw"`, Doc: "when even money may be asked (L260 does not say): before_draw (the digest's reading: before the croupier draws his second card; a later request is refused and the blackjack settled as such) or any (any time in the coup)"},
			{Key: "settlement_order", Default: `"right_to_left"`, Doc: "order of the final sweep: right_to_left (highest box first), left_to_right, or off"},
			roundingDoc(),
		},
	}
	g.Check = check
	g.New = func(s games.Setup) (games.Engine, error) {
		return newEngine(s, readConfig(s.Options)), nil
	}
	return g
}

func roundingDoc() games.OptionDoc {
	return games.OptionDoc{Key: "rounding", Default: `"down"`, Doc: "rounding of amounts due to players (3 to 2 on odd stakes): down, up or nearest cent, a unit in cents, or {\"unit\":50,\"mode\":\"nearest\"}"}
}

// config is the table's rules options.
type config struct {
	decks        int
	csm          bool
	freshAtOpen  bool
	burns        int
	dealer       DealerRule
	bjTieWins    bool
	identical    bool
	doubleLess   bool
	pairsByValue bool
	straightAce  string
	sideForOne   bool
	order        string
	evenMoneyAny bool
}

func readConfig(o *games.Options) config {
	return config{
		decks:        int(o.Int("decks", 6, 1, 16)),
		csm:          o.Bool("csm", false),
		freshAtOpen:  o.Bool("fresh_shoe_at_open", false),
		burns:        int(o.Int("burn_cards", 5, 0, 52)),
		dealer:       DealerRule{Literal: o.Enum("dealer_soft_ace", "17_to_21", "17_to_21", "17_or_21") == "17_or_21"},
		bjTieWins:    o.Enum("blackjack_tie", "push", "push", "win") == "win",
		identical:    o.Enum("split_cards", "value", "value", "identical") == "identical",
		doubleLess:   o.Bool("double_for_less", false),
		pairsByValue: o.Enum("pairs_match", "rank", "rank", "value") == "value",
		straightAce:  o.Enum("straight_ace", aceBoth, aceBoth, aceLow, aceHigh),
		sideForOne:   o.Enum("side_bets_pay", "to_one", "to_one", "for_one") == "for_one",
		order:        o.Enum("settlement_order", "right_to_left", "right_to_left", "left_to_right", "off"),
		evenMoneyAny: o.Enum("even_money_timing", "before_draw", "before_draw", "any") == "any",
	}
}

// spotKind is what a blackjack spot holds.
type spotKind uint8

const (
	spotBox spotKind = iota
	spotHand
	spotPairs
	spotPlus3
	spotInsurance
)

// parseSpot reads box:N, box:N.H, box:N:pairs, box:N:21+3 and box:N:insurance.
func parseSpot(s string) (box, hand int, kind spotKind, ok bool) {
	base, suffix := s, ""
	if i := strings.IndexByte(s[min(len(s), 4):], ':'); i >= 0 && strings.HasPrefix(s, "box:") {
		base, suffix = s[:4+i], s[4+i+1:]
	}
	box, hand, ok = journal.ParseBox(base)
	if !ok {
		return 0, 0, 0, false
	}
	switch suffix {
	case "":
		if hand > 0 {
			return box, hand, spotHand, true
		}
		return box, 0, spotBox, true
	case "pairs":
		kind = spotPairs
	case "21+3":
		kind = spotPlus3
	case "insurance":
		kind = spotInsurance
	default:
		return 0, 0, 0, false
	}
	if hand > 0 {
		return 0, 0, 0, false
	}
	return box, 0, kind, true
}

func check(ev *journal.Event) error {
	switch ev.Type {
	case journal.TypeBet:
		_, _, k, ok := parseSpot(ev.Spot)
		if !ok {
			return fmt.Errorf("spot %q cannot exist at blackjack (want box:N, box:N:pairs, box:N:21+3 or box:N:insurance)", ev.Spot)
		}
		if k == spotHand {
			return fmt.Errorf("bet on %q: stakes go on box:N; split hands come from split actions", ev.Spot)
		}
	case journal.TypePayout, journal.TypeCollect, journal.TypeRefund:
		if _, _, _, ok := parseSpot(ev.Spot); !ok {
			return fmt.Errorf("spot %q cannot exist at blackjack (want box:N, box:N.H, box:N:pairs, box:N:21+3 or box:N:insurance)", ev.Spot)
		}
	case journal.TypeAction:
		if ev.Spot != "" {
			if _, _, _, ok := parseSpot(ev.Spot); !ok {
				return fmt.Errorf("action spot %q cannot exist at blackjack", ev.Spot)
			}
		}
	case journal.TypeCard, journal.TypeReveal:
		switch ev.To {
		case "dealer", "burn", "stop":
			return nil
		}
		if _, _, ok := journal.ParseBox(ev.To); !ok {
			return fmt.Errorf("card place %q is not used at blackjack (want dealer, burn, stop, box:N or box:N.H)", ev.To)
		}
	case journal.TypeSpin, journal.TypeDice:
		return fmt.Errorf("%s events do not belong to blackjack", ev.Type)
	case journal.TypeResult:
		// The croupier announces his point (L240); the cards decide, so an announced result
		// judges nothing.
	}
	return nil
}
