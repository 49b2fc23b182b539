//go:build cgo

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strings"
	"testing"
)

// liveMats is the number of live gocv Mats (only with -tags matprofile).
func liveMats() (int, bool) {
	p := pprof.Lookup("gocv.io/x/gocv.Mat")
	if p == nil {
		return 0, false
	}
	return p.Count(), true
}

func sharedData(t *testing.T) string {
	t.Helper()
	d := os.Getenv("COUPWATCH_SHARED")
	if d == "" {
		d = filepath.Join("..", "..", "..", "shared")
	}
	d, err := filepath.Abs(filepath.Join(d, "data"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(d); err != nil {
		t.Skipf("no shared data at %s (set COUPWATCH_SHARED): skipping detect on real photographs", d)
	}
	return d
}

func TestDetectUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		err  string
	}{
		{[]string{"detect"}, exitInvalid, "no image given"},
		{[]string{"detect", "x.jpg"}, exitInvalid, "--kind is required"},
		{[]string{"detect", "--kind", "chips", "x.jpg"}, exitInvalid, "--kind must be cards or dice"},
		{[]string{"detect", "--bogus"}, exitInvalid, "flag provided but not defined"},
		{[]string{"detect", "-h"}, exitOK, "usage: coupwatch detect"},
	} {
		e, out, errb := testEnv("")
		if code := run(tc.args, e); code != tc.code {
			t.Errorf("%v: exit %d, want %d", tc.args, code, tc.code)
		}
		if !strings.Contains(errb.String(), tc.err) {
			t.Errorf("%v: stderr %q, want %q", tc.args, errb, tc.err)
		}
		if out.Len() != 0 {
			t.Errorf("%v: stdout %q", tc.args, out)
		}
	}
}

// A corrupt image is named on stderr and skipped; the good ones are still read; exit 2.
func TestDetectCorruptAndEmptyImages(t *testing.T) {
	data := sharedData(t)
	dir := t.TempDir()
	corrupt := filepath.Join(dir, "corrupt.jpg")
	good, err := os.ReadFile(filepath.Join(data, "dice-matteop65", "dev", "four_24.jpg"))
	if err != nil {
		t.Skip(err)
	}
	if err := os.WriteFile(corrupt, good[:200], 0o644); err != nil { // a truncated JPEG
		t.Fatal(err)
	}
	empty := filepath.Join(dir, "empty.png")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	img := filepath.Join(data, "dice-matteop65", "dev", "four_24.jpg")
	before, counting := liveMats()
	e, out, errb := testEnv("")
	code := run([]string{"detect", "--kind", "dice", corrupt, img, empty, filepath.Join(dir, "missing.jpg")}, e)
	if after, _ := liveMats(); counting && after != before {
		t.Errorf("%d Mats leaked", after-before)
	}
	if code != exitInvalid {
		t.Errorf("exit %d, want %d", code, exitInvalid)
	}
	for _, name := range []string{"corrupt.jpg", "empty.png", "missing.jpg"} {
		if !strings.Contains(errb.String(), name) {
			t.Errorf("stderr does not name %s: %s", name, errb)
		}
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 1 {
		t.Fatalf("stdout %q, want one line for the good image", out)
	}
	var got detectLine
	if err := json.Unmarshal([]byte(lines[0]), &got); err != nil {
		t.Fatal(err)
	}
	if got.Image != img || len(got.Objects) != 3 {
		t.Errorf("got %+v, want the three fours of %s", got, img)
	}
	for _, o := range got.Objects {
		if o.Label != "4" || o.Conf <= 0 || o.Conf > 1 || o.Box.W <= 0 {
			t.Errorf("object %+v", o)
		}
	}
}

// The output for a few labelled photographs, against golden files (go test -update rewrites
// them), and the annotated pictures.
func TestDetectGolden(t *testing.T) {
	data := sharedData(t)
	var err error
	if pkgDir, err = os.Getwd(); err != nil {
		t.Fatal(err)
	}
	t.Chdir(data) // image paths in the output are as given: keep them relative
	for _, tc := range []struct {
		kind   string
		images []string
	}{
		{"cards", []string{
			"cards-edje-tf/dev/cam_image35.jpg",
			"cards-edje-tf/dev/IMG_2603.JPG",
			"blackjack-v13/dev/images/IMG_3290_jpeg.rf.8244c9e41737410ce7f53800561e9375.jpg",
			"blackjack-v13/dev/images/20231029_220247_jpg.rf.e3d61db0599c59b821c0b1c36dfa0ada.jpg",
		}},
		{"dice", []string{"dice-matteop65/dev/six_50.jpg", "dice-matteop65/dev/valid_42.jpg", "dice-matteop65/dev/two_40.jpg"}},
	} {
		t.Run(tc.kind, func(t *testing.T) {
			ann := t.TempDir()
			before, counting := liveMats()
			e, out, errb := testEnv("")
			args := append([]string{"detect", "--kind", tc.kind, "--annotate", ann}, tc.images...)
			if code := run(args, e); code != exitOK {
				t.Fatalf("exit %d: %s", code, errb)
			}
			if after, _ := liveMats(); counting && after != before {
				t.Errorf("%d Mats leaked", after-before)
			}
			checkGolden(t, goldenPath(t, "detect."+tc.kind+".golden"), out.Bytes())
			for _, img := range tc.images {
				base := strings.TrimSuffix(filepath.Base(img), filepath.Ext(img))
				if st, err := os.Stat(filepath.Join(ann, base+".png")); err != nil || st.Size() == 0 {
					t.Errorf("no annotated picture for %s: %v", img, err)
				}
			}
		})
	}
}

// pkgDir is this package's folder, taken before a test changes directory.
var pkgDir string

// goldenPath is testdata/name in this package's folder, whatever the working directory.
// checkGolden compares got with the golden file (go test -update rewrites it).
func checkGolden(t *testing.T, golden string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("output differs from %s:\n%s", golden, got)
	}
}

func goldenPath(t *testing.T, name string) string {
	t.Helper()
	return filepath.Join(pkgDir, "testdata", name)
}
