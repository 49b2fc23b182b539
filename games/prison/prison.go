// Package prison keeps the even chances «en prison»: at European roulette when zero comes
// (Monaco AM 88-384 art. 8.2, seed 001 L551-L556), and at trente et quarante when a refait
// (31-31) makes the same zero rules apply (art. 9, L627). A player with a stake on an even
// chance either takes back half of it (share) or leaves it in prison until the next decisive
// coup: released unpaid if it would have won, lost otherwise; at a further zero the same
// choice comes again, the stake having lost half of its value at each zero.
//
// The package holds the arithmetic and the record of the players' choices; the engines decide
// what counts as a zero, a win or a loss in their game.
package prison

import (
	"sort"

	"github.com/coupwatch/coupwatch/games"
	"github.com/coupwatch/coupwatch/journal"
)

// Choice is what a player does with an even chance at zero.
type Choice string

// The two choices of AM 88-384 art. 8.2 (L553-L554).
const (
	// Share: withdraw half of the stake, the other half goes to the table.
	Share Choice = "share"
	// Prison: leave the whole stake in prison until the next decisive coup.
	Prison Choice = "prison"
)

// ParseChoice reads an action name ("share" or "prison").
func ParseChoice(s string) (Choice, bool) {
	switch Choice(s) {
	case Share, Prison:
		return Choice(s), true
	}
	return "", false
}

// Prisoner is a stake held in prison.
type Prisoner struct {
	Key games.StakeKey
	// Initial is the stake as it was placed.
	Initial int64
	// Zeros counts the zeros (refaits) the stake has seen while held, the one that imprisoned
	// it included.
	Zeros int
	// Evidence is the stake's bet events and the choice that imprisoned it.
	Evidence games.Evidence
}

// ShareBack returns what a player takes back when he shares a stake at its n-th zero (n >= 1):
// half of the initial stake at the first zero, a quarter at the second, and so on (L556).
func ShareBack(r games.Rounding, initial int64, n int) int64 {
	return r.Due(initial, 1, pow2(n))
}

// ShareZeros is the zero a share is reckoned at for a stake at its n-th zero: n, or the first
// when prisoners keep their whole value (reduced false, rules.prison_release = full): half of
// the stake is then handed back at every zero.
func ShareZeros(n int, reduced bool) int {
	if !reduced {
		return min(n, 1)
	}
	return n
}

// ReleaseValue returns what a prisoner that has seen n zeros is worth when it is released:
// the whole stake, or with reduced set the stake less half of its value at each zero after the
// first (initial/2^(n-1)), the reading of L556 that «la valeur initiale de sa mise est considérée
// comme ayant perdu 50 % de sa valeur à chaque sortie du zéro».
func ReleaseValue(r games.Rounding, initial int64, n int, reduced bool) int64 {
	if !reduced || n <= 1 {
		return initial
	}
	return r.Due(initial, 1, pow2(n-1))
}

// SharedByCollect reports whether the money the journal shows for a stake is exactly a share at
// its n-th zero: no payout, and either the collect of the stake less what sharing hands back, or
// (with no collect) the refund of what sharing hands back («half back at zero», the journal
// spec's refund), or a collect and a refund that together take exactly the stake less that (the
// whole stake collected and half handed back). With no choice recorded, that shows the player
// shared.
func SharedByCollect(o *games.Observed, r games.Rounding, initial int64, n int) bool {
	if o == nil || o.Paid != 0 {
		return false
	}
	back := ShareBack(r, initial, n)
	switch {
	case o.Collects > 0 && o.Refunds == 0:
		return o.CollectAll == 0 && o.Collected == initial-back
	case o.Collects == 0 && o.Refunds > 0:
		return o.Refunded == back
	case o.Collects > 0 && o.Refunds > 0:
		return -o.Net(initial) == initial-back
	}
	return false
}

// Restates reports whether a bet event restates a prisoner: the coup after a zero (refait)
// restates the stakes on the layout, and a bet of the prisoner's own amount on its spot, by its
// player, while no stake of this coup stands there, is the prisoner, not a new stake (as a held
// rampo stake restated, review-20 of roulette_european). The event is added to its evidence.
func Restates(held []*Prisoner, ev *journal.Event) bool {
	k := games.StakeKey{Spot: ev.Spot, Player: ev.Player}
	for _, p := range held {
		if p.Key == k && p.Initial == ev.Amount {
			p.Evidence.Add(ev)
			return true
		}
	}
	return false
}

func pow2(n int) int64 {
	if n < 0 {
		n = 0
	}
	if n > 62 {
		n = 62
	}
	return int64(1) << uint(n)
}

// Book records the share and prison decisions announced in one coup, by stake.
type Book struct {
	entries map[games.StakeKey]*entry
}

type entry struct {
	choice Choice
	ev     games.Evidence
	used   bool
}

// NewBook returns an empty book.
func NewBook() *Book { return &Book{entries: make(map[games.StakeKey]*entry)} }

// Record notes a share or prison action on its spot; the last one for a stake counts. An action
// with no spot (the spec makes it optional) is the player's choice for each of his stakes at
// that zero that has no choice of its own. Other actions are ignored.
func (b *Book) Record(ev *journal.Event) {
	c, ok := ParseChoice(ev.Action)
	if !ok {
		return
	}
	k := games.StakeKey{Spot: ev.Spot, Player: ev.Player}
	e := b.entries[k]
	if e == nil {
		e = &entry{}
		b.entries[k] = e
	}
	e.choice = c
	e.ev.Add(ev)
}

// Len returns the number of stakes with a recorded choice.
func (b *Book) Len() int { return len(b.entries) }

// Reset forgets every choice (a new coup).
func (b *Book) Reset() { clear(b.entries) }

// Decide returns the choice for stake k at its n-th zero: the recorded choice, else a share when
// the journal's money for the stake is exactly a share's collect, else def. It marks a recorded
// choice as used and returns its evidence.
func (b *Book) Decide(k games.StakeKey, initial int64, n int, def Choice, r games.Rounding, money *games.Ledger) (Choice, games.Evidence) {
	e := b.entries[k]
	if e == nil {
		e = b.entries[games.StakeKey{Player: k.Player}]
	}
	if e != nil {
		e.used = true
		return e.choice, e.ev
	}
	if money != nil && SharedByCollect(money.Get(k), r, initial, n) {
		return Share, games.Evidence{}
	}
	return def, games.Evidence{}
}

// Unused is a recorded choice no stake at zero called for.
type Unused struct {
	Key      games.StakeKey
	Choice   Choice
	Evidence games.Evidence
}

// Where names the stake the choice was made on, for a detail.
func (u Unused) Where() string {
	if u.Key.Spot == "" {
		return "his stakes"
	}
	return u.Key.Spot
}

// Unused returns the recorded choices that Decide never used, sorted by spot then player.
func (b *Book) Unused() []Unused {
	var out []Unused
	for k, e := range b.entries {
		if !e.used {
			out = append(out, Unused{Key: k, Choice: e.choice, Evidence: e.ev})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Key.Spot != out[j].Key.Spot {
			return out[i].Key.Spot < out[j].Key.Spot
		}
		return out[i].Key.Player < out[j].Key.Player
	})
	return out
}
