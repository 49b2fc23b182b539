package journal

import "fmt"

// Rank is a card rank: 1 = ace, 2..10, 11 = jack, 12 = queen, 13 = king; 0 = unknown (face down).
type Rank uint8

// The ranks with names.
const (
	Ace   Rank = 1
	Ten   Rank = 10
	Jack  Rank = 11
	Queen Rank = 12
	King  Rank = 13
)

// Suit is a card suit; 0 = unknown (face down).
type Suit uint8

// The suits, in the journal's letters S H D C.
const (
	Spades Suit = iota + 1
	Hearts
	Diamonds
	Clubs
)

// Card is a playing card. The zero Card is a card seen face down ("XX").
type Card struct {
	Rank Rank
	Suit Suit
}

const rankLetters = "?A23456789TJQK"
const suitLetters = "?SHDC"

// IsFaceDown reports whether the card was seen face down.
func (c Card) IsFaceDown() bool { return c.Rank == 0 }

// Red reports whether the card is a heart or a diamond.
func (c Card) Red() bool { return c.Suit == Hearts || c.Suit == Diamonds }

// String returns the journal form: "QH", "TD", "XX".
func (c Card) String() string {
	if c.IsFaceDown() {
		return "XX"
	}
	return string([]byte{rankLetters[c.Rank], suitLetters[c.Suit]})
}

// Index returns 0..51 for a face-up card (suit-major: spades A..K, hearts, diamonds, clubs), -1 face down.
func (c Card) Index() int {
	if c.IsFaceDown() {
		return -1
	}
	return int(c.Suit-1)*13 + int(c.Rank-1)
}

// CardFromIndex is the inverse of Card.Index.
func CardFromIndex(i int) Card { return Card{Rank: Rank(i%13 + 1), Suit: Suit(i/13 + 1)} }

// ParseCard reads a card in the journal form: rank A K Q J T 9..2 (or 10), suit S H D C; "XX" is face down.
func ParseCard(s string) (Card, error) {
	return parseCardBytes([]byte(s))
}

func parseCardBytes(b []byte) (Card, error) {
	if len(b) == 2 && b[0] == 'X' && b[1] == 'X' {
		return Card{}, nil
	}
	var r Rank
	var rest []byte
	switch {
	case len(b) == 3 && b[0] == '1' && b[1] == '0':
		r, rest = Ten, b[2:]
	case len(b) == 2:
		switch b[0] {
		case 'A':
			r = Ace
		case 'K':
			r = King
		case 'Q':
			r = Queen
		case 'J':
			r = Jack
		case 'T':
			r = Ten
		default:
			if b[0] >= '2' && b[0] <= '9' {
				r = Rank(b[0] - '0')
			}
		}
		rest = b[1:]
	}
	if r == 0 {
		return Card{}, fmt.Errorf("bad card %q: want rank A K Q J T 9..2 then suit S H D C, or XX", b)
	}
	var s Suit
	switch rest[0] {
	case 'S':
		s = Spades
	case 'H':
		s = Hearts
	case 'D':
		s = Diamonds
	case 'C':
		s = Clubs
	default:
		return Card{}, fmt.Errorf("bad card %q: suit must be S, H, D or C", b)
	}
	return Card{Rank: r, Suit: s}, nil
}
