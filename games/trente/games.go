// Package trente is the rule engine of trente et quarante (30 et 40) as Monaco's AM 88-384
// art. 9 regulates it: two rows, noir then rouge, each dealt until its point passes 30; the
// point nearer 30 wins; couleur and inverse by the first card; equal points push, except 31-31
// (refait) where the European roulette zero rules apply (share or prison); the 1% refait
// insurance; the stop card that ends the partie and voids a coup whose point is not known.
package trente

import (
	"fmt"
	"strings"

	"github.com/coupwatch/coupwatch/games"
	"github.com/coupwatch/coupwatch/journal"
)

// Games returns the games of the package: trente et quarante.
func Games() []*games.Game { return []*games.Game{TrenteEtQuarante()} }

const am = "AM 88-384"

// The rule ids.
const (
	rulePayout      = "trente_et_quarante.payout"
	ruleLate        = "trente_et_quarante.late_bet"
	ruleLimit       = "trente_et_quarante.bet_limit"
	ruleDeal        = "trente_et_quarante.deal"
	ruleChoice      = "trente_et_quarante.refait_choice"
	ruleInsurance   = "trente_et_quarante.refait_insurance"
	ruleCollect     = "trente_et_quarante.collect_before_pay"
	ruleOrder       = "trente_et_quarante.payment_order"
	ruleStop        = "trente_et_quarante.stop_card"
	ruleCount       = "trente_et_quarante.card_count"
	ruleEarlyCards  = "trente_et_quarante.cards_before_cutoff"
	spotsHelp       = "noir, rouge, couleur, inverse or insurance:S (S one of those four)"
	placesHelp      = "noir, rouge, stop or burn"
	defaultDecks    = 6
	cardsBehindStop = 5
)

// TrenteEtQuarante is trente et quarante, AM 88-384 art. 9.
func TrenteEtQuarante() *games.Game {
	g := &games.Game{
		ID:     "trente_et_quarante",
		Name:   "Trente et quarante",
		Source: "Monaco AM 88-384 art. 1 and 9, with art. 8.2 for the refait (seed 001 L37-L91, L578-L629, L551-L556)",
		Spots:  "noir, rouge, couleur, inverse; insurance:S, the 1% refait insurance of the stake on S",
		Rules: []games.Rule{
			{ID: rulePayout, Kind: games.WrongPayout, Severity: games.Critical, Article: am + " art. 9 (L608-L617, L627) and art. 8.2 (L551-L556)",
				Summary: "The row whose point is nearer 30 wins (noir is the first row, rouge the second), couleur wins when the first card of the first row has the winning row's colour and inverse otherwise, each paid even money; equal points push, except 31-31 (refait) where each stake is halved (share) or goes to prison, released unpaid if it then wins and lost otherwise.",
				Reading: "Cards count face value, faces 10, ace 1. With no choice recorded a refait sends the stake to prison (rules.refait_choice) unless the dealer visibly collected exactly half (or, with no collect, refunded exactly half); a prisoner released after n refaits is worth 1/2^(n-1) (rules.prison_release); a prisoner stays in prison through a coup nul (rules.prisoner_on_tie). A share or prison action with no spot is the player's choice for each of his stakes at that refait. A bet of the prisoner's own amount on its spot, by its player, with no stake of the coup there, is the prisoner restated on the layout, not a new stake. A stake insured against the refait pushes at 31-31."},
			{ID: ruleLate, Kind: games.LateBet, Severity: games.Critical, Article: am + " art. 9 (L608-L619); journal cut-off",
				Summary: "No stake is placed, changed or withdrawn after the cut-off (no_more_bets, or the first card of the rows); the stake is still settled as placed.",
				Reading: "Art. 9 states no «rien ne va plus»; the first card dealt closes the bets when no announcement came before it. A late stake is reported once, as a late bet: its amount is not checked again against the limits, nor a late premium against the insurance terms."},
			{ID: ruleLimit, Kind: games.BetLimit, Severity: games.Warning, Article: "table limits (table_open.limits)",
				Summary: "Each player's stake on noir, rouge, couleur or inverse lies within the table's minimum and maximum.",
				Reading: "The refait insurance premium is not a stake and is not checked against the limits."},
			{ID: ruleDeal, Kind: games.Procedure, Severity: games.Warning, Article: am + " art. 9 (L613-L619)",
				Summary: "The tailleur deals the noir row first, then the rouge row, each «jusqu'au point»: until its point passes 30, and not a card more.",
				Reading: "«Le point se compte entre 30 et 40»: a row stops at 31 to 40."},
			{ID: ruleChoice, Kind: games.Procedure, Severity: games.Info, Article: am + " art. 9 (L627) and art. 8.2 (L551-L556)",
				Summary: "A share or prison choice applies only to a stake at a refait (31-31)."},
			{ID: ruleInsurance, Kind: games.Procedure, Severity: games.Warning, Article: am + " art. 9 (L629)",
				Summary: "The refait insurance costs 1% of the insured stake, paid when the stake is placed, on a stake the player has on that chance and at least the house's threshold.",
				Reading: "The journal shows it as a bet on insurance:S whose amount is the premium (1% of the player's stake on S; the insured amount, his whole stake on S, is accepted too and stands for its 1%; any other amount is a premium as paid, the wrong premium reported) and the dealer's collect of the premium; its settlement is the premium lost (table income). 1% is accepted rounded either way to the cent."},
			{ID: ruleCollect, Kind: games.Procedure, Severity: games.Info, Article: am + " art. 9 (L621-L623)",
				Summary: "Nothing is settled before both rows are out and the result announced; then the losing stakes are removed before any payment is made.",
				Reading: "Each obligation is reported once a coup: the first stake settled before the result, and the first loser removed after a payment made after the result."},
			{ID: ruleOrder, Kind: games.Procedure, Severity: games.Info, Article: am + " art. 9 (L623)",
				Summary: "Payments go chance by chance: inverse first, then noir or rouge, then couleur.",
				Reading: "«en commençant toujours par inverse noir ou rouge et couleur» is read as that order (rules.payment_order); the order from the stake furthest from the croupier cannot be seen in the journal."},
			{ID: ruleStop, Kind: games.Procedure, Severity: games.Warning, Article: am + " art. 9 (L594, L598)",
				Summary: "The stop card lies before the last five cards and ends the partie: it voids the coup whose point is not known when it appears, and no coup is dealt after it; a continuous shuffler has none.",
				Reading: "The point is known once both rows are complete: a stop card before that voids the coup (every stake returned); one seen between coups ends the partie before the next coup. Stakes still in prison when the partie ends are handed back at the last-coup rate of art. 8.2 (1/2, 1/4, ... of the stake; rules.prison_at_end), and a refait on the last coup is shared."},
			{ID: ruleCount, Kind: games.Procedure, Severity: games.Critical, Article: am + " art. 1.4 (L85) and art. 9 (L582)",
				Summary: "No card is seen more often than the six decks hold (a card in excess or foreign to the decks)."},
			{ID: ruleEarlyCards, Kind: games.Procedure, Severity: games.Warning, Article: am + " art. 9 (L619-L621); journal cut-off",
				Summary: "No card is dealt before the bets are closed.",
				Reading: "Reported when a no_more_bets announcement follows cards already dealt in the coup (a no_more_bets with cause first_card merely records the card's cut-off)."},
		},
		Options: []games.OptionDoc{
			{Key: "decks", Default: "6", Doc: "52-card decks in the shoe (six, L582)"},
			{Key: "csm", Default: "false", Doc: "cards dealt from a continuous shuffling machine: no cut or stop card, the cards go back after every coup (L598-L604)"},
			{Key: "refait_choice", Default: `"prison"`, Doc: "what a stake becomes at a refait when the journal records no share/prison choice: prison or share"},
			{Key: "prison_release", Default: `"reduced"`, Doc: "value of a prisoner released after several refaits: reduced (halved at each further refait) or full (the whole stake: a share at a further refait or the end of the partie hands back half of it)"},
			{Key: "prisoner_on_tie", Default: `"stays"`, Doc: "a prisoner through a coup nul (equal points other than 31): stays in prison, or is lost (it did not win)"},
			{Key: "prison_at_end", Default: `"half"`, Doc: "when the stop card ends the partie: stakes in prison and a refait on the last coup are handed back at 1/2, 1/4, ... (half), or prisoners are kept (keep)"},
			{Key: "insurance_min", Default: "0", Doc: "smallest stake that may be insured against the refait, in cents (set by the management, L629)"},
			{Key: "payment_order", Default: `"inverse_first"`, Doc: "check the order of payments inverse, noir/rouge, couleur (inverse_first) or not (off)"},
			{Key: "collect_before_pay", Default: "true", Doc: "check that losing stakes are removed before any payment"},
			{Key: "rounding", Default: `"down"`, Doc: "rounding of amounts due to players (half of an odd stake at a share): down, up or nearest cent, a unit in cents, or {\"unit\":50,\"mode\":\"nearest\"}"},
		},
	}
	g.Check = check
	g.New = func(s games.Setup) (games.Engine, error) {
		return newEngine(s, readConfig(s.Options)), nil
	}
	return g
}

// config is the table's rules options.
type config struct {
	decks          int
	csm            bool
	refaitChoice   string
	reducedRelease bool
	tieLoses       bool
	halfAtEnd      bool
	insuranceMin   int64
	payOrder       bool
	collectFirst   bool
}

func readConfig(o *games.Options) config {
	return config{
		decks:          int(o.Int("decks", defaultDecks, 1, 16)),
		csm:            o.Bool("csm", false),
		refaitChoice:   o.Enum("refait_choice", "prison", "prison", "share"),
		reducedRelease: o.Enum("prison_release", "reduced", "reduced", "full") == "reduced",
		tieLoses:       o.Enum("prisoner_on_tie", "stays", "stays", "lost") == "lost",
		halfAtEnd:      o.Enum("prison_at_end", "half", "half", "keep") == "half",
		insuranceMin:   o.Int("insurance_min", 0, 0, 1<<50),
		payOrder:       o.Enum("payment_order", "inverse_first", "inverse_first", "off") == "inverse_first",
		collectFirst:   o.Bool("collect_before_pay", true),
	}
}

// chance is one of the four chances.
type chance uint8

const (
	noir chance = iota
	rouge
	couleur
	inverse
	numChances
)

func (c chance) String() string {
	switch c {
	case noir:
		return "noir"
	case rouge:
		return "rouge"
	case couleur:
		return "couleur"
	}
	return "inverse"
}

// parseSpot reads a spot: one of the four chances, or insurance:S on one of them.
func parseSpot(s string) (c chance, insurance bool, ok bool) {
	if rest, found := strings.CutPrefix(s, "insurance:"); found {
		insurance, s = true, rest
	}
	for c := noir; c < numChances; c++ {
		if s == c.String() {
			return c, insurance, true
		}
	}
	return 0, false, false
}

func check(ev *journal.Event) error {
	switch ev.Type {
	case journal.TypeBet, journal.TypePayout, journal.TypeCollect, journal.TypeRefund:
		if _, _, ok := parseSpot(ev.Spot); !ok {
			return fmt.Errorf("spot %q cannot exist at trente et quarante (want %s)", ev.Spot, spotsHelp)
		}
	case journal.TypeAction:
		if ev.Spot != "" {
			if _, _, ok := parseSpot(ev.Spot); !ok {
				return fmt.Errorf("action spot %q cannot exist at trente et quarante (want %s)", ev.Spot, spotsHelp)
			}
		}
	case journal.TypeCard, journal.TypeReveal:
		switch ev.To {
		case "noir", "rouge", "stop", "burn":
		default:
			return fmt.Errorf("card place %q is not used at trente et quarante (want %s)", ev.To, placesHelp)
		}
	case journal.TypeSpin, journal.TypeDice:
		return fmt.Errorf("%s events do not belong to trente et quarante", ev.Type)
	case journal.TypeResult:
		// The tailleur announces the result aloud (L621); the rows decide it, so an announced
		// result is kept as evidence and judges nothing.
	}
	return nil
}
