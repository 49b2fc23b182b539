package detect

import (
	"image"
	"image/color"
	"math"
	"sort"
	"unsafe"

	"gocv.io/x/gocv"
)

// Corner-first reading. The card finder outlines cards by their edges, and misses a card
// whose outline does not close into a quad of its own: cards touching or overlapping as
// dealt, a card mostly hidden under another, a white card on a white cloth. The index of
// such a card is usually in view. So, in the parts of the frame that no card read so far
// explains, the reader looks for index glyph pairs (a glyph with a smaller one under it, in
// the same ink, at any rotation); each pair gives the card's way up and its size, hence
// where the whole card would lie, and that card is read like any other quad. A card read
// this way must be read from the corner that was found.

// Geometry of an index on the canonical card (canonW x canonH): where the centre of the
// rank glyph lies, and how far below it the centre of the suit lies, on most decks.
const (
	indexRankX  = 0.10 * canonW
	indexRankY  = 0.085 * canonH
	indexSuitDy = 0.085 * canonH
)

// Limits of the corner-first search.
const (
	// maxIndexPairs is the most glyph pairs tried per region, most plausible first, and
	// maxFrameIndexPairs the most per frame: each costs a card read, and a frame of cards
	// the reader cannot read must not take many times longer than one it can.
	maxIndexPairs      = 32
	maxFrameIndexPairs = 96
	// maxRegionPixels is the largest region searched at full resolution; larger regions
	// (a frame-sized white cloth, the cards of a large frame) are searched shrunk to
	// about this size, where a glyph must be minShrunkGlyph pixels long.
	maxRegionPixels = 700 * 700
	minShrunkGlyph  = 6
	// maxLoneIndexes is the most cards read from one index for which the other index is
	// looked for where it should be.
	maxLoneIndexes = 8
	// inkContrast is how much darker than its surroundings (grey levels) a pixel must be to
	// be ink in the search for indexes; faintInkContrast in a second search of a region
	// where nothing was read.
	inkContrast, faintInkContrast float64 = 12, 6
	// cornerFirstConf caps the confidence of a card read corner-first: its outline was
	// guessed, not seen.
	cornerFirstConf = 0.85
)

// indexSearch holds the Mats reused by the corner-first search.
type indexSearch struct {
	gray, mask, labels, stats, cents, left, small gocv.Mat
}

func newIndexSearch() *indexSearch {
	return &indexSearch{gray: gocv.NewMat(), mask: gocv.NewMat(), labels: gocv.NewMat(), stats: gocv.NewMat(),
		cents: gocv.NewMat(), left: gocv.NewMat(), small: gocv.NewMat()}
}

// Close releases the Mats.
func (s *indexSearch) Close() {
	for _, m := range []*gocv.Mat{&s.gray, &s.mask, &s.labels, &s.stats, &s.cents, &s.left, &s.small} {
		m.Close()
	}
}

// inkBlob is a dark connected component of a region, in frame pixels.
type inkBlob struct {
	box  image.Rectangle
	c    pt
	area int
	size float64 // longest side of its box
}

// indexPair is a glyph (the rank) with a smaller glyph (the suit) under it, in frame pixels.
type indexPair struct {
	rank, suit inkBlob
	score      float64 // lower is more like an index
}

// blobsIn returns the dark blobs of region r of the frame that could be index glyphs, from
// minSide to maxSide pixels long.
func (s *indexSearch) blobsIn(src gocv.Mat, r image.Rectangle, minSide, maxSide, contrast float64) []inkBlob {
	roi := src.Region(r)
	defer roi.Close()
	// A region larger than maxRegionPixels is searched shrunk by a whole factor f: the
	// glyphs of a frame that large are as large. Sizes below are in frame pixels.
	f := shrinkFactor(r)
	if f > 1 {
		gocv.Resize(roi, &s.small, image.Pt(r.Dx()/f, r.Dy()/f), 0, 0, gocv.InterpolationArea)
		gocv.CvtColor(s.small, &s.gray, gocv.ColorBGRToGray)
	} else {
		gocv.CvtColor(roi, &s.gray, gocv.ColorBGRToGray)
	}
	sw, sh := s.gray.Cols(), s.gray.Rows()
	block := max(15, min(61, (min(sw, sh)/5)|1))
	gocv.AdaptiveThreshold(s.gray, &s.mask, 255, gocv.AdaptiveThresholdMean, gocv.ThresholdBinaryInv, block, float32(contrast))
	n := gocv.ConnectedComponentsWithStats(s.mask, &s.labels, &s.stats, &s.cents)
	st := int32s(s.stats)
	ce := matFloat64s(s.cents)
	if len(st) < 5*n || len(ce) < 2*n {
		return nil
	}
	maxSide = math.Min(maxSide, 0.25*float64(max(r.Dx(), r.Dy())))
	if f > 1 {
		minSide = math.Max(minSide, float64(minShrunkGlyph*f))
	}
	fl, half := float64(f), float64(f-1)/2
	var out []inkBlob
	for i := 1; i < n; i++ {
		x, y, w, h, a := int(st[5*i]), int(st[5*i+1]), int(st[5*i+2]), int(st[5*i+3]), int(st[5*i+4])
		size := float64(max(w, h) * f)
		if a < 10 || size < minSide || size > maxSide || float64(a) < 0.15*float64(w*h) {
			continue
		}
		if x == 0 || y == 0 || x+w >= sw || y+h >= sh {
			continue // cut by the region's edge
		}
		out = append(out, inkBlob{
			box:  image.Rect(x*f, y*f, (x+w)*f, (y+h)*f).Add(r.Min),
			c:    pt{ce[2*i]*fl + half + float64(r.Min.X), ce[2*i+1]*fl + half + float64(r.Min.Y)},
			area: a * f * f, size: size,
		})
	}
	return out
}

// shrinkFactor is the whole factor blobsIn shrinks region r by: 1 up to maxRegionPixels.
func shrinkFactor(r image.Rectangle) int {
	a := float64(r.Dx() * r.Dy())
	if a <= maxRegionPixels {
		return 1
	}
	return int(math.Ceil(math.Sqrt(a / maxRegionPixels)))
}

// indexPairs pairs the blobs into likely (rank, suit) pairs, most plausible first. An index
// is printed on plain paper: a pair with many other blobs around it (a speckled cloth, a
// picture) is no index.
func indexPairs(bs []inkBlob) []indexPair {
	sort.Slice(bs, func(i, j int) bool { return bs[i].c.X < bs[j].c.X })
	crowded := func(a, b inkBlob) bool {
		mid := a.c.add(b.c).mul(0.5)
		reach := 1.6 * a.size
		n := 0
		for _, o := range bs {
			if o.c.X < mid.X-reach {
				continue
			}
			if o.c.X > mid.X+reach {
				break
			}
			if o.c.dist(mid) < reach {
				n++
			}
		}
		return n > 5 // a, b, the other digit of "10", a pip or a frame line or two
	}
	var out []indexPair
	for i := range bs {
		for j := range bs {
			if i == j {
				continue
			}
			a, b := bs[i], bs[j] // a the rank, b the suit
			if math.Abs(a.c.X-b.c.X) > 1.8*a.size {
				continue
			}
			ratio := b.size / a.size
			if ratio < 0.35 || ratio > 1.25 {
				continue
			}
			d := a.c.dist(b.c)
			if d < 0.55*a.size || d > 1.7*a.size {
				continue
			}
			// The suit glyph is centred under the rank: its box holds the line from the
			// rank's centre through its own, and the two boxes do not overlap much.
			if a.box.Intersect(b.box).Dx()*a.box.Intersect(b.box).Dy() > a.area/2 {
				continue
			}
			if crowded(a, b) {
				continue
			}
			score := math.Abs(ratio-0.75) + math.Abs(d/a.size-1.05) - 0.01*math.Min(a.size, 30)
			out = append(out, indexPair{rank: a, suit: b, score: score})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].score < out[j].score })
	return out
}

// cardOfIndex is the quad (clockwise from the card's top-left) of the card whose top-left
// index is the pair, sized from the distance between its glyphs.
func cardOfIndex(p indexPair) [4]pt {
	d := p.rank.c.dist(p.suit.c)
	up := p.rank.c.sub(p.suit.c).mul(1 / d)
	right := pt{-up.Y, up.X}
	s := d / indexSuitDy // frame pixels per canonical pixel
	tl := p.rank.c.sub(right.mul(s * indexRankX)).add(up.mul(s * indexRankY))
	tr := tl.add(right.mul(s * canonW))
	br := tr.sub(up.mul(s * canonH))
	bl := tl.sub(up.mul(s * canonH))
	return [4]pt{tl, tr, br, bl}
}

// unexplained returns the regions of the frame (frame pixels) where cards may lie that no
// card read so far explains: candidate quads with no reading that overlap no card read,
// and light regions (paper) outside every card read. k is the factor the finder shrank the
// frame by; bright is its light mask at that scale.
//
// A region of a quad comes with the size of its glyphs (a tenth of the quad's long side,
// about); a light region without (0). The regions of heaps (cards read from one corner, which
// may be several cards outlined as one) come last, with their glyph size.
func (s *indexSearch) unexplained(src gocv.Mat, bright gocv.Mat, k int, quads []image.Rectangle, cards [][4]pt, heaps []image.Rectangle) []searchRegion {
	frame := image.Rect(0, 0, src.Cols(), src.Rows())
	var out []searchRegion
	add := func(r image.Rectangle, glyph float64, heap bool) {
		pad := max(r.Dx(), r.Dy()) / 10
		r = image.Rect(r.Min.X-pad, r.Min.Y-pad, r.Max.X+pad, r.Max.Y+pad).Intersect(frame)
		if r.Dx() < 16 || r.Dy() < 16 {
			return
		}
		for _, o := range out {
			if o.glyph == glyph && o.heap == heap && containment(r, o.r) > 0.8 {
				return
			}
		}
		out = append(out, searchRegion{r: r, glyph: glyph, heap: heap})
	}
	for _, q := range quads {
		add(q, 0.1*float64(max(q.Dx(), q.Dy())), false)
	}
	s.lightRegions(bright, k, cards, func(r image.Rectangle) { add(r, 0, false) })
	for _, q := range heaps {
		// A heap of cards fanned side by side is longer than one card: its short side is
		// then a card's long one.
		long, short := float64(max(q.Dx(), q.Dy())), float64(min(q.Dx(), q.Dy()))
		if long > 1.6*short {
			long = short
		}
		add(q, 0.1*long, true)
	}
	return out
}

// lightRegions calls add with the bounds (frame pixels) of each light region of the frame
// outside the cards read.
func (s *indexSearch) lightRegions(bright gocv.Mat, k int, cards [][4]pt, add func(image.Rectangle)) {
	if bright.Empty() {
		return
	}
	// Light regions outside the cards read.
	bright.CopyTo(&s.left)
	inv := 1 / float64(k)
	for _, q := range cards {
		poly := make([]image.Point, 4)
		for i, p := range q {
			poly[i] = p.mul(inv).img()
		}
		pv := gocv.NewPointsVectorFromPoints([][]image.Point{poly})
		gocv.FillPoly(&s.left, pv, color.RGBA{})
		pv.Close()
	}
	n := gocv.ConnectedComponentsWithStats(s.left, &s.labels, &s.stats, &s.cents)
	st := int32s(s.stats)
	minArea := math.Max(300, 0.0008*float64(s.left.Rows()*s.left.Cols()))
	for i := 1; i < n && 5*i+4 < len(st); i++ {
		x, y, w, h, a := int(st[5*i]), int(st[5*i+1]), int(st[5*i+2]), int(st[5*i+3]), int(st[5*i+4])
		if float64(a) < minArea {
			continue
		}
		add(image.Rect(x*k, y*k, (x+w)*k, (y+h)*k))
	}
}

// searchRegion is a region of the frame searched for indexes, with the size its glyphs
// should have (0 when unknown).
type searchRegion struct {
	r     image.Rectangle
	glyph float64
	heap  bool // a card read from one corner, searched for cards over it
	faint bool // searched again for fainter ink
}

// glyphRange is the range of glyph sizes searched for in the region.
func (g searchRegion) glyphRange() (float64, float64) {
	switch {
	case g.glyph == 0:
		return 7, math.Inf(1)
	case g.heap:
		// The cards of a heap are of one deck: their indexes are printed the same size.
		return math.Max(5, 0.7*g.glyph), 1.45 * g.glyph
	}
	return math.Max(5, 0.4*g.glyph), 2.2 * g.glyph
}

func matFloat64s(m gocv.Mat) []float64 {
	b, err := m.DataPtrUint8()
	if err != nil || len(b) < 8 {
		return nil
	}
	return unsafe.Slice((*float64)(unsafe.Pointer(&b[0])), len(b)/8)
}

// visiblePart cuts a box down by the boxes of cards lying over it where they cover much of a
// side of it, so that a card under others is boxed about as far as it shows. A card over
// it that covers much of both its height and its width (lying over a corner) leaves an L
// in view: the larger arm of the L is kept.
func visiblePart(b image.Rectangle, over []image.Rectangle) image.Rectangle {
	area := func(r image.Rectangle) int { return r.Dx() * r.Dy() }
	for _, o := range over {
		in := b.Intersect(o)
		if in.Empty() {
			continue
		}
		if in.Eq(b) {
			return image.Rectangle{}
		}
		cut := b
		if 2*in.Dy() >= b.Dy() && in.Dx() < b.Dx() { // covers much of its height: cut left or right
			l, r := b, b
			l.Max.X, r.Min.X = in.Min.X, in.Max.X
			cut = l
			if area(r) > area(l) {
				cut = r
			}
		}
		if 2*in.Dx() >= b.Dx() && in.Dy() < b.Dy() { // much of its width: cut top or bottom
			t, u := b, b
			t.Max.Y, u.Min.Y = in.Min.Y, in.Max.Y
			if area(u) > area(t) {
				t = u
			}
			if cut == b || area(t) > area(cut) {
				cut = t
			}
		}
		b = cut
	}
	return b
}

// refitToIndexes corrects the quad q of a card guessed from one index (cardOfIndex, a
// parallelogram, clockwise from the card's top-left) once both of its indexes have been read
// in it: i0 and i2 are the index boxes of corners 0 and 2 in canonical card pixels. The two
// indexes are printed point-symmetrically, so the card's centre is halfway between them, and
// its size follows from how far apart they are, the index lying as far in from its corner as
// in the guess. It reports false when the indexes are too far from where a card would put
// them for the guess to be trusted.
func refitToIndexes(q [4]pt, i0, i2 image.Rectangle) ([4]pt, bool) {
	return refitToCentres(q, mid(i0), mid(i2))
}

// refitToCentres is refitToIndexes for the centres c0 and c2 of the two indexes.
func refitToCentres(q [4]pt, c0, c2 pt) ([4]pt, bool) {
	fx := (c2.X - c0.X) / (canonW - 2*c0.X)
	fy := (c2.Y - c0.Y) / (canonH - 2*c0.Y)
	// The guess takes its size from the spacing of one index's glyphs, and its shape from a
	// card seen square on; a card seen at a slant is shorter one way.
	if fx < 0.55 || fx > 1.8 || fy < 0.55 || fy > 1.8 || math.Max(fx, fy)/math.Min(fx, fy) > 1.6 {
		return q, false
	}
	tl := pt{c0.X * (1 - fx), c0.Y * (1 - fy)}
	br := pt{c2.X + fx*c0.X, c2.Y + fy*c0.Y}
	return [4]pt{quadPoint(q, tl), quadPoint(q, pt{br.X, tl.Y}), quadPoint(q, br), quadPoint(q, pt{tl.X, br.Y})}, true
}

// mid is the centre of r.
func mid(r image.Rectangle) pt {
	return pt{float64(r.Min.X+r.Max.X) / 2, float64(r.Min.Y+r.Max.Y) / 2}
}

// quadPoint maps canonical card pixels c to frame pixels in the parallelogram q (clockwise
// from the card's top-left), and quadCoords back.
func quadPoint(q [4]pt, c pt) pt {
	return q[0].add(q[1].sub(q[0]).mul(c.X / canonW)).add(q[3].sub(q[0]).mul(c.Y / canonH))
}

func quadCoords(q [4]pt, p pt) pt {
	u, v := q[1].sub(q[0]), q[3].sub(q[0])
	d := u.cross(v)
	if d == 0 {
		return pt{}
	}
	w := p.sub(q[0])
	return pt{w.cross(v) / d * canonW, u.cross(w) / d * canonH}
}
