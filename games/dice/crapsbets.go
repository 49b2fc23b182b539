package dice

import (
	"fmt"
	"strconv"
	"strings"
)

// betKind is a craps chance of AM 88-384 art. 6.3 (seed 001 L351-L493).
type betKind uint8

const (
	kPass betKind = iota
	kDontPass
	kCome
	kDontCome
	kField
	kBig6
	kBig8
	kHard
	kAny7
	kEleven
	kAnyCraps
	kCraps
	kHorn
	kSevenEleven
	kCE
	kThreeWay
	kHighLow
	kHornHigh
	kWorld
	kOddsPass
	kOddsDontPass
	kOddsCome
	kOddsDontCome
	kPlace
	kBuy
	kLay
	kHop
)

// crapsSpot is a decoded craps spot: its chance and the number it names (the point of an
// odds, place, buy or lay bet, the double of a hard way, the doubled unit of a horn high,
// the total of craps:N) or the two faces of a hop bet.
type crapsSpot struct {
	kind betKind
	n    int
	a, b int // hop faces, a <= b
}

// points are the totals that become a point (art. 6.3 A 1°, L357).
func isPoint(n int) bool { return n == 4 || n == 5 || n == 6 || n == 8 || n == 9 || n == 10 }

// parseCrapsSpot decodes a journal craps spot (spec/journal.md, craps row).
func parseCrapsSpot(s string) (crapsSpot, error) {
	switch s {
	case "pass":
		return crapsSpot{kind: kPass}, nil
	case "dont_pass":
		return crapsSpot{kind: kDontPass}, nil
	case "come":
		return crapsSpot{kind: kCome}, nil
	case "dont_come":
		return crapsSpot{kind: kDontCome}, nil
	case "field":
		return crapsSpot{kind: kField}, nil
	case "big6":
		return crapsSpot{kind: kBig6, n: 6}, nil
	case "big8":
		return crapsSpot{kind: kBig8, n: 8}, nil
	case "any7":
		return crapsSpot{kind: kAny7}, nil
	case "eleven":
		return crapsSpot{kind: kEleven}, nil
	case "any_craps":
		return crapsSpot{kind: kAnyCraps}, nil
	case "horn":
		return crapsSpot{kind: kHorn}, nil
	case "seven_eleven":
		return crapsSpot{kind: kSevenEleven}, nil
	case "c_e":
		return crapsSpot{kind: kCE}, nil
	case "three_way_craps":
		return crapsSpot{kind: kThreeWay}, nil
	case "high_low":
		return crapsSpot{kind: kHighLow}, nil
	case "world":
		return crapsSpot{kind: kWorld}, nil
	case "odds:pass":
		return crapsSpot{kind: kOddsPass}, nil
	case "odds:dont_pass":
		return crapsSpot{kind: kOddsDontPass}, nil
	}
	prefix, arg, ok := strings.Cut(s, ":")
	if !ok {
		return crapsSpot{}, fmt.Errorf("spot %q is not a craps spot", s)
	}
	num := func(allowed func(int) bool, want string) (int, error) {
		n, err := strconv.Atoi(arg)
		if err != nil || !allowed(n) || strconv.Itoa(n) != arg {
			return 0, fmt.Errorf("spot %q: the number must be %s", s, want)
		}
		return n, nil
	}
	switch prefix {
	case "hard":
		n, err := num(func(n int) bool { return n == 4 || n == 6 || n == 8 || n == 10 }, "4, 6, 8 or 10")
		return crapsSpot{kind: kHard, n: n}, err
	case "craps":
		n, err := num(func(n int) bool { return n == 2 || n == 3 || n == 12 }, "2, 3 or 12")
		return crapsSpot{kind: kCraps, n: n}, err
	case "horn_high":
		n, err := num(func(n int) bool { return n == 2 || n == 3 || n == 11 || n == 12 }, "the doubled number: 2, 3, 11 or 12")
		return crapsSpot{kind: kHornHigh, n: n}, err
	case "place":
		n, err := num(isPoint, "4, 5, 6, 8, 9 or 10")
		return crapsSpot{kind: kPlace, n: n}, err
	case "buy":
		n, err := num(isPoint, "4, 5, 6, 8, 9 or 10")
		return crapsSpot{kind: kBuy, n: n}, err
	case "lay":
		// AM 88-384 art. 6.3 F (L491) also lists 7, which cannot work for a bet that "wins with
		// the 7": read as a drafting error, a lay bet is on 4, 5, 6, 8, 9 or 10.
		n, err := num(isPoint, "4, 5, 6, 8, 9 or 10 (a lay bet on 7 cannot win with the 7)")
		return crapsSpot{kind: kLay, n: n}, err
	case "hop":
		as, bs, ok := strings.Cut(arg, "-")
		a, errA := strconv.Atoi(as)
		b, errB := strconv.Atoi(bs)
		if !ok || errA != nil || errB != nil || a < 1 || b > 6 || a > b || strconv.Itoa(a) != as || strconv.Itoa(b) != bs {
			return crapsSpot{}, fmt.Errorf("spot %q: a hop bet names two faces from 1 to 6, ascending (hop:2-5)", s)
		}
		return crapsSpot{kind: kHop, n: a + b, a: a, b: b}, nil
	case "odds":
		sub, point, ok := strings.Cut(arg, ":")
		if !ok || (sub != "come" && sub != "dont_come") {
			return crapsSpot{}, fmt.Errorf("spot %q: odds are odds:pass, odds:dont_pass, odds:come:N or odds:dont_come:N", s)
		}
		n, err := strconv.Atoi(point)
		if err != nil || !isPoint(n) || strconv.Itoa(n) != point {
			return crapsSpot{}, fmt.Errorf("spot %q: the come point must be 4, 5, 6, 8, 9 or 10", s)
		}
		if sub == "come" {
			return crapsSpot{kind: kOddsCome, n: n}, nil
		}
		return crapsSpot{kind: kOddsDontCome, n: n}, nil
	}
	return crapsSpot{}, fmt.Errorf("spot %q is not a craps spot", s)
}

// result is what a throw does to a bet.
type result uint8

const (
	noDecision result = iota
	win
	lose
	push
	travel // a come or don't come bet moves to the number thrown
)

// verdict is a bet's result on a throw and, for a win, its net odds num:den on the stake.
type verdict struct {
	res      result
	num, den int64
}

func won(num, den int64) verdict { return verdict{res: win, num: num, den: den} }

var (
	lost     = verdict{res: lose}
	pushed   = verdict{res: push}
	standing = verdict{res: noDecision}
)

// passLine resolves a pass (or come) bet whose point is point (0 on its first throw) on a
// throw totalling t. AM 88-384 art. 6.3 A 1° (L357): wins with 7 or 11, loses with 2, 3 or 12,
// any other total becomes the point; then wins if the point repeats, loses on 7.
func passLine(point, t int) result {
	if point == 0 {
		switch t {
		case 7, 11:
			return win
		case 2, 3, 12:
			return lose
		}
		return travel
	}
	switch t {
	case point:
		return win
	case 7:
		return lose
	}
	return noDecision
}

// dontPassLine resolves a don't pass (or don't come) bet. AM 88-384 art. 6.3 A 2° (L365):
// wins with 2 or 3, loses with 7 or 11, 12 is a push («coup nul»); then wins on 7, loses if
// the point repeats.
func dontPassLine(point, t int) result {
	if point == 0 {
		switch t {
		case 2, 3:
			return win
		case 7, 11:
			return lose
		case 12:
			return push
		}
		return travel
	}
	switch t {
	case 7:
		return win
	case point:
		return lose
	}
	return noDecision
}

// trueOdds are the odds behind pass and come, and the buy bet's odds: 4/10 2:1, 5/9 3:2, 6/8
// 6:5 (L465, L475, L489).
func trueOdds(n int) (int64, int64) {
	switch n {
	case 4, 10:
		return 2, 1
	case 5, 9:
		return 3, 2
	}
	return 6, 5
}

// layOdds are the odds behind don't pass and don't come, and the lay bet's odds: 4/10 1:2,
// 5/9 2:3, 6/8 5:6 (L471, L481, L491).
func layOdds(n int) (int64, int64) {
	num, den := trueOdds(n)
	return den, num
}

// placeOdds pay a place bet: 6/8 7:6, 5/9 7:5, 4/10 9:5 (L487).
func placeOdds(n int) (int64, int64) {
	switch n {
	case 4, 10:
		return 9, 5
	case 5, 9:
		return 7, 5
	}
	return 7, 6
}

// oneRoll resolves the one-roll chances: the field (art. 6.3 A 5°), the propositions paid
// «mise comprise» (B 2° to 7°, L403: "N fois la mise" includes the stake, so net N-1), the
// combined bets paid «mise non comprise» on equal units (B 8° to 17°: net N times the whole
// stake) and the hop bets (G, L493). highLow is the high-low multiple (15 in the text).
func oneRoll(sp crapsSpot, d1, d2 int, highLow int64) verdict {
	t := d1 + d2
	switch sp.kind {
	case kField:
		// L389-L391: 3, 4, 9, 10, 11 paid once the stake, 2 and 12 twice.
		switch t {
		case 2, 12:
			return won(2, 1)
		case 3, 4, 9, 10, 11:
			return won(1, 1)
		}
	case kAny7:
		if t == 7 { // L411: five times the stake, stake included.
			return won(4, 1)
		}
	case kEleven:
		if t == 11 { // L415: fifteen times, stake included.
			return won(14, 1)
		}
	case kAnyCraps:
		if t == 2 || t == 3 || t == 12 { // L419: eight times, stake included.
			return won(7, 1)
		}
	case kCraps:
		if t == sp.n { // L423-L433: 2 and 12 thirty times, 3 fifteen times, stake included.
			if t == 3 {
				return won(14, 1)
			}
			return won(29, 1)
		}
	case kHorn:
		// L435-L439: 2 and 12 pay 6.5 times, 3 and 11 2.75 times the stake.
		switch t {
		case 2, 12:
			return won(13, 2)
		case 3, 11:
			return won(11, 4)
		}
	case kSevenEleven:
		// L441: 7 pays three for two, 11 6.5 times.
		switch t {
		case 7:
			return won(3, 2)
		case 11:
			return won(13, 2)
		}
	case kCE:
		// L443: 2, 3 and 12 pay three times, 11 6.5 times.
		switch t {
		case 2, 3, 12:
			return won(3, 1)
		case 11:
			return won(13, 2)
		}
	case kThreeWay:
		// L445: 3 pays four times, 2 and 12 nine times.
		switch t {
		case 3:
			return won(4, 1)
		case 2, 12:
			return won(9, 1)
		}
	case kHighLow:
		// L447: fifteen times the stake (rules.high_low_pays).
		if t == 2 || t == 12 {
			return won(highLow, 1)
		}
	case kHornHigh:
		if n, ok := hornHigh(sp.n, t); ok {
			return won(n, 1)
		}
	case kWorld:
		// L457: on 7 the stake stays; 3 and 11 pay twice, 2 and 12 five times.
		switch t {
		case 7:
			return pushed
		case 3, 11:
			return won(2, 1)
		case 2, 12:
			return won(5, 1)
		}
	case kHop:
		// L493: fifteen times stake included, thirty times for a double.
		lo, hi := d1, d2
		if lo > hi {
			lo, hi = hi, lo
		}
		if lo == sp.a && hi == sp.b {
			if lo == hi {
				return won(29, 1)
			}
			return won(14, 1)
		}
	}
	return lost
}

// hornHigh returns what a horn high with the double unit on double pays on total t
// (L449-L455).
func hornHigh(double, t int) (int64, bool) {
	if t != 2 && t != 3 && t != 11 && t != 12 {
		return 0, false
	}
	switch double {
	case 11: // horn high eleven: 3 twice, the others five times.
		if t == 3 {
			return 2, true
		}
		return 5, true
	case 3: // horn high ace duce: 11 twice, the others five times.
		if t == 11 {
			return 2, true
		}
		return 5, true
	case 12: // horn high twelve: 2 five times, 3 and 11 twice, 12 eleven times.
		switch t {
		case 2:
			return 5, true
		case 12:
			return 11, true
		}
		return 2, true
	}
	// horn high aces (double on 2): 2 eleven times, 3 and 11 twice, 12 five times.
	switch t {
	case 2:
		return 11, true
	case 12:
		return 5, true
	}
	return 2, true
}

// isOneRoll reports whether a chance is decided on every throw.
func isOneRoll(k betKind) bool {
	switch k {
	case kField, kAny7, kEleven, kAnyCraps, kCraps, kHorn, kSevenEleven, kCE, kThreeWay, kHighLow, kHornHigh, kWorld, kHop:
		return true
	}
	return false
}

// resolveCraps is the one place a throw decides a craps stake: point is the table's point
// before the throw (0 on a come-out), working says whether a bet that may be off (place bets
// and come odds on the come-out, a bet called off) plays on this throw.
func resolveCraps(sp crapsSpot, point, d1, d2 int, working bool, highLow int64) verdict {
	t := d1 + d2
	switch sp.kind {
	case kPass:
		// The come-out total that becomes the point leaves the pass bet standing.
		if r := passLine(point, t); r != travel {
			return lineVerdict(r)
		}
		return standing
	case kDontPass:
		if r := dontPassLine(point, t); r != travel {
			return lineVerdict(r)
		}
		return standing
	case kCome:
		// A come bet in the come box is on its first throw (L373-L375); one that travelled
		// is resolved with its own point by the engine.
		return lineVerdict(passLine(sp.n, t))
	case kDontCome:
		// L385: a don't come left "en no action" waits.
		if !working {
			return standing
		}
		return lineVerdict(dontPassLine(sp.n, t))
	case kBig6, kBig8:
		// L393-L399: wins with the number made any way, loses on 7; waits while called off.
		if !working {
			return standing
		}
		switch t {
		case sp.n:
			return won(1, 1)
		case 7:
			return lost
		}
		return standing
	case kHard:
		// L405-L409: the double wins (4 and 10 eight times, 6 and 8 ten times, stake
		// included); 7 or the number made another way loses; waits while called off.
		if !working {
			return standing
		}
		switch {
		case t == sp.n && d1 == d2:
			if sp.n == 4 || sp.n == 10 {
				return won(7, 1)
			}
			return won(9, 1)
		case t == sp.n || t == 7:
			return lost
		}
		return standing
	case kOddsPass:
		// L461-L465: wins with the point, loses on 7, paid 2:1, 3:2, 6:5.
		if point == 0 {
			return standing
		}
		if r := passLine(point, t); !working && r != noDecision {
			return pushed // called off: handed back when its line bet is decided
		}
		return oddsVerdict(passLine(point, t), point, trueOdds)
	case kOddsDontPass:
		// L467-L471: wins on 7, loses with the point, paid 1:2, 2:3, 5:6.
		if point == 0 {
			return standing
		}
		if r := dontPassLine(point, t); !working && r != noDecision {
			return pushed // called off: handed back when its line bet is decided
		}
		return oddsVerdict(dontPassLine(point, t), point, layOdds)
	case kOddsCome:
		// L473-L477: follows the come bet on its number, paid as pass odds; off on the
		// come-out after a point was made unless the player asks: returned when decided.
		r := passLine(sp.n, t)
		if !working && r != noDecision {
			return pushed
		}
		return oddsVerdict(r, sp.n, trueOdds)
	case kOddsDontCome:
		// L479-L481 with L385: follows the don't come bet on its number, and waits with it
		// while it is called off.
		if !working {
			return standing
		}
		return oddsVerdict(dontPassLine(sp.n, t), sp.n, layOdds)
	case kPlace:
		// L483-L487: wins with its number, loses on 7; plays only once the point is known
		// unless the player asks.
		if !working {
			return standing
		}
		switch t {
		case sp.n:
			num, den := placeOdds(sp.n)
			return won(num, den)
		case 7:
			return lost
		}
		return standing
	case kBuy:
		// L489: wins with its number at true odds, loses on 7.
		if !working {
			return standing
		}
		switch t {
		case sp.n:
			num, den := trueOdds(sp.n)
			return won(num, den)
		case 7:
			return lost
		}
		return standing
	case kLay:
		// L491: wins on 7 at 1:2, 2:3, 5:6, loses with its number.
		if !working {
			return standing
		}
		switch t {
		case 7:
			num, den := layOdds(sp.n)
			return won(num, den)
		case sp.n:
			return lost
		}
		return standing
	}
	return oneRoll(sp, d1, d2, highLow)
}

func lineVerdict(r result) verdict {
	if r == win {
		return won(1, 1) // simple chances are paid even money (L353)
	}
	return verdict{res: r}
}

func oddsVerdict(r result, point int, odds func(int) (int64, int64)) verdict {
	if r == win {
		num, den := odds(point)
		return won(num, den)
	}
	return verdict{res: r}
}

// describeOdds renders net odds for a settlement detail: "7 to 6", "6.5 times the stake".
func describeOdds(num, den int64) string {
	switch {
	case den == 1 && num < 100:
		return strconv.Itoa(int(num)) + " to 1"
	case den == 2 && num%2 == 1:
		return strconv.FormatFloat(float64(num)/2, 'f', 1, 64) + " times the stake"
	case den == 4 && num%2 == 1:
		return strconv.FormatFloat(float64(num)/4, 'f', 2, 64) + " times the stake"
	}
	return strconv.FormatInt(num, 10) + " to " + strconv.FormatInt(den, 10)
}
