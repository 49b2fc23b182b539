package detect

import "C"

import (
	"image"
	"math"
	"slices"
	"sort"

	"gocv.io/x/gocv"
)

// quadCand is a card-shaped quadrilateral found in the working image.
type quadCand struct {
	q      [4]pt // corners in working-image pixels, clockwise from top-left
	area   float64
	fill   float64 // contour area / quad area
	bounds image.Rectangle
	source int
}

// segmenter holds the Mats and buffers reused between frames by the card region search.
type segmenter struct {
	gray, blur, mask, tmp, edges, bright, kernel3, kernel5 gocv.Mat
	full                                                   gocv.Mat // the frame in grey, before shrinking
	pts                                                    []image.Point
	xy                                                     []C.int
}

func newSegmenter() *segmenter {
	return &segmenter{
		gray: gocv.NewMat(), full: gocv.NewMat(), blur: gocv.NewMat(), mask: gocv.NewMat(), tmp: gocv.NewMat(),
		edges: gocv.NewMat(), bright: gocv.NewMat(), kernel3: gocv.GetStructuringElement(gocv.MorphRect, image.Pt(3, 3)),
		kernel5: gocv.GetStructuringElement(gocv.MorphEllipse, image.Pt(5, 5)),
	}
}

func (s *segmenter) Close() {
	for _, m := range []*gocv.Mat{&s.gray, &s.full, &s.blur, &s.mask, &s.tmp, &s.edges, &s.bright, &s.kernel3, &s.kernel5} {
		m.Close()
	}
}

// candidates finds card-shaped quadrilaterals in a BGR (or grey) working image. It looks at several
// binarisations because no single one works on every felt: cards brighter than the cloth
// (Otsu on grey), cards brighter than their surroundings (local mean), and regions closed by
// edges (cards on a light cloth, and cards lying on other cards).
func (s *segmenter) candidates(work gocv.Mat) []quadCand {
	gray := work
	if work.Channels() != 1 {
		gocv.CvtColor(work, &s.gray, gocv.ColorBGRToGray)
		gray = s.gray
	}
	gocv.GaussianBlur(gray, &s.blur, image.Pt(5, 5), 0, 0, gocv.BorderDefault)
	imgArea := float64(work.Rows() * work.Cols())
	var out []quadCand

	// 1: global Otsu.
	gocv.Threshold(s.blur, &s.bright, 0, 255, gocv.ThresholdBinary|gocv.ThresholdOtsu)
	gocv.MorphologyEx(s.bright, &s.tmp, gocv.MorphOpen, s.kernel3)
	out = append(out, s.contoursToQuads(s.tmp, gocv.RetrievalExternal, imgArea, 0)...)

	// 2: brighter than the local mean.
	win := max(31, (min(work.Rows(), work.Cols())/6)|1)
	gocv.AdaptiveThreshold(s.blur, &s.mask, 255, gocv.AdaptiveThresholdMean, gocv.ThresholdBinary, win, -8)
	gocv.MorphologyEx(s.mask, &s.tmp, gocv.MorphOpen, s.kernel3)
	out = append(out, s.contoursToQuads(s.tmp, gocv.RetrievalExternal, imgArea, 1)...)

	// 3: paper: not darker than its close neighbourhood, so that the thin shadow between two
	// touching cards separates them; and on the bright side of Otsu, so that a plain dark
	// cloth (as flat as paper) is not paper.
	gocv.AdaptiveThreshold(s.blur, &s.tmp, 255, gocv.AdaptiveThresholdMean, gocv.ThresholdBinary, 15, 3)
	gocv.BitwiseAnd(s.tmp, s.bright, &s.mask)
	gocv.MorphologyEx(s.mask, &s.tmp, gocv.MorphOpen, s.kernel3)
	out = append(out, s.contoursToQuads(s.tmp, gocv.RetrievalList, imgArea, 3)...)
	// The same with a wider opening, which breaks the bridges a speckled cloth makes to the
	// card's paper; the quads are then pushed back out by the opening's reach.
	gocv.MorphologyEx(s.mask, &s.tmp, gocv.MorphOpen, s.kernel5)
	out = append(out, grow(s.contoursToQuads(s.tmp, gocv.RetrievalList, imgArea, 5), 1)...)

	// 4: regions closed by edges.
	gocv.Canny(s.blur, &s.edges, 20, 60)
	gocv.Dilate(s.edges, &s.tmp, s.kernel3)
	gocv.BitwiseNot(s.tmp, &s.mask)
	out = append(out, s.contoursToQuads(s.mask, gocv.RetrievalList, imgArea, 2)...)

	// 5: paper cut along every edge, for cards on a light speckled cloth.
	gocv.AdaptiveThreshold(s.blur, &s.tmp, 255, gocv.AdaptiveThresholdMean, gocv.ThresholdBinary, 15, 3)
	gocv.BitwiseAnd(s.tmp, s.mask, &s.edges)
	gocv.BitwiseAnd(s.edges, s.bright, &s.edges)
	gocv.MorphologyEx(s.edges, &s.tmp, gocv.MorphOpen, s.kernel3)
	out = append(out, s.contoursToQuads(s.tmp, gocv.RetrievalList, imgArea, 4)...)
	return out
}

func (s *segmenter) contoursToQuads(mask gocv.Mat, mode gocv.RetrievalMode, imgArea float64, source int) []quadCand {
	cs := gocv.FindContours(mask, mode, gocv.ChainApproxSimple)
	defer cs.Close()
	var out []quadCand
	minArea := math.Max(300, 0.0008*imgArea)
	for i := 0; i < cs.Size(); i++ {
		c := cs.At(i)
		if c.Size() < 4 {
			continue
		}
		s.pts, s.xy = contourPoints(c, s.pts, s.xy)
		pts := s.pts
		a := contourArea(pts)
		if a < minArea || a > 0.6*imgArea {
			continue
		}
		out = appendQuads(out, pts, a, minArea, source, 0)
	}
	return out
}

// appendQuads adds the contour as a card quad when it is one, or else cuts it where it is
// pinched (two cards touching, one card lying on another) and tries the pieces.
func appendQuads(out []quadCand, pts []image.Point, a, minArea float64, source, depth int) []quadCand {
	hull := hullIdx(pts)
	if qc, ok := contourQuad(pts, hull, a, source); ok {
		return append(out, qc)
	}
	if depth >= 3 || a < 2*minArea || len(pts) < 8 {
		return out
	}
	p1, p2, ok := splitContour(pts, hull, a)
	if !ok {
		return out
	}
	for _, p := range [][]image.Point{p1, p2} {
		if pa := contourArea(p); pa >= minArea {
			out = appendQuads(out, p, pa, minArea, source, depth+1)
		}
	}
	return out
}

// contourQuad fits a card quad to a contour of area a, whose convex hull is hull (indices,
// see hullIdx).
func contourQuad(pts []image.Point, hull []int, a float64, source int) (quadCand, bool) {
	h := make([]pt, len(hull))
	for k, i := range hull {
		h[k] = toPt(pts[i])
	}
	ha := polyArea(h)
	if ha <= 0 || a/ha < 0.85 {
		return quadCand{}, false
	}
	q, ok := quadFromHull(h)
	if !ok {
		return quadCand{}, false
	}
	q = refineQuad(q, pts)
	qa := polyArea(q[:])
	if qa <= 0 {
		return quadCand{}, false
	}
	fill := a / qa
	if fill < 0.8 || fill > 1.1 || !cardShaped(q) {
		return quadCand{}, false
	}
	return quadCand{q: q, area: qa, fill: fill, bounds: quadBounds(q), source: source}, true
}

// splitContour cuts a contour along the shortest chord between two of its deepest
// concavities, the pinch where two touching or overlapping cards meet. hull is the contour's
// convex hull (indices); it is reordered.
func splitContour(pts []image.Point, hull []int, a float64) ([]image.Point, []image.Point, bool) {
	if len(hull) < 3 {
		return nil, nil, false
	}
	slices.Sort(hull) // contour order
	// cum[i] is the contour length from point 0 to point i.
	n := len(pts)
	cum := make([]float64, n+1)
	for i := 0; i < n; i++ {
		cum[i+1] = cum[i] + toPt(pts[i]).dist(toPt(pts[(i+1)%n]))
	}
	arcLen := func(i, j int) float64 {
		if j >= i {
			return cum[j] - cum[i]
		}
		return cum[n] - cum[i] + cum[j]
	}
	minDepth := math.Max(2.5, 0.025*math.Sqrt(a))
	type defect struct {
		i     int
		depth float64
	}
	var ds []defect
	for k := range hull {
		i0, i1 := hull[k], hull[(k+1)%len(hull)]
		a0, a1 := toPt(pts[i0]), toPt(pts[i1])
		best, bi := 0.0, -1
		for j := (i0 + 1) % n; j != i1; j = (j + 1) % n {
			if d := segDist(toPt(pts[j]), a0, a1); d > best {
				best, bi = d, j
			}
		}
		if bi >= 0 && best >= minDepth {
			ds = append(ds, defect{bi, best})
		}
	}
	if len(ds) < 2 {
		return nil, nil, false
	}
	// Shortest chord relative to the smaller side it cuts off: a pinch, not a slice.
	bestScore, ba, bb := math.Inf(1), -1, -1
	for x := 0; x < len(ds); x++ {
		for y := x + 1; y < len(ds); y++ {
			i, j := ds[x].i, ds[y].i
			chord := toPt(pts[i]).dist(toPt(pts[j]))
			side := math.Min(arcLen(i, j), arcLen(j, i))
			if side < 4*chord*0.5 || chord < 1 {
				continue
			}
			if s := chord / side; s < bestScore {
				bestScore, ba, bb = s, i, j
			}
		}
	}
	if ba < 0 || bestScore > 0.5 {
		return nil, nil, false
	}
	return arc(pts, ba, bb), arc(pts, bb, ba), true
}

// arc is the contour from index i to index j inclusive, going forward.
func arc(pts []image.Point, i, j int) []image.Point {
	var out []image.Point
	for k := i; ; k = (k + 1) % len(pts) {
		out = append(out, pts[k])
		if k == j {
			break
		}
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

// grow pushes every side of the quads out by d pixels.
func grow(cs []quadCand, d float64) []quadCand {
	for i := range cs {
		q := cs[i].q
		c := pt{}
		for _, p := range q {
			c = c.add(p.mul(0.25))
		}
		for k := range q {
			v := q[k].sub(c)
			n := v.norm()
			if n > 0 {
				// A corner moves along its diagonal by d·√2 for sides that move by d.
				q[k] = q[k].add(v.mul(d * math.Sqrt2 / n))
			}
		}
		cs[i].q = q
		cs[i].bounds = quadBounds(q)
		cs[i].area = polyArea(q[:])
	}
	return cs
}
