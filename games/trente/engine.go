package trente

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/coupwatch/coupwatch/games"
	"github.com/coupwatch/coupwatch/games/prison"
	"github.com/coupwatch/coupwatch/games/shoe"
	"github.com/coupwatch/coupwatch/journal"
)

// Findings raised at most once per coup.
const (
	onceDealNoir uint8 = 1 << iota // a dealing error on the noir row
	onceDealRouge
	onceEarly
	onceStop
)

type ruleSet struct {
	payout, late, limit, deal, choice, insurance, collect, order, stop, count, early games.Rule
}

type engine struct {
	games.Base
	cfg config
	r   ruleSet

	// The shoe, across coups.
	shoe   *shoe.Shoe
	excess [52]bool
	// stopSeen: the stop card came out (in coup stopCoup; "" between coups): the partie is over.
	stopSeen    bool
	stopCoup    string
	stopFlagged bool // a coup after the stop card was reported (once per shoe)
	deepFlagged bool // cards dealt from behind the stop card's place were reported
	// between holds the stop card and burns seen between coups, handled with the next coup.
	between   games.Between
	stakes    *games.Stakes
	prisoners []*prison.Prisoner
	// handedBack are the prisoners the end of the partie handed back in this coup: a coup that
	// restates its bets may still write them.
	handedBack   []*prison.Prisoner
	choices      *prison.Book
	once         uint8
	limitsDone   bool
	rows         [2][]journal.Card
	points       [2]int
	cards        int // cards dealt to the rows this coup
	known        bool
	seqAtResult  int
	seqLastCard  int  // the money sequence's length at the last row card
	void         bool // the stop card came out before the point was known
	stopThisCoup bool // the stop card came out in this coup (its last)
}

func newEngine(s games.Setup, cfg config) *engine {
	g := s.Game
	return &engine{
		Base:    games.NewBase(s),
		cfg:     cfg,
		shoe:    shoe.New(cfg.decks),
		stakes:  games.NewStakes(),
		choices: prison.NewBook(),
		r: ruleSet{
			payout: g.Rule(rulePayout), late: g.Rule(ruleLate), limit: g.Rule(ruleLimit), deal: g.Rule(ruleDeal),
			choice: g.Rule(ruleChoice), insurance: g.Rule(ruleInsurance), collect: g.Rule(ruleCollect),
			order: g.Rule(ruleOrder), stop: g.Rule(ruleStop), count: g.Rule(ruleCount), early: g.Rule(ruleEarlyCards),
		},
	}
}

// Apply implements games.Engine through the shared coup lifecycle (games.Base.Step).
func (e *engine) Apply(ev *journal.Event, out []games.Record) []games.Record {
	return e.Step(e, ev, out)
}

// Event implements games.Hooks: every event but coup_start and coup_end.
func (e *engine) Event(ev *journal.Event) {
	switch ev.Type {
	case journal.TypeBet:
		e.Ensure(e, ev)
		e.bet(ev)
	case journal.TypeNoMoreBets:
		e.Ensure(e, ev)
		e.noMoreBets(ev)
	case journal.TypeCard:
		if e.between.Hold(ev, e.Coup != nil) {
			break // a stop card or a burn between coups: the next coup's
		}
		e.Ensure(e, ev)
		e.card(ev)
	case journal.TypeAction:
		e.Ensure(e, ev)
		if ev.Action == "insurance" {
			e.insure(ev)
			break
		}
		e.choices.Record(ev)
	case journal.TypePayout, journal.TypeCollect, journal.TypeRefund, journal.TypeRake:
		e.Ensure(e, ev)
		e.Money.Add(ev)
	}
}

// Close implements games.Engine: the open coup is closed at the end of the input.
func (e *engine) Close(out []games.Record) []games.Record {
	return e.Finish(e, out)
}

// CoupStarted implements games.Hooks: the per-coup state is reset.
func (e *engine) CoupStarted(ev *journal.Event) {
	e.stakes.Reset()
	e.choices.Reset()
	e.once, e.limitsDone = 0, false
	e.rows[0], e.rows[1] = e.rows[0][:0], e.rows[1][:0]
	e.points = [2]int{}
	e.cards, e.known, e.seqAtResult, e.seqLastCard, e.void, e.stopThisCoup = 0, false, 0, 0, false, false
	if e.cfg.csm {
		// AM 88-384 art. 9 (L602): the cards go back into the machine after each coup.
		e.shoe.Reset()
		e.excess = [52]bool{}
	}
	e.handedBack = e.handedBack[:0]
	e.between.Release(func(ev *journal.Event) { e.stopCard(ev, true) }, e.deal)
}

// --- stakes ---

// restatesHandedBack reports whether ev writes again a prisoner the end of the partie handed
// back in this coup (its settlement, already made, is left as it is).
func (e *engine) restatesHandedBack(ev *journal.Event) bool {
	return slices.ContainsFunc(e.handedBack, func(p *prison.Prisoner) bool {
		return p.Key.Spot == ev.Spot && p.Key.Player == ev.Player && p.Initial == ev.Amount
	})
}

func (e *engine) bet(ev *journal.Event) {
	prev := int64(0)
	st := e.stakes.Get(games.StakeKey{Spot: ev.Spot, Player: ev.Player})
	if st == nil && (prison.Restates(e.prisoners, ev) || e.restatesHandedBack(ev)) {
		// A prisoner restated, even one the end of the partie has just handed back.
		return
	}
	if st != nil {
		prev = st.Amount
	}
	// Journal cut-off (no_more_bets or the first card): art. 9 deals the rows once the bets are down (L619).
	late := e.Coup.CutOff && ev.Amount != prev
	e.stakes.Set(ev, e.Coup.ID, late)
	if late {
		// The late bet is the finding: a late stake is not checked again against the limits, nor a
		// late insurance premium against its terms (one breach, one finding).
		e.LateBet(ev, e.r.late, prev)
	}
}

// insure takes a refait insurance written as an action (the spec's form for insurance): its
// amount is the premium it adds to insurance:S, S the action's spot (or the chance it insures),
// or the player's only chance staked when the action names none. AM 88-384 art. 9 (L629): the
// premium is paid with the stake, so one after the cut-off is late, as a bet is.
func (e *engine) insure(ev *journal.Event) {
	c, _, ok := parseSpot(ev.Spot)
	if !ok {
		n := 0
		for k := noir; k < numChances; k++ {
			if e.stakeOn(k, ev.Player) > 0 {
				c, n = k, n+1
			}
		}
		if n != 1 {
			return // no chance to insure can be told: nothing is added
		}
	}
	bet := *ev
	bet.Type, bet.Spot, bet.Action = journal.TypeBet, "insurance:"+c.String(), ""
	if st := e.stakes.Get(games.StakeKey{Spot: bet.Spot, Player: ev.Player}); st != nil {
		bet.Amount += st.Amount
	}
	e.bet(&bet)
}

func (e *engine) noMoreBets(ev *journal.Event) {
	// AM 88-384 art. 9 (L619): the tailleur deals the rows once the bets are closed.
	if e.cards > 0 && ev.Cause != "first_card" {
		e.findOnce(onceEarly, ev, e.r.early, "", "", games.Text("no more bets before the first card"),
			games.Text(fmt.Sprintf("announced after %d cards", e.cards)),
			fmt.Sprintf("bets were closed only after %s had been dealt to the rows", cardsCount(e.cards)))
	}
	e.cutOff(ev)
}

// cutOff closes the bets and checks the stakes as they stand.
func (e *engine) cutOff(ev *journal.Event) {
	e.CloseBets(ev)
	if e.limitsDone {
		return
	}
	e.limitsDone = true
	for _, st := range e.stakes.All() {
		e.checkStake(st, ev)
	}
}

func (e *engine) checkStake(st *games.Stake, at *journal.Event) {
	c, ins, _ := parseSpot(st.Spot)
	if !ins {
		// Table limits (table_open.limits).
		min, max := e.Limits.For(st.Spot)
		e.CheckLimit(st, min, max, e.r.limit, at)
		return
	}
	// AM 88-384 art. 9 (L629): 1% of a stake at least the house's threshold, paid with it.
	insured := e.stakeOn(c, st.Player)
	var why string
	switch {
	case insured == 0:
		why = fmt.Sprintf("%s has no stake on %s to insure", st.Player, c)
	case insured < e.cfg.insuranceMin:
		why = fmt.Sprintf("the stake of %s on %s is under the %s the house insures", games.FormatCents(insured), c, games.FormatCents(e.cfg.insuranceMin))
	case !premiumOK(st.Amount, insured):
		why = fmt.Sprintf("the premium of %s is not 1%% of the %s staked on %s", games.FormatCents(st.Amount), games.FormatCents(insured), c)
	}
	if why != "" {
		e.Find(at, e.r.insurance, st.Spot, st.Player, games.Text("1% of the stake on "+c.String()), games.Money(st.Amount),
			"refait insurance: "+why, st.Evidence)
	}
}

// premium returns the 1% refait premium an insurance bet stands for: 1% of it when the journal
// shows the insured amount (the player's whole stake on the chance), the amount itself otherwise,
// a wrong premium included (as taken; the wrong premium is its own finding).
func premium(amount, insured int64) int64 {
	if amount > 0 && amount == insured {
		return amount / 100
	}
	return amount
}

// premiumOK reports whether an insurance bet is 1% of the insured stake (either rounding), or
// the insured stake itself.
func premiumOK(amount, insured int64) bool {
	if amount*10 > insured {
		return amount == insured
	}
	return amount == insured/100 || amount == (insured+99)/100
}

// stakeOn returns a player's stake on a chance.
func (e *engine) stakeOn(c chance, player string) int64 {
	if st := e.stakes.Get(games.StakeKey{Spot: c.String(), Player: player}); st != nil {
		return st.Amount
	}
	return 0
}

func (e *engine) insured(c chance, player string) bool {
	st := e.stakes.Get(games.StakeKey{Spot: "insurance:" + c.String(), Player: player})
	return st != nil && st.Amount > 0
}

func cardsCount(n int) string {
	if n == 1 {
		return "1 card"
	}
	return strconv.Itoa(n) + " cards"
}

func (e *engine) findOnce(flag uint8, ev *journal.Event, r games.Rule, spot, player string, exp, obs games.Value, detail string) {
	if e.once&flag != 0 {
		return
	}
	e.once |= flag
	e.Find(ev, r, spot, player, exp, obs, detail)
}

// --- cards ---

func cardPoints(c journal.Card) int {
	// AM 88-384 art. 9 (L613): «les figures valent 10 points, les autres cartes étant comptées pour leur valeur».
	if c.Rank >= journal.Ten {
		return 10
	}
	return int(c.Rank)
}

func (e *engine) card(ev *journal.Event) {
	switch ev.To {
	case "stop":
		e.stopCard(ev, false)
		return
	case "burn":
		e.deal(ev)
		return
	}
	row := 0
	if ev.To == "rouge" {
		row = 1
	}
	if e.cards == 0 {
		// The first card closes the bets if no announcement did.
		e.cutOff(ev)
		if e.stopSeen && e.stopCoup != e.Coup.ID && !e.stopFlagged && !e.cfg.csm {
			// AM 88-384 art. 9 (L594): «cette carte marque la fin de la partie».
			e.stopFlagged = true
			e.findOnce(onceStop, ev, e.r.stop, "", "", games.Text("no coup after the stop card"), games.Text("coup dealt"),
				"a coup was dealt after the stop card had marked the end of the partie")
		}
	}
	e.cards++
	e.deal(ev)
	e.Coup.Evidence.Add(ev)
	// AM 88-384 art. 9 (L615, L619): the noir row first, then the rouge row, each «jusqu'au point».
	// One finding a row: a row stopped short and then dealt on after the other began is one error.
	var why string
	once := onceDealNoir
	switch {
	case row == 0 && len(e.rows[1]) > 0:
		why = "a card went to the noir row after the rouge row had begun"
	case row == 0 && e.points[0] > 30:
		why = fmt.Sprintf("a card went to the noir row after its point (%d) had passed 30", e.points[0])
	case row == 1 && e.points[0] <= 30:
		why = fmt.Sprintf("the rouge row began before the noir row had passed 30 (%d)", e.points[0])
	case row == 1 && e.points[1] > 30:
		why, once = fmt.Sprintf("a card went to the rouge row after its point (%d) had passed 30", e.points[1]), onceDealRouge
	}
	if why != "" {
		e.findOnce(once, ev, e.r.deal, "", "", games.Text("noir then rouge, each until it passes 30"), games.Text(ev.To+" "+ev.Card.String()), why)
	}
	e.rows[row] = append(e.rows[row], ev.Card)
	e.points[row] += cardPoints(ev.Card)
	e.seqLastCard = len(e.Money.Seq)
	if !e.known && e.points[0] > 30 && e.points[1] > 30 {
		e.known, e.seqAtResult = true, len(e.Money.Seq)
	}
}

// deal counts a card out of the shoe: composition (AM 88-384 art. 1.4, L85) and the cards behind
// the stop card's place (L594).
func (e *engine) deal(ev *journal.Event) {
	c := ev.Card
	if !e.shoe.Deal(c) && !c.IsFaceDown() && !e.excess[c.Index()] {
		e.excess[c.Index()] = true
		e.Find(ev, e.r.count, "", "", games.Text(fmt.Sprintf("at most %d × %s", e.shoe.Decks(), c)), games.Text(fmt.Sprintf("%d × %s", e.shoe.Seen(c), c)),
			fmt.Sprintf("the %s has come out %d times from %d decks: a card in excess or foreign to the decks", c, e.shoe.Seen(c), e.shoe.Decks()))
	}
	if !e.cfg.csm && !e.stopSeen && !e.deepFlagged && e.shoe.Remaining() < cardsBehindStop {
		e.deepFlagged = true
		e.Find(ev, e.r.stop, "", "", games.Text(fmt.Sprintf("the stop card before the last %d cards", cardsBehindStop)),
			games.Text(fmt.Sprintf("%d cards left and no stop card", max(e.shoe.Remaining(), 0))),
			fmt.Sprintf("%d cards of the %d-deck shoe were dealt without the stop card, which lies before the last %d", e.shoe.Dealt(), e.shoe.Decks(), cardsBehindStop))
	}
}

// stopCard handles the stop card; between is set for one seen between coups.
func (e *engine) stopCard(ev *journal.Event, between bool) {
	if e.cfg.csm {
		// AM 88-384 art. 9 (L598): «il n'y a ni coupe ni carte d'arrêt».
		e.findOnce(onceStop, ev, e.r.stop, "", "", games.Text("no stop card"), games.Text("stop card"),
			"a stop card came out at a table dealt from a continuous shuffling machine, which has none")
		return
	}
	if !e.stopSeen {
		e.stopSeen = true
		e.stopCoup = e.Coup.ID
		if between {
			e.stopCoup = ""
		}
		// One breach, one finding: cards already dealt from behind its place were reported.
		if left := e.shoe.Remaining(); left < cardsBehindStop && !e.deepFlagged {
			e.deepFlagged = true
			e.findOnce(onceStop, ev, e.r.stop, "", "", games.Text(fmt.Sprintf("%d cards behind the stop card", cardsBehindStop)),
				games.Text(fmt.Sprintf("%d behind it", max(left, 0))),
				fmt.Sprintf("the stop card came out with %d cards behind it; it lies before the last %d", max(left, 0), cardsBehindStop))
		}
	}
	if between {
		// AM 88-384 art. 9 (L594): the stop card seen after the last coup ended the partie there:
		// the stakes still in prison are handed back now (art. 8.2, L556), not played on.
		var ex games.Evidence
		ex.Add(ev)
		e.endPartie(ex)
		return
	}
	e.stopThisCoup = true
	// AM 88-384 art. 9 (L594): the stop card «annule le coup dès qu'elle apparaît, lorsque le point n'est pas connu».
	if !e.known {
		e.void = true
	}
}

// --- settlement ---

func (e *engine) FinishCoup(ev *journal.Event) {
	if !e.limitsDone && e.stakes.Len() > 0 {
		e.limitsDone = true
		for _, st := range e.stakes.All() {
			e.checkStake(st, ev)
		}
	}
	var ex games.Evidence
	ex.Merge(e.Coup.Evidence)
	dealOver := e.CoupOver(ev) || len(e.Money.Seq) > e.seqLastCard // coup_end or the next coup_start, or money after the cards
	if dealOver && !e.known && !e.void && len(e.rows[0]) > 0 && len(e.rows[1]) > 0 {
		// AM 88-384 art. 9 (L613, L619): each row is dealt «jusqu'au point», past 30. The coup
		// ended on a row short of it: the dealing error is reported, and the stakes are settled
		// on the cards as dealt, the point nearer 30 winning (L615). A journal that stops
		// mid-deal (no coup_end, no money after the cards) shows no end of the deal.
		for row, name := range [2]string{"noir", "rouge"} {
			if e.points[row] <= 30 {
				e.findOnce([2]uint8{onceDealNoir, onceDealRouge}[row], ev, e.r.deal, "", "", games.Text(name+" dealt past 30"), games.Text(fmt.Sprintf("%s stopped at %d", name, e.points[row])),
					fmt.Sprintf("the %s row was stopped at %d, before its point had passed 30", name, e.points[row]))
			}
		}
		e.known, e.seqAtResult = true, e.seqLastCard
	}
	switch {
	case e.void:
		e.Coup.Result = "void: stop card before the point was known"
		e.settleVoid(ex)
	case !e.known:
		// No result seen: nothing can be settled, and the dealer's money cannot be judged,
		// but for the prisoners handed back when a stop card ended the partie before this
		// coup (settled in it, L594).
		e.Coup.Result = "no result"
		due := e.DueByStake()
		e.Money.Keep(func(k games.StakeKey) bool { _, ok := due[k]; return ok })
	default:
		e.settle(ex)
		e.checkOrder(ev)
	}
	if e.known || e.void {
		// AM 88-384 art. 9 (L627) with art. 8.2 (L551-L556): the choice exists only at a refait.
		for _, u := range e.choices.Unused() {
			why := "there was no refait"
			if e.points[0] == 31 && e.points[1] == 31 {
				why = "the player has no stake there to share or imprison"
			}
			e.Find(nil, e.r.choice, u.Key.Spot, u.Key.Player, games.Text("no choice"), games.Text(string(u.Choice)),
				fmt.Sprintf("%s chose %s on %s, but %s", u.Key.Player, u.Choice, u.Where(), why), u.Evidence)
		}
	}
	e.EndCoup(ev, e.r.payout)
}

// settleVoid returns every stake of a voided coup; prisoners see the partie end.
func (e *engine) settleVoid(ex games.Evidence) {
	for _, st := range e.stakes.All() {
		s := &games.Settlement{Spot: st.Spot, Player: st.Player, Stake: st.Amount, Outcome: games.Void,
			Detail: "the stop card voided the coup: the stake is returned", Evidence: st.Evidence}
		s.Evidence.Merge(ex)
		e.Settle(s)
	}
	e.endPartie(ex)
}

// endPartie hands back the stakes still in prison at the last-coup rate (AM 88-384 art. 8.2,
// L556: ½, ¼, ⅛ ... of the initial stake).
func (e *engine) endPartie(ex games.Evidence) {
	if !e.cfg.halfAtEnd || len(e.prisoners) == 0 {
		return
	}
	held := e.prisoners
	e.prisoners = nil
	e.handedBack = append(e.handedBack, held...)
	for _, p := range held {
		back := prison.ShareBack(e.Round, p.Initial, prison.ShareZeros(p.Zeros, e.cfg.reducedRelease))
		s := &games.Settlement{Spot: p.Key.Spot, Player: p.Key.Player, Stake: p.Initial, Outcome: games.Half,
			Expected: back - p.Initial, Evidence: p.Evidence,
			Detail: fmt.Sprintf("the partie ended with the stake in prison: %s handed back", games.FormatCents(back))}
		s.Evidence.Merge(ex)
		e.Settle(s)
	}
}

func (e *engine) settle(ex games.Evidence) {
	pn, pr := e.points[0], e.points[1]
	refait := pn == 31 && pr == 31
	tie := pn == pr && !refait
	var wins [numChances]bool
	if !refait && !tie {
		// AM 88-384 art. 9 (L615-L617): the point nearer 30 wins; couleur when the first card of
		// the first row has the winning row's colour.
		winner := noir
		if dist30(pr) < dist30(pn) {
			winner = rouge
		}
		wins[winner] = true
		first := e.rows[0][0]
		sameColour := first.Red() == (winner == rouge)
		if sameColour {
			wins[couleur] = true
		} else {
			wins[inverse] = true
		}
	}
	e.Coup.Result = e.resultText(refait, tie, wins)
	last := e.stopThisCoup && e.cfg.halfAtEnd

	// Stakes in prison from earlier refaits (AM 88-384 art. 8.2, L554-L556, by art. 9 L627).
	if len(e.prisoners) > 0 {
		held := e.prisoners
		e.prisoners = nil
		for _, p := range held {
			e.settlePrisoner(p, refait, tie, wins, last, ex)
		}
	}
	for _, st := range e.stakes.All() {
		c, ins, _ := parseSpot(st.Spot)
		s := &games.Settlement{Spot: st.Spot, Player: st.Player, Stake: st.Amount, Evidence: st.Evidence}
		switch {
		case ins:
			// The premium is table income (L629).
			p := premium(st.Amount, e.stakeOn(c, st.Player))
			s.Outcome, s.Expected = games.Lose, -p
			s.Detail = fmt.Sprintf("refait insurance premium of %s on %s, table income", games.FormatCents(p), c)
		case refait && e.insured(c, st.Player):
			e.choices.Decide(st.StakeKey, st.Amount, 1, prison.Prison, e.Round, nil)
			s.Outcome, s.Detail = games.Push, "refait 31: the stake is insured against the refait and returned whole"
		case refait:
			e.refait(st.StakeKey, st.Amount, 1, s, last)
		case tie:
			// AM 88-384 art. 9 (L627): «le coup est nul».
			s.Outcome, s.Detail = games.Push, "equal points "+strconv.Itoa(pn)+": coup nul"
		case wins[c]:
			s.Outcome, s.Expected = games.Win, e.Round.Due(st.Amount, 1, 1)
			s.Detail = "the chance wins: paid even money (L608)"
		default:
			s.Outcome, s.Expected = games.Lose, -st.Amount
			s.Detail = "the chance loses"
		}
		e.Settle(s)
	}
	if last {
		e.endPartie(ex)
	}
}

func dist30(p int) int {
	if p < 30 {
		return 30 - p
	}
	return p - 30
}

// refait applies the roulette zero rules to a stake at its n-th refait (AM 88-384 art. 9 L627,
// art. 8.2 L551-L556): half handed back, or the stake to prison. On the last coup of the partie
// the player must accept the share.
func (e *engine) refait(k games.StakeKey, amount int64, n int, s *games.Settlement, last bool) {
	at := prison.ShareZeros(n, e.cfg.reducedRelease)
	choice, ex := e.choices.Decide(k, amount, at, prison.Choice(e.cfg.refaitChoice), e.Round, e.Money)
	s.Evidence.Merge(ex)
	if last {
		choice = prison.Share
	}
	if choice == prison.Share {
		back := prison.ShareBack(e.Round, amount, at)
		s.Outcome, s.Expected = games.Half, back-amount
		s.Detail = fmt.Sprintf("refait 31: the stake is shared, %s handed back", games.FormatCents(back))
		if last {
			s.Detail += " (last coup of the partie)"
		}
		return
	}
	s.Outcome, s.Expected = games.Prison, 0
	s.Detail = "refait 31: the stake goes to prison"
	p := &prison.Prisoner{Key: k, Initial: amount, Zeros: n}
	p.Evidence.Merge(s.Evidence)
	e.prisoners = append(e.prisoners, p)
}

func (e *engine) settlePrisoner(p *prison.Prisoner, refait, tie bool, wins [numChances]bool, last bool, ex games.Evidence) {
	c, _, _ := parseSpot(p.Key.Spot)
	s := &games.Settlement{Spot: p.Key.Spot, Player: p.Key.Player, Stake: p.Initial, Evidence: p.Evidence}
	s.Evidence.Merge(ex)
	switch {
	case refait:
		e.refait(p.Key, p.Initial, p.Zeros+1, s, last)
		s.Detail += fmt.Sprintf(" (refait number %d for this stake)", p.Zeros+1)
	case tie && !e.cfg.tieLoses:
		e.prisoners = append(e.prisoners, p)
		if last {
			return // the partie ends with it in prison: endPartie hands it back
		}
		s.Outcome, s.Detail = games.Prison, "coup nul: the stake stays in prison"
	case wins[c]:
		value := prison.ReleaseValue(e.Round, p.Initial, p.Zeros, e.cfg.reducedRelease)
		s.Outcome, s.Expected = games.Released, value-p.Initial
		s.Detail = fmt.Sprintf("%s wins: the stake in prison is released unpaid", c)
		if value != p.Initial {
			s.Detail += fmt.Sprintf(", worth %s after %d refaits", games.FormatCents(value), p.Zeros)
		}
	default:
		s.Outcome, s.Expected = games.Lose, -p.Initial
		s.Detail = fmt.Sprintf("%s loses: the stake in prison is lost", c)
	}
	e.Settle(s)
}

// checkOrder checks the dealer's money after the result (AM 88-384 art. 9, L623): losers
// removed first, then payments inverse, noir or rouge, couleur.
func (e *engine) checkOrder(ev *journal.Event) {
	firstPay := -1
	maxRank, maxAt := -1, -1
	collectDone, orderDone := !e.cfg.collectFirst, !e.cfg.payOrder
	seq := e.Money.Seq
	due := e.DueByStake()
	// L621-L623: once both rows are out the tailleur announces the result, then the losers are
	// removed and the winners paid (the premium is taken with the stake).
	e.SettledEarly(ev, e.r.collect, seq, e.seqAtResult, func(m games.MoneyEvent) bool {
		_, ins, ok := parseSpot(m.Key.Spot)
		return ok && !ins
	}, "both rows were out")
	for i := e.seqAtResult; i < len(seq); i++ {
		m := seq[i]
		c, ins, ok := parseSpot(m.Key.Spot)
		if !ok || ins {
			continue // the insurance premium is taken with the stake
		}
		// Only a winner's payment and a loser's collection take part in the order: a loser paid
		// or a winner collected is a wrong payout, reported once as such.
		if !games.AsDue(due, m) {
			continue
		}
		switch m.Type {
		case journal.TypeCollect:
			if firstPay >= 0 && !collectDone {
				collectDone = true
				var ex games.Evidence
				ex.AddRef(seq[firstPay].Line, "")
				ex.AddRef(m.Line, "")
				e.Find(ev, e.r.collect, m.Key.Spot, m.Key.Player, games.Text("losing stakes removed before any payment"),
					games.Text("collected after a payment"),
					fmt.Sprintf("%s's stake on %s was collected after %s on %s had been paid; losing stakes are removed first",
						m.Key.Player, m.Key.Spot, seq[firstPay].Key.Player, seq[firstPay].Key.Spot), ex)
			}
		case journal.TypePayout:
			if firstPay < 0 {
				firstPay = i
			}
			r := payRank(c)
			if r < maxRank && !orderDone {
				orderDone = true
				var ex games.Evidence
				ex.AddRef(seq[maxAt].Line, "")
				ex.AddRef(m.Line, "")
				e.Find(ev, e.r.order, m.Key.Spot, m.Key.Player, games.Text(fmt.Sprintf("%s paid before %s", c, seq[maxAt].Key.Spot)),
					games.Text(fmt.Sprintf("%s paid after %s", c, seq[maxAt].Key.Spot)),
					fmt.Sprintf("%s on %s was paid after %s on %s; payments go inverse, then noir or rouge, then couleur",
						m.Key.Player, m.Key.Spot, seq[maxAt].Key.Player, seq[maxAt].Key.Spot), ex)
			}
			if r > maxRank {
				maxRank, maxAt = r, i
			}
		}
	}
}

// payRank is a chance's place in the order of payments (L623): inverse, noir or rouge, couleur.
func payRank(c chance) int {
	switch c {
	case inverse:
		return 0
	case couleur:
		return 2
	}
	return 1
}

func (e *engine) resultText(refait, tie bool, wins [numChances]bool) string {
	s := "noir " + strconv.Itoa(e.points[0]) + ", rouge " + strconv.Itoa(e.points[1])
	switch {
	case refait:
		return s + ": refait"
	case tie:
		return s + ": coup nul"
	}
	row, colour := "noir", "couleur"
	if wins[rouge] {
		row = "rouge"
	}
	if wins[inverse] {
		colour = "inverse"
	}
	return s + ": " + row + " and " + colour + " win"
}
