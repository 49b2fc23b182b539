package replay_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"sort"
	"testing"
	"time"

	"github.com/coupwatch/coupwatch/games/gamestest"

	"github.com/coupwatch/coupwatch/games"
	"github.com/coupwatch/coupwatch/games/catalog"
	"github.com/coupwatch/coupwatch/games/replay"
	"github.com/coupwatch/coupwatch/journal"
)

// rouletteJournal generates a European roulette journal of about n events: coups of 20 bets on
// random spots, a spin, the cut-off, the result and the dealer's money for every stake (with a
// wrong payout now and then), so the engines do all their work.
func rouletteJournal(tb testing.TB, n int) []byte {
	tb.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	var buf bytes.Buffer
	w := journal.NewWriter(&buf)
	t := time.Date(2026, 11, 22, 20, 0, 0, 0, time.UTC)
	emit := func(ev journal.Event) {
		t = t.Add(250 * time.Millisecond)
		ev.T, ev.Table = t, "RE-03"
		if err := w.Write(&ev); err != nil {
			tb.Fatal(err)
		}
	}
	emit(journal.Event{Type: journal.TypeTableOpen, Game: "roulette_european", HasLimits: true, Limits: journal.Limits{Min: 100, Max: 500000}})
	emit(journal.Event{Type: journal.TypeDealer, Dealer: "D-0001"})
	spots := []string{"red", "black", "even", "odd", "low", "high", "dozen:1", "dozen:2", "column:3", "dozens:1-2",
		"straight:17", "straight:0", "split:8-11", "street:28-29-30", "corner:13-14-16-17", "line:1-2-3-4-5-6"}
	events, coup := 2, 0
	rotor := "cw"
	for events < n {
		coup++
		emit(journal.Event{Type: journal.TypeCoupStart, Coup: fmt.Sprint(coup)})
		type stake struct {
			spot, player string
			amount       int64
		}
		var stakes []stake
		for i := 0; i < 20; i++ {
			s := stake{spots[rng.IntN(len(spots))], fmt.Sprintf("P%d", i+1), int64(100 * (1 + rng.IntN(50)))}
			stakes = append(stakes, s)
			emit(journal.Event{Type: journal.TypeBet, Spot: s.spot, Player: s.player, Amount: s.amount, Frame: fmt.Sprintf("cam-RE-03#%d", events)})
		}
		if rotor == "cw" {
			rotor = "ccw"
		} else {
			rotor = "cw"
		}
		ball := "cw"
		if rotor == "cw" {
			ball = "ccw"
		}
		emit(journal.Event{Type: journal.TypeSpin, BallRevs: float64(7 + rng.IntN(6)), HasBallRevs: true, BallDir: ball, RotorDir: rotor})
		emit(journal.Event{Type: journal.TypeNoMoreBets, Cause: "announce"})
		result := 1 + rng.IntN(36) // no zero: every stake is paid or collected
		emit(journal.Event{Type: journal.TypeResult, Value: fmt.Sprint(result)})
		for _, s := range stakes {
			if covered(s.spot, result) {
				continue
			}
			emit(journal.Event{Type: journal.TypeCollect, Spot: s.spot, Player: s.player, Amount: s.amount, HasAmount: true})
		}
		// Winners are paid in the order of AM 88-384 art. 8.3 (L574).
		sort.SliceStable(stakes, func(i, j int) bool { return payRank(stakes[i].spot) < payRank(stakes[j].spot) })
		for _, s := range stakes {
			if !covered(s.spot, result) {
				continue
			}
			due := pays(s.spot) * s.amount
			if s.spot == "dozens:1-2" {
				due = s.amount / 2
			}
			if rng.IntN(50) == 0 {
				due += 100 // a wrong payout now and then
			}
			emit(journal.Event{Type: journal.TypePayout, Spot: s.spot, Player: s.player, Amount: due, HasAmount: true})
		}
		emit(journal.Event{Type: journal.TypeCoupEnd})
		events += 26 + len(stakes)
	}
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

func covered(spot string, n int) bool {
	red := map[int]bool{1: true, 3: true, 5: true, 7: true, 9: true, 12: true, 14: true, 16: true, 18: true, 19: true, 21: true, 23: true, 25: true, 27: true, 30: true, 32: true, 34: true, 36: true}
	switch spot {
	case "red":
		return red[n]
	case "black":
		return !red[n]
	case "even":
		return n%2 == 0
	case "odd":
		return n%2 == 1
	case "low":
		return n <= 18
	case "high":
		return n >= 19
	case "dozen:1":
		return n <= 12
	case "dozen:2":
		return n >= 13 && n <= 24
	case "column:3":
		return n%3 == 0
	case "dozens:1-2":
		return n <= 24
	case "straight:17":
		return n == 17
	case "straight:0":
		return false
	case "split:8-11":
		return n == 8 || n == 11
	case "street:28-29-30":
		return n >= 28 && n <= 30
	case "corner:13-14-16-17":
		return n == 13 || n == 14 || n == 16 || n == 17
	case "line:1-2-3-4-5-6":
		return n <= 6
	}
	return false
}

func payRank(spot string) int {
	switch spot {
	case "dozen:1", "dozen:2", "column:3", "dozens:1-2":
		return 0
	case "red", "black", "even", "odd", "low", "high":
		return 1
	case "street:28-29-30", "line:1-2-3-4-5-6":
		return 2
	case "corner:13-14-16-17":
		return 3
	case "split:8-11":
		return 4
	}
	return 5
}

func pays(spot string) int64 {
	switch spot {
	case "dozen:1", "dozen:2", "column:3":
		return 2
	case "straight:17", "straight:0":
		return 35
	case "split:8-11":
		return 17
	case "street:28-29-30":
		return 11
	case "corner:13-14-16-17":
		return 8
	case "line:1-2-3-4-5-6":
		return 5
	}
	return 1
}

// BenchmarkReplayRoulette replays a generated one-million-event European roulette journal end
// to end: parsing every line, the rule engine, and encoding every record as replay output.
// Target (issue 2): at least 1,000,000 events per second on one core.
//
//	go test ./games/replay -run '^$' -bench ReplayRoulette -benchmem -cpu 1
func BenchmarkReplayRoulette(b *testing.B) {
	cat, err := catalog.New()
	if err != nil {
		b.Fatal(err)
	}
	counts := gamestest.BenchReplay(b, cat, rouletteJournal(b, 1_000_000))
	if counts.Discrepancies == 0 || counts.Coups == 0 {
		b.Fatalf("replay found nothing: %v", counts)
	}
}

// TestGeneratedJournalReplays checks the benchmark's journal is valid and yields the seeded
// wrong payouts and nothing else.
func TestGeneratedJournalReplays(t *testing.T) {
	data := rouletteJournal(t, 20_000)
	cat, err := catalog.New()
	if err != nil {
		t.Fatal(err)
	}
	var counts replay.Counts
	if err := replay.Run(cat, []replay.Source{{Name: "gen.jsonl", R: bytes.NewReader(data)}}, replay.Options{}, counts.Add); err != nil {
		t.Fatal(err)
	}
	if counts.ByKind[games.WrongPayout] == 0 || counts.ByKind[games.WrongPayout] != counts.Discrepancies {
		t.Errorf("want only the seeded wrong payouts, got %v", counts.ByKind)
	}
	if counts.Settlements != counts.Coups*20 {
		t.Errorf("%d settlements for %d coups of 20 stakes", counts.Settlements, counts.Coups)
	}
}
