package blackjack

import "github.com/coupwatch/coupwatch/journal"

// Value returns a card's blackjack value: 2-9 face value, ten and faces 10, ace 1 (an ace's
// 11 is the hand's business). AM 88-384 art. 5.1 (seed 001 L200).
func Value(c journal.Card) int {
	if c.Rank >= journal.Ten {
		return 10
	}
	return int(c.Rank)
}

// Total returns a hand's best total: its aces count 11 where that does not take the total over
// 21 («l'as, au choix du joueur, vaut un ou onze», L200); soft reports that an ace counts 11.
// Face-down cards count nothing.
func Total(cards []journal.Card) (total int, soft bool) {
	hard, ace := hardTotal(cards)
	if ace && hard+10 <= 21 {
		return hard + 10, true
	}
	return hard, false
}

func hardTotal(cards []journal.Card) (hard int, ace bool) {
	for _, c := range cards {
		if c.IsFaceDown() {
			continue
		}
		hard += Value(c)
		if c.Rank == journal.Ace {
			ace = true
		}
	}
	return hard, ace
}

// IsBlackjack reports whether two cards make a blackjack: 21 with two cards (L244). Whether
// the hand may count as one (not after a split, L270) is the caller's business.
func IsBlackjack(cards []journal.Card) bool {
	if len(cards) != 2 {
		return false
	}
	t, _ := Total(cards)
	return t == 21
}

// DealerRule is the croupier's drawing rule, AM 88-384 art. 5.2 1° (seed 001 L238): he must
// stand on 17 or more and draw on 16 or less, counting an ace as 11 «si, avec valeur, il
// atteint 17 ou 21 points».
type DealerRule struct {
	// Literal reads «17 ou 21» literally: an ace counts 11 only when that makes exactly 17 or
	// 21 (so ace-seven is 8 and draws). The default (false) counts it 11 whenever the total
	// stays at 21 or under: the dealer stands on every 17 to 21, soft ones included.
	Literal bool
}

// Total returns the dealer's total under the rule.
func (r DealerRule) Total(cards []journal.Card) int {
	hard, ace := hardTotal(cards)
	if !ace || hard+10 > 21 {
		return hard
	}
	if r.Literal && hard+10 != 17 && hard+10 != 21 {
		return hard
	}
	return hard + 10
}

// MustDraw reports whether the dealer must take another card: his total is 16 or less
// (AM 88-384 art. 5.2 1°, L238: «s'il a 16 points ou moins, il est tenu de tirer»).
func (r DealerRule) MustDraw(cards []journal.Card) bool {
	return r.Total(cards) < 17
}

// pairKind classifies a Perfect Pairs hand (AM 88-384 art. 5.2 6°, L286-L292).
type pairKind uint8

const (
	noPair pairKind = iota
	mixedPair
	colouredPair
	perfectPair
)

func (k pairKind) String() string {
	switch k {
	case perfectPair:
		return "perfect pair"
	case colouredPair:
		return "coloured pair"
	case mixedPair:
		return "mixed pair"
	}
	return "no pair"
}

// pays returns the Perfect Pairs multiple (L290-L292): 25, 12 or 6.
func (k pairKind) pays() int64 {
	switch k {
	case perfectPair:
		return 25
	case colouredPair:
		return 12
	case mixedPair:
		return 6
	}
	return 0
}

// perfectPairs classifies the first two cards of a box. byValue accepts two cards of the same
// value (J and K) as a pair; otherwise a pair is two cards of the same rank.
func perfectPairs(a, b journal.Card, byValue bool) pairKind {
	if a.IsFaceDown() || b.IsFaceDown() {
		return noPair
	}
	same := a.Rank == b.Rank
	if byValue {
		same = Value(a) == Value(b)
	}
	switch {
	case !same:
		return noPair
	case a == b:
		return perfectPair
	case a.Red() == b.Red():
		return colouredPair
	}
	return mixedPair
}

// Straight readings for 21+3: whether the ace plays low (A-2-3), high (Q-K-A) or both.
const (
	aceBoth = "both"
	aceLow  = "low"
	aceHigh = "high"
)

// twentyOnePlusThree names the 21+3 combination of the player's first two cards and the
// dealer's first card (AM 88-384 art. 5.2 7°, L302-L309): «suite à la couleur», «breton»
// (three of a kind), «suite», «couleur» (flush); "" when none.
func twentyOnePlusThree(a, b, d journal.Card, ace string) string {
	if a.IsFaceDown() || b.IsFaceDown() || d.IsFaceDown() {
		return ""
	}
	flush := a.Suit == b.Suit && b.Suit == d.Suit
	trips := a.Rank == b.Rank && b.Rank == d.Rank
	straight := isStraight(int(a.Rank), int(b.Rank), int(d.Rank), ace)
	switch {
	case straight && flush:
		return "straight flush"
	case trips:
		return "three of a kind"
	case straight:
		return "straight"
	case flush:
		return "flush"
	}
	return ""
}

func isStraight(x, y, z int, ace string) bool {
	run := func(x, y, z int) bool {
		lo, hi := min(x, y, z), max(x, y, z)
		return hi-lo == 2 && x != y && y != z && x != z
	}
	high := func(r int) int {
		if r == 1 {
			return 14
		}
		return r
	}
	hasAce := x == 1 || y == 1 || z == 1
	if !hasAce {
		return run(x, y, z)
	}
	switch ace {
	case aceLow:
		return run(x, y, z)
	case aceHigh:
		return run(high(x), high(y), high(z))
	}
	return run(x, y, z) || run(high(x), high(y), high(z))
}
