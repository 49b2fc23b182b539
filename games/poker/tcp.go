package poker

import (
	"fmt"

	"github.com/coupwatch/coupwatch/games"
	"github.com/coupwatch/coupwatch/games/poker/hand"
	"github.com/coupwatch/coupwatch/journal"
)

// tcpConfig holds the three card poker rules options.
type tcpConfig struct {
	anteBonusUnqualified bool
	flushTopCard         bool
	pairplusOnFold       bool
	paymentOrder         bool
}

// tcp replays three card poker coups (arrêté of 14 May 2007 art. 55-21).
type tcp struct {
	*table
	cfg tcpConfig
	// void says why the coup is void ("" while it stands).
	void string
}

func newTCP(s games.Setup) (*tcp, error) {
	t, err := newTable(s, tcpID)
	if err != nil {
		return nil, err
	}
	o := s.Options
	t.limits = readLimits(o, tcpMaxMultiple, []string{"ante", "pairplus", "bonus"}, []string{"ante", "pairplus", "bonus", "play"})
	t.limits.minFloor = minimumFloor
	t.includesStake = o.Bool("payout_includes_stake", false)
	e := &tcp{table: t, cfg: tcpConfig{
		anteBonusUnqualified: o.Bool("ante_bonus_unqualified", false),
		flushTopCard:         o.Enum("flush_tiebreak", "all_cards", "all_cards", "top_card") == "top_card",
		pairplusOnFold:       o.Bool("pairplus_on_fold", true),
		paymentOrder:         o.Bool("payment_order", true),
	}}
	return e, nil
}

// Apply implements games.Engine through the shared coup lifecycle (games.Base.Step).
func (e *tcp) Apply(ev *journal.Event, out []games.Record) []games.Record {
	return e.Step(e, ev, out)
}

// Event implements games.Hooks: every event but coup_start and coup_end.
func (e *tcp) Event(ev *journal.Event) {
	switch ev.Type {
	case journal.TypeDealer:
		// Art. 55-21 (L436): no relief during the deal, the play or the payments.
		e.relieved(ev, e.PrevDealer, e.Coup != nil && e.Coup.CutOff)
	case journal.TypeBet:
		e.Ensure(e, ev)
		e.bet(ev)
	case journal.TypeNoMoreBets:
		e.Ensure(e, ev)
		// L452-L453: «rien ne va plus» comes before the deal.
		e.lateAnnouncement(ev)
		e.cutOff(ev)
	case journal.TypeCard:
		e.Ensure(e, ev)
		if ev.To != "burn" {
			// The first card dealt closes the bets (L433-L435, L452-L453); a card burnt after
			// the cut of a new pack (L423) comes before the bets.
			e.active = true
			e.dealtCard(ev)
			e.cutOff(ev)
			e.holeCard(ev)
		}
	case journal.TypeReveal:
		e.Ensure(e, ev)
		e.active = true
		if !e.dealOver() && ev.To != "dealer" && ev.To != "burn" {
			// A box's cards turned up while the deal goes on: the player has seen them (L470).
			e.look(ev)
		} else {
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
func (e *tcp) Close(out []games.Record) []games.Record {
	return e.Finish(e, out)
}

// CoupStarted implements games.Hooks: the per-coup state is reset.
func (e *tcp) CoupStarted(ev *journal.Event) {
	e.resetCoup()
	e.void = ""
}

// judgeDeal checks the deal once it is over: three rounds of one card to each hand from
// the croupier's left, then one to him (L455-L457); a wrong count voids the coup (L466-L467).
func (e *tcp) judgeDeal(at *journal.Event) {
	if e.dealJudged || len(e.deal) == 0 {
		return
	}
	var seq []int
	for r := 0; r < 3; r++ {
		seq = append(append(seq, e.playing()...), dealerPlace)
	}
	if !e.checkDeal(at, 3, map[string][]int{"three-round": seq}, ": the coup is void (art. 55-21)") {
		e.voidCoup()
	}
}

func (e *tcp) voidCoup() {
	if e.void != "" {
		return
	}
	e.void = "void: wrong number of cards"
	for _, s := range e.hands() {
		if s.dealt != 3 {
			e.void = fmt.Sprintf("void: box %d has %d cards", s.n, s.dealt)
			return
		}
	}
	if e.dealer.dealt != 3 {
		e.void = fmt.Sprintf("void: the croupier has %d cards", e.dealer.dealt)
	}
}

// dealOver reports whether the deal has ended: the croupier holds his third card, or the
// play has begun.
func (e *tcp) dealOver() bool { return e.dealJudged || e.dealer.dealt >= 3 }

func (e *tcp) action(ev *journal.Event) {
	e.active = true
	ev = asPlay(ev)
	switch ev.Action {
	case "look", "peek":
		e.look(ev)
		return
	case "play", "fold":
	default:
		return
	}
	e.judgeDeal(ev)
	s := e.boxOf(ev)
	if s == nil {
		return
	}
	player := s.player(ev.Player)
	if e.shown {
		// Art. 55-21 (L482-L484): the croupier shows his hand once every player has decided.
		var ex games.Evidence
		ex.AddRef(e.shownLine, "")
		e.find(ev, rAfterDealer, actionSpot(ev, s.n, "play"), player, games.Text("decision before the croupier's hand is shown"),
			games.Text(ev.Action+" after"), fmt.Sprintf("%s chose %s on box %d after the croupier had shown his hand", player, ev.Action, s.n), ex)
	}
	if ev.Action == "fold" {
		s.folded = true
		s.foldEv.Add(ev)
		return
	}
	ante := e.stake(s.n, "ante", player)
	amount := ev.Amount
	if !ev.HasAmount {
		amount = ante
	}
	switch {
	case s.plays > 0:
		// Art. 55-21 (L479): one raise, the amount of the initial stake.
		e.find(ev, rPlayAmount, actionSpot(ev, s.n, "play"), player, games.Money(ante), games.Money(s.play+amount),
			fmt.Sprintf("%s added %s to JOUER on box %d, which already held %s; the raise is made once, equal to the initial stake",
				player, games.FormatCents(amount), s.n, games.FormatCents(s.play)), s.playEv)
	case amount != ante:
		e.find(ev, rPlayAmount, actionSpot(ev, s.n, "play"), player, games.Money(ante), games.Money(amount),
			fmt.Sprintf("%s put %s on JOUER with an initial stake of %s; the raise equals the initial stake", player,
				games.FormatCents(amount), games.FormatCents(ante)))
	}
	e.addPlay(s, player, amount, ev)
}

// look handles a player looking at his cards (an action look or peek, or his box's cards
// revealed): before the end of the deal his hand is void (art. 55-21, L470).
func (e *tcp) look(ev *journal.Event) {
	var s *seat
	if ev.Type == journal.TypeReveal {
		n, _, _ := parseSpot(ev.To)
		s = e.seat(n)
	} else {
		s = e.boxOf(ev)
	}
	if s == nil || len(e.deal) == 0 || e.dealOver() || s.void != "" {
		return
	}
	player := s.player(ev.Player)
	s.void = "the player looked at his cards before the end of the deal"
	e.find(ev, rEarlyLook, actionSpot(ev, s.n, ""), player, games.Text("cards seen after the deal"), games.Text("cards seen during the deal"),
		fmt.Sprintf("%s looked at the cards of box %d before the end of the deal: the hand is void", player, s.n))
}

func (e *tcp) FinishCoup(ev *journal.Event) {
	if !e.Coup.CutOff && e.stakes.Len() > 0 {
		e.checkStakes(ev)
	}
	e.judgeDeal(ev)
	if e.lateHole && !e.countBad && !e.countsRight(ev, 3, ": the coup is void (art. 55-21; a card came after the deal)") {
		e.voidCoup()
	}
	if e.void != "" {
		e.Coup.Result = e.void
		e.settleVoid()
	} else {
		e.dealtFaceUp(3)
		qualified, ok := e.settleAll()
		if ok && qualified && e.cfg.paymentOrder {
			e.checkOrder(ev)
		}
		if ok {
			e.checkBonusOrder(ev)
		}
	}
	e.finish(ev)
}

// settleVoid hands every stake back (L466-L467: «le coup est nul»).
func (e *tcp) settleVoid() {
	for _, s := range e.used() {
		e.voidBox(s, e.void)
	}
}

// rate3 returns a box's or the croupier's three-card value, if the three cards are known.
func rate3(cards []journal.Card) (hand.Value3, bool) {
	if len(cards) != 3 || !known(cards) {
		return 0, false
	}
	return hand.Eval3([3]journal.Card(cards)), true
}

// compare orders two hands; with flush_tiebreak = top_card two flushes compare their
// highest card only.
func (e *tcp) compare(p, d hand.Value3) int {
	if e.cfg.flushTopCard && p.Category() == hand.Flush3 && d.Category() == hand.Flush3 {
		p, d = hand.Value3(p.TopRank()), hand.Value3(d.TopRank())
	}
	switch {
	case p > d:
		return 1
	case p < d:
		return -1
	}
	return 0
}

// settleAll settles the stakes of a coup that stands (art. 55-21, L488-L553). It returns
// whether the croupier qualified and whether his hand was seen.
func (e *tcp) settleAll() (qualified, dealerKnown bool) {
	dv, dealerKnown := rate3(e.dealer.cards)
	// Art. 55-21 (L488, L493): the croupier plays with queen high or better.
	qualified = dealerKnown && (dv.Category() > hand.High3 || dv.TopRank() >= int(journal.Queen))
	if dealerKnown {
		q := "qualifies"
		if !qualified {
			q = "does not qualify («pas de jeu»)"
		}
		e.Coup.Result = fmt.Sprintf("croupier %s (%s), %s", cardsText(e.dealer.cards), dv, q)
	} else if len(e.dealer.cards) > 0 {
		e.Coup.Result = "croupier's hand not seen"
	}
	for _, s := range e.used() {
		if s.void != "" {
			e.voidBox(s, "void hand: "+s.void)
			continue
		}
		if e.lateBox(s) {
			e.voidBox(s, "staked after «rien ne va plus» on a box dealt no cards, it plays no hand")
			continue
		}
		pv, known := rate3(s.cards)
		ev := join(s.ev, s.playEv, s.foldEv)
		full := join(ev, e.dealer.ev) // with the croupier's cards, for what depends on them
		var play *games.Stake
		total := s.play
		stakes := e.boxStakes(s.n)
		vs := ""
		if known && dealerKnown {
			vs = pv.String() + " against the croupier's " + dv.String()
		}
		for _, st := range stakes {
			if _, part, _ := parseSpot(st.Spot); part == "play" {
				play = st
				total += st.Amount
			}
		}
		if play == nil && s.play > 0 {
			play = &games.Stake{StakeKey: games.StakeKey{Spot: spotName(s.n, "play"), Player: s.player(s.playPlayer)}, Amount: s.play, Evidence: s.playEv}
		}
		// L474-L481: each player folds or raises, so a hand without JOUER at the showdown
		// has folded. Without a showdown (the croupier's hand never shown) its decision is
		// unknown.
		raised := total > 0
		folded := !raised && (s.folded || e.shown)
		undecided := !raised && !folded
		// Against a croupier who does not qualify a hand whose cards are never turned up
		// claimed no side-bet win (L533-L536, L551-L553).
		unclaimed := dealerKnown && !qualified && !anyFaceUp(s.cards)
		for _, st := range stakes {
			switch _, part, _ := parseSpot(st.Spot); part {
			case "ante":
				switch {
				case folded:
					// L477-L478: a fold gives up the initial stake.
					e.settle(st, st.Amount, games.Lose, -st.Amount, "the hand folded", ev)
				case undecided || !dealerKnown:
					e.unknown(st.StakeKey)
				case !qualified && !e.cfg.anteBonusUnqualified:
					// L488-L491: «Les mises initiales sont toujours payées à égalité».
					e.settle(st, st.Amount, games.Win, st.Amount, fmt.Sprintf("the croupier's %s does not qualify: the Ante is paid 1 to 1", dv), full)
				case !known:
					e.unknown(st.StakeKey)
				default:
					e.settleAnte(st, pv, dv, vs, qualified, full)
				}
			case "pairplus":
				// L538-L545: Pair Plus pays on the player's hand whatever the croupier holds.
				switch {
				case folded && !e.cfg.pairplusOnFold:
					e.settle(st, st.Amount, games.Lose, -st.Amount, "Pair Plus lost with the fold", ev)
				case folded && !anyFaceUp(s.cards):
					// L477-L478: the croupier takes a folded hand face down, counts it and burns
					// it; Pair Plus is paid on the cards, so a fold never turned up wins nothing
					// (as Trips at ultimate hold'em).
					e.settle(st, st.Amount, games.Lose, -st.Amount, "the hand folded face down and was never turned up: Pair Plus is lost", ev)
				case unclaimed:
					// L551-L553: with «pas de jeu» only a player who claims a winning hand has
					// his cards turned up and is paid; a hand never turned up made no claim.
					e.settle(st, st.Amount, games.Lose, -st.Amount, "the croupier does not qualify and no winning hand was claimed: Pair Plus is lost", full)
				case !known:
					e.unknown(st.StakeKey)
				default:
					e.settleTable(st, pv, pairPlusPays, "Pair Plus", ev)
				}
			case "bonus":
				// L520-L532: the bonus is for a player who raised, on a straight or better.
				switch {
				case folded:
					e.settle(st, st.Amount, games.Lose, -st.Amount, "the hand folded: the bonus is lost", ev)
				case unclaimed && !undecided:
					// L533-L536: likewise, only a claimed hand is turned up for the bonus.
					e.settle(st, st.Amount, games.Lose, -st.Amount, "the croupier does not qualify and no winning hand was claimed: the bonus is lost", full)
				case undecided || !known:
					e.unknown(st.StakeKey)
				default:
					e.settleTable(st, pv, bonusPays, "Bonus", ev)
				}
			}
		}
		if play == nil {
			continue
		}
		switch {
		case !dealerKnown:
			e.unknown(play.StakeKey)
		case !qualified:
			// L488-L491: «La mise JOUER est conservée par le joueur».
			e.settle(play, total, games.Push, 0, "the croupier does not qualify: JOUER is returned", full)
		case !known:
			e.unknown(play.StakeKey)
		default:
			ev := full
			switch e.compare(pv, dv) {
			case 1:
				// L511: «La relance est toujours payée à égalité».
				e.settle(play, total, games.Win, total, "wins, JOUER 1 to 1: "+vs, ev)
			case -1:
				e.settle(play, total, games.Lose, -total, "loses: "+vs, ev)
			default:
				e.settle(play, total, games.Push, 0, "tie: "+vs, ev)
			}
		}
	}
	return qualified, dealerKnown
}

// settleAnte settles the initial stake of a raised hand (L493-L510).
func (e *tcp) settleAnte(st *games.Stake, pv, dv hand.Value3, vs string, qualified bool, ev games.Evidence) {
	cmp := 1
	if qualified {
		cmp = e.compare(pv, dv)
	}
	switch cmp {
	case -1:
		e.settle(st, st.Amount, games.Lose, -st.Amount, "loses: "+vs, ev)
	case 0:
		e.settle(st, st.Amount, games.Push, 0, "tie: "+vs, ev)
	default:
		// L507-L510: 1 to 1, three of a kind 4 times, straight flush 5 times.
		switch pv.Category() {
		case hand.StraightFlush3:
			e.settle(st, st.Amount, games.Win, e.pays(st.Amount, 5, 1), "wins with a straight flush: Ante paid 5 times ("+vs+")", ev)
		case hand.Trips3:
			e.settle(st, st.Amount, games.Win, e.pays(st.Amount, 4, 1), "wins with three of a kind: Ante paid 4 times ("+vs+")", ev)
		default:
			e.settle(st, st.Amount, games.Win, st.Amount, "wins, Ante 1 to 1: "+vs, ev)
		}
	}
}

// pairPlusPays is the Pair Plus table (L544-L545).
func pairPlusPays(c hand.Category3) int64 {
	switch c {
	case hand.Pair3:
		return 1
	case hand.Flush3:
		return 3
	case hand.Straight3:
		return 6
	case hand.Trips3:
		return 30
	case hand.StraightFlush3:
		return 40
	}
	return 0
}

// bonusPays is the Bonus table (L532).
func bonusPays(c hand.Category3) int64 {
	switch c {
	case hand.Straight3:
		return 1
	case hand.Trips3:
		return 4
	case hand.StraightFlush3:
		return 5
	}
	return 0
}

func (e *tcp) settleTable(st *games.Stake, pv hand.Value3, table func(hand.Category3) int64, name string, ev games.Evidence) {
	n := table(pv.Category())
	if n == 0 {
		e.settle(st, st.Amount, games.Lose, -st.Amount, fmt.Sprintf("%s loses on %s", name, pv), ev)
		return
	}
	e.settle(st, st.Amount, games.Win, e.pays(st.Amount, n, 1), fmt.Sprintf("%s pays %d times on %s", name, n, pv), ev)
}

// checkOrder checks that a qualified croupier settled the hands counter-clockwise, from
// the highest box number down (art. 55-21, L493-L496). L494 has him «procède au ramassage
// des chances perdantes et au paiement des mains gagnantes»: either one counter-clockwise
// pass, hand by hand, or the losing chances collected first and the winners paid after,
// each pass counter-clockwise, is regular.
func (e *tcp) checkOrder(at *journal.Event) {
	var seq []moneyCopy
	for _, m := range e.paid {
		// A refund (a void hand, a push handed back) neither collects a loser nor pays a winner.
		if m.afterDealer && m.box != 0 && m.typ != journal.TypeRefund {
			seq = append(seq, m)
		}
	}
	bad := descending(seq)
	if bad < 0 {
		return
	}
	// Losers first, then winners: the collects, then the rest, each pass descending.
	split := 0
	for split < len(seq) && seq[split].typ == journal.TypeCollect {
		split++
	}
	rest := seq[split:]
	collectsAfter := false
	for _, m := range rest {
		collectsAfter = collectsAfter || m.typ == journal.TypeCollect
	}
	if split > 0 && !collectsAfter && descending(seq[:split]) < 0 && descending(rest) < 0 {
		return
	}
	// Or the losing hands first, then the winning ones, each pass counter-clockwise, each
	// hand's Pair Plus and Bonus settled with it («en même temps que la mise initiale et la
	// relance», L548-L549): a hand is in the losers' pass when its MISE lost.
	if e.handPasses(seq) {
		return
	}
	lastM, m := seq[bad-1], seq[bad]
	var ex games.Evidence
	ex.AddRef(lastM.line, lastM.frame)
	ex.AddRef(m.line, m.frame)
	e.find(at, rPaymentOrder, m.spot, m.player, games.Text(fmt.Sprintf("box %d settled before box %d", m.box, lastM.box)),
		games.Text(fmt.Sprintf("box %d settled after box %d", m.box, lastM.box)),
		fmt.Sprintf("%s on %s was settled after box %d; the croupier settles the hands counter-clockwise, from box 7 down to box 1", m.player, m.spot, lastM.box), ex)
}

// checkBonusOrder reports a box whose Bonus was paid before its raise (JOUER): «le paiement du
// bonus s'effectue ... après, le cas échéant, le paiement de la relance» (art. 55-21, L524-L525).
func (e *tcp) checkBonusOrder(at *journal.Event) {
	due := e.DueByStake()
	paidBonus := map[int]moneyCopy{}
	for _, m := range e.paid {
		if m.typ != journal.TypePayout || m.box == 0 || due[games.StakeKey{Spot: m.spot, Player: m.player}] <= 0 {
			continue
		}
		_, part, _ := parseSpot(m.spot)
		switch part {
		case "bonus":
			if _, seen := paidBonus[m.box]; !seen {
				paidBonus[m.box] = m
			}
		case "play":
			b, seen := paidBonus[m.box]
			if !seen {
				continue
			}
			var ex games.Evidence
			ex.AddRef(b.line, b.frame)
			ex.AddRef(m.line, m.frame)
			e.find(at, rBonusOrder, b.spot, b.player, games.Text("Bonus paid after JOUER"), games.Text("Bonus paid before JOUER"),
				fmt.Sprintf("%s's Bonus on box %d was paid before his raise (JOUER); the Bonus is paid after it", b.player, m.box), ex)
		}
	}
}

// handPasses reports whether seq is the losing hands' money then the winning hands', each part
// counter-clockwise. A hand whose MISE was neither won nor lost goes by the money itself.
func (e *tcp) handPasses(seq []moneyCopy) bool {
	anteDue := map[int]int64{}
	for k, d := range e.DueByStake() {
		if box, part, ok := parseSpot(k.Spot); ok && part == "ante" {
			anteDue[box] = d
		}
	}
	lost := func(m moneyCopy) bool {
		if d := anteDue[m.box]; d != 0 {
			return d < 0
		}
		return m.typ == journal.TypeCollect
	}
	split := 0
	for split < len(seq) && lost(seq[split]) {
		split++
	}
	for _, m := range seq[split:] {
		if lost(m) {
			return false
		}
	}
	return descending(seq[:split]) < 0 && descending(seq[split:]) < 0
}

// descending returns the index of the first money event on a higher box than the one
// before it, -1 when the boxes never go up.
func descending(seq []moneyCopy) int {
	for i := 1; i < len(seq); i++ {
		if seq[i].box > seq[i-1].box {
			return i
		}
	}
	return -1
}

// anyFaceUp reports whether any of the cards is known.
func anyFaceUp(cards []journal.Card) bool {
	for _, c := range cards {
		if !c.IsFaceDown() {
			return true
		}
	}
	return false
}
