package detect

import (
	"image"
	"os"
	"testing"

	"github.com/coupwatch/coupwatch/vision/dataset"
	"gocv.io/x/gocv"
)

func TestDebugOrient(t *testing.T) {
	name := os.Getenv("DBG_SET")
	if name == "" {
		t.Skip()
	}
	set, _ := dataset.Load("/work/shared/data", name)
	f := NewQuadFinder()
	defer f.Close()
	for _, smp := range set.Samples {
		img := gocv.IMRead(smp.Path, gocv.IMReadColor)
		qs, _ := f.FindCardQuads(img)
		for _, tr := range smp.Truth {
			b := image.Rect(tr.Box.X, tr.Box.Y, tr.Box.X+tr.Box.W, tr.Box.Y+tr.Box.H)
			bi, bv := -1, 0.6
			for i, q := range qs {
				if v := rectIoU(b, q.Bounds); v > bv {
					bi, bv = i, v
				}
			}
			if bi < 0 {
				t.Logf("%s %s: no quad", smp.Path[len(smp.Path)-20:], tr.Label)
				continue
			}
			gs := GlyphSamples(img, qs[bi], [4]gocv.Point2f{}, 0)
			s := ""
			for _, g := range gs {
				o := 0
				if g.Rot90 {
					o = 1
				}
				s += string(rune('0'+o)) + string(rune('0'+g.Corner)) + " "
				if g.Red > 0.1 {
					s += "r "
				} else {
					s += "k "
				}
			}
			t.Logf("%s %s: %s", smp.Path[len(smp.Path)-20:], tr.Label, s)
		}
		img.Close()
	}
}
