package poker_test

import (
	"flag"
	"testing"

	"github.com/coupwatch/coupwatch/games"
	"github.com/coupwatch/coupwatch/games/gamestest"
	"github.com/coupwatch/coupwatch/games/poker"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func catalog(t testing.TB) *games.Catalog {
	t.Helper()
	return gamestest.Catalog(t, poker.Games()...)
}

// TestGolden replays each testdata/NAME.jsonl and compares the whole replay output, details
// and evidence included, with testdata/NAME.golden.jsonl (go test -update rewrites it).
func TestGolden(t *testing.T) {
	gamestest.GoldenJournals(t, catalog(t), ".golden.jsonl", *update)
}
