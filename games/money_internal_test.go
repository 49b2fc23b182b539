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
	}
	for _, tt := range tests {
		if got := tt.o.net(tt.stake, tt.kept); got != tt.want {
			t.Errorf("%s: net = %d, want %d", tt.name, got, tt.want)
		}
	}
}
