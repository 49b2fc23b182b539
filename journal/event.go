// Package journal reads and writes the coup journal v1: the JSON Lines record of everything
// that happened at a table, in order (see ../shared/spec/journal.md and docs/journal.md).
//
// The reader is strict where the contract is (money is integer cents and never negative,
// time never goes backwards, types and fields are the specified ones) and lenient where the
// contract asks for it (unknown fields are ignored; unknown types may be skipped on request).
// Game-level checks (is this spot possible at this game?) are made by the games package,
// which knows the games.
package journal

import (
	"fmt"
	"time"
)

// Schema is the journal version this package reads and writes.
const Schema = 1

// Type is the type of a journal event.
type Type uint8

// The event types of journal v1.
const (
	TypeUnknown Type = iota
	TypeTableOpen
	TypeDealer
	TypeCoupStart
	TypeBet
	TypeNoMoreBets
	TypeCard
	TypeReveal
	TypeAction
	TypeSpin
	TypeResult
	TypeDice
	TypePayout
	TypeCollect
	TypeRefund
	TypeRake
	TypeCoupEnd
	TypeNote
	numTypes
)

var typeNames = [numTypes]string{
	TypeUnknown:    "",
	TypeTableOpen:  "table_open",
	TypeDealer:     "dealer",
	TypeCoupStart:  "coup_start",
	TypeBet:        "bet",
	TypeNoMoreBets: "no_more_bets",
	TypeCard:       "card",
	TypeReveal:     "reveal",
	TypeAction:     "action",
	TypeSpin:       "spin",
	TypeResult:     "result",
	TypeDice:       "dice",
	TypePayout:     "payout",
	TypeCollect:    "collect",
	TypeRefund:     "refund",
	TypeRake:       "rake",
	TypeCoupEnd:    "coup_end",
	TypeNote:       "note",
}

// String returns the journal name of the type ("table_open", "bet", ...).
func (t Type) String() string {
	if t < numTypes {
		return typeNames[t]
	}
	return fmt.Sprintf("Type(%d)", uint8(t))
}

// ParseType returns the type named s, or TypeUnknown.
func ParseType(s string) Type {
	switch s {
	case "table_open":
		return TypeTableOpen
	case "dealer":
		return TypeDealer
	case "coup_start":
		return TypeCoupStart
	case "bet":
		return TypeBet
	case "no_more_bets":
		return TypeNoMoreBets
	case "card":
		return TypeCard
	case "reveal":
		return TypeReveal
	case "action":
		return TypeAction
	case "spin":
		return TypeSpin
	case "result":
		return TypeResult
	case "dice":
		return TypeDice
	case "payout":
		return TypePayout
	case "collect":
		return TypeCollect
	case "refund":
		return TypeRefund
	case "rake":
		return TypeRake
	case "coup_end":
		return TypeCoupEnd
	case "note":
		return TypeNote
	}
	return TypeUnknown
}

// IsMoney reports whether events of this type move chips between the house and a player.
func (t Type) IsMoney() bool {
	return t == TypePayout || t == TypeCollect || t == TypeRefund
}

// Cut-off causes of a no_more_bets event.
var causes = map[string]bool{"announce": true, "ball_drop": true, "first_card": true, "dice_release": true, "wheel_spin": true}

// Dice faults of a dice event.
var faultNames = map[string]bool{
	"no_wall": true, "slid": true, "not_lengthwise": true, "stacked": true, "cocked": true,
	"on_chip": true, "in_tray": true, "in_rack": true, "off_table": true, "held": true,
	"rubbed": true, "broken": true, "mirror": true,
}

// IsFault reports whether s is a dice fault name of the journal.
func IsFault(s string) bool { return faultNames[s] }

// Limits are the table limits of a table_open event, in cents.
type Limits struct {
	Min int64 `json:"min"`
	Max int64 `json:"max"`
	// Spots holds per-spot overrides, keyed by an exact spot ("straight:17") or a spot kind
	// (the part before the first colon: "straight", "red", "box").
	Spots map[string]SpotLimit `json:"spots,omitempty"`
}

// SpotLimit overrides the table limits for one spot or spot kind; zero means "not overridden".
type SpotLimit struct {
	Min int64 `json:"min,omitempty"`
	Max int64 `json:"max,omitempty"`
}

// For returns the limits that apply to a spot: the exact spot's override, else its kind's,
// else the table's.
func (l *Limits) For(spot string) (min, max int64) {
	min, max = l.Min, l.Max
	if len(l.Spots) == 0 {
		return min, max
	}
	o, ok := l.Spots[spot]
	if !ok {
		o, ok = l.Spots[SpotKind(spot)]
	}
	if ok {
		if o.Min > 0 {
			min = o.Min
		}
		if o.Max > 0 {
			max = o.Max
		}
	}
	return min, max
}

// SpotKind returns the part of a spot before its first colon ("straight" for "straight:17").
func SpotKind(spot string) string {
	for i := 0; i < len(spot); i++ {
		if spot[i] == ':' {
			return spot[:i]
		}
	}
	return spot
}

// Event is one line of a journal. Which fields are set depends on Type; the Has* flags tell
// an absent optional number from a zero one.
//
// An Event returned by Reader.Next, and its slices, are only valid until the next call to
// Next: use Clone to keep one.
type Event struct {
	// Line is the 1-based line number in the journal it was read from (0 if not read).
	Line int

	T     time.Time
	Table string
	Type  Type
	Src   string
	Conf  float64
	Frame string

	HasConf bool

	// table_open
	Game   string
	Rules  []byte // the raw JSON object, nil when absent
	Limits Limits
	// HasLimits is false when table_open carries no limits object.
	HasLimits bool
	Schema    int

	// dealer
	Dealer string

	// coup_start
	Coup string

	// bet, action, payout, collect, refund
	Spot      string
	Player    string
	Amount    int64
	HasAmount bool

	// no_more_bets
	Cause string

	// card, reveal
	To    string
	Card  Card
	Cards []Card

	// action
	Action string

	// spin: roulette and boule use BallRevs/BallDir/RotorDir, wheels Revs/Dir.
	BallRevs    float64
	BallDir     string
	RotorDir    string
	Revs        float64
	Dir         string
	HasBallRevs bool
	HasRevs     bool
	// Obstructed is an extension: the wheel was touched or blocked while turning.
	Obstructed bool

	// result
	Value string

	// dice
	Values []int
	Faults []string

	// note
	Text string
}

// Clone returns a deep copy of e that stays valid after the reader moves on.
func (e *Event) Clone() *Event {
	c := *e
	if e.Rules != nil {
		c.Rules = append([]byte(nil), e.Rules...)
	}
	if e.Limits.Spots != nil {
		c.Limits.Spots = make(map[string]SpotLimit, len(e.Limits.Spots))
		for k, v := range e.Limits.Spots {
			c.Limits.Spots[k] = v
		}
	}
	if e.Cards != nil {
		c.Cards = append([]Card(nil), e.Cards...)
	}
	if e.Values != nil {
		c.Values = append([]int(nil), e.Values...)
	}
	if e.Faults != nil {
		c.Faults = append([]string(nil), e.Faults...)
	}
	return &c
}

// Ref returns the evidence reference of the event: its frame when it has one.
func (e *Event) Ref() string { return e.Frame }
