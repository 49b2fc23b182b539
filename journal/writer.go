package journal

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"unicode/utf8"
)

// Writer writes events as journal lines, in the canonical field order (t, table, type, src,
// conf, frame, then the type's fields). What it writes, Reader reads back to the same events.
type Writer struct {
	w     *bufio.Writer
	buf   []byte
	lastT int64
	any   bool
}

// NewWriter returns a writer to w. Call Flush when done.
func NewWriter(w io.Writer) *Writer { return &Writer{w: bufio.NewWriterSize(w, 64<<10)} }

// Write validates ev as the reader would and appends it as one line.
func (w *Writer) Write(ev *Event) error {
	if ev.Type == TypeUnknown || ev.Type >= numTypes {
		return fmt.Errorf("writing event: unknown type %d", ev.Type)
	}
	if ev.Table == "" {
		return fmt.Errorf("writing %s event: empty table", ev.Type)
	}
	if w.any && ev.T.UnixNano() < w.lastT {
		return fmt.Errorf("writing %s event: time goes backwards (%s)", ev.Type, FormatTime(ev.T))
	}
	b, err := AppendEvent(w.buf[:0], ev)
	if err != nil {
		return err
	}
	w.buf = b
	w.lastT, w.any = ev.T.UnixNano(), true
	b = append(b, '\n')
	_, err = w.w.Write(b)
	return err
}

// Flush writes any buffered lines to the underlying writer.
func (w *Writer) Flush() error { return w.w.Flush() }

// Marshal returns the journal line of ev, without its newline.
func Marshal(ev *Event) ([]byte, error) { return AppendEvent(nil, ev) }

// AppendEvent appends the journal line of ev (without newline) to b.
func AppendEvent(b []byte, ev *Event) ([]byte, error) {
	b = append(b, `{"t":"`...)
	b = AppendTime(b, ev.T)
	b = append(b, '"')
	b = field(b, "table", ev.Table)
	b = field(b, "type", ev.Type.String())
	if ev.Src != "" {
		b = field(b, "src", ev.Src)
	}
	if ev.HasConf {
		b = append(b, `,"conf":`...)
		b = strconv.AppendFloat(b, ev.Conf, 'f', -1, 64)
	}
	if ev.Frame != "" {
		b = field(b, "frame", ev.Frame)
	}
	switch ev.Type {
	case TypeTableOpen:
		b = field(b, "game", ev.Game)
		if len(ev.Rules) > 0 {
			var cb bytes.Buffer
			if err := json.Compact(&cb, ev.Rules); err != nil {
				return nil, fmt.Errorf("writing table_open: rules: %w", err)
			}
			b = append(b, `,"rules":`...)
			b = append(b, cb.Bytes()...)
		}
		if ev.HasLimits {
			b = appendLimits(b, &ev.Limits)
		}
		b = append(b, `,"schema":`...)
		b = strconv.AppendInt(b, Schema, 10)
	case TypeDealer:
		b = field(b, "dealer", ev.Dealer)
	case TypeCoupStart:
		if ev.Coup != "" {
			b = field(b, "coup", ev.Coup)
		}
	case TypeBet, TypePayout, TypeRefund, TypeCollect:
		b = field(b, "spot", ev.Spot)
		b = field(b, "player", ev.Player)
		if ev.HasAmount || ev.Type != TypeCollect {
			b = amount(b, ev.Amount)
		}
	case TypeNoMoreBets:
		if ev.Cause != "" {
			b = field(b, "cause", ev.Cause)
		}
	case TypeCard:
		b = field(b, "to", ev.To)
		b = field(b, "card", ev.Card.String())
	case TypeReveal:
		b = field(b, "to", ev.To)
		b = append(b, `,"cards":[`...)
		for i, c := range ev.Cards {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, '"')
			b = append(b, c.String()...)
			b = append(b, '"')
		}
		b = append(b, ']')
	case TypeAction:
		if ev.Player != "" {
			b = field(b, "player", ev.Player)
		}
		b = field(b, "action", ev.Action)
		if ev.Spot != "" {
			b = field(b, "spot", ev.Spot)
		}
		if ev.HasAmount {
			b = amount(b, ev.Amount)
		}
	case TypeSpin:
		if ev.HasBallRevs {
			b = append(b, `,"ball_revs":`...)
			b = strconv.AppendFloat(b, ev.BallRevs, 'f', -1, 64)
		}
		if ev.BallDir != "" {
			b = field(b, "ball_dir", ev.BallDir)
		}
		if ev.RotorDir != "" {
			b = field(b, "rotor_dir", ev.RotorDir)
		}
		if ev.HasRevs {
			b = append(b, `,"revs":`...)
			b = strconv.AppendFloat(b, ev.Revs, 'f', -1, 64)
		}
		if ev.Dir != "" {
			b = field(b, "dir", ev.Dir)
		}
		if ev.Obstructed {
			b = append(b, `,"obstructed":true`...)
		}
	case TypeResult:
		b = field(b, "value", ev.Value)
	case TypeDice:
		b = append(b, `,"values":[`...)
		for i, v := range ev.Values {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, int64(v), 10)
		}
		b = append(b, ']')
		if len(ev.Faults) > 0 {
			b = append(b, `,"faults":[`...)
			for i, f := range ev.Faults {
				if i > 0 {
					b = append(b, ',')
				}
				b = AppendString(b, f)
			}
			b = append(b, ']')
		}
	case TypeRake:
		if ev.Spot != "" {
			b = field(b, "spot", ev.Spot)
		}
		b = amount(b, ev.Amount)
	case TypeNote:
		b = field(b, "text", ev.Text)
	}
	return append(b, '}'), nil
}

func appendLimits(b []byte, l *Limits) []byte {
	b = append(b, `,"limits":{"min":`...)
	b = strconv.AppendInt(b, l.Min, 10)
	b = append(b, `,"max":`...)
	b = strconv.AppendInt(b, l.Max, 10)
	if len(l.Spots) > 0 {
		keys := make([]string, 0, len(l.Spots))
		for k := range l.Spots {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b = append(b, `,"spots":{`...)
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			o := l.Spots[k]
			b = AppendString(b, k)
			b = append(b, `:{`...)
			sep := false
			if o.Min > 0 {
				b = append(b, `"min":`...)
				b = strconv.AppendInt(b, o.Min, 10)
				sep = true
			}
			if o.Max > 0 {
				if sep {
					b = append(b, ',')
				}
				b = append(b, `"max":`...)
				b = strconv.AppendInt(b, o.Max, 10)
			}
			b = append(b, '}')
		}
		b = append(b, '}')
	}
	return append(b, '}')
}

func field(b []byte, name, v string) []byte {
	b = append(b, ',', '"')
	b = append(b, name...)
	b = append(b, '"', ':')
	return AppendString(b, v)
}

func amount(b []byte, n int64) []byte {
	b = append(b, `,"amount":`...)
	return strconv.AppendInt(b, n, 10)
}

// AppendString appends s as a JSON string. Invalid UTF-8 is replaced by U+FFFD.
func AppendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, "\ufffd"...)
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
