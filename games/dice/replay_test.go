package dice_test

import (
	"bytes"
	"flag"
	"path/filepath"
	"testing"

	"github.com/coupwatch/coupwatch/games"
	"github.com/coupwatch/coupwatch/games/dice"
	"github.com/coupwatch/coupwatch/games/gamestest"
	"github.com/coupwatch/coupwatch/games/replay"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

func diceCatalog(tb testing.TB) *games.Catalog {
	tb.Helper()
	return gamestest.Catalog(tb, dice.Games()...)
}

// replayAll replays a journal and returns its output lines and counts.
func replayAll(tb testing.TB, cat *games.Catalog, data []byte) ([]byte, replay.Counts) {
	tb.Helper()
	var out []byte
	var counts replay.Counts
	err := replay.Run(cat, []replay.Source{{Name: "gen.jsonl", R: bytes.NewReader(data)}}, replay.Options{}, func(r games.Record) {
		counts.Add(r)
		out = r.AppendJSON(out)
		out = append(out, '\n')
	})
	if err != nil {
		tb.Fatal(err)
	}
	return out, counts
}

// TestGeneratedSessions replays long generated sessions whose money was computed independently
// of the engine: the engine must find the seeded wrong payouts and nothing else.
func TestGeneratedSessions(t *testing.T) {
	cat := diceCatalog(t)
	for _, c := range []struct {
		game string
		gen  func(testing.TB, int, uint64) ([]byte, int)
	}{{"craps", crapsJournal}, {"rampo", rampoJournal}} {
		for seed := uint64(1); seed <= 3; seed++ {
			data, seeded := c.gen(t, 20_000, seed)
			_, counts := replayAll(t, cat, data)
			if counts.ByKind[games.WrongPayout] != seeded || counts.Discrepancies != seeded {
				t.Errorf("%s seed %d: want only the %d seeded wrong payouts, got %v", c.game, seed, seeded, counts.ByKind)
			}
			if counts.Settlements == 0 || counts.Coups == 0 {
				t.Errorf("%s seed %d: nothing replayed: %v", c.game, seed, counts)
			}
		}
	}
}

// TestGolden replays short generated sessions and compares the whole replay output with the
// golden files (go test ./games/dice -run TestGolden -update rewrites them).
func TestGolden(t *testing.T) {
	cat := diceCatalog(t)
	for _, c := range []struct {
		name string
		gen  func(testing.TB, int, uint64) ([]byte, int)
	}{{"craps_session", crapsJournal}, {"rampo_session", rampoJournal}} {
		t.Run(c.name, func(t *testing.T) {
			data, _ := c.gen(t, 400, 42)
			got, _ := replayAll(t, cat, data)
			gamestest.Golden(t, filepath.Join("testdata", c.name+".golden.jsonl"), got, *update)
			gamestest.Golden(t, filepath.Join("testdata", c.name+".jsonl"), data, *update)
		})
	}
}

// BenchmarkReplayCraps replays a generated craps session of about 200,000 events end to end:
// parsing, the engine and the encoding of every record.
//
//	go test ./games/dice -run '^$' -bench Replay -benchmem -cpu 1
func BenchmarkReplayCraps(b *testing.B) { benchReplay(b, crapsJournal) }

// BenchmarkReplayRampo does the same for a rampo session.
func BenchmarkReplayRampo(b *testing.B) { benchReplay(b, rampoJournal) }

func benchReplay(b *testing.B, gen func(testing.TB, int, uint64) ([]byte, int)) {
	data, _ := gen(b, 200_000, 1)
	if counts := gamestest.BenchReplay(b, diceCatalog(b), data); counts.Coups == 0 {
		b.Fatal("nothing replayed")
	}
}
