package baccara

import "github.com/coupwatch/coupwatch/journal"

// Decision is what a hand must do about a third card.
type Decision uint8

// The decisions of the drawing tables.
const (
	// Stand: the hand must not take a third card.
	Stand Decision = iota
	// Draw: the hand must take a third card.
	Draw
	// Option: the hand may draw or stand (chemin de fer and banque à tout va).
	Option
	// Natural: 8 or 9 with two cards, shown at once («abattage»); nobody draws.
	Natural
)

func (d Decision) String() string {
	switch d {
	case Draw:
		return "draw"
	case Option:
		return "draw or stand"
	case Natural:
		return "natural (no draw)"
	}
	return "stand"
}

// NoThird is the third card value of a hand that did not draw («Refus» in the tableau).
const NoThird = -1

// Value is a card's baccara value: ace 1, two to nine their pip value, tens and faces 0
// (AM 88-384 art. 11.6, 12.6 and 13.5, seed 001 L688, L733, L814). A face-down card is -1.
func Value(c journal.Card) int {
	switch {
	case c.IsFaceDown():
		return -1
	case c.Rank >= journal.Ten:
		return 0
	}
	return int(c.Rank)
}

// Point is the point of a hand: the sum of the values modulo ten; -1 when a card is unknown.
func Point(cards ...journal.Card) int {
	p := 0
	for _, c := range cards {
		v := Value(c)
		if v < 0 {
			return -1
		}
		p += v
	}
	return p % 10
}

// IsNatural reports whether a two-card point is a natural (8 or 9).
func IsNatural(point int) bool { return point >= 8 }

// PuntoRule is punto's drawing table at punto banco, on its two-card point.
// AM 88-384 art. 13.6 (seed 001 L832-L837): punto draws on 0-5, stands on 6-7, shows 8-9.
func PuntoRule(point int) Decision {
	switch {
	case point >= 8:
		return Natural
	case point >= 6:
		return Stand
	}
	return Draw
}

// BancoRule is banco's drawing table at punto banco, on its two-card point and the value of
// punto's third card (NoThird when punto stood). The caller has ruled out naturals on either
// side (L837, L843: nobody draws against a natural).
// AM 88-384 art. 13.6 (seed 001 L839-L852): banco draws on 0-2; on 3-6 by the table; stands on 7.
func BancoRule(point, puntoThird int) Decision {
	switch point {
	case 0, 1, 2:
		return Draw
	case 3:
		// Row 3: stands only on a punto third card 8.
		return drawUnless(puntoThird == 8)
	case 4:
		// Row 4: stands on 0, 1, 8, 9.
		return drawUnless(puntoThird == 0 || puntoThird == 1 || puntoThird == 8 || puntoThird == 9)
	case 5:
		// Row 5: draws on 4-7 and when punto stood.
		return drawIf(puntoThird == NoThird || (puntoThird >= 4 && puntoThird <= 7))
	case 6:
		// Row 6: draws on 6-7 only; stands when punto stood.
		return drawIf(puntoThird == 6 || puntoThird == 7)
	case 7:
		return Stand
	}
	return Natural
}

// PonteRule is the ponte's table at chemin de fer and banque à tout va: draw on 0-4, draw or
// stand on 5, stand on 6-7, show 8-9. AM 88-384 art. 12.83 (seed 001 L743-L748); art. 11 gives
// no table and the same conventional one is applied to chemin de fer.
func PonteRule(point int) Decision {
	switch {
	case point >= 8:
		return Natural
	case point >= 6:
		return Stand
	case point == 5:
		return Option
	}
	return Draw
}

// BankerTable names the banker's drawing table at chemin de fer and banque à tout va, which
// the regulation does not give (art. 11 is silent; art. 12.84, L750: «un tableau de tirage qui
// lui est propre»).
type BankerTable uint8

// The banker's tables.
const (
	// Conventional is the chemin de fer banker's table of French and Monegasque tables:
	// punto banco's table with two optional cells (3 against a 9, 5 against a 4).
	Conventional BankerTable = iota
	// Strict is punto banco's table (art. 13.6) with no option.
	Strict
	// Free leaves the banker free on 0-7; only naturals are enforced.
	Free
)

// BankerRule is the banker's decision on his two-card point against a ponte's third card
// (NoThird when the ponte stood), naturals on either side having been ruled out.
func BankerRule(t BankerTable, point, ponteThird int) Decision {
	if point >= 8 {
		return Natural
	}
	switch t {
	case Strict:
		return BancoRule(point, ponteThird)
	case Free:
		return Option
	}
	// Conventional: draws on 0-2 and stands on 7 everywhere; against a third card the punto
	// banco cells apply except that 3 against a 9 and 5 against a 4 are the banker's choice.
	switch {
	case point == 3 && ponteThird == 9, point == 5 && ponteThird == 4:
		return Option
	}
	return BancoRule(point, ponteThird)
}

func drawIf(b bool) Decision {
	if b {
		return Draw
	}
	return Stand
}

func drawUnless(b bool) Decision { return drawIf(!b) }
