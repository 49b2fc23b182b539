//go:build cgo

package main

import (
	"bytes"
	"image"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coupwatch/coupwatch/vision/dicethrow/dicethrowtest"
)

// Bad flag values and unreadable clips exit 2 with a clear message, and print nothing.
func TestDetectVideoErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.mp4")
	if err := os.WriteFile(bad, []byte("not a video"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		err  string
	}{
		{[]string{"--video", bad}, "bad.mp4: not a video FFmpeg can read"},
		{[]string{"--video", filepath.Join(dir, "missing.mp4")}, "missing.mp4"},
		{[]string{"--video", bad, "--far-wall", "1,2,3"}, "want X1,Y1,X2,Y2"},
		{[]string{"--video", bad, "--far-wall", "5,5,5,5"}, "same point"},
		{[]string{"--video", bad, "--tray", "1,2,-3,4"}, "must be positive"},
		{[]string{"--video", bad, "--rack", "a,b,c,d"}, "want X,Y,W,H"},
		{[]string{"--video", bad, "--dice", "0"}, "--dice must be 1 to 5"},
		{[]string{"--video", bad, "--wall-reach", "-4"}, "--wall-reach must be"},
		{[]string{"--video", bad, "--table", "0,0,9,9", "--table", "0,0,8,8"}, "--table given twice"},
		{[]string{"--video", bad, "img.jpg"}, "--video takes no image"},
		{[]string{"--video", bad, "--annotate", dir}, "--annotate does not apply"},
		{[]string{"--tray", "1,2,3,4", "img.jpg"}, "need --video"},
	} {
		e, out, errb := testEnv("")
		args := append([]string{"detect", "--kind", "dice"}, tc.args...)
		if code := run(args, e); code != exitInvalid {
			t.Errorf("%v: exit %d, want %d", tc.args, code, exitInvalid)
		}
		if !strings.Contains(errb.String(), tc.err) {
			t.Errorf("%v: stderr %q, want %q", tc.args, errb, tc.err)
		}
		if out.Len() != 0 {
			t.Errorf("%v: stdout %q", tc.args, out)
		}
	}
	e, _, errb := testEnv("")
	if code := run([]string{"detect", "--kind", "cards", "--video", bad}, e); code != exitInvalid || !strings.Contains(errb.String(), "--video needs --kind dice") {
		t.Errorf("--kind cards --video: exit %d, stderr %q", code, errb)
	}
}

// Two throws filmed from real dice, against a golden file (go test -update rewrites it): one
// that rolls to the far wall and one that ends with a die in the tray.
func TestDetectVideoGolden(t *testing.T) {
	p := dicethrowtest.LoadPatches(t)
	defer p.Close()
	var err error
	if pkgDir, err = os.Getwd(); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := func(ps ...int) []image.Point {
		var out []image.Point
		for i := 0; i+1 < len(ps); i += 2 {
			out = append(out, image.Pt(ps[i], ps[i+1]))
		}
		return out
	}
	clip := dicethrowtest.Clip{Move: 1200 * time.Millisecond, Still: time.Second}
	clip.Dice = []dicethrowtest.Die{
		{Path: path(80, 150, 870, 190, 790, 200), Rolls: true, Rest: 5},
		{Path: path(80, 300, 640, 330), Rolls: true, Rest: 3},
	}
	p.Make(t, dir, "wall", clip)
	clip.Dice = []dicethrowtest.Die{
		{Path: path(80, 150, 870, 200, 780, 220), Rolls: true, Rest: 6},
		{Path: path(80, 300, 800, 470), Rolls: true, Rest: 3},
	}
	p.Make(t, dir, "tray", clip)
	t.Chdir(dir) // the clip's name is printed as given: keep it relative
	var out bytes.Buffer
	for _, name := range []string{"wall.mp4", "tray.mp4"} {
		before, counting := liveMats()
		e, o, errb := testEnv("")
		code := run([]string{"detect", "--kind", "dice", "--video", name, "--far-wall", "880,0,880,540", "--tray", "700,400,240,140"}, e)
		if code != exitOK || errb.Len() != 0 {
			t.Fatalf("%s: exit %d: %s", name, code, errb)
		}
		if after, _ := liveMats(); counting && after != before {
			t.Errorf("%s: %d Mats leaked", name, after-before)
		}
		out.Write(o.Bytes())
	}
	checkGolden(t, goldenPath(t, "detect.dice-video.golden"), out.Bytes())
}
