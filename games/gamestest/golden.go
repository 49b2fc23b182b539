package gamestest

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/coupwatch/coupwatch/games"
)

// Golden compares got with the golden file at path and reports the first line that differs.
// With update it first rewrites the file (creating its folder).
func Golden(t testing.TB, path string, got []byte, update bool) {
	t.Helper()
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the test with -update to create it)", err)
	}
	if bytes.Equal(got, want) {
		return
	}
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
			t.Errorf("%s line %d differs (check the change, then run the test with -update):\n got  %s\n want %s", path, i+1, g, w)
			return
		}
	}
}

// GoldenJournals replays every testdata/*.jsonl journal through cat, each in a subtest named
// after its file, and compares the whole replay output (settlements, findings with their
// details and evidence, coup summaries) with the golden file beside it: the journal's path
// with .jsonl replaced by ext (".golden", ".golden.jsonl"). Files ending in ext are golden
// files, not journals. With update it rewrites the golden files.
func GoldenJournals(t *testing.T, cat *games.Catalog, ext string, update bool) {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata", "*.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, path := range paths {
		if strings.HasSuffix(path, ext) {
			continue
		}
		n++
		t.Run(filepath.Base(path), func(t *testing.T) {
			golden := strings.TrimSuffix(path, ".jsonl") + ext
			Golden(t, golden, ReplayFile(t, cat, path).JSONL, update)
		})
	}
	if n == 0 {
		t.Fatal("no journals under testdata")
	}
}
