package blackjack

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/coupwatch/coupwatch/games"
	"github.com/coupwatch/coupwatch/games/shoe"
	"github.com/coupwatch/coupwatch/journal"
)

// phase is where a coup's deal stands.
type phase uint8

const (
	betting phase = iota // no card dealt face up yet
	dealing              // the initial deal: a card to each box, the croupier's, a second card to each box
	playing              // the players play their hands, then the croupier draws
)

// Findings raised at most once per coup.
const (
	onceDeal uint16 = 1 << iota
	oncePlay
	onceDealer
	onceFaceUp
	onceBurn
	onceStop
	onceHole     // a second croupier card during the deal
	onceBurnPlay // a card burnt once the deal had begun
)

type chipKind uint8

const (
	chipSplit chipKind = iota
	chipDouble
)

// chips are the stake an action added to a hand (a split or a double).
type chips struct {
	player string
	amount int64
	kind   chipKind
	ev     games.Evidence
}

// hand is one hand of a box: the box's only hand, or hand H of a split box.
type hand struct {
	box   *box
	spot  string // box:N, or box:N.H once the box is split
	cards []journal.Card
	adds  []chips
	// doubledAt is the number of cards the hand held when it was doubled (0 = not doubled).
	doubledAt   int
	splitAces   bool
	stood       bool
	allow       int // cards asked for (hit, double) and not dealt yet
	busted      bool
	bustPending bool // busted and not collected yet
	bustLate    bool // play moved on while the bust was not collected
	cardFlagged bool
	ev          games.Evidence // the lines of its cards
}

func (h *hand) doubled() bool { return h.doubledAt > 0 }

// closedWhy says why a hand may take no further card ("" when it may).
func (h *hand) closedWhy() string {
	switch {
	case h.busted:
		return "the hand was already over 21"
	case h.doubled() && len(h.cards) > h.doubledAt:
		return "the hand was doubled and had its one card"
	case h.splitAces && len(h.cards) >= 2:
		return "a split ace takes one card only"
	case h.stood:
		return "the player had stood"
	}
	return ""
}

// box is a player box and its hands.
type box struct {
	n     int
	spot  string
	hands []*hand
	split bool
	// init holds the box's first two cards (Perfect Pairs, 21+3).
	init  [2]journal.Card
	nInit int
}

// hand returns hand hi of the box (0 or 1: the first), creating missing hands of a split the
// journal did not show.
func (b *box) hand(hi int) *hand {
	if hi <= 1 {
		return b.hands[0]
	}
	for len(b.hands) < hi {
		b.splitNow()
		b.hands = append(b.hands, &hand{box: b, spot: b.spot + "." + strconv.Itoa(len(b.hands)+1)})
	}
	return b.hands[hi-1]
}

// splitNow marks the box split: its first hand becomes box:N.1.
// firstCard returns the box's i-th initial card as its hands hold it now (a split moved the
// second into the second hand); a face-down card while it is not there.
func (b *box) firstCard(i int) journal.Card {
	h, j := b.hands[0], i
	if b.split && i == 1 && len(b.hands) > 1 {
		h, j = b.hands[1], 0
	}
	if j < len(h.cards) {
		return h.cards[j]
	}
	return journal.Card{}
}

func (b *box) splitNow() {
	if !b.split {
		b.split = true
		b.hands[0].spot = b.spot + ".1"
	}
}

type insured struct {
	key    games.StakeKey
	amount int64
	ev     games.Evidence
}

type ruleSet struct {
	payout, late, limit, burn, stop, count, faceUp, dealOrder, playOrder, playerCards, hit,
	double, split, insurance, evenMoney, sideBet, dealerDraw, bustCollect, settleOrder, sideOrder, action, standing games.Rule
}

type engine struct {
	games.Base
	cfg config
	r   ruleSet

	// The shoe, across coups.
	shoe   *shoe.Shoe
	excess [52]bool // cards already reported in excess in this shoe
	// expectBurns: the next deal opens a shoe that must start with its burns.
	expectBurns bool
	// shoeKnown: the shoe is watched from its start (its burns, or rules.fresh_shoe_at_open), so
	// the cards left behind the stop card can be counted.
	shoeKnown bool
	// stopSeen: the stop card came out (in coup stopCoup, "" between coups).
	stopSeen bool
	stopCoup string
	// between holds the stop card and the burns seen between coups (a new shoe prepared after
	// coup_end), handled with the next coup.
	between games.Between

	stakes *games.Stakes
	spots  []string // "box:N" by N
	spare  []*box   // boxes of the last coup, for reuse

	// The coup.
	ph         phase
	once       uint16
	limitsDone bool
	// handMax holds the boxes whose stakes were reported over the hand's maximum this coup.
	handMax  []int
	burns    int
	dealer   []journal.Card
	dealerEv games.Evidence
	boxes    []*box
	// The initial deal: the boxes to deal (by number) and the expected order of the cards
	// (box numbers, 0 for the croupier), with the position reached.
	targets        []int
	expect         []int
	pos            int
	cardsAfterDeal int
	curBox         int
	dealerDrew     bool
	seqAtDealer    int
	// seqAtPoint is how many money events the coup had at the croupier's last card.
	seqAtPoint   int
	insured      []insured
	evenMoney    []games.StakeKey
	pendingBusts []*hand
	// lateDeal: boxes whose stake came after the cut-off, dealt without order checks.
	lateDeal  []int
	lastSplit struct {
		from, to *hand
		player   string
	}
}

func newEngine(s games.Setup, cfg config) *engine {
	e := &engine{
		Base:        games.NewBase(s),
		cfg:         cfg,
		shoe:        shoe.New(cfg.decks),
		expectBurns: cfg.freshAtOpen,
		shoeKnown:   cfg.freshAtOpen,
		stakes:      games.NewStakes(),
	}
	g := s.Game
	e.r = ruleSet{
		payout: g.Rule(rulePayout), late: g.Rule(ruleLate), limit: g.Rule(ruleLimit), burn: g.Rule(ruleBurn),
		stop: g.Rule(ruleStop), count: g.Rule(ruleCount), faceUp: g.Rule(ruleFaceUp), dealOrder: g.Rule(ruleDealOrder),
		playOrder: g.Rule(rulePlayOrder), playerCards: g.Rule(rulePlayerCards), hit: g.Rule(ruleHit),
		double: g.Rule(ruleDouble), split: g.Rule(ruleSplit), insurance: g.Rule(ruleInsurance),
		evenMoney: g.Rule(ruleEvenMoney), sideBet: g.Rule(ruleSideBet), dealerDraw: g.Rule(ruleDealerDraw),
		bustCollect: g.Rule(ruleBustCollect), settleOrder: g.Rule(ruleSettleOrder), sideOrder: g.Rule(ruleSideBetOrder),
		action: g.Rule(ruleAction), standing: g.Rule(ruleStanding),
	}
	return e
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
		e.cutOff(ev)
	case journal.TypeCard:
		if e.between.Hold(ev, e.Coup != nil) {
			break // a stop card or a burn between coups: the next coup's
		}
		e.Ensure(e, ev)
		e.card(ev)
	case journal.TypeReveal:
		e.Ensure(e, ev)
		e.reveal(ev)
	case journal.TypeAction:
		e.Ensure(e, ev)
		e.action(ev)
	case journal.TypePayout, journal.TypeCollect, journal.TypeRefund, journal.TypeRake:
		e.Ensure(e, ev)
		e.money(ev)
	}
}

// Close implements games.Engine: the open coup is closed at the end of the input.
func (e *engine) Close(out []games.Record) []games.Record {
	return e.Finish(e, out)
}

// CoupStarted implements games.Hooks: the per-coup state is reset.
func (e *engine) CoupStarted(ev *journal.Event) {
	e.stakes.Reset()
	e.ph, e.once, e.limitsDone, e.burns = betting, 0, false, 0
	e.handMax = e.handMax[:0]
	e.dealer, e.dealerEv = e.dealer[:0], games.Evidence{}
	e.spare = append(e.spare, e.boxes...)
	clear(e.boxes)
	e.boxes, e.targets, e.expect, e.pos = e.boxes[:0], e.targets[:0], e.expect[:0], 0
	e.cardsAfterDeal, e.curBox, e.dealerDrew, e.seqAtDealer, e.seqAtPoint = 0, 0, false, 0, 0
	e.insured, e.evenMoney, e.pendingBusts = e.insured[:0], e.evenMoney[:0], e.pendingBusts[:0]
	e.lateDeal = e.lateDeal[:0]
	e.lastSplit.from, e.lastSplit.to, e.lastSplit.player = nil, nil, ""
	if e.cfg.csm && !e.expectBurns {
		// AM 88-384 art. 5.1 (L216): after each coup the cards go back into the machine.
		e.newShoe()
	}
	e.between.Release(func(ev *journal.Event) { e.stopCard(ev, true) }, e.burnCard)
}

func (e *engine) newShoe() {
	e.shoe.Reset()
	e.excess = [52]bool{}
	e.stopSeen, e.stopCoup = false, ""
}

// findOnce raises a finding at most once per coup for the given flag.
func (e *engine) findOnce(flag uint16, ev *journal.Event, r games.Rule, spot, player string, exp, obs games.Value, detail string, extra ...games.Evidence) {
	if e.once&flag != 0 {
		return
	}
	e.once |= flag
	e.Find(ev, r, spot, player, exp, obs, detail, extra...)
}

// --- stakes ---

func (e *engine) bet(ev *journal.Event) {
	prev := int64(0)
	if st := e.stakes.Get(games.StakeKey{Spot: ev.Spot, Player: ev.Player}); st != nil {
		prev = st.Amount
	}
	// AM 88-384 art. 5.2 1° (L232): no stake once the first card is out of the shoe.
	late := e.Coup.CutOff && ev.Amount != prev
	e.stakes.Set(ev, e.Coup.ID, late)
	if n, _, kind, _ := parseSpot(ev.Spot); late && ev.Amount == 0 && kind == spotBox && e.ph == dealing && e.ownerOrAny(n) == "" {
		// A box emptied during the deal: the croupier may skip it or deal it as it stood,
		// the late withdrawal being the one finding.
		e.dropFromDeal(n)
	}
	if late {
		// The late bet is the finding: its amount is not checked again against the limits, nor a
		// late side bet against the blackjack stake it needs (one breach, one finding).
		e.LateBet(ev, e.r.late, prev)
	}
}

// cutOff closes the bets (no_more_bets or the first card dealt face up) and checks the stakes
// as they stand.
func (e *engine) cutOff(ev *journal.Event) {
	e.CloseBets(ev)
	if e.limitsDone {
		return
	}
	e.limitsDone = true
	for _, st := range e.stakes.All() {
		e.checkStake(st, ev)
	}
	for _, st := range e.stakes.All() {
		if b, _, kind, _ := parseSpot(st.Spot); kind == spotBox {
			e.checkHandMax(b, ev)
		}
	}
}

// checkHandMax checks the stakes of all the players on box n together against the box's
// maximum. AM 88-384 art. 5.1 (L224): standing players stake on a seated player's hand «dans
// les limites du maximum de mise autorisé pour la main». Reported once per box and coup, on the
// stake that takes the total over, and not when a single stake is over the maximum already (that
// stake is its own finding).
func (e *engine) checkHandMax(n int, at *journal.Event) {
	if slices.Contains(e.handMax, n) {
		return
	}
	spot := e.boxSpot(n)
	_, max := e.Limits.For(spot)
	if max <= 0 {
		return
	}
	var total int64
	var over *games.Stake
	players := 0
	for _, st := range e.stakes.All() {
		if st.Spot != spot || st.Amount <= 0 {
			continue
		}
		if st.Amount > max {
			return
		}
		players++
		total += st.Amount
		if total > max && over == nil {
			over = st
		}
	}
	if over == nil || players < 2 {
		return
	}
	e.handMax = append(e.handMax, n)
	e.Find(at, e.r.limit, spot, over.Player, games.Text("at most "+games.FormatCents(max)+" on the hand"), games.Money(total),
		fmt.Sprintf("the stakes on %s total %s with %s's %s, over the hand's maximum of %s", spot, games.FormatCents(total),
			over.Player, games.FormatCents(over.Amount), games.FormatCents(max)), over.Evidence)
}

// checkStake checks a stake's limits and, for a side bet, the blackjack stake it needs.
func (e *engine) checkStake(st *games.Stake, at *journal.Event) {
	b, _, kind, _ := parseSpot(st.Spot)
	switch kind {
	case spotBox:
		// Table limits (table_open.limits); AM 88-384 art. 5.1 (L224): «dans les limites du maximum».
		min, max := e.Limits.For(st.Spot)
		e.CheckLimit(st, min, max, e.r.limit, at)
	case spotPairs, spotPlus3:
		min, max := e.sideLimits(st.Spot, kind)
		e.CheckLimit(st, min, max, e.r.limit, at)
		// AM 88-384 art. 5.2 6°-7° (L284, L300): a side bet only on a box where the player
		// has a blackjack stake.
		if e.mainStake(b, st.Player) == 0 {
			name := "Perfect Pairs"
			if kind == spotPlus3 {
				name = "21+3"
			}
			e.Find(at, e.r.sideBet, st.Spot, st.Player, games.Text("a blackjack stake on box "+strconv.Itoa(b)), games.Text("none"),
				fmt.Sprintf("%s staked %s on %s without a blackjack stake on box %d", st.Player, name, st.Spot, b), st.Evidence)
		}
	}
}

// sideLimits returns a side bet's limits: the exact spot's or the side bet's own
// (limits.spots "pairs" / "21+3"), else the table maximum only.
func (e *engine) sideLimits(spot string, kind spotKind) (min, max int64) {
	if o, ok := e.Limits.Spots[spot]; ok {
		return o.Min, orMax(o.Max, e.Limits.Max)
	}
	name := "pairs"
	if kind == spotPlus3 {
		name = "21+3"
	}
	if o, ok := e.Limits.Spots[name]; ok {
		return o.Min, orMax(o.Max, e.Limits.Max)
	}
	return 0, e.Limits.Max
}

func orMax(v, def int64) int64 {
	if v > 0 {
		return v
	}
	return def
}

func decksText(n int) string {
	if n == 1 {
		return "a single deck"
	}
	return strconv.Itoa(n) + " decks"
}

func boxSpot(n int) string { return "box:" + strconv.Itoa(n) }

// boxSpot returns "box:N", from a cache: box numbers are few and come back every coup.
func (e *engine) boxSpot(n int) string {
	if n < 0 || n > 64 {
		return boxSpot(n)
	}
	for len(e.spots) <= n {
		e.spots = append(e.spots, boxSpot(len(e.spots)))
	}
	return e.spots[n]
}

// mainStake returns a player's blackjack stake on box n.
func (e *engine) mainStake(n int, player string) int64 {
	if st := e.stakes.Get(games.StakeKey{Spot: e.boxSpot(n), Player: player}); st != nil {
		return st.Amount
	}
	return 0
}

// owner returns the first player with a blackjack stake on box n.
func (e *engine) owner(n int) string {
	spot := e.boxSpot(n)
	for _, st := range e.stakes.All() {
		if st.Spot == spot {
			return st.Player
		}
	}
	return ""
}

// --- cards ---

func (e *engine) box(n int) *box {
	i := sort.Search(len(e.boxes), func(i int) bool { return e.boxes[i].n >= n })
	if i < len(e.boxes) && e.boxes[i].n == n {
		return e.boxes[i]
	}
	var b *box
	if k := len(e.spare); k > 0 {
		// Reuse a box of an earlier coup, with its first hand and their slices.
		b, e.spare = e.spare[k-1], e.spare[:k-1]
		h := b.hands[0]
		*h = hand{box: b, cards: h.cards[:0], adds: h.adds[:0]}
		*b = box{hands: b.hands[:1]}
	} else {
		b = &box{}
		b.hands = []*hand{{box: b}}
	}
	b.n, b.spot = n, e.boxSpot(n)
	b.hands[0].spot = b.spot
	e.boxes = append(e.boxes, nil)
	copy(e.boxes[i+1:], e.boxes[i:])
	e.boxes[i] = b
	return b
}

func (e *engine) lookup(n int) *box {
	i := sort.Search(len(e.boxes), func(i int) bool { return e.boxes[i].n >= n })
	if i < len(e.boxes) && e.boxes[i].n == n {
		return e.boxes[i]
	}
	return nil
}

// handAt returns hand hi (0 or 1: the first) of box n, nil when there is none.
func (e *engine) handAt(n, hi int) *hand {
	b := e.lookup(n)
	switch {
	case b == nil:
		return nil
	case hi <= 1:
		return b.hands[0]
	case hi <= len(b.hands):
		return b.hands[hi-1]
	}
	return nil
}

func (e *engine) card(ev *journal.Event) {
	switch ev.To {
	case "stop":
		e.stopCard(ev, false)
		return
	case "burn":
		e.burnCard(ev)
		return
	}
	if e.ph == betting {
		e.beginDeal(ev)
	}
	c := ev.Card
	e.Coup.Evidence.Add(ev)
	if c.IsFaceDown() {
		// AM 88-384 art. 5.1 (L208): «les cartes sont, dans tous les cas, distribuées figures en dessus».
		e.findOnce(onceFaceUp, ev, e.r.faceUp, "", "", games.Text("card face up"), games.Text("face down"),
			fmt.Sprintf("a card was dealt face down to %s; every blackjack card is dealt face up", ev.To))
		e.shoe.Deal(c)
	} else {
		e.deal(c, ev)
	}
	if ev.To == "dealer" {
		e.dealerCard(ev, c)
		return
	}
	n, hi, _ := journal.ParseBox(ev.To)
	e.handCard(ev, e.box(n), hi, c)
}

// deal counts a face-up card out of the shoe and reports a card seen more often than the decks
// hold (AM 88-384 art. 1.4, L85).
func (e *engine) deal(c journal.Card, ev *journal.Event) {
	if e.shoe.Deal(c) || c.IsFaceDown() {
		return
	}
	i := c.Index()
	if e.excess[i] {
		return
	}
	e.excess[i] = true
	e.Find(ev, e.r.count, "", "", games.Text(fmt.Sprintf("at most %d × %s", e.shoe.Decks(), c)),
		games.Text(fmt.Sprintf("%d × %s", e.shoe.Seen(c), c)),
		fmt.Sprintf("the %s has come out %d times from %s: a card in excess or foreign to the decks", c, e.shoe.Seen(c), decksText(e.shoe.Decks())))
}

// burnCard handles a burnt card: the burns open a new shoe; a burn once the deal has begun is
// irregular.
func (e *engine) burnCard(ev *journal.Event) {
	if e.ph != betting {
		e.findOnce(onceBurnPlay, ev, e.r.burn, "", "", games.Text("no burn during a coup"), games.Text("card burnt"),
			"a card was burnt after the deal had begun; the five burns come before the first card of a shoe")
		e.deal(ev.Card, ev)
		return
	}
	if e.burns == 0 {
		// Burns before the deal: a new shoe (after a shuffle, or a continuous shuffler's restart).
		e.newShoe()
		e.shoeKnown = true
	}
	e.burns++
	e.Coup.Evidence.Add(ev)
	e.deal(ev.Card, ev)
}

// beginDeal handles the first card dealt face up: the cut-off (L232) and the burns of a new shoe.
func (e *engine) beginDeal(ev *journal.Event) {
	e.ph = dealing
	e.cutOff(ev)
	// AM 88-384 art. 5.2 1° (L232): a card to each box from the croupier's left, one to the
	// croupier, then a second card to each box in the same order.
	for _, st := range e.stakes.All() {
		if n, _, kind, _ := parseSpot(st.Spot); kind == spotBox {
			e.targets = insertInt(e.targets, n)
		}
	}
	e.expect = append(e.expect, e.targets...)
	e.expect = append(e.expect, 0)
	e.expect = append(e.expect, e.targets...)
	want := e.cfg.burns
	switch {
	case e.burns > 0:
		e.expectBurns = false
		// AM 88-384 art. 5.1 (L206, L214, L218): «le croupier élimine les cinq premières cartes du sabot».
		if want > 0 && e.burns != want {
			e.findOnce(onceBurn, ev, e.r.burn, "", "", games.Text(fmt.Sprintf("%d cards burnt", want)), games.Text(fmt.Sprintf("%d burnt", e.burns)),
				fmt.Sprintf("%d cards were burnt at the start of the shoe; the croupier burns %d before dealing", e.burns, want))
		}
	case e.expectBurns:
		e.expectBurns = false
		if want > 0 {
			e.findOnce(onceBurn, ev, e.r.burn, "", "", games.Text(fmt.Sprintf("%d cards burnt", want)), games.Text("none burnt"),
				fmt.Sprintf("the shoe was dealt without burning its first %d cards", want))
		}
	case e.stopSeen && e.stopCoup != e.Coup.ID && !e.cfg.csm && want == 0:
		// No burns at this table (rules.burn_cards = 0): the coup after the stop card is dealt
		// from the new shoe.
		e.newShoe()
	case e.stopSeen && e.stopCoup != e.Coup.ID && !e.cfg.csm:
		// AM 88-384 art. 5.1 (L210): the stop card ends the shoe; the cards are reshuffled.
		e.findOnce(onceStop, ev, e.r.stop, "", "", games.Text("a new shoe after the stop card"), games.Text("dealt from the same shoe"),
			"a coup was dealt after the stop card had come out, without a new shuffle and its burns")
	}
}

// stopCard handles the stop card. between is set for a stop card seen between coups.
func (e *engine) stopCard(ev *journal.Event, between bool) {
	if e.cfg.csm {
		// AM 88-384 art. 5.1 (L212): «il n'y a ni coupe ni carte d'arrêt».
		e.findOnce(onceStop, ev, e.r.stop, "", "", games.Text("no stop card"), games.Text("stop card"),
			"a stop card came out at a table dealt from a continuous shuffling machine, which has none")
		return
	}
	if e.stopSeen {
		return
	}
	e.stopSeen = true
	e.stopCoup = e.Coup.ID
	if between {
		e.stopCoup = ""
	}
	// AM 88-384 art. 5.1 (L204): a talon of at least one 52-card deck behind the stop card,
	// counted only on a shoe watched from its start.
	if behind := e.shoe.Remaining(); e.shoeKnown && behind < 52 {
		e.findOnce(onceStop, ev, e.r.stop, "", "", games.Text("at least 52 cards behind the stop card"),
			games.Text(fmt.Sprintf("%d cards behind it", max(behind, 0))),
			fmt.Sprintf("the stop card came out after %d cards of a %d-deck shoe, leaving %d behind it; it must leave at least one deck (52)",
				e.shoe.Dealt(), e.shoe.Decks(), max(behind, 0)))
	}
}

func (e *engine) dealerCard(ev *journal.Event, c journal.Card) {
	switch e.ph {
	case dealing:
		if len(e.dealer) > 0 {
			// L232: the croupier has one card until every player has played (no hole card).
			e.findOnce(onceHole, ev, e.r.dealOrder, "", "", games.Text("one card to the croupier"), games.Text("a second card to the croupier"),
				"the croupier took a second card during the deal: he has a single card until every player has played")
		} else {
			e.dealOrderCard(ev, 0, "")
		}
	case playing:
		e.progress(nil)
		if !e.dealerDrew {
			e.dealerDrew, e.seqAtDealer = true, len(e.Money.Seq)
			e.checkOwed(ev)
		}
		e.seqAtPoint = len(e.Money.Seq)
		e.cardsAfterDeal++
		// AM 88-384 art. 5.2 1° (L238): he stands on 17 or more, soft 17 included.
		if len(e.dealer) > 0 && !e.cfg.dealer.MustDraw(e.dealer) {
			total := e.cfg.dealer.Total(e.dealer)
			e.findOnce(onceDealer, ev, e.r.dealerDraw, "", "", games.Text(fmt.Sprintf("stand on %s", e.dealerText())),
				games.Text(fmt.Sprintf("drew on %s", e.dealerText())),
				fmt.Sprintf("the croupier drew a card on %d (%s); he must stand on 17 or more, soft 17 included", total, cardsText(e.dealer)), e.dealerEv)
		}
	}
	e.dealer = append(e.dealer, c)
	e.dealerEv.Add(ev)
	if e.ph == dealing && e.dealComplete() {
		e.ph = playing
	}
}

func insertInt(s []int, v int) []int {
	i := sort.SearchInts(s, v)
	if i < len(s) && s[i] == v {
		return s
	}
	s = append(s, 0)
	copy(s[i+1:], s[i:])
	s[i] = v
	return s
}

func containsInt(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// dealOrderCard checks a card of the initial deal (n the box, 0 the croupier) against the
// expected order (AM 88-384 art. 5.2 1°, L232).
func (e *engine) dealOrderCard(ev *journal.Event, n int, spot string) {
	switch {
	case n != 0 && containsInt(e.lateDeal, n):
		// A box whose stake came late: the late bet is the finding, its cards are not in the order.
		return
	case e.pos < len(e.expect) && e.expect[e.pos] == n:
		e.pos++
		return
	case n != 0 && !containsInt(e.targets, n):
		if e.ownerOrAny(n) != "" {
			// A stake placed after the cut-off (a late bet, reported as such) is dealt too.
			e.targets = insertInt(e.targets, n)
			e.lateDeal = append(e.lateDeal, n)
			return
		}
		e.findOnce(onceDeal, ev, e.r.dealOrder, spot, "", games.Text("cards only to boxes with a stake"), games.Text(spot),
			fmt.Sprintf("box %d was dealt a card but has no stake", n))
		return
	}
	want := e.nextInDeal()
	if want == "" {
		want = "the end of the deal"
	}
	got, player := "the croupier", ""
	if n != 0 {
		got, player = spot, e.owner(n)
	}
	e.findOnce(onceDeal, ev, e.r.dealOrder, spot, player, games.Text("next card to "+want), games.Text("to "+got),
		fmt.Sprintf("%s got a card out of turn during the deal (next was %s); the deal goes box by box from the croupier's left, the croupier's card after the first round", got, want))
}

// dropFromDeal takes box n out of what the initial deal still owes; its cards, if it gets any,
// are not held to the order.
func (e *engine) dropFromDeal(n int) {
	if i := slices.Index(e.targets, n); i >= 0 {
		e.targets = slices.Delete(e.targets, i, i+1)
	}
	rest := slices.DeleteFunc(slices.Clone(e.expect[e.pos:]), func(x int) bool { return x == n })
	e.expect = append(e.expect[:e.pos], rest...)
	e.lateDeal = append(e.lateDeal, n)
	if e.dealComplete() {
		e.ph = playing
	}
}

// nextInDeal names who the next card of the initial deal goes to ("box 2", "the croupier"),
// "" once the deal's order is used up.
func (e *engine) nextInDeal() string {
	switch {
	case e.pos >= len(e.expect):
		return ""
	case e.expect[e.pos] == 0:
		return "the croupier"
	}
	return "box " + strconv.Itoa(e.expect[e.pos])
}

// dealComplete reports whether the croupier and every box to deal have their cards.
func (e *engine) dealComplete() bool {
	if len(e.dealer) == 0 {
		return false
	}
	for _, n := range e.targets {
		if b := e.lookup(n); b == nil || len(b.hands[0].cards) < 2 {
			return false
		}
	}
	return true
}

// endDeal ends the initial deal when play begins before it was complete: a box with a stake
// did not get its two cards.
func (e *engine) endDeal(ev *journal.Event) {
	if e.ph != dealing {
		return
	}
	e.ph = playing
	for _, n := range e.targets {
		if b := e.lookup(n); b == nil || len(b.hands[0].cards) < 2 {
			e.findOnce(onceDeal, ev, e.r.dealOrder, e.boxSpot(n), e.owner(n), games.Text("two cards to box "+strconv.Itoa(n)), games.Text("fewer"),
				fmt.Sprintf("box %d has a stake but was not dealt its two cards before play began", n))
			return
		}
	}
}

func (e *engine) handCard(ev *journal.Event, b *box, hi int, c journal.Card) {
	if e.ph == dealing && (hi > 0 || len(b.hands[0].cards) >= 2) {
		if hi > 0 {
			e.findOnce(onceDeal, ev, e.r.dealOrder, ev.To, e.owner(b.n), games.Text("box cards"), games.Text("a split hand's card"),
				fmt.Sprintf("a card went to %s during the deal, before any split", ev.To))
		} else if want := e.nextInDeal(); want != "" {
			// A third card while another box still waits for its cards: this box was served
			// out of turn (L232).
			e.findOnce(onceDeal, ev, e.r.dealOrder, ev.To, e.owner(b.n), games.Text("next card to "+want), games.Text("a third card to "+ev.To),
				fmt.Sprintf("%s got a third card during the deal, before %s had its cards; the deal ends before play begins", ev.To, want))
		}
		// A third card: play has begun.
		e.endDeal(ev)
	}
	if e.ph == dealing {
		e.dealOrderCard(ev, b.n, ev.To)
		e.addCard(b.hands[0], ev, c)
		if e.dealComplete() {
			e.ph = playing
		}
		return
	}
	e.playCard(ev, b, b.hand(hi), c)
}

// checkOwed reports, when the croupier begins to draw, each hand that never had the one card
// it was owed: a double's (AM 88-384 art. 5.2 5°, L276) or a split ace's (4°, L268). The hand is
// still settled as dealt.
func (e *engine) checkOwed(ev *journal.Event) {
	for _, b := range e.boxes {
		for _, h := range b.hands {
			var why string
			switch {
			case h.busted || h.cardFlagged:
				continue
			case h.doubled() && len(h.cards) == h.doubledAt:
				why = "was doubled and never given its one card"
			case h.splitAces && len(h.cards) < 2:
				why = "is a split ace and was never given its second card"
			default:
				continue
			}
			h.cardFlagged = true
			e.Find(ev, e.r.playerCards, h.spot, e.owner(b.n), games.Text("one card"), games.Text("none"),
				fmt.Sprintf("%s %s before the croupier drew", h.spot, why), h.ev)
		}
	}
}

// ownerOrAny returns a player with any stake on box n (blackjack stake first).
func (e *engine) ownerOrAny(n int) string {
	if p := e.owner(n); p != "" {
		return p
	}
	for _, st := range e.stakes.All() {
		if b, _, _, ok := parseSpot(st.Spot); ok && b == n {
			return st.Player
		}
	}
	return ""
}

func (e *engine) addCard(h *hand, ev *journal.Event, c journal.Card) {
	b := h.box
	if !b.split && h == b.hands[0] && b.nInit < 2 {
		b.init[b.nInit] = c
		b.nInit++
	}
	h.cards = append(h.cards, c)
	h.ev.Add(ev)
	if t, _ := Total(h.cards); t > 21 && !h.busted {
		h.busted, h.bustPending = true, true
		e.pendingBusts = append(e.pendingBusts, h)
	}
}

// playCard handles a card to a player's hand once the deal is complete.
func (e *engine) playCard(ev *journal.Event, b *box, h *hand, c journal.Card) {
	outOfTurn := e.checkTurn(ev, b, h, true)
	e.cardsAfterDeal++
	if len(h.cards) >= 2 {
		if h.allow > 0 {
			h.allow--
		} else if why := h.closedWhy(); why != "" && !h.cardFlagged && !outOfTurn {
			// (A card out of turn is that one breach, already reported: one card, one finding.)
			// AM 88-384 art. 5.2 1° (L234), 4° (L268), 5° (L276): cards one by one on request,
			// one after a double, one per split ace.
			h.cardFlagged = true
			owner := e.owner(b.n)
			e.Find(ev, e.r.playerCards, h.spot, owner, games.Text("no further card"), games.Text("card "+c.String()),
				fmt.Sprintf("%s was given the %s although %s", h.spot, c, why), h.ev)
		}
	}
	e.addCard(h, ev, c)
}

// checkTurn checks that play goes box by box from the croupier's left and ends before the
// croupier draws (AM 88-384 art. 5.1 L226, 5.2 1° L234, L238), and notes that play moved on.
// strict is false for a stand, whose gesture a camera may see late: it is checked only
// against the croupier's draw (a hand still played then means he drew too soon, a hole card).
// It reports whether it found ev out of turn.
func (e *engine) checkTurn(ev *journal.Event, b *box, h *hand, strict bool) bool {
	found := false
	if strict || e.dealerDrew {
		switch {
		case e.dealerDrew:
			found = true
			e.findOnce(oncePlay, ev, e.r.playOrder, h.spot, e.owner(b.n), games.Text("players first, then the croupier"),
				games.Text(h.spot+" after the croupier drew"),
				fmt.Sprintf("%s was played after the croupier had begun to draw", h.spot))
		case b.n < e.curBox:
			found = true
			e.findOnce(oncePlay, ev, e.r.playOrder, h.spot, e.owner(b.n), games.Text("box by box from the croupier's left"),
				games.Text(fmt.Sprintf("box %d after box %d", b.n, e.curBox)),
				fmt.Sprintf("box %d was played after box %d had begun; each hand is settled before the next is offered a card", b.n, e.curBox))
		}
	}
	if b.n > e.curBox {
		e.curBox = b.n
	}
	e.progress(h)
	return found
}

// progress notes that play moved to hand h (nil: to the croupier): a bust not collected by now
// was not collected at once.
func (e *engine) progress(h *hand) {
	for _, p := range e.pendingBusts {
		if p != h && p.bustPending {
			p.bustLate = true
		}
	}
}

func (e *engine) reveal(ev *journal.Event) {
	var cards []journal.Card
	var b *box
	if ev.To == "dealer" {
		cards = e.dealer
	} else if n, hi, ok := journal.ParseBox(ev.To); ok {
		if b = e.lookup(n); b != nil {
			cards = b.hand(hi).cards
		}
	}
	j := 0
	for i := range cards {
		if j < len(ev.Cards) && cards[i].IsFaceDown() {
			cards[i] = ev.Cards[j]
			e.shoe.Reveal(ev.Cards[j])
			j++
		}
	}
	if b != nil {
		// The box's first two cards, for its side bets, as revealed.
		for i := range b.nInit {
			if b.init[i].IsFaceDown() {
				if c := b.firstCard(i); !c.IsFaceDown() {
					b.init[i] = c
				}
			}
		}
	}
	e.Coup.Evidence.Add(ev)
}

// --- actions ---

func (e *engine) action(ev *journal.Event) {
	if ev.Spot == "" && ev.Player != "" && onBox(ev.Action) {
		// The spot is optional in the journal: a player's decision is on his box.
		spot := e.spotOf(ev.Player, ev.Action)
		if spot == "" {
			return // no box of his, or several: nothing to judge
		}
		w := *ev
		w.Spot = spot
		ev = &w
	}
	switch ev.Action {
	case "hit", "stand", "double", "split":
		e.handAction(ev)
	case "insurance":
		e.insurance(ev)
	case "even_money":
		e.takeEvenMoney(ev)
	case "decline", "pass", "no_insurance":
		// A player turning an offer down (insurance, even money): nothing to judge.
	default:
		// AM 88-384 art. 5.2 (L230-L280): the decisions the regulation offers.
		e.Find(ev, e.r.action, ev.Spot, ev.Player, games.Text("hit, stand, double, split, insurance or even money"), games.Text(ev.Action),
			fmt.Sprintf("%s asked for «%s», which blackjack does not offer", playerName(ev.Player), ev.Action))
	}
}

// onBox reports whether an action is a decision on a box or hand.
func onBox(action string) bool {
	switch action {
	case "hit", "stand", "double", "split", "insurance", "even_money":
		return true
	}
	return false
}

// spotOf returns the spot of a decision written without one: the one box the player has a
// blackjack stake on, and for a hand decision on a split box its first hand still in play.
// "" when the player has no box or several.
func (e *engine) spotOf(player, action string) string {
	n := 0
	for _, st := range e.stakes.All() {
		if b, _, kind, _ := parseSpot(st.Spot); kind == spotBox && st.Player == player && st.Amount > 0 {
			if n != 0 && n != b {
				return ""
			}
			n = b
		}
	}
	if n == 0 {
		return ""
	}
	b := e.lookup(n)
	switch action {
	case "hit", "stand", "double", "split":
		if b != nil && b.split {
			for _, h := range b.hands {
				if h.closedWhy() == "" {
					return h.spot
				}
			}
			return ""
		}
	}
	return e.boxSpot(n)
}

func playerName(p string) string {
	if p == "" {
		return "a player"
	}
	return p
}

func (e *engine) handAction(ev *journal.Event) {
	n, hi, kind, ok := parseSpot(ev.Spot)
	if !ok || (kind != spotBox && kind != spotHand) {
		return
	}
	b := e.lookup(n)
	if b == nil || len(b.hands[0].cards) == 0 {
		return // nothing dealt there: nothing to judge
	}
	// Play has begun: the initial deal is over.
	e.endDeal(ev)
	h := b.hand(hi)
	player := ev.Player
	if player == "" {
		player = e.owner(n)
	}
	if owner := e.owner(n); owner != "" && player != owner && !e.follows(ev, h, player) {
		// AM 88-384 art. 5.1 (L224): a standing player «ne peut donner d'instructions» and
		// «subit ses initiatives».
		if ev.Action == "double" || ev.Action == "split" {
			detail := fmt.Sprintf("%s, standing behind %s's box %d, made a %s that %s had not made; a standing player only follows the seated player's decisions", player, owner, n, ev.Action, owner)
			if (ev.Action == "double" && h.doubled()) || (ev.Action == "split" && e.lastSplit.from == h) {
				detail = fmt.Sprintf("%s, standing behind %s's box %d, followed %s's %s only after the hand had been dealt on; a standing player follows a decision as it is made", player, owner, n, owner, ev.Action)
			}
			e.Find(ev, e.r.standing, ev.Spot, player, games.Text("the seated player's decision, followed"), games.Text(ev.Action+" by "+player), detail)
		}
		return
	}
	outOfTurn := e.checkTurn(ev, b, h, ev.Action != "stand")
	switch ev.Action {
	case "hit":
		e.hit(ev, h, player, outOfTurn)
	case "stand":
		h.stood, h.allow = true, 0
	case "double":
		e.double(ev, h, player)
	case "split":
		e.splitHand(ev, b, h, player)
	}
}

// hit allows the hand one more card; a request the hand may not make is reported, unless it
// came out of turn (outOfTurn): that one breach is already reported.
func (e *engine) hit(ev *journal.Event, h *hand, player string, outOfTurn bool) {
	var why string
	switch {
	case h.busted:
		why = "the hand was already over 21"
	case h.doubled():
		why = "the hand was doubled: one card only"
	case h.splitAces && len(h.cards) >= 2:
		why = "a split ace takes one card only"
	case h.stood:
		why = "the player had stood"
	}
	if why != "" && !outOfTurn {
		// AM 88-384 art. 5.2 1° (L234), 4° (L268), 5° (L276).
		e.Find(ev, e.r.hit, ev.Spot, player, games.Text("no further card"), games.Text("hit"),
			fmt.Sprintf("%s asked for a card on %s although %s", playerName(player), h.spot, why), h.ev)
	}
	h.allow++
}

// initialStake returns a player's stake on a hand before any double: the box's blackjack
// stake on its first hand, the split stake on the others.
func (e *engine) initialStake(h *hand, player string) int64 {
	var s int64
	if h == h.box.hands[0] {
		s = e.mainStake(h.box.n, player)
	}
	for _, c := range h.adds {
		if c.kind == chipSplit && c.player == player {
			s += c.amount
		}
	}
	return s
}

func (e *engine) doubledBy(h *hand, player string) bool {
	for _, c := range h.adds {
		if c.kind == chipDouble && c.player == player {
			return true
		}
	}
	return false
}

func (e *engine) double(ev *journal.Event, h *hand, player string) {
	initial := e.initialStake(h, player)
	amount := initial
	if ev.HasAmount {
		amount = ev.Amount
	}
	var why string
	backer := h.doubled() && len(h.cards) == h.doubledAt && !e.doubledBy(h, player)
	switch {
	case backer:
		// Another player on the same hand follows the double.
	case h.busted:
		why = "the hand was already over 21"
	case h.stood:
		why = "the player had stood"
	case h.doubled():
		why = "the hand was already doubled"
	case h.splitAces:
		why = "split aces take one card only and cannot be doubled"
	case len(h.cards) != 2:
		why = fmt.Sprintf("the hand had %d cards; a double is made on the first two", len(h.cards))
	}
	if why == "" {
		switch {
		case initial == 0:
			why = "the player has no stake on the hand"
		case amount > initial:
			why = fmt.Sprintf("the double adds %s, more than the initial stake of %s", games.FormatCents(amount), games.FormatCents(initial))
		case amount < initial && !e.cfg.doubleLess:
			why = fmt.Sprintf("the double adds %s, less than the initial stake of %s", games.FormatCents(amount), games.FormatCents(initial))
		}
	}
	if why != "" {
		// AM 88-384 art. 5.2 5° (L276-L278).
		e.Find(ev, e.r.double, ev.Spot, player, games.Text("a double of the initial stake on two cards"), games.Text("double"),
			fmt.Sprintf("%s doubled on %s although %s", playerName(player), h.spot, why), h.ev)
	}
	var ex games.Evidence
	ex.Add(ev)
	h.adds = append(h.adds, chips{player: player, amount: amount, kind: chipDouble, ev: ex})
	if !h.doubled() {
		h.doubledAt = max(len(h.cards), 1)
		h.allow = 1
	}
}

func (e *engine) isPair(a, b journal.Card) bool {
	if e.cfg.identical {
		return a.Rank == b.Rank
	}
	return Value(a) == Value(b)
}

// follows reports whether a player other than the seated one makes a decision he may make
// on the box: following the seated player's double or split just made.
func (e *engine) follows(ev *journal.Event, h *hand, player string) bool {
	switch ev.Action {
	case "double":
		return h.doubled() && len(h.cards) == h.doubledAt && !e.doubledBy(h, player)
	case "split":
		return e.followsSplit(h, player)
	}
	return false
}

// followsSplit reports whether player, another than the one who split hand h, follows that
// split (before its second hand has its second card).
func (e *engine) followsSplit(h *hand, player string) bool {
	ls := e.lastSplit
	return ls.from == h && ls.player != player && len(ls.to.cards) <= 1
}

func (e *engine) splitHand(ev *journal.Event, b *box, h *hand, player string) {
	amount := int64(0)
	var ex games.Evidence
	ex.Add(ev)
	// A second player on the same hand following the split that was just made.
	if e.followsSplit(h, player) {
		ls := e.lastSplit
		initial := e.initialStake(h, player)
		amount = initial
		if ev.HasAmount {
			amount = ev.Amount
		}
		if amount != initial {
			e.Find(ev, e.r.split, ev.Spot, player, games.Text("a split stake equal to the initial one ("+games.FormatCents(initial)+")"),
				games.Money(amount), fmt.Sprintf("%s split %s adding %s; a split adds a stake equal to the initial %s", playerName(player), h.spot, games.FormatCents(amount), games.FormatCents(initial)), h.ev)
		}
		ls.to.adds = append(ls.to.adds, chips{player: player, amount: amount, kind: chipSplit, ev: ex})
		return
	}
	initial := e.initialStake(h, player)
	amount = initial
	if ev.HasAmount {
		amount = ev.Amount
	}
	aces := len(h.cards) == 2 && h.cards[0].Rank == journal.Ace && h.cards[1].Rank == journal.Ace
	var why string
	switch {
	case h.busted:
		why = "the hand was already over 21"
	case h.stood:
		why = "the player had stood"
	case h.doubled():
		why = "the hand was doubled"
	case len(h.cards) != 2:
		why = fmt.Sprintf("the hand had %d cards; a split is made on two", len(h.cards))
	case !e.isPair(h.cards[0], h.cards[1]):
		if e.cfg.identical && Value(h.cards[0]) == Value(h.cards[1]) {
			why = fmt.Sprintf("%s and %s are not identical cards (the house splits identical cards only)", h.cards[0], h.cards[1])
		} else {
			why = fmt.Sprintf("%s and %s are not a pair", h.cards[0], h.cards[1])
		}
	case aces && len(b.hands) >= 2:
		why = "a pair of aces makes at most two hands"
	case len(b.hands) >= 3:
		why = "a player makes at most three hands from one pair"
	case initial == 0:
		why = "the player has no stake on the hand"
	case amount != initial:
		why = fmt.Sprintf("the split adds %s; it must equal the initial stake of %s", games.FormatCents(amount), games.FormatCents(initial))
	}
	if why != "" {
		// AM 88-384 art. 5.2 4° (L264-L272).
		e.Find(ev, e.r.split, ev.Spot, player, games.Text("a split of a pair within the limits"), games.Text("split"),
			fmt.Sprintf("%s split %s although %s", playerName(player), h.spot, why), h.ev)
	}
	b.splitNow()
	nh := &hand{box: b, spot: b.spot + "." + strconv.Itoa(len(b.hands)+1)}
	if len(h.cards) >= 2 {
		moved := h.cards[len(h.cards)-1]
		h.cards = h.cards[:len(h.cards)-1]
		nh.cards = append(nh.cards, moved)
		nh.ev.Merge(h.ev)
	}
	if aces {
		h.splitAces, nh.splitAces = true, true
	}
	h.allow = 0
	nh.adds = append(nh.adds, chips{player: player, amount: amount, kind: chipSplit, ev: ex})
	b.hands = append(b.hands, nh)
	e.lastSplit.from, e.lastSplit.to, e.lastSplit.player = h, nh, player
}

func (e *engine) insurance(ev *journal.Event) {
	n, _, _, ok := parseSpot(ev.Spot)
	if !ok {
		return
	}
	key := games.StakeKey{Spot: e.boxSpot(n) + ":insurance", Player: ev.Player}
	amount := ev.Amount
	main := e.mainStake(n, ev.Player)
	prev := int64(0)
	idx := -1
	for i, in := range e.insured {
		if in.key == key {
			prev, idx = in.amount, i
		}
	}
	var why string
	switch {
	case len(e.dealer) == 0:
		why = "it came before the croupier had his card"
	case e.dealer[0].Rank != journal.Ace:
		why = fmt.Sprintf("the croupier's first card is the %s, not an ace", e.dealer[0])
	case e.ph != playing:
		why = "it came before the players had their two cards"
	case e.cardsAfterDeal > 0 || len(e.dealer) > 1:
		why = "it came after the next card was out; insurance is taken right after the deal"
	case main == 0:
		why = fmt.Sprintf("%s has no stake on box %d to insure", playerName(ev.Player), n)
	case 2*(prev+amount) > main:
		why = fmt.Sprintf("it covers %s of a %s stake; at most half (%s) may be insured", games.FormatCents(prev+amount), games.FormatCents(main), games.FormatCents(main/2))
	}
	if why != "" {
		// AM 88-384 art. 5.2 2° (L250-L254).
		e.Find(ev, e.r.insurance, key.Spot, ev.Player, games.Text("insurance of at most half the stake, against an ace, right after the deal"),
			games.Money(prev+amount), fmt.Sprintf("%s took insurance of %s on box %d: %s", playerName(ev.Player), games.FormatCents(amount), n, why))
	}
	if idx >= 0 {
		e.insured[idx].amount += amount
		e.insured[idx].ev.Add(ev)
		return
	}
	in := insured{key: key, amount: amount}
	in.ev.Add(ev)
	e.insured = append(e.insured, in)
}

func (e *engine) takeEvenMoney(ev *journal.Event) {
	n, _, _, ok := parseSpot(ev.Spot)
	if !ok {
		return
	}
	key := games.StakeKey{Spot: e.boxSpot(n), Player: ev.Player}
	b := e.lookup(n)
	bj := b != nil && !b.split && IsBlackjack(b.hands[0].cards)
	var why string
	switch {
	case !bj:
		why = fmt.Sprintf("box %d has no two-card blackjack", n)
	case len(e.dealer) == 0:
		why = "the croupier had no card yet"
	case Value(e.dealer[0]) != 10 && e.dealer[0].Rank != journal.Ace:
		why = fmt.Sprintf("the croupier's first card is the %s; even money is offered against an ace, a ten or a face", e.dealer[0])
	case e.dealerDrew && !e.cfg.evenMoneyAny:
		// rules.even_money_timing = before_draw: asked once the croupier's second card is
		// known, the request is refused and the blackjack is settled as such.
		why = "the croupier had already drawn his second card (" + cardsText(e.dealer) + ")"
	}
	if why != "" {
		// AM 88-384 art. 5.2 3° (L258-L260): an irregular request is refused, and the hand is
		// settled as dealt (a blackjack 3 to 2); even money paid on it is a wrong payout.
		bj = false
		e.Find(ev, e.r.evenMoney, key.Spot, ev.Player, games.Text("even money on a blackjack against an ace, a ten or a face"),
			games.Text("even money"), fmt.Sprintf("%s took even money although %s", playerName(ev.Player), why))
	}
	if bj {
		for _, k := range e.evenMoney {
			if k == key {
				return
			}
		}
		e.evenMoney = append(e.evenMoney, key)
	}
}

func (e *engine) hasEvenMoney(k games.StakeKey) bool {
	for _, x := range e.evenMoney {
		if x == k {
			return true
		}
	}
	return false
}

// --- money ---

func (e *engine) money(ev *journal.Event) {
	e.Money.Add(ev)
	if ev.Type != journal.TypeCollect || len(e.pendingBusts) == 0 {
		return
	}
	for _, h := range e.pendingBusts {
		if h.spot != ev.Spot || !h.bustPending {
			continue
		}
		h.bustPending = false
		if h.bustLate {
			// AM 88-384 art. 5.2 1° (L236): «le croupier ramasse immédiatement la mise».
			e.Find(ev, e.r.bustCollect, h.spot, ev.Player, games.Text("collected at once"), games.Text("collected after play moved on"),
				fmt.Sprintf("%s went over 21 but its stake was collected only after play had moved on", h.spot), h.ev)
		}
	}
}

// --- end of coup ---

func (e *engine) FinishCoup(ev *journal.Event) {
	if !e.limitsDone && e.stakes.Len() > 0 {
		e.limitsDone = true
		for _, st := range e.stakes.All() {
			e.checkStake(st, ev)
		}
	}
	switch {
	case e.ph == betting:
		// Nothing dealt: nothing can be settled, nor can the dealer's money be judged.
		e.Coup.Result = "no cards dealt"
		e.Money.Reset()
	case e.dealerFaceDown():
		// A card of the croupier's dealt face down (reported as such, L208) and never turned
		// up: his point is unknown, so the hands, his draw and the money cannot be judged.
		e.Coup.Result = "the croupier's cards not turned up"
		e.Money.Reset()
	default:
		e.checkDealerStand(ev)
		e.settle()
		// The money of a box whose cards were never all turned up is not judged either.
		e.Money.Keep(func(k games.StakeKey) bool {
			n, _, kind, ok := parseSpot(k.Spot)
			return !ok || kind == spotInsurance || !e.hiddenBox(n)
		})
		e.checkPaidBeforePoint(ev)
		e.checkSettleOrder(ev)
		e.checkSideOrder(ev)
		e.Coup.Result = e.resultText()
	}
	e.EndCoup(ev, e.r.payout)
}

// dealerFaceDown reports whether a card of the croupier's was still face down at the end of
// the coup.
func (e *engine) dealerFaceDown() bool {
	return slices.ContainsFunc(e.dealer, journal.Card.IsFaceDown)
}

// hiddenBox reports whether a card of box n was still face down at the end of the coup: its
// hands' value is unknown, so its stakes (side bets included) and their money are not judged.
func (e *engine) hiddenBox(n int) bool {
	b := e.lookup(n)
	if b == nil {
		return false
	}
	return slices.ContainsFunc(b.hands, func(h *hand) bool { return slices.ContainsFunc(h.cards, journal.Card.IsFaceDown) })
}

// playerBJ reports whether a hand is a blackjack (two cards, 21, not from a split: L270).
func playerBJ(h *hand) bool {
	return !h.box.split && !h.doubled() && IsBlackjack(h.cards)
}

// checkDealerStand reports a croupier who stopped under 17 while a hand waited on his point.
func (e *engine) checkDealerStand(ev *journal.Event) {
	if e.ph != playing || len(e.dealer) == 0 || (!e.CoupOver(ev) && len(e.dealer) < 2) || !e.cfg.dealer.MustDraw(e.dealer) {
		return
	}
	// With one card, an ace or a ten-value card, the croupier may still make blackjack (there
	// is no hole card, L232): a player's blackjack then waits on his second card, which makes it
	// a push (L242) or pays it 3 to 2 (L244), and so does insurance (L256).
	mayBJ := len(e.dealer) == 1 && (e.dealer[0].Rank == journal.Ace || Value(e.dealer[0]) == 10)
	waiting := mayBJ && len(e.insured) > 0
	for _, b := range e.boxes {
		for _, h := range b.hands {
			if len(h.cards) == 0 || h.busted || (playerBJ(h) && (!mayBJ || e.cfg.bjTieWins)) {
				// A blackjack against a 2-9, or paid whatever the croupier makes
				// (rules.blackjack_tie = win), waits on nothing.
				continue
			}
			if h == b.hands[0] && !b.split && e.allEvenMoney(b) {
				continue
			}
			waiting = true
		}
	}
	if !waiting {
		return
	}
	why := fmt.Sprintf("the croupier stood on %d (%s); he must draw on 16 or less", e.cfg.dealer.Total(e.dealer), cardsText(e.dealer))
	if mayBJ {
		why += ", and his second card decides whether he has blackjack (a player's blackjack pushes against it, insurance is paid on it)"
	}
	e.findOnce(onceDealer, ev, e.r.dealerDraw, "", "", games.Text("draw to 17"), games.Text("stood on "+e.dealerText()), why, e.dealerEv)
}

func (e *engine) allEvenMoney(b *box) bool {
	any := false
	for _, st := range e.stakes.All() {
		if st.Spot != b.spot {
			continue
		}
		any = true
		if !e.hasEvenMoney(st.StakeKey) {
			return false
		}
	}
	return any
}

func (e *engine) settle() {
	dealerBJ := IsBlackjack(e.dealer)
	dealer := e.cfg.dealer.Total(e.dealer)
	var dealt games.Evidence
	dealt.Merge(e.dealerEv)
	for _, st := range e.stakes.All() {
		n, _, kind, _ := parseSpot(st.Spot)
		b := e.lookup(n)
		if kind != spotInsurance && e.hiddenBox(n) {
			continue
		}
		switch kind {
		case spotBox:
			if b == nil {
				e.Settle(&games.Settlement{Spot: st.Spot, Player: st.Player, Stake: st.Amount, Outcome: games.Void,
					Detail: "the box was never dealt: the stake is returned", Evidence: st.Evidence})
			}
		case spotPairs:
			e.settlePairs(st, b)
		case spotPlus3:
			e.settlePlus3(st, b)
		case spotInsurance:
			e.settleInsurance(st.StakeKey, st.Amount, st.Evidence, dealerBJ)
		}
	}
	for _, in := range e.insured {
		e.settleInsurance(in.key, in.amount, in.ev, dealerBJ)
	}
	for _, b := range e.boxes {
		if e.hiddenBox(b.n) {
			continue
		}
		for _, h := range b.hands {
			// The box's blackjack stakes play on its first hand, with what actions added.
			if h == b.hands[0] {
				for _, st := range e.stakes.All() {
					if st.Spot == b.spot {
						e.settleHand(h, st.Player, st.Amount+e.added(h, st.Player), st.Evidence, dealer, dealerBJ)
					}
				}
			}
			for i, c := range h.adds {
				if h == b.hands[0] && e.mainStake(b.n, c.player) > 0 {
					continue
				}
				if e.seenBefore(h.adds[:i], c.player) {
					continue
				}
				e.settleHand(h, c.player, e.added(h, c.player), c.ev, dealer, dealerBJ)
			}
		}
	}
}

func (e *engine) seenBefore(adds []chips, player string) bool {
	for _, c := range adds {
		if c.player == player {
			return true
		}
	}
	return false
}

// added returns what a player's actions added to a hand.
func (e *engine) added(h *hand, player string) int64 {
	var s int64
	for _, c := range h.adds {
		if c.player == player {
			s += c.amount
		}
	}
	return s
}

func (e *engine) settleHand(h *hand, player string, stake int64, ev games.Evidence, dealer int, dealerBJ bool) {
	s := &games.Settlement{Spot: h.spot, Player: player, Stake: stake, Evidence: ev}
	for _, c := range h.adds {
		if c.player == player {
			s.Evidence.Merge(c.ev)
		}
	}
	pt, _ := Total(h.cards)
	bj := playerBJ(h)
	win := func(num, den int64, why string) {
		s.Outcome, s.Expected, s.Detail = games.Win, e.Round.Due(stake, num, den), why
	}
	lose := func(why string) { s.Outcome, s.Expected, s.Detail = games.Lose, -stake, why }
	switch {
	case len(h.cards) == 0:
		s.Outcome, s.Detail = games.Void, "the hand was never dealt: the stake is returned"
	case h == h.box.hands[0] && !h.box.split && e.hasEvenMoney(games.StakeKey{Spot: h.box.spot, Player: player}):
		// AM 88-384 art. 5.2 3° (L260): «il est payé à égalité».
		win(1, 1, "blackjack paid even money at the player's request")
	case pt > 21:
		lose(strconv.Itoa(pt) + ": over 21")
	case bj && dealerBJ:
		if e.cfg.bjTieWins {
			win(3, 2, "blackjack against the croupier's blackjack, paid 3 to 2 (rules.blackjack_tie)")
		} else {
			s.Outcome, s.Detail = games.Push, "blackjack against the croupier's blackjack: equal points push (L242)"
		}
	case bj:
		// AM 88-384 art. 5.2 1° (L244-L246): blackjack paid 3 to 2 and beats any other 21.
		win(3, 2, "blackjack paid 3 to 2")
	case dealerBJ:
		lose(strconv.Itoa(pt) + " against the croupier's blackjack")
	case len(e.dealer) == 0:
		s.Outcome, s.Detail = games.Void, "the croupier has no card: the hand cannot be settled"
	case dealer > 21:
		win(1, 1, strconv.Itoa(pt)+" against the croupier's bust ("+strconv.Itoa(dealer)+")")
	case pt > dealer:
		win(1, 1, strconv.Itoa(pt)+" beats the croupier's "+strconv.Itoa(dealer))
	case pt == dealer:
		s.Outcome, s.Detail = games.Push, strconv.Itoa(pt)+" against "+strconv.Itoa(dealer)+": push"
	default:
		lose(strconv.Itoa(pt) + " against the croupier's " + strconv.Itoa(dealer))
	}
	e.Settle(s)
}

func (e *engine) sidePays(mult int64) int64 {
	if e.cfg.sideForOne {
		return mult - 1
	}
	return mult
}

func (e *engine) settlePairs(st *games.Stake, b *box) {
	s := &games.Settlement{Spot: st.Spot, Player: st.Player, Stake: st.Amount, Evidence: st.Evidence}
	switch {
	case b == nil || b.nInit < 2:
		s.Outcome, s.Detail = games.Void, "the box was not dealt two cards: the stake is returned"
	default:
		// AM 88-384 art. 5.2 6° (L286-L292).
		k := perfectPairs(b.init[0], b.init[1], e.cfg.pairsByValue)
		if k == noPair {
			s.Outcome, s.Expected, s.Detail = games.Lose, -st.Amount, b.init[0].String()+" "+b.init[1].String()+": no pair"
		} else {
			m := e.sidePays(k.pays())
			s.Outcome, s.Expected = games.Win, e.Round.Due(st.Amount, m, 1)
			s.Detail = fmt.Sprintf("%s %s: %s, paid %d to 1", b.init[0], b.init[1], k, m)
		}
	}
	e.Settle(s)
}

func (e *engine) settlePlus3(st *games.Stake, b *box) {
	s := &games.Settlement{Spot: st.Spot, Player: st.Player, Stake: st.Amount, Evidence: st.Evidence}
	switch {
	case b == nil || b.nInit < 2 || len(e.dealer) == 0:
		s.Outcome, s.Detail = games.Void, "the box's two cards and the croupier's card were not all dealt: the stake is returned"
	default:
		// AM 88-384 art. 5.2 7° (L302-L309): flush, straight, three of a kind, straight flush: 9.
		combo := twentyOnePlusThree(b.init[0], b.init[1], e.dealer[0], e.cfg.straightAce)
		if combo == "" {
			s.Outcome, s.Expected, s.Detail = games.Lose, -st.Amount, b.init[0].String()+" "+b.init[1].String()+" with "+e.dealer[0].String()+": no combination"
		} else {
			m := e.sidePays(9)
			s.Outcome, s.Expected = games.Win, e.Round.Due(st.Amount, m, 1)
			s.Detail = fmt.Sprintf("%s %s with %s: %s, paid %d to 1", b.init[0], b.init[1], e.dealer[0], combo, m)
		}
	}
	e.Settle(s)
}

func (e *engine) settleInsurance(k games.StakeKey, amount int64, ev games.Evidence, dealerBJ bool) {
	s := &games.Settlement{Spot: k.Spot, Player: k.Player, Stake: amount, Evidence: ev}
	if dealerBJ {
		// AM 88-384 art. 5.2 2° (L256): «paie les assurances à raison de 2 pour 1».
		s.Outcome, s.Expected, s.Detail = games.Win, e.Round.Due(amount, 2, 1), "the croupier made blackjack: insurance paid 2 to 1"
	} else {
		s.Outcome, s.Expected, s.Detail = games.Lose, -amount, "the croupier did not make blackjack: insurance lost"
	}
	e.Settle(s)
}

// checkSettleOrder checks the final sweep goes from the croupier's right to his left
// (AM 88-384 art. 5.2 1°, L240).
// checkPaidBeforePoint reports the first hand settled before the croupier's last card: he
// determines and announces his point, then collects and pays (AM 88-384 art. 5.2 1°, L240). A
// bust collected at once (L236), even money and a blackjack paid against a 2 to 9 are not
// waiting on his point; money going against its stake is a wrong payout alone.
func (e *engine) checkPaidBeforePoint(ev *journal.Event) {
	if !e.dealerDrew || len(e.dealer) == 0 {
		return
	}
	e.SettledEarly(ev, e.r.settleOrder, e.Money.Seq, e.seqAtPoint, e.early, "the croupier's last card")
}

// early reports whether money event m, made before the croupier's last card, settled a stake
// too soon: a hand before his point (a bust collected, even money and a blackjack against a 2
// to 9 excepted), or insurance before his second card shows whether he has blackjack
// (AM 88-384 art. 5.2 2°, L256).
func (e *engine) early(m games.MoneyEvent) bool {
	n, hi, kind, ok := parseSpot(m.Key.Spot)
	if !ok {
		return false
	}
	if kind == spotInsurance {
		return slices.ContainsFunc(e.Money.Seq[:min(e.seqAtDealer, len(e.Money.Seq))], func(x games.MoneyEvent) bool { return x == m })
	}
	if (kind != spotBox && kind != spotHand) || e.hasEvenMoney(games.StakeKey{Spot: e.boxSpot(n), Player: m.Key.Player}) {
		return false
	}
	up := e.dealer[0]
	noBJ := up.Rank != journal.Ace && Value(up) != 10
	h := e.handAt(n, hi)
	return h != nil && !(h.busted && m.Type == journal.TypeCollect) && !(playerBJ(h) && noBJ)
}

func (e *engine) checkSettleOrder(ev *journal.Event) {
	if e.cfg.order == "off" || !e.dealerDrew {
		return
	}
	rtl := e.cfg.order == "right_to_left"
	prev := -1
	var prevKey games.StakeKey
	var prevLine int
	// A push paid or a winner collected is a wrong payout, reported once as such: it takes no
	// part in the order.
	due := e.DueByStake()
	for i, m := range e.Money.Seq[e.seqAtDealer:] {
		n, hi, kind, ok := parseSpot(m.Key.Spot)
		if !ok || (kind != spotBox && kind != spotHand) || e.hasEvenMoney(games.StakeKey{Spot: e.boxSpot(n), Player: m.Key.Player}) {
			continue
		}
		if e.seqAtDealer+i < e.seqAtPoint && e.early(m) {
			continue // settled before the croupier's point: its own finding
		}
		if !games.AsDue(due, m) {
			continue
		}
		if h := e.handAt(n, hi); h != nil && h.busted && m.Type == journal.TypeCollect {
			continue // a bust is collected on its own, at once
		}
		if prev >= 0 && ((rtl && n > prev) || (!rtl && n < prev)) {
			var ex games.Evidence
			ex.AddRef(prevLine, "")
			ex.AddRef(m.Line, "")
			dir := "from his right to his left (highest box first)"
			if !rtl {
				dir = "from his left to his right (box 1 first)"
			}
			e.Find(ev, e.r.settleOrder, m.Key.Spot, m.Key.Player, games.Text(fmt.Sprintf("box %d before box %d", n, prev)),
				games.Text(fmt.Sprintf("box %d after box %d", n, prev)),
				fmt.Sprintf("%s on %s was settled after %s on %s; the croupier settles %s", m.Key.Player, m.Key.Spot, prevKey.Player, prevKey.Spot, dir), ex)
			return
		}
		prev, prevKey, prevLine = n, m.Key, m.Line
	}
}

// checkSideOrder checks that on each side bet the losers are collected before the winners are
// paid (AM 88-384 art. 5.2 6°-7°, L294, L311).
func (e *engine) checkSideOrder(ev *journal.Event) {
	due := e.DueByStake()
	for _, want := range []spotKind{spotPairs, spotPlus3} {
		paidLine := 0
		for _, m := range e.Money.Seq {
			_, _, kind, ok := parseSpot(m.Key.Spot)
			if !ok || kind != want {
				continue
			}
			// A loser paid or a winner collected is a wrong payout, reported once as such.
			if !games.AsDue(due, m) {
				continue
			}
			if m.Type == journal.TypePayout && paidLine == 0 {
				paidLine = m.Line
			}
			if m.Type == journal.TypeCollect && paidLine > 0 {
				var ex games.Evidence
				ex.AddRef(paidLine, "")
				ex.AddRef(m.Line, "")
				e.Find(ev, e.r.sideOrder, m.Key.Spot, m.Key.Player, games.Text("losers collected before winners are paid"),
					games.Text("collected after a payment"),
					fmt.Sprintf("%s's losing %s was collected after a winner had been paid; the losers are collected first", m.Key.Player, m.Key.Spot), ex)
				break
			}
		}
	}
}

func (e *engine) dealerText() string {
	return strconv.Itoa(e.cfg.dealer.Total(e.dealer))
}

func cardsText(cs []journal.Card) string {
	var b strings.Builder
	for i, c := range cs {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(c.String())
	}
	return b.String()
}

func (e *engine) resultText() string {
	var b strings.Builder
	b.WriteString("dealer ")
	switch {
	case len(e.dealer) == 0:
		b.WriteString("-")
	case IsBlackjack(e.dealer):
		b.WriteString("blackjack")
	default:
		t := e.cfg.dealer.Total(e.dealer)
		if t > 21 {
			b.WriteString("bust ")
		}
		b.WriteString(strconv.Itoa(t))
	}
	for _, bx := range e.boxes {
		for _, h := range bx.hands {
			b.WriteString("; ")
			b.WriteString(h.spot)
			b.WriteByte(' ')
			t, _ := Total(h.cards)
			switch {
			case playerBJ(h):
				b.WriteString("blackjack")
			case t > 21:
				b.WriteString("bust ")
				b.WriteString(strconv.Itoa(t))
			default:
				b.WriteString(strconv.Itoa(t))
			}
		}
	}
	return b.String()
}
