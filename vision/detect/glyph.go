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
	// working buffers of blobs
	runs    []inkRun
	blobBuf []blob
	saved   []float32 // the ink, while a cut of it is tried
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
	step := 3 * sx
	// Paper colour: a high percentile per channel over the patch (ink is the minority),
	// from every other pixel of every other row.
	var hb, hg, hr [256]int
	ns := 0
	for y := 0; y < ph; y += 2 {
		k := 3 * ((y0+sy*y)*card.w + x0)
		for x := 0; x < pw; x, k = x+2, k+2*step {
			px := pix[k : k+3 : k+3]
			hb[px[0]]++
			hg[px[1]]++
			hr[px[2]]++
			ns++
		}
	}
	// Darkness relative to the paper, per channel value.
	var lb, lg, lr [256]float32
	ib := 1 / max(float32(percentile(&hb, ns, 0.7)), 40)
	ig := 1 / max(float32(percentile(&hg, ns, 0.7)), 40)
	ir := 1 / max(float32(percentile(&hr, ns, 0.7)), 40)
	for v := range lb {
		lb[v] = 1 - float32(v)*ib
		lg[v] = 1 - float32(v)*ig
		lr[v] = 1 - float32(v)*ir
	}
	var hi [64]int
	for y := 0; y < ph; y++ {
		k := 3 * ((y0+sy*y)*card.w + x0)
		ink := p.ink[y*pw : (y+1)*pw : (y+1)*pw]
		red := p.red[y*pw : (y+1)*pw : (y+1)*pw]
		for x := range ink {
			px := pix[k : k+3 : k+3]
			k += step
			db, dg, dr := lb[px[0]], lg[px[1]], lr[px[2]]
			s := min(max(db, dg, dr, 0), 1)
			ink[x] = s
			hi[min(int(s*64), 63)]++
			// Red ink darkens green and blue much more than red.
			red[x] = (dg+db)/2 - dr
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
	id   int32   // its label in the labels of the patch
}

// isRed reports whether the blob is printed in red ink, for telling the glyphs of one index
// (one ink) from their neighbours.
func (b blob) isRed() bool { return b.red > 0.15 }

// minInk is the least ink threshold: paper texture and noise must not become glyphs.
const minInk = 0.22

// inkThreshold picks the ink threshold of a patch by Otsu on the ink strength, never below
// minInk.
func inkThreshold(ink []float32) float32 {
	const bins = 64
	var h [bins]int
	for _, v := range ink {
		h[min(int(v*bins), bins-1)]++
	}
	return otsu(&h, len(ink))
}

// indexThreshold is inkThreshold over the part of an upright corner patch where the index
// is printed (a face card's picture beside it would otherwise set the threshold, and a
// thin, pale index fall apart under it).
func indexThreshold(p *cornerPatch) float32 {
	const bins = 64
	var h [bins]int
	w, hh := p.w*3/5, p.h*7/10
	for y := 0; y < hh; y++ {
		for _, v := range p.ink[y*p.w : y*p.w+w] {
			h[min(int(v*bins), bins-1)]++
		}
	}
	return otsu(&h, w*hh)
}

// cutIndex finds the rank and suit glyphs of the index of an upright corner patch, with the
// ink threshold of the index, and once more with a lower one when the glyphs fall apart.
// With beforeFrame (the reader; not build-cards: models built on these cuts read worse, see
// docs/vision.md), a corner where neither cuts an index is tried once more, before the
// frame of a court card's picture (see cutBeforeFrame). labels receives the patch's blob
// labels.
func cutIndex(p *cornerPatch, labels []int32, cardW, cardH int, beforeFrame bool) (rank, suit image.Rectangle, thr float32, ok bool) {
	t0 := indexThreshold(p)
	lower := max(0.7*t0, 0.15) // below t0: indexThreshold is minInk at least
	for _, thr = range [...]float32{t0, lower} {
		bs := p.blobs(thr, labels)
		rank, suit, ok = indexGlyphs(p, bs, labels, cardW, cardH)
		if ok && !clipped(rank) && !clipped(suit) {
			return rank, suit, thr, true
		}
	}
	if beforeFrame {
		return cutBeforeFrame(p, labels, cardW, cardH, t0, lower)
	}
	return image.Rectangle{}, image.Rectangle{}, thr, false
}

// cutBeforeFrame cuts the index of an upright corner patch whose glyphs run into the frame
// of a court card's picture (see frameLine) from what lies before the frame, at the index's
// ink threshold t0 and at the lower one. The cut must be of glyphs an index could have: a
// rank at least a sixth of the patch high and a third as wide as high, a suit at least half
// as wide as high (slivers beside a card's edge are none). The ink beyond the frame stays
// cleared when an index is cut (the index's surroundings are then the paper before the
// frame); otherwise the patch is left as it was.
func cutBeforeFrame(p *cornerPatch, labels []int32, cardW, cardH int, t0, lower float32) (rank, suit image.Rectangle, thr float32, ok bool) {
	x, ok := p.frameLine(lower)
	if !ok {
		return image.Rectangle{}, image.Rectangle{}, lower, false
	}
	p.saved = append(p.saved[:0], p.ink...)
	for y := 0; y < p.h; y++ {
		clear(p.ink[y*p.w+x : (y+1)*p.w])
	}
	for _, thr = range [...]float32{t0, lower} {
		bs := p.blobs(thr, labels)
		rank, suit, ok = indexGlyphs(p, bs, labels, cardW, cardH)
		if ok && !clipped(rank) && !clipped(suit) && 6*rank.Dy() >= p.h && 3*rank.Dx() >= rank.Dy() && 2*suit.Dx() >= suit.Dy() {
			return rank, suit, thr, true
		}
	}
	copy(p.ink, p.saved)
	return image.Rectangle{}, image.Rectangle{}, thr, false
}

// frameLine finds the frame of a court card's picture beside the index of an upright corner
// patch: a straight stroke of ink at threshold thr running down most of the patch, a quarter
// to three fifths of the way across. It returns the column where the stroke begins. When the
// print is blurred, the frame joins the index glyphs to the picture; what lies left of it
// is the index.
func (p *cornerPatch) frameLine(thr float32) (int, bool) {
	minRun := p.h * 6 / 10
	for x := p.w / 4; x < p.w*3/5; x++ {
		run, best := 0, 0
		for y := 0; y < p.h; y++ {
			if p.ink[y*p.w+x] >= thr {
				run++
				best = max(best, run)
			} else {
				run = 0
			}
		}
		if best >= minRun {
			return x, true
		}
	}
	return 0, false
}

// otsu is the Otsu threshold of a 64-bin histogram of ink strengths over n pixels, never
// below minInk.
func otsu(h *[64]int, total int) float32 {
	const bins = 64
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
	return max(float32(thr+1)/bins, minInk)
}

// blobs labels the 8-connected components of ink above thr: labels gets each pixel's blob
// (1 for the first blob returned, 0 for paper). Blobs come in the order of their first pixel
// (top to bottom, left to right). The returned slice is reused by the next call.
func (p *cornerPatch) blobs(thr float32, labels []int32) []blob {
	n := p.w * p.h
	clear(labels[:n])
	// Runs of ink along each row, joined to the runs of the row above that touch them
	// (union-find), then numbered in the order of their first run.
	runs := p.runs[:0]
	prev0, prev1 := 0, 0 // the runs of the row above
	for y := 0; y < p.h; y++ {
		row := p.ink[y*p.w : (y+1)*p.w]
		start := len(runs)
		for x := 0; x < p.w; {
			for x < p.w && row[x] < thr {
				x++
			}
			if x == p.w {
				break
			}
			x0 := x
			for x < p.w && row[x] >= thr {
				x++
			}
			i := int32(len(runs))
			runs = append(runs, inkRun{y: int32(y), x0: int32(x0), x1: int32(x), parent: i})
			// Runs above touching this one, diagonals included.
			for j := prev0; j < prev1; j++ {
				a := &runs[j]
				if a.x1 < int32(x0) {
					continue
				}
				if a.x0 > int32(x) {
					break
				}
				ra, rb := findRun(runs, int32(j)), findRun(runs, i)
				if ra != rb {
					if ra < rb {
						runs[rb].parent = ra
					} else {
						runs[ra].parent = rb
					}
				}
			}
		}
		prev0, prev1 = start, len(runs)
	}
	p.runs = runs
	out := p.blobBuf[:0]
	for i := range runs {
		r := findRun(runs, int32(i))
		if r == int32(i) {
			runs[i].id = int32(len(out))
			out = append(out, blob{box: image.Rectangle{Min: image.Pt(p.w, p.h), Max: image.Pt(-1, -1)}, id: int32(len(out) + 1)})
		}
		b := &out[runs[r].id]
		ru := &runs[i]
		b.box.Min.X, b.box.Min.Y = min(b.box.Min.X, int(ru.x0)), min(b.box.Min.Y, int(ru.y))
		b.box.Max.X, b.box.Max.Y = max(b.box.Max.X, int(ru.x1)), max(b.box.Max.Y, int(ru.y)+1)
		b.area += int(ru.x1 - ru.x0)
		base := int(ru.y) * p.w
		red := float32(0)
		for x := ru.x0; x < ru.x1; x++ {
			labels[base+int(x)] = b.id
			red += p.red[base+int(x)]
		}
		b.red += float64(red)
	}
	for i := range out {
		out[i].red /= float64(out[i].area)
	}
	p.blobBuf = out
	return out
}

// inkRun is a run of ink pixels on one row of a patch, x0 to x1 exclusive, with its parent
// in the union-find of touching runs (and, for a root, its blob's index).
type inkRun struct {
	y, x0, x1, parent, id int32
}

func findRun(runs []inkRun, i int32) int32 {
	for runs[i].parent != i {
		runs[i].parent = runs[runs[i].parent].parent
		i = runs[i].parent
	}
	return i
}

// indexGlyphs finds the rank and the suit glyph of the index in an upright corner patch: the
// rank is the top row of ink near the corner, the suit the next blob below it. When no such
// pair is found, an index whose rank and suit ran together (a small or blurred card) is cut
// apart at its narrowest row. labels are the patch's blob labels (see blobs).
func indexGlyphs(p *cornerPatch, bs []blob, labels []int32, cardW, cardH int) (rank, suit image.Rectangle, ok bool) {
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
			sameInk := b.isRed() == first.isRed()
			if hr > 0.7 && hr < 1.4 && float64(ov) > 0.7*float64(first.box.Dy()) && gap <= first.box.Dy()/3 && sameInk {
				rank = rank.Union(b.box)
				used[i] = true
			}
		}
		// Suit: the blob just below the rank and most nearly under it (a pip of the body may
		// start as high, further out).
		best, bestScore := -1, math.Inf(1)
		rcx := float64(rank.Min.X+rank.Max.X) / 2
		for i, b := range cand {
			if used[i] || b.box.Min.Y < rank.Max.Y-1 || b.box.Dy() < minH/2 {
				continue
			}
			// A piece of the rank glyph or a speck is no suit.
			if 3*b.box.Dy() < rank.Dy() || 4*b.box.Dx() < rank.Dx() {
				continue
			}
			if b.box.Min.Y-rank.Max.Y > rank.Dy() {
				break
			}
			cx := float64(b.box.Min.X+b.box.Max.X) / 2
			if cx < float64(rank.Min.X)-float64(rank.Dx())/2 || cx > float64(rank.Max.X)+float64(rank.Dx())/2 {
				continue
			}
			score := math.Abs(cx-rcx)/float64(rank.Dx()) + float64(b.box.Min.Y-rank.Max.Y)/float64(rank.Dy())
			if score < bestScore {
				best, bestScore = i, score
			}
		}
		if best >= 0 {
			used[best] = true
			suit := cand[best].box
			if c := suitUnder(cand, used, rank, cand[best], maxH); c >= 0 {
				// The "suit" was the lower piece of the rank glyph.
				rank, suit, used[c] = rank.Union(suit), cand[c].box, true
			}
			return rankPieces(cand, used, rank, suit, first.isRed(), cardW), suit, true
		}
	}
	// Rank and suit run together: a tall blob near the corner with a narrow neck.
	for _, b := range cand {
		if b.box.Min.Y > int(0.2*float64(cardH)) {
			break
		}
		if b.box.Dy() < 2*minH || b.box.Max.X > int(0.3*float64(cardW)) || (b.box.Min.X == 0 && b.box.Min.Y == 0) {
			continue
		}
		if float64(b.box.Dy()) < 1.5*float64(b.box.Dx()) {
			continue
		}
		if r, s, ok := splitIndex(p, b, labels); ok && r.Dy() >= minH && s.Dy() >= minH/2 {
			return r, s, true
		}
	}
	return image.Rectangle{}, image.Rectangle{}, false
}

// suitUnder finds the suit of an index whose thin-stroked rank broke into an upper and a
// lower piece (the apex and the legs of an A), so that the lower piece was taken for the
// suit: the upper piece is then no taller than that "suit", and the real suit lies just
// under it, bigger, in the same column and ink. It returns the real suit's index in cand,
// or -1.
func suitUnder(cand []blob, used map[int]bool, rank image.Rectangle, suit blob, maxH int) int {
	if rank.Dy() > suit.box.Dy() {
		return -1
	}
	glyph := rank.Union(suit.box)
	for i, b := range cand {
		if used[i] || b.box.Min.Y < suit.box.Max.Y-1 {
			continue
		}
		if b.box.Min.Y-suit.box.Max.Y > max(2, glyph.Dy()/4) {
			continue
		}
		cx := (b.box.Min.X + b.box.Max.X) / 2
		if cx < glyph.Min.X-glyph.Dx()/2 || cx > glyph.Max.X+glyph.Dx()/2 || b.isRed() != suit.isRed() {
			continue
		}
		if b.area >= 2*suit.area && b.box.Dy() <= glyph.Dy() && glyph.Dy() <= maxH && b.box.Dx() <= 2*glyph.Dx() {
			return i
		}
	}
	return -1
}

// rankPieces adds to the rank box the pieces of the rank glyph that the threshold broke off:
// the thin strokes of a small or blurred index fall apart (the top stroke of a 6, an arm of
// a K), and a box around one piece reads as another rank. A piece lies in the rank's column,
// wholly above the suit, touching or nearly touching the rank box, in the same ink; the
// grown box must still be the size of a glyph.
func rankPieces(cand []blob, used map[int]bool, rank, suit image.Rectangle, red bool, cardW int) image.Rectangle {
	maxW := int(0.3 * float64(cardW))
	for grown := true; grown; {
		grown = false
		for i, b := range cand {
			if used[i] || b.box.Max.Y > suit.Min.Y+1 || b.isRed() != red {
				continue
			}
			cx := (b.box.Min.X + b.box.Max.X) / 2
			reach := max(2, rank.Dx()/3)
			if cx < rank.Min.X-reach || cx > rank.Max.X+reach {
				continue
			}
			gapY := max(b.box.Min.Y-rank.Max.Y, rank.Min.Y-b.box.Max.Y)
			gapX := max(b.box.Min.X-rank.Max.X, rank.Min.X-b.box.Max.X)
			if gapY > max(1, rank.Dy()/5) || gapX > max(1, rank.Dx()/4) {
				continue
			}
			u := rank.Union(b.box)
			if u.Max.X > maxW || u.Dy() > 2*rank.Dy() || u.Dx() > 2*max(rank.Dx(), suit.Dx()) {
				continue
			}
			rank, used[i], grown = u, true, true
		}
	}
	return rank
}

// splitIndex cuts a blob holding a rank over its suit at its faintest row between two fifths
// and seven tenths of its height (a blurred gap is fainter than the strokes of a glyph), when
// that row holds much less ink than the rows of both parts.
func splitIndex(p *cornerPatch, b blob, labels []int32) (rank, suit image.Rectangle, ok bool) {
	h := b.box.Dy()
	var rowsBuf [128]float32
	rows := rowsBuf[:0]
	if h > len(rowsBuf) {
		rows = make([]float32, 0, h)
	}
	for y := b.box.Min.Y; y < b.box.Max.Y; y++ {
		n := float32(0)
		for x := b.box.Min.X; x < b.box.Max.X; x++ {
			if i := y*p.w + x; labels[i] == b.id {
				n += p.ink[i]
			}
		}
		rows = append(rows, n)
	}
	cut, least := -1, float32(math.MaxFloat32)
	for y := 2 * h / 5; y <= 7*h/10; y++ {
		if rows[y] < least {
			cut, least = y, rows[y]
		}
	}
	if cut < 0 {
		return image.Rectangle{}, image.Rectangle{}, false
	}
	top, bottom := float32(0), float32(0)
	for y, n := range rows {
		if y < cut {
			top = max(top, n)
		} else if y > cut {
			bottom = max(bottom, n)
		}
	}
	if least > 0.5*min(top, bottom) {
		return image.Rectangle{}, image.Rectangle{}, false
	}
	box := func(y0, y1 int) image.Rectangle {
		r := image.Rectangle{Min: image.Pt(p.w, p.h), Max: image.Pt(-1, -1)}
		for y := y0; y < y1; y++ {
			for x := b.box.Min.X; x < b.box.Max.X; x++ {
				if labels[y*p.w+x] == b.id {
					r.Min.X, r.Min.Y = min(r.Min.X, x), min(r.Min.Y, y)
					r.Max.X, r.Max.Y = max(r.Max.X, x+1), max(r.Max.Y, y+1)
				}
			}
		}
		return r
	}
	rank = box(b.box.Min.Y, b.box.Min.Y+cut)
	suit = box(b.box.Min.Y+cut+1, b.box.Max.Y)
	if rank.Empty() || suit.Empty() {
		return image.Rectangle{}, image.Rectangle{}, false
	}
	return rank, suit, true
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
