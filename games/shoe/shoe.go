// Package shoe follows the cards dealt from a shoe of several 52-card decks: how many are out,
// how many remain, and whether a card has been seen more often than the decks allow (a foreign or
// duplicated card: AM 88-384 art. 1, seed 001 L85). Card games use it for deck composition,
// burn counts and the cut and stop cards.
package shoe

import "github.com/coupwatch/coupwatch/journal"

// Shoe counts the cards out of a shoe of Decks decks since the last shuffle.
type Shoe struct {
	decks  int
	counts [52]uint16
	dealt  int
}

// New returns a fresh shoe of decks decks (at least 1).
func New(decks int) *Shoe {
	if decks < 1 {
		decks = 1
	}
	return &Shoe{decks: decks}
}

// Decks returns the number of decks.
func (s *Shoe) Decks() int { return s.decks }

// Reset starts a new shoe (after a shuffle).
func (s *Shoe) Reset() {
	s.counts = [52]uint16{}
	s.dealt = 0
}

// Deal counts a card out of the shoe. A face-down card counts towards the cards dealt only. It
// reports false when the card has now been seen more times than the decks hold.
func (s *Shoe) Deal(c journal.Card) bool {
	s.dealt++
	if c.IsFaceDown() {
		return true
	}
	i := c.Index()
	s.counts[i]++
	return int(s.counts[i]) <= s.decks
}

// Reveal counts a card turned up after it came out face down (it is already among the dealt).
func (s *Shoe) Reveal(c journal.Card) bool {
	if c.IsFaceDown() {
		return true
	}
	i := c.Index()
	s.counts[i]++
	return int(s.counts[i]) <= s.decks
}

// Seen returns how many times a card has been seen face up.
func (s *Shoe) Seen(c journal.Card) int {
	if c.IsFaceDown() {
		return 0
	}
	return int(s.counts[c.Index()])
}

// Dealt returns the number of cards out of the shoe, face down included.
func (s *Shoe) Dealt() int { return s.dealt }

// Remaining returns the cards left in the shoe.
func (s *Shoe) Remaining() int { return s.decks*52 - s.dealt }
