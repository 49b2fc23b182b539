package holdem

import (
	"fmt"
	"time"

	"github.com/coupwatch/coupwatch/games"
	"github.com/coupwatch/coupwatch/journal"
)

// seat is one seat's part in the open coup.
type seat struct {
	player string
	inHand bool
	// dealt counts the hole cards dealt to the seat; hole holds those known (dealt face up or
	// revealed), known how many.
	dealt int
	hole  [2]journal.Card
	known int

	folded, allIn, mucked bool
	// shortCall is the call for less than the bet that put the seat all in, kept in case the
	// seat speaks again: then it was not all in, and the call was a wrong amount.
	shortCall *shortCall
	// total is every chip the seat put in during the coup, bet those of the betting round.
	total, bet int64
	// acted: the seat has spoken in this betting round.
	acted bool
	// skipped: the seat may speak out of turn without a finding (passed over by a player who
	// spoke out of turn, or correcting its own illegal action).
	skipped bool
	// seatFlagged: a seat change was already reported for this seat in this coup.
	seatFlagged bool
	// movedFrom: the seat the player sat at before a seat change in this coup, 0 if none.
	movedFrom int

	evidence games.Evidence // the seat's actions and reveal
}

// shortCall is a call for less than the bet, read as an all-in until the seat speaks again.
type shortCall struct {
	ev            journal.Event
	street        int
	owed, highest int64
}

// moneyEvent is a payout, collect or refund kept until the coup ends, when the pots whose
// winner cannot be known (hands not shown) are left out of the comparison.
type moneyEvent struct {
	typ       journal.Type
	spot      string
	player    string
	amount    int64
	hasAmount bool
	line      int
	frame     string
	t         time.Time
}

// deferred is a finding about a seat whose player the journal has not named yet (hole cards
// come before the seat's first action): it is raised when the seat first acts, or at the end
// of the coup.
type deferred struct {
	seat               int
	rule               games.Rule
	expected, observed games.Value
	detail             func(player string) string
	at                 journal.Event // time, line and frame of the event that showed the breach
}

// coupState is what the engine follows during one coup.
type coupState struct {
	// dealerReported: the croupier's relief during this coup has been reported.
	dealerReported bool
	deferred       []deferred
	seats          [seatCap + 1]seat
	// top is the highest seat number of the table (10 unless a seat beyond it was used):
	// clockwise order wraps from top to 1.
	top int

	started bool // a card or an action has been seen
	dealing bool // the first hole card is out
	dealt   bool // the deal is over: betting, a burn, the board or a reveal came
	noDeal  bool // the journal shows no hole card: seats join the hand as they act
	played  bool // a betting action after the blinds was seen
	holeSeq []int

	sbSeat, bbSeat, optSeat int
	sbAmt, bbAmt, optAmt    int64
	optFlagged              bool // the option was reported once already
	dealFlagged             bool
	button                  int
	// btnPrev is the previous coup's button when this coup's is to be compared with it
	// (at the end of the coup), btnAt the event that placed this coup's button.
	btnPrev int
	btnAt   journal.Event

	street  int // 0 pre-flop, 1 flop, 2 turn, 3 river
	board   [5]journal.Card
	nBoard  int
	boardEv games.Evidence
	burns   int

	highest   int64 // the highest bet of the round
	lastRaise int64 // the last full bet or raise of the round (min_raise = increment)
	lastSeat  int   // the seat that spoke last (or where the round starts)
}

type ruleSet struct {
	award, rake, button, blinds, option, deal, burn, order, illegal, minBet, minRaise, round, dealerChange, seatChange, seats, recave games.Rule
}

type engine struct {
	games.Base
	cfg   config
	rules ruleSet

	// Table state, across coups.
	seatOf     map[string]int
	playerAt   [seatCap + 1]string
	prevButton int
	sb, bb     int64 // the game's blinds, 0 until known
	openT      time.Time

	c     coupState
	money []moneyEvent
}

func newEngine(s games.Setup, cfg config) *engine {
	e := &engine{Base: games.NewBase(s), cfg: cfg, seatOf: make(map[string]int, maxPlayers), sb: cfg.smallBlind, bb: cfg.bigBlind}
	if s.Open != nil {
		e.openT = s.Open.T
	}
	g := s.Game
	e.rules = ruleSet{
		award: g.Rule(rulePotAward), rake: g.Rule(ruleRake), button: g.Rule(ruleButton), blinds: g.Rule(ruleBlinds),
		option: g.Rule(ruleOption), deal: g.Rule(ruleDeal), burn: g.Rule(ruleBurn), order: g.Rule(ruleOrder),
		illegal: g.Rule(ruleIllegal), minBet: g.Rule(ruleMinBet), minRaise: g.Rule(ruleMinRaise), round: g.Rule(ruleRound),
		dealerChange: g.Rule(ruleDealerChange), seatChange: g.Rule(ruleSeatChange), seats: g.Rule(ruleSeats), recave: g.Rule(ruleRecave),
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
	case journal.TypeDealer:
		e.dealerChange(ev)
	case journal.TypeAction:
		if ev.Action == "recave" || ev.Action == "rebuy" {
			e.recave(ev)
			return
		}
		e.Ensure(e, ev)
		e.action(ev)
	case journal.TypeCard:
		e.Ensure(e, ev)
		e.card(ev)
	case journal.TypeReveal:
		e.Ensure(e, ev)
		e.reveal(ev)
	case journal.TypeNoMoreBets:
		e.Ensure(e, ev)
		e.CloseBets(ev)
	case journal.TypePayout, journal.TypeCollect, journal.TypeRefund:
		e.Ensure(e, ev)
		e.money = append(e.money, moneyEvent{typ: ev.Type, spot: ev.Spot, player: ev.Player, amount: ev.Amount,
			hasAmount: ev.HasAmount, line: ev.Line, frame: ev.Frame, t: ev.T})
	case journal.TypeRake:
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
	// Reuse the previous coup's buffers: settlements and findings copy what they cite.
	old := &e.c
	fresh := coupState{holeSeq: old.holeSeq[:0], boardEv: reuse(old.boardEv), top: max(old.top, maxPlayers), deferred: old.deferred[:0]}
	for s := range fresh.seats {
		fresh.seats[s].evidence = reuse(old.seats[s].evidence)
	}
	e.c = fresh
	e.money = e.money[:0]
}

// dealerChange: AM 2008-761 art. 1 (seed 003 L21): the dealer cannot be relieved during the
// deal, the play or the payment.
func (e *engine) dealerChange(ev *journal.Event) {
	if e.Coup == nil || !e.c.started || e.Coup.Dealer == "" || ev.Dealer == e.Coup.Dealer || e.c.dealerReported {
		return
	}
	e.c.dealerReported = true
	e.Find(ev, e.rules.dealerChange, "", "", games.Text("dealer "+e.Coup.Dealer+" to the end of the coup"), games.Text("dealer "+ev.Dealer),
		fmt.Sprintf("dealer %s was relieved by %s in the middle of coup %s; a dealer stays from the deal to the last payment", e.Coup.Dealer, ev.Dealer, e.Coup.ID))
}

// seatFor resolves the seat of an action and keeps the table's seating; it reports a player
// found in another seat than before (AM 2008-761 art. 1, seed 003 L33: no seat changes).
func (e *engine) seatFor(ev *journal.Event) int {
	n := seatOf(ev.Spot)
	if n == 0 {
		return e.seatOf[ev.Player]
	}
	e.c.see(n)
	name := ev.Player
	if name == "" {
		name = e.playerAt[n]
		if name == "" {
			name = ev.Spot
		}
	}
	p := &e.c.seats[n]
	if ev.Player != "" {
		if old, ok := e.seatOf[ev.Player]; ok && old != n && !p.seatFlagged {
			p.seatFlagged = true
			p.movedFrom = old
			e.Find(ev, e.rules.seatChange, ev.Spot, ev.Player, games.Text(fmt.Sprintf("seat:%d", old)), games.Text(ev.Spot),
				fmt.Sprintf("%s now plays from seat %d but sat at seat %d; players may not change seats", ev.Player, n, old))
		}
		e.seatOf[ev.Player] = n
		e.playerAt[n] = ev.Player
	}
	if p.player == "" {
		p.player = name
		e.flushDeferred(n)
	}
	return n
}

// findSeat raises a finding about a seat now if its player is known, else when he is.
func (e *engine) findSeat(ev *journal.Event, rule games.Rule, s int, expected, observed games.Value, detail func(player string) string) {
	if name := e.knownName(s); name != "" {
		e.Find(ev, rule, seatSpot(s), name, expected, observed, detail(name))
		return
	}
	e.c.deferred = append(e.c.deferred, deferred{seat: s, rule: rule, expected: expected, observed: observed, detail: detail,
		at: journal.Event{T: ev.T, Line: ev.Line, Frame: ev.Frame}})
}

// flushDeferred raises the deferred findings of seat s (every seat when s is 0).
func (e *engine) flushDeferred(s int) {
	c := &e.c
	kept := c.deferred[:0]
	for i := range c.deferred {
		d := &c.deferred[i]
		if s != 0 && d.seat != s {
			kept = append(kept, *d)
			continue
		}
		name := e.knownName(d.seat)
		who := name
		if who == "" {
			who = seatSpot(d.seat)
		}
		e.Find(&d.at, d.rule, seatSpot(d.seat), name, d.expected, d.observed, d.detail(who))
	}
	c.deferred = kept
}

// knownName returns the player at seat s in this coup, or the last one seen there ("" if none).
func (e *engine) knownName(s int) string {
	if p := e.c.seats[s].player; p != "" {
		return p
	}
	return e.playerAt[s]
}

func (e *engine) name(s int) string {
	if p := e.knownName(s); p != "" {
		return p
	}
	return seatSpot(s)
}

func reuse(ev games.Evidence) games.Evidence {
	return games.Evidence{Lines: ev.Lines[:0], Frames: ev.Frames[:0]}
}

func seatSpot(s int) string { return fmt.Sprintf("seat:%d", s) }

func (e *engine) action(ev *journal.Event) {
	c := &e.c
	c.started = true
	s := e.seatFor(ev)
	if s == 0 {
		return // a player the journal never seated: nothing can be followed
	}
	c.seats[s].evidence.Add(ev)
	switch ev.Action {
	case "post_sb", "post_bb":
		e.blind(ev, s)
	case "option", "straddle":
		e.option(ev, s)
	case "muck":
		c.seats[s].mucked = true
	case "show":
	case "check", "bet", "call", "raise", "fold", "all_in":
		e.bet(ev, s)
	default:
		// AM 2008-761 art. 1 (seed 003 L48-L77): the decisions the game offers.
		e.Find(ev, e.rules.illegal, seatSpot(s), e.name(s),
			games.Text("check, bet, call, raise, fold or all in"), games.Text(ev.Action),
			fmt.Sprintf("%s made the action «%s», which hold'em does not offer", e.name(s), ev.Action))
	}
}

// recave judges a rebuy: AM 2008-761 art. 1 (seed 003 L35-L37): allowed during the game but
// never during a coup, and at least the initial cave. A coup is under way from its first
// blind, card or action until its first payment.
func (e *engine) recave(ev *journal.Event) {
	who := ev.Player
	if who == "" {
		who = ev.Spot
	}
	if e.Coup != nil && e.c.started && len(e.money) == 0 && len(e.Money.Keys()) == 0 {
		e.Find(ev, e.rules.recave, ev.Spot, ev.Player, games.Text("a recave between coups"), games.Text("a recave during coup "+e.Coup.ID),
			fmt.Sprintf("%s bought a recave during coup %s; recaves are allowed only between coups", who, e.Coup.ID))
		return
	}
	if ev.HasAmount && e.cfg.buyIn > 0 && ev.Amount < e.cfg.buyIn {
		e.Find(ev, e.rules.recave, ev.Spot, ev.Player, games.Money(e.cfg.buyIn), games.Money(ev.Amount),
			fmt.Sprintf("%s bought a recave of %s, under the initial cave of %s", who, games.FormatCents(ev.Amount), games.FormatCents(e.cfg.buyIn)))
	}
}

// blind records a blind; its seat and amount are judged when the deal is over.
func (e *engine) blind(ev *journal.Event, s int) {
	c := &e.c
	p := &c.seats[s]
	what := "small blind"
	if ev.Action == "post_bb" {
		what = "big blind"
	}
	if c.dealing || c.dealt {
		// AM 2008-761 art. 1 (seed 003 L42, L46): the blinds are posted before the deal.
		e.Find(ev, e.rules.blinds, ev.Spot, p.player, games.Text(what+" before the deal"), games.Text(what+" after the first card"),
			fmt.Sprintf("%s posted the %s after the cards began to be dealt; the blinds come before the deal", p.player, what))
	}
	if ev.Action == "post_sb" {
		if c.sbSeat != 0 {
			e.Find(ev, e.rules.blinds, ev.Spot, p.player, games.Text("one small blind"), games.Text("a second small blind"),
				fmt.Sprintf("%s posted a second small blind in the coup", p.player))
		} else {
			c.sbSeat, c.sbAmt = s, ev.Amount
		}
	} else {
		if c.bbSeat != 0 {
			e.Find(ev, e.rules.blinds, ev.Spot, p.player, games.Text("one big blind"), games.Text("a second big blind"),
				fmt.Sprintf("%s posted a second big blind in the coup", p.player))
		} else {
			c.bbSeat, c.bbAmt = s, ev.Amount
		}
	}
	p.inHand = true
	p.bet += ev.Amount
	p.total += ev.Amount
}

// option records the option; AM 2008-761 art. 1 (seed 003 L45): first betting round only,
// before the deal, by the player immediately left of the big blind, twice the big blind.
func (e *engine) option(ev *journal.Event, s int) {
	c := &e.c
	p := &c.seats[s]
	switch {
	case c.optSeat != 0:
		c.optFlagged = true
		e.Find(ev, e.rules.option, ev.Spot, p.player, games.Text("one option"), games.Text("a second option"),
			fmt.Sprintf("%s posted an option when one was already posted", p.player))
		p.bet += ev.Amount
		p.total += ev.Amount
		return
	case c.dealt || c.dealing:
		c.optFlagged = true
		e.Find(ev, e.rules.option, ev.Spot, p.player, games.Text("option before the deal"), games.Text("option after the first card"),
			fmt.Sprintf("%s posted the option after the cards began to be dealt; the option is posted before the deal of the first round", p.player))
	}
	c.optSeat, c.optAmt = s, ev.Amount
	p.inHand = true
	p.bet += ev.Amount
	p.total += ev.Amount
	if c.dealt {
		// A late option still raises the bet the others face.
		if p.bet > c.highest {
			c.highest = p.bet
		}
	}
}

func (e *engine) card(ev *journal.Event) {
	c := &e.c
	c.started = true
	switch ev.To {
	case "burn":
		if !c.dealing && !c.dealt {
			return // a burn before the deal is the house's business
		}
		e.finishDeal(ev)
		c.burns++
	case "board":
		e.finishDeal(ev)
		e.boardCard(ev)
	default:
		s := seatOf(ev.To)
		c.see(s)
		p := &c.seats[s]
		if c.dealt {
			if !c.dealFlagged {
				c.dealFlagged = true
				e.findSeat(ev, e.rules.deal, s, games.Text("hole cards dealt before the betting"), games.Text("a hole card after the betting began"),
					func(string) string {
						return fmt.Sprintf("a hole card went to seat %d after the betting or the board had begun", s)
					})
			}
		} else {
			c.dealing = true
			c.holeSeq = append(c.holeSeq, s)
		}
		p.inHand = true
		if !ev.Card.IsFaceDown() && p.dealt < 2 {
			p.hole[p.dealt] = ev.Card
			if p.known < p.dealt+1 {
				p.known = p.dealt + 1
			}
		}
		p.dealt++
	}
}

func (e *engine) reveal(ev *journal.Event) {
	c := &e.c
	e.finishDeal(ev)
	s := seatOf(ev.To)
	c.see(s)
	p := &c.seats[s]
	if len(ev.Cards) == 1 && p.known == 1 && p.dealt >= 2 {
		// The second card turned up on its own.
		p.hole[1], p.known = ev.Cards[0], 2
	} else {
		// A seat dealt a third hole card (a misdeal reported as the card came) shows it too:
		// its hand is read on its first two cards.
		p.known = copy(p.hole[:], ev.Cards)
	}
	p.evidence.Add(ev)
}

// boardCard follows the flop, the turn and the river: each street's first card closes the
// betting round and must follow exactly one burn.
func (e *engine) boardCard(ev *journal.Event) {
	c := &e.c
	if c.nBoard >= 5 {
		if !c.dealFlagged {
			c.dealFlagged = true
			e.Find(ev, e.rules.deal, "", "", games.Text("five board cards"), games.Text("a sixth board card"),
				"a sixth card was dealt to the board; the board is the flop, the turn and the river")
		}
		return
	}
	if c.nBoard == 0 || c.nBoard == 3 || c.nBoard == 4 {
		street := [...]string{"flop", "", "", "turn", "river"}[c.nBoard]
		e.closeRound(ev, street)
		// AM 2008-761 art. 1 (seed 003 L65, L83, L86): the dealer burns the first card of the
		// pack before the flop, the turn and the river.
		if c.burns != 1 {
			detail := fmt.Sprintf("the %s was dealt without burning a card first", street)
			if c.burns > 1 {
				detail = fmt.Sprintf("%d cards were burned before the %s; one is burned", c.burns, street)
			}
			e.Find(ev, e.rules.burn, "", "", games.Text("1 burn before the "+street), games.Text(fmt.Sprintf("%d burns", c.burns)), detail)
		}
		c.burns = 0
		c.street++
		e.newRound(e.c.button)
	}
	c.board[c.nBoard] = ev.Card
	c.nBoard++
	c.boardEv.Add(ev)
}
