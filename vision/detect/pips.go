package detect

import (
	"image"
	"math"
	"sort"
)

// pipSet is what the body of a card shows between its index corners.
type pipSet struct {
	// n is the number of pips of a number card's layout (1 for an ace's single pip), 0 when
	// the body is no pip layout (a face card's picture, a card back, glare).
	n     int
	boxes []image.Rectangle // in card pixels
	red   bool
	// standard: the pips stand as on every deck's number card of that count (see
	// standardLayout), which makes the count a reading of the rank in its own right.
	standard bool
}

// findPips counts the pips of the warped card. exclude are the card-pixel regions of the
// index corners. p and labels are scratch buffers.
func findPips(card *rgbImage, p *cornerPatch, labels []int32, exclude []image.Rectangle) pipSet {
	extractRegion(card, 0, 1, 1, p)
	n := p.w * p.h
	if len(labels) < n {
		return pipSet{}
	}
	thr := inkThreshold(p.ink)
	bs := p.blobs(thr, labels[:n])
	W, H := float64(card.w), float64(card.h)
	var cand, big []blob
	for _, b := range bs {
		h, w := float64(b.box.Dy()), float64(b.box.Dx())
		if h < 0.04*H || w < 0.04*W {
			continue
		}
		if b.box.Min.X == 0 || b.box.Min.Y == 0 || b.box.Max.X >= p.w || b.box.Max.Y >= p.h {
			continue
		}
		skip := false
		ctr := image.Pt((b.box.Min.X+b.box.Max.X)/2, (b.box.Min.Y+b.box.Max.Y)/2)
		for _, e := range exclude {
			if ctr.In(e) {
				skip = true
				break
			}
		}
		if skip {
			continue
		}
		if h > 0.22*H || w > 0.35*W || float64(b.area) < 0.35*w*h {
			big = append(big, b)
			continue
		}
		cand = append(cand, b)
	}
	// An ace: one large pip in the middle and nothing else.
	if len(cand) <= 1 && len(big) == 1 {
		b := big[0]
		cx, cy := float64(b.box.Min.X+b.box.Max.X)/2, float64(b.box.Min.Y+b.box.Max.Y)/2
		if math.Abs(cx-W/2) < 0.1*W && math.Abs(cy-H/2) < 0.12*H && float64(b.box.Dy()) < 0.5*H {
			return pipSet{n: 1, boxes: []image.Rectangle{b.box}, red: b.red > redInk}
		}
	}
	if len(big) > 0 || len(cand) == 0 {
		return pipSet{}
	}
	areas := make([]float64, len(cand))
	for i, b := range cand {
		areas[i] = float64(b.area)
	}
	sort.Float64s(areas)
	med := areas[len(areas)/2]
	var pips []blob
	for _, b := range cand {
		if a := float64(b.area); a >= 0.55*med && a <= 1.8*med {
			pips = append(pips, b)
		}
	}
	// Stray small blobs are allowed (print, dirt), larger ones mean a picture.
	if len(cand)-len(pips) > 2 || len(pips) > 10 {
		return pipSet{}
	}
	mean, sq := 0.0, 0.0
	red := 0
	for _, b := range pips {
		mean += float64(b.area)
		sq += float64(b.area) * float64(b.area)
		if b.red > redInk {
			red++
		}
	}
	k := float64(len(pips))
	mean /= k
	if cv := math.Sqrt(math.Max(0, sq/k-mean*mean)) / mean; cv > 0.35 {
		return pipSet{}
	}
	if red != 0 && red != len(pips) {
		return pipSet{}
	}
	if !pipColumns(pips, W) {
		return pipSet{}
	}
	out := pipSet{n: len(pips), red: red > 0}
	for _, b := range pips {
		out.boxes = append(out.boxes, b.box)
	}
	out.standard = standardLayout(out.boxes, W, H)
	if out.n == 1 {
		// A lone small pip is an ace only in the middle of the card.
		b := pips[0].box
		cx, cy := float64(b.Min.X+b.Max.X)/2, float64(b.Min.Y+b.Max.Y)/2
		if math.Abs(cx-W/2) > 0.1*W || math.Abs(cy-H/2) > 0.12*H {
			return pipSet{}
		}
	}
	return out
}

// pipColumns checks that the pips stand in at most three columns, the outer two placed
// symmetrically about the middle one, as on every number card.
func pipColumns(pips []blob, W float64) bool {
	var cols []float64
	tol := 0.08 * W
	for _, b := range pips {
		cx := float64(b.box.Min.X+b.box.Max.X) / 2
		found := false
		for _, c := range cols {
			if math.Abs(c-cx) < tol {
				found = true
				break
			}
		}
		if !found {
			cols = append(cols, cx)
		}
	}
	if len(cols) > 3 {
		return false
	}
	sort.Float64s(cols)
	mid := W / 2
	switch len(cols) {
	case 1:
		return math.Abs(cols[0]-mid) < 0.1*W
	case 2:
		return math.Abs(cols[0]+cols[1]-W) < 0.12*W
	default:
		return math.Abs(cols[1]-mid) < 0.1*W && math.Abs(cols[0]+cols[2]-W) < 0.12*W
	}
}

// standardLayout reports whether pips (two or more) stand as every deck prints their count.
// In each outer column and in the middle one there are 0 and 2 pips for a two, 0 and 3 for a
// three, 2 and 0 for a four, 2 and 1 for a five, 3 and 0 for a six, 3 and 1 for a seven, 3
// and 2 for an eight, 4 and 1 for a nine, 4 and 2 for a ten; the middle pip of a five and a
// nine is in the centre, that of a seven is not, and the two of an eight and a ten stand
// symmetrically about the centre. A ten that lost a middle pip (hidden, or merged into
// another) is then no nine, nor a six that lost one no five. (A seven, a five, a three and an
// eight that lost their extra middle pip still look like a six, a four, a two and a seven:
// see layoutLosesTo.) The columns are told apart by where the pips stand, not by fixed
// fractions of the card: some decks print their pips close together, inside a frame.
func standardLayout(pips []image.Rectangle, W, H float64) bool {
	outer := [...]int{2: 0, 0, 2, 2, 3, 3, 3, 4, 4}
	middle := [...]int{2: 2, 3, 0, 1, 0, 1, 2, 1, 2}
	n := len(pips)
	if n < 2 || n > 10 {
		return false
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, b := range pips {
		cx := float64(b.Min.X+b.Max.X) / 2
		lo, hi = math.Min(lo, cx), math.Max(hi, cx)
	}
	// One column (a two, a three), or outer columns a quarter of their spread out from
	// their middle.
	c, t := (lo+hi)/2, math.Max((hi-lo)/4, 0.075*W)
	var left, right int
	var mids []float64
	for _, b := range pips {
		switch cx := float64(b.Min.X+b.Max.X) / 2; {
		case cx < c-t:
			left++
		case cx > c+t:
			right++
		default:
			mids = append(mids, float64(b.Min.Y+b.Max.Y)/2/H)
		}
	}
	if left != outer[n] || right != outer[n] || len(mids) != middle[n] {
		return false
	}
	switch n {
	case 5, 9:
		return math.Abs(mids[0]-0.5) < 0.08
	case 7:
		return math.Abs(mids[0]-0.5) >= 0.08
	case 8, 10:
		return math.Abs(mids[0]+mids[1]-1) < 0.1 && math.Abs(mids[0]-mids[1]) > 0.2
	}
	return true
}

// layoutLosesTo is the count whose standard layout, less one middle pip, is the standard
// layout of n pips (0 for none): a three's is a two's, a five's a four's, a seven's a six's,
// an eight's a seven's.
func layoutLosesTo(n int) int {
	switch n {
	case 2, 4, 6, 7:
		return n + 1
	}
	return 0
}

// cornerBox maps a box of corner c's upright patch to card pixels.
func cornerBox(card *rgbImage, c int, r image.Rectangle) image.Rectangle {
	x0, y0 := cornerXY(card, c, r.Min.X, r.Min.Y)
	x1, y1 := cornerXY(card, c, r.Max.X-1, r.Max.Y-1)
	return image.Rect(min(x0, x1), min(y0, y1), max(x0, x1)+1, max(y0, y1)+1)
}

// marginScore is the share of the card's outer band (between 1.5% and 4% of the card's
// width in from its edges) that is plain paper: near the band's median colour. The margin of
// a card is plain; a quad cut out of cloth, wood or a picture is not.
func marginScore(card *rgbImage) float64 {
	d0 := max(1, int(0.015*float64(card.w)))
	d1 := max(d0+1, int(0.04*float64(card.w)))
	var hb, hg, hr [256]int
	n := 0
	visit := func(f func(b, g, r byte)) {
		for y := d0; y < card.h-d0; y++ {
			for x := d0; x < card.w-d0; x++ {
				if x >= d1 && x < card.w-d1 && y >= d1 && y < card.h-d1 {
					continue
				}
				b, g, r := card.at(x, y)
				f(b, g, r)
			}
		}
	}
	visit(func(b, g, r byte) { hb[b]++; hg[g]++; hr[r]++; n++ })
	if n == 0 {
		return 0
	}
	mb, mg, mr := percentile(&hb, n, 0.5), percentile(&hg, n, 0.5), percentile(&hr, n, 0.5)
	tol := 0.15 * float64(max(mb, mg, mr, 40))
	plain := 0
	visit(func(b, g, r byte) {
		d := max(math.Abs(float64(b)-float64(mb)), math.Abs(float64(g)-float64(mg)), math.Abs(float64(r)-float64(mr)))
		if d <= tol {
			plain++
		}
	})
	return float64(plain) / float64(n)
}

// backScore is the confidence (0 for none) that a warped card with no index in any corner
// shows its back: card backs are printed all over with a fine pattern that looks the same
// turned half a turn, inside a plain margin. A blank paper, a book cover or a patch of cloth
// fails one of the three.
func backScore(card *rgbImage) float64 {
	if marginScore(card) < 0.6 {
		return 0
	}
	// Grey levels, and the pattern inside the margin.
	x0, x1 := card.w/8, card.w-card.w/8
	y0, y1 := card.h/8, card.h-card.h/8
	gray := func(x, y int) float64 {
		b, g, r := card.at(x, y)
		return 0.114*float64(b) + 0.587*float64(g) + 0.299*float64(r)
	}
	var sum, sq, n float64
	for y := y0; y < y1; y++ {
		for x := x0; x < x1; x++ {
			v := gray(x, y)
			sum += v
			sq += v * v
			n++
		}
	}
	mean := sum / n
	std := math.Sqrt(math.Max(0, sq/n-mean*mean))
	if std < 18 {
		return 0 // plain: no pattern
	}
	// Printed all over: a back is mostly ink, a number card mostly paper.
	var paper [256]int
	np := 0
	for y := 0; y < card.h; y += 2 {
		for x := 0; x < card.w; x += 2 {
			if x < x0 || x >= x1 || y < y0 || y >= y1 {
				paper[int(gray(x, y))]++
				np++
			}
		}
	}
	ref := float64(percentile(&paper, np, 0.5))
	inked, all := 0.0, 0.0
	for y := y0; y < y1; y += 2 {
		for x := x0; x < x1; x += 2 {
			all++
			if gray(x, y) < ref-40 {
				inked++
			}
		}
	}
	if inked < 0.3*all {
		return 0
	}
	// Half-turn symmetry of the coarse layout (cells a tenth of the card wide), which
	// forgives a quad a few pixels off and a pattern finer than that.
	const cells = 10
	cw, ch := (x1-x0)/cells, (y1-y0)/cells
	var cellMean [cells][cells]float64
	for cy := 0; cy < cells; cy++ {
		for cx := 0; cx < cells; cx++ {
			var s, k float64
			for y := y0 + cy*ch; y < y0+(cy+1)*ch; y += 2 {
				for x := x0 + cx*cw; x < x0+(cx+1)*cw; x += 2 {
					s += gray(x, y)
					k++
				}
			}
			cellMean[cy][cx] = s / math.Max(k, 1)
		}
	}
	var diff, cnt float64
	for cy := 0; cy < cells; cy++ {
		for cx := 0; cx < cells; cx++ {
			diff += math.Abs(cellMean[cy][cx] - cellMean[cells-1-cy][cells-1-cx])
			cnt++
		}
	}
	asym := diff / cnt / std
	if asym > 0.6 {
		return 0
	}
	// A back is printed in one ink (and white); a face card's picture in several.
	var hues [3]float64 // reddish, yellowish, bluish ink pixels
	var dark float64
	for y := y0; y < y1; y += 2 {
		for x := x0; x < x1; x += 2 {
			b, g, r := card.at(x, y)
			fb, fg, fr := float64(b), float64(g), float64(r)
			mx, mn := math.Max(fb, math.Max(fg, fr)), math.Min(fb, math.Min(fg, fr))
			if mx-mn < 40 {
				if mx < mean-std {
					dark++
				}
				continue
			}
			switch {
			case fb >= fr && fb >= fg:
				hues[2]++
			case fr > fb+30 && fg > fb+30:
				hues[1]++
			case fr >= fg && fr >= fb:
				hues[0]++
			}
		}
	}
	total := hues[0] + hues[1] + hues[2] + dark
	inks := 0
	for _, h := range append(hues[:], dark) {
		if total > 0 && h/total > 0.15 {
			inks++
		}
	}
	if inks > 1 {
		return 0
	}
	return math.Round((0.75-0.5*asym)*1000) / 1000
}
