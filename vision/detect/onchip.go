package detect

import (
	"image"
	"math"
	"sort"
)

// Chips under dice. A casino chip is a disc about 2.2 times as wide as a die, in a colour
// unlike the cloth, usually with light spots on its edge. A die on a chip is therefore ringed
// by a band that is neither die face nor cloth, whose outer edge, where the cloth starts, is a
// circle around the die about twice as far out as the die's own edge. onChip looks for that
// circle along rays from the die's centre and flags the die only when it is clear: most rays
// find it, the edge points lie on a circle, the circle holds the die, and it has the size of
// a chip. Plain cloth (the cloth starts at the die's edge), a square of some other stuff (its
// edge is no circle) and a chip beside the die (no circle around it) are not flagged.

const (
	chipRays = 32
	// chipMinRays rays must find the chip's edge on the circle.
	chipMinRays = 24
)

// bgrImage is a continuous 8-bit BGR picture.
type bgrImage struct {
	pix  []uint8
	w, h int
}

func (im bgrImage) at(p pt) ([3]float64, bool) {
	x, y := int(p.X+0.5), int(p.Y+0.5)
	if x < 0 || y < 0 || x >= im.w || y >= im.h {
		return [3]float64{}, false
	}
	i := 3 * (y*im.w + x)
	return [3]float64{float64(im.pix[i]), float64(im.pix[i+1]), float64(im.pix[i+2])}, true
}

// l1 is the colour distance of two BGR colours.
func l1(a, b [3]float64) float64 {
	return math.Abs(a[0]-b[0]) + math.Abs(a[1]-b[1]) + math.Abs(a[2]-b[2])
}

// medianColour is the per-channel median of the colours.
func medianColour(cs [][3]float64) [3]float64 {
	var out [3]float64
	v := make([]float64, len(cs))
	for ch := 0; ch < 3; ch++ {
		for i, c := range cs {
			v[i] = c[ch]
		}
		sort.Float64s(v)
		out[ch] = v[len(v)/2]
	}
	return out
}

// onChip reports whether the die whose top-face pips are at pips (working-image pixels, pips
// of diameter diam) rests on a chip.
func onChip(im bgrImage, pips []image.Point, diam float64) bool {
	if len(pips) == 0 || diam <= 0 {
		return false
	}
	var c pt
	for _, p := range pips {
		c = c.add(pt{float64(p.X), float64(p.Y)}.mul(1 / float64(len(pips))))
	}
	// Just beyond the pips: the die's face.
	rp := 0.0
	for _, p := range pips {
		rp = math.Max(rp, c.dist(pt{float64(p.X), float64(p.Y)}))
	}
	rp += 0.8 * diam
	var dirs [chipRays]pt
	for i := range dirs {
		a := 2 * math.Pi * float64(i) / chipRays
		dirs[i] = pt{math.Cos(a), math.Sin(a)}
	}
	var face [][3]float64
	for _, u := range dirs {
		if col, ok := im.at(c.add(u.mul(rp))); ok {
			face = append(face, col)
		}
	}
	if len(face) < chipMinRays {
		return false
	}
	faceCol := medianColour(face)
	// The die's edge on each ray: where its face colour ends.
	var edge [chipRays]float64
	var edges []float64
	reach := rp + 4*diam
	for i, u := range dirs {
		edge[i] = -1
		run := 0
		for r := rp; r <= reach; r++ {
			col, ok := im.at(c.add(u.mul(r)))
			if !ok {
				break
			}
			if l1(col, faceCol) > 60 {
				run++
				if run == 2 {
					edge[i] = r - 1
					edges = append(edges, r-1)
					break
				}
			} else {
				run = 0
			}
		}
	}
	if len(edges) < chipMinRays {
		return false
	}
	sort.Float64s(edges)
	dieR := edges[len(edges)/2]
	// The cloth: well beyond any chip under the die.
	var cloth [][3]float64
	for _, u := range dirs {
		if col, ok := im.at(c.add(u.mul(4.5 * dieR))); ok {
			cloth = append(cloth, col)
		}
	}
	if len(cloth) < chipMinRays {
		return false
	}
	clothCol := medianColour(cloth)
	spread := make([]float64, len(cloth))
	for i, col := range cloth {
		spread[i] = l1(col, clothCol)
	}
	sort.Float64s(spread)
	tol := math.Max(45, 4*spread[len(spread)/2])
	// The chip's edge on each ray: where the cloth starts for good (half a die's radius of
	// cloth), past the die's edge.
	var xs, ys []float64
	stretch := 0.5 * dieR
	for i, u := range dirs {
		if edge[i] < 0 {
			continue
		}
		start, run := -1.0, 0.0
		for r := edge[i]; r <= 4*dieR; r++ {
			col, ok := im.at(c.add(u.mul(r)))
			if !ok {
				break
			}
			if l1(col, clothCol) <= tol {
				if start < 0 {
					start = r
				}
				run++
				if run >= stretch {
					break
				}
			} else {
				start, run = -1, 0
			}
		}
		if start < 0 || run < stretch {
			continue
		}
		p := c.add(u.mul(start))
		xs, ys = append(xs, p.X), append(ys, p.Y)
	}
	if len(xs) < chipMinRays {
		return false
	}
	centre, radius, in := fitCircle(xs, ys, 0.2*dieR)
	if in < chipMinRays {
		return false
	}
	return radius >= 1.6*dieR && radius <= 3*dieR && centre.dist(c)+dieR <= radius
}

// fitCircle fits a circle to points by least squares (Kåsa), drops the points farther than
// tol from it and fits again; it returns the circle and how many points lie within tol of
// it with an RMS distance under tol/2 (0 when they do not).
func fitCircle(xs, ys []float64, tol float64) (pt, float64, int) {
	use := make([]bool, len(xs))
	for i := range use {
		use[i] = true
	}
	var c pt
	var r float64
	for round := 0; round < 2; round++ {
		var ok bool
		if c, r, ok = kasa(xs, ys, use); !ok {
			return pt{}, 0, 0
		}
		for i := range xs {
			use[i] = math.Abs(math.Hypot(xs[i]-c.X, ys[i]-c.Y)-r) <= tol
		}
	}
	n, ss := 0, 0.0
	for i := range xs {
		if use[i] {
			d := math.Hypot(xs[i]-c.X, ys[i]-c.Y) - r
			n++
			ss += d * d
		}
	}
	if n == 0 || math.Sqrt(ss/float64(n)) > tol/2 {
		return c, r, 0
	}
	return c, r, n
}

// kasa solves x² + y² + Dx + Ey + F = 0 over the points in use.
func kasa(xs, ys []float64, use []bool) (pt, float64, bool) {
	var sx, sy, sxx, syy, sxy, sz, sxz, syz, n float64
	for i := range xs {
		if !use[i] {
			continue
		}
		x, y := xs[i], ys[i]
		z := x*x + y*y
		sx += x
		sy += y
		sxx += x * x
		syy += y * y
		sxy += x * y
		sz += z
		sxz += x * z
		syz += y * z
		n++
	}
	if n < 3 {
		return pt{}, 0, false
	}
	// Normal equations of [x y 1]·[D E F] = -z.
	a := [3][4]float64{
		{sxx, sxy, sx, -sxz},
		{sxy, syy, sy, -syz},
		{sx, sy, n, -sz},
	}
	for col := 0; col < 3; col++ {
		piv := col
		for row := col + 1; row < 3; row++ {
			if math.Abs(a[row][col]) > math.Abs(a[piv][col]) {
				piv = row
			}
		}
		a[col], a[piv] = a[piv], a[col]
		if math.Abs(a[col][col]) < 1e-9 {
			return pt{}, 0, false
		}
		for row := 0; row < 3; row++ {
			if row == col {
				continue
			}
			k := a[row][col] / a[col][col]
			for j := col; j < 4; j++ {
				a[row][j] -= k * a[col][j]
			}
		}
	}
	d, e, f := a[0][3]/a[0][0], a[1][3]/a[1][1], a[2][3]/a[2][2]
	c := pt{-d / 2, -e / 2}
	r2 := c.X*c.X + c.Y*c.Y - f
	if r2 <= 0 {
		return pt{}, 0, false
	}
	return c, math.Sqrt(r2), true
}
