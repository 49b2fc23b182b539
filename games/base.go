package games

import (
	"fmt"
	"sort"
	"strconv"
	"time"

	"github.com/coupwatch/coupwatch/journal"
)

// Coup is the coup in progress at a table.
type Coup struct {
	ID        string
	Start     time.Time
	FirstLine int
	LastLine  int
	LastT     time.Time
	Dealer    string
	// DealerChanged is set when a dealer event arrives during the coup.
	DealerChanged bool
	// CutOff is set once bets are closed (no_more_bets or the game's own cut-off).
	CutOff     bool
	CutOffLine int
	CutOffT    time.Time
	// Findings counts the discrepancies raised in the coup.
	Findings int
	// late marks the stakes already reported as late bets in the coup.
	late map[StakeKey]bool
	// Result is the decisive outcome, as the coup summary shows it.
	Result string
	// Evidence holds the decisive events (the result, the cards, the dice): it joins the
	// evidence of every wrong payout of the coup.
	Evidence Evidence
}

// Base is the book-keeping every engine shares: the open coup, its numbering and dealer, the
// money the journal shows, pending settlements and the output. Engines embed it and call its
// methods from their Apply.
type Base struct {
	Table  string
	Game   *Game
	Limits journal.Limits
	Round  Rounding
	Dealer string
	// PrevDealer is the dealer before the event being applied (Track keeps it).
	PrevDealer string

	// Coup is the open coup, nil between coups.
	Coup *Coup
	// Money holds the open coup's payouts, collects, refunds and rake.
	Money *Ledger

	nextCoup func() string
	pending  []*Settlement
	out      []Record
	// nextStarted is set while a coup is finished because the next coup_start came.
	nextStarted bool
	// held are the events for the next coup: bets, actions and rakes written while no coup was
	// open, and those an engine holds for it (HoldForNextCoup).
	held []*journal.Event
}

// NewBase builds the shared state from an engine's setup; it reads rules.rounding.
func NewBase(s Setup) Base {
	b := Base{
		Table:    s.Table,
		Game:     s.Game,
		Dealer:   s.Dealer,
		Money:    NewLedger(),
		nextCoup: s.NextCoup,
	}
	if s.Open != nil {
		b.Limits = s.Open.Limits
	}
	if s.Options != nil {
		b.Round = ParseRounding(s.Options)
	} else {
		b.Round = DefaultRounding()
	}
	if b.nextCoup == nil {
		n := 0
		b.nextCoup = func() string { n++; return strconv.Itoa(n) }
	}
	return b
}

// Begin starts an Apply: records go to out. Every Apply starts with Begin and ends with Out.
func (b *Base) Begin(out []Record) { b.out = out }

// Out returns the records of the Apply.
func (b *Base) Out() []Record {
	out := b.out
	b.out = nil
	return out
}

// Emit appends a record.
func (b *Base) Emit(r Record) { b.out = append(b.out, r) }

// Track notes an event in the open coup and follows dealer changes. Engines call it first.
func (b *Base) Track(ev *journal.Event) {
	b.PrevDealer = b.Dealer
	if ev.Type == journal.TypeDealer {
		if b.Coup != nil && b.Coup.Dealer != "" && ev.Dealer != b.Coup.Dealer {
			b.Coup.DealerChanged = true
		}
		b.Dealer = ev.Dealer
		if b.Coup != nil && b.Coup.Dealer == "" {
			b.Coup.Dealer = ev.Dealer
		}
	}
	if b.Coup != nil {
		b.Coup.LastLine, b.Coup.LastT = ev.Line, ev.T
	}
}

// Hooks is what an engine gives Step: the game-specific parts of the coup lifecycle.
type Hooks interface {
	// CoupStarted runs when Base.StartCoup has opened a coup, for coup_start or for an event
	// that implies one (Ensure): the engine resets its per-coup state.
	CoupStarted(ev *journal.Event)
	// FinishCoup settles the open coup and closes it with Base.EndCoup. ev is the coup_end
	// event, or nil when the coup ends because the next one starts or the input ends.
	FinishCoup(ev *journal.Event)
	// Event handles every other event, after Track. The engine calls Ensure for the events
	// that belong in a coup.
	Event(ev *journal.Event)
}

// Step applies one event through the coup lifecycle every engine shares: a coup_start
// closes the open coup and opens the next, a coup_end closes the open coup, and every other
// event is tracked and handed to h.Event. An engine's Apply is usually just
//
//	func (e *engine) Apply(ev *journal.Event, out []games.Record) []games.Record {
//		return e.Step(e, ev, out)
//	}
func (b *Base) Step(h Hooks, ev *journal.Event, out []Record) []Record {
	b.Begin(out)
	switch ev.Type {
	case journal.TypeCoupStart:
		if b.Coup != nil {
			b.nextStarted = true
			h.FinishCoup(nil)
			b.nextStarted = false
		}
		b.StartCoup(ev)
		h.CoupStarted(ev)
		b.release(h)
		return b.Out()
	case journal.TypeCoupEnd:
		b.Track(ev)
		if b.Coup != nil {
			h.FinishCoup(ev)
		}
		return b.Out()
	}
	if b.Coup == nil && (ev.Type == journal.TypeBet || ev.Type == journal.TypeAction || ev.Type == journal.TypeRake) {
		// A bet, a decision or a commission written between two coups (after a coup_end, or
		// before the first coup) is made for the next coup: it is held for it, not given a
		// coup of its own.
		b.HoldForNextCoup(ev)
		return b.Out()
	}
	b.Track(ev)
	h.Event(ev)
	return b.Out()
}

// HoldForNextCoup keeps ev for the next coup, which is handed it right after it opens (as the
// events written between coups are): a bet written for the next throw in a coup whose throw is
// over. An event held when the input ends decides nothing.
func (b *Base) HoldForNextCoup(ev *journal.Event) { b.held = append(b.held, ev.Clone()) }

// release hands the events held for the next coup to the coup just opened.
func (b *Base) release(h Hooks) {
	held := b.held
	b.held = nil
	for _, ev := range held {
		b.Track(ev)
		h.Event(ev)
	}
}

// CoupOver reports, in FinishCoup, whether the coup is known to be over: closed by its coup_end
// (ev) or by the next coup_start. At the end of the input it may have been cut mid-deal.
func (b *Base) CoupOver(ev *journal.Event) bool { return ev != nil || b.nextStarted }

// Ensure opens a coup for an event that belongs in one when none is open (a journal without
// coup_start events, or a bet placed before the dealer's announcement).
func (b *Base) Ensure(h Hooks, ev *journal.Event) {
	if b.Coup == nil {
		if len(b.held) > 0 {
			ev = b.held[0] // the coup began with the first event held for it
		}
		b.StartCoup(ev)
		h.CoupStarted(ev)
		b.release(h)
	}
}

// Finish closes the open coup at the end of the input: an engine's Close is usually
// `return e.Finish(e, out)`.
func (b *Base) Finish(h Hooks, out []Record) []Record {
	b.Begin(out)
	if b.Coup != nil {
		h.FinishCoup(nil)
	}
	return b.Out()
}

// StartCoup opens a coup for a coup_start event (or any event that implies one). The
// engine ends the previous coup first.
func (b *Base) StartCoup(ev *journal.Event) *Coup {
	id := ""
	if ev.Type == journal.TypeCoupStart {
		id = ev.Coup
	}
	seq := b.nextCoup()
	if id == "" {
		id = seq
	}
	b.Coup = &Coup{ID: id, Start: ev.T, FirstLine: ev.Line, LastLine: ev.Line, LastT: ev.T, Dealer: b.Dealer}
	b.Money.Reset()
	b.pending = b.pending[:0]
	return b.Coup
}

// CoupID returns the open coup's id ("" between coups).
func (b *Base) CoupID() string {
	if b.Coup == nil {
		return ""
	}
	return b.Coup.ID
}

// CloseBets marks the cut-off of the open coup (idempotent).
func (b *Base) CloseBets(ev *journal.Event) {
	if b.Coup != nil && !b.Coup.CutOff {
		b.Coup.CutOff, b.Coup.CutOffLine, b.Coup.CutOffT = true, ev.Line, ev.T
	}
}

// Find emits a discrepancy for a rule. ev is the event that shows the breach (its line and
// frame become evidence, its time the discrepancy's time); extra adds more evidence.
func (b *Base) Find(ev *journal.Event, rule Rule, spot, player string, expected, observed Value, detail string, extra ...Evidence) *Discrepancy {
	d := &Discrepancy{
		Table: b.Table, Coup: b.CoupID(), Kind: rule.Kind, Rule: rule.ID, Article: rule.Article,
		Severity: rule.Severity, Spot: spot, Player: player, Expected: expected, Observed: observed, Detail: detail,
	}
	if ev != nil {
		d.T = ev.T
		d.Evidence.Add(ev)
	} else if b.Coup != nil {
		d.T = b.Coup.LastT
	}
	for _, e := range extra {
		d.Evidence.Merge(e)
	}
	sort.Ints(d.Evidence.Lines)
	if b.Coup != nil {
		b.Coup.Findings++
	}
	b.Emit(d)
	return d
}

// LateBet raises a late_bet for a bet event after the cut-off, once per stake and coup: a
// stake changed again after the cut-off is the same late stake.
func (b *Base) LateBet(ev *journal.Event, rule Rule, prev int64) {
	if c := b.Coup; c != nil {
		// A stake changed again after the cut-off is the same late stake: one finding.
		k := StakeKey{Spot: ev.Spot, Player: ev.Player}
		if c.late[k] {
			return
		}
		if c.late == nil {
			c.late = make(map[StakeKey]bool)
		}
		c.late[k] = true
	}
	what := "placed"
	switch {
	case ev.Amount == 0:
		what = "withdrew"
	case prev > 0 && ev.Amount > prev:
		what = "raised"
	case prev > 0 && ev.Amount < prev:
		what = "lowered"
	}
	var detail string
	switch what {
	case "placed":
		detail = fmt.Sprintf("%s placed %s on %s after bets were closed", ev.Player, FormatCents(ev.Amount), ev.Spot)
	case "withdrew":
		detail = fmt.Sprintf("%s withdrew %s from %s after bets were closed", ev.Player, FormatCents(prev), ev.Spot)
	default:
		detail = fmt.Sprintf("%s %s the stake on %s from %s to %s after bets were closed", ev.Player, what, ev.Spot, FormatCents(prev), FormatCents(ev.Amount))
	}
	var ex Evidence
	if b.Coup != nil && b.Coup.CutOffLine > 0 {
		ex.AddRef(b.Coup.CutOffLine, "")
	}
	b.Find(ev, rule, ev.Spot, ev.Player, Money(prev), Money(ev.Amount), detail, ex)
}

// CheckLimit raises a bet_limit when a stake is under min or over max (max 0 = no maximum).
func (b *Base) CheckLimit(st *Stake, min, max int64, rule Rule, at *journal.Event) {
	switch {
	case min > 0 && st.Amount < min:
		b.Find(at, rule, st.Spot, st.Player, Text("at least "+FormatCents(min)), Money(st.Amount),
			fmt.Sprintf("%s staked %s on %s, under the minimum of %s", st.Player, FormatCents(st.Amount), st.Spot, FormatCents(min)), st.Evidence)
	case max > 0 && st.Amount > max:
		b.Find(at, rule, st.Spot, st.Player, Text("at most "+FormatCents(max)), Money(st.Amount),
			fmt.Sprintf("%s staked %s on %s, over the maximum of %s", st.Player, FormatCents(st.Amount), st.Spot, FormatCents(max)), st.Evidence)
	}
}

// Settle queues a settlement for the open coup; EndCoup compares it with the money the
// journal shows and emits it.
func (b *Base) Settle(s *Settlement) {
	s.Table = b.Table
	if s.Coup == "" {
		s.Coup = b.CoupID()
	}
	b.pending = append(b.pending, s)
}

// Settled returns the stake a settlement queued in the open coup settled for k, 0 if none.
func (b *Base) Settled(k StakeKey) int64 {
	for _, s := range b.pending {
		if s.Spot == k.Spot && s.Player == k.Player {
			return s.Stake
		}
	}
	return 0
}

// Unsettle takes back the settlements queued in the open coup for one stake: a stake changed
// after what decided it, to be settled again as changed.
func (b *Base) Unsettle(k StakeKey) {
	kept := b.pending[:0]
	for _, s := range b.pending {
		if s.Spot != k.Spot || s.Player != k.Player {
			kept = append(kept, s)
		}
	}
	clear(b.pending[len(kept):])
	b.pending = kept
}

// Pending returns the settlements queued in the open coup.
func (b *Base) Pending() []*Settlement { return b.pending }

// DueByStake sums the coup's queued settlements per stake: what each stake is due (positive
// paid, negative taken, 0 a push or a stake that stands). The order-of-payment checks use it
// to leave a wrong payment (a loser paid, a winner collected) to its own finding.
func (b *Base) DueByStake() map[StakeKey]int64 {
	due := make(map[StakeKey]int64, len(b.pending))
	for _, s := range b.pending {
		due[StakeKey{Spot: s.Spot, Player: s.Player}] += s.Expected
	}
	return due
}

// SettledEarly looks through the money events before the coup's result (seq[:upto]) for the
// first payout or collect among those keep accepts (a refund settles nothing), due or not (a
// payment not due is also a wrong_payout, a breach of its own), and reports it once under
// rule: the croupier collects and pays once the result is known and announced. before names
// what the money came before ("the result", "the last card"...).
func (b *Base) SettledEarly(ev *journal.Event, rule Rule, seq []MoneyEvent, upto int, keep func(MoneyEvent) bool, before string) {
	for _, m := range seq[:min(upto, len(seq))] {
		if m.Type == journal.TypeRefund || m.Type == journal.TypeRake || (keep != nil && !keep(m)) {
			continue
		}
		var ex Evidence
		ex.AddRef(m.Line, "")
		b.Find(ev, rule, m.Key.Spot, m.Key.Player, Text("stakes settled once the result is known and announced"),
			Text(m.Type.String()+" before "+before),
			fmt.Sprintf("%s's stake on %s was settled (%s) before %s; the croupier collects and pays once the result is known and announced",
				m.Key.Player, m.Key.Spot, m.Type, before), ex)
		return
	}
}

// AsDue reports whether a money event goes the way its stake's settlement is due: a payout to
// a stake due a win, a collect from one due a loss (a refund or rake: true). The order checks
// leave the others, a loser paid or a winner collected, to the wrong payout they are.
func AsDue(due map[StakeKey]int64, m MoneyEvent) bool {
	switch m.Type {
	case journal.TypePayout:
		return due[m.Key] > 0
	case journal.TypeCollect:
		return due[m.Key] < 0
	}
	return true
}

// EndCoup closes the open coup: each queued settlement is matched with the money events of its
// stake, a wrong_payout is raised where they differ (payRule), money for a stake with nothing to
// settle is a wrong_payout too, and the coup summary is emitted. ev is the coup_end event, or
// nil at the end of the journal.
func (b *Base) EndCoup(ev *journal.Event, payRule Rule) {
	c := b.Coup
	if c == nil {
		return
	}
	if ev != nil {
		c.LastLine, c.LastT = ev.Line, ev.T
	}
	// The journal's money events are per spot and player: settlements of the same stake in one
	// coup (a prisoner and a new stake on the same chance) are judged together.
	for _, t := range b.pending {
		if o := b.Money.Get(StakeKey{Spot: t.Spot, Player: t.Player}); o != nil {
			if o.first == nil {
				o.first = t
			}
			o.expected += t.Expected
			o.stake += t.Stake
			if t.Outcome == Win {
				o.kept += t.Stake
			}
		}
	}
	for _, t := range b.pending {
		o := b.Money.Get(StakeKey{Spot: t.Spot, Player: t.Player})
		if o == nil || o.first != t || !o.Any() {
			b.Emit(t)
			continue
		}
		observed := o.judged()
		t.Observed, t.HasObserved = observed, true
		b.Emit(t)
		if observed != o.expected {
			b.wrongPayout(ev, payRule, t, o)
		}
	}
	for _, k := range b.Money.Keys() {
		o := b.Money.Get(k)
		if o.first != nil {
			continue
		}
		observed := o.Net(0)
		if observed == 0 {
			// A refund or a collect of nothing, or money that came back as it went: the net
			// is the 0 due, and a wrong payout is a net that differs from what is due.
			continue
		}
		d := b.Find(nil, payRule, k.Spot, k.Player, Money(0), Money(observed),
			fmt.Sprintf("%s on %s: the journal shows %s but there is no stake to settle there", k.Player, k.Spot, describeNet(observed)), o.Evidence)
		d.T = o.LastT
		if observed > 0 {
			d.Severity = Critical
		}
	}
	end := c.LastT
	b.Emit(&CoupSummary{
		Table: b.Table, Coup: c.ID, Game: b.Game.ID, Dealer: c.Dealer, Result: c.Result,
		Discrepancies: c.Findings, Start: c.Start, End: end, FirstLine: c.FirstLine, LastLine: c.LastLine,
	})
	b.Coup = nil
	b.pending = b.pending[:0]
	b.Money.Reset()
}

func (b *Base) wrongPayout(ev *journal.Event, rule Rule, s *Settlement, o *Observed) {
	expected, observed := o.expected, o.judged()
	var why string
	switch {
	case expected < 0 && observed > 0:
		why = "a losing stake was paid"
	case expected > 0 && observed < 0:
		why = "a winning stake was collected"
	case expected == 0 && observed < 0:
		why = "a stake that should have been returned was taken"
	case observed > expected:
		why = "overpaid"
	default:
		why = "underpaid"
	}
	detail := fmt.Sprintf("%s on %s: %s; due %s, the journal shows %s", s.Player, s.Spot, why, describeNet(expected), describeNet(observed))
	if s.Detail != "" {
		detail += " (" + s.Detail + ")"
	}
	var ex Evidence
	for _, t := range b.pending {
		if t.Spot == s.Spot && t.Player == s.Player {
			ex.Merge(t.Evidence)
		}
	}
	ex.Merge(b.Coup.Evidence)
	ex.Merge(o.Evidence)
	// The finding is dated by the dealer's last movement of chips for the stake.
	d := b.Find(nil, rule, s.Spot, s.Player, Money(expected), Money(observed), detail, ex)
	d.T = o.LastT
	if observed > expected {
		d.Severity = Critical
	} else {
		d.Severity = Warning
	}
}

func describeNet(n int64) string {
	switch {
	case n > 0:
		return "a win of " + FormatCents(n)
	case n < 0:
		return "a loss of " + FormatCents(-n)
	}
	return "nothing won or lost"
}
