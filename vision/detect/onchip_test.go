package detect_test

import (
	"image"
	"image/color"
	"math"
	"path/filepath"
	"strconv"
	"testing"

	"gocv.io/x/gocv"

	"github.com/coupwatch/coupwatch/vision/dataset"
	"github.com/coupwatch/coupwatch/vision/detect"
	"github.com/coupwatch/coupwatch/vision/internal/sharedtest"
)

// dieFace is a real die cut from a photograph: its top face with a little wood at the
// corners, and the value it shows.
type dieFace struct {
	m     gocv.Mat
	value int
}

// dieFaces cuts n dice of the dice-matteop65 photographs, each a square 1.45 times its
// labelled box (about the die's side), that the recogniser reads right alone on felt.
func dieFaces(tb testing.TB, n int) []dieFace {
	tb.Helper()
	s, err := dataset.Load(filepath.Join(sharedtest.Dir(tb), "data"), "dice-matteop65")
	if err != nil {
		tb.Skipf("dice-matteop65: %v", err)
	}
	d := detect.NewDice()
	defer d.Close()
	var out []dieFace
	seen := map[int]bool{}
	for _, smp := range s.Samples {
		img := gocv.IMRead(smp.Path, gocv.IMReadColor)
		for _, tr := range smp.Truth {
			v, _ := strconv.Atoi(tr.Label)
			if len(out) == n || seen[v] && len(seen) < 6 {
				continue
			}
			cx, cy := tr.Box.Center()
			half := int(0.725 * math.Max(float64(tr.Box.W), float64(tr.Box.H)))
			r := image.Rect(int(cx)-half, int(cy)-half, int(cx)+half, int(cy)+half)
			if half < 20 || !r.In(image.Rect(0, 0, img.Cols(), img.Rows())) {
				continue
			}
			src := img.Region(r)
			m := src.Clone()
			src.Close()
			probe := felt()
			paste(&probe, m, image.Pt(400, 400))
			ds, err := d.Dice(probe)
			probe.Close()
			if err != nil || len(ds) != 1 || ds[0].Value != v || ds[0].Cocked || ds[0].OnChip {
				m.Close()
				continue
			}
			seen[v] = true
			out = append(out, dieFace{m, v})
		}
		img.Close()
	}
	if len(out) < n {
		closeFaces(out)
		tb.Skipf("only %d dice read right", len(out))
	}
	return out
}

func closeFaces(fs []dieFace) {
	for _, f := range fs {
		f.m.Close()
	}
}

// paste copies patch onto dst centred at c.
func paste(dst *gocv.Mat, patch gocv.Mat, c image.Point) {
	r := image.Rect(0, 0, patch.Cols(), patch.Rows()).Add(c.Sub(image.Pt(patch.Cols()/2, patch.Rows()/2)))
	roi := dst.Region(r)
	patch.CopyTo(&roi)
	roi.Close()
}

// drawChip draws a casino chip seen from above: a disc of the chip's colour with eight light
// spots on its edge and a light ring inside them.
func drawChip(dst *gocv.Mat, c image.Point, radius int, body color.RGBA) {
	gocv.Circle(dst, c, radius, body, -1)
	spot := color.RGBA{R: 235, G: 235, B: 230}
	for k := 0; k < 8; k++ {
		a := 2*math.Pi*float64(k)/8 + 0.2
		u := [2]float64{math.Cos(a), math.Sin(a)}
		v := [2]float64{-u[1], u[0]}
		at := func(r, s float64) image.Point {
			return image.Pt(c.X+int(r*u[0]+s*v[0]), c.Y+int(r*u[1]+s*v[1]))
		}
		R, w := float64(radius), 0.14*float64(radius)
		pv := gocv.NewPointsVectorFromPoints([][]image.Point{{at(R-1, -w), at(R-1, w), at(0.8*R, w), at(0.8*R, -w)}})
		gocv.FillPoly(dst, pv, spot)
		pv.Close()
	}
	gocv.Circle(dst, c, int(0.72*float64(radius)), spot, 2)
}

func TestOnChip(t *testing.T) {
	faces := dieFaces(t, 6)
	defer closeFaces(faces)
	d := detect.NewDice()
	defer d.Close()
	before, counting := matCount()
	defer func() {
		if after, _ := matCount(); counting && after != before {
			t.Errorf("%d Mats leaked", after-before)
		}
	}()
	red, blue, purple := color.RGBA{R: 190, G: 30, B: 35}, color.RGBA{R: 30, G: 50, B: 160}, color.RGBA{R: 110, G: 40, B: 130}
	for _, tc := range []struct {
		name   string
		chip   color.RGBA
		offset image.Point // of the chip's centre from the die's, in die sides / 10
		square bool        // a square of wood under the die instead of a chip
		want   bool
	}{
		{"red chip", red, image.Point{}, false, true},
		{"blue chip", blue, image.Point{}, false, true},
		{"purple chip", purple, image.Point{}, false, true},
		{"off the chip's centre", red, image.Pt(3, -2), false, true},
		{"beside a chip", blue, image.Pt(20, 5), false, false},
		{"plain felt", color.RGBA{}, image.Point{}, false, false},
		{"square of wood", color.RGBA{}, image.Point{}, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, f := range faces {
				frame := felt()
				side := f.m.Cols()
				at := image.Pt(900, 500)
				switch {
				case tc.square:
					wood := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(170, 200, 215, 0), 2*side, 2*side, gocv.MatTypeCV8UC3)
					paste(&frame, wood, at)
					wood.Close()
				case tc.chip != (color.RGBA{}):
					drawChip(&frame, at.Add(tc.offset.Mul(side).Div(10)), int(1.1*float64(side)), tc.chip)
				}
				paste(&frame, f.m, at)
				ds, err := d.Dice(frame)
				frame.Close()
				if err != nil {
					t.Fatal(err)
				}
				// The die pasted, and anything else read (a chip's inlay may pass for a one).
				var die *detect.Die
				for i := range ds {
					if at.In(ds[i].Box.Inset(-4)) {
						die = &ds[i]
					}
					if ds[i].OnChip && !tc.want {
						t.Errorf("die %d: %+v flagged on_chip", f.value, ds[i])
					}
				}
				if tc.want && (die == nil || die.Value != f.value || !die.OnChip) {
					t.Errorf("die %d on the chip: read %+v", f.value, ds)
				}
			}
		})
	}
}

// No die of the labelled photographs (dice on wood, no chips) is flagged on_chip.
func TestNoChipInPhotographs(t *testing.T) {
	s, err := dataset.Load(filepath.Join(sharedtest.Dir(t), "data"), "dice-matteop65")
	if err != nil {
		t.Skipf("dice-matteop65: %v", err)
	}
	d := detect.NewDice()
	defer d.Close()
	n := 0
	for _, smp := range s.Samples {
		img := gocv.IMRead(smp.Path, gocv.IMReadColor)
		ds, err := d.Dice(img)
		img.Close()
		if err != nil {
			t.Fatal(err)
		}
		for _, die := range ds {
			n++
			if die.OnChip {
				t.Errorf("%s: die %d at %v flagged on_chip", filepath.Base(smp.Path), die.Value, die.Box)
			}
		}
	}
	if n < 50 {
		t.Errorf("only %d dice read", n)
	}
}
