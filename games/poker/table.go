package poker

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/coupwatch/coupwatch/games"
	"github.com/coupwatch/coupwatch/journal"
)

// dealerPlace numbers the croupier's hand in a deal sequence; boxes are 1, 2, ...
const dealerPlace = 0

// seat is one box of the layout in the open coup.
type seat struct {
	n     int
	owner string
	// cards are the box's hole cards in the order dealt (face down until revealed);
	// dealt counts the card events, reveals excluded.
	cards []journal.Card
	dealt int
	ev    games.Evidence
	// play is the chips put on Play by play actions; plays counts them.
	play       int64
	plays      int
	playPlayer string
	playEv     games.Evidence
	folded     bool
	foldEv     games.Evidence
	// void says why the hand is void (three card poker), "" when it plays.
	void string
}

// pile is a place's cards: the croupier's or the board.
type pile struct {
	cards []journal.Card
	dealt int
	ev    games.Evidence
}

// moneyCopy keeps what the ledger needs of a money event, so the ledger can be rebuilt
// without the stakes that cannot be judged (the engine never keeps the event itself).
type moneyCopy struct {
	typ         journal.Type
	spot        string
	player      string
	amount      int64
	hasAmount   bool
	line        int
	frame       string
	box         int
	afterDealer bool
}

// limitConfig is how stakes are checked against the table limits.
type limitConfig struct {
	spots       map[string]bool // the spot parts checked
	maxMultiple int64           // cap of the maximum in multiples of the minimum, 0 = none
	minFloor    int64           // lowest minimum allowed, 0 = none
}

// table is the book-keeping both poker engines share: stakes, boxes and their owners,
// hole cards, the croupier's and the board's cards, the deal sequence and the money.
type table struct {
	games.Base
	rules  map[string]games.Rule
	limits limitConfig
	// includesStake reads «N pour 1» / «N fois la mise» as N for 1.
	includesStake bool

	stakes *games.Stakes
	seats  []*seat // by box number; nil where the box is unused
	dealer pile
	board  pile
	// deal is the sequence of hole-card places (box number, dealerPlace) as dealt.
	deal      []int
	dealLines []int
	// dealJudged is set once the deal has been checked; lateHole when a hole card
	// came after that.
	dealJudged bool
	lateHole   bool
	countBad   bool
	// shown is set once the croupier's hand is revealed; shownLine is that event.
	shown     bool
	shownLine int
	// active is set once the coup has seen a bet, a card or an action.
	active     bool
	limitsDone bool
	// atCutOff marks the boxes that held a stake at the cut-off.
	atCutOff map[int]bool
	// firstCard is the card that closed the bets when no announcement came before it.
	firstCard *journal.Event
	paid      []moneyCopy
	unjudged  map[games.StakeKey]bool
	// findings dedupes findings of a rule per spot and player within the coup.
	findings map[string]bool
}

func newTable(s games.Setup, prefix string) (*table, error) {
	t := &table{
		Base:     games.NewBase(s),
		rules:    make(map[string]games.Rule, len(s.Game.Rules)),
		stakes:   games.NewStakes(),
		unjudged: make(map[games.StakeKey]bool),
		findings: make(map[string]bool),
		atCutOff: make(map[int]bool),
	}
	for _, r := range s.Game.Rules {
		t.rules[strings.TrimPrefix(r.ID, prefix+".")] = r
	}
	for _, id := range []string{rPayout, rLate, rLimit} {
		if _, ok := t.rules[id]; !ok {
			return nil, fmt.Errorf("%s: rule %s.%s is not declared", prefix, prefix, id)
		}
	}
	return t, nil
}

// readLimits reads the limit options: rules.max_multiple and rules.limit_spots.
func readLimits(o *games.Options, defMultiple int64, defSpots, allowed []string) limitConfig {
	c := limitConfig{maxMultiple: o.Int("max_multiple", defMultiple, 0, 1000), spots: map[string]bool{}}
	spots := defSpots
	var list []string
	if o.Object("limit_spots", &list) {
		spots = list
	}
	for _, s := range spots {
		ok := false
		for _, a := range allowed {
			ok = ok || s == a
		}
		if !ok {
			o.Fail("limit_spots", "unknown spot %q (want any of %s)", s, strings.Join(allowed, ", "))
			continue
		}
		c.spots[s] = true
	}
	return c
}

func (t *table) rule(id string) games.Rule { return t.rules[id] }

// find raises a finding of rule id once per (rule, spot, player) in the coup.
func (t *table) find(ev *journal.Event, id, spot, player string, expected, observed games.Value, detail string, extra ...games.Evidence) {
	key := id + "\x00" + spot + "\x00" + player
	if t.findings[key] {
		return
	}
	t.findings[key] = true
	t.Find(ev, t.rule(id), spot, player, expected, observed, detail, extra...)
}

// resetCoup clears the per-coup state when a coup opens.
func (t *table) resetCoup() {
	t.stakes.Reset()
	clear(t.seats)
	t.seats = t.seats[:0]
	t.dealer = pile{}
	t.board = pile{}
	t.deal, t.dealLines = t.deal[:0], t.dealLines[:0]
	t.dealJudged, t.lateHole, t.countBad = false, false, false
	t.shown, t.shownLine = false, 0
	t.active, t.limitsDone = false, false
	t.firstCard = nil
	t.paid = t.paid[:0]
	clear(t.unjudged)
	clear(t.findings)
}

// seat returns box n, creating it.
func (t *table) seat(n int) *seat {
	for len(t.seats) <= n {
		t.seats = append(t.seats, nil)
	}
	if t.seats[n] == nil {
		t.seats[n] = &seat{n: n}
	}
	return t.seats[n]
}

// used returns the boxes in use (stakes or cards), in box order.
func (t *table) used() []*seat {
	var out []*seat
	for _, s := range t.seats {
		if s != nil {
			out = append(out, s)
		}
	}
	return out
}

// stake returns the amount on a box's spot ("ante", "blind", ...), 0 if none.
func (t *table) stake(box int, part, player string) int64 {
	if st := t.stakes.Get(games.StakeKey{Spot: spotName(box, part), Player: player}); st != nil {
		return st.Amount
	}
	return 0
}

func spotName(box int, part string) string { return "box:" + strconv.Itoa(box) + ":" + part }

// boxStakes returns the stakes on a box, in the order placed.
func (t *table) boxStakes(box int) []*games.Stake {
	var out []*games.Stake
	for _, st := range t.stakes.All() {
		if n, _, _ := parseSpot(st.Spot); n == box {
			out = append(out, st)
		}
	}
	return out
}

// bet records a bet event: a change after the cut-off is late (and settled as placed).
// Art. 55-20 (L347-L352): Ante, Blind and Trips are in place before the deal; art. 55-21
// (L452-L453): no stake is placed, changed or withdrawn after «rien ne va plus».
func (t *table) bet(ev *journal.Event) {
	t.active = true
	box, _, _ := parseSpot(ev.Spot)
	prev := int64(0)
	if st := t.stakes.Get(games.StakeKey{Spot: ev.Spot, Player: ev.Player}); st != nil {
		prev = st.Amount
	}
	late := t.Coup.CutOff && ev.Amount != prev
	st, _ := t.stakes.Set(ev, t.Coup.ID, late)
	if ev.Amount > 0 {
		t.seat(box)
	}
	if late {
		t.LateBet(ev, t.rule(rLate), prev)
		if st.Amount > 0 && t.limitsDone {
			t.checkLimit(st, ev)
		}
	}
}

// cutOff closes the bets («rien ne va plus» or the first card) and checks the stakes as
// they stand: limits, one hand per player, no stake on another player's box.
func (t *table) cutOff(ev *journal.Event) {
	if t.Coup.CutOff {
		return
	}
	t.CloseBets(ev)
	t.checkStakes(ev)
}

func (t *table) checkStakes(at *journal.Event) {
	if t.limitsDone {
		return
	}
	t.limitsDone = true
	clear(t.atCutOff)
	for _, st := range t.stakes.All() {
		if n, _, _ := parseSpot(st.Spot); st.Amount > 0 {
			t.atCutOff[n] = true
		}
		t.checkLimit(st, at)
	}
	t.checkOwners(at)
}

// checkOwners finds each box's player (the Ante's, else the first stake's) and reports a
// player with stakes on two boxes and stakes on a box by another player. Art. 55-20
// (L342-L346): one hand per seated player, no standing player, no vacant spot; art. 55-21
// (L445-L446): one hand per player, no standing person on a seated player's hand.
func (t *table) checkOwners(at *journal.Event) {
	boxOf := map[string]int{}
	for _, s := range t.used() {
		stakes := t.boxStakes(s.n)
		if len(stakes) == 0 {
			continue
		}
		s.owner = stakes[0].Player
		for _, st := range stakes {
			if _, part, _ := parseSpot(st.Spot); part == "ante" {
				s.owner = st.Player
				break
			}
		}
		if _, ok := t.rules[rBoxes]; ok && s.n > defaultBoxes {
			st := stakes[0]
			t.find(at, rBoxes, st.Spot, st.Player, games.Text(fmt.Sprintf("a box from 1 to %d", defaultBoxes)),
				games.Text(fmt.Sprintf("box %d", s.n)),
				fmt.Sprintf("%s staked on box %d; the felt marks %d places at most", st.Player, s.n, defaultBoxes), st.Evidence)
		}
		if _, ok := t.rules[rOneHand]; ok {
			if other, seen := boxOf[s.owner]; seen {
				first := stakes[0]
				for _, st := range stakes {
					if st.Player == s.owner {
						first = st
						break
					}
				}
				t.find(at, rOneHand, first.Spot, s.owner, games.Text(fmt.Sprintf("one box (box %d)", other)),
					games.Text(fmt.Sprintf("boxes %d and %d", other, s.n)),
					fmt.Sprintf("%s stakes on box %d as well as box %d; a player has one hand only", s.owner, s.n, other), first.Evidence)
			} else {
				boxOf[s.owner] = s.n
			}
		}
		if _, ok := t.rules[rForeignStake]; !ok {
			continue
		}
		// One finding a player on another's box, on his first stake there.
		var reported map[string]bool // allocated at the first foreign stake
		for _, st := range stakes {
			if st.Player != s.owner && !reported[st.Player] {
				if reported == nil {
					reported = map[string]bool{}
				}
				reported[st.Player] = true
				t.find(at, rForeignStake, st.Spot, st.Player, games.Text(fmt.Sprintf("stakes of %s only", s.owner)),
					games.Text("stake by "+st.Player),
					fmt.Sprintf("%s staked %s on %s, the box of %s; only the seated player stakes on his hand", st.Player, games.FormatCents(st.Amount), st.Spot, s.owner), st.Evidence)
			}
		}
	}
}

// limitFor returns the limits of a spot: an override in limits.spots for the exact spot,
// its part ("trips") or "box", else the table's, the maximum capped at maxMultiple times
// the minimum and the minimum raised to the floor.
func (t *table) limitFor(spot, part string) (min, max int64) {
	l := &t.Limits
	min, max = l.Min, l.Max
	capped := true
	for _, k := range []string{spot, part, "box"} {
		if o, ok := l.Spots[k]; ok {
			if o.Min > 0 {
				min = o.Min
			}
			if o.Max > 0 {
				max, capped = o.Max, false
			}
			break
		}
	}
	if capped && t.limits.maxMultiple > 0 && l.Min > 0 {
		if c := t.limits.maxMultiple * l.Min; max == 0 || c < max {
			max = c
		}
	}
	if t.limits.minFloor > 0 && min > 0 && min < t.limits.minFloor {
		min = t.limits.minFloor
	}
	return min, max
}

// checkLimit checks one stake against its limits. Art. 55-20-1 (L391-L400) and art.
// 55-21-1 (L558-L568): stakes lie within the minimum and the maximum, the maximum being at
// most 30 (ultimate hold'em) or 100 (three card poker) times the minimum.
func (t *table) checkLimit(st *games.Stake, at *journal.Event) {
	_, part, _ := parseSpot(st.Spot)
	if !t.limits.spots[part] {
		return
	}
	min, max := t.limitFor(st.Spot, part)
	t.CheckLimit(st, min, max, t.rule(rLimit), at)
}

// addPlay records a Play bet on a box. The first one is checked against the limits when
// rules.limit_spots names play (it is an action, not a stake checked at the cut-off).
func (t *table) addPlay(s *seat, player string, amount int64, ev *journal.Event) {
	s.play += amount
	s.plays++
	s.playPlayer = player
	s.playEv.Add(ev)
	if s.plays == 1 && t.limits.spots["play"] {
		st := &games.Stake{StakeKey: games.StakeKey{Spot: spotName(s.n, "play"), Player: player}, Amount: s.play, Evidence: s.playEv}
		t.checkLimit(st, ev)
	}
}

// dealtCard notes a card dealt to the table before the bets were closed: it closes them.
func (t *table) dealtCard(ev *journal.Event) {
	if !t.Coup.CutOff {
		t.firstCard = ev.Clone()
	}
}

// lateAnnouncement reports a «rien ne va plus» after the first card dealt (other than one
// recording that card as the cut-off, cause first_card): the deal began before it.
func (t *table) lateAnnouncement(ev *journal.Event) {
	c := t.firstCard
	if c == nil || ev.Cause == "first_card" {
		return
	}
	t.firstCard = nil
	var ex games.Evidence
	ex.Add(c)
	t.find(ev, rEarlyCard, "", "", games.Text("«rien ne va plus», then the deal"), games.Text("a card dealt before it"),
		"the croupier dealt a card before announcing «rien ne va plus»; the first card closed the bets", ex)
}

// holeCard records a card dealt to a box or the croupier.
func (t *table) holeCard(ev *journal.Event) {
	place := dealerPlace
	var h *pile
	if ev.To == "dealer" {
		h = &t.dealer
	} else {
		n, _, _ := parseSpot(ev.To)
		place = n
		s := t.seat(n)
		s.cards = append(s.cards, ev.Card)
		s.dealt++
		s.ev.Add(ev)
	}
	if h != nil {
		h.cards = append(h.cards, ev.Card)
		h.dealt++
		h.ev.Add(ev)
	}
	if t.dealJudged {
		t.lateHole = true
	}
	t.deal = append(t.deal, place)
	t.dealLines = append(t.dealLines, ev.Line)
}

// reveal turns up the face-down cards of a place: the cards shown replace the face-down
// ones in order; a reveal of every card of the place replaces them all; cards beyond
// those dealt are added.
func reveal(cards []journal.Card, shown []journal.Card) []journal.Card {
	down := 0
	for _, c := range cards {
		if c.IsFaceDown() {
			down++
		}
	}
	if len(shown) == len(cards) && len(shown) != down {
		return append(cards[:0], shown...)
	}
	i := 0
	for j := range cards {
		if i < len(shown) && cards[j].IsFaceDown() {
			cards[j] = shown[i]
			i++
		}
	}
	return append(cards, shown[i:]...)
}

// dealtFaceUp marks the croupier's hand shown at the end of a coup when all n of his cards were
// dealt face up, with no reveal: a hand that took no decision then folded at the showdown.
func (t *table) dealtFaceUp(n int) {
	if !t.shown && len(t.dealer.cards) == n && known(t.dealer.cards) {
		t.shown = true
	}
}

func (t *table) revealTo(ev *journal.Event) {
	switch ev.To {
	case "dealer":
		t.dealer.cards = reveal(t.dealer.cards, ev.Cards)
		t.dealer.ev.Add(ev)
		if !t.shown {
			t.shown, t.shownLine = true, ev.Line
		}
	case "board":
		t.board.cards = reveal(t.board.cards, ev.Cards)
		t.board.ev.Add(ev)
	case "burn":
	default:
		n, _, _ := parseSpot(ev.To)
		s := t.seat(n)
		s.cards = reveal(s.cards, ev.Cards)
		s.ev.Add(ev)
	}
}

// money records a payout, collect, refund or rake.
func (t *table) money(ev *journal.Event) {
	t.Money.Add(ev)
	if ev.Type == journal.TypeRake {
		return
	}
	box, _, _ := parseSpot(ev.Spot)
	t.paid = append(t.paid, moneyCopy{typ: ev.Type, spot: ev.Spot, player: ev.Player, amount: ev.Amount,
		hasAmount: ev.HasAmount, line: ev.Line, frame: ev.Frame, box: box, afterDealer: t.shown})
}

// relieved reports a croupier change in the middle of a coup.
func (t *table) relieved(ev *journal.Event, prev string, during bool) {
	if t.Coup == nil || !during || prev == "" || ev.Dealer == prev {
		return
	}
	t.Find(ev, t.rule(rRelieved), "", "", games.Text("croupier "+prev+" until the end of the coup"), games.Text("croupier "+ev.Dealer),
		fmt.Sprintf("croupier %s was relieved by %s in the middle of coup %s", prev, ev.Dealer, t.Coup.ID))
}

// boxOf returns the box an action is for: its spot's, else the box of its player.
func (t *table) boxOf(ev *journal.Event) *seat {
	if n, _, ok := parseSpot(ev.Spot); ok {
		return t.seat(n)
	}
	for _, s := range t.used() {
		if s.owner == ev.Player && s.owner != "" {
			return s
		}
	}
	for _, st := range t.stakes.All() {
		if st.Player == ev.Player {
			n, _, _ := parseSpot(st.Spot)
			return t.seat(n)
		}
	}
	return nil
}

// player returns the player of a box: its owner, else the player of the action.
func (s *seat) player(fallback string) string {
	if s.owner != "" {
		return s.owner
	}
	return fallback
}

// known reports whether every card is face up.
func known(cards []journal.Card) bool {
	for _, c := range cards {
		if c.IsFaceDown() {
			return false
		}
	}
	return true
}

func cardsText(cards []journal.Card) string {
	parts := make([]string, len(cards))
	for i, c := range cards {
		parts[i] = c.String()
	}
	return strings.Join(parts, " ")
}

// checkDeal compares the hole-card sequence with the accepted orders: each used box
// and the croupier get perHand cards; styles lists the accepted sequences. It reports a
// wrong count (and returns false) or a wrong order.
func (t *table) checkDeal(at *journal.Event, perHand int, styles map[string][]int, countDetail string) bool {
	if t.dealJudged || len(t.deal) == 0 {
		return !t.countBad
	}
	t.dealJudged = true
	if !t.countsRight(at, perHand, countDetail) {
		return false
	}
	for _, want := range styles {
		if equalInts(want, t.deal) {
			return true
		}
	}
	var ex games.Evidence
	for _, l := range t.dealLines {
		ex.AddRef(l, "")
	}
	names := make([]string, 0, len(styles))
	for name := range styles {
		names = append(names, name)
	}
	sort.Strings(names)
	want := styles[names[0]]
	i := 0
	for i < len(want) && i < len(t.deal) && want[i] == t.deal[i] {
		i++
	}
	var exp, got string
	if i < len(want) {
		exp = placeName(want[i])
	}
	if i < len(t.deal) {
		got = placeName(t.deal[i])
	}
	t.find(at, rDealOrder, "", "", games.Text(sequenceText(want)), games.Text(sequenceText(t.deal)),
		fmt.Sprintf("card %d of the deal went to %s where %s was due (%s)", i+1, got, exp, strings.Join(names, " or ")+" order"), ex)
	return true
}

// countsRight checks that every used box and the croupier hold perHand cards.
func (t *table) countsRight(at *journal.Event, perHand int, detail string) bool {
	var wrong []string
	var ex games.Evidence
	for _, s := range t.hands() {
		if s.dealt != perHand {
			wrong = append(wrong, fmt.Sprintf("box %d has %d", s.n, s.dealt))
			ex.Merge(s.ev)
		}
	}
	if t.dealer.dealt != perHand {
		wrong = append(wrong, fmt.Sprintf("the croupier has %d", t.dealer.dealt))
		ex.Merge(t.dealer.ev)
	}
	if len(wrong) == 0 {
		return true
	}
	t.countBad = true
	t.find(at, rCardCount, "", "", games.Text(fmt.Sprintf("%d cards per hand", perHand)), games.Text(strings.Join(wrong, ", ")),
		strings.Join(wrong, ", ")+fmt.Sprintf(" cards; each hand takes exactly %d", perHand)+detail, ex)
	return false
}

// hands returns the boxes that hold a hand: a live stake or cards dealt, in box order
// (a box whose stake was withdrawn before the deal holds none).
func (t *table) hands() []*seat {
	var out []*seat
	for _, s := range t.used() {
		if s.dealt > 0 || t.stakedInTime(s.n) {
			out = append(out, s)
		}
	}
	return out
}

// stakedInTime reports whether box held a stake at the cut-off (or, before it, holds one now):
// a box staked only after it, and dealt nothing, is no hand of the deal; its late bet is the
// finding.
func (t *table) stakedInTime(box int) bool {
	if !t.limitsDone {
		return len(t.boxStakes(box)) > 0
	}
	return t.atCutOff[box]
}

// lateBox reports whether s is a box staked only after the cut-off and dealt nothing: its
// stakes play no hand and are handed back.
func (t *table) lateBox(s *seat) bool {
	return s.dealt == 0 && !t.stakedInTime(s.n) && len(t.boxStakes(s.n)) > 0
}

// playing returns the box numbers the deal serves, in box order.
func (t *table) playing() []int {
	var out []int
	for _, s := range t.hands() {
		out = append(out, s.n)
	}
	return out
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func placeName(p int) string {
	if p == dealerPlace {
		return "the croupier"
	}
	return fmt.Sprintf("box %d", p)
}

func sequenceText(seq []int) string {
	parts := make([]string, len(seq))
	for i, p := range seq {
		if p == dealerPlace {
			parts[i] = "D"
		} else {
			parts[i] = fmt.Sprint(p)
		}
	}
	return strings.Join(parts, " ")
}

// settle queues a settlement.
func (t *table) settle(st *games.Stake, stake int64, outcome games.Outcome, expected int64, detail string, ev games.Evidence) {
	s := &games.Settlement{Spot: st.Spot, Player: st.Player, Stake: stake, Outcome: outcome, Expected: expected, Detail: detail,
		Evidence: join(st.Evidence, ev)}
	t.Settle(s)
}

// unknown marks a stake that cannot be settled (cards never seen): its money is not judged.
func (t *table) unknown(k games.StakeKey) { t.unjudged[k] = true }

// finish closes the coup: the money of stakes that could not be settled is left out of
// the comparison (a camera gap is not a dealer error), then the framework matches the
// rest and emits the coup summary.
func (t *table) finish(ev *journal.Event) {
	if len(t.unjudged) > 0 {
		t.Money.Reset()
		for _, m := range t.paid {
			if t.unjudged[games.StakeKey{Spot: m.spot, Player: m.player}] {
				continue
			}
			e := journal.Event{Type: m.typ, Spot: m.spot, Player: m.player, Amount: m.amount, HasAmount: m.hasAmount, Line: m.line, Frame: m.frame}
			t.Money.Add(&e)
		}
	}
	t.EndCoup(ev, t.rule(rPayout))
}

// pays returns the net due on a winning stake paid num to den; with includesStake the
// ratio is read as num for den, the stake included.
func (t *table) pays(stake, num, den int64) int64 {
	if t.includesStake && num > den {
		// «1 pour 1» / «1 fois» stays even money: the documented option leaves even-money
		// payments as they are.
		num -= den
	}
	return t.Round.Due(stake, num, den)
}

// join returns a new Evidence holding the references of every argument (each once).
func join(evs ...games.Evidence) games.Evidence {
	lines, frames := 0, 0
	for _, e := range evs {
		lines += len(e.Lines)
		frames += len(e.Frames)
	}
	out := games.Evidence{Lines: make([]int, 0, lines), Frames: make([]string, 0, frames)}
	for _, e := range evs {
		out.Merge(e)
	}
	return out
}

// actionSpot is the spot a finding about an action names: the action's own spot (a Play
// written on box:N names box:N:play), else
// the box's spot for part ("box:N" when part is empty).
func actionSpot(ev *journal.Event, box int, part string) string {
	switch {
	case ev.Spot != "" && part == "play" && ev.Action == "play":
		if _, p, ok := parseSpot(ev.Spot); ok && p == "" {
			return spotName(box, part) // Play written on the box is the box's Play
		}
		return ev.Spot
	case ev.Spot != "":
		return ev.Spot
	case part == "":
		return fmt.Sprintf("box:%d", box)
	}
	return spotName(box, part)
}

// voidBox hands every stake of box s back (settled void, expected 0), its Play included.
func (t *table) voidBox(s *seat, why string) {
	for _, st := range t.boxStakes(s.n) {
		t.settle(st, st.Amount, games.Void, 0, why+": the stake is handed back", s.ev)
	}
	if s.play > 0 {
		st := &games.Stake{StakeKey: games.StakeKey{Spot: spotName(s.n, "play"), Player: s.player(s.playPlayer)}, Amount: s.play, Evidence: s.playEv}
		if t.stakes.Get(st.StakeKey) == nil {
			t.settle(st, s.play, games.Void, 0, why+": the stake is handed back", s.ev)
		}
	}
}
