// Package wheel holds the engines of the wheel games: European and American roulette and
// boule (Monaco AM 88-384 arts. 8, 4 and 10), the big wheel (art. 7) and the roue de la chance
// (French arrêté of 14 May 2007 art. 46-1, as inserted in 2014). One engine serves the five,
// parameterised by the variant's layout, pay table and spin rules.
package wheel

import (
	"fmt"

	"github.com/coupwatch/coupwatch/games"
	"github.com/coupwatch/coupwatch/games/prison"
	"github.com/coupwatch/coupwatch/journal"
)

// Games returns the five wheel games.
func Games() []*games.Game {
	return []*games.Game{European(), American(), Boule(), BigWheel(), Fortune()}
}

const (
	am   = "AM 88-384"
	roue = "Arrêté of 14 May 2007 art. 46-1 (F004"
)

// European is European roulette, AM 88-384 art. 8.
func European() *games.Game {
	g := &games.Game{
		ID:     "roulette_european",
		Name:   "European roulette",
		Source: "Monaco AM 88-384 art. 3.1 and 8 (seed 001 L121-L125, L517-L576)",
		Spots:  "straight:N, split:A-B, street:A-B-C, corner:A-B-C-D, line:A-B-C-D-E-F, dozen:K, column:K, dozens:K-L, columns:K-L (adjacent), red, black, even, odd, low, high; numbers 0-36",
		Rules: []games.Rule{
			{ID: "roulette.payout", Kind: games.WrongPayout, Severity: games.Critical, Article: am + " art. 8.2 (L533-L556)",
				Summary: "Each stake is paid net: straight 35, split 17, street 11, corner 8, line 5, dozen/column 2, two dozens/columns 1:2, even chances 1 to 1; at zero the multiple chances without zero lose and the even chances are shared or go to prison.",
				Reading: "Splits, streets and the corner with zero (0-1, 0-2, 0-3, 0-1-2, 0-2-3, 0-1-2-3) are paid normally at zero. Two dozens/columns must be adjacent (1-2 or 2-3)."},
			{ID: "roulette.zero_choice", Kind: games.Procedure, Severity: games.Info, Article: am + " art. 8.2 (L551-L556)",
				Summary: "A share or prison choice applies only to an even chance when zero comes.",
				Reading: "With no choice recorded, the stake goes to prison (rules.zero_choice), unless the dealer visibly collected exactly half. A prisoner released after n zeros is worth 1/2^(n-1) of the stake (rules.prison_release); a share at the n-th zero hands back 1/2^n. A share or prison action with no spot is the player's choice for each of his even chances at that zero. A bet of the prisoner's own amount on its spot, by its player, with no stake of the coup there, is the prisoner restated on the layout, not a new stake."},
			{ID: "roulette.late_bet", Kind: games.LateBet, Severity: games.Critical, Article: am + " art. 8.3 (L560, L566)",
				Summary: "No stake is placed, changed or withdrawn after «rien ne va plus»; the stake is still settled as placed."},
			{ID: "roulette.bet_limit", Kind: games.BetLimit, Severity: games.Warning, Article: "table limits (table_open.limits) set by the management",
				Summary: "Each player's stake on a spot lies within the table's minimum and maximum (per-spot overrides apply)."},
			{ID: "roulette.min_ball_revolutions", Kind: games.IrregularSpin, Severity: games.Warning, Article: am + " art. 8.3 (L558)",
				Summary: "The ball makes at least seven revolutions.",
				Reading: "No consequence is stated: the coup is settled normally and the spin is reported (Art. 24 leaves the decision to management). A launch stopped because an object fell into the cylinder (L527) does not count: the last launch before the result is judged."},
			{ID: "roulette.ball_against_rotor", Kind: games.IrregularSpin, Severity: games.Warning, Article: am + " art. 8.1 (L527)",
				Summary: "The ball is launched in the direction opposite to the rotor.",
				Reading: "The last launch before the result is judged: a launch stopped because an object fell into the cylinder is relaunched (L527) and does not count."},
			{ID: "roulette.rotor_alternation", Kind: games.IrregularSpin, Severity: games.Warning, Article: am + " art. 8.1 (L527)",
				Summary: "The rotor turns the other way from the previous spin, every coup.",
				Reading: "A relaunch of the ball in the same coup keeps the cylinder turning and is not compared again. A coup in which no rotor direction was seen (a camera gap) leaves the next coup nothing to be compared with."},
			{ID: "roulette.paid_before_result", Kind: games.Procedure, Severity: games.Info, Article: am + " art. 8.3 (L562-L564)",
				Summary: "Nothing is collected or paid before the ball has stopped and the croupier has announced the number.",
				Reading: "The first stake settled before the result is reported, once a coup, whether the money was due or not (a payment not due is also a wrong_payout); a refund is not a settlement."},
			{ID: "roulette.payment_order", Kind: games.Procedure, Severity: games.Info, Article: am + " art. 8.3 (L574)",
				Summary: "Winners are paid columns and dozens first, then even chances, streets and lines, corners, splits and straight numbers last.",
				Reading: "The order is the table's, across players (rules.payment_order = global): L574 lists bet categories, not a player's payments, and the digest makes an out-of-order payment a procedure alert. Losers may be collected at any time, and a wrong payment is its own finding, not an order breach. A house whose two croupiers beside the cylinder pay at once (L564) sets per_player, or off."},
		},
		Options: []games.OptionDoc{
			{Key: "zero_choice", Default: `"prison"`, Doc: "what an even chance becomes at zero when the journal records no share/prison action: prison or share"},
			{Key: "prison_release", Default: `"reduced"`, Doc: "value of a prisoner released after several zeros: reduced (halved at each further zero) or full (the whole stake: a share at a further zero hands back half of it)"},
			{Key: "payment_order", Default: `"global"`, Doc: "check the order of payments across the table (global), within each player's payments (per_player), or not (off: two croupiers pay at once)"},
			{Key: "min_ball_revs", Default: "7", Doc: "minimum ball revolutions (0 turns the check off)"},
			roundingDoc(),
		},
	}
	g.Check = checker(european, nil)
	g.New = func(s games.Setup) (games.Engine, error) {
		o := s.Options
		cfg := config{
			kind:             european,
			minBallRevs:      o.Float("min_ball_revs", 7, 0, 1000),
			alternate:        true,
			ballAgainstRotor: true,
			zeroChoice:       prison.Choice(o.Enum("zero_choice", "prison", "prison", "share")),
			prisonRelease:    o.Enum("prison_release", "reduced", "reduced", "full"),
			payOrder:         o.Enum("payment_order", "global", "global", "per_player", "off"),
		}
		return newEngine(s, cfg, nil)
	}
	return g
}

// American is American roulette, AM 88-384 art. 4.
func American() *games.Game {
	g := &games.Game{
		ID:     "roulette_american",
		Name:   "American roulette",
		Source: "Monaco AM 88-384 art. 3.2 and 4 (seed 001 L127-L129, L141-L190)",
		Spots:  "as European roulette with 0 and 00, no dozens/columns pairs, plus basket:0-00-1-2-3",
		Rules: []games.Rule{
			{ID: "roulette.payout", Kind: games.WrongPayout, Severity: games.Critical, Article: am + " art. 4.3 (L170-L190)",
				Summary: "Each stake is paid net (the winner keeps his stake): straight 35, split 17, street 11, corner 8, basket 0-00-1-2-3 6, line 5, dozen/column 2, even chances 1; at 0 or 00 the even chances and the multiple chances without that number lose.",
				Reading: "Zero splits and streets are 0-00, 0-1, 0-2, 00-2, 00-3, 0-1-2, 0-00-2, 00-2-3; there is no 0-1-2-3 corner (the basket takes its place)."},
			{ID: "roulette.late_bet", Kind: games.LateBet, Severity: games.Critical, Article: am + " art. 4.2 (L158-L160)",
				Summary: "No stake is placed, changed or withdrawn after «rien ne va plus»; the stake is still settled as placed."},
			{ID: "roulette.bet_limit", Kind: games.BetLimit, Severity: games.Warning, Article: am + " art. 4.1 (L150) and the table limits",
				Summary: "Each player's stake on a spot lies within the table's minimum and maximum."},
			{ID: "roulette.min_ball_revolutions", Kind: games.IrregularSpin, Severity: games.Warning, Article: am + " art. 4.2 (L158)",
				Summary: "The ball makes at least seven revolutions.",
				Reading: "No consequence is stated: the coup is settled normally and the spin is reported. A launch stopped because an object fell into the cylinder (L158) does not count: the last launch before the result is judged."},
			{ID: "roulette.ball_against_rotor", Kind: games.IrregularSpin, Severity: games.Warning, Article: am + " art. 4.2 (L158)",
				Summary: "The ball is launched in the direction opposite to the cylinder.",
				Reading: "The last launch before the result is judged: a launch stopped because an object fell into the cylinder is relaunched (L158) and does not count."},
			{ID: "roulette.paid_before_result", Kind: games.Procedure, Severity: games.Info, Article: am + " art. 4.2 (L164-L166)",
				Summary: "Nothing is collected or paid before the ball has stopped and the number is announced and marked.",
				Reading: "The first stake settled before the result is reported, once a coup, whether the money was due or not (a payment not due is also a wrong_payout); a refund is not a settlement."},
			{ID: "roulette.collect_before_pay", Kind: games.Procedure, Severity: games.Info, Article: am + " art. 4.2 (L166)",
				Summary: "The croupier collects the losing stakes, then pays the winners."},
			{ID: "roulette.payment_order", Kind: games.Procedure, Severity: games.Info, Article: am + " art. 4.2 (L166-L168)",
				Summary: "Each player is paid in the order column, high, odd, black, red, even, low, dozen, street/line, basket, corner, split, straight.",
				Reading: "Payments are made player by player (L166), so the order is checked within each player's payments (rules.payment_order = per_player): each player's breach is its own finding."},
		},
		Options: []games.OptionDoc{
			{Key: "payment_order", Default: `"per_player"`, Doc: "check the order of payments within each player's payments (per_player), across the table (global), or not (off)"},
			{Key: "collect_before_pay", Default: "true", Doc: "check that losing stakes are collected before any payment"},
			{Key: "min_ball_revs", Default: "7", Doc: "minimum ball revolutions (0 turns the check off)"},
			roundingDoc(),
		},
	}
	g.Check = checker(american, nil)
	g.New = func(s games.Setup) (games.Engine, error) {
		o := s.Options
		cfg := config{
			kind:             american,
			minBallRevs:      o.Float("min_ball_revs", 7, 0, 1000),
			ballAgainstRotor: true,
			payOrder:         o.Enum("payment_order", "per_player", "global", "per_player", "off"),
			collectFirst:     o.Bool("collect_before_pay", true),
		}
		return newEngine(s, cfg, nil)
	}
	return g
}

// Boule is boule, AM 88-384 art. 10.
func Boule() *games.Game {
	g := &games.Game{
		ID:     "boule",
		Name:   "Boule",
		Source: "Monaco AM 88-384 art. 3.3 and 10 (seed 001 L131, L631-L648)",
		Spots:  "number:1..9, red (2 4 7 9), black (1 3 6 8), even (2 4 6 8), odd (1 3 7 9), low (1-4), high (6-9)",
		Rules: []games.Rule{
			{ID: "boule.payout", Kind: games.WrongPayout, Severity: games.Critical, Article: am + " art. 10.2 (L637-L644)",
				Summary: "A number pays 7 to 1 and an even chance 1 to 1, the winner keeping his stake; when 5 comes every even chance loses.",
				Reading: "The text does not define the even chances: manque 1-4, passe 6-9, pair 2 4 6 8, impair 1 3 7 9 (the standard French layout); 5 belongs to none."},
			{ID: "boule.late_bet", Kind: games.LateBet, Severity: games.Critical, Article: "journal cut-off (no_more_bets); art. 10 states no wording",
				Summary: "No stake is placed, changed or withdrawn after the cut-off.",
				Reading: "Art. 10 gives no «rien ne va plus» rule for boule; the roulette rule (art. 8.3, L560) is applied by analogy."},
			{ID: "boule.bet_limit", Kind: games.BetLimit, Severity: games.Warning, Article: am + " art. 10.2 (L646-L648)",
				Summary: "The maximum applies to each player separately, per spot; several players' stakes on one chance are never added up."},
			{ID: "boule.min_ball_revolutions", Kind: games.IrregularSpin, Severity: games.Warning, Article: "house rule (rules.min_ball_revs); art. 10 sets no launch rule",
				Summary: "The ball makes the house's minimum number of revolutions; off by default, as the regulation sets none."},
		},
		Options: []games.OptionDoc{
			{Key: "min_ball_revs", Default: "0", Doc: "minimum ball revolutions; art. 10 sets none, so the check is off unless a house sets it"},
			roundingDoc(),
		},
	}
	g.Check = checker(boule, nil)
	g.New = func(s games.Setup) (games.Engine, error) {
		cfg := config{kind: boule, minBallRevs: s.Options.Float("min_ball_revs", 0, 0, 1000)}
		return newEngine(s, cfg, nil)
	}
	return g
}

// BigWheel is the big wheel, AM 88-384 art. 7.
func BigWheel() *games.Game {
	segs := bigWheelSegments()
	g := &games.Game{
		ID:     "big_wheel",
		Name:   "Big wheel",
		Source: "Monaco AM 88-384 art. 3.4 and 7 (seed 001 L133-L135, L495-L511)",
		Spots:  "x1, x2, x5, x10, x20, joker_black, joker_yellow (results use the same names)",
		Rules: []games.Rule{
			{ID: "big_wheel.payout", Kind: games.WrongPayout, Severity: games.Critical, Article: am + " art. 7 (L501-L507)",
				Summary: "A segment pays 1, 2, 5, 10, 20 or 40 (jokers) times the stake.",
				Reading: "«N fois la mise» is read as N to 1 with the stake returned (rules.payout_includes_stake = false)."},
			{ID: "big_wheel.late_bet", Kind: games.LateBet, Severity: games.Critical, Article: am + " art. 7 (L499)",
				Summary: "Stakes are on the table before the croupier spins the wheel: a stake changed after the spin (or after the cut-off) is late."},
			{ID: "big_wheel.bet_limit", Kind: games.BetLimit, Severity: games.Warning, Article: "table limits (table_open.limits)",
				Summary: "Each player's stake on a segment lies within the table's minimum and maximum."},
			{ID: "big_wheel.min_turns", Kind: games.IrregularSpin, Severity: games.Warning, Article: am + " art. 7 (L511)",
				Summary: "The wheel makes at least three turns.",
				Reading: "No consequence is stated: the coup is settled normally and the spin is reported."},
			{ID: "big_wheel.paid_before_result", Kind: games.Procedure, Severity: games.Info, Article: am + " art. 7 (L511)",
				Summary: "The croupier pays once the wheel has stopped and the indicator shows the winning chance: nothing is settled before the result.",
				Reading: "The first stake settled before the result is reported, once a coup, whether the money was due or not (a payment not due is also a wrong_payout); a refund is not a settlement."},
		},
		Options: []games.OptionDoc{
			{Key: "payout_includes_stake", Default: "false", Doc: "read «N fois la mise» as N for 1 (net N-1) instead of N to 1"},
			{Key: "min_turns", Default: "3", Doc: "minimum wheel turns (0 turns the check off)"},
			roundingDoc(),
		},
	}
	g.Check = checker(bigWheel, segs)
	g.New = func(s games.Setup) (games.Engine, error) {
		o := s.Options
		cfg := config{kind: bigWheel, minTurns: o.Float("min_turns", 3, 0, 1000), includesStake: o.Bool("payout_includes_stake", false)}
		return newEngine(s, cfg, segs)
	}
	return g
}

// Fortune is the roue de la chance (wheel of fortune), French arrêté of 14 May 2007 art. 46-1.
func Fortune() *games.Game {
	segs := fortuneSegments()
	g := &games.Game{
		ID:     "wheel_of_fortune",
		Name:   "Roue de la chance",
		Source: "French arrêté of 14 May 2007 art. 46-1, inserted by the arrêté of 30 Dec 2014 art. 20 (seed 004 L218-L287)",
		Spots:  "orange (24 segments), green (12), blue (8), red (4), violet (2), white (1), black (1)",
		Rules: []games.Rule{
			{ID: "wheel_of_fortune.payout", Kind: games.WrongPayout, Severity: games.Critical, Article: roue + " L261-L272)",
				Summary: "The winning colour pays orange 1, green 3, blue 5, red 10, violet 20, white or black 50 to 1, the winner keeping his stake; a void draw pays nothing and collects nothing.",
				Reading: "White and black are separate spots, each paying 50 to 1 on its own colour only. Stakes on a void draw stand for the next spin."},
			{ID: "wheel_of_fortune.late_bet", Kind: games.LateBet, Severity: games.Critical, Article: roue + " L244-L251)",
				Summary: "Stakes may be placed while the wheel turns fast; none after «rien ne va plus».",
				Reading: "Each spin is made announcing «faites vos jeux» (L244): a re-spin of a void draw reopens the bets until the next «rien ne va plus»; stakes placed or changed then are judged against the limits at that cut-off."},
			{ID: "wheel_of_fortune.bet_limit", Kind: games.BetLimit, Severity: games.Warning, Article: roue + " L248-L249, L272-L280)",
				Summary: "Each player's stake on a colour is at least the minimum and at most orange 100, green 50, blue 25, red 12, violet 10, white or black 5 times the minimum (and the table maximum).",
				Reading: "«100 fois la mise» is read as 100 times the table minimum; rules.colour_max changes the multiples. A limits.spots entry for a colour that sets its maximum replaces the multiple; one that sets only a minimum keeps it."},
			{ID: "wheel_of_fortune.min_turns", Kind: games.IrregularSpin, Severity: games.Critical, Article: roue + " L245-L246)",
				Summary: "The wheel makes at least three turns, otherwise the result is not valid: nothing is settled.",
				Reading: "A new spin in the same coup replaces the void one, even when the void draw's result was recorded, and decides the coup; with none, the stakes stand for the next spin."},
			{ID: "wheel_of_fortune.obstruction", Kind: games.IrregularSpin, Severity: games.Critical, Article: roue + " L246)",
				Summary: "Any obstruction of the wheel while it turns voids the draw (journal: spin with \"obstructed\": true or faults [\"obstruction\"])."},
			{ID: "wheel_of_fortune.direction_alternation", Kind: games.IrregularSpin, Severity: games.Warning, Article: roue + " L244-L245)",
				Summary: "The wheel is spun the other way from the previous spin.",
				Reading: "No consequence is stated: the coup is settled normally and the spin is reported. «Chaque fois»: a re-spin of a void draw in the same coup is compared with the spin before it. A coup in which no direction was seen (a camera gap) leaves the next coup nothing to be compared with."},
			{ID: "wheel_of_fortune.payment_order", Kind: games.Procedure, Severity: games.Info, Article: roue + " L253-L259)",
				Summary: "Nothing is settled before the wheel has stopped and the winning colour is marked; losing stakes are collected first, then players are paid in ascending order of their winnings.",
				Reading: "Three obligations, each reported on its own: the first stake settled before the result, the first loser collected after a payment, and the first player paid after one who wins more. For the order, only the money due counts (a wrong payment is its own finding); money moved before the result is reported whether due or not."},
			{ID: "wheel_of_fortune.max_players", Kind: games.Procedure, Severity: games.Warning, Article: roue + " L223-L224)",
				Summary: "At most twelve players play at once."},
			{ID: "wheel_of_fortune.limits_change", Kind: games.Procedure, Severity: games.Warning, Article: roue + " L281-L287)",
				Summary: "The minimum and the maximum set at the table's opening do not change during play, nor before the next day's session.",
				Reading: "A table_open of the same table and game on the same calendar day (in the journal's own time offset) with another limits.min or limits.max is reported once, in the first coup after it; the coups are settled on the new limits. A table reopened on a later day may change them."},
		},
		Options: []games.OptionDoc{
			{Key: "colour_max", Default: `{"orange":100,"green":50,"blue":25,"red":12,"violet":10,"white":5,"black":5}`, Doc: "per-player maximum per colour, in multiples of the table minimum (colours not given keep the default)"},
			{Key: "min_turns", Default: "3", Doc: "minimum wheel turns for a valid result"},
			{Key: "max_players", Default: "12", Doc: "players allowed at once (0 turns the check off)"},
			roundingDoc(),
		},
	}
	g.Check = checker(fortune, segs)
	g.New = func(s games.Setup) (games.Engine, error) {
		o := s.Options
		cfg := config{
			kind: fortune, minTurns: o.Float("min_turns", 3, 0, 1000), alternate: true, ascending: true, voidShort: true,
			maxPlayers: int(o.Int("max_players", 12, 0, 1000)), segMax: map[string]int64{},
		}
		for _, sg := range segs {
			cfg.segMax[sg.name] = sg.maxMult
		}
		var over map[string]int64
		if o.Object("colour_max", &over) {
			for k, v := range over {
				if segmentIndex(segs, k) < 0 {
					o.Fail("colour_max."+k, "unknown colour (want orange, green, blue, red, violet, white, black)")
					continue
				}
				if v < 0 {
					o.Fail("colour_max."+k, "must not be negative")
					continue
				}
				cfg.segMax[k] = v
			}
		}
		return newEngine(s, cfg, segs)
	}
	return g
}

func roundingDoc() games.OptionDoc {
	return games.OptionDoc{Key: "rounding", Default: `"down"`, Doc: "rounding of amounts due to players: down, up or nearest cent, a unit in cents, or {\"unit\":50,\"mode\":\"nearest\"}"}
}

// checker validates the events of a wheel game.
func checker(k variantKind, segs []segment) func(ev *journal.Event) error {
	return func(ev *journal.Event) error {
		switch ev.Type {
		case journal.TypeBet, journal.TypePayout, journal.TypeCollect, journal.TypeRefund:
			_, err := decodeSpot(k, segs, ev.Spot)
			return err
		case journal.TypeAction:
			if ev.Spot != "" {
				_, err := decodeSpot(k, segs, ev.Spot)
				return err
			}
		case journal.TypeResult:
			return checkResult(k, segs, ev.Value)
		case journal.TypeCard, journal.TypeReveal, journal.TypeDice:
			return fmt.Errorf("%s events do not belong to a wheel game", ev.Type)
		}
		return nil
	}
}

func checkResult(k variantKind, segs []segment, v string) error {
	switch k {
	case european, american:
		if _, ok := parsePocket(v, k == american); !ok {
			if k == american {
				return fmt.Errorf("result %q is not a pocket of the wheel (0, 00, 1-36)", v)
			}
			return fmt.Errorf("result %q is not a pocket of the wheel (0-36)", v)
		}
	case boule:
		if len(v) != 1 || v[0] < '1' || v[0] > '9' {
			return fmt.Errorf("result %q is not a boule number (1-9)", v)
		}
	default:
		if segmentIndex(segs, v) < 0 {
			names := make([]string, len(segs))
			for i, s := range segs {
				names[i] = s.name
			}
			return fmt.Errorf("result %q is not a segment of the wheel (want one of %v)", v, names)
		}
	}
	return nil
}
