package main

import (
	"testing"

	"gocv.io/x/gocv"

	"github.com/coupwatch/coupwatch/vision/dataset"
	"github.com/coupwatch/coupwatch/vision/observation"
)

// scaled resizes the photograph and its labels alike, and leaves the sample it was given
// as it was.
func TestScaled(t *testing.T) {
	for _, tc := range []struct {
		f       float64
		w, h    int
		box     observation.Box
		wantW   int
		wantH   int
		wantBox observation.Box
	}{
		{2, 640, 480, observation.Box{X: 10, Y: 20, W: 30, H: 40}, 1280, 960, observation.Box{X: 20, Y: 40, W: 60, H: 80}},
		{0.5, 378, 504, observation.Box{X: 11, Y: 21, W: 31, H: 41}, 189, 252, observation.Box{X: 6, Y: 11, W: 15, H: 20}},
	} {
		img := gocv.NewMatWithSize(tc.h, tc.w, gocv.MatTypeCV8UC3)
		orig := dataset.Sample{Width: tc.w, Height: tc.h, Truth: []dataset.Truth{{Label: "QH", Box: tc.box}}}
		out, smp := scaled(img, orig, tc.f)
		if out.Cols() != tc.wantW || out.Rows() != tc.wantH {
			t.Errorf("×%g: image %dx%d, want %dx%d", tc.f, out.Cols(), out.Rows(), tc.wantW, tc.wantH)
		}
		out.Close()
		if smp.Width != tc.wantW || smp.Height != tc.wantH {
			t.Errorf("×%g: sample %dx%d, want %dx%d", tc.f, smp.Width, smp.Height, tc.wantW, tc.wantH)
		}
		if smp.Truth[0].Box != tc.wantBox {
			t.Errorf("×%g: box %+v, want %+v", tc.f, smp.Truth[0].Box, tc.wantBox)
		}
		if orig.Truth[0].Box != tc.box {
			t.Errorf("×%g: the original sample's box changed to %+v", tc.f, orig.Truth[0].Box)
		}
	}
	for _, tc := range []struct {
		v    view
		want string
	}{
		{view{scale: 1}, ""},
		{view{scale: 1.5}, " ×1.5"},
		{view{scale: 1, turn: 1}, " turned 90°"},
		{view{scale: 2, turn: 3}, " ×2 turned 270°"},
		{view{scale: 1, turn: 1, mirror: true}, " mirrored turned 90°"},
	} {
		if got := tc.v.suffix(); got != tc.want {
			t.Errorf("%+v: suffix %q, want %q", tc.v, got, tc.want)
		}
	}
}

// turned and mirrored move each label with what it labels: the pixels lit inside a
// labelled box of the photograph are the ones lit inside the moved box of the moved
// photograph.
func TestTurnedAndMirrored(t *testing.T) {
	box := observation.Box{X: 50, Y: 10, W: 30, H: 20}
	for _, tc := range []struct {
		name     string
		quarters int
		mirror   bool
	}{
		{"as it is", 0, false}, {"90°", 1, false}, {"180°", 2, false}, {"270°", 3, false},
		{"mirrored", 0, true}, {"mirrored, 90°", 1, true},
	} {
		img := gocv.NewMatWithSize(60, 100, gocv.MatTypeCV8U)
		for y := box.Y; y < box.Y+box.H; y++ {
			for x := box.X; x < box.X+box.W; x++ {
				img.SetUCharAt(y, x, 255)
			}
		}
		orig := dataset.Sample{Width: 100, Height: 60, Truth: []dataset.Truth{{Label: "QH", Box: box}}}
		out, smp := img, orig
		if tc.mirror {
			out, smp = mirrored(out, smp)
		}
		out, smp = turned(out, smp, tc.quarters)
		if out.Cols() != smp.Width || out.Rows() != smp.Height {
			t.Fatalf("%s: image %dx%d, sample says %dx%d", tc.name, out.Cols(), out.Rows(), smp.Width, smp.Height)
		}
		b := smp.Truth[0].Box
		lit, inBox := 0, 0
		for y := 0; y < out.Rows(); y++ {
			for x := 0; x < out.Cols(); x++ {
				if out.GetUCharAt(y, x) == 0 {
					continue
				}
				lit++
				if x >= b.X && x < b.X+b.W && y >= b.Y && y < b.Y+b.H {
					inBox++
				}
			}
		}
		out.Close()
		if lit != box.W*box.H || inBox != lit || b.W*b.H != lit {
			t.Errorf("%s: box %+v holds %d of %d lit pixels", tc.name, b, inBox, lit)
		}
		if tc.quarters%2 == 1 && (smp.Width != 60 || smp.Height != 100) {
			t.Errorf("%s: sample %dx%d, want 60x100", tc.name, smp.Width, smp.Height)
		}
		if orig.Truth[0].Box != box {
			t.Errorf("%s: the original sample's box changed to %+v", tc.name, orig.Truth[0].Box)
		}
	}
}
