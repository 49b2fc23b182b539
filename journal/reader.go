package journal

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"time"
)

// MaxLineBytes bounds one journal line; a longer line is invalid input.
const MaxLineBytes = 1 << 20

// internLimit bounds the strings a reader keeps to share (tables, spots, players, actions).
const internLimit = 1 << 14

// LineError is invalid input: it names the file, the line and what is wrong.
type LineError struct {
	File string
	Line int
	Msg  string
}

func (e *LineError) Error() string {
	if e.Line == 0 {
		return fmt.Sprintf("%s: %s", e.File, e.Msg)
	}
	return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
}

// IsInvalid reports whether err is (or wraps) invalid input rather than a broken reader.
func IsInvalid(err error) bool {
	var le *LineError
	return errors.As(err, &le)
}

// Reader reads a journal one event at a time.
type Reader struct {
	name     string
	br       *bufio.Reader
	line     int
	long     []byte
	lastT    time.Time
	hasLastT bool
	skip     bool

	ev      Event
	spans   [numFields]span
	buf     []byte
	keyBuf  []byte
	intern  map[string]string
	cards   []Card
	values  []int
	faults  []string
	skipped int
}

// utf8BOM is the byte order mark some editors write at the start of a UTF-8 file.
const utf8BOM = "\xef\xbb\xbf"

// NewReader returns a reader of the journal r; name (usually the file path) prefixes errors.
func NewReader(r io.Reader, name string) *Reader {
	return &Reader{name: name, br: bufio.NewReaderSize(r, 64<<10), intern: make(map[string]string, 256)}
}

// SkipUnknownTypes makes the reader skip events of a type it does not know instead of
// rejecting them (a newer writer's journal read by an older agent).
func (r *Reader) SkipUnknownTypes(skip bool) { r.skip = skip }

// Skipped returns how many events of unknown type were skipped.
func (r *Reader) Skipped() int { return r.skipped }

// Line returns the number of the last line read.
func (r *Reader) Line() int { return r.line }

// Next returns the next event, io.EOF at the end, or a *LineError for invalid input. The
// event is only valid until the next call.
func (r *Reader) Next() (*Event, error) {
	for {
		line, err := r.readLine()
		if err != nil {
			return nil, err
		}
		if r.line == 1 {
			line = bytes.TrimPrefix(line, []byte(utf8BOM))
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		ok, err := r.parse(line)
		if err != nil {
			return nil, &LineError{File: r.name, Line: r.line, Msg: err.Error()}
		}
		if !ok {
			r.skipped++
			continue
		}
		return &r.ev, nil
	}
}

func (r *Reader) readLine() ([]byte, error) {
	r.long = r.long[:0]
	for {
		chunk, err := r.br.ReadSlice('\n')
		switch {
		case err == nil:
			r.line++
			if len(r.long) > 0 {
				r.long = append(r.long, chunk...)
				return r.checkLong(r.long)
			}
			return chunk, nil
		case errors.Is(err, bufio.ErrBufferFull):
			r.long = append(r.long, chunk...)
			if len(r.long) > MaxLineBytes {
				r.line++
				return nil, &LineError{File: r.name, Line: r.line, Msg: fmt.Sprintf("line longer than %d bytes", MaxLineBytes)}
			}
		case errors.Is(err, io.EOF):
			if len(chunk) == 0 && len(r.long) == 0 {
				return nil, io.EOF
			}
			r.line++
			r.long = append(r.long, chunk...)
			return r.checkLong(r.long)
		default:
			return nil, fmt.Errorf("reading %s after line %d: %w", r.name, r.line, err)
		}
	}
}

func (r *Reader) checkLong(line []byte) ([]byte, error) {
	if len(line) > MaxLineBytes {
		return nil, &LineError{File: r.name, Line: r.line, Msg: fmt.Sprintf("line longer than %d bytes", MaxLineBytes)}
	}
	return line, nil
}

func (r *Reader) parse(line []byte) (bool, error) {
	r.spans = [numFields]span{}
	s := scanner{b: line}
	if len(line) == 0 || line[0] != '{' {
		return false, errors.New("invalid JSON: a journal line must be one JSON object")
	}
	err := s.object(r.keyBuf[:0], func(key []byte, v span) {
		if f := fieldOf(key); f != fNone {
			r.spans[f] = v
		}
	})
	if err != nil {
		return false, err
	}
	s.ws()
	if s.i != len(line) {
		return false, s.fail("unexpected data after the object")
	}
	p := fieldParser{r: r, line: line}
	return p.event(&r.ev)
}

// fieldParser decodes the fields of one line from their spans.
type fieldParser struct {
	r    *Reader
	line []byte
}

func (p *fieldParser) raw(f fieldID) []byte {
	sp := p.r.spans[f]
	return p.line[sp.start:sp.end]
}

func (p *fieldParser) has(f fieldID) bool { return p.r.spans[f].present() }

func (p *fieldParser) isNull(f fieldID) bool {
	return p.has(f) && string(p.raw(f)) == "null"
}

// strBytes decodes a string field; it reports an error naming the field if it is not a string.
func (p *fieldParser) strBytes(f fieldID, name string) ([]byte, error) {
	b := p.raw(f)
	if len(b) < 2 || b[0] != '"' {
		return nil, fmt.Errorf("%s must be a string, got %s", name, short(b))
	}
	b = b[1 : len(b)-1]
	if bytes.IndexByte(b, '\\') >= 0 {
		var err error
		p.r.buf, err = unescape(p.r.buf[:0], b)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		b = p.r.buf
	}
	return b, nil
}

// str decodes a string field, sharing the string with earlier lines when intern is true.
func (p *fieldParser) str(f fieldID, name string, intern bool) (string, error) {
	b, err := p.strBytes(f, name)
	if err != nil {
		return "", err
	}
	if !intern {
		return string(b), nil
	}
	if s, ok := p.r.intern[string(b)]; ok {
		return s, nil
	}
	s := string(b)
	if len(p.r.intern) < internLimit {
		p.r.intern[s] = s
	}
	return s, nil
}

// need decodes a required, non-empty string field.
func (p *fieldParser) need(f fieldID, name string, ev *Event, intern bool) (string, error) {
	if !p.has(f) || p.isNull(f) {
		return "", fmt.Errorf("%s event needs %q", ev.Type, name)
	}
	s, err := p.str(f, name, intern)
	if err == nil && s == "" {
		err = fmt.Errorf("%s must not be empty", name)
	}
	return s, err
}

// opt decodes an optional string field ("" when absent or null).
func (p *fieldParser) opt(f fieldID, name string, intern bool) (string, error) {
	if !p.has(f) || p.isNull(f) {
		return "", nil
	}
	return p.str(f, name, intern)
}

// money decodes an amount: an integer number of cents, never negative.
func (p *fieldParser) money(f fieldID, name string) (int64, error) {
	b := p.raw(f)
	n, ok := parseInt(b)
	if !ok {
		// A whole number written as a JSON number with a zero fraction or an exponent
		// (1000.0, 1e3, as some writers print every number) is that integer; a fraction of
		// a cent is not money.
		v, isNum := parseFloat(b)
		if !isNum || v != math.Trunc(v) || math.Abs(v) > 1<<53 {
			return 0, fmt.Errorf("%s must be an integer number of cents, got %s", name, short(b))
		}
		n = int64(v)
	}
	if n < 0 {
		return 0, fmt.Errorf("%s is negative (%d): money is never negative", name, n)
	}
	return n, nil
}

func (p *fieldParser) number(f fieldID, name string) (float64, error) {
	b := p.raw(f)
	v, ok := parseFloat(b)
	if !ok {
		return 0, fmt.Errorf("%s must be a number, got %s", name, short(b))
	}
	return v, nil
}

func short(b []byte) string {
	if len(b) > 40 {
		return string(b[:37]) + "..."
	}
	return string(b)
}

func (p *fieldParser) event(ev *Event) (ok bool, err error) {
	r := p.r
	defer func() {
		// Only a line that is read sets the time later lines may not go before: a rejected
		// line (a bad field, a stray date) must not blind the lines after it.
		if ok && err == nil {
			r.lastT, r.hasLastT = ev.T, true
		}
	}()
	*ev = Event{Line: r.line, Cards: r.cards[:0], Values: r.values[:0], Faults: r.faults[:0]}
	defer func() {
		// Keep the grown backing arrays for the next line.
		r.cards, r.values, r.faults = ev.Cards, ev.Values, ev.Faults
		if len(ev.Cards) == 0 {
			ev.Cards = nil
		}
		if len(ev.Values) == 0 {
			ev.Values = nil
		}
		if len(ev.Faults) == 0 {
			ev.Faults = nil
		}
	}()

	if !p.has(fType) {
		return false, errors.New(`missing "type"`)
	}
	tb, err := p.strBytes(fType, "type")
	if err != nil {
		return false, err
	}
	ev.Type = ParseType(string(tb))
	if ev.Type == TypeUnknown {
		if r.skip {
			return false, nil
		}
		return false, fmt.Errorf("unknown event type %q", tb)
	}

	if !p.has(fT) {
		return false, errors.New(`missing "t" (RFC 3339 time)`)
	}
	tb, err = p.strBytes(fT, "t")
	if err != nil {
		return false, err
	}
	if ev.T, err = ParseTime(tb); err != nil {
		return false, err
	}
	if r.hasLastT && ev.T.Before(r.lastT) {
		return false, fmt.Errorf("time goes backwards: %s is before %s on an earlier line", FormatTime(ev.T), FormatTime(r.lastT))
	}

	if ev.Table, err = p.need(fTable, "table", ev, true); err != nil {
		return false, err
	}
	if ev.Src, err = p.opt(fSrc, "src", true); err != nil {
		return false, err
	}
	if p.has(fConf) && !p.isNull(fConf) {
		if ev.Conf, err = p.number(fConf, "conf"); err != nil {
			return false, err
		}
		if ev.Conf < 0 || ev.Conf > 1 {
			return false, fmt.Errorf("conf must be between 0 and 1, got %s", short(p.raw(fConf)))
		}
		ev.HasConf = true
	}
	if ev.Frame, err = p.opt(fFrame, "frame", false); err != nil {
		return false, err
	}

	switch ev.Type {
	case TypeTableOpen:
		err = p.tableOpen(ev)
	case TypeDealer:
		ev.Dealer, err = p.need(fDealer, "dealer", ev, true)
	case TypeCoupStart:
		ev.Coup, err = p.coupID()
	case TypeBet:
		err = p.stake(ev, true)
	case TypeNoMoreBets:
		if ev.Cause, err = p.opt(fCause, "cause", true); err == nil && ev.Cause != "" && !causes[ev.Cause] {
			err = fmt.Errorf("unknown no_more_bets cause %q (want announce, ball_drop, first_card, dice_release or wheel_spin)", ev.Cause)
		}
	case TypeCard:
		err = p.card(ev)
	case TypeReveal:
		err = p.reveal(ev)
	case TypeAction:
		err = p.action(ev)
	case TypeSpin:
		err = p.spin(ev)
	case TypeResult:
		err = p.result(ev)
	case TypeDice:
		err = p.dice(ev)
	case TypePayout, TypeRefund:
		err = p.stake(ev, true)
	case TypeCollect:
		err = p.stake(ev, false)
	case TypeRake:
		if !p.has(fAmount) {
			return false, errors.New(`rake event needs "amount"`)
		}
		ev.Amount, err = p.money(fAmount, "amount")
		ev.HasAmount = true
		if err == nil {
			ev.Spot, err = p.opt(fSpot, "spot", true)
		}
	case TypeNote:
		ev.Text, err = p.opt(fText, "text", false)
	case TypeCoupEnd:
	}
	return err == nil, err
}

func (p *fieldParser) coupID() (string, error) {
	if !p.has(fCoup) || p.isNull(fCoup) {
		return "", nil
	}
	b := p.raw(fCoup)
	if n, ok := parseInt(b); ok {
		return strconv.FormatInt(n, 10), nil
	}
	s, err := p.str(fCoup, "coup", true)
	if err != nil {
		return "", errors.New("coup must be a string (or an integer)")
	}
	return s, nil
}

func (p *fieldParser) tableOpen(ev *Event) error {
	var err error
	if ev.Game, err = p.need(fGame, "game", ev, true); err != nil {
		return err
	}
	ev.Schema = Schema
	if p.has(fSchema) {
		n, ok := parseInt(p.raw(fSchema))
		if !ok {
			return fmt.Errorf("schema must be an integer, got %s", short(p.raw(fSchema)))
		}
		if n != Schema {
			return fmt.Errorf("journal schema %d is not supported (this reader reads schema %d)", n, Schema)
		}
	}
	if p.has(fRules) && !p.isNull(fRules) {
		b := p.raw(fRules)
		if b[0] != '{' {
			return fmt.Errorf("rules must be an object, got %s", short(b))
		}
		ev.Rules = b
	}
	if p.has(fLimits) && !p.isNull(fLimits) {
		if err := p.limits(ev); err != nil {
			return err
		}
	}
	return nil
}

// limits decodes {"min": N, "max": N, "spots": {"straight": {"max": N}}}. Other members are
// read as per-spot overrides too: "straight": 2500 (a maximum) or "straight": {"min":.., "max":..}.
func (p *fieldParser) limits(ev *Event) error {
	b := p.raw(fLimits)
	if b[0] != '{' {
		return fmt.Errorf("limits must be an object, got %s", short(b))
	}
	s := scanner{b: b}
	var ferr error
	lim := &ev.Limits
	setOverride := func(key string, v []byte) {
		if ferr != nil {
			return
		}
		o, err := spotLimit(v)
		if err != nil {
			ferr = fmt.Errorf("limits.%s: %w", key, err)
			return
		}
		if lim.Spots == nil {
			lim.Spots = make(map[string]SpotLimit)
		}
		lim.Spots[key] = o
	}
	err := s.object(nil, func(key []byte, v span) {
		if ferr != nil {
			return
		}
		val := b[v.start:v.end]
		switch string(key) {
		case "min", "max":
			n, ok := parseInt(val)
			if !ok || n < 0 {
				ferr = fmt.Errorf("limits.%s must be a non-negative integer number of cents, got %s", key, short(val))
				return
			}
			if key[1] == 'i' {
				lim.Min = n
			} else {
				lim.Max = n
			}
		case "spots":
			if val[0] != '{' {
				ferr = fmt.Errorf("limits.spots must be an object, got %s", short(val))
				return
			}
			overrides(val, setOverride)
		default:
			if plainValue(val) {
				// Text, true, false or null cannot be a spot's limit: a field of its own
				// (a currency, a note), ignored as unknown fields are.
				return
			}
			if val[0] == '{' && !minMaxObject(val) {
				// A map of overrides under a name of its own ("per_spot", "overrides"...),
				// read as "spots" is.
				overrides(val, setOverride)
				return
			}
			setOverride(string(key), val)
		}
	})
	if err != nil {
		return fmt.Errorf("limits: %w", err)
	}
	if ferr != nil {
		return ferr
	}
	if lim.Max > 0 && lim.Min > lim.Max {
		return fmt.Errorf("limits.min (%d) is above limits.max (%d)", lim.Min, lim.Max)
	}
	ev.HasLimits = true
	return nil
}

// overrides hands each member of a spot → limit map to set, leaving out text, booleans and null.
func overrides(val []byte, set func(key string, v []byte)) {
	ss := scanner{b: val}
	_ = ss.object(nil, func(k []byte, sv span) {
		v := val[sv.start:sv.end]
		if plainValue(v) {
			return
		}
		set(string(k), v)
	})
}

// plainValue reports whether a JSON value is text, true, false or null: never a spot's limit.
func plainValue(v []byte) bool {
	c := v[0]
	return c == '"' || c == 't' || c == 'f' || c == 'n'
}

// minMaxObject reports whether an object holds only "min" and "max" members: one spot's limits,
// not a map of them.
func minMaxObject(v []byte) bool {
	only := true
	s := scanner{b: v}
	_ = s.object(nil, func(k []byte, _ span) {
		if string(k) != "min" && string(k) != "max" {
			only = false
		}
	})
	return only
}

func spotLimit(v []byte) (SpotLimit, error) {
	if n, ok := parseInt(v); ok {
		if n < 0 {
			return SpotLimit{}, fmt.Errorf("must not be negative")
		}
		return SpotLimit{Max: n}, nil
	}
	if v[0] != '{' {
		return SpotLimit{}, fmt.Errorf("must be an integer maximum or an object {\"min\":..,\"max\":..}, got %s", short(v))
	}
	var o SpotLimit
	var ferr error
	s := scanner{b: v}
	_ = s.object(nil, func(k []byte, sv span) {
		val := v[sv.start:sv.end]
		n, ok := parseInt(val)
		if !ok || n < 0 {
			ferr = fmt.Errorf("%s must be a non-negative integer number of cents, got %s", k, short(val))
			return
		}
		switch string(k) {
		case "min":
			o.Min = n
		case "max":
			o.Max = n
		default:
			ferr = fmt.Errorf("unknown key %q (want min, max)", k)
		}
	})
	return o, ferr
}

// stake decodes spot, player and amount (bet, payout, collect, refund).
func (p *fieldParser) stake(ev *Event, amountRequired bool) error {
	var err error
	if ev.Spot, err = p.need(fSpot, "spot", ev, true); err != nil {
		return err
	}
	if ev.Player, err = p.need(fPlayer, "player", ev, true); err != nil {
		return err
	}
	if !p.has(fAmount) || p.isNull(fAmount) {
		if amountRequired {
			return fmt.Errorf("%s event needs \"amount\"", ev.Type)
		}
		return nil
	}
	ev.Amount, err = p.money(fAmount, "amount")
	ev.HasAmount = true
	return err
}

func (p *fieldParser) card(ev *Event) error {
	var err error
	if ev.To, err = p.need(fTo, "to", ev, true); err != nil {
		return err
	}
	if err := CheckPlace(ev.To); err != nil {
		return err
	}
	if !p.has(fCard) {
		return errors.New(`card event needs "card"`)
	}
	b, err := p.strBytes(fCard, "card")
	if err != nil {
		return err
	}
	ev.Card, err = parseCardBytes(b)
	return err
}

func (p *fieldParser) reveal(ev *Event) error {
	var err error
	if ev.To, err = p.need(fTo, "to", ev, true); err != nil {
		return err
	}
	if err := CheckPlace(ev.To); err != nil {
		return err
	}
	if !p.has(fCards) {
		return errors.New(`reveal event needs "cards"`)
	}
	b := p.raw(fCards)
	s := scanner{b: b}
	var cerr error
	err = s.array(func(v span) error {
		e := b[v.start:v.end]
		if len(e) < 2 || e[0] != '"' {
			return fmt.Errorf("cards must be an array of strings, got %s", short(e))
		}
		c, err := parseCardBytes(e[1 : len(e)-1])
		if err != nil {
			return err
		}
		if c.IsFaceDown() {
			return errors.New("a revealed card cannot be XX")
		}
		ev.Cards = append(ev.Cards, c)
		return nil
	})
	if err != nil {
		if cerr == nil {
			cerr = err
		}
		if errors.Is(err, errSyntax) {
			return fmt.Errorf("cards must be an array of cards: %w", err)
		}
		return cerr
	}
	if len(ev.Cards) == 0 {
		return errors.New("reveal event needs at least one card")
	}
	return nil
}

func (p *fieldParser) action(ev *Event) error {
	var err error
	if ev.Action, err = p.need(fAction, "action", ev, true); err != nil {
		return err
	}
	if ev.Player, err = p.opt(fPlayer, "player", true); err != nil {
		return err
	}
	if ev.Spot, err = p.opt(fSpot, "spot", true); err != nil {
		return err
	}
	if p.has(fAmount) && !p.isNull(fAmount) {
		ev.Amount, err = p.money(fAmount, "amount")
		ev.HasAmount = true
	}
	return err
}

func (p *fieldParser) dir(f fieldID, name string) (string, error) {
	s, err := p.opt(f, name, true)
	if err == nil && s != "" && s != "cw" && s != "ccw" {
		err = fmt.Errorf("%s must be \"cw\" or \"ccw\", got %q", name, s)
	}
	return s, err
}

func (p *fieldParser) revs(f fieldID, name string) (float64, bool, error) {
	if !p.has(f) || p.isNull(f) {
		return 0, false, nil
	}
	v, err := p.number(f, name)
	if err == nil && v < 0 {
		err = fmt.Errorf("%s must not be negative", name)
	}
	return v, true, err
}

func (p *fieldParser) spin(ev *Event) error {
	var err error
	if ev.BallRevs, ev.HasBallRevs, err = p.revs(fBallRevs, "ball_revs"); err != nil {
		return err
	}
	if ev.Revs, ev.HasRevs, err = p.revs(fRevs, "revs"); err != nil {
		return err
	}
	if ev.BallDir, err = p.dir(fBallDir, "ball_dir"); err != nil {
		return err
	}
	if ev.RotorDir, err = p.dir(fRotorDir, "rotor_dir"); err != nil {
		return err
	}
	if ev.Dir, err = p.dir(fDir, "dir"); err != nil {
		return err
	}
	if p.has(fObstructed) {
		switch string(p.raw(fObstructed)) {
		case "true":
			ev.Obstructed = true
		case "false", "null":
		default:
			return errors.New("obstructed must be true or false")
		}
	}
	if p.has(fFaults) {
		return p.faultList(ev, func(s string) bool {
			return s == "obstruction" || s == "obstructed" || s == "touched" || s == "blocked"
		})
	}
	return nil
}

func (p *fieldParser) result(ev *Event) error {
	if !p.has(fValue) || p.isNull(fValue) {
		return errors.New(`result event needs "value"`)
	}
	b := p.raw(fValue)
	if n, ok := parseInt(b); ok {
		ev.Value = strconv.FormatInt(n, 10)
		return nil
	}
	var err error
	ev.Value, err = p.str(fValue, "value", true)
	if err == nil && ev.Value == "" {
		err = errors.New("value must not be empty")
	}
	return err
}

func (p *fieldParser) dice(ev *Event) error {
	if !p.has(fValues) {
		return errors.New(`dice event needs "values"`)
	}
	b := p.raw(fValues)
	s := scanner{b: b}
	err := s.array(func(v span) error {
		e := b[v.start:v.end]
		n, ok := parseInt(e)
		if !ok || n < 1 || n > 6 {
			return fmt.Errorf("dice values must be integers from 1 to 6, got %s", short(e))
		}
		ev.Values = append(ev.Values, int(n))
		return nil
	})
	if err != nil {
		if errors.Is(err, errSyntax) {
			return fmt.Errorf("values must be an array of integers: %w", err)
		}
		return err
	}
	if len(ev.Values) == 0 {
		return errors.New("dice event needs at least one die value")
	}
	if p.has(fFaults) {
		return p.faultList(ev, nil)
	}
	return nil
}

// faultList decodes "faults". With extra (a spin), the names extra accepts mark an obstruction
// and the others are ignored; without it (dice), each must be a dice fault.
func (p *fieldParser) faultList(ev *Event, extra func(string) bool) error {
	if p.isNull(fFaults) {
		return nil
	}
	b := p.raw(fFaults)
	s := scanner{b: b}
	err := s.array(func(v span) error {
		e := b[v.start:v.end]
		if len(e) < 2 || e[0] != '"' {
			return fmt.Errorf("faults must be an array of strings, got %s", short(e))
		}
		name := string(e[1 : len(e)-1])
		switch {
		case extra != nil && extra(name):
			ev.Obstructed = true
		case extra == nil && faultNames[name]:
			ev.Faults = append(ev.Faults, name)
		case extra != nil:
			// A spin has no faults of the spec's own: a name that is no obstruction is
			// ignored, as unknown content is.
		default:
			return fmt.Errorf("unknown fault %q", name)
		}
		return nil
	})
	if err != nil && errors.Is(err, errSyntax) {
		return fmt.Errorf("faults must be an array of strings: %w", err)
	}
	return err
}

// CheckPlace validates a card place: dealer, burn, board, box:N, box:N.H, seat:N, punto,
// banco, ponte, banker, left, right, noir, rouge, stop.
func CheckPlace(to string) error {
	switch to {
	case "dealer", "burn", "board", "punto", "banco", "ponte", "banker", "left", "right", "noir", "rouge", "stop":
		return nil
	}
	if n, h, ok := ParseBox(to); ok && n > 0 && h >= 0 {
		return nil
	}
	if rest, ok := cutPrefix(to, "seat:"); ok {
		if n, err := strconv.Atoi(rest); err == nil && n > 0 && rest[0] != '0' {
			return nil
		}
	}
	return fmt.Errorf("unknown card place %q (want dealer, burn, board, box:N, box:N.H, seat:N, punto, banco, ponte, banker, left, right, noir, rouge or stop)", to)
}

// ParseBox reads "box:N" (hand 0) or "box:N.H" (hand H >= 1); ok is false for anything else.
func ParseBox(s string) (box, hand int, ok bool) {
	rest, ok := cutPrefix(s, "box:")
	if !ok || rest == "" {
		return 0, 0, false
	}
	num := rest
	for i := 0; i < len(rest); i++ {
		if rest[i] == '.' {
			num = rest[:i]
			h, err := strconv.Atoi(rest[i+1:])
			if err != nil || h < 1 || rest[i+1] == '0' || rest[i+1] == '+' {
				return 0, 0, false
			}
			hand = h
			break
		}
	}
	n, err := strconv.Atoi(num)
	if err != nil || n < 1 || num[0] == '0' || num[0] == '+' {
		return 0, 0, false
	}
	return n, hand, true
}

func cutPrefix(s, prefix string) (string, bool) {
	if len(s) >= len(prefix) && s[:len(prefix)] == prefix {
		return s[len(prefix):], true
	}
	return s, false
}
