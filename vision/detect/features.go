package detect

import (
	"image"
)

// Feature vectors of the index glyph classifiers. The model manifests name these, and the
// loader refuses a model built for other features.
const (
	rankFeatW, rankFeatH = 14, 20
	suitFeatW, suitFeatH = 12, 12
	// RankFeatures names the rank classifier's input.
	RankFeatures = "rank-glyph-ink-14x20+aspect+height v1"
	// SuitFeatures names the suit classifier's input.
	SuitFeatures = "suit-glyph-ink-12x12+aspect+redness v1"
	// RankFeatureSize and SuitFeatureSize are the lengths of the two feature vectors.
	RankFeatureSize = rankFeatW*rankFeatH + 2
	SuitFeatureSize = suitFeatW*suitFeatH + 2
)

// resampleInk area-samples the ink inside box (padded by one pixel) to a w×h raster,
// stretched to fill it, and scales it so the strongest cell is 1.
func resampleInk(p *cornerPatch, box image.Rectangle, w, h int, dst []float32) {
	box = image.Rect(box.Min.X-1, box.Min.Y-1, box.Max.X+1, box.Max.Y+1).Intersect(image.Rect(0, 0, p.w, p.h))
	bw, bh := float64(box.Dx()), float64(box.Dy())
	mx := float32(1e-3)
	for cy := 0; cy < h; cy++ {
		y0 := float64(box.Min.Y) + bh*float64(cy)/float64(h)
		y1 := float64(box.Min.Y) + bh*float64(cy+1)/float64(h)
		for cx := 0; cx < w; cx++ {
			x0 := float64(box.Min.X) + bw*float64(cx)/float64(w)
			x1 := float64(box.Min.X) + bw*float64(cx+1)/float64(w)
			v := areaMean(p, x0, y0, x1, y1)
			dst[cy*w+cx] = v
			mx = max(mx, v)
		}
	}
	for i := 0; i < w*h; i++ {
		dst[i] = min(dst[i]/mx, 1)
	}
}

// areaMean averages the ink over a real-valued rectangle, weighting partly covered pixels.
func areaMean(p *cornerPatch, x0, y0, x1, y1 float64) float32 {
	sum, wsum := 0.0, 0.0
	for y := int(y0); y < p.h && float64(y) < y1; y++ {
		wy := min(float64(y+1), y1) - max(float64(y), y0)
		if wy <= 0 {
			continue
		}
		for x := int(x0); x < p.w && float64(x) < x1; x++ {
			wx := min(float64(x+1), x1) - max(float64(x), x0)
			if wx <= 0 {
				continue
			}
			sum += wx * wy * float64(p.ink[y*p.w+x])
			wsum += wx * wy
		}
	}
	if wsum == 0 {
		return 0
	}
	return float32(sum / wsum)
}

// rankFeatures fills dst (RankFeatureSize) for the rank glyph in box.
func rankFeatures(p *cornerPatch, box image.Rectangle, cardH int, dst []float32) {
	resampleInk(p, box, rankFeatW, rankFeatH, dst)
	n := rankFeatW * rankFeatH
	dst[n] = float32(box.Dx()) / float32(box.Dy()) / 2
	dst[n+1] = float32(box.Dy()) / float32(cardH) * 5
}

// suitFeatures fills dst (SuitFeatureSize) for the suit glyph in box with the given
// mean redness.
func suitFeatures(p *cornerPatch, box image.Rectangle, red float64, dst []float32) {
	resampleInk(p, box, suitFeatW, suitFeatH, dst)
	n := suitFeatW * suitFeatH
	dst[n] = float32(box.Dx()) / float32(box.Dy()) / 2
	dst[n+1] = float32(max(-1, min(1, red*3)))
}

// meanRed is the mean redness of the ink pixels of a box.
func meanRed(p *cornerPatch, box image.Rectangle, thr float32) float64 {
	red, _, n := inkSums(p, box, thr)
	if n == 0 {
		return 0
	}
	return red / float64(n)
}

// redShare is the redness of the ink pixels of a box per unit of ink: about 0 for black ink
// and well above for red, however pale or thin the strokes (meanRed falls with the ink's
// strength, so a thin red letter seen through blur reads little redder than black).
func redShare(p *cornerPatch, box image.Rectangle, thr float32) float64 {
	red, ink, _ := inkSums(p, box, thr)
	if ink == 0 {
		return 0
	}
	return red / ink
}

// inkSums sums the redness and the ink of the pixels of a box with ink thr or more, and
// counts them.
func inkSums(p *cornerPatch, box image.Rectangle, thr float32) (red, ink float64, n int) {
	for y := box.Min.Y; y < box.Max.Y; y++ {
		for x := box.Min.X; x < box.Max.X; x++ {
			i := y*p.w + x
			if p.ink[i] >= thr {
				red += float64(p.red[i])
				ink += float64(p.ink[i])
				n++
			}
		}
	}
	return red, ink, n
}

// sameInk reports whether the rank and suit glyphs in boxes rb and sb are printed in the
// same ink: an index is all black or all red. Only one clearly black and the other clearly
// red differ.
func sameInk(p *cornerPatch, rb, sb image.Rectangle, thr float32) bool {
	a, b := redShare(p, rb, thr), redShare(p, sb, thr)
	return min(a, b) >= blackShare || max(a, b) <= redShareMin
}

const (
	// blackShare is the redShare below which ink is black, redShareMin the one above which
	// it is red.
	blackShare  = 0.1
	redShareMin = 0.35
)
