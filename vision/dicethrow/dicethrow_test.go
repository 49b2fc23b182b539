package dicethrow_test

import (
	"context"
	"image"
	"os"
	"path/filepath"
	"reflect"
	"runtime/pprof"
	"testing"
	"time"

	"github.com/coupwatch/coupwatch/vision/dicethrow"
	"github.com/coupwatch/coupwatch/vision/dicethrow/dicethrowtest"
	"github.com/coupwatch/coupwatch/vision/track"
)

// The clips are 960x540 at 25 fps; the far wall is the line x = 880, the tray the box
// [700,400]-[940,540] at the bottom right.
func config() dicethrow.Config {
	var c dicethrow.Config
	c.FarWall = track.Segment{A: track.Point{X: 880, Y: 0}, B: track.Point{X: 880, Y: 540}}
	c.Tray = []track.Polygon{{{X: 700, Y: 400}, {X: 940, Y: 400}, {X: 940, Y: 540}, {X: 700, Y: 540}}}
	return c
}

// matCount is the number of live gocv Mats (only with -tags matprofile).
func matCount() (int, bool) {
	p := pprof.Lookup("gocv.io/x/gocv.Mat")
	if p == nil {
		return 0, false
	}
	return p.Count(), true
}

func TestFollowVideo(t *testing.T) {
	p := dicethrowtest.LoadPatches(t)
	defer p.Close()
	dir := t.TempDir()
	pts := func(ps ...int) []image.Point {
		var out []image.Point
		for i := 0; i+1 < len(ps); i += 2 {
			out = append(out, image.Pt(ps[i], ps[i+1]))
		}
		return out
	}
	for _, tc := range []struct {
		name   string
		dice   []dicethrowtest.Die
		values []int
		faults []string
		rested time.Duration // at the latest (the clip's dice stop at 1.2 s)
	}{
		{"rolls to the wall", []dicethrowtest.Die{
			{Path: pts(80, 150, 870, 190, 790, 200), Rolls: true, Rest: 5},
			{Path: pts(80, 300, 640, 330), Rolls: true, Rest: 3},
		}, []int{3, 5}, []string{}, 1400 * time.Millisecond},
		{"short of the wall", []dicethrowtest.Die{
			{Path: pts(80, 150, 560, 200), Rolls: true, Rest: 6},
			{Path: pts(80, 300, 470, 320), Rolls: true, Rest: 2},
		}, []int{2, 6}, []string{"no_wall"}, 1400 * time.Millisecond},
		{"one slides", []dicethrowtest.Die{
			{Path: pts(80, 150, 870, 170, 800, 180), Rest: 4},
			{Path: pts(80, 300, 600, 320), Rolls: true, Rest: 2},
		}, []int{2, 4}, []string{"slid"}, 1400 * time.Millisecond},
		{"one in the tray", []dicethrowtest.Die{
			{Path: pts(80, 150, 870, 200, 780, 220), Rolls: true, Rest: 6},
			{Path: pts(80, 300, 800, 470), Rolls: true, Rest: 3},
		}, []int{6, 3}, []string{"in_tray"}, 1400 * time.Millisecond},
		{"one off the table", []dicethrowtest.Die{
			{Path: pts(80, 150, 870, 200, 700, 220), Rolls: true, Rest: 5},
			{Path: pts(80, 300, 600, 480, 640, 700), Rolls: true, Rest: 2},
			// The die that left is given up for lost 1 s after it was last seen.
		}, []int{5}, []string{"off_table"}, 2200 * time.Millisecond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clip := p.Make(t, dir, "clip", dicethrowtest.Clip{Move: 1200 * time.Millisecond, Still: 1800 * time.Millisecond, Dice: tc.dice})
			var got []track.Result
			before, counting := matCount()
			sum, err := dicethrow.Follow(context.Background(), clip, config(), func(r track.Result) error {
				got = append(got, r)
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if after, _ := matCount(); counting && after != before {
				t.Errorf("%d Mats leaked", after-before)
			}
			if len(got) != 1 || sum.Unfinished {
				t.Fatalf("%d throws (unfinished %v): %v, want one", len(got), sum.Unfinished, got)
			}
			r := got[0]
			if r.Faults == nil {
				r.Faults = []string{}
			}
			if !reflect.DeepEqual(r.Values, tc.values) || !reflect.DeepEqual(r.Faults, tc.faults) {
				t.Errorf("got %v, want dice %v faults %v", r, tc.values, tc.faults)
			}
			if r.Released != 0 || r.Rested < time.Second || r.Rested > tc.rested {
				t.Errorf("released %v rested %v, want 0 and 1s to %v", r.Released, r.Rested, tc.rested)
			}
		})
	}
}

func TestFollowUnreadable(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.mp4")
	if err := os.WriteFile(bad, []byte("not a video"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, url := range []string{bad, filepath.Join(dir, "missing.mp4"), "rtsp://127.0.0.1:1/live"} {
		_, err := dicethrow.Follow(context.Background(), url, config(), func(track.Result) error { return nil })
		if err == nil {
			t.Errorf("%s: no error", url)
		}
	}
}
