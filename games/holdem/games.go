// Package holdem holds the engine of Texas hold'em no limit as Monaco regulates it (AM 2008-761
// art. 1, seed 003), with the French rake of art. 57-2 (arrêté of 14 May 2007 as amended on
// 30 Dec 2014, seed 004) as a rules option. It follows the button and the blinds, the option,
// the deal, the order of speech and the size of every bet in each betting round, the burns,
// then builds the main and side pots, takes the rake and awards each pot to the best hand
// among the players who contributed to it (hands ranked by games/poker/hand).
package holdem

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/coupwatch/coupwatch/games"
	"github.com/coupwatch/coupwatch/journal"
)

// Games returns the hold'em games.
func Games() []*games.Game { return []*games.Game{NoLimit()} }

const (
	am   = "AM 2008-761 art. 1"
	fr   = "Arrêté of 14 May 2007 art. 57-2 (F004"
	game = "texas_holdem_nl"
)

// The rule ids.
const (
	rulePotAward     = game + ".pot_award"
	ruleRake         = game + ".rake"
	ruleButton       = game + ".button"
	ruleBlinds       = game + ".blinds"
	ruleOption       = game + ".option"
	ruleDeal         = game + ".deal"
	ruleBurn         = game + ".burn"
	ruleOrder        = game + ".action_order"
	ruleIllegal      = game + ".illegal_action"
	ruleMinBet       = game + ".min_bet"
	ruleMinRaise     = game + ".min_raise"
	ruleRound        = game + ".betting_round"
	ruleDealerChange = game + ".dealer_change"
	ruleSeatChange   = game + ".seat_change"
	ruleSeats        = game + ".seats"
	ruleRecave       = game + ".recave"
)

// maxPlayers is the number of seated players a table may have: "au maximum de dix", numbered
// 1 to 10 clockwise (AM 2008-761 art. 1, seed 003 L28).
const maxPlayers = 10

// seatCap is the highest seat number the engine follows: a seat beyond maxPlayers is a finding,
// beyond seatCap the journal is invalid.
const seatCap = 20

// NoLimit is Texas hold'em no limit, Monaco AM 2008-761 art. 1.
func NoLimit() *games.Game {
	g := &games.Game{
		ID:     game,
		Name:   "Texas hold'em no limit",
		Source: "Monaco AM 2008-761 art. 1 (seed 003 L16-L120); French rake: arrêté of 14 May 2007 art. 57-2 as amended on 30 Dec 2014 (seed 004 L711-L727)",
		Spots:  "bets are actions on seat:1..seat:10 (post_sb, post_bb, option (or straddle), check, bet, call, raise, fold, all_in; muck, show and recave (or rebuy) are accepted; any other action is reported as one hold'em does not offer); awards are paid on pot:main, pot:side1, pot:side2, ...; an uncalled bet handed back (rules.uncalled_bet = return) is refunded on the player's seat:N",
		Rules: []games.Rule{
			{ID: rulePotAward, Kind: games.WrongPayout, Severity: games.Critical, Article: am + " (seed 003 L89-L93, L97-L101)",
				Summary: "Each pot goes, minus its rake, to the best five-card hand out of seven among the players still in who contributed to it; a player left alone wins every pot he is in; equal hands share the pot.",
				Reading: "A main pot holds every player's chips up to the smallest all-in, each further all-in level makes a side pot (pot:side1, pot:side2, ...) and each pot goes to the best hand among its contributors (the text's «all the pots to the best hand» holds with one all-in). Chips no one matched stay in the pot of their level (rules.uncalled_bet = pot) since the text returns nothing. A shared pot is split in units of rules.rounding (1 cent by default); the odd units go one by one to the winners clockwise from the button (rules.odd_chip). A hand not shown at the showdown cannot win."},
			{ID: ruleRake, Kind: games.WrongPayout, Severity: games.Critical, Article: am + " (seed 003 L93, L102-L107); " + fr + " L711-L725)",
				Summary: "The house takes its levy from each pot: Monaco a rate of 2 to 6 %, a fixed amount per bracket of pot or an amount per hour of play, on the Direction's displayed scale; France 4 % of each pot rounded up to the next half euro, capped by the initial buy-in (15 % from 500 €, 10 % from 1 000 €, 5 % from 5 000 €, 3 % from 10 000 €, 1 % from 50 000 €).",
				Reading: "Each pot, side pots included, is raked on its own. Monaco percent: the rake is rounded down to the cent (rules.rake_rounding). France: the cap applies after the rounding up (rules.rake_cap_order); no cap below a 500 € buy-in. A rake is taken even when no flop was dealt (rules.no_flop_no_drop). The hourly scale is read as the amount levied on each pot during each hour of play since the table opened (rules.rake_hourly)."},
			{ID: ruleButton, Kind: games.Procedure, Severity: games.Warning, Article: am + " (seed 003 L41-L43)",
				Summary: "The button moves one seat clockwise each coup, and the small blind is posted by the first player to its left.",
				Reading: "The button is the occupied seat just before the small blind. With two players that seat is the big blind's (the two players «directly to the left of the button» post the blinds; rules.heads_up). The move is judged at the end of the coup: a player who changed seats in it (its own finding, L33) may be counted at his new seat or at his former one."},
			{ID: ruleBlinds, Kind: games.Procedure, Severity: games.Warning, Article: am + " (seed 003 L42-L44, L46)",
				Summary: "Before the deal the player to the left of the button posts the small blind and the next player the big blind, at least the small blind and at most twice it; the amounts stay the same for the whole game.",
				Reading: "The blinds of the first coup at the table are the game's blinds unless rules.small_blind and rules.big_blind set them."},
			{ID: ruleOption, Kind: games.Procedure, Severity: games.Warning, Article: am + " (seed 003 L45)",
				Summary: "The option is posted before the deal of the first betting round only, by the player immediately left of the big blind, for exactly twice the big blind."},
			{ID: ruleDeal, Kind: games.Procedure, Severity: games.Warning, Article: am + " (seed 003 L46, L65, L83, L86)",
				Summary: "The cards are dealt one at a time, clockwise from the player left of the button, two to each player, after the blinds; the board is a flop of three cards, a turn and a river."},
			{ID: ruleBurn, Kind: games.Procedure, Severity: games.Warning, Article: am + " (seed 003 L65, L83, L86)",
				Summary: "The dealer burns exactly one card before the flop, one before the turn and one before the river."},
			{ID: ruleOrder, Kind: games.Procedure, Severity: games.Warning, Article: am + " (seed 003 L47-L63, L66-L77, L84, L87)",
				Summary: "Players speak in turn clockwise: pre-flop from the player left of the big blind (or of the option), the option last; after the flop from the first player still in to the left of the button.",
				Reading: "A player passed over by a player who spoke out of turn may still speak without a further finding, and the game goes on from the player who spoke; if the passed-over player bets or raises, it goes on from him. A check when the round is over and nothing is owed (the last player with chips, the others all in) is no breach."},
			{ID: ruleIllegal, Kind: games.Procedure, Severity: games.Warning, Article: am + " (seed 003 L30, L48-L63, L71-L77)",
				Summary: "An action must be possible when it is made: check only when no bet is open to the player, call by putting in exactly what the highest bet asks, no action by a player who folded, is all in or has no hand.",
				Reading: "A bet made when a bet is already open is judged as a raise and a raise on an unopened round as a bet (the label is the camera's); «check or open only if the previous player checked or folded» is read as «only if no bet is open in the round»."},
			{ID: ruleMinBet, Kind: games.Procedure, Severity: games.Warning, Article: am + " (seed 003 L69, L73)",
				Summary: "An opening bet after the flop is at least the big blind.",
				Reading: "An all-in for less is allowed (L89: a player may commit his whole stack)."},
			{ID: ruleMinRaise, Kind: games.Procedure, Severity: games.Warning, Article: am + " (seed 003 L51, L56, L60, L75)",
				Summary: "A raise brings the player's bet to at least twice the highest bet of the round (pre-flop at least twice the big blind or the option).",
				Reading: "L51 is read like L56 and L60: at least double the highest bet, not of the big blind (rules.min_raise = double; «increment» applies the usual rule: the raise is at least the last raise). An all-in for less than the minimum is not addressed by the text and is allowed."},
			{ID: ruleRound, Kind: games.Procedure, Severity: games.Warning, Article: am + " (seed 003 L62-L65, L78-L83, L85-L86)",
				Summary: "A betting round ends when every player still in has checked, or has called the last bet or raise (or is all in); the next card is dealt only then."},
			{ID: ruleDealerChange, Kind: games.Procedure, Severity: games.Warning, Article: am + " (seed 003 L21)",
				Summary: "The dealer cannot be relieved during the deal, the play or the payment of a coup."},
			{ID: ruleSeatChange, Kind: games.Procedure, Severity: games.Warning, Article: am + " (seed 003 L33)",
				Summary: "Players may not change seats during the game."},
			{ID: ruleSeats, Kind: games.Procedure, Severity: games.Warning, Article: am + " (seed 003 L28-L30)",
				Summary: "At most ten seated players take part, in seats numbered 1 to 10 clockwise, one hand each."},
			{ID: ruleRecave, Kind: games.Procedure, Severity: games.Warning, Article: am + " (seed 003 L35-L37)",
				Summary: "A recave (rebuy) is allowed during the game but never during a coup, and is at least the initial cave.",
				Reading: "A `recave` (or `rebuy`) action is during a coup from the coup's first blind, card or action until its first payment; before or after, it is between coups. Its amount is compared with rules.buy_in (cave) when that is set; the text's «initial cave» is read as the table's, not the player's own first buy-in."},
		},
		Options: []games.OptionDoc{
			{Key: "rake", Default: `"percent"`, Doc: "how the house levies each pot: percent (Monaco rate, rules.rake_percent), fixed (Monaco amount per bracket of pot, rules.rake_brackets), hourly (Monaco amount per hour of play, rules.rake_hourly), france (art. 57-2: 4 % rounded up to 0.50 €, capped by rules.buy_in) or none (no levy on pots, e.g. a time charge collected apart)"},
			{Key: "rake_percent", Default: "5 (france: 4)", Doc: "the rate in percent (up to two decimals) for percent and france; Monaco allows 2 to 6"},
			{Key: "rake_cap", Default: "0", Doc: "the most taken from one pot in cents, in every mode (0 = no cap); france also caps by rules.buy_in"},
			{Key: "rake_brackets", Default: "none", Doc: `for rake = fixed: [{"from": cents, "amount": cents}, ...]: a pot of at least "from" pays the amount of the highest such bracket (a pot under every bracket pays nothing)`},
			{Key: "rake_hourly", Default: "none", Doc: `for rake = hourly: [{"from_hour": H, "amount": cents}, ...]: the amount levied on each pot from the H-th hour of play after the table opened (0 = the first hour)`},
			{Key: "buy_in", Default: "0", Doc: "the table's initial buy-in (cave) in cents, which sets the French cap: from 50000 15 %, 100000 10 %, 500000 5 %, 1000000 3 %, 5000000 1 % of it; under 50000 (or 0) no cap"},
			{Key: "cave", Default: "0", Doc: "the regulation's word for rules.buy_in (give one of them)"},
			{Key: "rake_rounding", Default: `"down" (france: {"unit": 50, "mode": "up"})`, Doc: "rounding of a percent rake: down, up or nearest cent, a unit in cents, or {\"unit\": 50, \"mode\": \"up\"}"},
			{Key: "rake_cap_order", Default: `"round_then_cap"`, Doc: "france: round the 4 % up to the half euro then cap it (round_then_cap), or cap it then round (cap_then_round)"},
			{Key: "no_flop_no_drop", Default: "false", Doc: "take no rake from a coup that ends before the flop"},
			{Key: "min_raise", Default: `"double"`, Doc: "minimum raise: double (Monaco: bring the bet to at least twice the highest bet) or increment (raise by at least the last bet or raise, and at least the big blind)"},
			{Key: "uncalled_bet", Default: `"pot"`, Doc: "chips no other player matched: pot (they stay in the pot of their level, raked and awarded like any pot) or return (handed back to their owner before the rake, expected as a refund on seat:N)"},
			{Key: "odd_chip", Default: `"left_of_button"`, Doc: "who gets the units left over when a pot is shared: left_of_button (the winners one by one clockwise from the button) or house (added to the rake)"},
			{Key: "heads_up", Default: `"literal"`, Doc: "with two players: literal (the button is the big blind, the small blind speaks first in every round) or button_small_blind (the button posts the small blind and speaks last after the flop)"},
			{Key: "small_blind", Default: "0", Doc: "the game's small blind in cents (0 = the first coup's)"},
			{Key: "big_blind", Default: "0", Doc: "the game's big blind in cents (0 = the first coup's)"},
			{Key: "rounding", Default: `"down"`, Doc: "the unit in which a shared pot is split (a unit in cents or {\"unit\": 100}); the remainder goes by rules.odd_chip"},
		},
	}
	g.Check = check
	g.New = func(s games.Setup) (games.Engine, error) {
		return newEngine(s, parseConfig(s.Options)), nil
	}
	return g
}

// seatOf reads "seat:N" with N in 1..10; 0 when s is not a seat.
func seatOf(s string) int {
	rest, ok := strings.CutPrefix(s, "seat:")
	if !ok || rest == "" || rest[0] == '0' || rest[0] == '+' {
		return 0
	}
	n, err := strconv.Atoi(rest)
	if err != nil || n < 1 || n > seatCap {
		return 0
	}
	return n
}

// potIndex reads "pot:main" (0) or "pot:sideN" (N >= 1); -1 when s is not a pot.
func potIndex(s string) int {
	rest, ok := strings.CutPrefix(s, "pot:")
	if !ok {
		return -1
	}
	if rest == "main" {
		return 0
	}
	num, ok := strings.CutPrefix(rest, "side")
	if !ok || num == "" || num[0] == '0' || num[0] == '+' {
		return -1
	}
	n, err := strconv.Atoi(num)
	if err != nil || n < 1 {
		return -1
	}
	return n
}

func potName(i int) string {
	if i == 0 {
		return "pot:main"
	}
	return "pot:side" + strconv.Itoa(i)
}

// Actions of the hold'em vocabulary.
func knownAction(a string) bool {
	switch a {
	case "post_sb", "post_bb", "option", "straddle", "check", "bet", "call", "raise", "fold", "all_in", "muck", "show", "recave", "rebuy":
		return true
	}
	return false
}

// needsAmount reports whether an action puts chips in and must say how many.
func needsAmount(a string) bool {
	switch a {
	case "post_sb", "post_bb", "option", "straddle", "bet", "raise", "all_in":
		return true
	}
	return false
}

// check validates an event against the game.
func check(ev *journal.Event) error {
	switch ev.Type {
	case journal.TypeAction:
		if ev.Spot != "" && seatOf(ev.Spot) == 0 {
			return fmt.Errorf("action spot %q is not a seat (want seat:1 to seat:%d)", ev.Spot, seatCap)
		}
		if ev.Spot == "" && ev.Player == "" {
			return fmt.Errorf("%s action needs a player or a seat", ev.Action)
		}
		if needsAmount(ev.Action) && (!ev.HasAmount || ev.Amount <= 0) {
			return fmt.Errorf("%s action needs a positive amount (the chips it puts in)", ev.Action)
		}
	case journal.TypeBet, journal.TypePayout, journal.TypeCollect, journal.TypeRefund:
		if potIndex(ev.Spot) < 0 && seatOf(ev.Spot) == 0 {
			return fmt.Errorf("spot %q cannot exist at hold'em (want pot:main, pot:sideN or seat:1 to seat:%d)", ev.Spot, seatCap)
		}
	case journal.TypeCard:
		if ev.To != "board" && ev.To != "burn" && seatOf(ev.To) == 0 {
			return fmt.Errorf("card place %q does not exist at hold'em (want seat:1 to seat:%d, board or burn)", ev.To, seatCap)
		}
	case journal.TypeReveal:
		if seatOf(ev.To) == 0 {
			return fmt.Errorf("reveal place %q is not a seat (want seat:1 to seat:%d)", ev.To, seatCap)
		}
	case journal.TypeSpin, journal.TypeDice:
		return fmt.Errorf("%s events do not belong to hold'em", ev.Type)
	case journal.TypeResult:
		// An announced result (the winning hand named at the showdown): the cards decide, so
		// it judges nothing.
	}
	return nil
}
