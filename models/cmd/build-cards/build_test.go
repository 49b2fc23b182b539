//go:build cgo

package main

import (
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// The synthetic cards are drawn from the seeded generator only (no OpenCV random state, no
// uninitialised buffers): the same seed gives the same training samples, so `make models`
// rebuilds the shipped models bit for bit.
func TestSyntheticCardsDeterministic(t *testing.T) {
	faces, err := loadGlyphs(filepath.Join("..", "..", "fonts", "glyphs.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(faces) < 4 {
		t.Fatalf("glyphs.json holds %d faces, want the 8 upright DejaVu faces", len(faces))
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	draw := func() ([]sample, []sample) {
		return synthCardSamples(faces, 1, "", rand.New(rand.NewPCG(3, 7)), log)
	}
	r1, s1 := draw()
	r2, s2 := draw()
	if len(r1) == 0 || len(s1) == 0 {
		t.Fatalf("one deck gave %d rank and %d suit samples", len(r1), len(s1))
	}
	if !reflect.DeepEqual(r1, r2) || !reflect.DeepEqual(s1, s2) {
		t.Fatal("two builds with the same seed drew different samples")
	}
	ranks := map[int]bool{}
	for _, s := range r1 {
		ranks[s.y] = true
	}
	// Cuts that miss the index are dropped, but most ranks of a deck must come through.
	if len(ranks) < len(rankClasses)/2 {
		t.Fatalf("one synthetic deck taught only %d rank classes", len(ranks))
	}
}

// The TrueType reader extracts every wanted glyph of the DejaVu faces installed and
// reproduces the shipped extract of those faces exactly (skipped where none is installed; a
// machine may have fonts-dejavu-core without fonts-dejavu-extra).
func TestExtractGlyphsReproducible(t *testing.T) {
	dir := "/usr/share/fonts/truetype/dejavu"
	if _, err := os.Stat(filepath.Join(dir, "DejaVuSans.ttf")); err != nil {
		t.Skip("DejaVu fonts not installed")
	}
	out := filepath.Join(t.TempDir(), "glyphs.json")
	if err := extractGlyphs(dir, out); err != nil {
		t.Fatal(err)
	}
	got, err := loadGlyphs(out)
	if err != nil {
		t.Fatal(err)
	}
	shipped, err := loadGlyphs(filepath.Join("..", "..", "fonts", "glyphs.json"))
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]fontFace{}
	for _, f := range shipped {
		byName[f.Name] = f
	}
	if len(got) == 0 {
		t.Fatal("no face extracted")
	}
	for _, f := range got {
		want, ok := byName[f.Name]
		if !ok {
			t.Errorf("%s: extracted but not in models/fonts/glyphs.json", f.Name)
			continue
		}
		if !reflect.DeepEqual(f, want) {
			t.Errorf("%s: extracting the installed font does not reproduce models/fonts/glyphs.json", f.Name)
		}
		for _, c := range glyphChars[:13] {
			if len(f.Glyphs[string(c)]) == 0 {
				t.Errorf("%s: no outline for %q", f.Name, c)
			}
		}
	}
}

func TestParseTTFRejectsGarbage(t *testing.T) {
	for _, b := range [][]byte{nil, []byte("not a font at all"), make([]byte, 64)} {
		if _, err := parseTTF(b); err == nil {
			t.Errorf("parseTTF(%q) accepted garbage", b)
		}
	}
}

// FuzzParseTTF: a damaged font file is an error, never a panic or a runaway loop.
func FuzzParseTTF(f *testing.F) {
	if b, err := os.ReadFile("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"); err == nil {
		f.Add(b[:min(len(b), 4096)])
	}
	f.Add([]byte("\x00\x01\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00glyf\x00\x00\x00\x00\x00\x00\x00\x1c\x00\x00\x00\x04\x00\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		tt, err := parseTTF(b)
		if err != nil {
			return
		}
		for _, c := range glyphChars {
			if gid := tt.glyphIndex(c); gid > 0 {
				_, _ = tt.outline(gid, 0)
			}
		}
	})
}
