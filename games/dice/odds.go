package dice

import (
	"fmt"
	"math/big"
)

// LineOdds are the exact chances of the line bets, found by enumerating the 36 throws of two
// dice through the engine's own resolution (resolveCraps), so a change to the rules the
// engine applies shows up here.
type LineOdds struct {
	// PassWin and PassLose are the chances that a pass line stake wins or loses (244/495 and
	// 251/495).
	PassWin, PassLose *big.Rat
	// DontWin, DontLose and DontPush are the same for don't pass, 12 barred (a push).
	DontWin, DontLose, DontPush *big.Rat
}

// PassEdge is the house edge of the pass line per stake: lose minus win (7/495).
func (o LineOdds) PassEdge() *big.Rat { return new(big.Rat).Sub(o.PassLose, o.PassWin) }

// DontEdge is the house edge of don't pass per stake, pushes included (3/220).
func (o LineOdds) DontEdge() *big.Rat { return new(big.Rat).Sub(o.DontLose, o.DontWin) }

// ComputeLineOdds enumerates the come-out and, for each point, the throws until the point or a
// 7 decides the bet.
func ComputeLineOdds() LineOdds {
	o := LineOdds{PassWin: new(big.Rat), PassLose: new(big.Rat), DontWin: new(big.Rat), DontLose: new(big.Rat), DontPush: new(big.Rat)}
	for _, c := range []struct {
		kind            betKind
		win, lose, push *big.Rat
	}{{kPass, o.PassWin, o.PassLose, nil}, {kDontPass, o.DontWin, o.DontLose, o.DontPush}} {
		sp := crapsSpot{kind: c.kind}
		for d1 := 1; d1 <= 6; d1++ {
			for d2 := 1; d2 <= 6; d2++ {
				p := big.NewRat(1, 36)
				switch v := resolveCraps(sp, 0, d1, d2, true, 15); v.res {
				case win:
					c.win.Add(c.win, p)
				case lose:
					c.lose.Add(c.lose, p)
				case push:
					c.push.Add(c.push, p)
				default:
					// The total became the point: the bet is decided by the first later throw
					// that decides it.
					w, l, _ := decisionCounts(sp, d1+d2, true)
					c.win.Add(c.win, new(big.Rat).Mul(p, big.NewRat(w, w+l)))
					c.lose.Add(c.lose, new(big.Rat).Mul(p, big.NewRat(l, w+l)))
				}
			}
		}
	}
	return o
}

// decisionCounts counts, among the 36 throws, those that make a standing bet win, lose or push
// with the given point; it also returns the net win of a winning throw, which is the same for
// every winning throw of the bets it is used for.
func decisionCounts(sp crapsSpot, point int, working bool) (w, l int64, pay *big.Rat) {
	for d1 := 1; d1 <= 6; d1++ {
		for d2 := 1; d2 <= 6; d2++ {
			switch v := resolveCraps(sp, point, d1, d2, working, 15); v.res {
			case win:
				w++
				pay = big.NewRat(v.num, v.den)
			case lose:
				l++
			}
		}
	}
	return w, l, pay
}

// Expectation is the player's exact expected net per unit staked on a craps spot, from the
// engine's resolution and pay tables: per throw for the one-roll chances, per decision for
// the bets that stand until decided (a point of 0 means the table's come-out). highLow is the
// high-low multiple (rules.high_low_pays).
func Expectation(spot string, point int, highLow int64) (*big.Rat, error) {
	sp, err := parseCrapsSpot(spot)
	if err != nil {
		return nil, err
	}
	switch sp.kind {
	case kPass, kDontPass, kCome, kDontCome:
		o := ComputeLineOdds()
		if sp.kind == kPass || sp.kind == kCome {
			return new(big.Rat).Neg(o.PassEdge()), nil
		}
		return new(big.Rat).Neg(o.DontEdge()), nil
	}
	if isOneRoll(sp.kind) {
		ev := new(big.Rat)
		for d1 := 1; d1 <= 6; d1++ {
			for d2 := 1; d2 <= 6; d2++ {
				v := resolveCraps(sp, point, d1, d2, true, highLow)
				switch v.res {
				case win:
					ev.Add(ev, new(big.Rat).Mul(big.NewRat(1, 36), big.NewRat(v.num, v.den)))
				case lose:
					ev.Sub(ev, big.NewRat(1, 36))
				}
			}
		}
		return ev, nil
	}
	if (sp.kind == kOddsPass || sp.kind == kOddsDontPass) && point == 0 {
		return nil, fmt.Errorf("%s needs a point", spot)
	}
	w, l, pay := decisionCounts(sp, point, true)
	if w+l == 0 || pay == nil {
		return nil, fmt.Errorf("%s is never decided with point %d", spot, point)
	}
	ev := new(big.Rat).Mul(big.NewRat(w, w+l), pay)
	return ev.Sub(ev, big.NewRat(l, w+l)), nil
}
