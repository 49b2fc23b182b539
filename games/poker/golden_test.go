package poker_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/coupwatch/coupwatch/games"
	"github.com/coupwatch/coupwatch/games/poker"
	"github.com/coupwatch/coupwatch/games/replay"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func catalog(t testing.TB) *games.Catalog {
	t.Helper()
	cat, err := games.NewCatalog(poker.Games()...)
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

// TestGolden replays each testdata/NAME.jsonl and compares the whole replay output, details
// and evidence included, with testdata/NAME.golden.jsonl (go test -update rewrites it).
func TestGolden(t *testing.T) {
	journals, err := filepath.Glob(filepath.Join("testdata", "*.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	cat := catalog(t)
	n := 0
	for _, j := range journals {
		if strings.HasSuffix(j, ".golden.jsonl") {
			continue
		}
		n++
		golden := strings.TrimSuffix(j, ".jsonl") + ".golden.jsonl"
		t.Run(filepath.Base(j), func(t *testing.T) {
			data, err := os.ReadFile(j)
			if err != nil {
				t.Fatal(err)
			}
			var got []byte
			err = replay.Run(cat, []replay.Source{{Name: j, R: bytes.NewReader(data)}}, replay.Options{}, func(r games.Record) {
				got = append(r.AppendJSON(got), '\n')
			})
			if err != nil {
				t.Fatal(err)
			}
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
				for i := 0; i < len(gl) || i < len(wl); i++ {
					var g, w string
					if i < len(gl) {
						g = gl[i]
					}
					if i < len(wl) {
						w = wl[i]
					}
					if g != w {
						t.Fatalf("%s line %d differs:\n got  %s\n want %s", golden, i+1, g, w)
					}
				}
			}
		})
	}
	if n == 0 {
		t.Fatal("no journals in testdata")
	}
}
