package journal

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// This file holds a small, allocation-free JSON scanner for the flat objects of the journal.
// It validates the whole line as JSON (RFC 8259) and records where the value of each known
// field lies; the reader then decodes only the fields the event type uses. encoding/json would
// do the same job several times slower, and replay speed is a product figure.

// maxDepth bounds the nesting of values the scanner accepts (unknown fields may be objects).
const maxDepth = 64

// span is the byte range of a JSON value in the line; end == 0 means the field was absent.
type span struct{ start, end int32 }

func (s span) present() bool { return s.end > 0 }

type fieldID uint8

const (
	fNone fieldID = iota
	fT
	fTable
	fType
	fSrc
	fConf
	fFrame
	fGame
	fRules
	fLimits
	fSchema
	fDealer
	fCoup
	fSpot
	fPlayer
	fAmount
	fCause
	fTo
	fCard
	fCards
	fAction
	fBallRevs
	fBallDir
	fRotorDir
	fRevs
	fDir
	fValue
	fValues
	fFaults
	fText
	fObstructed
	numFields
)

func fieldOf(key []byte) fieldID {
	switch string(key) {
	case "t":
		return fT
	case "table":
		return fTable
	case "type":
		return fType
	case "src":
		return fSrc
	case "conf":
		return fConf
	case "frame":
		return fFrame
	case "game":
		return fGame
	case "rules":
		return fRules
	case "limits":
		return fLimits
	case "schema":
		return fSchema
	case "dealer":
		return fDealer
	case "coup":
		return fCoup
	case "spot":
		return fSpot
	case "player":
		return fPlayer
	case "amount":
		return fAmount
	case "cause":
		return fCause
	case "to":
		return fTo
	case "card":
		return fCard
	case "cards":
		return fCards
	case "action":
		return fAction
	case "ball_revs":
		return fBallRevs
	case "ball_dir":
		return fBallDir
	case "rotor_dir":
		return fRotorDir
	case "revs":
		return fRevs
	case "dir":
		return fDir
	case "value":
		return fValue
	case "values":
		return fValues
	case "faults":
		return fFaults
	case "text":
		return fText
	case "obstructed", "obstruction":
		return fObstructed
	}
	return fNone
}

// scanner walks one line of JSON.
type scanner struct {
	b     []byte
	i     int
	depth int
}

var errSyntax = errors.New("invalid JSON")

func (s *scanner) fail(format string, args ...any) error {
	return fmt.Errorf("%w at column %d: %s", errSyntax, s.i+1, fmt.Sprintf(format, args...))
}

func (s *scanner) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\r', '\n':
			s.i++
		default:
			return
		}
	}
}

// object scans an object and calls field for each member with the key's raw bytes (without
// quotes; escaped keys are decoded into keyBuf) and the value's span.
func (s *scanner) object(keyBuf []byte, field func(key []byte, v span)) error {
	if s.i >= len(s.b) || s.b[s.i] != '{' {
		return s.fail("expected '{'")
	}
	s.i++
	s.depth++
	if s.depth > maxDepth {
		return s.fail("nesting deeper than %d", maxDepth)
	}
	s.ws()
	if s.i < len(s.b) && s.b[s.i] == '}' {
		s.i++
		s.depth--
		return nil
	}
	for {
		s.ws()
		ks, ke, esc, err := s.str()
		if err != nil {
			return err
		}
		key := s.b[ks:ke]
		if esc {
			if key, err = unescape(keyBuf[:0], key); err != nil {
				return s.fail("%v", err)
			}
		}
		s.ws()
		if s.i >= len(s.b) || s.b[s.i] != ':' {
			return s.fail("expected ':' after object key")
		}
		s.i++
		s.ws()
		start := s.i
		if err := s.value(); err != nil {
			return err
		}
		if field != nil {
			field(key, span{int32(start), int32(s.i)})
		}
		s.ws()
		if s.i >= len(s.b) {
			return s.fail("unterminated object")
		}
		switch s.b[s.i] {
		case ',':
			s.i++
		case '}':
			s.i++
			s.depth--
			return nil
		default:
			return s.fail("expected ',' or '}' in object")
		}
	}
}

func (s *scanner) array(elem func(v span) error) error {
	if s.i >= len(s.b) || s.b[s.i] != '[' {
		return s.fail("expected '['")
	}
	s.i++
	s.depth++
	if s.depth > maxDepth {
		return s.fail("nesting deeper than %d", maxDepth)
	}
	s.ws()
	if s.i < len(s.b) && s.b[s.i] == ']' {
		s.i++
		s.depth--
		return nil
	}
	for {
		s.ws()
		start := s.i
		if err := s.value(); err != nil {
			return err
		}
		if elem != nil {
			if err := elem(span{int32(start), int32(s.i)}); err != nil {
				return err
			}
		}
		s.ws()
		if s.i >= len(s.b) {
			return s.fail("unterminated array")
		}
		switch s.b[s.i] {
		case ',':
			s.i++
		case ']':
			s.i++
			s.depth--
			return nil
		default:
			return s.fail("expected ',' or ']' in array")
		}
	}
}

// value scans any JSON value.
func (s *scanner) value() error {
	if s.i >= len(s.b) {
		return s.fail("expected a value")
	}
	switch c := s.b[s.i]; {
	case c == '{':
		return s.object(nil, nil)
	case c == '[':
		return s.array(nil)
	case c == '"':
		_, _, _, err := s.str()
		return err
	case c == 't':
		return s.lit("true")
	case c == 'f':
		return s.lit("false")
	case c == 'n':
		return s.lit("null")
	case c == '-' || (c >= '0' && c <= '9'):
		return s.number()
	default:
		return s.fail("unexpected character %q", c)
	}
}

func (s *scanner) lit(l string) error {
	if len(s.b)-s.i < len(l) || string(s.b[s.i:s.i+len(l)]) != l {
		return s.fail("invalid literal")
	}
	s.i += len(l)
	return nil
}

// str scans a string and returns the bounds of its contents and whether it has escapes.
func (s *scanner) str() (start, end int, esc bool, err error) {
	if s.i >= len(s.b) || s.b[s.i] != '"' {
		return 0, 0, false, s.fail("expected a string")
	}
	s.i++
	start = s.i
	ascii := true
	for s.i < len(s.b) {
		c := s.b[s.i]
		switch {
		case c == '"':
			end = s.i
			s.i++
			if !ascii && !utf8.Valid(s.b[start:end]) {
				return 0, 0, false, s.fail("string is not valid UTF-8")
			}
			return start, end, esc, nil
		case c == '\\':
			esc = true
			s.i++
			if s.i >= len(s.b) {
				return 0, 0, false, s.fail("unterminated string")
			}
			switch s.b[s.i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				s.i++
			case 'u':
				if len(s.b)-s.i < 5 || !isHex4(s.b[s.i+1:s.i+5]) {
					return 0, 0, false, s.fail("bad \\u escape")
				}
				s.i += 5
			default:
				return 0, 0, false, s.fail("bad escape \\%c", s.b[s.i])
			}
		case c < 0x20:
			return 0, 0, false, s.fail("control character in string")
		default:
			if c >= 0x80 {
				ascii = false
			}
			s.i++
		}
	}
	return 0, 0, false, s.fail("unterminated string")
}

func isHex4(b []byte) bool {
	for _, c := range b[:4] {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

func (s *scanner) number() error {
	b, i := s.b, s.i
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	default:
		s.i = i
		return s.fail("bad number")
	}
	if i < len(b) && b[i] == '.' {
		i++
		d := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		if i == d {
			s.i = i
			return s.fail("bad number")
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		d := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		if i == d {
			s.i = i
			return s.fail("bad number")
		}
	}
	s.i = i
	return nil
}

// unescape appends the decoded contents of a JSON string (without its quotes) to dst.
func unescape(dst, src []byte) ([]byte, error) {
	for i := 0; i < len(src); {
		c := src[i]
		if c != '\\' {
			dst = append(dst, c)
			i++
			continue
		}
		i++
		switch src[i] {
		case '"', '\\', '/':
			dst = append(dst, src[i])
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			r := hex4(src[i+1 : i+5])
			i += 4
			if utf16.IsSurrogate(r) {
				r2 := rune(-1)
				if i+6 < len(src) && src[i+1] == '\\' && src[i+2] == 'u' && isHex4(src[i+3:]) {
					r2 = hex4(src[i+3 : i+7])
				}
				if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
					r = d
					i += 6
				} else {
					r = utf8.RuneError
				}
			}
			dst = utf8.AppendRune(dst, r)
		}
		i++
	}
	return dst, nil
}

func hex4(b []byte) rune {
	var r rune
	for _, c := range b[:4] {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c-'a') + 10
		default:
			r |= rune(c-'A') + 10
		}
	}
	return r
}

// parseInt reads a JSON integer literal (no fraction, no exponent) that fits in int64.
func parseInt(b []byte) (int64, bool) {
	if len(b) == 0 || len(b) > 20 {
		return 0, false
	}
	neg := b[0] == '-'
	i := 0
	if neg {
		i = 1
	}
	if i >= len(b) {
		return 0, false
	}
	var n uint64
	for ; i < len(b); i++ {
		c := b[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + uint64(c-'0')
		if n > math.MaxInt64 {
			return 0, false
		}
	}
	if neg {
		return -int64(n), true
	}
	return int64(n), true
}

// parseFloat reads a JSON number.
func parseFloat(b []byte) (float64, bool) {
	if n, ok := parseInt(b); ok {
		return float64(n), true
	}
	f, err := strconv.ParseFloat(string(b), 64)
	return f, err == nil
}
