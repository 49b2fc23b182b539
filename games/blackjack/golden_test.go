package blackjack_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/coupwatch/coupwatch/games"
	"github.com/coupwatch/coupwatch/games/blackjack"
	"github.com/coupwatch/coupwatch/games/replay"
)

var update = flag.Bool("update", false, "rewrite the golden replay outputs under testdata/")

// TestGolden replays every testdata/*.jsonl journal and compares the whole replay output
// (settlements, findings with their details and evidence, coup summaries) with the .golden
// file beside it; -update rewrites the golden files.
func TestGolden(t *testing.T) {
	journals, err := filepath.Glob(filepath.Join("testdata", "*.jsonl"))
	if err != nil || len(journals) == 0 {
		t.Fatalf("no journals under testdata: %v", err)
	}
	cat, err := games.NewCatalog(blackjack.Games()...)
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range journals {
		t.Run(filepath.Base(path), func(t *testing.T) {
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			var got bytes.Buffer
			err = replay.Run(cat, []replay.Source{{Name: path, R: f}}, replay.Options{}, func(r games.Record) {
				got.Write(r.AppendJSON(nil))
				got.WriteByte('\n')
			})
			if err != nil {
				t.Fatal(err)
			}
			golden := strings.TrimSuffix(path, ".jsonl") + ".golden"
			if *update {
				if err := os.WriteFile(golden, got.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./games/blackjack -run TestGolden -update)", err)
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
						t.Fatalf("%s differs from the replay at line %d:\n got  %s\n want %s", golden, i+1, g, w)
					}
				}
			}
		})
	}
}
