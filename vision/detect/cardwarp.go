package detect

import (
	"image"
	"image/color"

	"gocv.io/x/gocv"
)

// Canonical card size the reader works on (portrait, 63x88 mm poker proportions).
const (
	canonW = 180
	canonH = 252
)

// warpCard warps the quad (clockwise from top-left) to an upright canonical card. The long
// sides of the quad become the vertical sides; rot90 turns the choice the other way, for
// quads too square to tell.
func warpCard(src gocv.Mat, q [4]pt, rot90 bool) gocv.Mat {
	// Start the corner order so that side q0-q1 is a short side.
	l01 := q[0].dist(q[1]) + q[2].dist(q[3])
	l12 := q[1].dist(q[2]) + q[3].dist(q[0])
	start := 0
	if (l01 > l12) != rot90 {
		start = 1
	}
	for i := 0; i < 4; i++ {
	}
	sv := gocv.NewPoint2fVectorFromPoints([]gocv.Point2f{
		p2f(q[start%4]), p2f(q[(start+1)%4]), p2f(q[(start+2)%4]), p2f(q[(start+3)%4]),
	})
	defer sv.Close()
	dv := gocv.NewPoint2fVectorFromPoints([]gocv.Point2f{{X: 0, Y: 0}, {X: canonW, Y: 0}, {X: canonW, Y: canonH}, {X: 0, Y: canonH}})
	defer dv.Close()
	m := gocv.GetPerspectiveTransform2f(sv, dv)
	defer m.Close()
	out := gocv.NewMat()
	gocv.WarpPerspectiveWithParams(src, &out, m, image.Pt(canonW, canonH), gocv.InterpolationLinear, gocv.BorderReplicate, color.RGBA{})
	return out
}

func p2f(p pt) gocv.Point2f { return gocv.Point2f{X: float32(p.X), Y: float32(p.Y)} }

// toRGBImage copies a continuous 8-bit BGR Mat into dst, reusing its buffer.
func toRGBImage(m gocv.Mat, dst *rgbImage) error {
	b, err := m.DataPtrUint8()
	if err != nil {
		return err
	}
	dst.w, dst.h = m.Cols(), m.Rows()
	dst.pix = append(dst.pix[:0], b...)
	return nil
}
