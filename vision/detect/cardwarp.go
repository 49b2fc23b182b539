package detect

import (
	"image"
	"image/color"
	"math"

	"gocv.io/x/gocv"
)

// Canonical card size the reader works on (portrait, 63x88 mm poker proportions).
const (
	canonW = 180
	canonH = 252
	// halfW, halfH is the size the body of a card is looked at (pips, margin, back).
	halfW, halfH = canonW / 2, canonH / 2
)

// warpCard warps the quad (clockwise from top-left) to an upright canonical card. The long
// sides of the quad become the vertical sides; rot90 turns the choice the other way, for
// quads too square to tell.
func warpCard(src gocv.Mat, q [4]pt, rot90 bool) gocv.Mat {
	m := cardTransform(q, rot90)
	defer m.Close()
	out := gocv.NewMat()
	gocv.WarpPerspectiveWithParams(src, &out, m, image.Pt(canonW, canonH), gocv.InterpolationLinear, gocv.BorderReplicate, color.RGBA{})
	return out
}

// cardTransform is the perspective transform (3x3, float64) that warpCard applies: frame
// pixels to canonical card pixels.
func cardTransform(q [4]pt, rot90 bool) gocv.Mat {
	// Start the corner order so that side q0-q1 is a short side.
	l01 := q[0].dist(q[1]) + q[2].dist(q[3])
	l12 := q[1].dist(q[2]) + q[3].dist(q[0])
	start := 0
	if (l01 > l12) != rot90 {
		start = 1
	}
	sv := gocv.NewPoint2fVectorFromPoints([]gocv.Point2f{
		p2f(q[start%4]), p2f(q[(start+1)%4]), p2f(q[(start+2)%4]), p2f(q[(start+3)%4]),
	})
	defer sv.Close()
	dv := gocv.NewPoint2fVectorFromPoints([]gocv.Point2f{{X: 0, Y: 0}, {X: canonW, Y: 0}, {X: canonW, Y: canonH}, {X: 0, Y: canonH}})
	defer dv.Close()
	return gocv.GetPerspectiveTransform2f(sv, dv)
}

// cardView is a candidate quad seen as an upright canonical card (canonW x canonH), warped
// from the frame one region at a time as the reader asks for it: the index corners first,
// the whole card (at half the size) only when the pips or the margin are looked at. Warping costs about as much
// per pixel as everything the reader then does with it, and most cards are read from two
// corners. A cardView keeps its buffers between cards; Close it.
type cardView struct {
	img     rgbImage
	half    rgbImage // the whole card at half the size, for the pips and the margin
	src     gocv.Mat // the frame (not owned)
	m, sub  gocv.Mat // transform frame → card, and the one for a region
	region  gocv.Mat // the warped region
	corners [numCorners]bool
	halfOK  bool
	ok      bool
}

func newCardView() *cardView {
	return &cardView{m: gocv.NewMat(), sub: gocv.NewMatWithSize(3, 3, gocv.MatTypeCV64F), region: gocv.NewMat()}
}

// Close releases the view's Mats.
func (v *cardView) Close() {
	v.m.Close()
	v.sub.Close()
	v.region.Close()
}

// reset points the view at quad q of src, turned as warpCard turns it.
func (v *cardView) reset(src gocv.Mat, q [4]pt, rot90 bool) {
	v.m.Close()
	v.m = cardTransform(q, rot90)
	v.src = src
	v.corners = [numCorners]bool{}
	v.halfOK = false
	v.ok = true
	v.img.w, v.img.h = canonW, canonH
	if len(v.img.pix) != 3*canonW*canonH {
		v.img.pix = make([]byte, 3*canonW*canonH)
	}
}

// cornerRect is the region of corner k of a canonical card that extractCorner reads.
func cornerRect(k int) image.Rectangle {
	pw := int(math.Round(cornerFracW * canonW))
	ph := int(math.Round(cornerFracH * canonH))
	x0, y0 := 0, 0
	if k == 1 || k == 2 {
		x0 = canonW - pw
	}
	if k >= 2 {
		y0 = canonH - ph
	}
	return image.Rect(x0, y0, x0+pw, y0+ph)
}

// corner returns the card with (at least) corner k warped.
func (v *cardView) corner(k int) *rgbImage {
	if !v.corners[k] {
		v.warp(cornerRect(k))
		v.corners[k] = true
	}
	return &v.img
}

// body returns the whole card warped at half the canonical size (halfW x halfH): enough for
// the pips and the margin, which are large, at a quarter of the cost.
func (v *cardView) body() *rgbImage {
	if v.halfOK {
		return &v.half
	}
	for j := 0; j < 3; j++ {
		v.sub.SetDoubleAt(0, j, 0.5*v.m.GetDoubleAt(0, j))
		v.sub.SetDoubleAt(1, j, 0.5*v.m.GetDoubleAt(1, j))
		v.sub.SetDoubleAt(2, j, v.m.GetDoubleAt(2, j))
	}
	gocv.WarpPerspectiveWithParams(v.src, &v.region, v.sub, image.Pt(halfW, halfH), gocv.InterpolationLinear, gocv.BorderReplicate, color.RGBA{})
	if err := toRGBImage(v.region, &v.half); err != nil {
		v.ok = false
	}
	v.halfOK = true
	return &v.half
}

// warp warps region r of the canonical card into the image.
func (v *cardView) warp(r image.Rectangle) {
	x0, y0 := float64(r.Min.X), float64(r.Min.Y)
	for j := 0; j < 3; j++ {
		m2 := v.m.GetDoubleAt(2, j)
		v.sub.SetDoubleAt(0, j, v.m.GetDoubleAt(0, j)-x0*m2)
		v.sub.SetDoubleAt(1, j, v.m.GetDoubleAt(1, j)-y0*m2)
		v.sub.SetDoubleAt(2, j, m2)
	}
	gocv.WarpPerspectiveWithParams(v.src, &v.region, v.sub, r.Size(), gocv.InterpolationLinear, gocv.BorderReplicate, color.RGBA{})
	b, err := v.region.DataPtrUint8()
	if err != nil || len(b) < 3*r.Dx()*r.Dy() {
		v.ok = false
		return
	}
	w := 3 * r.Dx()
	for y := 0; y < r.Dy(); y++ {
		copy(v.img.pix[3*((r.Min.Y+y)*canonW+r.Min.X):], b[y*w:(y+1)*w])
	}
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
