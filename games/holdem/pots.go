package holdem

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/coupwatch/coupwatch/games"
	"github.com/coupwatch/coupwatch/games/poker/hand"
	"github.com/coupwatch/coupwatch/journal"
)

// pot is one pot of the coup: the chips of every seat between two contribution levels.
type pot struct {
	name     string
	amount   int64
	share    [seatCap + 1]int64 // what each seat put in this pot
	eligible []int              // seats still in that contributed to it
	winners  []int
	best     hand.Value
	decided  bool
	rake     int64
}

// buildPots splits the chips into a main pot and side pots: AM 2008-761 art. 1 (seed 003
// L97-L101): the main pot holds the all-in stack and as much of each other player's chips,
// an outer pot the rest, as many outer pots as the all-ins need. The levels are the totals of
// the players all in, then the highest total. With rules.uncalled_bet = return, the chips of
// the highest total that no one matched are taken out first and returned as excess.
func (e *engine) buildPots() (pots []pot, excessSeat int, excess int64) {
	c := &e.c
	var totals [seatCap + 1]int64
	var highest, second int64
	topSeat := 0
	for s := 1; s <= c.top; s++ {
		t := c.seats[s].total
		totals[s] = t
		switch {
		case t > highest:
			highest, second, topSeat = t, highest, s
		case t > second:
			second = t
		}
	}
	if highest == 0 {
		return nil, 0, 0
	}
	if e.cfg.returnUncalld && highest > second {
		excessSeat, excess = topSeat, highest-second
		totals[topSeat] = second
		highest = second
	}
	levels := make([]int64, 0, 4)
	for s := 1; s <= c.top; s++ {
		if p := &c.seats[s]; p.allIn && !p.folded && totals[s] > 0 {
			levels = append(levels, totals[s])
		}
	}
	levels = append(levels, highest)
	sort.Slice(levels, func(i, j int) bool { return levels[i] < levels[j] })
	var prev, dead int64
	var deadShare [seatCap + 1]int64
	for _, lv := range levels {
		if lv <= prev {
			continue
		}
		var p pot
		for s := 1; s <= c.top; s++ {
			in := totals[s] - prev
			if in <= 0 {
				continue
			}
			if in > lv-prev {
				in = lv - prev
			}
			p.share[s] = in
			p.amount += in
			if !c.seats[s].folded && c.seats[s].inHand {
				p.eligible = append(p.eligible, s)
			}
		}
		prev = lv
		if len(p.eligible) == 0 {
			// Chips no player still in can win (only folded players reached this level): they
			// go to the pot below.
			dead += p.amount
			for s := range p.share {
				deadShare[s] += p.share[s]
			}
			continue
		}
		pots = append(pots, p)
	}
	if len(pots) == 0 {
		return nil, excessSeat, excess
	}
	if dead > 0 {
		last := &pots[len(pots)-1]
		last.amount += dead
		for s := range deadShare {
			last.share[s] += deadShare[s]
		}
	}
	for i := range pots {
		pots[i].name = potName(i)
	}
	return pots, excessSeat, excess
}

// decide finds the pot's winners: the only player left in it, or the best hands shown at the
// showdown among its contributors (AM 2008-761 art. 1, seed 003 L91-L92, L97-L101). A hand
// not shown cannot win; with no hand shown, or the board incomplete, the pot is undecided.
func (e *engine) decide(p *pot) {
	c := &e.c
	if len(p.eligible) == 1 {
		p.winners, p.decided = append(p.winners[:0], p.eligible[0]), true
		return
	}
	if c.nBoard < 5 {
		return
	}
	for _, cd := range c.board {
		if cd.IsFaceDown() {
			return // a board card the camera did not read
		}
	}
	var cards [7]journal.Card
	copy(cards[2:], c.board[:])
	for _, s := range p.eligible {
		st := &c.seats[s]
		if st.known < 2 || st.mucked || st.hole[0].IsFaceDown() || st.hole[1].IsFaceDown() {
			continue
		}
		cards[0], cards[1] = st.hole[0], st.hole[1]
		v := hand.Eval7(cards)
		switch {
		case len(p.winners) == 0 || v > p.best:
			p.best = v
			p.winners = append(p.winners[:0], s)
		case v == p.best:
			p.winners = append(p.winners, s)
		}
	}
	p.decided = len(p.winners) > 0
}

// rakeOf returns the house's levy on a pot.
func (e *engine) rakeOf(amount int64) int64 {
	cfg := &e.cfg
	var r int64
	switch cfg.rake {
	case rakeNone:
		return 0
	case rakePercent:
		// AM 2008-761 art. 1 (seed 003 L106): a rate between 2 % and 6 % set by the Direction.
		r = cfg.rakeRound.Due(amount, cfg.bp, 10000)
	case rakeFixed:
		// L104: a fixed amount per predetermined bracket.
		r = bracketAmount(cfg.brackets, amount)
	case rakeHourly:
		// L105: an amount per hour of play, on the Direction's scale.
		hours := int64(0)
		if e.Coup != nil && !e.openT.IsZero() && e.Coup.Start.After(e.openT) {
			hours = int64(e.Coup.Start.Sub(e.openT) / time.Hour)
		}
		r = bracketAmount(cfg.brackets, hours)
	case rakeFrance:
		// Arrêté of 14 May 2007 art. 57-2 (F004 L717-L725): 4 % of each pot, capped by the
		// initial buy-in, rounded up to the next half euro.
		limit := franceCap(cfg.buyIn)
		if cfg.capThenRound && limit > 0 {
			raw := amount * cfg.bp // in 1/10000 cent
			if raw > limit*10000 {
				raw = limit * 10000
			}
			r = cfg.rakeRound.Due(raw, 1, 10000)
		} else {
			r = cfg.rakeRound.Due(amount, cfg.bp, 10000)
			if limit > 0 && r > limit {
				r = limit
			}
		}
	}
	if cfg.cap > 0 && r > cfg.cap {
		r = cfg.cap
	}
	if r > amount {
		r = amount
	}
	return r
}

func bracketAmount(bs []bracket, x int64) int64 {
	var r int64
	for _, b := range bs {
		if x < b.from {
			break
		}
		r = b.amount
	}
	return r
}

// FinishCoup settles the pots and the rake and closes the coup.
func (e *engine) FinishCoup(ev *journal.Event) {
	c := &e.c
	e.judgeButtonMove()
	e.flushDeferred(0)
	if !c.played && c.nBoard == 0 {
		// No betting and no board: a misdeal or a void coup, which the Direction's own
		// regulation governs (AM 2008-761 art. 1, seed 003 L96): nothing is settled and the
		// money handed back is not judged.
		if c.started {
			e.Coup.Result = "no play (misdeal or void coup)"
		}
		if c.dealing && !c.dealt {
			// The deal is judged even when no play followed it: a wrong count of hole cards
			// is what made the misdeal (L46).
			c.dealt = true
			e.judgeDeal(ev)
		}
		e.money = e.money[:0]
		e.Money.Reset()
		e.EndCoup(ev, e.rules.award)
		return
	}
	pots, exSeat, excess := e.buildPots()
	undecided := e.settle(pots, exSeat, excess)
	for i := range e.money {
		m := &e.money[i]
		if containsStr(undecided, m.spot) {
			continue // the winner of this pot cannot be known: its payouts cannot be judged
		}
		mev := journal.Event{Type: m.typ, Spot: m.spot, Player: m.player, Amount: m.amount, HasAmount: m.hasAmount, Line: m.line, Frame: m.frame, T: m.t}
		e.Money.Add(&mev)
	}
	e.money = e.money[:0]
	e.EndCoup(ev, e.rules.award)
}

func containsStr(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// settle queues one settlement per pot share and one for the rake; it returns the pots whose
// winner cannot be known.
func (e *engine) settle(pots []pot, exSeat int, excess int64) (undecided []string) {
	c := &e.c
	if len(pots) == 0 && excess == 0 {
		return nil
	}
	var result strings.Builder
	if c.nBoard > 0 {
		result.WriteString("board")
		for _, cd := range c.board[:c.nBoard] {
			result.WriteByte(' ')
			result.WriteString(cd.String())
		}
	}
	noRake := e.cfg.noFlopNoDrop && c.nBoard == 0
	var rake, odd, total int64
	for i := range pots {
		p := &pots[i]
		total += p.amount
		if !noRake {
			p.rake = e.rakeOf(p.amount)
		}
		rake += p.rake
		e.decide(p)
		if result.Len() > 0 {
			result.WriteString("; ")
		}
		if !p.decided {
			undecided = append(undecided, p.name)
			fmt.Fprintf(&result, "%s %s undecided (hands not shown)", p.name, games.FormatCents(p.amount))
			continue
		}
		odd += e.award(p, &result)
	}
	rake += odd
	if excess > 0 {
		name := e.name(exSeat)
		st := &c.seats[exSeat]
		s := &games.Settlement{Spot: seatSpot(exSeat), Player: name, Stake: excess, Outcome: games.Push, Expected: 0,
			Detail: fmt.Sprintf("%s of %s's bet was called by no one and goes back to him", games.FormatCents(excess), name)}
		s.Evidence.Merge(st.evidence)
		e.Settle(s)
	}
	// The rake: one settlement for the coup, spot "rake", player "house" (L93, L102-L107).
	rs := &games.Settlement{Spot: "rake", Player: "house", Stake: total, Outcome: games.Win, Expected: rake}
	rs.Detail = rakeDetail(pots, odd, noRake)
	if e.Money.Rakes > 0 {
		rs.Observed, rs.HasObserved = e.Money.Rake, true
		rs.Evidence.Merge(e.Money.RakeEvidence)
		if e.Money.Rake != rake {
			why := "took too little"
			if e.Money.Rake > rake {
				why = "took too much"
			}
			d := e.Find(nil, e.rules.rake, "rake", "house", games.Money(rake), games.Money(e.Money.Rake),
				fmt.Sprintf("the house %s: the rake due is %s and the journal shows %s (%s)", why, games.FormatCents(rake), games.FormatCents(e.Money.Rake), rs.Detail),
				e.Money.RakeEvidence)
			if e.Money.Rake < rake {
				d.Severity = games.Warning
			}
		}
	}
	e.Settle(rs)
	if result.Len() > 0 {
		fmt.Fprintf(&result, "; rake %s", games.FormatCents(rake))
	}
	e.Coup.Result = result.String()
	return undecided
}

// award splits a decided pot, less its rake, between its winners; the odd units go one by one
// to the winners clockwise from the button (or to the house, rules.odd_chip). It returns what
// goes to the house beyond the rake.
func (e *engine) award(p *pot, result *strings.Builder) (toHouse int64) {
	c := &e.c
	net := p.amount - p.rake
	n := int64(len(p.winners))
	unit := e.Round.Unit
	if unit < 1 {
		unit = 1
	}
	// Winners clockwise from the button.
	btn, top := c.button, max(c.top, maxPlayers)
	sort.Slice(p.winners, func(i, j int) bool {
		return (p.winners[i]-btn+top-1)%top < (p.winners[j]-btn+top-1)%top
	})
	each := net / n / unit * unit
	if n == 1 {
		each = net // nothing to share: the winner takes every chip
	}
	shares := make([]int64, n)
	rem := net - each*n
	for i := range shares {
		shares[i] = each
	}
	if e.cfg.oddToHouse {
		toHouse = rem
	} else {
		for i := 0; rem > 0; i++ {
			add := unit
			if add > rem {
				add = rem
			}
			shares[i%int(n)] += add
			rem -= add
		}
	}
	how := "the only player left in it"
	if len(p.eligible) > 1 {
		how = p.best.String()
	}
	fmt.Fprintf(result, "%s %s to", p.name, games.FormatCents(p.amount))
	for i, s := range p.winners {
		st := &c.seats[s]
		name := e.name(s)
		set := &games.Settlement{Spot: p.name, Player: name, Stake: p.share[s], Outcome: games.Win, Expected: shares[i]}
		if n > 1 {
			set.Detail = fmt.Sprintf("%s of %s less %s rake is shared %d ways (%s)", p.name, games.FormatCents(p.amount), games.FormatCents(p.rake), n, how)
		} else {
			set.Detail = fmt.Sprintf("%s of %s less %s rake goes to %s, %s", p.name, games.FormatCents(p.amount), games.FormatCents(p.rake), name, how)
		}
		set.Evidence.Merge(st.evidence)
		set.Evidence.Merge(c.boardEv)
		e.Settle(set)
		fmt.Fprintf(result, " %s", name)
	}
	fmt.Fprintf(result, " (%s)", how)
	return toHouse
}

func rakeDetail(pots []pot, odd int64, noRake bool) string {
	if noRake {
		return "no flop, no rake"
	}
	var b strings.Builder
	for i := range pots {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s on %s %s", games.FormatCents(pots[i].rake), pots[i].name, games.FormatCents(pots[i].amount))
	}
	if odd > 0 {
		fmt.Fprintf(&b, ", %s of odd chips", games.FormatCents(odd))
	}
	return b.String()
}
