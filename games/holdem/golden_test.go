package holdem_test

import (
	"flag"
	"testing"

	"github.com/coupwatch/coupwatch/games/gamestest"
)

var update = flag.Bool("update", false, "rewrite the golden replay outputs in testdata")

// TestGolden replays each testdata/*.jsonl journal and compares the whole output (settlements,
// discrepancies with their details and evidence, coup summaries) with testdata/*.golden.
func TestGolden(t *testing.T) {
	gamestest.GoldenJournals(t, catalog(t), ".golden", *update)
}
