package games

import "github.com/coupwatch/coupwatch/journal"

// Between holds the cards a shoe game sees between coup_end and the next coup_start: the stop
// card, and the burns of a new shoe. They belong to the coup that follows, not to a coup of
// their own.
type Between struct {
	cards []*journal.Event
}

// Hold keeps ev for the next coup when it is a stop card or a burn seen while no coup is open
// (open reports whether one is), and reports whether it did.
func (b *Between) Hold(ev *journal.Event, open bool) bool {
	if open || ev.Type != journal.TypeCard || (ev.To != "stop" && ev.To != "burn") {
		return false
	}
	b.cards = append(b.cards, ev.Clone())
	return true
}

// Release hands the held cards, in journal order, to stop (the stop card) and burn (a burn),
// once the next coup has started, and forgets them.
func (b *Between) Release(stop, burn func(ev *journal.Event)) {
	cards := b.cards
	b.cards = nil
	for _, ev := range cards {
		if ev.To == "stop" {
			stop(ev)
		} else {
			burn(ev)
		}
	}
}
