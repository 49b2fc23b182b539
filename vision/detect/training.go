package detect

import (
	"image"
	"math"

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
	// Red is the mean redness of the suit glyph's ink.
	Red    float64
	Rot90  bool
	Corner int
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
func GlyphSamples(img gocv.Mat, q CardQuad, jitter [4]gocv.Point2f, blur float64) []GlyphSample {
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
			thr := inkThreshold(patch.ink)
			bs := patch.blobs(thr, labels)
			rb, sb, ok := indexGlyphs(&patch, bs, card.w, card.h)
			if !ok {
				continue
			}
			s := GlyphSample{Rank: make([]float32, RankFeatureSize), Suit: make([]float32, SuitFeatureSize), Rot90: o == 1, Corner: k}
			rankFeatures(&patch, rb, card.h, s.Rank)
			s.Red = meanRed(&patch, sb, thr)
			suitFeatures(&patch, sb, s.Red, s.Suit)
			out = append(out, s)
		}
	}
	return out
}

// RankFeaturesOfImage computes the rank features of a glyph drawn on its own on a light
// background (synthetic training glyphs): the glyph is all the ink of the image, and
// cardH is the height of the card it stands for.
func RankFeaturesOfImage(img gocv.Mat, cardH int) ([]float32, bool) {
	var im rgbImage
	if err := toRGBImage(img, &im); err != nil {
		return nil, false
	}
	p := cornerPatch{w: im.w, h: im.h, ink: make([]float32, im.w*im.h), red: make([]float32, im.w*im.h)}
	for i := 0; i < im.w*im.h; i++ {
		b, g, r := im.pix[3*i], im.pix[3*i+1], im.pix[3*i+2]
		v := max(255-float32(b), 255-float32(g), 255-float32(r)) / 255
		p.ink[i] = v
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
		return nil, false
	}
	f := make([]float32, RankFeatureSize)
	rankFeatures(&p, box, cardH, f)
	return f, true
}
