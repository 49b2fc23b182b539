package dice

import (
	"fmt"
	"strconv"

	"github.com/coupwatch/coupwatch/games"
	"github.com/coupwatch/coupwatch/journal"
)

// crapsConfig is the table's craps rules options.
type crapsConfig struct {
	// highLow is the high-low multiple (AM 88-384 art. 6.3 B 12°, L447: 15 in the text).
	highLow int64
	// wallRequired makes a throw that hit no wall "no dice" (the text does not require it).
	wallRequired bool
	// repeat is the number of irregular throws by one player reported as repeated
	// violations (0 = never).
	repeat int
	// commission checks the 5% buy/lay commission against the journal's rake events.
	commission bool
	// placeWorking and comeOddsWorking make place bets and come odds play on the come-out.
	placeWorking bool
	// passOnComeOut lets a shooter hand the dice on between decisions (rules.dice_pass_on_come_out).
	passOnComeOut   bool
	comeOddsWorking bool
}

type crapsRules struct {
	payout, late, limit, noDice, repeated, shooterBet, dicePass                             games.Rule
	passLocked, dontPassAfterPoint, dontRaised, comeNeedsPoint, oddsWithoutFlat, commission games.Rule
}

// lineBet is a come or don't come bet that travelled to its number (AM 88-384 art. 6.3 A
// 3°-4°, L375, L381). The journal keeps reporting it under come / dont_come.
type lineBet struct {
	key      games.StakeKey
	dont     bool
	number   int
	amount   int64
	evidence games.Evidence
}

// working says whether a bet was called on or off by its player.
type working int8

const (
	byRule working = iota
	callOn
	callOff
)

type crapsEngine struct {
	games.Base
	cfg   crapsConfig
	rules crapsRules

	spots    map[string]spotEntry
	stakes   *games.Stakes
	placedIn map[games.StakeKey]int // coup sequence in which each stake was last set
	calls    map[games.StakeKey]working
	traveled []*lineBet
	point    int
	turns    turns
	seq      int
	// passTaken marks the players who took their pass line stake down while the point was on
	// (craps.pass_line_locked): until that point is decided the stake counts as their line
	// bet for the shooter rule (L349), so one breach is not reported twice.
	passTaken map[string]bool

	// The open coup.
	thrown      bool           // a dice event was seen
	dice        [2]int         // the coup's valid throw
	diceAt      games.Evidence // its line
	pointBefore int            // the point before the coup's valid throw
	void        bool           // the last throw was "no dice"
	result      string
	limitsDone  bool
	reduced     map[games.StakeKey]int64
	// rakeNext: a buy or lay bet was just held for the next throw; the rake after it goes too.
	rakeNext bool
	// freshBox marks the come and don't come bets put back in the box after its bet was
	// settled, held for the next coup: new bets in the box there.
	freshBox map[games.StakeKey]bool
	// pending holds the come and don't come bets that may restate a travelled bet, read at
	// the cut-off; restated the stakes carried into the coup that it restated at their amount.
	pending  []journal.Event
	restated map[games.StakeKey]bool
	telling  map[games.StakeKey]bool
	// decidedIn is the coup sequence in which each stake was last decided.
	decidedIn map[games.StakeKey]int
	// restates is what the journal showed last of restating the stakes still on the layout:
	// 1 it does, -1 it does not, 0 not shown yet.
	restates int8
	// comms are the commissions due on the buy and lay stakes placed this coup, each with the
	// rake events taken for it.
	comms []commission
	// strayRake holds the rake events taken when no buy or lay stake was waiting for one.
	strayRake games.Evidence
	strays    int64
	scratch   []*games.Stake
}

func newCraps(s games.Setup, cfg crapsConfig) *crapsEngine {
	g := s.Game
	e := &crapsEngine{
		Base:      games.NewBase(s),
		cfg:       cfg,
		spots:     make(map[string]spotEntry, 64),
		stakes:    games.NewStakes(),
		placedIn:  make(map[games.StakeKey]int),
		calls:     make(map[games.StakeKey]working),
		turns:     newTurns(cfg.repeat),
		reduced:   make(map[games.StakeKey]int64),
		restated:  make(map[games.StakeKey]bool),
		telling:   make(map[games.StakeKey]bool),
		decidedIn: make(map[games.StakeKey]int),
		freshBox:  make(map[games.StakeKey]bool),
		passTaken: make(map[string]bool),
	}
	e.rules = crapsRules{
		payout: g.Rule("craps.payout"), late: g.Rule("craps.late_bet"), limit: g.Rule("craps.bet_limit"),
		noDice: g.Rule("craps.no_dice"), repeated: g.Rule("craps.repeated_violations"),
		shooterBet: g.Rule("craps.shooter_bet"), dicePass: g.Rule("craps.dice_pass"),
		passLocked: g.Rule("craps.pass_line_locked"), dontPassAfterPoint: g.Rule("craps.dont_pass_after_point"),
		dontRaised: g.Rule("craps.dont_raised"), comeNeedsPoint: g.Rule("craps.come_needs_point"),
		oddsWithoutFlat: g.Rule("craps.odds_without_flat"), commission: g.Rule("craps.commission"),
	}
	return e
}

// spotEntry is a decoded spot and its name for people.
type spotEntry struct {
	sp   crapsSpot
	name string
}

// spot decodes a spot once per table; the runner has already checked it.
func (e *crapsEngine) spot(s string) crapsSpot { return e.entry(s).sp }

func (e *crapsEngine) entry(s string) spotEntry {
	if en, ok := e.spots[s]; ok {
		return en
	}
	sp, err := parseCrapsSpot(s)
	if err != nil {
		sp = crapsSpot{kind: kField} // unreachable after Check
	}
	en := spotEntry{sp: sp, name: spotName(sp)}
	e.spots[s] = en
	return en
}

// Apply implements games.Engine through the shared coup lifecycle (games.Base.Step).
func (e *crapsEngine) Apply(ev *journal.Event, out []games.Record) []games.Record {
	return e.Step(e, ev, out)
}

// Event implements games.Hooks: every event but coup_start and coup_end.
func (e *crapsEngine) Event(ev *journal.Event) {
	if ev.Type == journal.TypeRake && e.rakeNext {
		// The commission of a buy or lay stake held for the next throw goes with it.
		e.rakeNext = false
		e.HoldForNextCoup(ev)
		return
	}
	e.rakeNext = false
	dispatch(&e.Base, e, ev)
	if ev.Type == journal.TypeRake {
		e.rake(ev)
	}
}

// coupEvents are what a dice engine does with the events of a coup.
type coupEvents interface {
	games.Hooks
	bet(ev *journal.Event)
	cutOff(ev *journal.Event)
	action(ev *journal.Event)
	throw(ev *journal.Event)
}

// dispatch hands an event of the coup to the engine's handler, the coup opened first.
func dispatch(b *games.Base, e coupEvents, ev *journal.Event) {
	switch ev.Type {
	case journal.TypeBet:
		b.Ensure(e, ev)
		e.bet(ev)
	case journal.TypeNoMoreBets:
		b.Ensure(e, ev)
		e.cutOff(ev)
	case journal.TypeAction:
		b.Ensure(e, ev)
		e.action(ev)
	case journal.TypeDice:
		b.Ensure(e, ev)
		e.throw(ev)
	case journal.TypePayout, journal.TypeCollect, journal.TypeRefund, journal.TypeRake:
		b.Ensure(e, ev)
		b.Money.Add(ev)
	}
}

// Close implements games.Engine: the open coup is closed at the end of the input.
func (e *crapsEngine) Close(out []games.Record) []games.Record {
	return e.Finish(e, out)
}

// CoupStarted implements games.Hooks: the per-coup state is reset.
func (e *crapsEngine) CoupStarted(ev *journal.Event) {
	// The stakes that tell whether the journal restates what is still on the layout: those a
	// valid throw left standing undecided. The stakes of a «no dice» throw are written again
	// for the re-throw even by journals that restate nothing else (as in the public examples),
	// and a bet that stays after a win (a place bet) may be written again after its payment.
	clear(e.telling)
	if e.thrown && !e.void {
		for _, st := range e.stakes.All() {
			if sp := e.spot(st.Spot); sp.kind != kCome && sp.kind != kDontCome && st.Amount > 0 && e.decidedIn[st.StakeKey] != e.seq {
				e.telling[st.StakeKey] = true
			}
		}
	}
	e.seq++
	e.turns.startCoup()
	e.thrown, e.void, e.limitsDone, e.result = false, false, false, ""
	e.pointBefore = e.point
	clear(e.reduced)
	clear(e.restated)
	e.pending = e.pending[:0]
	e.comms, e.strayRake, e.strays = e.comms[:0], games.Evidence{}, 0
}

func (e *crapsEngine) action(ev *journal.Event) {
	switch ev.Action {
	case "shooter":
		// AM 88-384 art. 6.2 (L339) and 6.3 A 1° (L357): the dice change hands when the 7
		// that loses the pass line comes out.
		if why := e.turns.name(ev.Player, e.point > 0, !e.cfg.passOnComeOut); why != "" {
			e.Find(ev, e.rules.dicePass, "", ev.Player, games.Text("dice passed on a seven-out only"),
				games.Text(ev.Player+" shooting"), why)
		}
	case "working", "on":
		// L477, L485: come odds and place bets play on the come-out when the player asks.
		if ev.Spot != "" {
			e.calls[games.StakeKey{Spot: ev.Spot, Player: ev.Player}] = callOn
		}
	case "off", "no_action":
		// L385: a don't come stake may be left "en no action"; any bet that may be taken
		// down may be called off for a throw.
		if ev.Spot != "" {
			e.calls[games.StakeKey{Spot: ev.Spot, Player: ev.Player}] = callOff
		}
	}
}

func (e *crapsEngine) bet(ev *journal.Event) {
	k := games.StakeKey{Spot: ev.Spot, Player: ev.Player}
	// A later bet on a box whose bet waits for the cut-off: that one is read first.
	e.resolvePending(k)
	sp := e.spot(ev.Spot)
	existing := e.stakes.Get(k)
	if e.thrown && !e.void && e.Settled(k) > 0 && e.Money.Get(k) != nil {
		// The croupier already paid or collected this throw's decision on the stake: the
		// decision stands as settled, and what the player does with the spot now is for the
		// next throw. That is no late bet: this throw is over.
		e.nextThrow(ev, k, sp, existing)
		return
	}
	if existing == nil && ev.Amount == 0 && (sp.kind == kCome || sp.kind == kDontCome) {
		// Nothing in the come box: the player takes down a bet that travelled.
		if lb := e.lastTraveled(k); lb != nil {
			if e.Coup.CutOff {
				e.LateBet(ev, e.rules.late, lb.amount)
			}
			e.reduced[k] += lb.amount
			e.dropTraveled(lb)
			return
		}
	}
	fresh := e.freshBox[k]
	delete(e.freshBox, k)
	if existing == nil && ev.Amount > 0 && (sp.kind == kCome || sp.kind == kDontCome) && !fresh {
		// Nothing in the come box and a bet of this player's that travelled, at its amount.
		// A journal that restates what is still on the layout writes that bet so (the journal
		// keeps calling a travelled bet come / dont_come); one that does not is placing a new
		// bet in the box. Which one this journal does shows at the cut-off, in the other
		// stakes it restated or left unwritten.
		if lb := e.traveledAt(k, ev.Amount); lb != nil {
			if !e.Coup.CutOff {
				e.pending = append(e.pending, *ev)
				return
			}
			if e.restates >= 0 {
				lb.evidence.Add(ev)
				return
			}
			// A journal that does not restate: a new bet, placed late.
			e.place(ev, k, sp, existing)
			return
		}
		if lb := e.soleTraveled(k); lb != nil && sp.kind == kDontCome {
			// Another amount on a don't come that travelled, the box empty: that bet changed
			// (a bet is the stake the player now has on the spot). It may be reduced, never
			// increased (AM 88-384 art. 6.3 A 4°, L383); it is settled as placed.
			e.changeTraveled(ev, lb)
			return
		}
	}
	e.place(ev, k, sp, existing)
}

// journalRestates tells, from the stakes a valid throw left standing into this coup (come
// and don't come aside), whether the journal restates what is still on the layout: it does if
// it restated any of them at its amount, it does not if it left them all unwritten; a coup
// with none keeps what the last one showed, and a journal that never showed either is read
// as restating (the README's «each coup restates its bets»).
func (e *crapsEngine) journalRestates() bool {
	restated, left := 0, 0
	for k := range e.telling {
		st := e.stakes.Get(k)
		switch {
		case st == nil || st.Amount == 0:
		case e.restated[k]:
			restated++
		case e.placedIn[k] != e.seq:
			left++
		}
	}
	switch {
	case restated > 0:
		e.restates = 1
	case left > 0:
		e.restates = -1
	}
	return e.restates >= 0
}

// resolvePending reads the come and don't come bets held for the cut-off (only those of key k
// when k is not zero): restatements of travelled bets, or new bets in the box.
func (e *crapsEngine) resolvePending(k games.StakeKey) {
	if len(e.pending) == 0 {
		return
	}
	restates := e.journalRestates()
	kept := e.pending[:0]
	for _, ev := range e.pending {
		pk := games.StakeKey{Spot: ev.Spot, Player: ev.Player}
		if k != (games.StakeKey{}) && pk != k {
			kept = append(kept, ev)
			continue
		}
		existing := e.stakes.Get(pk)
		if lb := e.traveledAt(pk, ev.Amount); restates && existing == nil && lb != nil {
			lb.evidence.Add(&ev)
			continue
		}
		e.place(&ev, pk, e.spot(ev.Spot), existing)
	}
	e.pending = kept
}

// place sets a stake from a bet event: a restatement, a change (judged against what the
// table allows) or a new stake.
func (e *crapsEngine) place(ev *journal.Event, k games.StakeKey, sp crapsSpot, existing *games.Stake) {
	prev := int64(0)
	carried := false
	if existing != nil {
		prev = existing.Amount
		carried = e.placedIn[k] != e.seq
	}
	// A stake this throw decided, changed afterwards, whether it left the layout or stays on
	// it (place, buy, lay, big 6/8, hard ways): it is settled again as changed (raised: on the
	// new amount; withdrawn: as the journal last shows it, not at all).
	decided := int64(0)
	if e.thrown && !e.void {
		decided = e.Settled(k)
	}
	if existing == nil && decided > 0 {
		prev = decided
	}
	if ev.Amount == prev {
		if existing != nil {
			existing.Evidence.Add(ev)
			if carried && sp.kind != kCome && sp.kind != kDontCome {
				e.restated[k] = true
			}
		}
		return // a restatement
	}
	if decided > 0 {
		e.Unsettle(k)
	}
	late := e.Coup.CutOff
	if late {
		// AM 88-384 art. 6.2 (L339): the dice are passed once every stake is placed.
		e.LateBet(ev, e.rules.late, prev)
	}
	if !e.thrown || e.void {
		// After the dice the late bet is the one finding: what the table allows is judged on
		// the layout the dice were thrown on, not on the one they left.
		e.lifecycle(ev, sp, prev, carried)
	}
	if existing == nil && decided > 0 && ev.Amount == 0 {
		return // a decided stake that left the layout, taken back
	}
	st, _ := e.stakes.Set(ev, e.Coup.ID, late)
	if (existing == nil || decided > 0) && e.thrown && !e.void && st.Amount > 0 {
		// A stake placed after the dice came to rest (past-posting): the late bet is the
		// finding, and the stake is settled as placed, on the throw it was placed after.
		e.decide(st, e.pointBefore, e.dice[0], e.dice[1], e.diceAt)
		if e.stakes.Get(k) == nil {
			return // decided (or moved to its number)
		}
	}
	if ev.Amount > 0 {
		e.placedIn[k] = e.seq
	} else {
		delete(e.placedIn, k)
		delete(e.calls, k)
	}
	if ev.Amount < prev {
		e.reduced[k] += prev - ev.Amount
	}
	if ev.Amount > prev && (sp.kind == kBuy || sp.kind == kLay) {
		e.addCommission(k, sp, ev.Amount-prev, ev)
	}
	if late && e.limitsDone && st.Amount > 0 {
		e.checkLimit(st, ev)
	}
}

// nextThrow handles a bet on a spot whose stake this throw decided and the croupier settled:
// taken down (0), the stake leaves the layout now; left at its amount, nothing changes; any
// other amount is a bet for the next throw, held for the next coup (with the commission that
// follows a buy or lay), where it is judged like any bet placed then.
func (e *crapsEngine) nextThrow(ev *journal.Event, k games.StakeKey, sp crapsSpot, existing *games.Stake) {
	switch {
	case ev.Amount == 0:
		if existing != nil {
			e.stakes.Set(ev, e.Coup.ID, false)
		}
		delete(e.placedIn, k)
		delete(e.calls, k)
	case existing != nil && ev.Amount == existing.Amount:
		existing.Evidence.Add(ev)
	default:
		e.HoldForNextCoup(ev)
		e.rakeNext = sp.kind == kBuy || sp.kind == kLay
		if sp.kind == kCome || sp.kind == kDontCome {
			// A bet put back in the box the throw just emptied: a new bet there, not a
			// travelled bet restated or changed.
			e.freshBox[k] = true
		}
	}
}

// lifecycle checks what art. 6.3 allows a player to do with a stake that changed from prev.
func (e *crapsEngine) lifecycle(ev *journal.Event, sp crapsSpot, prev int64, carried bool) {
	amt := ev.Amount
	find := func(rule games.Rule, expected string, detail string) {
		e.Find(ev, rule, ev.Spot, ev.Player, games.Text(expected), games.Money(amt), detail)
	}
	switch sp.kind {
	case kPass:
		// L361: a pass line stake may be neither withdrawn nor reduced.
		if amt < prev && (e.point > 0 || carried) {
			what := "reduced his pass line stake from " + games.FormatCents(prev) + " to " + games.FormatCents(amt)
			if amt == 0 {
				what = "withdrew his pass line stake of " + games.FormatCents(prev)
				if e.point > 0 {
					e.passTaken[ev.Player] = true
				}
			}
			find(e.rules.passLocked, "at least "+games.FormatCents(prev), ev.Player+" "+what+"; a pass line stake may be neither withdrawn nor reduced")
		}
	case kDontPass:
		switch {
		case prev == 0 && amt > 0 && e.point > 0:
			// L367: no new don't pass once the point is known.
			find(e.rules.dontPassAfterPoint, "no don't pass stake", fmt.Sprintf("%s placed %s on don't pass while the point %d was on; don't pass is played on the come-out only", ev.Player, games.FormatCents(amt), e.point))
		case prev > 0 && amt > prev && (e.point > 0 || carried):
			// L369: a don't pass stake may not be increased.
			find(e.rules.dontRaised, "at most "+games.FormatCents(prev), fmt.Sprintf("%s raised his don't pass stake from %s to %s; it may be reduced or withdrawn, never increased", ev.Player, games.FormatCents(prev), games.FormatCents(amt)))
		}
	case kCome, kDontCome:
		name := "come"
		if sp.kind == kDontCome {
			name = "don't come"
		}
		switch {
		case prev == 0 && amt > 0 && e.point == 0:
			// L371, L377: come and don't come are played once the point is known.
			find(e.rules.comeNeedsPoint, "no "+name+" stake on a come-out", fmt.Sprintf("%s placed %s on %s with no point established; %s is played only once the point is known", ev.Player, games.FormatCents(amt), name, name))
		case sp.kind == kDontCome && prev > 0 && amt > prev && carried:
			// L383: a don't come stake may not be increased.
			find(e.rules.dontRaised, "at most "+games.FormatCents(prev), fmt.Sprintf("%s raised his don't come stake from %s to %s; it may never be increased", ev.Player, games.FormatCents(prev), games.FormatCents(amt)))
		}
	case kOddsPass, kOddsDontPass, kOddsCome, kOddsDontCome:
		// L459: odds only behind the player's own simple chance whose point is known.
		if amt > prev {
			if why := e.flatMissing(ev.Player, sp); why != "" {
				find(e.rules.oddsWithoutFlat, "the player's own flat bet with its point", fmt.Sprintf("%s placed %s on %s but %s; odds go only behind the player's own flat bet once its point is known", ev.Player, games.FormatCents(amt), ev.Spot, why))
			}
		}
	}
}

// flatMissing says why an odds bet has no flat bet of its player behind it ("" if it has).
func (e *crapsEngine) flatMissing(player string, sp crapsSpot) string {
	switch sp.kind {
	case kOddsPass, kOddsDontPass:
		flat := "pass"
		if sp.kind == kOddsDontPass {
			flat = "dont_pass"
		}
		if st := e.stakes.Get(games.StakeKey{Spot: flat, Player: player}); st == nil || st.Amount == 0 {
			return "he has no " + flat + " stake"
		}
		if e.point == 0 {
			return "no point is established"
		}
		return ""
	}
	dont := sp.kind == kOddsDontCome
	for _, lb := range e.traveled {
		if lb.key.Player == player && lb.dont == dont && lb.number == sp.n {
			return ""
		}
	}
	name := "come"
	if dont {
		name = "don't come"
	}
	return fmt.Sprintf("he has no %s bet on %d", name, sp.n)
}

func (e *crapsEngine) lastTraveled(k games.StakeKey) *lineBet {
	for i := len(e.traveled) - 1; i >= 0; i-- {
		if e.traveled[i].key == k {
			return e.traveled[i]
		}
	}
	return nil
}

// soleTraveled is the player's one bet that travelled from this box, or nil when he has none
// or several.
func (e *crapsEngine) soleTraveled(k games.StakeKey) *lineBet {
	var only *lineBet
	for _, lb := range e.traveled {
		if lb.key == k {
			if only != nil {
				return nil
			}
			only = lb
		}
	}
	return only
}

// changeTraveled sets a travelled don't come bet to the amount the journal now shows.
func (e *crapsEngine) changeTraveled(ev *journal.Event, lb *lineBet) {
	prev := lb.amount
	if e.Coup.CutOff {
		e.LateBet(ev, e.rules.late, prev)
	}
	if ev.Amount > prev {
		e.Find(ev, e.rules.dontRaised, ev.Spot, ev.Player, games.Text("at most "+games.FormatCents(prev)), games.Money(ev.Amount),
			fmt.Sprintf("%s raised his don't come stake on %d from %s to %s; it may never be increased", ev.Player, lb.number, games.FormatCents(prev), games.FormatCents(ev.Amount)))
	} else {
		e.reduced[lb.key] += prev - ev.Amount
	}
	lb.amount = ev.Amount
	lb.evidence.Add(ev)
	if ev.Amount > 0 {
		// The changed stake is a stake set in this coup: within the table's limits.
		e.checkLimit(&games.Stake{StakeKey: lb.key, Amount: ev.Amount, Evidence: lb.evidence}, ev)
	}
}

// traveledAt is the player's latest bet that travelled from this box with this amount, or nil.
func (e *crapsEngine) traveledAt(k games.StakeKey, amount int64) *lineBet {
	for i := len(e.traveled) - 1; i >= 0; i-- {
		if lb := e.traveled[i]; lb.key == k && lb.amount == amount {
			return lb
		}
	}
	return nil
}

func (e *crapsEngine) dropTraveled(lb *lineBet) {
	for i, x := range e.traveled {
		if x == lb {
			e.traveled = append(e.traveled[:i], e.traveled[i+1:]...)
			return
		}
	}
}

// commission is the 5% due on one buy or lay stake placed or raised, as the range between
// rounding down and up, and what the journal's rake events took for it.
type commission struct {
	key      games.StakeKey
	lo, hi   int64
	bet      games.Evidence
	taken    int64
	rakes    int
	evidence games.Evidence
}

// addCommission adds the 5% due on a buy stake (on the stake, L489) or a lay stake (on the
// win it can bring, L491).
func (e *crapsEngine) addCommission(k games.StakeKey, sp crapsSpot, added int64, ev *journal.Event) {
	num, den := int64(5), int64(100)
	if sp.kind == kLay {
		ln, ld := layOdds(sp.n)
		num, den = 5*ln, 100*ld
	}
	x := added * num
	lo := x / den
	hi := lo
	if x%den != 0 {
		hi++
	}
	c := commission{key: k, lo: lo, hi: hi}
	c.bet.Add(ev)
	e.comms = append(e.comms, c)
}

// rake gives a rake event to the buy or lay stake it was taken for: the journal writes it right
// after that stake, so it goes to the latest stake still without one. A rake matching what
// every such stake owes together was taken for all of them at once. A rake with no stake
// waiting is taken for nothing.
func (e *crapsEngine) rake(ev *journal.Event) {
	var open []int
	var lo, hi int64
	for i := range e.comms {
		if e.comms[i].rakes == 0 {
			open = append(open, i)
			lo, hi = lo+e.comms[i].lo, hi+e.comms[i].hi
		}
	}
	switch {
	case len(open) == 0:
		if n := len(e.comms); n > 0 {
			// A second rake for the last stake: it adds to what was taken for it.
			e.comms[n-1].take(ev)
			return
		}
		e.strays += ev.Amount
		e.strayRake.Add(ev)
	case len(open) > 1 && ev.Amount >= lo && ev.Amount <= hi && !e.comms[open[len(open)-1]].owes(ev.Amount):
		// One rake for all of them, what they owe together: each paid its share.
		for _, i := range open {
			c := &e.comms[i]
			c.take(ev)
			c.taken = c.lo
		}
	default:
		e.comms[open[len(open)-1]].take(ev)
	}
}

func (c *commission) take(ev *journal.Event) {
	c.taken += ev.Amount
	c.rakes++
	c.evidence.Add(ev)
}

// owes reports whether amount is the commission due on this stake.
func (c *commission) owes(amount int64) bool { return amount >= c.lo && amount <= c.hi }

// cutOff closes the bets; limits are checked on the stakes set in this coup.
func (e *crapsEngine) cutOff(ev *journal.Event) {
	if e.Coup.CutOff {
		return
	}
	e.resolvePending(games.StakeKey{})
	e.journalRestates()
	e.CloseBets(ev)
	e.checkLimits(ev)
}

func (e *crapsEngine) checkLimits(at *journal.Event) {
	if e.limitsDone {
		return
	}
	e.limitsDone = true
	for _, st := range e.stakes.All() {
		if e.placedIn[st.StakeKey] == e.seq {
			e.checkLimit(st, at)
		}
	}
}

func (e *crapsEngine) checkLimit(st *games.Stake, at *journal.Event) {
	min, max := e.Limits.For(st.Spot)
	e.CheckLimit(st, min, max, e.rules.limit, at)
}

// hasLineBet reports whether a player has a pass or don't pass stake (L349).
func (e *crapsEngine) hasLineBet(player string) bool {
	for _, spot := range [...]string{"pass", "dont_pass"} {
		if st := e.stakes.Get(games.StakeKey{Spot: spot, Player: player}); st != nil && st.Amount > 0 {
			return true
		}
	}
	return false
}

// voids reports whether a fault makes the throw "no dice" (L341, L345).
func (e *crapsEngine) voids(f string) bool {
	return f != "no_wall" || e.cfg.wallRequired
}

func (e *crapsEngine) throw(ev *journal.Event) {
	e.cutOff(ev)
	e.thrown = true
	shooter := e.turns.shooter
	if shooter != "" && !e.hasLineBet(shooter) && !e.passTaken[shooter] {
		// AM 88-384 art. 6.2 (L349): the shooter has a pass or don't pass stake before throwing.
		e.Find(ev, e.rules.shooterBet, "", shooter, games.Text("a pass or don't pass stake"), games.Text("none"),
			shooter+" threw the dice without a stake on pass or don't pass")
	}
	var faults []string
	for _, f := range ev.Faults {
		if e.voids(f) {
			faults = append(faults, f)
		}
	}
	if len(faults) > 0 || len(ev.Values) != 2 {
		e.noDice(ev, shooter, faults)
		return
	}
	e.void = false
	d1, d2 := ev.Values[0], ev.Values[1]
	e.settle(ev, d1, d2)
}

// noDice reports a "no dice" throw: nothing is decided (L345).
func (e *crapsEngine) noDice(ev *journal.Event, shooter string, faults []string) {
	e.void = true
	e.result = "no dice"
	why := faultWords(faults)
	if why == "" {
		why = "only one die seen"
	}
	e.result += " (" + why + ")"
	e.Find(ev, e.rules.noDice, "", shooter, games.Text("a regular throw"), games.Text(why),
		fmt.Sprintf("irregular throw (%s): «no dice», the throw decides nothing and any payment on it is wrong", why))
	if n, repeated := e.turns.fault(shooter); repeated {
		// L345: the chef de table may withdraw the turn of a player who repeatedly breaks
		// the throwing rules.
		e.Find(ev, e.rules.repeated, "", shooter, games.Text(fmt.Sprintf("fewer than %d irregular throws", e.cfg.repeat)),
			games.Text(fmt.Sprintf("%d irregular throws", n)),
			fmt.Sprintf("%s has made %d irregular throws: the chef de table may withdraw his turn to shoot", shooter, n))
	}
}

// decide resolves one stake on the throw d1-d2 with the point as it was before it: settled,
// moved to its number (a come or don't come), or left standing.
func (e *crapsEngine) decide(st *games.Stake, point, d1, d2 int, at games.Evidence) {
	en := e.entry(st.Spot)
	sp := en.sp
	v := resolveCraps(sp, point, d1, d2, e.plays(st.StakeKey, sp, point), e.cfg.highLow)
	switch v.res {
	case noDecision:
		return
	case travel:
		// L375, L381: the bet moves to the number thrown and waits for it.
		lb := &lineBet{key: st.StakeKey, dont: sp.kind == kDontCome, number: d1 + d2, amount: st.Amount, evidence: st.Evidence}
		e.traveled = append(e.traveled, lb)
		e.remove(st.StakeKey)
		return
	}
	e.decidedIn[st.StakeKey] = e.seq
	s := &games.Settlement{Spot: st.Spot, Player: st.Player, Stake: st.Amount, Evidence: st.Evidence}
	s.Evidence.Merge(at)
	e.outcome(s, v, strconv.Itoa(d1+d2)+" ("+strconv.Itoa(d1)+"-"+strconv.Itoa(d2)+")", en.name)
	e.Settle(s)
	if !stays(sp, v) {
		e.remove(st.StakeKey)
	}
}

// settle resolves every stake on a valid throw and moves the point.
func (e *crapsEngine) settle(ev *journal.Event, d1, d2 int) {
	t := d1 + d2
	point := e.point
	e.pointBefore = point
	var at games.Evidence
	at.Add(ev)
	thrown := strconv.Itoa(t) + " (" + strconv.Itoa(d1) + "-" + strconv.Itoa(d2) + ")"

	// Bets that travelled earlier are decided on their own number first (L375, L381).
	kept := e.traveled[:0]
	for _, lb := range e.traveled {
		if lb.dont && e.calls[lb.key] == callOff {
			// L385: a don't come left "en no action" waits on its number.
			kept = append(kept, lb)
			continue
		}
		var r result
		if lb.dont {
			r = dontPassLine(lb.number, t)
		} else {
			r = passLine(lb.number, t)
		}
		if r == noDecision {
			kept = append(kept, lb)
			continue
		}
		name := "come"
		if lb.dont {
			name = "don't come"
		}
		s := &games.Settlement{Spot: lb.key.Spot, Player: lb.key.Player, Stake: lb.amount, Evidence: lb.evidence}
		s.Evidence.Merge(at)
		e.outcome(s, lineVerdict(r), thrown, name+" on "+strconv.Itoa(lb.number))
		e.Settle(s)
	}
	clear(e.traveled[len(kept):])
	e.traveled = kept

	// Snapshot the stakes: deciding one may remove it.
	e.scratch = append(e.scratch[:0], e.stakes.All()...)
	for _, st := range e.scratch {
		e.decide(st, point, d1, d2, at)
	}
	e.dice = [2]int{d1, d2}
	e.diceAt = at

	if point == 0 {
		// L477, L485: «sauf demande expresse» is asked for a come-out; the next one is off again
		// unless asked again.
		for k, c := range e.calls {
			if c == callOn {
				delete(e.calls, k)
			}
		}
	}

	// Move the puck (L357).
	sevenOut := false
	result := thrown
	switch {
	case point == 0 && isPoint(t):
		e.point = t
		result += ", point " + strconv.Itoa(t)
	case point > 0 && t == point:
		e.point = 0
		clear(e.passTaken)
		result += ", point made"
	case point > 0 && t == 7:
		e.point = 0
		clear(e.passTaken)
		sevenOut = true
		result += ", seven-out"
	case point > 0:
		result += ", point " + strconv.Itoa(point)
	}
	e.result = result
	e.turns.valid(e.CoupID(), sevenOut)
}

// plays says whether a bet that may be off plays on this throw: place bets only once the
// point is known (L485) and come odds not on the come-out after a point was made (L477),
// unless the player asks; any bet its player called off stands aside.
func (e *crapsEngine) plays(k games.StakeKey, sp crapsSpot, point int) bool {
	call := e.calls[k]
	switch sp.kind {
	case kPlace:
		return call == callOn || (call != callOff && (point > 0 || e.cfg.placeWorking))
	case kOddsCome:
		return call == callOn || (call != callOff && (point > 0 || e.cfg.comeOddsWorking))
	case kOddsDontCome:
		// L385 with L459, L481: odds follow their don't come, so a don't come left "en no
		// action" holds its odds too.
		return call != callOff && e.calls[games.StakeKey{Spot: "dont_come", Player: k.Player}] != callOff
	case kBuy, kLay, kDontCome, kHard, kBig6, kBig8, kOddsPass, kOddsDontPass:
		// Bets the player may take down between throws (L395, L405-L409, L459) may be
		// called off for a throw as well: they work unless he does.
		return call != callOff
	}
	return true
}

// stays says whether a decided stake stays on the layout: a push leaves it (don't pass or
// don't come on 12, the world bet on 7), and the bets that wait for their number (place,
// buy, lay, big 6/8, hard ways) keep working after a win until taken down.
func stays(sp crapsSpot, v verdict) bool {
	if v.res == push {
		return sp.kind == kDontPass || sp.kind == kDontCome || sp.kind == kWorld
	}
	if v.res == win {
		switch sp.kind {
		case kPlace, kBuy, kLay, kBig6, kBig8, kHard:
			return true
		}
	}
	return false
}

func (e *crapsEngine) remove(k games.StakeKey) {
	e.stakes.Remove(k)
	delete(e.placedIn, k)
	delete(e.calls, k)
}

// outcome fills a settlement from a verdict; thrown and name describe the throw and the bet.
func (e *crapsEngine) outcome(s *games.Settlement, v verdict, thrown, name string) {
	switch v.res {
	case win:
		s.Outcome = games.Win
		s.Expected = e.Round.Due(s.Stake, v.num, v.den)
		s.Detail = thrown + ": " + name + " wins, paid " + describeOdds(v.num, v.den)
	case push:
		s.Outcome = games.Push
		s.Detail = thrown + ": " + name + " is a push, the stake stays"
	default:
		s.Outcome = games.Lose
		s.Expected = -s.Stake
		s.Detail = thrown + ": " + name + " loses"
	}
}

func spotName(sp crapsSpot) string {
	switch sp.kind {
	case kPass:
		return "pass line"
	case kDontPass:
		return "don't pass"
	case kCome:
		return "come"
	case kDontCome:
		return "don't come"
	case kField:
		return "field"
	case kBig6:
		return "big 6"
	case kBig8:
		return "big 8"
	case kHard:
		return "hard " + strconv.Itoa(sp.n)
	case kAny7:
		return "any seven"
	case kEleven:
		return "eleven"
	case kAnyCraps:
		return "any craps"
	case kCraps:
		return "craps " + strconv.Itoa(sp.n)
	case kHorn:
		return "horn"
	case kSevenEleven:
		return "7 and 11"
	case kCE:
		return "craps and eleven"
	case kThreeWay:
		return "three way craps"
	case kHighLow:
		return "high low"
	case kHornHigh:
		return "horn high " + strconv.Itoa(sp.n)
	case kWorld:
		return "world"
	case kOddsPass:
		return "pass odds"
	case kOddsDontPass:
		return "don't pass odds"
	case kOddsCome:
		return "come odds on " + strconv.Itoa(sp.n)
	case kOddsDontCome:
		return "don't come odds on " + strconv.Itoa(sp.n)
	case kPlace:
		return "place " + strconv.Itoa(sp.n)
	case kBuy:
		return "buy " + strconv.Itoa(sp.n)
	case kLay:
		return "lay " + strconv.Itoa(sp.n)
	}
	return fmt.Sprintf("hop %d-%d", sp.a, sp.b)
}

// FinishCoup closes the coup: stakes taken down and handed back, the buy/lay commission, then
// the framework's matching of settlements with the money the journal shows.
func (e *crapsEngine) FinishCoup(ev *journal.Event) {
	e.resolvePending(games.StakeKey{})
	if !e.limitsDone && e.stakes.Len() > 0 {
		e.checkLimits(ev)
	}
	if !e.thrown {
		// No throw seen: nothing was decided and the money moved cannot be judged (the
		// camera may have missed the dice).
		e.Money.Reset()
		e.result = "no throw"
	}
	e.handBack()
	e.standingMoney()
	if e.cfg.commission {
		e.checkCommission(ev)
	}
	e.Coup.Result = e.result
	e.EndCoup(ev, e.rules.payout)
}

// handBack settles as a push (0) the part of a stake the player took down when the journal
// shows the dealer handing it back, so the refund is not mistaken for a payment.
func (e *crapsEngine) handBack() {
	if len(e.reduced) == 0 {
		return
	}
	for _, k := range e.Money.Keys() {
		amt, ok := e.reduced[k]
		if !ok {
			continue
		}
		if o := e.Money.Get(k); o.Refunds == 0 {
			continue
		}
		e.Settle(&games.Settlement{Spot: k.Spot, Player: k.Player, Stake: amt, Outcome: games.Push,
			Detail: "stake taken down and handed back"})
	}
}

// standingMoney settles at 0 the stakes the throw did not decide but the journal shows money
// for, so the wrong payment is reported with the reason the stake was not due anything.
func (e *crapsEngine) standingMoney() {
	keys := e.Money.Keys()
	if len(keys) == 0 {
		return
	}
	for _, k := range keys {
		if hasSettlement(e.Pending(), k) {
			continue
		}
		var amount int64
		var ev games.Evidence
		if st := e.stakes.Get(k); st != nil {
			amount, ev = st.Amount, st.Evidence
		} else {
			for _, lb := range e.traveled {
				if lb.key == k {
					amount += lb.amount
					ev.Merge(lb.evidence)
				}
			}
		}
		if amount == 0 {
			continue // no stake at all: the framework reports the money as it is
		}
		s := &games.Settlement{Spot: k.Spot, Player: k.Player, Stake: amount, Outcome: games.Push, Evidence: ev,
			Detail: "not decided by this throw: the stake stands"}
		sp := e.spot(k.Spot)
		switch {
		case e.void:
			s.Outcome, s.Detail = games.Void, "no dice: nothing is decided and the stake stands"
		case e.calls[k] == callOff:
			s.Detail = "the bet was called off for this throw: a don't come left «en no action» (L385), or any bet the player called off"
		case !e.plays(k, sp, e.pointBefore):
			s.Detail = "the bet was off for this throw (place bets and come odds are off on the come-out unless asked, L477, L485)"
		}
		e.Settle(s)
	}
}

// checkCommission compares the rake events of the coup with the 5% due on each buy and lay
// stake placed in it (AM 88-384 art. 6.3 E-F, L489-L491), stake by stake. A stake with no
// rake event is a camera gap, not a finding.
func (e *crapsEngine) checkCommission(ev *journal.Event) {
	for i := range e.comms {
		c := &e.comms[i]
		if c.rakes == 0 || c.owes(c.taken) {
			continue
		}
		due := games.FormatCents(c.lo)
		if c.hi != c.lo {
			due += " to " + games.FormatCents(c.hi)
		}
		what := "of the stake"
		if sp := e.spot(c.key.Spot); sp.kind == kLay {
			what = "of the win the lay stake can bring"
		}
		ex := c.evidence
		ex.Merge(c.bet)
		d := e.Find(ev, e.rules.commission, c.key.Spot, c.key.Player, games.Text(due), games.Money(c.taken),
			fmt.Sprintf("the commission taken on %s %s was %s; 5%% %s is %s", c.key.Player, c.key.Spot, games.FormatCents(c.taken), what, due), ex)
		if c.taken > c.hi {
			d.Severity = games.Critical
		}
	}
	if e.strays > 0 {
		d := e.Find(ev, e.rules.commission, "", "", games.Money(0), games.Money(e.strays),
			fmt.Sprintf("a commission of %s was taken although no buy or lay stake was placed", games.FormatCents(e.strays)), e.strayRake)
		d.Severity = games.Critical
	}
}

// hasSettlement reports whether a settlement for the stake is queued (a few per coup: a scan
// beats a map).
func hasSettlement(pending []*games.Settlement, k games.StakeKey) bool {
	for _, s := range pending {
		if s.Spot == k.Spot && s.Player == k.Player {
			return true
		}
	}
	return false
}
