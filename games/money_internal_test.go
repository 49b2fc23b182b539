package games

import "testing"

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
