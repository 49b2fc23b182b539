package poker

import (
	"fmt"

	"github.com/coupwatch/coupwatch/games"
	"github.com/coupwatch/coupwatch/games/poker/hand"
	"github.com/coupwatch/coupwatch/journal"
)

// uthConfig holds the ultimate hold'em rules options.
type uthConfig struct {
	tripsOnFold bool
	dealStyle   string // "either", "rounds" or "pairs"
}

// uth replays ultimate hold'em coups (arrêté of 14 May 2007 art. 55-20).
type uth struct {
	*table
	cfg uthConfig
}

func newUTH(s games.Setup) (*uth, error) {
	t, err := newTable(s, uthID)
	if err != nil {
		return nil, err
	}
	o := s.Options
	t.limits = readLimits(o, uthMaxMultiple, []string{"ante", "blind", "trips"}, []string{"ante", "blind", "trips", "play"})
	t.includesStake = o.Bool("payout_includes_stake", false)
	e := &uth{table: t, cfg: uthConfig{
		tripsOnFold: o.Bool("trips_on_fold", true),
		dealStyle:   o.Enum("deal_style", "either", "either", "rounds", "pairs"),
	}}
	return e, nil
}

// Apply implements games.Engine through the shared coup lifecycle (games.Base.Step).
func (e *uth) Apply(ev *journal.Event, out []games.Record) []games.Record {
	return e.Step(e, ev, out)
}

// Event implements games.Hooks: every event but coup_start and coup_end.
func (e *uth) Event(ev *journal.Event) {
	switch ev.Type {
	case journal.TypeDealer:
		// Art. 55-20 (L338): the croupier cannot be relieved during the coup.
		e.relieved(ev, e.PrevDealer, e.active)
	case journal.TypeBet:
		e.Ensure(e, ev)
		e.bet(ev)
	case journal.TypeNoMoreBets:
		e.Ensure(e, ev)
		// Art. 55-20 (L350): the deal begins once the bets are in place.
		e.lateAnnouncement(ev)
		e.cutOff(ev)
	case journal.TypeCard:
		e.Ensure(e, ev)
		e.card(ev)
	case journal.TypeReveal:
		e.Ensure(e, ev)
		e.active = true
		if e.dealer.dealt >= 2 || ev.To == "dealer" || ev.To == "board" {
			// A box's cards shown while the deal goes on do not end it.
			e.judgeDeal(ev)
		}
		e.revealTo(ev)
	case journal.TypeAction:
		e.Ensure(e, ev)
		e.action(ev)
	case journal.TypePayout, journal.TypeCollect, journal.TypeRefund, journal.TypeRake:
		e.Ensure(e, ev)
		e.judgeDeal(ev)
		e.money(ev)
	}
}

// Close implements games.Engine: the open coup is closed at the end of the input.
func (e *uth) Close(out []games.Record) []games.Record {
	return e.Finish(e, out)
}

// CoupStarted implements games.Hooks: the per-coup state is reset.
func (e *uth) CoupStarted(ev *journal.Event) { e.resetCoup() }

// cutOff closes the bets and checks Ante = Blind on the stakes as they stand.
func (e *uth) cutOff(ev *journal.Event) {
	if e.Coup.CutOff {
		return
	}
	e.table.cutOff(ev)
	// Art. 55-20 (L347-L348): «des mises d'un montant équivalent sur les cases Ante et Blind».
	for _, s := range e.used() {
		stakes := e.boxStakes(s.n)
		_, foreign := e.rules[rForeignStake]
		for _, st := range stakes {
			if _, part, _ := parseSpot(st.Spot); part != "ante" || (foreign && st.Player != s.owner) {
				continue // a stake on another's box is reported as such
			}
			blind := e.stake(s.n, "blind", st.Player)
			if blind != st.Amount {
				ex := join(st.Evidence)
				if b := e.stakes.Get(games.StakeKey{Spot: spotName(s.n, "blind"), Player: st.Player}); b != nil {
					ex.Merge(b.Evidence)
				}
				e.find(ev, rAnteBlind, spotName(s.n, "blind"), st.Player, games.Money(st.Amount), games.Money(blind),
					fmt.Sprintf("%s has %s on Ante but %s on Blind on box %d; the two stakes must be equal", st.Player,
						games.FormatCents(st.Amount), games.FormatCents(blind), s.n), ex)
			}
		}
		// A Blind with no Ante beside it; Trips with neither: the hand begins with Ante and
		// Blind, Trips is «également» (L347-L349).
		for _, st := range stakes {
			if foreign && st.Player != s.owner {
				continue
			}
			_, part, _ := parseSpot(st.Spot)
			switch {
			case part == "blind" && e.stake(s.n, "ante", st.Player) == 0:
				e.find(ev, rAnteBlind, st.Spot, st.Player, games.Money(0), games.Money(st.Amount),
					fmt.Sprintf("%s has %s on Blind but no Ante on box %d; the two stakes must be equal", st.Player, games.FormatCents(st.Amount), s.n), st.Evidence)
			case part == "trips" && st.Amount > 0 && e.stake(s.n, "ante", st.Player) == 0 && e.stake(s.n, "blind", st.Player) == 0:
				e.find(ev, rAnteBlind, st.Spot, st.Player, games.Text("Ante and Blind beside Trips"), games.Money(st.Amount),
					fmt.Sprintf("%s has %s on Trips but neither Ante nor Blind on box %d; the hand is played on Ante and Blind, Trips comes in addition", st.Player, games.FormatCents(st.Amount), s.n), st.Evidence)
			}
		}
	}
}

func (e *uth) card(ev *journal.Event) {
	if ev.To == "burn" {
		// A burnt card is no card dealt: it may come before the bets (a new pack).
		return
	}
	e.active = true
	// Art. 55-20 (L350): the deal begins once every bet is in place.
	e.dealtCard(ev)
	e.cutOff(ev)
	switch ev.To {
	case "board":
		e.judgeDeal(ev)
		e.board.cards = append(e.board.cards, ev.Card)
		e.board.dealt++
		e.board.ev.Add(ev)
	default:
		e.holeCard(ev)
	}
}

// judgeDeal checks the hole cards once the deal is over (the first decision, board card,
// reveal or payment): two to each box from the croupier's left, then two to him.
func (e *uth) judgeDeal(at *journal.Event) {
	if e.dealJudged || len(e.deal) == 0 {
		return
	}
	boxes := e.playing()
	styles := map[string][]int{}
	if e.cfg.dealStyle != "pairs" {
		var seq []int
		for r := 0; r < 2; r++ {
			seq = append(seq, boxes...)
		}
		styles["rounds"] = append(seq, dealerPlace, dealerPlace)
	}
	if e.cfg.dealStyle != "rounds" {
		var seq []int
		for _, b := range boxes {
			seq = append(seq, b, b)
		}
		styles["pairs"] = append(seq, dealerPlace, dealerPlace)
	}
	e.checkDeal(at, 2, styles, " (art. 55-20: two cards to each player, then two to the croupier)")
}

// phase returns the decision point the board shows: 0 before the flop, 1 at the flop, 2
// once the last two board cards are out. Art. 55-20 (L356, L359): the croupier «retourne»
// the flop and «découvre» the last two cards, so a board laid face down (XX) and turned
// up later counts its cards as they are turned.
func (e *uth) phase() int {
	n := 0
	for _, c := range e.board.cards {
		if !c.IsFaceDown() {
			n++
		}
	}
	switch {
	case n == 0:
		return 0
	case n <= 3:
		return 1
	}
	return 2
}

func (e *uth) action(ev *journal.Event) {
	e.active = true
	ev = asPlay(ev)
	switch ev.Action {
	case "play", "fold":
	default:
		return // check and other words change nothing
	}
	e.judgeDeal(ev)
	s := e.boxOf(ev)
	if s == nil {
		return
	}
	player := s.player(ev.Player)
	if e.shown {
		// Art. 55-20 (L359-L362): the croupier turns his cards once every player has decided.
		var ex games.Evidence
		ex.AddRef(e.shownLine, "")
		e.find(ev, rAfterDealer, actionSpot(ev, s.n, "play"), player, games.Text("decision before the croupier's cards are shown"),
			games.Text(ev.Action+" after"), fmt.Sprintf("%s chose %s on box %d after the croupier had turned his cards", player, ev.Action, s.n), ex)
	}
	ante := e.stake(s.n, "ante", player)
	if ev.Action == "fold" {
		// Art. 55-20 (L359-L361): the fold is the last decision's alternative to Play.
		if why := e.foldBreach(s); why != "" {
			e.find(ev, rFold, actionSpot(ev, s.n, ""), player, games.Text("fold at the river without Play"), games.Text(why),
				fmt.Sprintf("%s folded box %d %s; a player folds only at the last decision, when he has not bet Play", player, s.n, why))
		}
		s.folded = true
		s.foldEv.Add(ev)
		return
	}
	ph := e.phase()
	mults := [3][]int64{{3, 4}, {2}, {1}}[ph]
	amount := ev.Amount
	if !ev.HasAmount {
		amount = mults[0] * ante
	}
	if s.plays > 0 {
		// Art. 55-20 (L356-L361): Play is bet once, at the first decision the player takes it.
		e.find(ev, rSecondPlay, actionSpot(ev, s.n, "play"), player, games.Money(s.play), games.Money(s.play+amount),
			fmt.Sprintf("%s added %s to Play on box %d, which already held %s; Play is bet once", player,
				games.FormatCents(amount), s.n, games.FormatCents(s.play)), s.playEv)
	} else if !allowed(amount, ante, mults) {
		// Art. 55-20 (L353-L361): 3 or 4 times the Ante before the flop, 2 times at the flop, once at the river.
		names := [3]string{"before the flop", "at the flop", "after the last two board cards"}
		e.find(ev, rPlayAmount, actionSpot(ev, s.n, "play"), player, games.Text(multiplesText(ante, mults)), games.Money(amount),
			fmt.Sprintf("%s bet %s on Play %s with an Ante of %s; the rule allows %s", player, games.FormatCents(amount),
				names[ph], games.FormatCents(ante), multiplesText(ante, mults)))
	}
	e.addPlay(s, player, amount, ev)
}

// foldBreach says what is wrong with a fold now, "" when it is allowed.
func (e *uth) foldBreach(s *seat) string {
	switch {
	case s.plays > 0:
		return "after betting Play"
	case e.phase() < 2:
		return "before the last two board cards"
	}
	return ""
}

func allowed(amount, ante int64, mults []int64) bool {
	for _, m := range mults {
		if amount == m*ante {
			return true
		}
	}
	return false
}

func multiplesText(ante int64, mults []int64) string {
	s := ""
	for i, m := range mults {
		if i > 0 {
			s += " or "
		}
		s += fmt.Sprintf("%dx the Ante (%s)", m, games.FormatCents(m*ante))
	}
	return s
}

func (e *uth) FinishCoup(ev *journal.Event) {
	if !e.Coup.CutOff && e.stakes.Len() > 0 {
		e.checkStakes(ev)
	}
	e.judgeDeal(ev)
	if e.lateHole && !e.countBad {
		e.countsRight(ev, 2, " (a card came after the deal)")
	}
	if e.dealJudged && e.board.dealt != 5 {
		// A distinct breach from a wrong hole-card count, so not merged with it.
		e.Find(ev, e.rule(rCardCount), "", "", games.Text("5 board cards"), games.Text(fmt.Sprintf("%d board cards", e.board.dealt)),
			fmt.Sprintf("the board holds %d cards; the croupier turns three, then two (art. 55-20)", e.board.dealt), e.board.ev)
	}
	e.dealtFaceUp(2)
	e.settleAll()
	e.finish(ev)
}

// rate returns the best five of a place's cards and the board, if every card is known.
func (e *uth) rate(cards []journal.Card) (hand.Value, bool) {
	if !known(cards) || !known(e.board.cards) || len(cards)+len(e.board.cards) < 5 {
		return 0, false
	}
	all := make([]journal.Card, 0, len(cards)+len(e.board.cards))
	all = append(append(all, cards...), e.board.cards...)
	return hand.Best(all), true
}

// settleAll settles every stake of the coup (art. 55-20, L363-L389).
func (e *uth) settleAll() {
	dv, dealerKnown := e.rate(e.dealer.cards)
	// Art. 55-20 (L370): the croupier qualifies with at least a pair.
	qualified := dealerKnown && dv.Category() >= hand.Pair
	switch {
	case !dealerKnown && len(e.dealer.cards) > 0:
		e.Coup.Result = "croupier's hand not seen"
	case dealerKnown:
		q := "qualifies"
		if !qualified {
			q = "does not qualify"
		}
		e.Coup.Result = fmt.Sprintf("croupier %s (%s), %s; board %s", cardsText(e.dealer.cards), dv, q, cardsText(e.board.cards))
	}
	dealerEv := e.dealer.ev
	for _, s := range e.used() {
		if e.lateBox(s) {
			e.voidBox(s, "staked after the cut-off on a box dealt no cards, it plays no hand")
			continue
		}
		pv, known := e.rate(s.cards)
		ev := join(s.ev, e.board.ev, s.playEv, s.foldEv)
		full := join(ev, dealerEv) // with the croupier's cards, for what depends on them
		// Play comes from play actions (plus a bet event on Play, should there be one).
		var play *games.Stake
		total := s.play
		stakes := e.boxStakes(s.n)
		for _, st := range stakes {
			if _, part, _ := parseSpot(st.Spot); part == "play" {
				play = st
				total += st.Amount
			}
		}
		if play == nil && s.play > 0 {
			play = &games.Stake{StakeKey: games.StakeKey{Spot: spotName(s.n, "play"), Player: s.player(s.playPlayer)}, Amount: s.play, Evidence: s.playEv}
		}
		// Art. 55-20 (L359-L361): at the last decision a player folds or bets Play, so a
		// hand without Play at the showdown has folded. Without a showdown (the croupier's
		// cards never shown) its decision is unknown.
		folded := s.folded || total == 0 && e.shown
		undecided := !folded && total == 0
		vs := ""
		if known && dealerKnown {
			vs = pv.String() + " against the croupier's " + dv.String()
		}
		main := func(st *games.Stake, part string, amount int64) {
			switch {
			case folded:
				// A fold gives up Ante and Blind (and a Play bet made before it).
				e.settle(st, amount, games.Lose, -amount, "the hand folded", ev)
			case undecided || !known || !dealerKnown:
				e.unknown(st.StakeKey)
			default:
				e.settleMain(st, part, amount, pv, dv, vs, qualified, full)
			}
		}
		for _, st := range stakes {
			switch _, part, _ := parseSpot(st.Spot); part {
			case "trips":
				// Art. 55-20 (L374-L382): Trips pays on the player's hand whatever the croupier's.
				switch {
				case folded && !e.cfg.tripsOnFold:
					e.settle(st, st.Amount, games.Lose, -st.Amount, "Trips lost with the fold", ev)
				case folded && !anyFaceUp(s.cards):
					// L361: a folding player lays his cards face down; Trips is paid on the
					// cards, so a folded hand never turned up wins nothing.
					e.settle(st, st.Amount, games.Lose, -st.Amount, "the hand folded face down and was never shown: Trips is lost", ev)
				case !known:
					e.unknown(st.StakeKey)
				default:
					e.settleTrips(st, pv, ev)
				}
			case "ante", "blind":
				main(st, part, st.Amount)
			}
		}
		if play != nil {
			main(play, "play", total)
		}
	}
}

// settleMain settles Ante, Blind or Play of a hand that saw the showdown.
func (e *uth) settleMain(st *games.Stake, part string, amount int64, pv, dv hand.Value, vs string, qualified bool, ev games.Evidence) {
	switch {
	case part == "ante" && !qualified:
		// Art. 55-20 (L370-L372): the Ante is returned when the croupier does not qualify.
		e.settle(st, amount, games.Push, 0, "the croupier does not qualify: the Ante is returned", ev)
	case pv == dv:
		// Art. 55-20 (L369): a tie leaves the stakes to the player.
		e.settle(st, amount, games.Push, 0, "tie: "+vs, ev)
	case pv < dv:
		// Art. 55-20 (L368): the croupier's better hand takes Blind, Ante and Play.
		e.settle(st, amount, games.Lose, -amount, "loses: "+vs, ev)
	case part == "blind":
		// Art. 55-20 (L363-L366, L383-L389): the Blind pays only on a straight or better.
		num, den, name := blindPays(pv)
		if num == 0 {
			e.settle(st, amount, games.Push, 0, "wins with less than a straight: the Blind pushes ("+vs+")", ev)
			return
		}
		e.settle(st, amount, games.Win, e.pays(amount, num, den), fmt.Sprintf("wins with %s: Blind %d to %d (%s)", name, num, den, vs), ev)
	default:
		// Art. 55-20 (L363): Ante and Play are paid once the stake.
		e.settle(st, amount, games.Win, amount, "wins 1 to 1: "+vs, ev)
	}
}

// blindPays is the Blind table of art. 55-20 (L383-L389); 0 below a straight.
func blindPays(v hand.Value) (num, den int64, name string) {
	switch c := v.Category(); {
	case v.IsRoyal():
		return 500, 1, "a royal flush"
	case c == hand.StraightFlush:
		return 50, 1, "a straight flush"
	case c == hand.Quads:
		return 10, 1, "four of a kind"
	case c == hand.FullHouse:
		return 3, 1, "a full house"
	case c == hand.Flush:
		return 3, 2, "a flush"
	case c == hand.Straight:
		return 1, 1, "a straight"
	}
	return 0, 1, ""
}

// tripsPays is the Trips table of art. 55-20 (L375-L382); 0 below three of a kind.
func tripsPays(v hand.Value) (num int64, name string) {
	switch c := v.Category(); {
	case v.IsRoyal():
		return 50, "a royal flush"
	case c == hand.StraightFlush:
		return 40, "a straight flush"
	case c == hand.Quads:
		return 30, "four of a kind"
	case c == hand.FullHouse:
		return 8, "a full house"
	case c == hand.Flush:
		return 7, "a flush"
	case c == hand.Straight:
		return 4, "a straight"
	case c == hand.Trips:
		return 3, "three of a kind"
	}
	return 0, ""
}

func (e *uth) settleTrips(st *games.Stake, pv hand.Value, ev games.Evidence) {
	num, name := tripsPays(pv)
	if num == 0 {
		e.settle(st, st.Amount, games.Lose, -st.Amount, fmt.Sprintf("Trips loses on %s", pv), ev)
		return
	}
	e.settle(st, st.Amount, games.Win, e.pays(st.Amount, num, 1), fmt.Sprintf("Trips pays %d to 1 on %s", num, name), ev)
}
