package blackjack_test

import (
	"flag"
	"testing"

	"github.com/coupwatch/coupwatch/games/gamestest"
)

var update = flag.Bool("update", false, "rewrite the golden replay outputs under testdata/")

// TestGolden replays every testdata/*.jsonl journal and compares the whole replay output
// (settlements, findings with their details and evidence, coup summaries) with the .golden
// file beside it; -update rewrites the golden files.
func TestGolden(t *testing.T) {
	gamestest.GoldenJournals(t, catalog(t), ".golden", *update)
}
