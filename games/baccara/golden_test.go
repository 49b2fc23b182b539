package baccara_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/coupwatch/coupwatch/games"
	"github.com/coupwatch/coupwatch/games/baccara"
	"github.com/coupwatch/coupwatch/games/replay"
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
	cat, err := games.NewCatalog(baccara.Games()...)
	if err != nil {
		t.Fatal(err)
	}
	srcs := goldenSources(t)
	if len(srcs) == 0 {
		t.Fatal("no scenario journals found")
	}
	for name, src := range srcs {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(src)
			if err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			err = replay.Run(cat, []replay.Source{{Name: filepath.Base(src), R: bytes.NewReader(data)}}, replay.Options{}, func(r games.Record) {
				got.Write(r.AppendJSON(nil))
				got.WriteByte('\n')
			})
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", "golden", name)
			if *update {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, got.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				if os.IsNotExist(err) && strings.HasPrefix(name, "public") {
					t.Skip("no golden output for this public scenario (run with -update)")
				}
				t.Fatalf("%v (run go test ./games/baccara -run TestGolden -update)", err)
			}
			if !bytes.Equal(got.Bytes(), want) {
				gl, wl := strings.Split(got.String(), "\n"), strings.Split(string(want), "\n")
				for i := 0; i < len(gl) || i < len(wl); i++ {
					var g, w string
					if i < len(gl) {
						g = gl[i]
					}
					if i < len(wl) {
						w = wl[i]
					}
					if g != w {
						t.Fatalf("output differs from %s at line %d:\n got %s\nwant %s", path, i+1, g, w)
					}
				}
			}
		})
	}
}
