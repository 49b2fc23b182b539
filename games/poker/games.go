// Package poker holds the engines of the banking poker games: ultimate hold'em
// (French arrêté of 14 May 2007 art. 55-20 and 55-20-1) and three card poker (art. 55-21
// and 55-21-1), both inserted by the arrêté of 30 December 2014 art. 28. Hands are rated
// by the evaluator in package hand; the two engines share the book-keeping of boxes,
// hole cards, the deal and the dealer's money (table.go).
package poker

import (
	"fmt"
	"strings"

	"github.com/coupwatch/coupwatch/games"
	"github.com/coupwatch/coupwatch/journal"
)

// Games returns ultimate hold'em and three card poker.
func Games() []*games.Game {
	return []*games.Game{UltimateHoldem(), ThreeCardPoker()}
}

const (
	uthArt = "Arrêté of 14 May 2007 art. 55-20 (F004"
	uthLim = "Arrêté of 14 May 2007 art. 55-20-1 (F004"
	tcpArt = "Arrêté of 14 May 2007 art. 55-21 (F004"
	tcpLim = "Arrêté of 14 May 2007 art. 55-21-1 (F004"
)

// The rule ids, shared by both games where the rule exists in both.
const (
	rPayout        = "payout"
	rLate          = "late_bet"
	rLimit         = "bet_limit"
	rAnteBlind     = "ante_blind"
	rPlayAmount    = "play_amount"
	rSecondPlay    = "second_play"
	rFold          = "fold"
	rDealOrder     = "deal_order"
	rCardCount     = "card_count"
	rEarlyLook     = "early_look"
	rRelieved      = "dealer_relieved"
	rAfterDealer   = "decision_after_dealer"
	rPaymentOrder  = "payment_order"
	rOneHand       = "one_hand"
	rForeignStake  = "foreign_stake"
	rEarlyCard     = "card_before_cutoff"
	rBoxes         = "boxes"
	rBonusOrder    = "bonus_order"
	uthID, tcpID   = "ultimate_holdem", "three_card_poker"
	defaultBoxes   = 7
	minimumFloor   = 100 // art. 55-21-1: the minimum is never below 1 euro
	uthMaxMultiple = 30  // art. 55-20-1: the maximum is 10, 20 or 30 times the minimum
	tcpMaxMultiple = 100 // art. 55-21-1: the maximum is 10, 20, 25, 50 or 100 times the minimum
)

// UltimateHoldem is ultimate hold'em poker, arrêté of 14 May 2007 art. 55-20.
func UltimateHoldem() *games.Game {
	id := func(r string) string { return uthID + "." + r }
	g := &games.Game{
		ID:     uthID,
		Name:   "Ultimate hold'em poker",
		Source: "French arrêté of 14 May 2007 art. 55-20 and 55-20-1, inserted by the arrêté of 30 Dec 2014 art. 28 (seed 004 L314-L400)",
		Spots:  "box:N:ante, box:N:blind, box:N:trips (bets), box:N:play (action play with an amount); cards to box:N, dealer, board, burn",
		Rules: []games.Rule{
			{ID: id(rPayout), Kind: games.WrongPayout, Severity: games.Critical, Article: uthArt + " L363-L389)",
				Summary: "Against a qualified dealer (a pair or better) a winning hand is paid Ante and Play 1 to 1 and the Blind on a straight or better (royal 500, straight flush 50, four of a kind 10, full house 3, flush 3 to 2, straight 1 to 1; a lesser win pushes it); a losing hand loses Ante, Play and Blind; a tie pushes all three; when the dealer does not qualify the Ante is returned and Play and Blind are settled the same way; Trips pays royal 50, straight flush 40, four of a kind 30, full house 8, flush 7, straight 4, three of a kind 3 to 1 whatever the dealer holds.",
				Reading: "A hand is the best five of the player's two cards and the five board cards; A-2-3-4-5 is the lowest straight. «N pour 1» is read as N to 1 with the stake returned (rules.payout_includes_stake). A player who folds, or shows no Play bet at the showdown, loses Ante and Blind; Trips is still settled on his cards (rules.trips_on_fold), and lost if his cards, laid face down with the fold (L361), are never turned up."},
			{ID: id(rLate), Kind: games.LateBet, Severity: games.Critical, Article: uthArt + " L347-L352)",
				Summary: "Ante, Blind and Trips are in place before the deal: a stake placed, changed or withdrawn after «rien ne va plus» or after the first card is late; it is still settled as placed."},
			{ID: id(rLimit), Kind: games.BetLimit, Severity: games.Warning, Article: uthLim + " L391-L400)",
				Summary: "Each stake lies within the table's minimum and maximum, and the maximum is at most 30 times the minimum.",
				Reading: "The limits apply to each of Ante, Blind and Trips separately (rules.limit_spots); the Play bet is bound by its multiple of the Ante instead, and checked when it is made if rules.limit_spots names play. A table maximum above 30 times the minimum is capped there (rules.max_multiple), unless limits.spots sets that spot's maximum."},
			{ID: id(rEarlyCard), Kind: games.Procedure, Severity: games.Warning, Article: uthArt + " L350)",
				Summary: "The deal begins once the bets are in place, after «rien ne va plus»: no card is dealt before the announcement.",
				Reading: "A no_more_bets after the first card dealt (other than cause first_card, which records that the card was the cut-off) shows the deal began before it; the first card closed the bets and the coup is settled as dealt. A card burnt before the bets is no card dealt."},
			{ID: id(rAnteBlind), Kind: games.Procedure, Severity: games.Warning, Article: uthArt + " L347-L349)",
				Summary: "A player stakes the same amount on Ante and Blind (checked on the stakes at the cut-off; the finding names the Blind); Trips comes in addition to them, never alone (the finding names the Trips)."},
			{ID: id(rPlayAmount), Kind: games.Procedure, Severity: games.Warning, Article: uthArt + " L353-L361)",
				Summary: "The Play bet is 3 or 4 times the Ante before the flop, 2 times the Ante once the flop is out, 1 times the Ante once the last two board cards are out; it is settled at the amount bet.",
				Reading: "The phase is read from the board cards face up when the play action comes: none before the flop, one to three at the flop, four or five at the river (a board laid face down counts its cards as they are turned up, L356-L359). A play action without an amount is taken at the lowest multiple allowed then."},
			{ID: id(rSecondPlay), Kind: games.Procedure, Severity: games.Warning, Article: uthArt + " L356-L361)",
				Summary: "A player bets Play once: a second play action is a breach (both amounts are settled)."},
			{ID: id(rFold), Kind: games.Procedure, Severity: games.Warning, Article: uthArt + " L353-L361)",
				Summary: "A player folds only at the last decision, after the last two board cards, and only if he has not bet Play; the fold stands and loses Ante and Blind."},
			{ID: id(rDealOrder), Kind: games.Procedure, Severity: games.Warning, Article: uthArt + " L350-L352)",
				Summary: "Once the bets are in place the croupier deals from his left to right two face-down cards to each player, then two to himself.",
				Reading: "The text does not say whether the two cards go one round at a time or two at once: both are accepted (rules.deal_style); the dealer's cards come after every player's."},
			{ID: id(rCardCount), Kind: games.Procedure, Severity: games.Warning, Article: uthArt + " L350-L362)",
				Summary: "Each playing box and the dealer receive exactly two cards and the board exactly five.",
				Reading: "The text gives no misdeal rule for ultimate hold'em: a wrong count is reported and the coup is settled as dealt."},
			{ID: id(rRelieved), Kind: games.Procedure, Severity: games.Warning, Article: uthArt + " L338)",
				Summary: "The croupier is not relieved during a coup.",
				Reading: "A dealer change counts once the coup has begun (a bet, a card or an action seen); a dealer event before any of them starts the coup with the new croupier."},
			{ID: id(rAfterDealer), Kind: games.Procedure, Severity: games.Critical, Article: uthArt + " L359-L362)",
				Summary: "Every player decides (Play or fold) before the croupier turns his two cards."},
			{ID: id(rBoxes), Kind: games.Procedure, Severity: games.Warning, Article: uthArt + " L343-L344)",
				Summary: "The seated players' places are marked on the felt, seven at most: a stake on a box beyond box 7 is reported (once a box) and still settled."},
			{ID: id(rOneHand), Kind: games.Procedure, Severity: games.Warning, Article: uthArt + " L342-L346)",
				Summary: "A player has one hand only: he stakes on one box, and never on a vacant one."},
			{ID: id(rForeignStake), Kind: games.Procedure, Severity: games.Warning, Article: uthArt + " L342-L346)",
				Summary: "Only the seated player of a box stakes on it: no standing person plays.",
				Reading: "A box belongs to the player of its Ante (else of its first stake); a stake there by anyone else is reported, once a player and box, and still settled."},
		},
		Options: []games.OptionDoc{
			{Key: "trips_on_fold", Default: "true", Doc: "settle Trips on a folded hand's cards (true, standard practice) or lose it with the fold (false)"},
			{Key: "deal_style", Default: `"either"`, Doc: "accepted order of the hole cards: rounds (one card per box, twice, then the dealer's two), pairs (two cards per box in turn, then the dealer's) or either"},
			{Key: "max_multiple", Default: "30", Doc: "cap of the maximum in multiples of the table minimum (0 turns the cap off)"},
			{Key: "limit_spots", Default: `["ante","blind","trips"]`, Doc: "the stakes checked against the table limits (any of ante, blind, trips, play)"},
			payoutIncludesDoc("«N pour 1» (Blind, Trips)"),
			roundingDoc(),
		},
	}
	g.Check = checker(uthID, []string{"ante", "blind", "trips", "play"}, true)
	g.New = func(s games.Setup) (games.Engine, error) { return newUTH(s) }
	return g
}

// ThreeCardPoker is three card poker, arrêté of 14 May 2007 art. 55-21.
func ThreeCardPoker() *games.Game {
	id := func(r string) string { return tcpID + "." + r }
	g := &games.Game{
		ID:     tcpID,
		Name:   "Three card poker",
		Source: "French arrêté of 14 May 2007 art. 55-21 and 55-21-1, inserted by the arrêté of 30 Dec 2014 art. 28 (seed 004 L402-L570)",
		Spots:  "box:N:ante (MISE), box:N:pairplus, box:N:bonus (bets), box:N:play (JOUER: action play with an amount); cards to box:N, dealer, burn",
		Rules: []games.Rule{
			{ID: id(rPayout), Kind: games.WrongPayout, Severity: games.Critical, Article: tcpArt + " L488-L553)",
				Summary: "A dealer without queen high or better pays every Ante 1 to 1 and returns Play; a qualified dealer beaten by a hand pays its Ante 1 to 1 (three of a kind 4 times, straight flush 5 times) and its Play 1 to 1, beats a lower hand (Ante and Play lost) and pushes an equal one; Pair Plus pays pair 1, flush 3, straight 6, three of a kind 30, straight flush 40 times whatever the dealer holds; Bonus pays a raised hand straight 1, three of a kind 4, straight flush 5 times; a fold loses the Ante.",
				Reading: "Ranking: straight flush > three of a kind > straight > flush > pair > high card; A-2-3 and Q-K-A are straights. Flushes and high cards compare all three cards (rules.flush_tiebreak). With an unqualified dealer the Ante is paid 1 to 1 even on three of a kind (rules.ante_bonus_unqualified). Pair Plus is settled on a folded hand's cards (rules.pairplus_on_fold), and lost if the fold, taken face down and burned (L477-L478), is never turned up; Bonus, for raised hands only, is lost with a fold. With «pas de jeu» Pair Plus and Bonus are paid on a claim, the claimant's cards being turned up (L533-L536, L551-L553): a hand whose cards are never turned up claimed nothing and loses them. «N fois la mise» is read as N to 1 with the stake returned (rules.payout_includes_stake)."},
			{ID: id(rLate), Kind: games.LateBet, Severity: games.Critical, Article: tcpArt + " L452-L453, L546-L548)",
				Summary: "No stake is placed, changed or withdrawn after «rien ne va plus» (or after the first card); it is still settled as placed."},
			{ID: id(rLimit), Kind: games.BetLimit, Severity: games.Warning, Article: tcpLim + " L558-L568) and art. 55-21 (F004 L448-L450)",
				Summary: "Each stake lies within the table's minimum (never below 1 euro) and maximum, and the maximum is at most 100 times the minimum.",
				Reading: "«Leur montant, par joueur» is read per stake: Ante, Pair Plus and Bonus are each checked (rules.limit_spots); Play equals the Ante. A table maximum above 100 times the minimum is capped there (rules.max_multiple), unless limits.spots sets that spot's maximum."},
			{ID: id(rPlayAmount), Kind: games.Procedure, Severity: games.Warning, Article: tcpArt + " L479-L481)",
				Summary: "A player who raises puts on JOUER exactly the amount of his initial stake, once; the Play is settled at the amount bet."},
			{ID: id(rDealOrder), Kind: games.Procedure, Severity: games.Warning, Article: tcpArt + " L455-L457)",
				Summary: "Three rounds: one face-down card to each hand from the croupier's left, clockwise, then one to the croupier."},
			{ID: id(rEarlyCard), Kind: games.Procedure, Severity: games.Warning, Article: tcpArt + " L452-L453)",
				Summary: "The croupier announces «rien ne va plus» and then deals: no card is dealt before the announcement.",
				Reading: "A no_more_bets after the first card dealt (other than cause first_card, which records that the card was the cut-off) shows the deal began before it; the first card closed the bets and the coup is settled as dealt. A card burnt before the bets is no card dealt."},
			{ID: id(rCardCount), Kind: games.Procedure, Severity: games.Critical, Article: tcpArt + " L466-L467)",
				Summary: "Each hand and the croupier hold exactly three cards; otherwise the coup is void and every stake is handed back (any other settlement is a wrong payout).",
				Reading: "An exposed card during the deal is not a misdeal (L463): a card dealt face up counts as dealt."},
			{ID: id(rEarlyLook), Kind: games.Procedure, Severity: games.Warning, Article: tcpArt + " L470, L474-L476)",
				Summary: "A player who looks at his cards before the end of the deal has a void hand: his stakes are handed back.",
				Reading: "Looking is an action look or peek on the box, or the box's cards revealed, before the croupier has his third card; a card dealt face up is an exposed card, not a look (L463)."},
			{ID: id(rRelieved), Kind: games.Procedure, Severity: games.Warning, Article: tcpArt + " L436)",
				Summary: "The croupier is not relieved during the deal, the play or the payments.",
				Reading: "A dealer change counts from the cut-off («rien ne va plus» or the first card) to the end of the coup."},
			{ID: id(rAfterDealer), Kind: games.Procedure, Severity: games.Critical, Article: tcpArt + " L474-L484)",
				Summary: "Every player decides (raise or fold) before the croupier shows his hand."},
			{ID: id(rPaymentOrder), Kind: games.Procedure, Severity: games.Info, Article: tcpArt + " L493-L496)",
				Summary: "Against a qualified dealer, losers are collected and winners paid counter-clockwise (from box 7 down to box 1).",
				Reading: "Checked on the money moved on the boxes after the dealer's hand is shown, when it qualifies (rules.payment_order); a fold collected during the decisions, the Pair Plus claims of an unqualified dealer and refunds (a void hand, a push handed back) are not ordered. L494 («ramassage des chances perdantes et paiement des mains gagnantes») is met by one counter-clockwise pass, hand by hand, or by the losing chances collected first and the winners paid after, each pass counter-clockwise."},
			{ID: id(rBoxes), Kind: games.Procedure, Severity: games.Warning, Article: tcpArt + " L440-L443)",
				Summary: "The boxes are numbered one to seven clockwise, seven at most: a stake on a box beyond box 7 is reported (once a box) and still settled."},
			{ID: id(rBonusOrder), Kind: games.Procedure, Severity: games.Info, Article: tcpArt + " L524-L525)",
				Summary: "The Bonus is paid after the raise (JOUER), when the raise is paid: a box's Bonus paid before its JOUER is reported.",
				Reading: "Judged on the payments due only (a wrong payment is its own finding), with a qualified or an unqualified dealer alike; the raise handed back by an unqualified dealer is no payment and sets no order."},
			{ID: id(rOneHand), Kind: games.Procedure, Severity: games.Warning, Article: tcpArt + " L445)",
				Summary: "A player has one hand only: he stakes on one box."},
			{ID: id(rForeignStake), Kind: games.Procedure, Severity: games.Warning, Article: tcpArt + " L445-L446)",
				Summary: "No standing person stakes on a seated player's hand.",
				Reading: "A box belongs to the player of its Ante (else of its first stake); a stake there by anyone else is reported, once a player and box, and still settled."},
		},
		Options: []games.OptionDoc{
			{Key: "ante_bonus_unqualified", Default: "false", Doc: "pay the Ante 4 times on three of a kind and 5 times on a straight flush also when the dealer does not qualify (the text says «toujours payées à égalité»)"},
			{Key: "flush_tiebreak", Default: `"all_cards"`, Doc: "two flushes compare all three cards (all_cards, standard practice) or only their highest card (top_card, the literal reading of L500-L503)"},
			{Key: "pairplus_on_fold", Default: "true", Doc: "settle Pair Plus on a folded hand's cards (true) or lose it with the fold (false)"},
			{Key: "payment_order", Default: "true", Doc: "check that a qualified dealer settles the hands counter-clockwise"},
			{Key: "max_multiple", Default: "100", Doc: "cap of the maximum in multiples of the table minimum (0 turns the cap off)"},
			{Key: "limit_spots", Default: `["ante","pairplus","bonus"]`, Doc: "the stakes checked against the table limits (any of ante, pairplus, bonus, play)"},
			payoutIncludesDoc("«N fois la mise» (Ante premiums, Pair Plus, Bonus)"),
			roundingDoc(),
		},
	}
	g.Check = checker(tcpID, []string{"ante", "play", "bonus", "pairplus"}, false)
	g.New = func(s games.Setup) (games.Engine, error) { return newTCP(s) }
	return g
}

func payoutIncludesDoc(what string) games.OptionDoc {
	return games.OptionDoc{Key: "payout_includes_stake", Default: "false",
		Doc: "read " + what + " as N for 1, the stake included (net N-1), instead of N to 1; even-money payments are unaffected"}
}

func roundingDoc() games.OptionDoc {
	return games.OptionDoc{Key: "rounding", Default: `"down"`, Doc: "rounding of amounts due to players: down, up or nearest cent, a unit in cents, or {\"unit\":50,\"mode\":\"nearest\"}"}
}

// asPlay reads a raise or a bet on a box's Play spot, or on the box itself (the spot a fold
// names), as the Play decision it is (the spec's action names include raise and bet; the
// regulation's player «relance», F004 L479).
func asPlay(ev *journal.Event) *journal.Event {
	if ev.Action != "raise" && ev.Action != "bet" {
		return ev
	}
	if _, part, ok := parseSpot(ev.Spot); !ok || (part != "play" && part != "") {
		return ev
	}
	c := *ev
	c.Action = "play"
	return &c
}

// parseSpot splits "box:N:part" (part may be empty for an action's "box:N").
func parseSpot(s string) (box int, part string, ok bool) {
	rest, found := strings.CutPrefix(s, "box:")
	if !found {
		return 0, "", false
	}
	num, part, _ := strings.Cut(rest, ":")
	n, hand, ok := journal.ParseBox("box:" + num)
	if !ok || hand != 0 {
		return 0, "", false
	}
	return n, part, true
}

// checker validates the events of a poker game: stake spots, card places and actions.
func checker(game string, parts []string, board bool) func(ev *journal.Event) error {
	known := func(p string) bool {
		for _, q := range parts {
			if p == q {
				return true
			}
		}
		return false
	}
	want := "box:N:" + strings.Join(parts, ", box:N:")
	return func(ev *journal.Event) error {
		switch ev.Type {
		case journal.TypeBet, journal.TypePayout, journal.TypeCollect, journal.TypeRefund:
			if _, part, ok := parseSpot(ev.Spot); !ok || !known(part) {
				return fmt.Errorf("spot %q cannot exist at %s (want %s)", ev.Spot, game, want)
			}
		case journal.TypeAction:
			if ev.Spot == "" {
				return nil
			}
			if _, part, ok := parseSpot(ev.Spot); !ok || (part != "" && !known(part)) {
				return fmt.Errorf("action spot %q cannot exist at %s (want box:N or %s)", ev.Spot, game, want)
			}
		case journal.TypeCard, journal.TypeReveal:
			switch ev.To {
			case "dealer", "burn":
				return nil
			case "board":
				if board {
					return nil
				}
			default:
				if _, part, ok := parseSpot(ev.To); ok && part == "" {
					return nil
				}
			}
			places := "box:N, dealer, burn"
			if board {
				places += ", board"
			}
			return fmt.Errorf("cards cannot go to %q at %s (want %s)", ev.To, game, places)
		case journal.TypeDice, journal.TypeSpin:
			return fmt.Errorf("%s events do not belong to %s", ev.Type, game)
		case journal.TypeResult:
			// An announced result (the croupier names the hands): the cards decide, so it
			// judges nothing.
		}
		return nil
	}
}
