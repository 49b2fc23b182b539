package wheel

import (
	"fmt"
	"strconv"
	"strings"
)

// pocket numbers: 0..36 are the numbers, 37 is "00".
const pocket00 = 37

// bet is a spot decoded once: the pockets or segments it covers, its net payout ratio and its
// rank in the payment order.
type bet struct {
	covers uint64 // bit i set = pocket or segment i wins
	num    int64  // net payout num:den
	den    int64
	simple bool // an even chance (rouge/noir, pair/impair, manque/passe)
	order  int  // payment-order rank (see the variant's order table)
	label  string
	// payText says how the spot pays ("35 to 1"), for settlement details.
	payText string
}

func (b bet) wins(result int) bool { return b.covers&(1<<uint(result)) != 0 }

// redMask marks the red numbers of both roulettes: AM 88-384 art. 3.1-3.2 says only "alternately
// red and black"; this is the standard layout (Monaco digest §1.3): 1 3 5 7 9 12 14 16 18 19 21
// 23 25 27 30 32 34 36.
const redMask uint64 = 0x154aad52aa

func isRed(n int) bool { return redMask&(1<<uint(n)) != 0 }

// parsePocket reads "0", "00" or "1".."36" (no leading zeros). allow00 permits "00".
func parsePocket(s string, allow00 bool) (int, bool) {
	if s == "00" {
		return pocket00, allow00
	}
	if s == "0" {
		return 0, true
	}
	if s == "" || s[0] == '0' || len(s) > 2 {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > 36 {
		return 0, false
	}
	return n, true
}

// orderKey sorts pockets as the journal writes them: 0, 00, then 1..36.
func orderKey(p int) int {
	switch p {
	case 0:
		return -2
	case pocket00:
		return -1
	}
	return p
}

// isNumber reports whether a pocket is one of 1..36 (not 0 or 00).
func isNumber(p int) bool { return p >= 1 && p <= 36 }

func mask(ps ...int) uint64 {
	var m uint64
	for _, p := range ps {
		m |= 1 << uint(p)
	}
	return m
}

func maskRange(lo, hi, step int) uint64 {
	var m uint64
	for p := lo; p <= hi; p += step {
		m |= 1 << uint(p)
	}
	return m
}

// parseNumbers reads "A-B-C" in the journal's ascending order (0 and 00 first), without allocating.
func parseNumbers(s string, allow00 bool, want int) (nums [6]int, count int, err error) {
	ns := nums[:0]
	for len(s) > 0 || len(ns) == 0 {
		part := s
		rest := ""
		for i := 0; i < len(s); i++ {
			if s[i] == '-' {
				part, rest = s[:i], s[i+1:]
				if rest == "" {
					return nums, 0, fmt.Errorf("want %d numbers", want)
				}
				break
			}
		}
		if len(ns) == want {
			return nums, 0, fmt.Errorf("want %d numbers", want)
		}
		n, ok := parsePocket(part, allow00)
		if !ok {
			return nums, 0, fmt.Errorf("%q is not a number of this wheel", part)
		}
		if len(ns) > 0 && orderKey(n) <= orderKey(ns[len(ns)-1]) {
			return nums, 0, fmt.Errorf("numbers must be written ascending, 0 and 00 first")
		}
		ns = append(ns, n)
		s = rest
	}
	if len(ns) != want {
		return nums, 0, fmt.Errorf("want %d numbers", want)
	}
	return nums, len(ns), nil
}

func sameSet(ns []int, want ...int) bool {
	if len(ns) != len(want) {
		return false
	}
	for i := range ns {
		if ns[i] != want[i] {
			return false
		}
	}
	return true
}

// rouletteSpot decodes a roulette spot. american selects the 38-pocket layout of AM 88-384
// art. 4.3 (00, the basket, no two-dozen bets); otherwise the 37-pocket layout of art. 8.2.
func rouletteSpot(spot string, american bool, order func(kind string) int) (bet, error) {
	kind, arg, _ := strings.Cut(spot, ":")
	b := bet{den: 1, label: kind, order: order(kind)}
	bad := func(why string) (bet, error) {
		return bet{}, fmt.Errorf("spot %q cannot exist at this roulette: %s", spot, why)
	}
	if arg == "" {
		switch kind {
		case "red", "black", "even", "odd", "low", "high":
			b.simple, b.num = true, 1
			for n := 1; n <= 36; n++ {
				in := false
				switch kind {
				case "red":
					in = isRed(n)
				case "black":
					in = !isRed(n)
				case "even":
					in = n%2 == 0
				case "odd":
					in = n%2 == 1
				case "low":
					in = n <= 18
				case "high":
					in = n >= 19
				}
				if in {
					b.covers |= 1 << uint(n)
				}
			}
			return b, nil
		}
		return bad("unknown spot")
	}
	switch kind {
	case "straight":
		arr, cnt, err := parseNumbers(arg, american, 1)
		if err != nil {
			return bad(err.Error())
		}
		ns := arr[:cnt]
		b.covers, b.num = mask(ns...), 35
	case "split":
		arr, cnt, err := parseNumbers(arg, american, 2)
		if err != nil {
			return bad(err.Error())
		}
		ns := arr[:cnt]
		a, c := ns[0], ns[1]
		ok := false
		switch {
		case isNumber(a) && isNumber(c):
			ok = c-a == 3 || (c-a == 1 && a%3 != 0)
		case american:
			ok = sameSet(ns, 0, pocket00) || sameSet(ns, 0, 1) || sameSet(ns, 0, 2) || sameSet(ns, pocket00, 2) || sameSet(ns, pocket00, 3)
		default:
			ok = a == 0 && c <= 3
		}
		if !ok {
			return bad("the two numbers are not adjacent on the layout")
		}
		b.covers, b.num = mask(ns...), 17
	case "street":
		arr, cnt, err := parseNumbers(arg, american, 3)
		if err != nil {
			return bad(err.Error())
		}
		ns := arr[:cnt]
		ok := false
		switch {
		case isNumber(ns[0]):
			ok = ns[0]%3 == 1 && ns[1] == ns[0]+1 && ns[2] == ns[0]+2
		case american:
			ok = sameSet(ns, 0, 1, 2) || sameSet(ns, 0, pocket00, 2) || sameSet(ns, pocket00, 2, 3)
		default:
			ok = sameSet(ns, 0, 1, 2) || sameSet(ns, 0, 2, 3)
		}
		if !ok {
			return bad("not a row of three numbers")
		}
		b.covers, b.num = mask(ns...), 11
	case "corner":
		arr, cnt, err := parseNumbers(arg, american, 4)
		if err != nil {
			return bad(err.Error())
		}
		ns := arr[:cnt]
		n := ns[0]
		ok := false
		switch {
		case isNumber(n):
			ok = n%3 != 0 && n+4 <= 36 && sameSet(ns, n, n+1, n+3, n+4)
		case !american:
			// AM 88-384 art. 8.2: a carré "comprenant éventuellement le zéro".
			ok = sameSet(ns, 0, 1, 2, 3)
		}
		if !ok {
			return bad("not four numbers meeting at a corner")
		}
		b.covers, b.num = mask(ns...), 8
	case "line":
		arr, cnt, err := parseNumbers(arg, american, 6)
		if err != nil {
			return bad(err.Error())
		}
		ns := arr[:cnt]
		n := ns[0]
		if !isNumber(n) || n%3 != 1 || n > 31 || !sameSet(ns, n, n+1, n+2, n+3, n+4, n+5) {
			return bad("not two adjacent rows of three")
		}
		b.covers, b.num = mask(ns...), 5
	case "basket":
		if !american || arg != "0-00-1-2-3" {
			return bad("the basket is 0-00-1-2-3 at American roulette only")
		}
		b.covers, b.num = mask(0, pocket00, 1, 2, 3), 6
	case "dozen", "column":
		k, ok := smallInt(arg)
		if !ok {
			return bad("want 1, 2 or 3")
		}
		b.covers, b.num = dozenOrColumn(kind, k), 2
	case "dozens", "columns":
		if american {
			return bad("American roulette has no bet on two dozens or columns (art. 4.3)")
		}
		k1, k2, found := strings.Cut(arg, "-")
		a, ok1 := smallInt(k1)
		c, ok2 := smallInt(k2)
		if !found || !ok1 || !ok2 || c != a+1 {
			return bad("want two adjacent dozens or columns, 1-2 or 2-3")
		}
		single := strings.TrimSuffix(kind, "s")
		b.covers, b.num, b.den = dozenOrColumn(single, a)|dozenOrColumn(single, c), 1, 2
	default:
		return bad("unknown spot")
	}
	return b, nil
}

func smallInt(s string) (int, bool) {
	if len(s) != 1 || s[0] < '1' || s[0] > '3' {
		return 0, false
	}
	return int(s[0] - '0'), true
}

func dozenOrColumn(kind string, k int) uint64 {
	if kind == "dozen" {
		return maskRange(12*(k-1)+1, 12*k, 1)
	}
	return maskRange(k, 36, 3)
}

// Boule colours (AM 88-384 art. 3.3): 1, 3, 6, 8 black; 2, 4, 7, 9 red; 5 yellow. The even
// chances' sets are not defined in the text: the standard French ones (Monaco digest §8):
// manque 1-4, passe 6-9, pair 2,4,6,8, impair 1,3,7,9; 5 belongs to none.
func bouleSpot(spot string) (bet, error) {
	kind, arg, _ := strings.Cut(spot, ":")
	b := bet{den: 1, label: kind}
	switch {
	case kind == "number" && len(arg) == 1 && arg[0] >= '1' && arg[0] <= '9':
		b.covers, b.num = mask(int(arg[0]-'0')), 7
		return b, nil
	case arg != "":
	case kind == "red":
		b.covers = mask(2, 4, 7, 9)
	case kind == "black":
		b.covers = mask(1, 3, 6, 8)
	case kind == "even":
		b.covers = mask(2, 4, 6, 8)
	case kind == "odd":
		b.covers = mask(1, 3, 7, 9)
	case kind == "low":
		b.covers = mask(1, 2, 3, 4)
	case kind == "high":
		b.covers = mask(6, 7, 8, 9)
	}
	if b.covers == 0 {
		return bet{}, fmt.Errorf("spot %q cannot exist at boule (want number:1..9, red, black, even, odd, low, high)", spot)
	}
	b.simple, b.num = true, 1
	return b, nil
}

// segment describes a wheel segment: its spot and result name, its count on the wheel and what
// it pays to one (net).
type segment struct {
	name  string
	count int
	pays  int64
	// maxMult is the per-player maximum stake as a multiple of the table minimum (0 = none).
	maxMult int64
}

// bigWheelSegments is the big wheel of AM 88-384 art. 7 (seed 001 L501-L507): 54 segments.
func bigWheelSegments() []segment {
	return []segment{
		{"x1", 24, 1, 0}, {"x2", 15, 2, 0}, {"x5", 7, 5, 0}, {"x10", 4, 10, 0}, {"x20", 2, 20, 0},
		{"joker_black", 1, 40, 0}, {"joker_yellow", 1, 40, 0},
	}
}

// fortuneSegments is the roue de la chance of the French arrêté of 14 May 2007 art. 46-1
// (F004 L226-L280): 52 segments, the payouts "N pour un" and the per-player maxima in multiples
// of the minimum.
func fortuneSegments() []segment {
	return []segment{
		{"orange", 24, 1, 100}, {"green", 12, 3, 50}, {"blue", 8, 5, 25}, {"red", 4, 10, 12},
		{"violet", 2, 20, 10}, {"white", 1, 50, 5}, {"black", 1, 50, 5},
	}
}

func segmentIndex(segs []segment, name string) int {
	for i, s := range segs {
		if s.name == name {
			return i
		}
	}
	return -1
}
