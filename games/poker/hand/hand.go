// Package hand evaluates poker hands: five-card hands (the best five of five, six or
// seven face-up cards, as in the hold'em games) and three-card hands with the three
// card poker ranking (a straight beats a flush, a straight flush beats three of a kind).
//
// A Value packs the category and the ranks that decide between two hands of that
// category, so comparing two Values compares the hands, kickers included:
//
//	bits 20..23  category (HighCard .. StraightFlush)
//	bits 16..19  first deciding rank (2..14, the ace counts 14; 5 for the wheel A-2-3-4-5)
//	bits  0..15  the next four deciding ranks, four bits each, 0 when unused
//
// A Value3 is built the same way with three ranks (bits 0..11) below its category
// (bits 12..15).
//
// # Design
//
// The evaluator needs no lookup table. The cards are first folded into one 64-bit
// mask, sixteen bits per suit and one bit per rank (deuce = bit 0, ace = bit 12).
// Everything else is word arithmetic on the four 13-bit suit masks: a suit with five
// or more bits is a flush; AND-ing the suit masks gives the ranks held two, three or
// four times; five consecutive bits of the rank mask (the ace copied below the deuce
// for the wheel) are a straight, found with four shifts and ANDs; kickers are read
// with bits.Len (one LZCNT/BSR instruction each). So there is nothing to build at
// start-up, no init(), no package state, and the only constant data is one 128-byte
// string mapping a journal card to its bit.
// Because the mask is the union of the cards, the same code rates the best five of
// five, six or seven cards (Best), with no choice of subsets.
package hand

import (
	"math/bits"

	"github.com/coupwatch/coupwatch/journal"
)

// Category is the kind of a five-card poker hand, from the weakest.
type Category uint8

// The five-card categories, weakest first.
const (
	HighCard Category = iota
	Pair
	TwoPair
	Trips
	Straight
	Flush
	FullHouse
	Quads
	StraightFlush
)

// String returns the English name of the category ("full house").
func (c Category) String() string {
	switch c {
	case HighCard:
		return "high card"
	case Pair:
		return "pair"
	case TwoPair:
		return "two pair"
	case Trips:
		return "three of a kind"
	case Straight:
		return "straight"
	case Flush:
		return "flush"
	case FullHouse:
		return "full house"
	case Quads:
		return "four of a kind"
	case StraightFlush:
		return "straight flush"
	}
	return "invalid category"
}

// Value is the strength of a five-card poker hand: a larger Value beats a smaller
// one, equal Values tie (kickers included).
type Value uint32

const categoryShift = 20

// Category returns the hand's category.
func (v Value) Category() Category { return Category(v >> categoryShift) }

// IsRoyal reports whether the hand is an ace-high straight flush.
func (v Value) IsRoyal() bool { return v.Category() == StraightFlush && v.TopRank() == 14 }

// TopRank returns the first deciding rank of the hand (2..14, the ace counting 14;
// 5 for the wheel A-2-3-4-5): the rank of the quads, of the trips of a full house,
// of the highest pair, the highest card of a straight, a flush or a high card hand.
func (v Value) TopRank() int { return int(v>>16) & 0xF }

// String describes the hand with its five cards' ranks, e.g. "full house [Q Q Q 7 7]",
// "straight [5 4 3 2 A]".
func (v Value) String() string {
	r := [5]uint32{uint32(v>>16) & 0xF, uint32(v>>12) & 0xF, uint32(v>>8) & 0xF, uint32(v>>4) & 0xF, uint32(v) & 0xF}
	var ranks [5]uint32
	switch v.Category() {
	case Straight, StraightFlush:
		for i := uint32(0); i < 5 && r[0] >= 5; i++ {
			ranks[i] = r[0] - i
		}
	case Quads:
		ranks = [5]uint32{r[0], r[0], r[0], r[0], r[1]}
	case FullHouse:
		ranks = [5]uint32{r[0], r[0], r[0], r[1], r[1]}
	case Trips:
		ranks = [5]uint32{r[0], r[0], r[0], r[1], r[2]}
	case TwoPair:
		ranks = [5]uint32{r[0], r[0], r[1], r[1], r[2]}
	case Pair:
		ranks = [5]uint32{r[0], r[0], r[1], r[2], r[3]}
	default:
		ranks = r
	}
	return describe(v.Category().String(), ranks[:])
}

// describe writes a category name and ranks 2..14 as "pair [K K 7]"; the rank 1 (the
// ace played low in a straight) is written A; zeros (missing kickers) are left out.
func describe(name string, ranks []uint32) string {
	const letters = "?A23456789TJQKA"
	var buf [48]byte
	b := append(append(buf[:0], name...), " ["...)
	first := true
	for _, r := range ranks {
		if r == 0 || r > 14 {
			continue
		}
		if !first {
			b = append(b, ' ')
		}
		first = false
		b = append(b, letters[r])
	}
	return string(append(b, ']'))
}

// cardBit maps a journal card, indexed (suit&7)<<4 | rank&15, to its bit in a hand mask:
// suit lane (spades 0, hearts 16, diamonds 32, clubs 48) plus the rank (deuce 0 .. king 11,
// ace 12). A face-down or invalid card maps to bit 63, a dead bit (each lane uses only its
// low 13 bits), so no card needs a test.
const cardBit = "\x3f\x3f\x3f\x3f\x3f\x3f\x3f\x3f\x3f\x3f\x3f\x3f\x3f\x3f\x3f\x3f\x3f\x0c\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x3f\x3f\x3f\x1c\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x3f\x3f\x3f\x2c\x20\x21\x22\x23\x24\x25\x26\x27\x28\x29\x2a\x2b\x3f\x3f\x3f\x3c\x30\x31\x32\x33\x34\x35\x36\x37\x38\x39\x3a\x3b\x3f\x3f\x3f\x3f\x3f\x3f\x3f\x3f\x3f\x3f\x3f\x3f\x3f\x3f\x3f\x3f\x3f\x3f\x3f\x3f\x3f\x3f\x3f\x3f\x3f\x3f\x3f\x3f\x3f\x3f\x3f\x3f\x3f\x3f\x3f\x3f\x3f\x3f\x3f\x3f\x3f\x3f\x3f\x3f\x3f\x3f\x3f\x3f\x3f\x3f"

// liveBits masks the 13 rank bits of each suit lane.
const liveBits = 0x1fff_1fff_1fff_1fff

// bit returns the card's bit in a hand mask (a dead bit for a face-down card).
func bit(c journal.Card) uint64 {
	return 1 << (cardBit[uint(c.Suit&7)<<4|uint(c.Rank&15)] & 63)
}

// Eval5 returns the Value of five face-up cards.
func Eval5(c [5]journal.Card) Value { return Best(c[:]) }

// Eval7 returns the Value of the best five of seven distinct face-up cards.
func Eval7(c [7]journal.Card) Value { return Best(c[:]) }

// Best returns the Value of the best five of the given distinct face-up cards
// (normally 5, 6 or 7). With fewer than five cards it rates what they make (a pair,
// trips, ...), missing kickers counting as nothing. Face-down cards are ignored and
// a card given twice counts once.
func Best(cards []journal.Card) Value {
	var m uint64
	for _, c := range cards {
		m |= bit(c)
	}
	return evalMask(m)
}

// kickers packs the n highest ranks of the 13-bit mask x into nibbles, from bit
// position shift down: the ranks are written 2..14.
func kickers(x uint32, n int, shift uint) Value {
	var v Value
	for ; n > 0 && x != 0; n-- {
		i := bits.Len32(x) - 1
		x &^= 1 << i
		v |= Value(i+2) << shift
		shift -= 4
	}
	return v
}

// straightTop returns the top rank (5..14) of the highest straight in a 13-bit rank
// mask, or 0.
func straightTop(ranks uint32) uint32 {
	x := ranks<<1 | ranks>>12 // bit 0 is the ace played low
	s := x & (x >> 1) & (x >> 2) & (x >> 3) & (x >> 4)
	if s == 0 {
		return 0
	}
	return uint32(bits.Len32(s)) + 4
}

// flushValue rates the cards of one suit holding five or more of them.
func flushValue(s uint32) Value {
	if t := straightTop(s); t != 0 {
		return Value(StraightFlush)<<categoryShift | Value(t)<<16
	}
	return Value(Flush)<<categoryShift | kickers(s, 5, 16)
}

// evalMask rates the best five cards of a hand mask (sixteen bits per suit).
func evalMask(m uint64) Value {
	s0 := uint32(m) & 0x1fff
	s1 := uint32(m>>16) & 0x1fff
	s2 := uint32(m>>32) & 0x1fff
	s3 := uint32(m>>48) & 0x1fff

	var best Value
	if bits.OnesCount32(s0) >= 5 {
		best = flushValue(s0)
	}
	if bits.OnesCount32(s1) >= 5 {
		best = max(best, flushValue(s1))
	}
	if bits.OnesCount32(s2) >= 5 {
		best = max(best, flushValue(s2))
	}
	if bits.OnesCount32(s3) >= 5 {
		best = max(best, flushValue(s3))
	}
	// With seven cards or fewer a flush excludes quads and a full house, the only
	// hands above it: five cards of one suit leave two for the rest.
	if best != 0 && bits.OnesCount64(m&liveBits) <= 7 {
		return best
	}
	return max(best, evalRanks(s0, s1, s2, s3))
}

// evalRanks rates the best non-flush five-card hand of four suit masks.
func evalRanks(s0, s1, s2, s3 uint32) Value {
	ranks := s0 | s1 | s2 | s3
	two := (s0 & s1) | (s2 & s3) | ((s0 | s1) & (s2 | s3))
	if two == 0 {
		// No rank twice: a straight or a high card hand.
		if t := straightTop(ranks); t != 0 {
			return Value(Straight)<<categoryShift | Value(t)<<16
		}
		return Value(HighCard)<<categoryShift | kickers(ranks, 5, 16)
	}
	four := s0 & s1 & s2 & s3
	if four != 0 {
		q := uint32(bits.Len32(four) - 1)
		return Value(Quads)<<categoryShift | Value(q+2)<<16 | kickers(ranks&^(1<<q), 1, 12)
	}
	three := (s0 & s1 & (s2 | s3)) | (s2 & s3 & (s0 | s1))
	if three != 0 {
		t := uint32(bits.Len32(three) - 1)
		if rest := two &^ (1 << t); rest != 0 {
			p := bits.Len32(rest) - 1
			return Value(FullHouse)<<categoryShift | Value(t+2)<<16 | Value(p+2)<<12
		}
		if st := straightTop(ranks); st != 0 {
			return Value(Straight)<<categoryShift | Value(st)<<16
		}
		return Value(Trips)<<categoryShift | Value(t+2)<<16 | kickers(ranks&^(1<<t), 2, 12)
	}
	if st := straightTop(ranks); st != 0 {
		return Value(Straight)<<categoryShift | Value(st)<<16
	}
	p1 := uint32(bits.Len32(two) - 1)
	if rest := two &^ (1 << p1); rest != 0 {
		p2 := uint32(bits.Len32(rest) - 1)
		return Value(TwoPair)<<categoryShift | Value(p1+2)<<16 | Value(p2+2)<<12 |
			kickers(ranks&^(1<<p1|1<<p2), 1, 8)
	}
	return Value(Pair)<<categoryShift | Value(p1+2)<<16 | kickers(ranks&^(1<<p1), 3, 12)
}

// Category3 is the kind of a three-card hand (three card poker ranking), weakest first.
type Category3 uint8

// The three-card categories, weakest first: a straight beats a flush and a straight
// flush beats three of a kind.
const (
	High3 Category3 = iota
	Pair3
	Flush3
	Straight3
	Trips3
	StraightFlush3
)

// String returns the English name of the three-card category.
func (c Category3) String() string {
	switch c {
	case High3:
		return "high card"
	case Pair3:
		return "pair"
	case Flush3:
		return "flush"
	case Straight3:
		return "straight"
	case Trips3:
		return "three of a kind"
	case StraightFlush3:
		return "straight flush"
	}
	return "invalid category"
}

// Value3 is the strength of a three-card hand: a larger Value3 beats a smaller one,
// equal Values tie.
type Value3 uint32

const category3Shift = 12

// Category returns the three-card category.
func (v Value3) Category() Category3 { return Category3(v >> category3Shift) }

// TopRank returns the first deciding rank (2..14, the ace counting 14; 3 for A-2-3):
// the highest card, the pair's rank, the trips' rank or the top of the straight.
func (v Value3) TopRank() int { return int(v>>8) & 0xF }

// String describes the hand with its three cards' ranks, e.g. "pair [Q Q 9]",
// "straight [3 2 A]".
func (v Value3) String() string {
	r := [3]uint32{uint32(v>>8) & 0xF, uint32(v>>4) & 0xF, uint32(v) & 0xF}
	var ranks [3]uint32
	switch v.Category() {
	case Straight3, StraightFlush3:
		ranks = [3]uint32{r[0], r[0] - 1, r[0] - 2}
	case Trips3:
		ranks = [3]uint32{r[0], r[0], r[0]}
	case Pair3:
		ranks = [3]uint32{r[0], r[0], r[1]}
	default:
		ranks = r
	}
	return describe(v.Category().String(), ranks[:])
}

// highRank maps a journal rank to 2..14 (the ace high), 0 when face down.
func highRank(r journal.Rank) uint32 {
	if r == journal.Ace {
		return 14
	}
	return uint32(r)
}

// Eval3 returns the Value3 of three face-up cards. A-2-3 is the lowest straight and
// Q-K-A the highest; flushes and high cards compare all three cards, a pair its
// rank then the odd card.
func Eval3(c [3]journal.Card) Value3 {
	a, b, d := highRank(c[0].Rank), highRank(c[1].Rank), highRank(c[2].Rank)
	// Sort descending.
	if a < b {
		a, b = b, a
	}
	if b < d {
		b, d = d, b
	}
	if a < b {
		a, b = b, a
	}
	flush := c[0].Suit == c[1].Suit && c[1].Suit == c[2].Suit
	var top uint32
	switch {
	case a == b+1 && b == d+1:
		top = a
	case a == 14 && b == 3 && d == 2:
		top = 3
	}
	switch {
	case top != 0 && flush:
		return Value3(StraightFlush3)<<category3Shift | Value3(top)<<8
	case a == d:
		return Value3(Trips3)<<category3Shift | Value3(a)<<8
	case top != 0:
		return Value3(Straight3)<<category3Shift | Value3(top)<<8
	case flush:
		return Value3(Flush3)<<category3Shift | Value3(a)<<8 | Value3(b)<<4 | Value3(d)
	case a == b:
		return Value3(Pair3)<<category3Shift | Value3(a)<<8 | Value3(d)<<4
	case b == d:
		return Value3(Pair3)<<category3Shift | Value3(b)<<8 | Value3(a)<<4
	}
	return Value3(High3)<<category3Shift | Value3(a)<<8 | Value3(b)<<4 | Value3(d)
}
