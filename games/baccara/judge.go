package baccara

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/coupwatch/coupwatch/games"
	"github.com/coupwatch/coupwatch/journal"
)

// unknown is a point or third card value that cannot be read (a card still face down).
const unknown = -2

// hand is one hand of the coup as dealt.
type hand struct {
	cards []journal.Card
	two   int // two-card point, or unknown
	final int // final point, or unknown
	third int // third card's value, NoThird when the hand stood, unknown when face down
	pos   []int
}

func (h *hand) drew() bool { return len(h.cards) >= 3 }

// natural reports a two-card 8 or 9 (only meaningful when two is known).
func (h *hand) natural() bool { return len(h.cards) >= 2 && IsNatural(h.two) }

func (e *engine) hand(i int) hand {
	h := e.hs[i]
	h.cards, h.pos = h.cards[:0], h.pos[:0]
	for _, p := range e.hands[i] {
		h.cards = append(h.cards, e.seq[p].card)
		h.pos = append(h.pos, p)
	}
	h.two, h.final, h.third = unknown, unknown, unknown
	if len(h.cards) >= 2 {
		h.two = known(Point(h.cards[:2]...))
		h.final = known(Point(h.cards...))
		switch {
		case len(h.cards) == 2:
			h.third = NoThird
		default:
			h.third = known(Value(h.cards[2]))
		}
	}
	e.hs[i] = h
	return h
}

func known(v int) int {
	if v < 0 {
		return unknown
	}
	return v
}

// FinishCoup judges the deal, settles the stakes and closes the coup.
func (e *engine) FinishCoup(ev *journal.Event) {
	e.checkBurn(ev)
	n := len(e.names)
	hs := e.hs[:n]
	complete := len(e.seq) > 0
	for i := 0; i < n; i++ {
		e.hand(i)
		if hs[i].final < 0 {
			complete = false
		}
	}
	if !e.limitsDone && e.stakes.Len() > 0 {
		e.checkLimits(ev)
	}
	wrong := false
	if len(e.seq) > 0 {
		wrong = e.checkDraws(ev, hs)
	}
	switch {
	case len(e.seq) == 0:
		e.Coup.Result = "no cards dealt"
		e.Money.Reset() // nothing to judge the money against
		e.prevBankWon = 0
		e.prevBanker = ""
	case !complete:
		e.Coup.Result = "hands incomplete or not revealed"
		e.checkAbandoned(ev)
		e.Money.Reset()
		e.prevBankWon = 0
		e.prevBanker = ""
	default:
		void := wrong && e.cfg.voidWrongDraw && e.cfg.v == puntoBanco
		e.Coup.Result = e.result(hs, void)
		switch e.cfg.v {
		case puntoBanco:
			e.settlePuntoBanco(hs, void)
			if void {
				e.carryVoid()
			}
			if !void && e.cfg.payOrder && e.rules.payOrder.ID != "" {
				e.checkPaidBeforeCards(ev)
				e.checkPaymentOrder(ev)
			}
		case cheminDeFer:
			e.settleChemin(ev, hs)
		default:
			e.settleTableaux(hs)
		}
	}
	if e.stopAfter {
		e.stop = stopNext
	} else if e.stop == stopCurrent {
		e.stop = stopDone
	}
	e.EndCoup(ev, e.rules.payout)
}

// checkAbandoned reports a punto banco coup given up once cards were out: its hands were never
// completed and the stakes were handed back (refund), so the coup was stopped, not missed by
// the camera. «Le croupier est tenu de donner le coup dès qu'il a détaché une seule carte»
// (AM 88-384 art. 13.7, L864). A coup merely cut short in the journal shows no refund.
func (e *engine) checkAbandoned(ev *journal.Event) {
	if e.cfg.v != puntoBanco || !e.CoupOver(ev) || e.rules.early.ID == "" {
		return
	}
	var ex games.Evidence
	for _, m := range e.Money.Seq {
		if m.Type == journal.TypeRefund {
			ex.AddRef(m.Line, "")
		}
	}
	if len(ex.Lines) == 0 {
		return
	}
	e.Find(ev, e.rules.early, "", "", games.Text("the coup dealt once a card is out"), games.Text("coup stopped, stakes handed back"),
		fmt.Sprintf("the coup was stopped after %d card(s) had left the shoe and the stakes were handed back; once one card is out the coup must be dealt", len(e.seq)), ex)
}

func (e *engine) result(hs []hand, void bool) string {
	b := e.resBuf[:0]
	for i, h := range hs {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = append(b, e.names[i]...)
		b = append(b, ' ')
		b = strconv.AppendInt(b, int64(h.final), 10)
		b = append(b, " ("...)
		for j, c := range h.cards {
			if j > 0 {
				b = append(b, ' ')
			}
			b = append(b, c.String()...)
		}
		b = append(b, ')')
	}
	switch {
	case void:
		b = append(b, ": void, wrong draw"...)
	case e.cfg.v == banqueATousVa:
		bks := e.bankerPoints(hs)
		for i := 0; i < 2; i++ {
			if i == 0 {
				b = append(b, ": "...)
			} else {
				b = append(b, ", "...)
			}
			b = append(b, e.names[i]...)
			switch cmp(hs[i].final, bks[i]) {
			case 1:
				b = append(b, " wins"...)
			case -1:
				b = append(b, " loses"...)
			default:
				b = append(b, " ties"...)
			}
			if bks[i] != hs[2].final {
				b = append(b, " against the banker's first two cards, "...)
				b = strconv.AppendInt(b, int64(bks[i]), 10)
			}
		}
	case hs[0].final > hs[1].final:
		b = append(b, ": "...)
		b = append(b, e.names[0]...)
		b = append(b, " wins"...)
	case hs[0].final < hs[1].final:
		b = append(b, ": "...)
		b = append(b, e.names[1]...)
		b = append(b, " wins"...)
	default:
		b = append(b, ": tie"...)
	}
	e.resBuf = b
	return string(b)
}

// checkDraws judges the third cards against the drawing tables and the order of the third
// cards; it reports whether a hand drew wrongly (a «faux tirage»).
func (e *engine) checkDraws(ev *journal.Event, hs []hand) bool {
	n := len(hs)
	bank := n - 1
	for i := range hs {
		if len(hs[i].cards) < 2 || hs[i].two < 0 {
			return false // not dealt in full or not revealed: nothing can be judged
		}
	}
	wrong := false
	// naturalDrawn: a hand facing the bank drew although a natural was out; the bank drawing
	// too is the same breach (the coup should have stopped), reported once.
	naturalDrawn := false
	// The hands facing the bank.
	for i := 0; i < bank; i++ {
		natural := hs[i].natural() || hs[bank].natural()
		var want Decision
		switch {
		case natural:
			want = Natural
		case e.cfg.v == puntoBanco:
			// AM 88-384 art. 13.6 (L832-L837): punto draws on 0-5, stands on 6-7.
			want = PuntoRule(hs[i].two)
		default:
			// AM 88-384 art. 12.83 (L743-L748): draw on 0-4, option on 5, stand on 6-7.
			want = PonteRule(hs[i].two)
		}
		spot := ""
		if e.cfg.v != cheminDeFer {
			spot = e.names[i]
		}
		vs := against{}
		if hs[bank].natural() {
			vs.natural, vs.natPt = e.names[bank], hs[bank].two
		}
		if e.judgeDraw(ev, e.rules.draw0, spot, i, &hs[i], want, vs) {
			wrong = true
			if want == Natural && (hs[bank].natural() || e.cfg.v != banqueATousVa) {
				naturalDrawn = true
			}
		}
	}
	// The bank's hand.
	var want Decision
	var why against
	switch e.cfg.v {
	case puntoBanco:
		switch {
		case hs[0].natural() || hs[1].natural():
			want = Natural
			why = against{natural: "punto", natPt: hs[0].two}
		case hs[0].third == unknown:
			return wrong // punto's third card not revealed
		default:
			// AM 88-384 art. 13.6 (L839-L852): banco's table against punto's third card.
			want = BancoRule(hs[1].two, hs[0].third)
			why = against{n: 1, who: [2]string{"punto"}, third: [2]int{hs[0].third}}
		}
	case cheminDeFer:
		switch {
		case hs[0].natural() || hs[1].natural():
			want = Natural
			why = against{natural: "the ponte", natPt: hs[0].two}
		case hs[0].third == unknown:
			return wrong
		default:
			want = BankerRule(e.cfg.bankerTable, hs[1].two, hs[0].third)
			why = against{n: 1, who: [2]string{"the ponte"}, third: [2]int{hs[0].third}}
		}
	default:
		var ok bool
		want, why, ok = e.bankerTableaux(hs)
		if !ok {
			return wrong
		}
	}
	if want == Natural && naturalDrawn {
		e.checkThirdOrder(ev, hs)
		return wrong
	}
	if e.judgeDraw(ev, e.rules.draw1, bankSpot(e.cfg.v), bank, &hs[bank], want, why) {
		wrong = true
	}
	e.checkThirdOrder(ev, hs)
	return wrong
}

func bankSpot(v variant) string {
	if v == puntoBanco {
		return "banco"
	}
	return ""
}

// against says what a bank's duty was judged against: the other hands' third cards.
type against struct {
	n     int
	who   [2]string
	third [2]int
	// natural names the hand whose natural forbids drawing, with its point.
	natural string
	natPt   int
}

func (a against) String() string {
	var b strings.Builder
	for i := 0; i < a.n; i++ {
		if i > 0 {
			b.WriteString(" and")
		}
		if a.third[i] == NoThird {
			b.WriteString(" when " + a.who[i] + " stood")
		} else {
			fmt.Fprintf(&b, " against %s's third card %d", a.who[i], a.third[i])
		}
	}
	return b.String()
}

// bankerTableaux is the banque à tout va banker's duty (art. 12.84, L750): his own table
// against each tableau still in play; a duty only where every tableau agrees. ok is false when
// a third card is still face down.
func (e *engine) bankerTableaux(hs []hand) (d Decision, why against, ok bool) {
	b := &hs[2]
	if b.natural() {
		return Natural, why, true
	}
	first := true
	for i := 0; i < 2; i++ {
		if hs[i].natural() {
			continue // that tableau is settled on its natural
		}
		if hs[i].third == unknown {
			return Option, why, false
		}
		g := BankerRule(e.cfg.bankerTable, b.two, hs[i].third)
		why.who[why.n], why.third[why.n] = e.names[i], hs[i].third
		why.n++
		switch {
		case first:
			d, first = g, false
		case g != d:
			d = Option
		}
	}
	if first {
		return Natural, against{natural: "both tableaux", natPt: -1}, true
	}
	return d, why, true
}

// judgeDraw compares what a hand did with what it had to do and reports a wrong draw.
func (e *engine) judgeDraw(ev *journal.Event, rule games.Rule, spot string, i int, h *hand, want Decision, vs against) bool {
	name := e.names[i]
	why := ""
	if vs.n > 0 && want != Natural && (h.drew() != (want == Draw) || len(h.cards) > 3) {
		why = vs.String()
	}
	drew := h.drew()
	var detail string
	var at *journal.Event
	switch {
	case len(h.cards) > 3:
		d := e.seq[h.pos[3]]
		at = d.ref()
		detail = fmt.Sprintf("%s received a fourth card (%s); a hand has at most three", name, d.card)
	case drew && (want == Stand || want == Natural):
		d := e.seq[h.pos[2]]
		at = d.ref()
		switch {
		case want == Natural && h.natural():
			detail = fmt.Sprintf("%s drew %s on a natural %d; a natural is shown and nobody draws", name, d.card, h.two)
		case want == Natural && vs.natPt < 0:
			detail = fmt.Sprintf("%s drew %s although %s have a natural; nobody draws against a natural", name, d.card, vs.natural)
		case want == Natural && vs.natural != "":
			detail = fmt.Sprintf("%s drew %s against %s's natural %d; nobody draws against a natural", name, d.card, vs.natural, vs.natPt)
		case want == Natural:
			detail = fmt.Sprintf("%s drew %s against a natural; nobody draws against a natural", name, d.card)
		default:
			detail = fmt.Sprintf("%s drew %s on %d%s; the table says stand", name, d.card, h.two, why)
		}
	case !drew && want == Draw:
		at = ev
		detail = fmt.Sprintf("%s stood on %d%s; the table says draw", name, h.two, why)
	default:
		return false
	}
	observed := "stood on " + strconv.Itoa(h.two)
	if drew {
		observed = fmt.Sprintf("drew %s on %d", h.cards[2], h.two)
	}
	if e.cfg.v == puntoBanco && e.cfg.voidWrongDraw {
		detail += ": a wrong draw voids the coup (L866)"
	}
	var ex games.Evidence
	for _, p := range h.pos {
		ex.AddRef(e.seq[p].line, e.seq[p].frame)
	}
	e.Find(at, rule, spot, "", games.Text(duty(name, want, h.two, why)), games.Text(name+" "+observed), detail, ex)
	return true
}

// duty words what a hand had to do.
func duty(name string, want Decision, two int, why string) string {
	switch want {
	case Draw:
		return fmt.Sprintf("%s draws on %d%s", name, two, why)
	case Natural:
		return name + " takes no third card (a natural is out)"
	}
	return fmt.Sprintf("%s stands on %d%s", name, two, why)
}

// checkThirdOrder checks that the bank's third card comes after the other hands' (art. 13.6
// L826, 11.5, 12.84 L750).
func (e *engine) checkThirdOrder(ev *journal.Event, hs []hand) {
	if e.orderDone {
		return
	}
	bank := len(hs) - 1
	if !hs[bank].drew() {
		return
	}
	bp := hs[bank].pos[2]
	for i := 0; i < bank; i++ {
		if hs[i].drew() && hs[i].pos[2] > bp {
			e.orderDone = true
			d := e.seq[hs[i].pos[2]]
			e.Find(d.ref(), e.rules.order, "", "", games.Text(e.names[i]+"'s third card first"), games.Text(e.names[bank]+"'s third card first"),
				fmt.Sprintf("%s's third card came out before %s's; %s's third card comes first", e.names[bank], e.names[i], e.names[i]))
			return
		}
	}
}

// settlePuntoBanco settles punto banco stakes (art. 13.6 L858-L860, 13.8-13.10).
func (e *engine) settlePuntoBanco(hs []hand, void bool) {
	p, b := &hs[0], &hs[1]
	for _, st := range e.stakes.All() {
		s := &games.Settlement{Spot: st.Spot, Player: st.Player, Stake: st.Amount, Evidence: st.Evidence}
		if void {
			s.Outcome, s.Expected = games.Void, 0
			s.Detail = "the coup is void (wrong draw, L866): the stake is handed back"
			e.Settle(s)
			continue
		}
		S := st.Amount
		switch spotKindOf(puntoBanco, st.Spot) {
		case spotPunto:
			// AM 88-384 art. 13.6 (L858-L860): punto pays 1 to 1; a tie pushes.
			e.mainBet(s, p.final, b.final, S, "punto pays 1 to 1")
		case spotBanco:
			switch {
			case b.final > p.final && e.cfg.punto2000 && b.final == 6:
				// AM 88-384 art. 13.8 (L872): Punto 2000, a banco win on 6 pays half.
				s.Outcome, s.Expected, s.Detail = games.Win, e.Round.Due(S, 1, 2), "Punto 2000: banco wins on 6, paid half the stake"
			case b.final > p.final && e.cfg.punto2000:
				s.Outcome, s.Expected, s.Detail = games.Win, S, "Punto 2000: banco pays 1 to 1"
			case b.final > p.final:
				// AM 88-384 art. 13.6 (L858): banco pays 19 for 20.
				s.Outcome, s.Expected, s.Detail = games.Win, e.Round.Due(S, 19, 20), "banco pays 19 for 20"
			default:
				e.mainBet(s, b.final, p.final, S, "")
			}
		case spotTie:
			if p.final == b.final {
				// AM 88-384 art. 13.6 (L858): the tie pays 8 for 1.
				s.Outcome, s.Expected, s.Detail = games.Win, e.Round.Due(S, e.cfg.tiePays, 1), fmt.Sprintf("tie pays %d to 1", e.cfg.tiePays)
			} else {
				s.Outcome, s.Expected, s.Detail = games.Lose, -S, "no tie"
			}
		case spotDragonPunto:
			e.dragon(s, p, b, S, "punto")
		case spotDragonBanco:
			e.dragon(s, b, p, S, "banco")
		case spotPairPunto:
			e.pair(s, S, e.isPair(p), "punto")
		case spotPairBanco:
			e.pair(s, S, e.isPair(b), "banco")
		case spotPairBoth:
			k := 0
			if e.isPair(p) {
				k++
			}
			if e.isPair(b) {
				k++
			}
			e.pairBoth(s, S, k)
		}
		e.Settle(s)
	}
}

// mainBet settles an even-money chance: win 1 to 1, lose, push on equal points.
func (e *engine) mainBet(s *games.Settlement, mine, theirs int, S int64, winDetail string) {
	switch {
	case mine > theirs:
		s.Outcome, s.Expected, s.Detail = games.Win, S, winDetail
	case mine < theirs:
		s.Outcome, s.Expected, s.Detail = games.Lose, -S, "the other hand has the better point"
	default:
		s.Outcome, s.Expected, s.Detail = games.Push, 0, "equal points: the stake pushes"
	}
}

func pointsText(n int) string {
	if n == 1 {
		return "1 point"
	}
	return strconv.Itoa(n) + " points"
}

func sidesText(k int) string {
	if k == 2 {
		return "both sides pair"
	}
	return "one side pairs"
}

// sideOdds returns the net odds of an «N fois la mise» side bet.
func (e *engine) sideOdds(n int64) int64 {
	if e.cfg.sideForOne {
		return n - 1
	}
	return n
}

// dragonOdds is the Dragon Bonus pay table for a non-natural win (art. 13.9, L895-L900).
func dragonOdds(margin int) int64 {
	switch margin {
	case 9:
		return 20
	case 8:
		return 8
	case 7:
		return 7
	case 6:
		return 4
	case 5:
		return 3
	case 4:
		return 1
	}
	return 0
}

// dragon settles a Dragon Bonus stake on hand h against the other hand o (art. 13.9, L882-L904).
func (e *engine) dragon(s *games.Settlement, h, o *hand, S int64, side string) {
	nat := len(h.cards) == 2 && IsNatural(h.two)
	switch {
	case h.final > o.final && nat:
		s.Outcome, s.Expected, s.Detail = games.Win, S, "the hand wins with a natural: Dragon Bonus paid 1 to 1"
	case h.final > o.final:
		margin := h.final - o.final
		odds := dragonOdds(margin)
		switch {
		case len(h.cards) == 2 && e.cfg.dragonTwoLose:
			s.Outcome, s.Expected, s.Detail = games.Lose, -S, "the hand wins with two cards, not a natural: the Dragon Bonus loses (rules.dragon_two_card)"
		case odds == 0:
			s.Outcome, s.Expected, s.Detail = games.Lose, -S, fmt.Sprintf("%s wins by %s, under 4: the Dragon Bonus loses", side, pointsText(margin))
		default:
			net := e.sideOdds(odds)
			s.Outcome, s.Expected, s.Detail = games.Win, e.Round.Due(S, net, 1), fmt.Sprintf("%s wins by %s: Dragon Bonus paid %d to 1", side, pointsText(margin), net)
		}
	case h.final == o.final && nat:
		s.Outcome, s.Expected, s.Detail = games.Push, 0, "a natural tie: the Dragon Bonus is handed back"
	case h.final == o.final && e.cfg.dragonTiePush:
		s.Outcome, s.Expected, s.Detail = games.Push, 0, "a non-natural tie: the Dragon Bonus is handed back (rules.dragon_non_natural_tie)"
	case h.final == o.final:
		s.Outcome, s.Expected, s.Detail = games.Lose, -S, "a non-natural tie: the Dragon Bonus loses"
	default:
		s.Outcome, s.Expected, s.Detail = games.Lose, -S, "the hand loses: the Dragon Bonus loses"
	}
}

// isPair reports whether a hand's first two cards are a pair (art. 13.10, L912).
func (e *engine) isPair(h *hand) bool {
	a, b := h.cards[0], h.cards[1]
	if e.cfg.pairByValue {
		return Value(a) == Value(b)
	}
	return a.Rank == b.Rank
}

func (e *engine) pair(s *games.Settlement, S int64, paired bool, side string) {
	if paired {
		net := e.sideOdds(11)
		s.Outcome, s.Expected, s.Detail = games.Win, e.Round.Due(S, net, 1), fmt.Sprintf("%s's first two cards pair: paid %d to 1", side, net)
		return
	}
	s.Outcome, s.Expected, s.Detail = games.Lose, -S, "the first two cards do not pair"
}

// pairBoth settles a pair:both (à cheval) stake with k paired sides (art. 13.10, L912: half
// the stake is taken into account).
func (e *engine) pairBoth(s *games.Settlement, S int64, k int) {
	net := e.sideOdds(11)
	if k == 0 {
		s.Outcome, s.Expected, s.Detail = games.Lose, -S, "neither side pairs"
		return
	}
	s.Outcome = games.Win
	if e.cfg.pairHalfPaid {
		s.Expected = e.Round.Due(S, net*int64(k), 2)
		s.Detail = fmt.Sprintf("%s: paid %d to 1 on half the stake each", sidesText(k), net)
		return
	}
	// Half the stake on each side: a paired half returns net+1 times itself, the other is lost.
	s.Expected = e.Round.Due(S, (net+1)*int64(k), 2) - S
	s.Detail = fmt.Sprintf("%s: half the stake on each side, a paired half paid %d to 1, an unpaired half lost", sidesText(k), net)
}

// settleChemin settles chemin de fer (art. 11.7, L690-L702): the pontes cover the bank in the
// order they staked; the banker wins what they covered less the 5% levy.
func (e *engine) settleChemin(ev *journal.Event, hs []hand) {
	ponte, banker := hs[0].final, hs[1].final
	var bankTotal, banco int64
	all := e.stakes.All()
	for _, st := range all {
		if st.Spot == "bank" {
			bankTotal += st.Amount
		} else {
			banco += st.Amount
		}
	}
	covered := min(bankTotal, banco)
	leftP, leftB := covered, covered
	var bankNet int64
	var banker0 string
	var bank0 int64
	for _, st := range all {
		s := &games.Settlement{Spot: st.Spot, Player: st.Player, Stake: st.Amount, Evidence: st.Evidence}
		var in int64
		if st.Spot == "bank" {
			in = min(st.Amount, leftB)
			leftB -= in
			if banker0 == "" {
				banker0, bank0 = st.Player, in
				if e.cfg.doubleStake {
					bank0 = st.Amount
				}
			}
		} else {
			in = min(st.Amount, leftP)
			leftP -= in
		}
		switch {
		case in == 0 && st.Spot == "bank":
			s.Outcome, s.Expected, s.Detail = games.Push, 0, "the bank is not covered: nothing is played"
		case in == 0:
			s.Outcome, s.Expected, s.Detail = games.Push, 0, "the bank is already covered: the stake is not in play"
		case ponte == banker:
			// AM 88-384 art. 11.7 (L700): on a tie the pontes keep their stakes.
			s.Outcome, s.Expected, s.Detail = games.Push, 0, fmt.Sprintf("%d-%d: a tie", ponte, banker)
		case banker > ponte && st.Spot == "bank":
			// AM 88-384 art. 11.7 (L690): the bank wins the covered stakes less 5% for the cagnotte.
			net := e.Round.Due(in, 95, 100)
			bankNet += net
			s.Outcome, s.Expected, s.Detail = games.Win, net, fmt.Sprintf("the banker wins %d to %d: %s covered, less the 5%% levy", banker, ponte, games.FormatCents(in))
		case banker > ponte:
			s.Outcome, s.Expected, s.Detail = games.Lose, -in, fmt.Sprintf("the banker wins %d to %d", banker, ponte)
		case st.Spot == "bank":
			s.Outcome, s.Expected, s.Detail = games.Lose, -in, fmt.Sprintf("the ponte wins %d to %d: the bank loses what was covered", ponte, banker)
		default:
			// AM 88-384 art. 11.7 (L702): the pontes are paid even money.
			s.Outcome, s.Expected, s.Detail = games.Win, in, fmt.Sprintf("the ponte wins %d to %d: paid 1 to 1", ponte, banker)
		}
		if in > 0 && in < st.Amount && s.Outcome != games.Push {
			s.Detail += fmt.Sprintf(" (only %s of the stake was in play)", games.FormatCents(in))
		}
		e.Settle(s)
	}
	levy := int64(0)
	if banker > ponte && covered > 0 {
		levy = covered - bankNet
	}
	e.checkLevy(ev, levy, banker > ponte && covered > 0)
	// Remember the bank for the next coup's doubling and hand rules.
	e.prevBanker, e.prevBank, e.prevBankNet, e.prevBankWon = banker0, bank0, 0, 0
	switch {
	case banker0 == "" || covered == 0:
		e.prevBanker = ""
	case banker > ponte:
		e.prevBankWon, e.prevBankNet = 1, bankNet
	case banker < ponte:
		e.prevBankWon = -1
	}
}

// checkLevy compares the journal's rake with the levy due (art. 11.7, L690-L694), unless a
// stake of the coup was settled wrongly (that is the finding then).
func (e *engine) checkLevy(ev *journal.Event, due int64, bankerWon bool) {
	m := e.Money
	if m.Rakes == 0 || m.Rake == due || e.rules.levy.ID == "" {
		return
	}
	for _, s := range e.Pending() {
		if o := m.Get(games.StakeKey{Spot: s.Spot, Player: s.Player}); o.Any() && o.Net(s.Stake) != s.Expected {
			return
		}
	}
	detail := fmt.Sprintf("the levy taken is %s; 5%% of the stakes the banker won is %s", games.FormatCents(m.Rake), games.FormatCents(due))
	if !bankerWon {
		detail = fmt.Sprintf("a levy of %s was taken although the banker did not win; the 5%% is taken only on the banker's wins", games.FormatCents(m.Rake))
	}
	e.Find(ev, e.rules.levy, "", "", games.Money(due), games.Money(m.Rake), detail, m.RakeEvidence)
}

// settleTableaux settles banque à tout va (art. 12.6 L733, 12.9 L754-L762).
func (e *engine) settleTableaux(hs []hand) {
	bks := e.bankerPoints(hs)
	res := [2]int{cmp(hs[0].final, bks[0]), cmp(hs[1].final, bks[1])}
	for _, st := range e.stakes.All() {
		s := &games.Settlement{Spot: st.Spot, Player: st.Player, Stake: st.Amount, Evidence: st.Evidence}
		S := st.Amount
		switch spotKindOf(banqueATousVa, st.Spot) {
		case spotRight, spotLeft:
			t := 0
			if st.Spot == "left" {
				t = 1
			}
			e.mainBet(s, hs[t].final, bks[t], S, fmt.Sprintf("%s beats the banker %d to %d: paid 1 to 1", st.Spot, hs[t].final, bks[t]))
		case spotBoth:
			e.aCheval(s, S, res)
		}
		e.Settle(s)
	}
}

// bankerPoints is the banker point each tableau of banque à tout va meets: his final point,
// or his first two cards for a tableau that showed a natural, against which nobody draws
// (rules.natural_tableau), when the banker drew for the other tableau. A third card he should
// not have drawn at all (he held a natural, or both tableaux showed one) is a wrong draw:
// the coup is settled on the cards as dealt, his final point.
func (e *engine) bankerPoints(hs []hand) [2]int {
	var bks [2]int
	for t := range bks {
		bks[t] = hs[2].final
		if e.cfg.natTwoCards && hs[t].natural() && !hs[2].natural() && !hs[1-t].natural() {
			bks[t] = hs[2].two
		}
	}
	return bks
}

func cmp(a, b int) int {
	switch {
	case a > b:
		return 1
	case a < b:
		return -1
	}
	return 0
}

// aCheval settles a stake on both tableaux (art. 12.9, L754-L762).
func (e *engine) aCheval(s *games.Settlement, S int64, r [2]int) {
	half := e.Round.Due(S, 1, 2)
	switch sum, both := r[0]+r[1], r[0]*r[1]; {
	case sum == 2:
		s.Outcome, s.Expected, s.Detail = games.Win, S, "both tableaux win: paid 1 to 1"
	case sum == 1:
		s.Outcome, s.Expected, s.Detail = games.Half, half, "one tableau wins, the other ties: half paid"
	case sum == -1:
		s.Outcome, s.Expected, s.Detail = games.Half, half-S, "one tableau loses, the other ties: half lost"
	case sum == -2:
		s.Outcome, s.Expected, s.Detail = games.Lose, -S, "both tableaux lose"
	case both == -1:
		switch e.cfg.aChevalWL {
		case "win_half":
			s.Outcome, s.Expected, s.Detail = games.Half, half, "one tableau wins, the other loses: half paid (rules.a_cheval_win_lose)"
		case "lose_half":
			s.Outcome, s.Expected, s.Detail = games.Half, half-S, "one tableau wins, the other loses: half lost (rules.a_cheval_win_lose)"
		default:
			s.Outcome, s.Expected, s.Detail = games.Push, 0, "one tableau wins, the other loses: the stake pushes"
		}
	default:
		s.Outcome, s.Expected, s.Detail = games.Push, 0, "both tableaux tie: the stake pushes"
	}
}

// checkPaymentOrder checks punto banco's order of settlement (art. 13.6 L856, 13.9 L906):
// losers collected before winners are paid, the Dragon Bonus after the main bets.
// checkPaidBeforeCards reports the first main or Dragon stake settled before the coup's last
// card: the payeurs collect and pay once the coup is final and the points announced (AM 88-384
// art. 13.6, L854-L856). The Paire Baccara, «indépendant du résultat», is left out, and so is
// money going against its stake (a wrong payout alone).
func (e *engine) checkPaidBeforeCards(ev *journal.Event) {
	e.SettledEarly(ev, e.rules.payOrder, e.Money.Seq, e.seqAtCards, func(m games.MoneyEvent) bool {
		k := spotKindOf(puntoBanco, m.Key.Spot)
		return k == spotPunto || k == spotBanco || k == spotTie || k == spotDragonPunto || k == spotDragonBanco
	}, "the coup's last card")
}

func (e *engine) checkPaymentOrder(ev *journal.Event) {
	type group struct {
		firstPay int
		done     bool
	}
	var main, drag group
	main.firstPay, drag.firstPay = -1, -1
	firstDragon := -1
	dragonDone := false
	seq := e.Money.Seq
	due := e.DueByStake()
	for i, m := range seq {
		k := spotKindOf(puntoBanco, m.Key.Spot)
		isMain := k == spotPunto || k == spotBanco || k == spotTie
		isDragon := k == spotDragonPunto || k == spotDragonBanco
		var g *group
		switch {
		case isMain:
			g = &main
		case isDragon:
			g = &drag
		default:
			continue
		}
		if isDragon && firstDragon < 0 && (m.Type == journal.TypePayout || m.Type == journal.TypeCollect) {
			firstDragon = i
		}
		if isMain && firstDragon >= 0 && !dragonDone && m.Type != journal.TypeRefund {
			dragonDone = true
			d := seq[firstDragon]
			var ex games.Evidence
			ex.AddRef(d.Line, "")
			ex.AddRef(m.Line, "")
			e.Find(ev, e.rules.payOrder, d.Key.Spot, d.Key.Player, games.Text("main bets settled before the Dragon Bonus"),
				games.Text("Dragon Bonus settled first"),
				fmt.Sprintf("%s's Dragon Bonus on %s was settled before %s's stake on %s; the Dragon Bonus comes after the main bets",
					d.Key.Player, d.Key.Spot, m.Key.Player, m.Key.Spot), ex)
		}
		// Only a winner's payment and a loser's collection take part in the order: a loser
		// paid, a winner or a push collected is a wrong payout, and the commission taken back
		// from a banco paid in full is part of its payment.
		switch {
		case m.Type == journal.TypePayout && due[m.Key] > 0:
			if g.firstPay < 0 && i >= e.seqAtCards {
				g.firstPay = i // a payment before the last card is its own finding
			}
		case m.Type == journal.TypeCollect && due[m.Key] < 0:
			if g.firstPay >= 0 && !g.done {
				g.done = true
				p := seq[g.firstPay]
				var ex games.Evidence
				ex.AddRef(p.Line, "")
				ex.AddRef(m.Line, "")
				e.Find(ev, e.rules.payOrder, m.Key.Spot, m.Key.Player, games.Text("losing stakes collected before any payment"),
					games.Text("collected after a payment"),
					fmt.Sprintf("%s's stake on %s was collected after %s on %s had been paid; losers are collected first",
						m.Key.Player, m.Key.Spot, p.Key.Player, p.Key.Spot), ex)
			}
		}
	}
}

// carryVoid keeps the stakes of a coup voided by a wrong draw (AM 88-384 art. 13.7, L866) that
// the croupier did not hand back: they stand for the coup dealt again, whether the journal
// restates them or not.
func (e *engine) carryVoid() {
	e.carried = e.carried[:0]
	for _, st := range e.stakes.All() {
		if obs := e.Money.Get(st.StakeKey); obs != nil && obs.Refunds > 0 {
			continue
		}
		c := *st
		c.Evidence = games.Evidence{Lines: slices.Clone(st.Evidence.Lines), Frames: slices.Clone(st.Evidence.Frames)}
		e.carried = append(e.carried, c)
	}
}
