// Package baccara holds the engines of the baccara family: punto banco (Monaco AM 88-384
// art. 13, with the Punto 2000 variant, the Dragon Bonus and the Paire Baccara), chemin de fer
// (art. 11) and banque à tout va, the two-tableaux baccara (art. 12). One engine serves the
// three, parameterised by the variant's hands, drawing tables and settlement; the shoe rules of
// art. 1 (deck composition, burn, stop card, last coup) are shared.
package baccara

import (
	"fmt"

	"github.com/coupwatch/coupwatch/games"
	"github.com/coupwatch/coupwatch/journal"
)

// Games returns the three baccara games.
func Games() []*games.Game {
	return []*games.Game{PuntoBanco(), CheminDeFer(), BanqueATousVa()}
}

const am = "AM 88-384"

// Shared option documentation.
func roundingDoc() games.OptionDoc {
	return games.OptionDoc{Key: "rounding", Default: `"down"`, Doc: "rounding of amounts due to players (19 for 20, the 5% levy, halves): down, up or nearest cent, a unit in cents, or {\"unit\":50,\"mode\":\"nearest\"}"}
}

func decksDoc(def int) games.OptionDoc {
	return games.OptionDoc{Key: "decks", Default: fmt.Sprint(def), Doc: "52-card decks in the shoe, for the deck composition check (a card seen more often than this is foreign or duplicated)"}
}

func freshDoc() games.OptionDoc {
	return games.OptionDoc{Key: "fresh_shoe_at_open", Default: "false", Doc: "the journal starts with a new shoe at table_open (otherwise a shoe is known from its start only after a burn or a finished taille), enabling the stop card position check on the first shoe"}
}

func stopDocs(min, max int) []games.OptionDoc {
	return []games.OptionDoc{
		{Key: "stop_card_min_left", Default: fmt.Sprint(min), Doc: "fewest cards that may remain in the shoe when the stop card comes out (0 = not checked); checked only on a shoe watched from its start"},
		{Key: "stop_card_max_left", Default: fmt.Sprint(max), Doc: "most cards that may remain in the shoe when the stop card comes out (0 = not checked)"},
	}
}

// PuntoBanco is punto banco, AM 88-384 art. 13.
func PuntoBanco() *games.Game {
	const id = "punto_banco"
	art := am + " art. 13"
	g := &games.Game{
		ID:     id,
		Name:   "Punto banco",
		Source: "Monaco AM 88-384 art. 1 and 13, with Punto 2000 (13.8), Dragon Bonus (13.9) and Paire Baccara (13.10) (seed 001 L37-L91, L766-L914)",
		Spots:  "punto, banco, tie, dragon:punto, dragon:banco, pair:punto, pair:banco, pair:both (à cheval); card places punto, banco, burn, stop",
		Rules: []games.Rule{
			{ID: id + ".payout", Kind: games.WrongPayout, Severity: games.Critical, Article: art + ".6 (L858-L860), 13.8 (L872), 13.9 (L884-L904), 13.10 (L912)",
				Summary: "Punto pays 1 to 1, banco 19 for 20 (Punto 2000: 1 to 1, half on a banco 6), tie 8 to 1 with punto and banco pushing; Dragon Bonus pays 1 to 1 on a natural win (push on a natural tie) or 20, 8, 7, 4, 3, 1 to 1 on a win by 9 to 4 points; Paire Baccara pays 11 to 1.",
				Reading: "«N pour 1» and «N fois la mise» are read as N to 1 with the stake returned (rules.side_bets_pay). A two-card non-natural win is paid by margin like a three-card one (rules.dragon_two_card); a non-natural tie loses the Dragon Bonus (rules.dragon_non_natural_tie). A pair is two cards of the same rank (rules.pairs_match); a pair:both stake is half on each side, a paired side's half paid 11 to 1 and the other half lost (rules.pair_both). A coup voided by a wrong draw settles every stake as void (rules.wrong_draw)."},
			{ID: id + ".late_bet", Kind: games.LateBet, Severity: games.Critical, Article: art + ".6 (L820), 13.9 (L878), 13.10 (L910)",
				Summary: "No stake, side bets included, is placed, changed or withdrawn after «rien ne va plus» (or the first card out); the stake is still settled as placed.",
				Reading: "A late stake is reported once, as a late bet: its amount is not checked again against the limits."},
			{ID: id + ".bet_limit", Kind: games.BetLimit, Severity: games.Warning, Article: art + ".6 (L818)",
				Summary: "Each player's stake on a spot lies between the table's minimum and maximum (per-spot overrides apply)."},
			{ID: id + ".card_before_cutoff", Kind: games.Procedure, Severity: games.Critical, Article: art + ".7 (L864)",
				Summary: "No card leaves the shoe before the tailleur stops the bets; the first card out closes the bets and the coup must be dealt and is settled.",
				Reading: "Judged when a no_more_bets (other than cause first_card, which records the card's cut-off) follows the first card of the coup; with no announcement recorded at all, the first card is the cut-off and nothing is reported. A coup whose hands were never completed is a camera gap and judges nothing, unless its stakes were handed back (refund) at coup_end: the coup was then given up once cards were out, which is reported."},
			{ID: id + ".dealing_order", Kind: games.Procedure, Severity: games.Warning, Article: art + ".3 (L786), 13.6 (L820, L826)",
				Summary: "The first and third cards go to punto, the second and fourth to banco, and punto's third card comes before banco's."},
			{ID: id + ".punto_third_card", Kind: games.Procedure, Severity: games.Critical, Article: art + ".6 (L830-L837), 13.7 (L866)",
				Summary: "Punto draws on 0-5 and stands on 6-7, and nobody draws against a natural 8 or 9; there is no optional draw, and a wrong draw voids the coup.",
				Reading: "A card that reached the journal was not taken back (L864), so the journal cannot show a wrong draw «rétabli immédiatement»: the coup is void and every stake is settled as void (rules.wrong_draw = void); as_dealt settles the cards as dealt instead. The stakes not handed back stand for the coup dealt again: those of a player who writes no bet of his own in it are settled there."},
			{ID: id + ".banco_third_card", Kind: games.Procedure, Severity: games.Critical, Article: art + ".6 (L839-L852), 13.7 (L866)",
				Summary: "Banco draws on 0-2, on 3-6 according to the table and punto's third card (or punto standing), stands on 7, and never draws against a natural; a wrong draw voids the coup.",
				Reading: "Banco's duty is judged against punto's third card as dealt, so a punto error is reported once, not again on banco. The coup is void as for punto (rules.wrong_draw)."},
			{ID: id + ".burn", Kind: games.Procedure, Severity: games.Warning, Article: art + ".4 (L796, L802-L804, L810)",
				Summary: "At the start of each taille (and of each CSM start or resumption) the card turned face up gives the number of cards burned, faces and tens counting ten.",
				Reading: "L796 does not say whether the exposed card is one of the cards its value sends to the discard: both counts are accepted (an exposed 7 followed by 6 or 7 burn cards; rules.burn_exposed = either); an ace counts one."},
			{ID: id + ".last_coup", Kind: games.Procedure, Severity: games.Warning, Article: art + ".4 (L798)",
				Summary: "When the stop card comes out the tailleur finishes that coup and no further coup is dealt from the shoe.",
				Reading: "A coup that opens with a burn starts a new taille; one dealt after the last coup without it is reported (once, then the shoe is treated as unknown)."},
			{ID: id + ".stop_card_position", Kind: games.Procedure, Severity: games.Info, Article: art + ".4 (L794)",
				Summary: "The stop card leaves a talon of about two decks.",
				Reading: "«Environ deux jeux» sets no bound: the check is off unless rules.stop_card_min_left/max_left are set, and is made only on a shoe watched from its start."},
			{ID: id + ".deck_composition", Kind: games.Procedure, Severity: games.Critical, Article: am + " art. 1.5 (L85), 13.1 (L772)",
				Summary: "No card is seen more often in a shoe than the decks hold (a foreign or duplicated card)."},
			{ID: id + ".payment_order", Kind: games.Procedure, Severity: games.Info, Article: art + ".6 (L854-L856), 13.9 (L906)",
				Summary: "Nothing is settled before the coup is final and the points announced; losing stakes are collected before winning ones are paid, and the Dragon Bonus is settled (collected, then paid) only after the main bets.",
				Reading: "The Paire Baccara, «indépendant du résultat», is outside the order. The first main or Dragon stake settled before the coup's last card is reported on it. A late collect is reported on its stake; a Dragon Bonus settled too early on that Dragon stake. Only a loser collected and a winner paid count: a winner or a push collected, or a loser paid, is a wrong payout alone, and the commission taken back from a banco paid in full is part of its payment."},
		},
		Options: []games.OptionDoc{
			decksDoc(8),
			{Key: "csm", Default: "false", Doc: "continuous shuffling machine (L800-L810): no cut or stop card, the cards go back into the machine after each coup"},
			{Key: "punto_2000", Default: "false", Doc: "the Punto 2000 variant (13.8, L872): banco wins pay 1 to 1, or half the stake when banco wins with 6"},
			{Key: "variant", Default: `"standard"`, Doc: "another way to name the variant: standard or punto_2000 (the same as rules.punto_2000 = true)"},
			{Key: "tie_pays", Default: "8", Doc: "the tie's odds, N to 1 (L858: «8 pour 1»)"},
			{Key: "side_bets_pay", Default: `"to_one"`, Doc: "«N fois la mise» of the Dragon Bonus and Paire Baccara: to_one (net N, stake returned) or for_one (net N-1)"},
			{Key: "dragon_two_card", Default: `"margin"`, Doc: "a non-natural win with two cards (L890 speaks of three cards): margin (paid by margin like a three-card win) or lose"},
			{Key: "dragon_non_natural_tie", Default: `"lose"`, Doc: "the Dragon Bonus on a non-natural tie, which L888-L904 leave out: lose or push"},
			{Key: "pairs_match", Default: `"rank"`, Doc: "what makes a Paire Baccara: rank (same rank, any suit) or value (same baccara value, so a ten and a king pair)"},
			{Key: "pair_both", Default: `"half_each"`, Doc: "pair:both (à cheval, L912): half_each (half the stake on each side, a paired side's half paid 11 to 1, an unpaired side's half lost) or half_paid (11 × half the stake per paired side, the stake returned)"},
			{Key: "wrong_draw", Default: `"void"`, Doc: "a coup with a wrong third-card draw (L866): void (every stake handed back) or as_dealt (settled on the cards as dealt)"},
			{Key: "burn_exposed", Default: `"either"`, Doc: "whether the exposed burn card counts among the cards its value says to burn (L796): either (both counts accepted), excluded (value + 1 burn cards in all) or included (value in all)"},
			{Key: "payment_order", Default: "true", Doc: "check that losers are collected before winners are paid and the Dragon Bonus after the main bets (L856, L906)"},
			stopDocs(0, 0)[0], stopDocs(0, 0)[1],
			freshDoc(),
			roundingDoc(),
		},
	}
	g.Check = checker(puntoBanco)
	g.New = func(s games.Setup) (games.Engine, error) {
		o := s.Options
		cfg := config{
			v:             puntoBanco,
			decks:         int(o.Int("decks", 8, 1, 16)),
			csm:           o.Bool("csm", false),
			punto2000:     o.Bool("punto_2000", false),
			tiePays:       o.Int("tie_pays", 8, 1, 100),
			sideForOne:    o.Enum("side_bets_pay", "to_one", "to_one", "for_one") == "for_one",
			dragonTwoLose: o.Enum("dragon_two_card", "margin", "margin", "lose") == "lose",
			dragonTiePush: o.Enum("dragon_non_natural_tie", "lose", "lose", "push") == "push",
			pairByValue:   o.Enum("pairs_match", "rank", "rank", "value") == "value",
			pairHalfPaid:  o.Enum("pair_both", "half_each", "half_each", "half_paid") == "half_paid",
			voidWrongDraw: o.Enum("wrong_draw", "void", "void", "as_dealt") == "void",
			burnExposed:   o.Enum("burn_exposed", "either", "either", "excluded", "included"),
			payOrder:      o.Bool("payment_order", true),
			stopMin:       int(o.Int("stop_card_min_left", 0, 0, 832)),
			stopMax:       int(o.Int("stop_card_max_left", 0, 0, 832)),
			freshAtOpen:   o.Bool("fresh_shoe_at_open", false),
			checkBurn:     true,
		}
		if o.Enum("variant", "standard", "standard", "punto_2000") == "punto_2000" {
			cfg.punto2000 = true
		}
		return newEngine(s, cfg)
	}
	return g
}

// CheminDeFer is chemin de fer, AM 88-384 art. 11.
func CheminDeFer() *games.Game {
	const id = "chemin_de_fer"
	art := am + " art. 11"
	g := &games.Game{
		ID:     id,
		Name:   "Chemin de fer",
		Source: "Monaco AM 88-384 art. 1 and 11 (seed 001 L37-L91, L652-L710)",
		Spots:  "bank (the banker's stake), banco (a ponte's stake against it); card places ponte, banker, burn, stop",
		Rules: []games.Rule{
			{ID: id + ".payout", Kind: games.WrongPayout, Severity: games.Critical, Article: art + ".7 (L690, L700-L702)",
				Summary: "When the banker wins the pontes' stakes are collected and the bank is paid what they cover less the 5% levy (0.95 to 1); when he loses the pontes are paid 1 to 1 and the bank loses what they covered; a tie pushes.",
				Reading: "Pontes' stakes cover the bank in the order they were placed; a stake or part of one beyond the bank is not in play and pushes, and a bank not fully covered is reduced to what is covered (L684)."},
			{ID: id + ".levy", Kind: games.Procedure, Severity: games.Warning, Article: art + ".3 (L669), 11.7 (L690-L694)",
				Summary: "The 5% levy (journal rake) is taken only on a banker's win and equals 5% of the stakes he won.",
				Reading: "Reported only when every stake of the coup was settled right, so a wrong bank payment is not reported twice; a missing rake event is a camera gap, not a finding."},
			{ID: id + ".late_bet", Kind: games.LateBet, Severity: games.Critical, Article: art + ".4 (L684)",
				Summary: "After «rien ne va plus, partie pour les jeux marqués» (or the first card out) no stake is placed, changed or withdrawn; the stake is still settled as placed.",
				Reading: "The banker's agreement that L684 allows is not recorded in the journal, so every change after the cut-off is reported. A late stake is reported once, as a late bet: its amount is not checked again against the limits."},
			{ID: id + ".bet_limit", Kind: games.BetLimit, Severity: games.Warning, Article: art + ".8 (L704) and the table limits",
				Summary: "Each stake, the bank included, lies between the table's minimum and maximum (per-spot overrides, e.g. for bank, apply)."},
			{ID: id + ".card_before_cutoff", Kind: games.Procedure, Severity: games.Warning, Article: art + ".4-11.5 (L684-L686)",
				Summary: "The cards come out only after «rien ne va plus»; the first card out closes the bets.",
				Reading: "Judged when a no_more_bets (other than cause first_card, which records the card's cut-off) follows the first card of the coup; with no announcement recorded at all, the first card is the cut-off and nothing is reported."},
			{ID: id + ".dealing_order", Kind: games.Procedure, Severity: games.Warning, Article: art + ".5 (L686)",
				Summary: "Two cards each are dealt alternately, ponte first: ponte, banker, ponte, banker; the ponte's third card comes before the banker's."},
			{ID: id + ".ponte_draw", Kind: games.Procedure, Severity: games.Warning, Article: art + " (silent); the conventional rule, as art. 12.83 (L743-L748)",
				Summary: "The ponte draws on 0-4, may draw or stand on 5, stands on 6-7, shows a natural 8-9, and draws no card against the banker's natural.",
				Reading: "Art. 11 gives no drawing table; the ponte's options of art. 12.83 are applied, as every chemin de fer table does."},
			{ID: id + ".banker_draw", Kind: games.Procedure, Severity: games.Warning, Article: art + " (silent); the conventional banker's table",
				Summary: "The banker draws on 0-2, stands on 7, shows a natural 8-9 and draws nothing against the ponte's natural; on 3-6 he follows the conventional table against the ponte's third card (draws on 3-5 and stands on 6 when the ponte stood).",
				Reading: "Art. 11 gives no table: the conventional chemin de fer table is applied (rules.banker_table = conventional): punto banco's cells except 3 against a 9 and 5 against a 4, which are the banker's choice."},
			{ID: id + ".bank_doubling", Kind: games.Procedure, Severity: games.Warning, Article: art + ".8-11.9 (L704-L708)",
				Summary: "After a winning coup the banker who keeps the hand stakes his previous bank plus his win net of the levy, up to the table's maximum for the bank (the surplus goes to the garage).",
				Reading: "«Doubler son banco précédent» is read from the bank that was in play: a bank reduced to what the pontes covered (L684) is doubled from the reduced amount (rules.doubling_base = covered). The maximum is the limit for the spot bank (table_open.limits); a garage below the maximum needs the management's leave (rules.garage_below_max). A bank staked over the maximum is reported once, as a bet_limit."},
			{ID: id + ".partial_banco", Kind: games.Procedure, Severity: games.Warning, Article: art + ".4 (L679)",
				Summary: "To take the cards a ponte holds the whole banco, or part of it of at least half the bank: a coup dealt when no ponte staked half the bank is reported.",
				Reading: "The journal does not say which ponte takes the cards: the check is that the largest banco stake is at least half the banker's stake; the finding names that ponte."},
			{ID: id + ".hand_after_loss", Kind: games.Procedure, Severity: games.Warning, Article: art + ".4 (L673)",
				Summary: "The banker keeps the hand until he loses: after a lost coup another player holds the bank."},
			{ID: id + ".last_coup", Kind: games.Procedure, Severity: games.Warning, Article: art + ".2 (L660)",
				Summary: "When the stop card comes out the croupier announces «dernier coup de la taille» and no further coup is dealt from the shoe.",
				Reading: "A coup that opens with burn cards starts a new shoe; one dealt after the last coup without them is reported once."},
			{ID: id + ".stop_card_position", Kind: games.Procedure, Severity: games.Info, Article: art + ".2 (L660)",
				Summary: "The stop card is placed before the last six or seven cards of the sixain.",
				Reading: "Checked only on a shoe watched from its start (after a burn or a finished taille, or rules.fresh_shoe_at_open)."},
			{ID: id + ".deck_composition", Kind: games.Procedure, Severity: games.Critical, Article: am + " art. 1.5 (L85), 11.1 (L656)",
				Summary: "No card is seen more often in the shoe than its six decks hold."},
		},
		Options: []games.OptionDoc{
			decksDoc(6),
			{Key: "banker_table", Default: `"conventional"`, Doc: "the banker's drawing table, which art. 11 does not give: conventional (punto banco's cells with 3 v 9 and 5 v 4 optional), punto_banco (art. 13's table, no option) or free (only naturals enforced)"},
			{Key: "doubling_base", Default: `"covered"`, Doc: "the bank a winning banker doubles (L704): covered (the bank in play, reduced to what the pontes covered, L684) or stake (the bank as he staked it)"},
			{Key: "garage_below_max", Default: "false", Doc: "the management lets the banker garage part of his bank before the maximum is reached (L708): a doubled bank may then be lower than due"},
			stopDocs(6, 7)[0], stopDocs(6, 7)[1],
			freshDoc(),
			roundingDoc(),
		},
	}
	g.Check = checker(cheminDeFer)
	g.New = func(s games.Setup) (games.Engine, error) {
		o := s.Options
		cfg := config{
			v:           cheminDeFer,
			decks:       int(o.Int("decks", 6, 1, 16)),
			bankerTable: bankerTable(o),
			garageBelow: o.Bool("garage_below_max", false),
			doubleStake: o.Enum("doubling_base", "covered", "covered", "stake") == "stake",
			stopMin:     int(o.Int("stop_card_min_left", 6, 0, 832)),
			stopMax:     int(o.Int("stop_card_max_left", 7, 0, 832)),
			freshAtOpen: o.Bool("fresh_shoe_at_open", false),
		}
		return newEngine(s, cfg)
	}
	return g
}

// BanqueATousVa is banque à tout va (baccara à deux tableaux), AM 88-384 art. 12.
func BanqueATousVa() *games.Game {
	const id = "banque_a_tout_va"
	art := am + " art. 12"
	g := &games.Game{
		ID:     id,
		Name:   "Banque à tout va",
		Source: "Monaco AM 88-384 art. 1 and 12 (seed 001 L37-L91, L712-L764)",
		Spots:  "left, right (one tableau), both (à cheval); card places right, left, banker, burn, stop",
		Rules: []games.Rule{
			{ID: id + ".payout", Kind: games.WrongPayout, Severity: games.Critical, Article: art + ".6 (L733), 12.9 (L754-L762)",
				Summary: "A stake on a tableau is paid 1 to 1 when it beats the banker and pushes on equal points; an à cheval stake wins 1 to 1 when both tableaux win, half when one wins and the other ties, loses half when one loses and the other ties, and all when both lose.",
				Reading: "The text leaves out one tableau winning and the other losing, and both tying: both push (rules.a_cheval_win_lose). Nor does it say which banker point a tableau showing a natural meets when the banker then draws for the other tableau: as nobody draws against a natural, it is settled against the banker's first two cards (rules.natural_tableau). A third card drawn on the banker's own natural or against two naturals is a wrong draw, and every tableau meets his point as dealt."},
			{ID: id + ".late_bet", Kind: games.LateBet, Severity: games.Critical, Article: art + ".82 (L741)",
				Summary: "After «rien ne va plus» (or the first card out) no player may bet any more; the stake is still settled as placed.",
				Reading: "A late stake is reported once, as a late bet: its amount is not checked again against the limits."},
			{ID: id + ".bet_limit", Kind: games.BetLimit, Severity: games.Warning, Article: "table limits (table_open.limits) set by the management",
				Summary: "Each player's stake on a spot lies between the table's minimum and maximum."},
			{ID: id + ".card_before_cutoff", Kind: games.Procedure, Severity: games.Warning, Article: art + ".82 (L741)",
				Summary: "The banker deals only after «rien ne va plus»; the first card out closes the bets.",
				Reading: "Judged when a no_more_bets (other than cause first_card, which records the card's cut-off) follows the first card of the coup; with no announcement recorded at all, the first card is the cut-off and nothing is reported."},
			{ID: id + ".dealing_order", Kind: games.Procedure, Severity: games.Warning, Article: art + ".82 (L741), 12.84 (L750)",
				Summary: "The cards go right tableau, left tableau, banker, twice; the pontes' third cards come before the banker's."},
			{ID: id + ".ponte_draw", Kind: games.Procedure, Severity: games.Warning, Article: art + ".83-12.84 (L743-L750)",
				Summary: "A hand-holder shows 8 or 9, may not ask for a card on 6 or 7, may draw or stand on 5 and must draw on 0-4; no third card is given against the banker's natural."},
			{ID: id + ".banker_draw", Kind: games.Procedure, Severity: games.Warning, Article: art + ".84 (L750)",
				Summary: "The banker shows a natural and draws nothing when both tableaux have one; otherwise he follows his own table against the tableaux still in play.",
				Reading: "L750 leaves the banker «un tableau de tirage qui lui est propre»: the conventional chemin de fer table is applied to each tableau still in play (rules.banker_table); the banker must draw when it says draw against every one of them, must stand when it says stand against every one, and chooses otherwise."},
			{ID: id + ".last_coup", Kind: games.Procedure, Severity: games.Warning, Article: art + ".10 (L764)",
				Summary: "Once the stop card has come out one last coup is dealt from the remaining cards, and no coup after it.",
				Reading: "The last coup is the one that follows the coup in which the stop card came out, or that coup itself when the stop card came out before its first card (rules.last_coup = next); a coup that opens with burn cards starts a new shoe."},
			{ID: id + ".stop_card_position", Kind: games.Procedure, Severity: games.Info, Article: art + ".5 (L731)",
				Summary: "The stop card leaves nine or ten cards in the talon.",
				Reading: "Checked only on a shoe watched from its start."},
			{ID: id + ".deck_composition", Kind: games.Procedure, Severity: games.Critical, Article: am + " art. 1.5 (L85), 12.1 (L716)",
				Summary: "No card is seen more often in the shoe than its sixain holds."},
		},
		Options: []games.OptionDoc{
			decksDoc(6),
			{Key: "banker_table", Default: `"conventional"`, Doc: "the banker's own table (L750): conventional (the chemin de fer banker's table, applied to each tableau in play), punto_banco (art. 13's table) or free (only naturals enforced)"},
			{Key: "a_cheval_win_lose", Default: `"push"`, Doc: "an à cheval stake when one tableau wins and the other loses (not stated in L754-L762): push, win_half or lose_half"},
			{Key: "natural_tableau", Default: `"two_cards"`, Doc: "the banker point a tableau showing a natural (8 or 9 with two cards) is settled against when the banker draws a third card for the other tableau (not stated in L750-L752): two_cards (his first two cards: nobody draws against a natural) or final_point (his point after the third card)"},
			{Key: "last_coup", Default: `"next"`, Doc: "which coup is the last once the stop card is out (L764): next (the coup after the one in which it came out) or same (that coup, as at chemin de fer)"},
			stopDocs(9, 10)[0], stopDocs(9, 10)[1],
			freshDoc(),
			roundingDoc(),
		},
	}
	g.Check = checker(banqueATousVa)
	g.New = func(s games.Setup) (games.Engine, error) {
		o := s.Options
		cfg := config{
			v:           banqueATousVa,
			decks:       int(o.Int("decks", 6, 1, 16)),
			bankerTable: bankerTable(o),
			aChevalWL:   o.Enum("a_cheval_win_lose", "push", "push", "win_half", "lose_half"),
			natTwoCards: o.Enum("natural_tableau", "two_cards", "two_cards", "final_point") == "two_cards",
			lastNext:    o.Enum("last_coup", "next", "next", "same") == "next",
			stopMin:     int(o.Int("stop_card_min_left", 9, 0, 832)),
			stopMax:     int(o.Int("stop_card_max_left", 10, 0, 832)),
			freshAtOpen: o.Bool("fresh_shoe_at_open", false),
		}
		return newEngine(s, cfg)
	}
	return g
}

func bankerTable(o *games.Options) BankerTable {
	switch o.Enum("banker_table", "conventional", "conventional", "punto_banco", "free") {
	case "punto_banco":
		return Strict
	case "free":
		return Free
	}
	return Conventional
}

// checker validates the events of a baccara game: spots, card places and event types.
func checker(v variant) func(ev *journal.Event) error {
	return func(ev *journal.Event) error {
		switch ev.Type {
		case journal.TypeBet, journal.TypePayout, journal.TypeCollect, journal.TypeRefund:
			return checkSpot(v, ev.Spot)
		case journal.TypeAction:
			if ev.Spot != "" {
				return checkSpot(v, ev.Spot)
			}
		case journal.TypeCard:
			if ev.To == "burn" || ev.To == "stop" || handIndex(v, ev.To) >= 0 {
				return nil
			}
			return fmt.Errorf("card place %q does not exist at %s (want %s, burn or stop)", ev.To, v, placeList(v))
		case journal.TypeReveal:
			if ev.To == "burn" || handIndex(v, ev.To) >= 0 {
				return nil
			}
			return fmt.Errorf("reveal place %q does not exist at %s (want %s or burn)", ev.To, v, placeList(v))
		case journal.TypeDice, journal.TypeSpin:
			return fmt.Errorf("%s events do not belong to a baccara game", ev.Type)
		}
		return nil
	}
}

func checkSpot(v variant, spot string) error {
	if spotKindOf(v, spot) != noSpot {
		return nil
	}
	switch v {
	case puntoBanco:
		return fmt.Errorf("spot %q cannot exist at punto banco (want punto, banco, tie, dragon:punto, dragon:banco, pair:punto, pair:banco or pair:both)", spot)
	case cheminDeFer:
		return fmt.Errorf("spot %q cannot exist at chemin de fer (want bank or banco)", spot)
	}
	return fmt.Errorf("spot %q cannot exist at banque à tout va (want left, right or both)", spot)
}
