package baccara_test

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/coupwatch/coupwatch/games/baccara"
	"github.com/coupwatch/coupwatch/games/gamestest"
)

var update = flag.Bool("update", false, "rewrite the golden replay outputs under testdata/golden")

// goldenSources are the journals whose full replay output is pinned: the project's own
// baccara scenarios and, when the shared folder is there, the public ones.
func goldenSources(t *testing.T) map[string]string {
	t.Helper()
	roots := []string{filepath.Join("..", "catalog", "testdata", "scenarios")}
	shared := os.Getenv("COUPWATCH_SHARED")
	if shared == "" {
		shared = filepath.Join("..", "..", "..", "shared")
	}
	roots = append(roots, filepath.Join(shared, "scenarios"))
	out := map[string]string{}
	for i, root := range roots {
		for _, game := range gameIDs {
			files, _ := filepath.Glob(filepath.Join(root, game, "*.jsonl"))
			for _, f := range files {
				if strings.HasSuffix(f, ".expected.jsonl") {
					continue
				}
				prefix := "own"
				if i == 1 {
					prefix = "public"
				}
				name := filepath.Join(prefix, game, strings.TrimSuffix(filepath.Base(f), ".jsonl")+".golden.jsonl")
				out[name] = f
			}
		}
	}
	return out
}

// TestGolden replays each scenario journal and compares the whole replay output (details,
// evidence, coup summaries) with testdata/golden; -update rewrites it.
func TestGolden(t *testing.T) {
	cat := gamestest.Catalog(t, baccara.Games()...)
	srcs := goldenSources(t)
	if len(srcs) == 0 {
		t.Fatal("no scenario journals found")
	}
	for name, src := range srcs {
		t.Run(name, func(t *testing.T) {
			got := gamestest.ReplayFile(t, cat, src)
			path := filepath.Join("testdata", "golden", name)
			if _, err := os.Stat(path); !*update && os.IsNotExist(err) && strings.HasPrefix(name, "public") {
				t.Skip("no golden output for this public scenario (run with -update)")
			}
			gamestest.Golden(t, path, got.JSONL, *update)
		})
	}
}
