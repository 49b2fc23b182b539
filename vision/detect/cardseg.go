package detect

import (
	"image"
	"math"
	"sort"

	"gocv.io/x/gocv"
)

// quadCand is a card-shaped quadrilateral found in the working image.
type quadCand struct {
	q       [4]pt // corners in working-image pixels, clockwise from top-left
	area    float64
	fill    float64 // contour area / quad area
	bounds  image.Rectangle
	contour []image.Point
	source  int
}

// segmenter holds the Mats reused between frames by the card region search.
type segmenter struct {
	gray, blur, mask, tmp, edges, kernel3 gocv.Mat
}

func newSegmenter() *segmenter {
	return &segmenter{
		gray: gocv.NewMat(), blur: gocv.NewMat(), mask: gocv.NewMat(), tmp: gocv.NewMat(),
		edges: gocv.NewMat(), kernel3: gocv.GetStructuringElement(gocv.MorphRect, image.Pt(3, 3)),
	}
}

func (s *segmenter) Close() {
	for _, m := range []*gocv.Mat{&s.gray, &s.blur, &s.mask, &s.tmp, &s.edges, &s.kernel3} {
		m.Close()
	}
}

// candidates finds card-shaped quadrilaterals in a BGR working image. It looks at several
// binarisations because no single one works on every felt: cards brighter than the cloth
// (Otsu on grey), cards brighter than their surroundings (local mean), and regions closed by
// edges (cards on a light cloth, and cards lying on other cards).
func (s *segmenter) candidates(work gocv.Mat) []quadCand {
	gocv.CvtColor(work, &s.gray, gocv.ColorBGRToGray)
	gocv.GaussianBlur(s.gray, &s.blur, image.Pt(5, 5), 0, 0, gocv.BorderDefault)
	imgArea := float64(work.Rows() * work.Cols())
	var out []quadCand

	// 1: global Otsu.
	gocv.Threshold(s.blur, &s.mask, 0, 255, gocv.ThresholdBinary|gocv.ThresholdOtsu)
	gocv.MorphologyEx(s.mask, &s.tmp, gocv.MorphOpen, s.kernel3)
	out = append(out, contoursToQuads(s.tmp, gocv.RetrievalExternal, imgArea, 0)...)

	// 2: brighter than the local mean.
	win := max(31, (min(work.Rows(), work.Cols())/6)|1)
	gocv.AdaptiveThreshold(s.blur, &s.mask, 255, gocv.AdaptiveThresholdMean, gocv.ThresholdBinary, win, -8)
	gocv.MorphologyEx(s.mask, &s.tmp, gocv.MorphOpen, s.kernel3)
	out = append(out, contoursToQuads(s.tmp, gocv.RetrievalExternal, imgArea, 1)...)

	// 3: paper: not darker than its close neighbourhood, so that the thin shadow between two
	// touching cards separates them.
	gocv.AdaptiveThreshold(s.blur, &s.mask, 255, gocv.AdaptiveThresholdMean, gocv.ThresholdBinary, 15, 3)
	gocv.MorphologyEx(s.mask, &s.tmp, gocv.MorphOpen, s.kernel3)
	out = append(out, contoursToQuads(s.tmp, gocv.RetrievalList, imgArea, 3)...)

	// 4: regions closed by edges.
	gocv.Canny(s.blur, &s.edges, 20, 60)
	gocv.Dilate(s.edges, &s.tmp, s.kernel3)
	gocv.BitwiseNot(s.tmp, &s.mask)
	out = append(out, contoursToQuads(s.mask, gocv.RetrievalList, imgArea, 2)...)
	return out
}

func contoursToQuads(mask gocv.Mat, mode gocv.RetrievalMode, imgArea float64, source int) []quadCand {
	cs := gocv.FindContours(mask, mode, gocv.ChainApproxSimple)
	defer cs.Close()
	var out []quadCand
	minArea := math.Max(300, 0.0008*imgArea)
	for i := 0; i < cs.Size(); i++ {
		c := cs.At(i)
		if c.Size() < 4 {
			continue
		}
		pts := c.ToPoints()
		a := contourArea(pts)
		if a < minArea || a > 0.6*imgArea {
			continue
		}
		h := convexHull(pts)
		ha := polyArea(h)
		if ha <= 0 || a/ha < 0.85 {
			continue
		}
		q, ok := quadFromHull(h)
		if !ok {
			continue
		}
		q = refineQuad(q, pts)
		qa := polyArea(q[:])
		if qa <= 0 {
			continue
		}
		fill := a / qa
		if fill < 0.8 || fill > 1.1 {
			continue
		}
		if !cardShaped(q) {
			continue
		}
		out = append(out, quadCand{q: q, area: qa, fill: fill, bounds: quadBounds(q), contour: pts, source: source})
	}
	return out
}

// cardShaped accepts quads whose angles and side ratios a card seen from above (even at an
// angle, even in a picture stretched to a square) can have.
func cardShaped(q [4]pt) bool {
	for _, a := range quadAngles(q) {
		if a < 55 || a > 125 {
			return false
		}
	}
	s := [4]float64{q[0].dist(q[1]), q[1].dist(q[2]), q[2].dist(q[3]), q[3].dist(q[0])}
	if math.Max(s[0], s[2])/math.Min(s[0], s[2]) > 1.7 || math.Max(s[1], s[3])/math.Min(s[1], s[3]) > 1.7 {
		return false
	}
	a, b := (s[0]+s[2])/2, (s[1]+s[3])/2
	r := math.Max(a, b) / math.Min(a, b)
	return r >= 1.0 && r <= 3.0
}

// dedupe keeps one candidate per card: the one with the best fill among those overlapping
// by more than the given IoU.
func dedupe(cs []quadCand, iou float64) []quadCand {
	sort.Slice(cs, func(i, j int) bool { return cs[i].area > cs[j].area })
	var out []quadCand
	for _, c := range cs {
		dup := false
		for k := range out {
			if rectIoU(c.bounds, out[k].bounds) > iou {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, c)
		}
	}
	return out
}
