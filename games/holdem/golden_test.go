package holdem_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/coupwatch/coupwatch/games"
	"github.com/coupwatch/coupwatch/games/replay"
)

var update = flag.Bool("update", false, "rewrite the golden replay outputs in testdata")

// TestGolden replays each testdata/*.jsonl journal and compares the whole output (settlements,
// discrepancies with their details and evidence, coup summaries) with testdata/*.golden.
func TestGolden(t *testing.T) {
	journals, err := filepath.Glob(filepath.Join("testdata", "*.jsonl"))
	if err != nil || len(journals) == 0 {
		t.Fatalf("no journals in testdata: %v", err)
	}
	for _, j := range journals {
		t.Run(filepath.Base(j), func(t *testing.T) {
			src, err := os.ReadFile(j)
			if err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			err = replay.Run(catalog(t), []replay.Source{{Name: j, R: bytes.NewReader(src)}}, replay.Options{}, func(r games.Record) {
				got.Write(r.AppendJSON(nil))
				got.WriteByte('\n')
			})
			if err != nil {
				t.Fatal(err)
			}
			golden := strings.TrimSuffix(j, ".jsonl") + ".golden"
			if *update {
				if err := os.WriteFile(golden, got.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
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
						t.Fatalf("%s line %d differs:\n got  %s\n want %s", golden, i+1, g, w)
					}
				}
			}
		})
	}
}
