package detect

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"os"
	"testing"

	"github.com/coupwatch/coupwatch/vision/dataset"
	"gocv.io/x/gocv"
)

func TestDebugCorners(t *testing.T) {
	name := os.Getenv("DBG_SET")
	if name == "" {
		t.Skip()
	}
	set, err := dataset.Load("/work/shared/data", name)
	if err != nil {
		t.Fatal(err)
	}
	s := newSegmenter()
	defer s.Close()
	os.MkdirAll("/tmp/look/corner", 0o755)
	n := 0
	var im rgbImage
	var p cornerPatch
	labels := make([]int32, 200*200)
	for _, smp := range set.Samples {
		img := gocv.IMRead(smp.Path, gocv.IMReadColor)
		cs := dedupe(s.candidates(img), 0.8)
		for _, c := range cs {
			lab := ""
			for _, tr := range smp.Truth {
				b := image.Rect(tr.Box.X, tr.Box.Y, tr.Box.X+tr.Box.W, tr.Box.Y+tr.Box.H)
				if rectIoU(b, c.bounds) > 0.6 {
					lab = tr.Label
				}
			}
			if lab == "" {
				continue
			}
			w := warpCard(img, c.q, false)
			toRGBImage(w, &im)
			// big canvas: 4 patches side by side, scaled x3
			pw, ph := int(math.Round(cornerFracW*canonW)), int(math.Round(cornerFracH*canonH))
			canvas := gocv.NewMatWithSize(ph*3, pw*3*4+30, gocv.MatTypeCV8UC3)
			cb, _ := canvas.DataPtrUint8()
			cw := pw*3*4 + 30
			for k := 0; k < 4; k++ {
				extractCorner(&im, k, &p)
				thr := inkThreshold(p.ink)
				bs := p.blobs(thr, labels)
				r, su, ok := indexGlyphs(&p, bs, canonW, canonH)
				if n < 3 {
					t.Logf("card %d corner %d thr %.2f blobs %d: %v ok=%v r=%v s=%v", n, k, thr, len(bs), bs, ok, r, su)
				}
				for y := 0; y < p.h; y++ {
					for x := 0; x < p.w; x++ {
						cx, cy := cornerXY(&im, k, x, y)
						bb, gg, rr := im.at(cx, cy)
						for dy := 0; dy < 3; dy++ {
							for dx := 0; dx < 3; dx++ {
								o := 3 * ((y*3+dy)*cw + (k*pw+x)*3 + dx + k*10)
								cb[o], cb[o+1], cb[o+2] = bb, gg, rr
							}
						}
					}
				}
				off := image.Pt(k*pw*3+k*10, 0)
				if ok {
					gocv.Rectangle(&canvas, image.Rect(r.Min.X*3, r.Min.Y*3, r.Max.X*3, r.Max.Y*3).Add(off), color.RGBA{0, 200, 0, 0}, 1)
					gocv.Rectangle(&canvas, image.Rect(su.Min.X*3, su.Min.Y*3, su.Max.X*3, su.Max.Y*3).Add(off), color.RGBA{255, 0, 0, 0}, 1)
				}
			}
			gocv.PutText(&canvas, lab, image.Pt(5, ph*3-5), gocv.FontHersheyPlain, 1.5, color.RGBA{255, 0, 255, 0}, 2)
			gocv.IMWrite(fmt.Sprintf("/tmp/look/corner/%s_%04d.png", name, n), canvas)
			canvas.Close()
			n++
			w.Close()
		}
		img.Close()
	}
}
