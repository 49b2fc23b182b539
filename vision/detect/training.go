package detect

import (
	"image"
	"math"
	"math/rand/v2"

	"gocv.io/x/gocv"
)

// This file lets the model builder (models/cmd/build-cards) and the evaluation see glyphs
// exactly as the recogniser does.

// CardQuad is a card-shaped quadrilateral found in an image, corners clockwise from the
// top-left, in image pixels.
type CardQuad struct {
	Corners [4]gocv.Point2f
	Bounds  image.Rectangle
}

// GlyphSample is the feature vectors of one index corner of a warped card.
type GlyphSample struct {
	Rank, Suit []float32
	// Variants are the same glyphs cut with their boxes moved by a pixel and their ink made
	// bolder or lighter: [i][0] rank, [i][1] suit features.
	Variants [][2][]float32
	// Red is the mean redness of the suit glyph's ink.
	Red    float64
	Rot90  bool
	Corner int
	// RankBox and SuitBox are where the glyphs were cut, in the corner's upright patch
	// (warped-card pixels, the corner turned to the top left).
	RankBox, SuitBox image.Rectangle
}

// QuadFinder finds card-shaped quadrilaterals, the first step of the card recogniser. It
// keeps working buffers: use one per goroutine, and Close it.
type QuadFinder struct {
	seg       *segmenter
	work, bgr gocv.Mat
}

// NewQuadFinder makes a QuadFinder.
func NewQuadFinder() *QuadFinder {
	return &QuadFinder{seg: newSegmenter(), work: gocv.NewMat(), bgr: gocv.NewMat()}
}

// Close releases the finder's buffers.
func (f *QuadFinder) Close() error {
	f.seg.Close()
	f.work.Close()
	f.bgr.Close()
	return nil
}

// FindCardQuads returns the card-shaped quads of an image, largest first.
func (f *QuadFinder) FindCardQuads(img gocv.Mat) ([]CardQuad, error) {
	src, err := toBGR(img, &f.bgr)
	if err != nil {
		return nil, err
	}
	cands := findQuads(src, f.seg, &f.work)
	out := make([]CardQuad, len(cands))
	for i, cd := range cands {
		for k, p := range cd.q {
			out[i].Corners[k] = p2f(p)
		}
		out[i].Bounds = cd.bounds
	}
	return out, nil
}

// GlyphSamples warps the quad both ways round, after moving its corners by jitter (pixels)
// and blurring the warped card by blur (Gaussian sigma in canonical pixels, 0 for none), and
// returns the index glyphs of every corner where an index was found.
//
// variants asks for that many extra cuts of each glyph (see GlyphSample.Variants), made with
// rng.
func GlyphSamples(img gocv.Mat, q CardQuad, jitter [4]gocv.Point2f, blur float64, variants int, rng *rand.Rand) []GlyphSample {
	var quad [4]pt
	for k := range quad {
		quad[k] = pt{float64(q.Corners[k].X + jitter[k].X), float64(q.Corners[k].Y + jitter[k].Y)}
	}
	var card rgbImage
	var patch cornerPatch
	var out []GlyphSample
	for o := 0; o < 2; o++ {
		w := warpCard(img, quad, o == 1)
		if blur > 0 {
			k := 2*int(math.Ceil(2*blur)) + 1
			gocv.GaussianBlur(w, &w, image.Pt(k, k), blur, blur, gocv.BorderReplicate)
		}
		err := toRGBImage(w, &card)
		w.Close()
		if err != nil {
			return nil
		}
		for k := 0; k < numCorners; k++ {
			extractCorner(&card, k, &patch)
			labels := make([]int32, patch.w*patch.h)
			rb, sb, thr, ok := cutIndex(&patch, labels, card.w, card.h, false)
			if !ok {
				continue
			}
			s := GlyphSample{Rank: make([]float32, RankFeatureSize), Suit: make([]float32, SuitFeatureSize), Rot90: o == 1, Corner: k, RankBox: rb, SuitBox: sb}
			rankFeatures(&patch, rb, card.h, s.Rank)
			s.Red = meanRed(&patch, sb, thr)
			// Training keeps to glyph pairs whose mean redness (not only their ink's
			// colour, as sameInk judges at run time) says one ink: a faint red letter is
			// read at run time but not learnt from. Learning from them too was measured
			// (5-fold cross-validation) and did no better: one card more on one set, one
			// fewer on the other, lower precision.
			if rr := meanRed(&patch, rb, thr); (rr > redInk) != (s.Red > redInk) && math.Abs(rr-s.Red) > 0.1 {
				continue
			}
			suitFeatures(&patch, sb, s.Red, s.Suit)
			for v := 0; v < variants; v++ {
				s.Variants = append(s.Variants, glyphVariant(&patch, rb, sb, s.Red, card, rng))
			}
			out = append(out, s)
		}
	}
	return out
}

// glyphVariant cuts the rank and suit glyphs again with each box side moved by up to a pixel
// and the ink raised to a random power (thicker or thinner strokes).
func glyphVariant(p *cornerPatch, rb, sb image.Rectangle, red float64, card rgbImage, rng *rand.Rand) [2][]float32 {
	gamma := float32(0.6 + rng.Float64()*0.9)
	q := cornerPatch{w: p.w, h: p.h, ink: make([]float32, len(p.ink)), red: p.red}
	for i, v := range p.ink {
		q.ink[i] = float32(math.Pow(float64(v), float64(gamma)))
	}
	move := func(r image.Rectangle) image.Rectangle {
		r2 := image.Rect(r.Min.X+rng.IntN(3)-1, r.Min.Y+rng.IntN(3)-1, r.Max.X+rng.IntN(3)-1, r.Max.Y+rng.IntN(3)-1)
		r2 = r2.Intersect(image.Rect(0, 0, p.w, p.h))
		if r2.Dx() < 2 || r2.Dy() < 2 {
			return r
		}
		return r2
	}
	rf := make([]float32, RankFeatureSize)
	sf := make([]float32, SuitFeatureSize)
	rankFeatures(&q, move(rb), card.h, rf)
	suitFeatures(&q, move(sb), red, sf)
	return [2][]float32{rf, sf}
}

// PipSamples returns the suit features of the upright pips of a card (both halves), warped
// the given way round. Use it only on cards known to be number cards.
func PipSamples(img gocv.Mat, q CardQuad, rot90 bool) [][]float32 {
	var quad [4]pt
	for k := range quad {
		quad[k] = pt{float64(q.Corners[k].X), float64(q.Corners[k].Y)}
	}
	var card rgbImage
	w := warpCard(img, quad, rot90)
	err := toRGBImage(w, &card)
	w.Close()
	if err != nil {
		return nil
	}
	var patch cornerPatch
	labels := make([]int32, card.w*card.h)
	var out [][]float32
	for _, c := range []int{0, 2} {
		var idx image.Rectangle
		extractCorner(&card, c, &patch)
		if rb, sb, _, ok := cutIndex(&patch, labels[:patch.w*patch.h], card.w, card.h, false); ok {
			idx = rb.Union(sb)
		}
		pips, thr := upperPips(&card, c, &patch, labels, idx)
		if len(pips) < 2 {
			continue
		}
		for _, b := range pips {
			f := make([]float32, SuitFeatureSize)
			suitFeatures(&patch, b.box, meanRed(&patch, b.box, thr), f)
			out = append(out, f)
		}
	}
	return out
}

// SuitFeaturesOfImage computes the suit features of a suit symbol drawn on its own on a
// light background (synthetic training glyphs).
func SuitFeaturesOfImage(img gocv.Mat) ([]float32, bool) {
	p, box, ok := soleGlyph(img)
	if !ok {
		return nil, false
	}
	f := make([]float32, SuitFeatureSize)
	suitFeatures(p, box, meanRed(p, box, inkThreshold(p.ink)), f)
	return f, true
}

// soleGlyph turns an image holding one glyph on a white background into a patch and the
// glyph's box.
func soleGlyph(img gocv.Mat) (*cornerPatch, image.Rectangle, bool) {
	var im rgbImage
	if err := toRGBImage(img, &im); err != nil {
		return nil, image.Rectangle{}, false
	}
	p := &cornerPatch{w: im.w, h: im.h, ink: make([]float32, im.w*im.h), red: make([]float32, im.w*im.h)}
	for i := 0; i < im.w*im.h; i++ {
		b, g, r := float32(im.pix[3*i]), float32(im.pix[3*i+1]), float32(im.pix[3*i+2])
		db, dg, dr := (255-b)/255, (255-g)/255, (255-r)/255
		p.ink[i] = max(db, dg, dr)
		p.red[i] = (dg+db)/2 - dr
	}
	thr := inkThreshold(p.ink)
	box := image.Rectangle{Min: image.Pt(im.w, im.h), Max: image.Pt(-1, -1)}
	for y := 0; y < im.h; y++ {
		for x := 0; x < im.w; x++ {
			if p.ink[y*im.w+x] >= thr {
				box = box.Union(image.Rect(x, y, x+1, y+1))
			}
		}
	}
	if box.Dx() < 2 || box.Dy() < 4 {
		return nil, image.Rectangle{}, false
	}
	return p, box, true
}

// RankFeaturesOfImage computes the rank features of a glyph drawn on its own on a light
// background (synthetic training glyphs): the glyph is all the ink of the image, and
// cardH is the height of the card it stands for.
func RankFeaturesOfImage(img gocv.Mat, cardH int) ([]float32, bool) {
	p, box, ok := soleGlyph(img)
	if !ok {
		return nil, false
	}
	f := make([]float32, RankFeatureSize)
	rankFeatures(p, box, cardH, f)
	return f, true
}
