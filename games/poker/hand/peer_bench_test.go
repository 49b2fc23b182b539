//go:build chehsunliu

// The peer benchmark needs github.com/chehsunliu/poker, a test-only module that is not
// in go.mod (the module proxy of the build machines refuses it). Where it can be
// fetched:
//
//	go get github.com/chehsunliu/poker@latest
//	go test ./games/poker/hand -tags chehsunliu -run '^$' -bench 'Eval7' -benchmem -cpu 1 -count 5
//
// or, without touching go.mod, with a copy of the module and an alternate go.mod
// holding "require github.com/chehsunliu/poker v0.1.0" and a replace to the copy:
//
//	go test -modfile /tmp/peer.mod ./games/poker/hand -tags chehsunliu -run '^$' -bench 'Eval7' -benchmem -cpu 1 -count 5

package hand_test

import (
	"testing"

	"github.com/chehsunliu/poker"

	"github.com/coupwatch/coupwatch/games/poker/hand"
	"github.com/coupwatch/coupwatch/journal"
)

// peerCard converts a journal card to the peer's representation ("Ah", "Td").
func peerCard(c journal.Card) poker.Card {
	const ranks = "?A23456789TJQK"
	const suits = "?shdc"
	return poker.NewCard(string([]byte{ranks[c.Rank], suits[c.Suit]}))
}

// BenchmarkEval7Chehsunliu rates the hands of BenchmarkEval7 with
// github.com/chehsunliu/poker, converted to its card type outside the timer.
func BenchmarkEval7Chehsunliu(b *testing.B) {
	hands := randomHands(benchHands)
	peer := make([][7]poker.Card, len(hands))
	for i, h := range hands {
		for j, c := range h {
			peer[i][j] = peerCard(c)
		}
	}
	var acc int32
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		acc ^= poker.Evaluate(peer[i&(benchHands-1)][:])
	}
	b.StopTimer()
	if acc == 0 && b.N > 1 {
		b.Log("accumulator is zero")
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "hands/s")
}

// TestPeerAgrees checks that the peer and hand.Eval7 order random hands the same way,
// so the benchmarks compare like with like (the peer ranks 1 = best).
func TestPeerAgrees(t *testing.T) {
	hands := randomHands(20_000)
	for i := 1; i < len(hands); i++ {
		a, b := hands[i-1], hands[i]
		ours := compare(uint32(hand.Eval7(a)), uint32(hand.Eval7(b)))
		var pa, pb [7]poker.Card
		for j := range a {
			pa[j], pb[j] = peerCard(a[j]), peerCard(b[j])
		}
		theirs := compare(uint32(poker.Evaluate(pb[:])), uint32(poker.Evaluate(pa[:])))
		if ours != theirs {
			t.Fatalf("%v vs %v: hand says %d, peer says %d", a, b, ours, theirs)
		}
	}
}

func compare(a, b uint32) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
