package games

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"github.com/coupwatch/coupwatch/journal"
)

// RoundMode says which way a fraction of the rounding unit goes.
type RoundMode uint8

// The rounding modes. Down (the default) is in the house's favour for amounts due to a player.
const (
	RoundDown RoundMode = iota
	RoundUp
	RoundNearest
)

// Rounding is the house's rounding of amounts due to players. The regulations give none; the
// journal spec's default is exact cents with any fraction rounded down (rules.rounding changes it).
type Rounding struct {
	Unit int64 // in cents, >= 1
	Mode RoundMode
}

// DefaultRounding is exact cents, fractions rounded down.
func DefaultRounding() Rounding { return Rounding{Unit: 1, Mode: RoundDown} }

// Due returns amount × num / den rounded to the unit: what a player is owed for a ratio.
func (r Rounding) Due(amount, num, den int64) int64 {
	unit := r.Unit
	if unit < 1 {
		unit = 1
	}
	q := den * unit
	x := amount * num
	neg := x < 0
	if neg {
		x = -x
	}
	n := x / q
	rem := x % q
	switch r.Mode {
	case RoundUp:
		if rem != 0 {
			n++
		}
	case RoundNearest:
		if 2*rem >= q {
			n++
		}
	}
	if neg {
		n = -n
	}
	return n * unit
}

// ParseRounding reads rules.rounding: "down", "up" or "nearest" (unit 1 cent), an integer unit
// in cents (rounded down), or {"unit": 50, "mode": "nearest"}.
func ParseRounding(o *Options) Rounding {
	r := DefaultRounding()
	raw, ok := o.Raw("rounding")
	if !ok {
		return r
	}
	mode := func(s string) bool {
		switch s {
		case "down":
			r.Mode = RoundDown
		case "up":
			r.Mode = RoundUp
		case "nearest":
			r.Mode = RoundNearest
		default:
			return false
		}
		return true
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if !mode(s) {
			o.Fail("rounding", "must be down, up or nearest, got %q", s)
		}
		return r
	}
	var unit int64
	if json.Unmarshal(raw, &unit) == nil {
		if unit < 1 {
			o.Fail("rounding", "unit must be at least 1 cent, got %d", unit)
			return DefaultRounding()
		}
		r.Unit = unit
		return r
	}
	var obj struct {
		Unit *int64 `json:"unit"`
		Mode string `json:"mode"`
	}
	if err := jsonStrict(raw, &obj); err != nil {
		o.Fail("rounding", "must be a mode, a unit in cents or {\"unit\":..,\"mode\":..}: %v", err)
		return r
	}
	if obj.Unit != nil {
		if *obj.Unit < 1 {
			o.Fail("rounding.unit", "must be at least 1 cent, got %d", *obj.Unit)
		} else {
			r.Unit = *obj.Unit
		}
	}
	if obj.Mode != "" && !mode(obj.Mode) {
		o.Fail("rounding.mode", "must be down, up or nearest, got %q", obj.Mode)
	}
	return r
}

// StakeKey identifies a stake: a player's chips on a spot.
type StakeKey struct {
	Spot   string
	Player string
}

func (k StakeKey) String() string { return fmt.Sprintf("%s on %s", k.Player, k.Spot) }

// Stake is the chips a player has on a spot, as the journal last stated them.
type Stake struct {
	StakeKey
	Amount int64
	// Line and Frame locate the bet event that set the amount.
	Line  int
	Frame string
	// Late is set when the stake was placed, raised, lowered or withdrawn after the cut-off.
	Late bool
	// Coup is the coup in which the amount was last set.
	Coup string
	// Evidence collects the lines and frames of every bet event for this stake.
	Evidence Evidence
	// Data is free for the engine (a craps bet's point, a prison count...).
	Data any

	lineBuf  [2]int
	frameBuf [2]string
}

// newStake returns a stake whose evidence starts in the stake itself (no allocation for the
// usual one or two bet events).
func newStake(k StakeKey) *Stake {
	st := &Stake{StakeKey: k}
	st.Evidence.Lines = st.lineBuf[:0:2]
	st.Evidence.Frames = st.frameBuf[:0:2]
	return st
}

// NewStake returns an empty stake for a key, ready to Put.
func NewStake(k StakeKey) *Stake { return newStake(k) }

// Stakes is an ordered set of stakes keyed by spot and player.
type Stakes struct {
	index map[StakeKey]int
	list  []*Stake
	live  int
}

// NewStakes returns an empty set.
func NewStakes() *Stakes { return &Stakes{index: make(map[StakeKey]int)} }

// Get returns the stake for a key.
func (s *Stakes) Get(k StakeKey) *Stake {
	if i, ok := s.index[k]; ok {
		return s.list[i]
	}
	return nil
}

// Put adds or replaces a stake and returns it.
func (s *Stakes) Put(st *Stake) *Stake {
	if i, ok := s.index[st.StakeKey]; ok {
		s.list[i] = st
		return st
	}
	s.index[st.StakeKey] = len(s.list)
	s.list = append(s.list, st)
	s.live++
	return st
}

// Set records a bet event: the stake's amount becomes ev.Amount (0 = withdrawn, removed).
// It returns the stake (also when withdrawn) and its previous amount.
func (s *Stakes) Set(ev *journal.Event, coup string, late bool) (st *Stake, prev int64) {
	k := StakeKey{Spot: ev.Spot, Player: ev.Player}
	st = s.Get(k)
	if st == nil {
		st = newStake(k)
		if ev.Amount > 0 {
			s.Put(st)
		}
	} else {
		prev = st.Amount
	}
	st.Amount = ev.Amount
	st.Line, st.Frame, st.Coup = ev.Line, ev.Frame, coup
	st.Late = st.Late || late
	st.Evidence.Add(ev)
	if ev.Amount == 0 {
		s.Remove(k)
	}
	return st, prev
}

// Remove deletes a stake.
func (s *Stakes) Remove(k StakeKey) {
	i, ok := s.index[k]
	if !ok {
		return
	}
	delete(s.index, k)
	s.list[i] = nil
	s.live--
}

// Len returns the number of stakes.
func (s *Stakes) Len() int { return s.live }

// All returns the stakes in the order they were first placed.
func (s *Stakes) All() []*Stake {
	if s.live == len(s.list) {
		return s.list
	}
	out := make([]*Stake, 0, s.live)
	for _, st := range s.list {
		if st != nil {
			out = append(out, st)
		}
	}
	// Compact so the next call is free.
	s.list = out
	for i, st := range out {
		s.index[st.StakeKey] = i
	}
	return out
}

// Reset removes every stake.
func (s *Stakes) Reset() {
	clear(s.index)
	clear(s.list)
	s.list = s.list[:0]
	s.live = 0
}

// Observed is what the journal shows the dealer did with one stake in one coup.
type Observed struct {
	Paid      int64
	Collected int64
	Refunded  int64
	// CollectAll counts collect events without an amount (the whole stake).
	CollectAll int
	Collects   int
	Refunds    int
	Evidence   Evidence
	// Last is the last money event's index in the coup's money sequence; LastT its time.
	Last  int
	LastT time.Time

	// Settlement matching, filled by Base.EndCoup.
	first    *Settlement
	expected int64
	stake    int64
	kept     int64 // the part of stake that won: the player keeps it, nothing to refund

	lineBuf [2]int
}

// Any reports whether the journal shows any money movement for the stake.
func (o *Observed) Any() bool {
	return o != nil && (o.Paid != 0 || o.Collects > 0 || o.Refunds > 0 || o.Evidence.Lines != nil)
}

// Net returns the player's net result that the money events show for a stake of the given
// amount: payouts minus collections; a collect without an amount takes the whole stake; a
// refund hands back part of the stake and the rest is taken; a refund beside a collect hands
// back what the collect took (a push taken and given back nets 0).
func (o *Observed) Net(stake int64) int64 { return o.net(stake, 0) }

// net is Net for a stake of which kept won: the refunds hand back the rest (a stake reduced,
// a push), and what was not handed back of it was taken. With a collect beside the refunds the
// player lost what the dealer took beyond what he handed back, and never less than the part of
// the stake that was not handed back: collect half and refund half of a shared stake nets
// minus half, collect all and refund half nets minus half too.
func (o *Observed) net(stake, kept int64) int64 {
	// A collect without an amount takes the whole stake; of stakes judged together (a come
	// bet on its number and a new one), the whole of those that did not win.
	whole := stake
	if kept > 0 && kept < stake {
		whole = stake - kept
	}
	collected := o.Collected + int64(o.CollectAll)*whole
	if o.Refunds == 0 {
		return o.Paid - collected
	}
	refundable := max(stake-kept, 0)
	lost := max(refundable-o.Refunded, collected-o.Refunded, 0)
	return o.Paid - lost
}

// judged is the net of the settlements matched with these money events (Base.EndCoup).
func (o *Observed) judged() int64 { return o.net(o.stake, o.kept) }

// MoneyEvent is one payout, collect or refund in the order the dealer made them.
type MoneyEvent struct {
	Key    StakeKey
	Type   journal.Type
	Amount int64
	Line   int
}

// Ledger records the money events of one coup.
type Ledger struct {
	obs   map[StakeKey]*Observed
	order []StakeKey
	// Seq is every money event in journal order, for payment-order checks.
	Seq []MoneyEvent
	// Rake is the total of rake events; RakeEvidence their lines.
	Rake         int64
	Rakes        int
	RakeEvidence Evidence
}

// NewLedger returns an empty ledger.
func NewLedger() *Ledger { return &Ledger{obs: make(map[StakeKey]*Observed)} }

// Add records a payout, collect, refund or rake event.
func (l *Ledger) Add(ev *journal.Event) {
	if ev.Type == journal.TypeRake {
		l.Rake += ev.Amount
		l.Rakes++
		l.RakeEvidence.Add(ev)
		return
	}
	k := StakeKey{Spot: ev.Spot, Player: ev.Player}
	o := l.obs[k]
	if o == nil {
		o = &Observed{}
		o.Evidence.Lines = o.lineBuf[:0:2]
		l.obs[k] = o
		l.order = append(l.order, k)
	}
	switch ev.Type {
	case journal.TypePayout:
		o.Paid += ev.Amount
	case journal.TypeCollect:
		o.Collects++
		if ev.HasAmount {
			o.Collected += ev.Amount
		} else {
			o.CollectAll++
		}
	case journal.TypeRefund:
		o.Refunds++
		o.Refunded += ev.Amount
	}
	o.Evidence.Add(ev)
	o.Last, o.LastT = len(l.Seq), ev.T
	l.Seq = append(l.Seq, MoneyEvent{Key: k, Type: ev.Type, Amount: ev.Amount, Line: ev.Line})
}

// Get returns what was observed for a stake (nil if nothing).
func (l *Ledger) Get(k StakeKey) *Observed { return l.obs[k] }

// Keys returns the stakes with money events, in order of their first event.
func (l *Ledger) Keys() []StakeKey { return l.order }

// Keep forgets the money of every stake keep rejects: what is left is what can be judged.
func (l *Ledger) Keep(keep func(StakeKey) bool) {
	order := l.order[:0]
	for _, k := range l.order {
		if keep(k) {
			order = append(order, k)
		} else {
			delete(l.obs, k)
		}
	}
	clear(l.order[len(order):])
	l.order = order
	seq := l.Seq[:0]
	for _, m := range l.Seq {
		if keep(m.Key) {
			seq = append(seq, m)
		}
	}
	l.Seq = seq
	for i, m := range l.Seq { // every stake kept has an event left in Seq
		l.obs[m.Key].Last = i
	}
}

// Reset empties the ledger for the next coup.
func (l *Ledger) Reset() {
	clear(l.obs)
	l.order = l.order[:0]
	l.Seq = l.Seq[:0]
	l.Rake, l.Rakes = 0, 0
	l.RakeEvidence = Evidence{}
}

func jsonStrict(raw []byte, dst any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	return dec.Decode(dst)
}
