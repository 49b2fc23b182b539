// Package games is the rule-engine framework: the records engines produce (settlements,
// discrepancies, coup summaries), the rule and game descriptions they cite, the shared
// book-keeping of stakes and observed money (Base), rules options, rounding, and the Runner
// that feeds journal events to one engine per table.
//
// Engines are pure and deterministic: no I/O, no clock, no goroutines. Time comes from the
// events. A discrepancy is data, never a Go error; an error means the input is invalid.
package games

import (
	"strconv"
	"time"

	"github.com/coupwatch/coupwatch/journal"
)

// RulesVersion identifies the rule set the engines implement; it travels in alerts.
const RulesVersion = "2026.11.0"

// Kind is the kind of a discrepancy.
type Kind string

// The discrepancy kinds of the replay output.
const (
	WrongPayout    Kind = "wrong_payout"
	LateBet        Kind = "late_bet"
	IrregularThrow Kind = "irregular_throw"
	IrregularSpin  Kind = "irregular_spin"
	Procedure      Kind = "procedure"
	BetLimit       Kind = "bet_limit"
)

// Kinds lists every kind, for documentation and validation.
func Kinds() []Kind {
	return []Kind{WrongPayout, LateBet, IrregularThrow, IrregularSpin, Procedure, BetLimit}
}

// Severity says how urgent a discrepancy is for the surveillance room.
type Severity string

// The severities.
const (
	Info     Severity = "info"
	Warning  Severity = "warning"
	Critical Severity = "critical"
)

// Outcome is how a stake was settled.
type Outcome string

// The outcomes of the replay output.
const (
	Win      Outcome = "win"
	Lose     Outcome = "lose"
	Push     Outcome = "push"
	Half     Outcome = "half"
	Prison   Outcome = "prison"
	Released Outcome = "released"
	Void     Outcome = "void"
)

// Value is an expected or observed value of a discrepancy: an amount in cents, a short text
// ("stand on soft 17", "7 revolutions") or nothing.
type Value struct {
	kind uint8 // 0 none, 1 money, 2 text
	n    int64
	s    string
}

// Money returns an amount value.
func Money(n int64) Value { return Value{kind: 1, n: n} }

// Text returns a text value.
func Text(s string) Value { return Value{kind: 2, s: s} }

// None is the absent value (JSON null).
func None() Value { return Value{} }

// IsMoney reports whether v is an amount; Amount returns it.
func (v Value) IsMoney() bool { return v.kind == 1 }

// Amount returns the amount of a money value (0 otherwise).
func (v Value) Amount() int64 { return v.n }

// IsNone reports whether v is absent.
func (v Value) IsNone() bool { return v.kind == 0 }

// String renders the value for people: cents as "12.50", text as is, none as "-".
func (v Value) String() string {
	switch v.kind {
	case 1:
		return FormatCents(v.n)
	case 2:
		return v.s
	}
	return "-"
}

func (v Value) appendJSON(b []byte) []byte {
	switch v.kind {
	case 1:
		return strconv.AppendInt(b, v.n, 10)
	case 2:
		return journal.AppendString(b, v.s)
	}
	return append(b, "null"...)
}

// FormatCents renders cents as units with two decimals: 1250 -> "12.50", -5 -> "-0.05".
func FormatCents(n int64) string {
	neg := n < 0
	if neg {
		n = -n
	}
	s := strconv.FormatInt(n/100, 10) + "." + string([]byte{byte('0' + n%100/10), byte('0' + n%10)})
	if neg {
		return "-" + s
	}
	return s
}

// Evidence points at what supports a finding: journal line numbers and frame references.
type Evidence struct {
	Lines  []int
	Frames []string
}

// Add appends the line and frame of an event (once each).
func (e *Evidence) Add(ev *journal.Event) {
	if ev == nil {
		return
	}
	e.AddRef(ev.Line, ev.Frame)
}

// AddRef appends a line and a frame reference (once each; zero and empty are skipped).
func (e *Evidence) AddRef(line int, frame string) {
	if line > 0 && !containsInt(e.Lines, line) {
		e.Lines = append(e.Lines, line)
	}
	if frame != "" && !containsStr(e.Frames, frame) {
		e.Frames = append(e.Frames, frame)
	}
}

// Merge appends the references of o.
func (e *Evidence) Merge(o Evidence) {
	for _, l := range o.Lines {
		e.AddRef(l, "")
	}
	for _, f := range o.Frames {
		e.AddRef(0, f)
	}
}

func containsInt(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

func containsStr(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// Record is one line of the replay output: *Settlement, *Discrepancy or *CoupSummary.
type Record interface {
	// AppendJSON appends the record as one JSON object (no newline).
	AppendJSON(b []byte) []byte
	// CoupKey returns the table and coup the record belongs to.
	CoupKey() (table, coup string)
}

// Settlement says what a stake should have got and what the journal shows it got.
type Settlement struct {
	Table   string
	Coup    string
	Spot    string
	Player  string
	Stake   int64
	Outcome Outcome
	// Expected is the net result for the player in cents: positive paid, negative taken.
	Expected int64
	// Observed is the net the journal's payout/collect/refund events show; HasObserved is
	// false when the journal shows nothing for the stake.
	Observed    int64
	HasObserved bool
	// Detail explains the settlement for the text report ("17 wins straight up, 35 to 1").
	Detail   string
	Evidence Evidence
}

// CoupKey implements Record.
func (s *Settlement) CoupKey() (string, string) { return s.Table, s.Coup }

// AppendJSON implements Record.
func (s *Settlement) AppendJSON(b []byte) []byte {
	b = append(b, `{"type":"settlement","table":`...)
	b = journal.AppendString(b, s.Table)
	b = append(b, `,"coup":`...)
	b = journal.AppendString(b, s.Coup)
	b = append(b, `,"spot":`...)
	b = journal.AppendString(b, s.Spot)
	b = append(b, `,"player":`...)
	b = journal.AppendString(b, s.Player)
	b = append(b, `,"stake":`...)
	b = strconv.AppendInt(b, s.Stake, 10)
	b = append(b, `,"outcome":"`...)
	b = append(b, s.Outcome...)
	b = append(b, `","expected":`...)
	b = strconv.AppendInt(b, s.Expected, 10)
	b = append(b, `,"observed":`...)
	if s.HasObserved {
		b = strconv.AppendInt(b, s.Observed, 10)
	} else {
		b = append(b, "null"...)
	}
	return append(b, '}')
}

// Discrepancy is a breach of the rules found in the journal.
type Discrepancy struct {
	Table    string
	Coup     string
	T        time.Time
	Kind     Kind
	Rule     string
	Article  string
	Severity Severity
	Spot     string
	Player   string
	Expected Value
	Observed Value
	Detail   string
	Evidence Evidence
}

// CoupKey implements Record.
func (d *Discrepancy) CoupKey() (string, string) { return d.Table, d.Coup }

// AppendJSON implements Record.
func (d *Discrepancy) AppendJSON(b []byte) []byte {
	b = append(b, `{"type":"discrepancy","table":`...)
	b = journal.AppendString(b, d.Table)
	b = append(b, `,"coup":`...)
	b = journal.AppendString(b, d.Coup)
	b = append(b, `,"t":"`...)
	b = journal.AppendTime(b, d.T)
	b = append(b, `","kind":"`...)
	b = append(b, d.Kind...)
	b = append(b, `","rule":`...)
	b = journal.AppendString(b, d.Rule)
	b = append(b, `,"article":`...)
	b = journal.AppendString(b, d.Article)
	b = append(b, `,"severity":"`...)
	b = append(b, d.Severity...)
	b = append(b, '"')
	if d.Spot != "" {
		b = append(b, `,"spot":`...)
		b = journal.AppendString(b, d.Spot)
	}
	if d.Player != "" {
		b = append(b, `,"player":`...)
		b = journal.AppendString(b, d.Player)
	}
	b = append(b, `,"expected":`...)
	b = d.Expected.appendJSON(b)
	b = append(b, `,"observed":`...)
	b = d.Observed.appendJSON(b)
	b = append(b, `,"detail":`...)
	b = journal.AppendString(b, d.Detail)
	b = append(b, `,"evidence":{"lines":[`...)
	for i, l := range d.Evidence.Lines {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(l), 10)
	}
	b = append(b, `],"frames":[`...)
	for i, f := range d.Evidence.Frames {
		if i > 0 {
			b = append(b, ',')
		}
		b = journal.AppendString(b, f)
	}
	return append(b, "]}}"...)
}

// CoupSummary closes a coup in the replay output.
type CoupSummary struct {
	Table  string
	Coup   string
	Game   string
	Dealer string
	// Result is the decisive outcome: the number, the segment, the points, the hands.
	Result        string
	Discrepancies int
	Start, End    time.Time
	// FirstLine and LastLine bound the coup in the journal.
	FirstLine, LastLine int
}

// CoupKey implements Record.
func (c *CoupSummary) CoupKey() (string, string) { return c.Table, c.Coup }

// AppendJSON implements Record.
func (c *CoupSummary) AppendJSON(b []byte) []byte {
	b = append(b, `{"type":"coup","table":`...)
	b = journal.AppendString(b, c.Table)
	b = append(b, `,"coup":`...)
	b = journal.AppendString(b, c.Coup)
	b = append(b, `,"game":`...)
	b = journal.AppendString(b, c.Game)
	b = append(b, `,"dealer":`...)
	if c.Dealer == "" {
		b = append(b, "null"...)
	} else {
		b = journal.AppendString(b, c.Dealer)
	}
	b = append(b, `,"result":`...)
	b = journal.AppendString(b, c.Result)
	b = append(b, `,"discrepancies":`...)
	b = strconv.AppendInt(b, int64(c.Discrepancies), 10)
	b = append(b, `,"start":"`...)
	b = journal.AppendTime(b, c.Start)
	b = append(b, `","end":"`...)
	b = journal.AppendTime(b, c.End)
	b = append(b, `","lines":[`...)
	b = strconv.AppendInt(b, int64(c.FirstLine), 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(c.LastLine), 10)
	return append(b, "]}"...)
}
