package detect

import (
	"image"
	"math"
	"sort"
)

// rgbImage is a small interleaved BGR image owned by Go (a warped card).
type rgbImage struct {
	w, h int
	pix  []byte // BGR, row-major
}

func (im *rgbImage) at(x, y int) (b, g, r byte) {
	i := 3 * (y*im.w + x)
	return im.pix[i], im.pix[i+1], im.pix[i+2]
}

// Index corners of a canonical card, in the order the reader tries them. Corners 0 and 2 hold
// the index on a card seen the right way round; 1 and 3 on a card seen in a mirror (or in a
// horizontally flipped picture).
const numCorners = 4

// Geometry of the corner region, as fractions of the canonical card.
const (
	cornerFracW = 0.32
	cornerFracH = 0.42
)

// cornerPatch is one corner region of a canonical card, turned so the index reads upright.
type cornerPatch struct {
	w, h int
	ink  []float32 // ink strength 0..1: how much darker than the paper, in the darkest channel
	red  []float32 // redness: positive where the ink is red
}

// extractCorner copies corner c of the card into an upright patch and computes ink strength
// relative to the paper colour of that corner.
func extractCorner(card *rgbImage, c int, p *cornerPatch) {
	extractRegion(card, c, cornerFracW, cornerFracH, p)
}

// extractRegion is extractCorner for a region of any size from the corner (1, 1 for the
// whole card).
func extractRegion(card *rgbImage, c int, fracW, fracH float64, p *cornerPatch) {
	pw := int(math.Round(fracW * float64(card.w)))
	ph := int(math.Round(fracH * float64(card.h)))
	p.w, p.h = pw, ph
	n := pw * ph
	if cap(p.ink) < n {
		p.ink = make([]float32, n)
		p.red = make([]float32, n)
	}
	p.ink, p.red = p.ink[:n], p.red[:n]
	// Patch (x, y) is card (x0 + sx·x, y0 + sy·y).
	x0, y0, sx, sy := 0, 0, 1, 1
	switch c {
	case 1:
		x0, sx = card.w-1, -1
	case 2:
		x0, sx, y0, sy = card.w-1, -1, card.h-1, -1
	case 3:
		y0, sy = card.h-1, -1
	}
	pix := card.pix
	// Paper colour: a high percentile per channel over the patch (ink is the minority).
	var hb, hg, hr [256]int
	for y := 0; y < ph; y++ {
		row := (y0 + sy*y) * card.w
		for x := 0; x < pw; x++ {
			k := 3 * (row + x0 + sx*x)
			hb[pix[k]]++
			hg[pix[k+1]]++
			hr[pix[k+2]]++
		}
	}
	pb := max(float32(percentile(&hb, n, 0.7)), 40)
	pg := max(float32(percentile(&hg, n, 0.7)), 40)
	pr := max(float32(percentile(&hr, n, 0.7)), 40)
	ib, ig, ir := 1/pb, 1/pg, 1/pr
	var hi [64]int
	for y := 0; y < ph; y++ {
		row := (y0 + sy*y) * card.w
		for x := 0; x < pw; x++ {
			k := 3 * (row + x0 + sx*x)
			db := 1 - float32(pix[k])*ib
			dg := 1 - float32(pix[k+1])*ig
			dr := 1 - float32(pix[k+2])*ir
			s := max(db, dg, dr, 0)
			i := y*pw + x
			s = min(s, 1)
			p.ink[i] = s
			hi[min(int(s*64), 63)]++
			// Red ink darkens green and blue much more than red.
			p.red[i] = (dg+db)/2 - dr
		}
	}
	// Washed-out pictures (a webcam against the light) print pale ink: stretch the ink so the
	// darkest glyph pixels are as strong as on a good picture, by at most 2.5 times.
	acc, k := 0, n/100
	p99 := float32(1)
	for v := 63; v >= 0; v-- {
		acc += hi[v]
		if acc > k {
			p99 = float32(v+1) / 64
			break
		}
	}
	if gain := min(0.6/p99, 2.5); gain > 1 {
		for i := range p.ink {
			p.ink[i] = min(p.ink[i]*gain, 1)
			p.red[i] *= gain
		}
	}
}

// cornerXY maps patch coordinates of corner c to card coordinates.
func cornerXY(card *rgbImage, c, x, y int) (int, int) {
	switch c {
	case 1: // top right, mirrored
		return card.w - 1 - x, y
	case 2: // bottom right, upside down
		return card.w - 1 - x, card.h - 1 - y
	case 3: // bottom left, mirrored upside down
		return x, card.h - 1 - y
	}
	return x, y
}

func percentile(h *[256]int, n int, q float64) int {
	k := int(q * float64(n))
	acc := 0
	for v := 0; v < 256; v++ {
		acc += h[v]
		if acc > k {
			return v
		}
	}
	return 255
}

// blob is a connected component of ink in a corner patch.
type blob struct {
	box  image.Rectangle
	area int
	red  float64 // mean redness
}

// inkThreshold picks the ink threshold of a patch by Otsu on the ink strength, never below
// minInk so that paper texture and noise do not become glyphs.
func inkThreshold(ink []float32) float32 {
	const bins = 64
	var h [bins]int
	for _, v := range ink {
		h[min(int(v*bins), bins-1)]++
	}
	total := len(ink)
	sum := 0.0
	for i := 0; i < bins; i++ {
		sum += float64(i * h[i])
	}
	sumB, wB, best, thr := 0.0, 0, -1.0, 0
	for i := 0; i < bins; i++ {
		wB += h[i]
		if wB == 0 {
			continue
		}
		wF := total - wB
		if wF == 0 {
			break
		}
		sumB += float64(i * h[i])
		mB := sumB / float64(wB)
		mF := (sum - sumB) / float64(wF)
		v := float64(wB) * float64(wF) * (mB - mF) * (mB - mF)
		if v > best {
			best, thr = v, i
		}
	}
	const minInk = 0.22
	return max(float32(thr+1)/bins, minInk)
}

// blobs labels the 8-connected components of ink above thr.
func (p *cornerPatch) blobs(thr float32, labels []int32) []blob {
	n := p.w * p.h
	for i := 0; i < n; i++ {
		labels[i] = 0
	}
	var out []blob
	stack := make([]int, 0, 256)
	next := int32(0)
	for i := 0; i < n; i++ {
		if labels[i] != 0 || p.ink[i] < thr {
			continue
		}
		next++
		labels[i] = next
		stack = append(stack[:0], i)
		b := blob{box: image.Rectangle{Min: image.Pt(p.w, p.h), Max: image.Pt(-1, -1)}}
		redSum := 0.0
		for len(stack) > 0 {
			j := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			x, y := j%p.w, j/p.w
			b.area++
			redSum += float64(p.red[j])
			b.box.Min.X, b.box.Min.Y = min(b.box.Min.X, x), min(b.box.Min.Y, y)
			b.box.Max.X, b.box.Max.Y = max(b.box.Max.X, x+1), max(b.box.Max.Y, y+1)
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					xx, yy := x+dx, y+dy
					if xx < 0 || yy < 0 || xx >= p.w || yy >= p.h {
						continue
					}
					k := yy*p.w + xx
					if labels[k] == 0 && p.ink[k] >= thr {
						labels[k] = next
						stack = append(stack, k)
					}
				}
			}
		}
		b.red = redSum / float64(b.area)
		out = append(out, b)
	}
	return out
}

// indexGlyphs finds the rank and the suit glyph of the index in an upright corner patch: the
// rank is the top row of ink near the corner, the suit the next blob below it.
func indexGlyphs(p *cornerPatch, bs []blob, cardW, cardH int) (rank, suit image.Rectangle, ok bool) {
	minH := int(0.03 * float64(cardH))
	maxH := int(0.3 * float64(cardH))
	maxW := int(0.28 * float64(cardW))
	var cand []blob
	for _, b := range bs {
		if b.box.Dy() > maxH || b.box.Dx() > maxW || b.area < 6 {
			continue
		}
		// Ink along the outer card edges is background or the card's own border.
		if (b.box.Min.X == 0 && b.box.Dy() > 3*b.box.Dx()) || (b.box.Min.Y == 0 && b.box.Dx() > 3*b.box.Dy()) {
			continue
		}
		cand = append(cand, b)
	}
	sort.Slice(cand, func(i, j int) bool { return cand[i].box.Min.Y < cand[j].box.Min.Y })
	// Rank: the topmost blob of glyph height with a suit under it, plus its neighbours on
	// the same line ("10").
	for ri, first := range cand {
		if first.box.Dy() < minH || first.box.Max.X > int(0.3*float64(cardW)) {
			continue
		}
		if first.box.Min.Y > int(0.2*float64(cardH)) {
			break
		}
		// The background seen through a rounded card corner.
		if first.box.Min.X == 0 && first.box.Min.Y == 0 {
			continue
		}
		rank = first.box
		used := map[int]bool{ri: true}
		for i, b := range cand {
			if i == ri {
				continue
			}
			hr := float64(b.box.Dy()) / float64(first.box.Dy())
			ov := min(first.box.Max.Y, b.box.Max.Y) - max(first.box.Min.Y, b.box.Min.Y)
			gap := max(b.box.Min.X-rank.Max.X, rank.Min.X-b.box.Max.X)
			sameInk := (b.red > 0.15) == (first.red > 0.15)
			if hr > 0.7 && hr < 1.4 && float64(ov) > 0.7*float64(first.box.Dy()) && gap <= first.box.Dy()/3 && sameInk {
				rank = rank.Union(b.box)
				used[i] = true
			}
		}
		// Suit: the first blob below the rank overlapping it horizontally.
		for i, b := range cand {
			if used[i] || b.box.Min.Y < rank.Max.Y-1 || b.box.Dy() < minH/2 {
				continue
			}
			if b.box.Min.Y-rank.Max.Y > rank.Dy() {
				break
			}
			cx := (b.box.Min.X + b.box.Max.X) / 2
			if cx < rank.Min.X-rank.Dx()/2 || cx > rank.Max.X+rank.Dx()/2 {
				continue
			}
			return rank, b.box, true
		}
	}
	return image.Rectangle{}, image.Rectangle{}, false
}

// clipped reports whether a glyph box touches the outer edges of the card, where the warp
// may have cut it: such a glyph is not read.
func clipped(r image.Rectangle) bool { return r.Min.X == 0 || r.Min.Y == 0 }

// upperPips returns the pips of the upper half of the card as seen from corner c (0: as
// warped, 2: turned half a turn), so that they stand upright like the index suit. index is
// the region of that corner's index glyphs (empty when none was found), which is left out.
// Only blobs of similar size and the same ink colour are returned; face cards, whose
// pictures give blobs of every size and colour, mostly return none.
func upperPips(card *rgbImage, c int, p *cornerPatch, labels []int32, index image.Rectangle) ([]blob, float32) {
	extractRegion(card, c, 1, 0.5, p)
	thr := inkThreshold(p.ink)
	n := p.w * p.h
	if len(labels) < n {
		return nil, thr
	}
	bs := p.blobs(thr, labels[:n])
	W, H := float64(card.w), float64(card.h)
	if index.Empty() {
		index = image.Rect(0, 0, int(0.22*W), int(0.3*H))
	}
	var cand []blob
	for _, b := range bs {
		h, w := float64(b.box.Dy()), float64(b.box.Dx())
		if h < 0.04*H || h > 0.2*H || w > 0.3*W || w < 0.03*W {
			continue
		}
		if b.box.Min.X == 0 || b.box.Min.Y == 0 || b.box.Max.X >= p.w {
			continue
		}
		cx, cy := float64(b.box.Min.X+b.box.Max.X)/2, float64(b.box.Min.Y+b.box.Max.Y)/2
		if cy > 0.45*H || cx < 0.1*W || cx > 0.9*W {
			continue
		}
		if int(cx) < index.Max.X+int(0.02*W) && int(cy) < index.Max.Y+int(0.02*H) {
			continue
		}
		// The mirror of the index corner (top right) holds no pip either.
		if int(cx) > p.w-index.Max.X-int(0.02*W) && int(cy) < index.Max.Y+int(0.02*H) {
			continue
		}
		// Pips are compact: a good part of their box is ink.
		if float64(b.area) < 0.35*w*h {
			continue
		}
		cand = append(cand, b)
	}
	if len(cand) == 0 {
		return nil, thr
	}
	areas := make([]int, len(cand))
	for i, b := range cand {
		areas[i] = b.area
	}
	sort.Ints(areas)
	med := float64(areas[len(areas)/2])
	var out []blob
	red := 0
	for _, b := range cand {
		if a := float64(b.area); a < 0.6*med || a > 1.6*med {
			continue
		}
		if b.red > 0.1 {
			red++
		}
		out = append(out, b)
	}
	// One ink colour only.
	if red != 0 && red != len(out) {
		return nil, thr
	}
	return out, thr
}
