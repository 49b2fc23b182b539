package holdem

import (
	"fmt"

	"github.com/coupwatch/coupwatch/games"
	"github.com/coupwatch/coupwatch/journal"
)

// see notes a seat number in use: seats run 1 to 10 clockwise, or to the highest seat used.
func (c *coupState) see(s int) {
	if c.top < maxPlayers {
		c.top = maxPlayers
	}
	if s > c.top {
		c.top = s
	}
}

// next returns the seat after s clockwise (the highest seat is followed by 1).
func (c *coupState) next(s int) int { return s%c.top + 1 }

// nextIn returns the first seat in the hand clockwise after s (s itself excluded unless it is
// the only one); 0 when no seat is in the hand.
func (c *coupState) nextIn(s int) int {
	for i, t := 0, s; i < c.top; i++ {
		t = c.next(t)
		if c.seats[t].inHand {
			return t
		}
	}
	return 0
}

// prevIn returns the first seat in the hand counter-clockwise before s.
func (c *coupState) prevIn(s int) int {
	for i, t := 0, s; i < c.top; i++ {
		t = (t+c.top-2)%c.top + 1
		if c.seats[t].inHand {
			return t
		}
	}
	return 0
}

func (c *coupState) inHand() int {
	n := 0
	for s := 1; s <= c.top; s++ {
		if c.seats[s].inHand {
			n++
		}
	}
	return n
}

// counts returns the players still in (not folded) and those of them who can still bet.
func (c *coupState) counts() (live, canAct int) {
	for s := 1; s <= c.top; s++ {
		p := &c.seats[s]
		if !p.inHand || p.folded {
			continue
		}
		live++
		if !p.allIn {
			canAct++
		}
	}
	return live, canAct
}

// pending reports whether seat s still has to speak in the betting round: AM 2008-761 art. 1
// (seed 003 L62-L63, L78-L81): a round ends when everyone still in has checked, or has called
// the last bet or raise; a player all in, or alone against players all in having matched the
// highest bet, has nothing left to say.
func (c *coupState) pending(s int, live, canAct int) bool {
	p := &c.seats[s]
	if !p.inHand || p.folded || p.allIn || live < 2 {
		return false
	}
	if p.bet < c.highest {
		return true
	}
	return !p.acted && canAct >= 2
}

// nextPending returns the first seat clockwise after s that still has to speak, 0 if none.
func (c *coupState) nextPending(s int) int {
	live, canAct := c.counts()
	for i, t := 0, s; i < c.top; i++ {
		t = c.next(t)
		if c.pending(t, live, canAct) {
			return t
		}
	}
	return 0
}

func (e *engine) bigBlind() int64 {
	switch {
	case e.c.bbAmt > 0:
		return e.c.bbAmt
	case e.bb > 0:
		return e.bb
	}
	return 1
}

// newRound starts a betting round after a street's first card; from is where speech starts
// (the first player to speak is the first still in clockwise after it).
func (e *engine) newRound(from int) {
	c := &e.c
	for s := 1; s <= c.top; s++ {
		p := &c.seats[s]
		p.bet, p.acted, p.skipped = 0, false, false
	}
	c.highest, c.lastRaise, c.lastSeat = 0, e.bigBlind(), from
}

// closeRound is called when a street's first card comes: the betting round before it must be
// over (AM 2008-761 art. 1, seed 003 L64-L65, L82-L83, L85-L86).
func (e *engine) closeRound(ev *journal.Event, street string) {
	c := &e.c
	if c.noDeal {
		return
	}
	live, canAct := c.counts()
	for i, t := 0, c.lastSeat; i < c.top; i++ {
		t = c.next(t)
		if !c.pending(t, live, canAct) || c.seats[t].skipped {
			continue
		}
		p := &c.seats[t]
		why := "had not spoken"
		if p.bet < c.highest {
			why = fmt.Sprintf("had not called the bet of %s", games.FormatCents(c.highest))
		}
		e.Find(ev, e.rules.round, "", "", games.Text("betting round over before the "+street),
			games.Text(fmt.Sprintf("%s still to speak", e.name(t))),
			fmt.Sprintf("the %s was dealt while %s (seat %d) %s; the round ends only when every player still in has checked or called", street, e.name(t), t, why))
		return
	}
}

// finishDeal is called by the first event after the hole cards (an action, a burn, the board,
// a reveal): it judges the button, the blinds, the option and the deal, then starts the
// pre-flop round.
func (e *engine) finishDeal(ev *journal.Event) {
	c := &e.c
	if c.dealt {
		return
	}
	c.dealt = true
	c.noDeal = !c.dealing
	e.judgeSeats(ev)
	e.judgeButton(ev)
	e.judgeBlinds(ev)
	e.judgeOption(ev)
	if !c.noDeal {
		e.judgeDeal(ev)
	}
	// The pre-flop round: speech starts left of the big blind, or of the option (L48).
	for s := 1; s <= c.top; s++ {
		p := &c.seats[s]
		if p.bet > c.highest {
			c.highest = p.bet
		}
	}
	c.lastRaise = e.bigBlind()
	if c.optSeat != 0 {
		c.lastRaise = c.optAmt
	}
	switch {
	case c.optSeat != 0:
		c.lastSeat = c.optSeat
	case c.bbSeat != 0:
		c.lastSeat = c.bbSeat
	default:
		c.lastSeat = c.button
	}
}

// judgeSeats checks the seating: AM 2008-761 art. 1 (seed 003 L28): at most ten seated
// players, numbered 1 to 10 clockwise.
func (e *engine) judgeSeats(ev *journal.Event) {
	c := &e.c
	n, beyond := 0, 0
	for s := 1; s <= c.top; s++ {
		if c.seats[s].inHand {
			n++
			if s > maxPlayers {
				beyond = s
			}
		}
	}
	if n <= maxPlayers && beyond == 0 {
		return
	}
	expected := games.Text(fmt.Sprintf("at most %d players in seats 1 to %d", maxPlayers, maxPlayers))
	observed := games.Text(fmt.Sprintf("%d players, highest seat %d", n, c.top))
	detail := fmt.Sprintf("%d players were dealt in, up to seat %d; the table seats at most %d players, numbered 1 to %d", n, c.top, maxPlayers, maxPlayers)
	if beyond == 0 {
		e.Find(ev, e.rules.seats, "", "", expected, observed, detail)
		return
	}
	e.findSeat(ev, e.rules.seats, beyond, expected, observed, func(string) string { return detail })
}

// judgeButton derives the button from the small blind; whether it moved one seat clockwise
// from the previous coup is judged when the coup ends (judgeButtonMove), once every player
// has shown where he sits (AM 2008-761 art. 1, seed 003 L41-L43).
func (e *engine) judgeButton(ev *journal.Event) {
	c := &e.c
	if c.sbSeat == 0 || c.noDeal {
		e.prevButton = 0 // the button cannot be placed: the next coup is not compared with it
		return
	}
	c.button = c.prevIn(c.sbSeat)
	if c.inHand() == 2 && e.cfg.headsUpButton {
		c.button = c.sbSeat
	}
	if e.prevButton != 0 {
		c.btnPrev = e.prevButton
		c.btnAt = journal.Event{T: ev.T, Line: ev.Line, Frame: ev.Frame}
	}
	e.prevButton = c.button
}

// judgeButtonMove checks that the button moved one seat clockwise (L41). When a player
// changed seats in the coup (L33, its own finding) the button may have moved either to the
// next seat now occupied or to the next seat counting that player at his former seat: both
// are accepted, so that one breach does not also show as a button out of place.
func (e *engine) judgeButtonMove() {
	c := &e.c
	if c.btnPrev == 0 || c.button == 0 {
		return
	}
	var occ [seatCap + 1]bool
	for s := 1; s <= c.top; s++ {
		occ[s] = c.seats[s].inHand
	}
	next := func(from int) int {
		for i, t := 0, from; i < c.top; i++ {
			t = c.next(t)
			if occ[t] {
				return t
			}
		}
		return 0
	}
	want := next(c.btnPrev)
	sbWant := next(want)
	moved := false
	for s := 1; s <= c.top; s++ {
		if from := c.seats[s].movedFrom; from != 0 && c.seats[s].inHand {
			occ[s], occ[from], moved = false, true, true
		}
	}
	if want == c.button || want == 0 || moved && next(c.btnPrev) == c.button {
		return
	}
	if c.inHand() == 2 && e.cfg.headsUpButton {
		sbWant = want
	}
	e.Find(&c.btnAt, e.rules.button, seatSpot(c.sbSeat), e.name(c.sbSeat), games.Text(fmt.Sprintf("button at seat %d, small blind at seat %d", want, sbWant)),
		games.Text(fmt.Sprintf("button at seat %d, small blind at seat %d", c.button, c.sbSeat)),
		fmt.Sprintf("the button was at seat %d last coup and moves one seat clockwise to seat %d, so the small blind is seat %d's; %s posted it from seat %d",
			c.btnPrev, want, sbWant, e.name(c.sbSeat), c.sbSeat))
}

// judgeBlinds checks who posted the blinds and how much (AM 2008-761 art. 1, seed 003 L42-L44).
func (e *engine) judgeBlinds(ev *journal.Event) {
	c := &e.c
	if c.sbSeat == 0 || c.bbSeat == 0 {
		if c.noDeal && c.sbSeat == 0 && c.bbSeat == 0 {
			return
		}
		what := "small blind"
		if c.sbSeat != 0 {
			what = "big blind"
		}
		e.Find(ev, e.rules.blinds, "", "", games.Text("small and big blinds before the deal"), games.Text("no "+what),
			fmt.Sprintf("the cards were dealt with no %s posted; the two players left of the button post the blinds before the deal", what))
		return
	}
	sbName, bbName := e.name(c.sbSeat), e.name(c.bbSeat)
	if !c.noDeal {
		if want := c.nextIn(c.sbSeat); want != c.bbSeat {
			e.Find(ev, e.rules.blinds, seatSpot(c.bbSeat), bbName, games.Text(fmt.Sprintf("big blind from seat %d", want)),
				games.Text(fmt.Sprintf("big blind from seat %d", c.bbSeat)),
				fmt.Sprintf("%s posted the big blind from seat %d; it is posted by the next player after the small blind, seat %d", bbName, c.bbSeat, want))
			return
		}
	}
	if c.bbAmt < c.sbAmt || c.bbAmt > 2*c.sbAmt {
		e.Find(ev, e.rules.blinds, seatSpot(c.bbSeat), bbName,
			games.Text(fmt.Sprintf("big blind from %s to %s", games.FormatCents(c.sbAmt), games.FormatCents(2*c.sbAmt))), games.Money(c.bbAmt),
			fmt.Sprintf("%s posted a big blind of %s against a small blind of %s; the big blind is at least the small blind and at most twice it",
				bbName, games.FormatCents(c.bbAmt), games.FormatCents(c.sbAmt)))
		return
	}
	if e.sb == 0 || e.bb == 0 {
		// The first coup sets the game's blinds (L44: fixed for the whole game).
		if e.sb == 0 {
			e.sb = c.sbAmt
		}
		if e.bb == 0 {
			e.bb = c.bbAmt
		}
	}
	switch {
	case c.sbAmt != e.sb:
		e.Find(ev, e.rules.blinds, seatSpot(c.sbSeat), sbName, games.Money(e.sb), games.Money(c.sbAmt),
			fmt.Sprintf("%s posted a small blind of %s; the game's blinds are %s/%s and stay fixed for the whole game",
				sbName, games.FormatCents(c.sbAmt), games.FormatCents(e.sb), games.FormatCents(e.bb)))
	case c.bbAmt != e.bb:
		e.Find(ev, e.rules.blinds, seatSpot(c.bbSeat), bbName, games.Money(e.bb), games.Money(c.bbAmt),
			fmt.Sprintf("%s posted a big blind of %s; the game's blinds are %s/%s and stay fixed for the whole game",
				bbName, games.FormatCents(c.bbAmt), games.FormatCents(e.sb), games.FormatCents(e.bb)))
	}
}

// judgeOption checks the option's seat and amount (AM 2008-761 art. 1, seed 003 L45).
func (e *engine) judgeOption(ev *journal.Event) {
	c := &e.c
	if c.optSeat == 0 || c.optFlagged || c.bbSeat == 0 {
		return
	}
	name := e.name(c.optSeat)
	if want := c.nextIn(c.bbSeat); !c.noDeal && want != c.optSeat {
		c.optFlagged = true
		e.Find(ev, e.rules.option, seatSpot(c.optSeat), name, games.Text(fmt.Sprintf("option from seat %d", want)),
			games.Text(fmt.Sprintf("option from seat %d", c.optSeat)),
			fmt.Sprintf("%s posted the option from seat %d; only the player immediately left of the big blind (seat %d) may", name, c.optSeat, want))
		return
	}
	if c.optAmt != 2*c.bbAmt {
		c.optFlagged = true
		e.Find(ev, e.rules.option, seatSpot(c.optSeat), name, games.Money(2*c.bbAmt), games.Money(c.optAmt),
			fmt.Sprintf("%s posted an option of %s; the option is exactly twice the big blind, %s", name, games.FormatCents(c.optAmt), games.FormatCents(2*c.bbAmt)))
	}
}

// judgeDeal checks the hole cards: two each, one at a time, clockwise from the player left of
// the button (AM 2008-761 art. 1, seed 003 L46).
func (e *engine) judgeDeal(ev *journal.Event) {
	c := &e.c
	for s := 1; s <= c.top; s++ {
		p := &c.seats[s]
		if p.inHand && p.dealt != 2 {
			c.dealFlagged = true
			dealt := p.dealt
			e.findSeat(ev, e.rules.deal, s, games.Text("2 hole cards"), games.Text(fmt.Sprintf("%d hole cards", dealt)), func(who string) string {
				return fmt.Sprintf("seat %d (%s) received %d hole cards; each player receives two", s, who, dealt)
			})
			return
		}
	}
	if c.button == 0 {
		return
	}
	n := c.inHand()
	for i, s := range c.holeSeq {
		want := c.nextIn(c.button)
		for k := 0; k < i%n; k++ {
			want = c.nextIn(want)
		}
		if s != want {
			c.dealFlagged = true
			e.Find(ev, e.rules.deal, "", "", games.Text(fmt.Sprintf("card %d to seat %d", i+1, want)), games.Text(fmt.Sprintf("card %d to seat %d", i+1, s)),
				fmt.Sprintf("hole card %d went to seat %d instead of seat %d; the cards are dealt one at a time clockwise from the player left of the button (seat %d)",
					i+1, s, want, c.nextIn(c.button)))
			return
		}
	}
}

// minRaiseTo is the least a raise may bring a bet to: AM 2008-761 art. 1 (seed 003 L51, L56,
// L60, L75): at least double the highest bet (rules.min_raise = increment: the highest bet
// plus the last bet or raise, and at least the big blind).
func (e *engine) minRaiseTo() int64 {
	c := &e.c
	if e.cfg.incrementRule {
		inc := c.lastRaise
		if bb := e.bigBlind(); inc < bb {
			inc = bb
		}
		return c.highest + inc
	}
	return 2 * c.highest
}

// bet follows a betting action: its turn, then whether it is allowed and big enough.
func (e *engine) bet(ev *journal.Event, s int) {
	c := &e.c
	e.finishDeal(ev)
	c.played = true
	p := &c.seats[s]
	who := p.player
	if !p.inHand {
		if !c.noDeal {
			// L30: one hand each, no play from a seat that was dealt none.
			e.Find(ev, e.rules.illegal, ev.Spot, who, games.Text("a player dealt in"), games.Text(ev.Action+" from a seat with no cards"),
				fmt.Sprintf("%s made a %s from seat %d, which was dealt no cards", who, ev.Action, s))
			return
		}
		p.inHand = true
	}
	if p.allIn && p.shortCall != nil && !p.folded {
		e.undoShortCall(p)
	}
	if p.folded || p.allIn {
		state := "folded"
		if p.allIn {
			state = "gone all in"
		}
		e.Find(ev, e.rules.illegal, ev.Spot, who, games.Text("no action"), games.Text(ev.Action),
			fmt.Sprintf("%s made a %s after having %s in this coup", who, ev.Action, state))
		return
	}
	if !c.noDeal {
		e.checkOrder(ev, s)
	}
	owed := c.highest - p.bet
	street := streetName(c.street)
	switch ev.Action {
	case "fold":
		p.folded = true
	case "check":
		if owed > 0 {
			// L72: check only when no bet is open to the player.
			e.Find(ev, e.rules.illegal, ev.Spot, who, games.Text(fmt.Sprintf("call %s, raise or fold", games.FormatCents(owed))), games.Text("check"),
				fmt.Sprintf("%s checked %s facing a bet of %s; a player may check only when no bet is open to him", who, street, games.FormatCents(c.highest)))
			p.skipped = true // he may correct it without a further finding
		}
	case "call":
		amt := ev.Amount
		if !ev.HasAmount {
			amt = owed
		}
		switch {
		case owed == 0 && amt == 0:
			// A call of nothing is a check.
		case owed == 0:
			e.Find(ev, e.rules.illegal, ev.Spot, who, games.Text("check, bet or fold"), games.Text("call "+games.FormatCents(amt)),
				fmt.Sprintf("%s called %s %s with no bet to call", who, games.FormatCents(amt), street))
		case amt > 0 && amt < owed:
			// A call for less than the bet is a call with all the chips the player has left
			// (L89, L97-L101): he is all in, and the chips he did not cover go to a side pot.
			// If he speaks again in the coup he had chips left: undoShortCall.
			p.shortCall = &shortCall{ev: *ev, street: c.street, owed: owed, highest: c.highest}
			short := *ev
			short.Action = "all_in"
			e.raise(&short, p, street)
			p.acted = true
			return
		case amt != owed:
			// L50, L55, L59, L74: a call matches the highest bet.
			e.Find(ev, e.rules.illegal, ev.Spot, who, games.Money(owed), games.Money(amt),
				fmt.Sprintf("%s called with %s %s; matching the bet of %s takes %s", who, games.FormatCents(amt), street, games.FormatCents(c.highest), games.FormatCents(owed)))
		}
		// Whatever the amount, the player called: he has matched the highest bet for the
		// round (a wrong amount is its own finding and changes nothing for the others).
		p.total += amt
		p.bet = c.highest
	default: // bet, raise, all_in
		e.raise(ev, p, street)
	}
	p.acted = true
}

// streetName names a betting round for a finding's detail.
func streetName(street int) string {
	return [...]string{"pre-flop", "on the flop", "on the turn", "on the river"}[street]
}

// undoShortCall takes back the all-in read into a call for less than the bet, now that the
// seat speaks again: it had chips left, so the call was a wrong amount (L50, L55, L59, L74),
// and, as any call, it matched the highest bet of its round. The seat speaks now without an
// order finding, since the rounds went on without it.
func (e *engine) undoShortCall(p *seat) {
	c := &e.c
	sc := p.shortCall
	p.shortCall = nil
	p.allIn = false
	p.skipped = true
	street := streetName(sc.street)
	e.Find(&sc.ev, e.rules.illegal, sc.ev.Spot, p.player, games.Money(sc.owed), games.Money(sc.ev.Amount),
		fmt.Sprintf("%s called with %s %s; matching the bet of %s takes %s, and he went on playing, so he was not all in",
			p.player, games.FormatCents(sc.ev.Amount), street, games.FormatCents(sc.highest), games.FormatCents(sc.owed)))
	if sc.street == c.street && p.bet < sc.highest {
		p.bet = sc.highest
	}
}

// raise follows a bet, a raise or an all-in, whatever the camera called it: an action that
// brings the player's bet above the highest bet opens (no bet yet) or raises.
func (e *engine) raise(ev *journal.Event, p *seat, street string) {
	c := &e.c
	who := p.player
	allIn := ev.Action == "all_in"
	to := p.bet + ev.Amount
	switch {
	case to <= c.highest:
		if !allIn {
			min := e.minRaiseTo()
			e.Find(ev, e.rules.minRaise, ev.Spot, who, games.Text("raise to at least "+games.FormatCents(min)), games.Text("to "+games.FormatCents(to)),
				fmt.Sprintf("%s's %s of %s brings his bet to %s %s, not above the highest bet of %s; a raise goes to at least %s",
					who, ev.Action, games.FormatCents(ev.Amount), games.FormatCents(to), street, games.FormatCents(c.highest), games.FormatCents(min)))
		}
	case c.highest == 0:
		// AM 2008-761 art. 1 (seed 003 L69, L73): an opening bet is at least the big blind.
		if bb := e.bigBlind(); !allIn && to < bb {
			e.Find(ev, e.rules.minBet, ev.Spot, who, games.Text("at least "+games.FormatCents(bb)), games.Money(to),
				fmt.Sprintf("%s opened %s with %s; an opening bet is at least the big blind, %s", who, street, games.FormatCents(to), games.FormatCents(bb)))
		}
		c.lastRaise = to
		c.highest = to
	default:
		min := e.minRaiseTo()
		if !allIn && to < min {
			rule := "at least double the highest bet"
			if e.cfg.incrementRule {
				rule = "by at least the last bet or raise"
			}
			e.Find(ev, e.rules.minRaise, ev.Spot, who, games.Text("raise to at least "+games.FormatCents(min)), games.Text("raise to "+games.FormatCents(to)),
				fmt.Sprintf("%s raised to %s %s over a highest bet of %s; a raise goes %s, to %s", who, games.FormatCents(to), street,
					games.FormatCents(c.highest), rule, games.FormatCents(min)))
		}
		if inc := to - c.highest; inc >= c.lastRaise {
			c.lastRaise = inc
		}
		c.highest = to
	}
	p.bet = to
	p.total += ev.Amount
	if allIn {
		p.allIn = true
	}
}

// checkOrder checks that the seat speaks in turn: AM 2008-761 art. 1 (seed 003 L47-L63,
// L66-L77): clockwise from the player left of the big blind or option pre-flop, from the
// first player still in left of the button after the flop.
func (e *engine) checkOrder(ev *journal.Event, s int) {
	c := &e.c
	p := &c.seats[s]
	if p.skipped {
		p.skipped = false
		if ev.Action != "fold" && ev.Action != "check" && ev.Action != "call" && p.bet+ev.Amount > c.highest {
			// A passed-over player who bets or raises re-opens the round: speech goes on
			// clockwise from him (L66-L77).
			c.lastSeat = s
		}
		return
	}
	want := c.nextPending(c.lastSeat)
	if want == s {
		c.lastSeat = s
		return
	}
	if want == 0 && (ev.Action == "check" || (ev.Action == "call" && ev.Amount == 0)) && p.bet == c.highest {
		// A check when the round is over and nothing is owed (the last player with chips,
		// the others all in) changes nothing: no breach.
		return
	}
	if want == 0 {
		e.Find(ev, e.rules.order, ev.Spot, p.player, games.Text("no one: the betting round is over"), games.Text(p.player+" speaks"),
			fmt.Sprintf("%s made a %s after the betting round was over", p.player, ev.Action))
		c.lastSeat = s
		return
	}
	e.Find(ev, e.rules.order, ev.Spot, p.player, games.Text(fmt.Sprintf("%s (seat %d) to speak", e.name(want), want)),
		games.Text(fmt.Sprintf("%s (seat %d) spoke", p.player, s)),
		fmt.Sprintf("%s spoke out of turn: it was %s's turn (seat %d)", p.player, e.name(want), want))
	live, canAct := c.counts()
	for t := want; t != s; t = c.next(t) {
		if c.pending(t, live, canAct) {
			c.seats[t].skipped = true
		}
	}
	c.lastSeat = s
}
