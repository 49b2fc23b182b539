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
	if got := scaleSuffix(1); got != "" {
		t.Errorf("scaleSuffix(1) = %q, want none", got)
	}
	if got := scaleSuffix(1.5); got != " ×1.5" {
		t.Errorf("scaleSuffix(1.5) = %q", got)
	}
}
