package hand_test

import (
	"math/rand/v2"
	"testing"

	"github.com/coupwatch/coupwatch/games/poker/hand"
	"github.com/coupwatch/coupwatch/journal"
)

// benchHands is the number of pre-generated hands the benchmarks cycle through:
// enough to defeat branch-history learning, small enough to stay in cache.
const benchHands = 1 << 16

// randomHands deals n random seven-card hands from a fresh deck each, with a fixed seed.
func randomHands(n int) [][7]journal.Card {
	rng := rand.New(rand.NewPCG(2026, 11))
	out := make([][7]journal.Card, n)
	for i := range out {
		perm := rng.Perm(52)
		for j := range out[i] {
			out[i][j] = journal.CardFromIndex(perm[j])
		}
	}
	return out
}

// BenchmarkEval7 rates random seven-card hands; one op is one hand.
//
//	go test ./games/poker/hand -run '^$' -bench 'Eval7' -benchmem -cpu 1 -count 5
func BenchmarkEval7(b *testing.B) {
	hands := randomHands(benchHands)
	var acc hand.Value
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		acc ^= hand.Eval7(hands[i&(benchHands-1)])
	}
	b.StopTimer()
	if acc == 0 && b.N > 1 {
		b.Log("accumulator is zero") // keeps acc (and so every call) alive
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "hands/s")
}

// BenchmarkBest7 rates the same hands through Best (a slice of seven cards).
func BenchmarkBest7(b *testing.B) {
	hands := randomHands(benchHands)
	var acc hand.Value
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		acc ^= hand.Best(hands[i&(benchHands-1)][:])
	}
	b.StopTimer()
	if acc == 0 && b.N > 1 {
		b.Log("accumulator is zero")
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "hands/s")
}

// BenchmarkEval3 rates random three-card hands.
func BenchmarkEval3(b *testing.B) {
	hands := randomHands(benchHands)
	var acc hand.Value3
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		h := &hands[i&(benchHands-1)]
		acc ^= hand.Eval3([3]journal.Card{h[0], h[1], h[2]})
	}
	b.StopTimer()
	if acc == 0 && b.N > 1 {
		b.Log("accumulator is zero")
	}
}
