package baccara

import (
	"fmt"
	"slices"
	"time"

	"github.com/coupwatch/coupwatch/games"
	"github.com/coupwatch/coupwatch/games/shoe"
	"github.com/coupwatch/coupwatch/journal"
)

type variant uint8

const (
	puntoBanco variant = iota
	cheminDeFer
	banqueATousVa
)

func (v variant) String() string {
	switch v {
	case cheminDeFer:
		return "chemin de fer"
	case banqueATousVa:
		return "banque à tout va"
	}
	return "punto banco"
}

// Hands, by variant: punto banco punto 0 and banco 1; chemin de fer ponte 0 and banker 1;
// banque à tout va right 0, left 1 and banker 2. The last hand is the bank's.
func handIndex(v variant, place string) int {
	switch v {
	case puntoBanco:
		switch place {
		case "punto":
			return 0
		case "banco":
			return 1
		}
	case cheminDeFer:
		switch place {
		case "ponte":
			return 0
		case "banker":
			return 1
		}
	case banqueATousVa:
		switch place {
		case "right":
			return 0
		case "left":
			return 1
		case "banker":
			return 2
		}
	}
	return -1
}

func handNames(v variant) []string {
	switch v {
	case cheminDeFer:
		return []string{"ponte", "banker"}
	case banqueATousVa:
		return []string{"right", "left", "banker"}
	}
	return []string{"punto", "banco"}
}

func placeList(v variant) string {
	switch v {
	case cheminDeFer:
		return "ponte, banker"
	case banqueATousVa:
		return "right, left, banker"
	}
	return "punto, banco"
}

// dealOrder returns the hand that the card at position pos of the initial deal goes to, or -1
// past the initial deal (art. 13.6 L820, 11.5 L686, 12.82 L741).
func dealOrder(v variant, pos int) int {
	switch {
	case v == banqueATousVa && pos < 6:
		return pos % 3 // right, left, banker, twice
	case v != banqueATousVa && pos < 4:
		return pos % 2 // punto or ponte first, then banco or banker, twice
	}
	return -1
}

type spotKind uint8

const (
	noSpot spotKind = iota
	spotPunto
	spotBanco
	spotTie
	spotDragonPunto
	spotDragonBanco
	spotPairPunto
	spotPairBanco
	spotPairBoth
	spotBank  // chemin de fer: the banker's stake
	spotPonte // chemin de fer: a ponte's banco
	spotRight
	spotLeft
	spotBoth
)

func spotKindOf(v variant, s string) spotKind {
	switch v {
	case puntoBanco:
		switch s {
		case "punto":
			return spotPunto
		case "banco":
			return spotBanco
		case "tie":
			return spotTie
		case "dragon:punto":
			return spotDragonPunto
		case "dragon:banco":
			return spotDragonBanco
		case "pair:punto":
			return spotPairPunto
		case "pair:banco":
			return spotPairBanco
		case "pair:both":
			return spotPairBoth
		}
	case cheminDeFer:
		switch s {
		case "bank":
			return spotBank
		case "banco":
			return spotPonte
		}
	case banqueATousVa:
		switch s {
		case "right":
			return spotRight
		case "left":
			return spotLeft
		case "both":
			return spotBoth
		}
	}
	return noSpot
}

// config is a variant's fixed rules plus the table's rules options.
type config struct {
	v     variant
	decks int
	// csm: a continuous shuffling machine (punto banco): no stop card, cards back every coup.
	csm bool
	// checkBurn: the burn count of art. 13.4 is checked (punto banco).
	checkBurn bool
	// burnExposed: whether the exposed burn card is among those its value burns: either,
	// excluded or included.
	burnExposed string

	punto2000     bool
	tiePays       int64
	sideForOne    bool
	dragonTwoLose bool
	dragonTiePush bool
	pairByValue   bool
	pairHalfPaid  bool
	voidWrongDraw bool
	payOrder      bool

	bankerTable BankerTable
	garageBelow bool
	doubleStake bool
	aChevalWL   string
	natTwoCards bool // banque à tout va: a natural tableau is settled on the banker's first two cards
	lastNext    bool

	stopMin, stopMax int
	freshAtOpen      bool
}

type ruleSet struct {
	payout, late, limit, early, order, draw0, draw1, burn, last, stopPos, deck, payOrder, levy, doubling, hand, partial games.Rule
}

// dealt is one card out of the shoe in the open coup.
type dealt struct {
	hand  int8 // hand index, -1 for a burn card
	card  journal.Card
	line  int
	t     time.Time
	frame string
}

func (d *dealt) ref() *journal.Event { return &journal.Event{Line: d.line, T: d.t, Frame: d.frame} }

// Stop card states.
const (
	stopNone    = iota
	stopNext    // the next coup is the last of the shoe
	stopCurrent // the open coup is the last
	stopDone    // the last coup has been dealt: no coup before a new shoe
)

type engine struct {
	games.Base
	cfg   config
	rules ruleSet
	names []string
	// carried holds the stakes of a void coup not handed back, for the players who write no bet
	// of their own in the next coup; standing the amounts they stood at in the coup they were
	// carried into.
	carried  []games.Stake
	standing map[games.StakeKey]int64
	// early is the coup's first card when it came before any «rien ne va plus» (a copy: the
	// reader reuses its events); hasEarly until a no_more_bets judges it.
	early    journal.Event
	hasEarly bool
	// seqAtCards is how many money events the coup had when its last card was dealt or turned.
	seqAtCards int

	stakes *games.Stakes
	shoe   *shoe.Shoe
	// fresh: the shoe has been watched since its start, so its remaining cards are known.
	fresh bool
	stop  int
	// stopAfter: the stop card came out during this coup and the next coup is the last.
	stopAfter bool
	// pendingBurns are burn cards seen between coups; they open the next coup's taille.
	pendingBurns []dealt

	// The open coup.
	seq        []dealt // hand cards in the order they came out
	hands      [3][]int
	hs         [3]hand // the hands judged at the end of the coup (buffers reused)
	resBuf     []byte
	burns      []dealt
	burnDone   bool
	limitsDone bool
	orderDone  bool

	// Chemin de fer: the previous coup's bank, for the doubling and hand rules.
	prevBanker  string
	prevBank    int64
	prevBankNet int64
	prevBankWon int8 // 1 won, -1 lost, 0 tie or unknown
}

func newEngine(s games.Setup, cfg config) (*engine, error) {
	e := &engine{
		Base:     games.NewBase(s),
		cfg:      cfg,
		names:    handNames(cfg.v),
		stakes:   games.NewStakes(),
		standing: map[games.StakeKey]int64{},
		shoe:     shoe.New(cfg.decks),
		fresh:    cfg.freshAtOpen,
	}
	g := s.Game
	has := func(id string) games.Rule {
		for _, r := range g.Rules {
			if r.ID == id {
				return r
			}
		}
		return games.Rule{}
	}
	p := g.ID + "."
	r := &e.rules
	r.payout = g.Rule(p + "payout")
	r.late = g.Rule(p + "late_bet")
	r.limit = g.Rule(p + "bet_limit")
	r.early = g.Rule(p + "card_before_cutoff")
	r.order = g.Rule(p + "dealing_order")
	r.last = g.Rule(p + "last_coup")
	r.stopPos = g.Rule(p + "stop_card_position")
	r.deck = g.Rule(p + "deck_composition")
	if cfg.v == puntoBanco {
		r.draw0 = g.Rule(p + "punto_third_card")
		r.draw1 = g.Rule(p + "banco_third_card")
	} else {
		r.draw0 = g.Rule(p + "ponte_draw")
		r.draw1 = g.Rule(p + "banker_draw")
	}
	r.burn = has(p + "burn")
	r.payOrder = has(p + "payment_order")
	r.levy = has(p + "levy")
	r.doubling = has(p + "bank_doubling")
	r.hand = has(p + "hand_after_loss")
	r.partial = has(p + "partial_banco")
	if cfg.stopMin > 0 && cfg.stopMax > 0 && cfg.stopMin > cfg.stopMax {
		s.Options.Fail("stop_card_min_left", "must not exceed stop_card_max_left (%d > %d)", cfg.stopMin, cfg.stopMax)
	}
	return e, nil
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
		e.judgeEarlyCard(ev)
	case journal.TypeCard:
		e.card(ev)
	case journal.TypeReveal:
		e.reveal(ev)
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
	clear(e.standing)
	e.seq = e.seq[:0]
	for i := range e.hands {
		e.hands[i] = e.hands[i][:0]
	}
	e.burns = append(e.burns[:0], e.pendingBurns...)
	e.pendingBurns = e.pendingBurns[:0]
	e.burnDone, e.limitsDone, e.orderDone, e.stopAfter, e.hasEarly, e.seqAtCards = false, false, false, false, false, 0
	if e.cfg.csm {
		// AM 88-384 art. 13.4 (L806): after each coup the cards go back into the machine.
		e.shoe.Reset()
	}
	if e.stop == stopNext {
		e.stop = stopCurrent
	}
}

func (e *engine) bet(ev *journal.Event) {
	// A player who writes his bets in the coup dealt again does not stand on his void coup's.
	e.carried = slices.DeleteFunc(e.carried, func(st games.Stake) bool { return st.Player == ev.Player })
	prev := int64(0)
	if st := e.stakes.Get(games.StakeKey{Spot: ev.Spot, Player: ev.Player}); st != nil {
		prev = st.Amount
	}
	late := e.Coup.CutOff && ev.Amount != prev
	e.stakes.Set(ev, e.Coup.ID, late)
	if late {
		// AM 88-384 art. 13.6 (L820), 11.4 (L684), 12.82 (L741): no stake after «rien ne va plus».
		// The late bet is the finding: its amount is not checked again against the limits.
		e.LateBet(ev, e.rules.late, prev)
	}
}

// standOnVoid puts back, at the cut-off, the stakes of the void coup before it that the croupier
// did not hand back, for the players who wrote no bet in this coup: it is dealt again on them.
func (e *engine) standOnVoid() {
	for i := range e.carried {
		st := e.carried[i]
		st.Coup, st.Late = e.Coup.ID, false
		e.stakes.Put(&st)
		e.standing[st.StakeKey] = st.Amount
	}
	e.carried = e.carried[:0]
}

// cutOff closes the bets: limits are checked on the stakes as they stand, and at chemin de
// fer the bank is checked against the previous coup.
func (e *engine) cutOff(ev *journal.Event) {
	if e.Coup.CutOff {
		return
	}
	e.standOnVoid()
	e.CloseBets(ev)
	e.checkLimits(ev)
	if e.cfg.v == cheminDeFer {
		e.checkBank(ev)
	}
}

func (e *engine) checkLimits(at *journal.Event) {
	if e.limitsDone {
		return
	}
	e.limitsDone = true
	for _, st := range e.stakes.All() {
		if a, ok := e.standing[st.StakeKey]; ok && a == st.Amount {
			continue // stood from a void coup at this amount: judged there
		}
		e.checkLimit(st, at)
	}
}

func (e *engine) checkLimit(st *games.Stake, at *journal.Event) {
	// AM 88-384 art. 13.6 (L818): each player's stake between the minimum and the maximum.
	min, max := e.Limits.For(st.Spot)
	e.CheckLimit(st, min, max, e.rules.limit, at)
}

// card handles a card out of the shoe: a burn, the stop card or a hand card.
func (e *engine) card(ev *journal.Event) {
	switch ev.To {
	case "stop":
		e.stopCard(ev)
		return
	case "burn":
		d := dealt{hand: -1, card: ev.Card, line: ev.Line, t: ev.T, frame: ev.Frame}
		opening := e.Coup == nil || len(e.seq) == 0
		if opening && len(e.pendingBurns) == 0 && (e.Coup == nil || len(e.burns) == 0) {
			e.newShoe()
		}
		e.deal(ev)
		switch {
		case e.Coup == nil:
			e.pendingBurns = append(e.pendingBurns, d)
		case len(e.seq) == 0:
			e.burns = append(e.burns, d)
		}
		return
	}
	e.Ensure(e, ev)
	h := handIndex(e.cfg.v, ev.To)
	if len(e.seq) == 0 {
		e.firstCard(ev)
	}
	e.deal(ev)
	e.seqAtCards = len(e.Money.Seq)
	pos := len(e.seq)
	e.seq = append(e.seq, dealt{hand: int8(h), card: ev.Card, line: ev.Line, t: ev.T, frame: ev.Frame})
	e.hands[h] = append(e.hands[h], pos)
	if want := dealOrder(e.cfg.v, pos); want >= 0 && want != h && !e.orderDone {
		// AM 88-384 art. 13.6 (L820), 11.5 (L686), 12.82 (L741): the order of the first cards.
		e.orderDone = true
		e.Find(ev, e.rules.order, "", "", games.Text(fmt.Sprintf("card %d to %s", pos+1, e.names[want])),
			games.Text(fmt.Sprintf("card %d to %s", pos+1, e.names[h])),
			fmt.Sprintf("card %d of the coup (%s) went to %s; the order is %s", pos+1, ev.Card, e.names[h], e.orderText()))
	}
}

func (e *engine) orderText() string {
	switch e.cfg.v {
	case cheminDeFer:
		return "ponte, banker, ponte, banker"
	case banqueATousVa:
		return "right, left, banker, twice"
	}
	return "punto, banco, punto, banco"
}

// firstCard runs the checks due when the first hand card of a coup comes out: the cut-off,
// the burn of a new taille, and the last coup of the shoe.
func (e *engine) firstCard(ev *journal.Event) {
	if !e.Coup.CutOff {
		// The first card closes the bets (the game's own cut-off when the journal records no
		// announcement); a «rien ne va plus» announced after it shows the card came out too
		// early (judgeEarlyCard).
		e.early, e.hasEarly = *ev, true // the reader reuses its events
		e.cutOff(ev)
	}
	e.checkBurn(ev)
	if e.stop == stopDone && !e.cfg.csm {
		// AM 88-384 art. 13.4 (L798), 11.2 (L660), 12.10 (L764): no coup after the last coup.
		e.Find(ev, e.rules.last, "", "", games.Text("a new shoe after the last coup"), games.Text("another coup dealt"),
			"a coup is dealt after the last coup of the taille (the stop card had come out) without a new shoe")
		// The shoe is now unknown: start counting afresh so a new, unseen shoe raises nothing.
		e.shoe.Reset()
		e.fresh = false
		e.stop = stopNone
	}
}

// judgeEarlyCard reports a card out of the shoe before the bets were stopped: the coup's first
// card came before a «rien ne va plus» announced after it (AM 88-384 art. 13.7, L864). A
// no_more_bets with cause first_card merely records that card's cut-off.
func (e *engine) judgeEarlyCard(nmb *journal.Event) {
	if !e.hasEarly {
		return
	}
	e.hasEarly = false
	if nmb.Cause == "first_card" {
		return
	}
	var ex games.Evidence
	ex.Add(nmb)
	ev := &e.early
	e.Find(ev, e.rules.early, "", "", games.Text("cards after «rien ne va plus»"), games.Text("card out before the bets were closed"),
		fmt.Sprintf("%s came out to %s before the bets were closed; the coup must still be dealt", ev.Card, ev.To), ex)
}

// newShoe starts a new shoe: burn cards open a taille (art. 13.4, L796).
func (e *engine) newShoe() {
	if e.cfg.csm {
		return
	}
	e.shoe.Reset()
	e.fresh = true
	e.stop = stopNone
	e.stopAfter = false
}

// checkBurn checks the burn at the start of a taille (punto banco, art. 13.4, L796, L802-L804):
// the exposed card's value (faces and tens ten) is the number of cards burned.
func (e *engine) checkBurn(at *journal.Event) {
	if e.burnDone || len(e.burns) == 0 || !e.cfg.checkBurn {
		e.burnDone = true
		return
	}
	e.burnDone = true
	shown := e.burns[0].card
	if shown.IsFaceDown() {
		return // the value cannot be read
	}
	v := int(shown.Rank)
	if v > 10 {
		v = 10 // faces count ten for this operation (L796)
	}
	// n is the number of cards after the exposed one.
	n := len(e.burns) - 1
	switch e.cfg.burnExposed {
	case "excluded":
		if n == v {
			return
		}
	case "included":
		if n == v-1 {
			return
		}
	default:
		if n == v || n == v-1 {
			return
		}
	}
	var ex games.Evidence
	for i := range e.burns {
		ex.AddRef(e.burns[i].line, e.burns[i].frame)
	}
	want := fmt.Sprintf("%d cards burned after it", v)
	switch e.cfg.burnExposed {
	case "included":
		want = fmt.Sprintf("%d cards burned with it", v)
	case "either":
		want = fmt.Sprintf("%d cards burned, with it or after it", v)
	}
	e.Find(at, e.rules.burn, "", "", games.Text(want), games.Text(fmt.Sprintf("%d cards burned after it", n)),
		fmt.Sprintf("the exposed burn card %s is worth %d (%s); the journal shows %d more burn cards", shown, v, want, n), ex)
}

// deal counts a card out of the shoe and checks the deck composition.
func (e *engine) deal(ev *journal.Event) {
	if e.shoe.Remaining() <= 0 {
		// More cards than the shoe holds: a new shoe began unseen.
		e.shoe.Reset()
		e.fresh = false
	}
	if !e.shoe.Deal(ev.Card) {
		e.foreignCard(ev, ev.Card)
	}
}

func (e *engine) foreignCard(ev *journal.Event, c journal.Card) {
	if e.Coup == nil {
		return
	}
	// AM 88-384 art. 1.5 (L85): a card seen more often than the decks hold is foreign or duplicated.
	n := e.shoe.Seen(c)
	e.Find(ev, e.rules.deck, "", "", games.Text(fmt.Sprintf("at most %d × %s in %d decks", e.cfg.decks, c, e.cfg.decks)),
		games.Text(fmt.Sprintf("%s seen %d times", c, n)),
		fmt.Sprintf("%s has come out %d times from a shoe of %d decks: a foreign or duplicated card", c, n, e.cfg.decks))
}

// stopCard handles the stop card: the coup in progress (or the next) is the last of the shoe.
func (e *engine) stopCard(ev *journal.Event) {
	if e.cfg.csm {
		return
	}
	if e.fresh && (e.cfg.stopMin > 0 || e.cfg.stopMax > 0) {
		left := e.shoe.Remaining()
		if (e.cfg.stopMin > 0 && left < e.cfg.stopMin) || (e.cfg.stopMax > 0 && left > e.cfg.stopMax) {
			e.Find(ev, e.rules.stopPos, "", "", games.Text(fmt.Sprintf("%s cards left", rangeText(e.cfg.stopMin, e.cfg.stopMax))),
				games.Text(fmt.Sprintf("%d cards left", left)),
				fmt.Sprintf("the stop card came out with %d cards left in the shoe; it must leave %s", left, rangeText(e.cfg.stopMin, e.cfg.stopMax)))
		}
	}
	switch {
	case e.Coup == nil:
		e.stop = stopNext
	case e.cfg.v == banqueATousVa && e.cfg.lastNext && len(e.seq) > 0:
		// AM 88-384 art. 12.10 (L764): the last coup is dealt from the cards left after the stop card.
		e.stopAfter = true
	default:
		e.stop = stopCurrent
	}
}

func rangeText(min, max int) string {
	switch {
	case min > 0 && max > 0 && min == max:
		return fmt.Sprint(min)
	case min > 0 && max > 0:
		return fmt.Sprintf("%d to %d", min, max)
	case min > 0:
		return fmt.Sprintf("at least %d", min)
	}
	return fmt.Sprintf("at most %d", max)
}

// reveal turns up face-down cards of a hand, matching them to its XX cards in order.
func (e *engine) reveal(ev *journal.Event) {
	h := handIndex(e.cfg.v, ev.To)
	if h < 0 || e.Coup == nil {
		return
	}
	e.seqAtCards = len(e.Money.Seq)
	idx := e.hands[h]
	down := 0
	for _, i := range idx {
		if e.seq[i].card.IsFaceDown() {
			down++
		}
	}
	if down == 0 {
		return
	}
	full := len(ev.Cards) == len(idx) && len(ev.Cards) > down
	j := 0
	for k, i := range idx {
		if !e.seq[i].card.IsFaceDown() {
			continue
		}
		var c journal.Card
		if full {
			c = ev.Cards[k]
		} else {
			if j >= len(ev.Cards) {
				break
			}
			c = ev.Cards[j]
			j++
		}
		e.seq[i].card = c
		if !e.shoe.Reveal(c) {
			e.foreignCard(ev, c)
		}
	}
}

// checkBank applies the chemin de fer bank rules at the cut-off: a banker who lost passes the
// hand (L673), and one who won and keeps it doubles his bank less the levy (L704-L708).
func (e *engine) checkBank(at *journal.Event) {
	var bank, largest *games.Stake
	for _, st := range e.stakes.All() {
		switch {
		case st.Spot == "bank" && bank == nil:
			bank = st
		case st.Spot == "banco" && (largest == nil || st.Amount > largest.Amount):
			largest = st
		}
	}
	if bank != nil && largest != nil && largest.Amount > 0 && largest.Amount < bank.Amount/2 && e.rules.partial.ID != "" {
		// AM 88-384 art. 11.4 (L679): «pour obtenir les cartes, il est permis de ne tenir qu'une
		// partie du banco, à condition que la somme proposée soit au moins égale à la moitié».
		e.Find(at, e.rules.partial, largest.Spot, largest.Player, games.Text("a banco of at least "+games.FormatCents(bank.Amount/2)),
			games.Money(largest.Amount),
			fmt.Sprintf("no ponte held half the bank of %s: the largest banco, %s's, is %s", games.FormatCents(bank.Amount), largest.Player, games.FormatCents(largest.Amount)),
			largest.Evidence)
	}
	if bank == nil || e.prevBanker == "" || bank.Player != e.prevBanker {
		return
	}
	switch e.prevBankWon {
	case -1:
		// AM 88-384 art. 11.4 (L673): the banker holds the hand until he loses.
		e.Find(at, e.rules.hand, bank.Spot, bank.Player, games.Text("the hand passes to the next player"),
			games.Text(bank.Player+" holds the bank again"),
			fmt.Sprintf("%s lost the previous coup as banker but holds the bank again; the hand passes when the banker loses", bank.Player), bank.Evidence)
	case 1:
		// AM 88-384 art. 11.8 (L704-L706): the bank is doubled less the 5% levy, up to the maximum.
		due := e.prevBank + e.prevBankNet
		_, max := e.Limits.For("bank")
		ok := bank.Amount == due
		want, wantV := games.FormatCents(due), games.Money(due)
		if max > 0 && due > max {
			ok = bank.Amount == max
			want = games.FormatCents(max) + " (the maximum; the rest to the garage)"
			wantV = games.Text(want)
		}
		if !ok && e.cfg.garageBelow && bank.Amount < due {
			ok = true
		}
		if !ok && max > 0 && bank.Amount > max {
			// A bank over the maximum is that one breach, reported as over the limit.
			ok = true
		}
		if !ok {
			e.Find(at, e.rules.doubling, bank.Spot, bank.Player, wantV, games.Money(bank.Amount),
				fmt.Sprintf("%s won %s on a bank of %s in play and keeps the hand: the bank must be %s, not %s", bank.Player,
					games.FormatCents(e.prevBankNet), games.FormatCents(e.prevBank), want, games.FormatCents(bank.Amount)), bank.Evidence)
		}
	}
}
