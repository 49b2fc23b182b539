package games

import (
	"testing"

	"github.com/coupwatch/coupwatch/journal"
)

// TestObservedNet: the net the journal's money shows for a stake, refunds read against the
// part of the stake that did not win.
func TestObservedNet(t *testing.T) {
	tests := []struct {
		name              string
		o                 Observed
		stake, kept, want int64
	}{
		{"a loser collected in full", Observed{CollectAll: 1, Collects: 1}, 1000, 0, -1000},
		{"a winner paid", Observed{Paid: 1000}, 1000, 1000, 1000},
		{"a winner collected", Observed{CollectAll: 1, Collects: 1}, 1000, 1000, -1000},
		{"a void stake handed back", Observed{Refunded: 1000, Refunds: 1}, 1000, 0, 0},
		{"half handed back at zero: the rest lost", Observed{Refunded: 500, Refunds: 1}, 1000, 0, -500},
		{"a reduced part handed back, the rest wins", Observed{Paid: 1000, Refunded: 1000, Refunds: 1}, 2000, 1000, 1000},
		{"a winner paid and his stake handed back as a refund", Observed{Paid: 1000, Refunded: 1000, Refunds: 1}, 1000, 1000, 1000},
		{"a loser handed back", Observed{Refunded: 1000, Refunds: 1}, 1000, 0, 0},
		{"a push collected, then handed back", Observed{CollectAll: 1, Collects: 1, Refunded: 1000, Refunds: 1}, 1000, 0, 0},
		{"a loser collected, then handed back", Observed{Collected: 500, Collects: 1, Refunded: 500, Refunds: 1}, 500, 0, 0},
		{"the whole stake collected, half handed back", Observed{Collected: 2000, Collects: 1, Refunded: 1000, Refunds: 1}, 2000, 0, -1000},
		{"half collected, half handed back", Observed{Collected: 1000, Collects: 1, Refunded: 1000, Refunds: 1}, 2000, 0, -1000},
		{"a winner collected, handed back and paid", Observed{Paid: 1000, Collected: 1000, Collects: 1, Refunded: 1000, Refunds: 1}, 1000, 1000, 1000},
		{"more collected than the stake, part handed back", Observed{Collected: 3000, Collects: 1, Refunded: 500, Refunds: 1}, 2000, 0, -2500},
		{"collect-all of two stakes, one of them won", Observed{Paid: 500, CollectAll: 1, Collects: 1}, 1500, 500, -500},
	}
	for _, tt := range tests {
		if got := tt.o.net(tt.stake, tt.kept); got != tt.want {
			t.Errorf("%s: net = %d, want %d", tt.name, got, tt.want)
		}
	}
}

// TestLedgerKeep: the money of the stakes a coup can judge is kept, with its order; the rest is
// forgotten.
func TestLedgerKeep(t *testing.T) {
	l := NewLedger()
	add := func(line int, typ journal.Type, spot string, amount int64) {
		l.Add(&journal.Event{Line: line, Type: typ, Spot: spot, Player: "P1", Amount: amount, HasAmount: true})
	}
	add(3, journal.TypeCollect, "red", 1000)
	add(4, journal.TypeRefund, "noir", 500)
	add(5, journal.TypePayout, "red", 200)
	add(6, journal.TypeRefund, "noir", 500)
	l.Keep(func(k StakeKey) bool { return k.Spot == "noir" })
	if l.Get(StakeKey{Spot: "red", Player: "P1"}) != nil {
		t.Error("red kept")
	}
	o := l.Get(StakeKey{Spot: "noir", Player: "P1"})
	if o == nil || o.Refunded != 1000 || o.Refunds != 2 {
		t.Fatalf("noir = %+v", o)
	}
	if len(l.Keys()) != 1 || len(l.Seq) != 2 || l.Seq[0].Line != 4 || l.Seq[1].Line != 6 || o.Last != 1 {
		t.Errorf("keys %v, seq %v, last %d", l.Keys(), l.Seq, o.Last)
	}
}
