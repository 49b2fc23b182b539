package detect

import (
	"fmt"
	"image/color"
	"os"
	"path/filepath"
	"testing"

	"gocv.io/x/gocv"
)

func TestDebugCandidates(t *testing.T) {
	dir := os.Getenv("DBG_DIR")
	if dir == "" {
		t.Skip()
	}
	files, _ := filepath.Glob(dir + "/*.[jJ][pP]*[gG]")
	s := newSegmenter()
	defer s.Close()
	os.MkdirAll("/tmp/look/cand", 0o755)
	for _, f := range files {
		img := gocv.IMRead(f, gocv.IMReadColor)
		cs := s.candidates(img)
		cs = dedupe(cs, 0.8)
		cols := []color.RGBA{{0, 0, 255, 0}, {0, 255, 0, 0}, {255, 0, 0, 0}, {255, 0, 255, 0}}
		for _, c := range cs {
			var ps []pt
			ps = append(ps, c.q[:]...)
			for i := 0; i < 4; i++ {
				gocv.Line(&img, ps[i].img(), ps[(i+1)%4].img(), cols[c.source], 2)
			}
		}
		gocv.IMWrite(fmt.Sprintf("/tmp/look/cand/%s.png", filepath.Base(f)), img)
		img.Close()
	}
}

func TestDebugWarps(t *testing.T) {
	dir := os.Getenv("DBG_DIR")
	if dir == "" {
		t.Skip()
	}
	files, _ := filepath.Glob(dir + "/*.[jJ][pP]*[gG]")
	s := newSegmenter()
	defer s.Close()
	os.MkdirAll("/tmp/look/warp", 0o755)
	n := 0
	for _, f := range files {
		img := gocv.IMRead(f, gocv.IMReadColor)
		cs := dedupe(s.candidates(img), 0.8)
		for _, c := range cs {
			w := warpCard(img, c.q, false)
			gocv.IMWrite(fmt.Sprintf("/tmp/look/warp/%04d.png", n), w)
			n++
			w.Close()
		}
		img.Close()
	}
}
