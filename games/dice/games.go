// Package dice holds the engines of the dice games: craps (Monaco AM 88-384 arts. 2 and 6)
// and rampo (French arrêté of 14 May 2007 arts. 55-22 to 55-22-2, in the 2014 wording and the
// later consolidated one). Both games share the throw rules: a shooter who keeps the dice until
// his turn ends, faulty throws that decide nothing, and repeated violations reported to the
// chef de table.
package dice

import (
	"fmt"

	"github.com/coupwatch/coupwatch/games"
	"github.com/coupwatch/coupwatch/journal"
)

// Games returns craps and rampo.
func Games() []*games.Game {
	return []*games.Game{Craps(), Rampo()}
}

const (
	am     = "AM 88-384"
	r2014  = "Arrêté of 14 May 2007 art. 55-22-1, 2014 wording (F004 "
	rLater = "consolidated wording (F002 "
)

// Craps is craps, AM 88-384 art. 6 (dice: art. 2).
func Craps() *games.Game {
	g := &games.Game{
		ID:     "craps",
		Name:   "Craps",
		Source: "Monaco AM 88-384 art. 2 and 6 (seed 001 L93-L117, L327-L493)",
		Spots: "pass, dont_pass, come, dont_come, field, big6, big8, hard:4|6|8|10, any7, eleven, any_craps, craps:2|3|12, " +
			"horn, seven_eleven, c_e, three_way_craps, high_low, horn_high:N (N the doubled number 2, 3, 11 or 12), world, " +
			"odds:pass, odds:dont_pass, odds:come:N, odds:dont_come:N, place:N, buy:N, lay:N (N a point: 4 5 6 8 9 10), hop:A-B (faces, ascending); " +
			"a come or don't come bet that travels to its number keeps its spot; a bet of its amount there, with the come box empty, restates it in a journal that restates the stakes still on the layout and is a new bet in one that does not (another amount on the player's one travelled don't come changes that bet); bets and actions written between a coup_end and the next coup belong to the next coup",
		Rules: []games.Rule{
			{ID: "craps.payout", Kind: games.WrongPayout, Severity: games.Critical, Article: am + " art. 6.3 A-G (L353-L493)",
				Summary: "Each stake is paid its net odds: pass, don't pass, come, don't come and big 6/8 even money; field 1 to 1, 2 and 12 2 to 1; " +
					"the «mise comprise» chances their amount less the stake (hard 4/10 7:1, hard 6/8 9:1, any seven 4:1, eleven 14:1, any craps 7:1, craps 2 and 12 29:1, craps 3 14:1, hop 14:1 and 29:1 on a double); " +
					"horn (6.5 and 2.75), 7-11 (1.5 and 6.5), C&E (3 and 6.5), three way craps (4 and 9), high-low (15), horn high (2, 5, 11) and world (2, 5, push on 7) their multiple of the whole stake; " +
					"odds 2:1, 3:2, 6:5 and 1:2, 2:3, 5:6; place 9:5, 7:5, 7:6; buy at 2:1, 3:2, 6:5; lay at 1:2, 2:3, 5:6; a «no dice» throw decides nothing.",
				Reading: "High-low pays the 15 times of the text (L447), although the other combined bets' arithmetic gives 14 (rules.high_low_pays). " +
					"Place bets and come odds are off on a come-out unless the player asks (action working on the spot, L477, L485); buy and lay bets always work. " +
					"Place, buy, lay, big 6/8 and hard ways keep working after a win until taken down; every other decided stake leaves the layout; don't pass and don't come stay on a 12 and the world bet on a 7. " +
					"The composants 1-1, 6-6, 5-6 and 1-2 excluded by L493 are paid as their equivalent propositions (craps 2, craps 12, eleven, craps 3), which is the same amount. " +
					"A lay bet on 7 (L491) cannot win with the 7 and is not a valid spot."},
			{ID: "craps.late_bet", Kind: games.LateBet, Severity: games.Critical, Article: am + " art. 6.2 (L339)",
				Summary: "The dice are passed to the shooter once every stake is placed: a stake placed, changed or withdrawn after the dice are released is late; it is still settled as placed."},
			{ID: "craps.bet_limit", Kind: games.BetLimit, Severity: games.Warning, Article: "table limits (table_open.limits) set by the management",
				Summary: "Each stake placed or changed lies within the table's minimum and maximum (per-spot overrides apply)."},
			{ID: "craps.no_dice", Kind: games.IrregularThrow, Severity: games.Warning, Article: am + " art. 6.2 (L341, L345)",
				Summary: "A throw with dice stacked, in the dice tray or the chip rack, on the bank's chips or off the table, slid, not thrown the length of the table, held, rubbed or thrown at the mirrors is «no dice»: it decides nothing and any payment on it is wrong.",
				Reading: "The text does not ask the dice to hit the far wall: a throw whose only fault is no_wall stands (rules.wall_required). A broken or cocked die does not come to rest on the felt and voids the throw."},
			{ID: "craps.repeated_violations", Kind: games.IrregularThrow, Severity: games.Warning, Article: am + " art. 6.2 (L345)",
				Summary: "A player who repeatedly breaks the throwing rules is reported: the chef de table may withdraw his turn to shoot.",
				Reading: "The withdrawal is the chef de table's discretion («peut retirer»), not a breach: each faulty throw is already reported by craps.no_dice, so by default nothing more is raised (rules.repeat_violations = 0). A house that wants the report sets the count at which it is raised once per player. From a player's second irregular throw («de façon répétée») the dice may change hands without a seven-out."},
			{ID: "craps.shooter_bet", Kind: games.IrregularThrow, Severity: games.Warning, Article: am + " art. 6.2 (L349)",
				Summary: "The shooter has a stake on pass or don't pass before he throws.",
				Reading: "No consequence is stated: the throw counts. A shooter who reduces his don't pass under the minimum (L369) is reported by craps.bet_limit, one who withdraws it by this rule at his next throw. A shooter who takes his pass line down with the point on is reported by craps.pass_line_locked only, not again by this rule before that point is decided."},
			{ID: "craps.dice_pass", Kind: games.Procedure, Severity: games.Warning, Article: am + " art. 6.2 (L339) and 6.3 A 1° (L357)",
				Summary: "The shooter keeps the dice while his point is on; the dice change hands when the 7 that loses the pass line comes out.",
				Reading: "The dice change hands on the seven-out only (digest: not on a come-out natural or craps): a shooter handing them on after a come-out decision is reported (rules.dice_pass_on_come_out allows it). A new shooter before the first one threw (a refusal) and after repeated violations is allowed. The clockwise order cannot be checked without seat positions."},
			{ID: "craps.pass_line_locked", Kind: games.Procedure, Severity: games.Warning, Article: am + " art. 6.3 A 1° (L361)",
				Summary: "A pass line stake may be neither withdrawn nor reduced.",
				Reading: "Checked once the point is on or once the stake has stood through a throw; a correction before the stake's first throw is still its placement."},
			{ID: "craps.dont_pass_after_point", Kind: games.Procedure, Severity: games.Warning, Article: am + " art. 6.3 A 2° (L367)",
				Summary: "No don't pass stake is placed once the point is known."},
			{ID: "craps.dont_raised", Kind: games.Procedure, Severity: games.Warning, Article: am + " art. 6.3 A 2° and 4° (L369, L383)",
				Summary: "Don't pass and don't come stakes may be reduced or withdrawn, never increased.",
				Reading: "As for the pass line, checked once the point is on (don't pass) or once the stake has stood through a throw."},
			{ID: "craps.come_needs_point", Kind: games.Procedure, Severity: games.Warning, Article: am + " art. 6.3 A 3° and 4° (L371, L377)",
				Summary: "Come and don't come are played only once the point is known.",
				Reading: "The stake is still settled as placed: on its first throw like a come-out."},
			{ID: "craps.odds_without_flat", Kind: games.Procedure, Severity: games.Warning, Article: am + " art. 6.3 C (L459)",
				Summary: "Odds go only behind the player's own pass, don't pass, come or don't come stake whose point is known.",
				Reading: "The odds are still settled as placed, against the point they name (odds:pass against the table's point)."},
			{ID: "craps.commission", Kind: games.Procedure, Severity: games.Warning, Article: am + " art. 6.3 E-F (L489, L491)",
				Summary: "A buy bet pays 5% of its stake and a lay bet 5% of the win it can bring, on top of the stake (journal: rake events right after the bet).",
				Reading: "Each rake event goes to the buy or lay stake placed or raised just before it and is compared with 5% of that stake (of its win for a lay), rounded either way, and the finding names that stake; one rake equal to what the waiting stakes owe together pays them all. A stake with no rake event raises nothing (a camera gap); more taken than due is critical."},
		},
		Options: []games.OptionDoc{
			{Key: "high_low_pays", Default: "15", Doc: "multiple of the whole stake paid by high-low on 2 or 12: 15 as written (L447) or 14 as the other combined bets' arithmetic gives"},
			{Key: "wall_required", Default: "false", Doc: "make a throw that hit no wall (fault no_wall) «no dice»; the Monaco text does not require it"},
			{Key: "repeat_violations", Default: "0", Doc: "irregular throws by one player at which his repeated violations are reported once (0, the default, reports none: the withdrawal of his turn is the chef de table's discretion)"},
			{Key: "dice_pass_on_come_out", Default: "false", Doc: "let a shooter hand the dice on after a come-out decision (a natural or craps) without a finding; L357 makes them change hands on the seven-out only"},
			{Key: "place_working_on_come_out", Default: "false", Doc: "place bets play on the come-out without being asked (L485 says they do not)"},
			{Key: "come_odds_working_on_come_out", Default: "false", Doc: "come odds play on the come-out after a point was made without being asked (L477 says they do not)"},
			{Key: "commission_check", Default: "true", Doc: "compare the rake events with the 5% buy and lay commission"},
			roundingDoc(),
		},
		Check: checkCraps,
	}
	g.New = func(s games.Setup) (games.Engine, error) {
		o := s.Options
		cfg := crapsConfig{
			highLow:         o.Int("high_low_pays", 15, 14, 15),
			wallRequired:    o.Bool("wall_required", false),
			repeat:          int(o.Int("repeat_violations", 0, 0, 1000)),
			placeWorking:    o.Bool("place_working_on_come_out", false),
			passOnComeOut:   o.Bool("dice_pass_on_come_out", false),
			comeOddsWorking: o.Bool("come_odds_working_on_come_out", false),
			commission:      o.Bool("commission_check", true),
		}
		return newCraps(s, cfg), nil
	}
	return g
}

// Rampo is rampo, French arrêté of 14 May 2007 arts. 55-22 to 55-22-2.
func Rampo() *games.Game {
	g := &games.Game{
		ID:   "rampo",
		Name: "Rampo",
		Source: "French arrêté of 14 May 2007 arts. 55-22 to 55-22-2: the 2014 wording (arrêté of 30 Dec 2014 art. 28, seed 004 L572-L691 = seed 000) " +
			"and the later consolidated wording (seed 002 L3-L135), chosen by rules.paytable",
		Spots: "colour:red (3, 8), colour:yellow (4, 9), colour:green (5, 10), colour:black (6, 11), colour:white (2, 7, 12), number:2..12",
		Rules: []games.Rule{
			{ID: "rampo.payout", Kind: games.WrongPayout, Severity: games.Critical, Article: r2014 + "L653-L685); " + rLater + "L67-L125)",
				Summary: "Colours pay 4 times the stake, white 3 times; a number pays its base rate (2014 and table B: 2/12 30, 3/11 15, 4/10 9, 5/9 6, 6/8 5, 7 4; table A: 25, 12, 9, 6, 5, 4) and, held for a rampo, its rampo rate when the next throw repeats it " +
					"(2014 and B: 170, 40, 30, 22, 12; A: 70, 24, 18, 12, 10); colours and 7 are paid at once; a player taking his winning number instead of the rampo is paid the base rate; a failed rampo loses the stake and the first win; a «coup nul» decides nothing.",
				Reading: "«N fois la mise» is N to 1, the winner keeping his stake (F004 L679). A winning number with no choice recorded is held (the 2014 text holds winners automatically, rules.default_choice) unless the journal shows it paid. " +
					"The 2014 «payée au minimum prévu» is the base rate (rules.decline_pays). The 2014 text is silent on a failed rampo: stake and first win are lost as in F002 L71 (rules.failed_rampo). " +
					"A rampo is paid once and does not chain; a held stake waits through a coup nul; new stakes on the rampo throw are settled normally."},
			{ID: "rampo.late_bet", Kind: games.LateBet, Severity: games.Critical, Article: r2014 + "L658); " + rLater + "L73)",
				Summary: "No stake is placed, changed or withdrawn after «rien ne va plus»; it is still settled as placed."},
			{ID: "rampo.bet_limit", Kind: games.BetLimit, Severity: games.Warning, Article: "art. 55-22-2, 2014 wording (F004 L689-L691); " + rLater + "L131-L135)",
				Summary: "Stakes lie between the minimum and 40 times it on the numbers and 200 times it on the colours (2014), or 20 and 100 times (consolidated wording, tables A and B, where the minimum is at least 1.00).",
				Reading: "The table maximum also caps the numbers; the colours' maximum is the multiple of the minimum; a per-spot override in table_open.limits wins."},
			{ID: "rampo.void_throw", Kind: games.IrregularThrow, Severity: games.Warning, Article: r2014 + "L641-L650); " + rLater + "L57, L63)",
				Summary: "A throw that did not hit the far edge, slid, did not stop flat in the far half, or with a die broken, stacked, cocked, on a chip or off the table, or held or rubbed, is «coup nul»: nothing is decided and any payment on it is wrong; the stakes stand."},
			{ID: "rampo.repeated_violations", Kind: games.IrregularThrow, Severity: games.Warning, Article: r2014 + "L650-L651); " + rLater + "L65)",
				Summary: "A player who repeatedly breaks the throwing rules is reported: the chef de table may withdraw his turn to throw.",
				Reading: "The withdrawal is the chef de table's discretion («peut retirer»), not a breach: each faulty throw is already reported by rampo.void_throw, so by default nothing more is raised (rules.repeat_violations = 0). A house that wants the report sets the count at which it is raised once per player. From a player's second irregular throw the dice may change hands."},
			{ID: "rampo.shooter_bet", Kind: games.IrregularThrow, Severity: games.Warning, Article: r2014 + "L658-L660); " + rLater + "L73)",
				Summary: "The shooter has placed a stake before he throws.",
				Reading: "A stake of his held in the rampo zone counts. No consequence is stated: the throw counts."},
			{ID: "rampo.dice_change_during_rampo", Kind: games.IrregularThrow, Severity: games.Warning, Article: r2014 + "L644-L645); " + rLater + "L61)",
				Summary: "The dice may be changed before a throw, but not during a rampo attempt.",
				Reading: "An attempt is under way while a stake is held for the next throw. No consequence is stated: the throw counts and is settled normally."},
			{ID: "rampo.dice_pass", Kind: games.Procedure, Severity: games.Warning, Article: r2014 + "L654-L657)",
				Summary: "In the 2014 wording the 7 loses the shooter the dice: they are offered to the player on his left.",
				Reading: "The consolidated wording states no end of turn, so the check applies to the 2014 wording only (rules.seven_ends_turn). The clockwise order cannot be checked without seat positions."},
			{ID: "rampo.max_players", Kind: games.Procedure, Severity: games.Warning, Article: r2014 + "L631); " + rLater + "L51)",
				Summary: "At most eight players play at a table.",
				Reading: "Counted when the bets close, once a coup: stakes standing through a «coup nul» were counted in the coup they were placed in, and are not reported again while no new stake joins them."},
			{ID: "rampo.payment_order", Kind: games.Procedure, Severity: games.Info, Article: r2014 + "L682-L685); " + rLater + "L115-L125)",
				Summary: "Losing stakes are collected first; the 2014 text then pays the rampo zone before the colours, the consolidated wording pays the colours, then the 7, then the numbers of players not trying the rampo, and the rampo zone last.",
				Reading: "A failed rampo may be collected with the losers or at the rampo zone's turn (in 2014 both before the colours); the 2014 text places neither the 7 nor a number taken before the rampo in its order. The order is that of the money moved after the throw: a held number taken back before it (F004 L680-L681) is paid outside it."},
		},
		Options: []games.OptionDoc{
			{Key: "paytable", Default: `"2014"`, Doc: "the wording in force: \"2014\" (arrêté of 30 Dec 2014: one table, winners held automatically, 7 ends the turn, max 40/200 times the minimum) or the consolidated wording's table \"A\" or \"B\" (rampo offered, max 20/100 times the minimum)"},
			{Key: "seven_ends_turn", Default: "true for 2014, false for A and B", Doc: "the 7 loses the shooter the dice"},
			{Key: "default_choice", Default: `"rampo"`, Doc: "what a winning number (not 7) becomes when the journal records no rampo/decline action and no payment: rampo (held) or decline (paid now)"},
			{Key: "decline_pays", Default: `"base"`, Doc: "what a winning number taken before the rampo is paid: base (its base rate) or table_minimum (the table minimum, the other reading of «au minimum prévu»)"},
			{Key: "failed_rampo", Default: `"lose"`, Doc: "a held number that does not repeat: lose (stake and first win lost) or push (stake handed back)"},
			{Key: "payment_order", Default: "true", Doc: "check the order of collections and payments of the wording in force"},
			{Key: "repeat_violations", Default: "0", Doc: "irregular throws by one player at which his repeated violations are reported once (0, the default, reports none: the withdrawal of his turn is the chef de table's discretion)"},
			{Key: "max_players", Default: "8", Doc: "players allowed at the table (0 turns the check off)"},
			roundingDoc(),
		},
		Check: checkRampo,
	}
	g.New = func(s games.Setup) (games.Engine, error) {
		o := s.Options
		table := payTableFor(o.Enum("paytable", "2014", "2014", "A", "B"))
		cfg := rampoConfig{
			table:         table,
			sevenEndsTurn: o.Bool("seven_ends_turn", table.sevenEndsTurnDefault),
			choice:        o.Enum("default_choice", "rampo", "rampo", "decline"),
			declinePays:   o.Enum("decline_pays", "base", "base", "table_minimum"),
			failure:       o.Enum("failed_rampo", "lose", "lose", "push"),
			payOrder:      o.Bool("payment_order", true),
			repeat:        int(o.Int("repeat_violations", 0, 0, 1000)),
			maxPlayers:    int(o.Int("max_players", 8, 0, 1000)),
		}
		return newRampo(s, cfg), nil
	}
	return g
}

func roundingDoc() games.OptionDoc {
	return games.OptionDoc{Key: "rounding", Default: `"down"`, Doc: "rounding of amounts due to players: down, up or nearest cent, a unit in cents, or {\"unit\":50,\"mode\":\"nearest\"}"}
}

// checkCraps validates the events of a craps table.
func checkCraps(ev *journal.Event) error {
	switch ev.Type {
	case journal.TypeBet, journal.TypePayout, journal.TypeCollect, journal.TypeRefund:
		_, err := parseCrapsSpot(ev.Spot)
		return err
	case journal.TypeDice:
		return checkDice(ev)
	case journal.TypeCard, journal.TypeReveal, journal.TypeSpin:
		return fmt.Errorf("%s events do not belong to craps", ev.Type)
	}
	return nil
}

// checkRampo validates the events of a rampo table.
func checkRampo(ev *journal.Event) error {
	switch ev.Type {
	case journal.TypeBet, journal.TypePayout, journal.TypeCollect, journal.TypeRefund:
		_, err := parseRampoSpot(ev.Spot)
		return err
	case journal.TypeDice:
		return checkDice(ev)
	case journal.TypeCard, journal.TypeReveal, journal.TypeSpin:
		return fmt.Errorf("%s events do not belong to rampo", ev.Type)
	}
	return nil
}
