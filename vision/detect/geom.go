package detect

import (
	"image"
	"math"
	"slices"
	"sort"
)

// pt is a point in floating-point pixels.
type pt struct{ X, Y float64 }

func (p pt) add(q pt) pt        { return pt{p.X + q.X, p.Y + q.Y} }
func (p pt) sub(q pt) pt        { return pt{p.X - q.X, p.Y - q.Y} }
func (p pt) mul(k float64) pt   { return pt{p.X * k, p.Y * k} }
func (p pt) dot(q pt) float64   { return p.X*q.X + p.Y*q.Y }
func (p pt) cross(q pt) float64 { return p.X*q.Y - p.Y*q.X }
func (p pt) norm() float64      { return math.Hypot(p.X, p.Y) }
func (p pt) dist(q pt) float64  { return p.sub(q).norm() }
func toPt(p image.Point) pt     { return pt{float64(p.X), float64(p.Y)} }
func (p pt) img() image.Point   { return image.Pt(int(math.Round(p.X)), int(math.Round(p.Y))) }

// hullIdx returns the indices of the hull's corners among the points, in hull order.
func hullIdx(in []image.Point) []int {
	n := len(in)
	order := make([]int, n)
	if n < 3 {
		for i := range order {
			order[i] = i
		}
		return order
	}
	// Sort by x, then y, as one integer key per point (with its index in the low bits):
	// much faster than sorting with a comparison function.
	keys := make([]int64, n)
	for i, p := range in {
		keys[i] = int64(p.X+(1<<20))<<42 | int64(p.Y+(1<<20))<<21 | int64(i)
	}
	slices.Sort(keys)
	for i, k := range keys {
		order[i] = int(k & (1<<21 - 1))
	}
	cross := func(o, a, b int) int {
		return (in[a].X-in[o].X)*(in[b].Y-in[o].Y) - (in[a].Y-in[o].Y)*(in[b].X-in[o].X)
	}
	hull := make([]int, 0, 2*n)
	for _, p := range order {
		for len(hull) >= 2 && cross(hull[len(hull)-2], hull[len(hull)-1], p) <= 0 {
			hull = hull[:len(hull)-1]
		}
		hull = append(hull, p)
	}
	lower := len(hull) + 1
	for k := n - 2; k >= 0; k-- {
		p := order[k]
		for len(hull) >= lower && cross(hull[len(hull)-2], hull[len(hull)-1], p) <= 0 {
			hull = hull[:len(hull)-1]
		}
		hull = append(hull, p)
	}
	return hull[:len(hull)-1]
}

// polyArea is the absolute area of a simple polygon.
func polyArea(p []pt) float64 {
	a := 0.0
	for i := range p {
		j := (i + 1) % len(p)
		a += p[i].cross(p[j])
	}
	return math.Abs(a) / 2
}

func polyPerimeter(p []pt) float64 {
	s := 0.0
	for i := range p {
		s += p[i].dist(p[(i+1)%len(p)])
	}
	return s
}

// contourArea is the area enclosed by an integer contour.
func contourArea(c []image.Point) float64 {
	a := 0
	for i := range c {
		j := (i + 1) % len(c)
		a += c[i].X*c[j].Y - c[j].X*c[i].Y
	}
	return math.Abs(float64(a)) / 2
}

// segDist is the distance of p from the segment a-b.
func segDist(p, a, b pt) float64 {
	ab := b.sub(a)
	l2 := ab.dot(ab)
	if l2 == 0 {
		return p.dist(a)
	}
	t := math.Max(0, math.Min(1, p.sub(a).dot(ab)/l2))
	return p.dist(a.add(ab.mul(t)))
}

// simplifyClosed runs Douglas-Peucker on a closed polygon, starting from its two most
// distant vertices so the result does not depend on where the polygon starts.
func simplifyClosed(p []pt, eps float64) []pt {
	n := len(p)
	if n <= 3 {
		return p
	}
	// The farthest pair among a few candidates is good enough as anchors.
	i0, i1, best := 0, 0, -1.0
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			if d := p[i].dist(p[j]); d > best {
				i0, i1, best = i, j, d
			}
		}
	}
	var a, b []pt
	for k := i0; k != i1; k = (k + 1) % n {
		a = append(a, p[k])
	}
	a = append(a, p[i1])
	for k := i1; k != i0; k = (k + 1) % n {
		b = append(b, p[k])
	}
	b = append(b, p[i0])
	ra := dp(a, eps)
	rb := dp(b, eps)
	out := append(ra[:len(ra)-1], rb[:len(rb)-1]...)
	return out
}

func dp(p []pt, eps float64) []pt {
	if len(p) <= 2 {
		return p
	}
	idx, dmax := 0, -1.0
	for i := 1; i < len(p)-1; i++ {
		if d := segDist(p[i], p[0], p[len(p)-1]); d > dmax {
			idx, dmax = i, d
		}
	}
	if dmax <= eps {
		return []pt{p[0], p[len(p)-1]}
	}
	l := dp(p[:idx+1], eps)
	r := dp(p[idx:], eps)
	return append(l[:len(l)-1], r...)
}

// quadFromHull reduces a convex hull to four corners by raising the Douglas-Peucker tolerance,
// or returns false when no tolerance up to a fifth of the perimeter gives exactly four.
func quadFromHull(h []pt) ([4]pt, bool) {
	var q [4]pt
	if len(h) < 4 {
		return q, false
	}
	per := polyPerimeter(h)
	for f := 0.01; f <= 0.2; f *= 1.25 {
		s := simplifyClosed(h, f*per)
		if len(s) == 4 {
			copy(q[:], s)
			return orderQuad(q), true
		}
		if len(s) < 4 {
			return q, false
		}
	}
	return q, false
}

// orderQuad orders corners clockwise on screen starting from the top-left-most one.
func orderQuad(q [4]pt) [4]pt {
	c := pt{}
	for _, p := range q {
		c = c.add(p.mul(0.25))
	}
	sort.Slice(q[:], func(i, j int) bool {
		return math.Atan2(q[i].Y-c.Y, q[i].X-c.X) < math.Atan2(q[j].Y-c.Y, q[j].X-c.X)
	})
	// atan2 order with y down is clockwise on screen; start at the corner with least x+y.
	start, best := 0, math.Inf(1)
	for i, p := range q {
		if s := p.X + p.Y; s < best {
			start, best = i, s
		}
	}
	var out [4]pt
	for i := range out {
		out[i] = q[(start+i)%4]
	}
	return out
}

// refineQuad fits a line to the contour points near each side of the quad and intersects
// neighbouring lines, which puts the corners where the straight edges meet rather than on a
// rounded card corner.
func refineQuad(q [4]pt, contour []image.Point) [4]pt {
	var lines [4]line
	for s := 0; s < 4; s++ {
		a, b := q[s], q[(s+1)%4]
		l := a.dist(b)
		tol := math.Max(2, 0.04*l)
		var xs []pt
		ab := b.sub(a)
		for _, cp := range contour {
			p := toPt(cp)
			t := p.sub(a).dot(ab) / (l * l)
			if t < 0.15 || t > 0.85 {
				continue
			}
			if segDist(p, a, b) <= tol {
				xs = append(xs, p)
			}
		}
		if len(xs) < 5 {
			return q
		}
		lines[s] = fitLine(xs)
	}
	var out [4]pt
	for i := 0; i < 4; i++ {
		p, ok := intersect(lines[(i+3)%4], lines[i])
		if !ok || p.dist(q[i]) > 0.25*q[i].dist(q[(i+2)%4]) {
			return q
		}
		out[i] = p
	}
	return out
}

// line is a point and a unit direction.
type line struct{ p, d pt }

// fitLine is the total-least-squares line through the points.
func fitLine(ps []pt) line {
	var c pt
	for _, p := range ps {
		c = c.add(p)
	}
	c = c.mul(1 / float64(len(ps)))
	var sxx, sxy, syy float64
	for _, p := range ps {
		d := p.sub(c)
		sxx += d.X * d.X
		sxy += d.X * d.Y
		syy += d.Y * d.Y
	}
	th := 0.5 * math.Atan2(2*sxy, sxx-syy)
	return line{p: c, d: pt{math.Cos(th), math.Sin(th)}}
}

func intersect(a, b line) (pt, bool) {
	den := a.d.cross(b.d)
	if math.Abs(den) < 1e-6 {
		return pt{}, false
	}
	t := b.p.sub(a.p).cross(b.d) / den
	return a.p.add(a.d.mul(t)), true
}

// quadAngles returns the interior angles of the quad in degrees.
func quadAngles(q [4]pt) [4]float64 {
	var a [4]float64
	for i := 0; i < 4; i++ {
		u := q[(i+3)%4].sub(q[i])
		v := q[(i+1)%4].sub(q[i])
		c := u.dot(v) / (u.norm()*v.norm() + 1e-9)
		a[i] = math.Acos(math.Max(-1, math.Min(1, c))) * 180 / math.Pi
	}
	return a
}

// meanSides returns the mean lengths of quad q's two pairs of opposite sides: q0-q1 with q2-q3,
// and q1-q2 with q3-q0.
func meanSides(q [4]pt) (float64, float64) {
	return (q[0].dist(q[1]) + q[2].dist(q[3])) / 2, (q[1].dist(q[2]) + q[3].dist(q[0])) / 2
}

func quadBounds(q [4]pt) image.Rectangle {
	minX, minY := math.Inf(1), math.Inf(1)
	maxX, maxY := math.Inf(-1), math.Inf(-1)
	for _, p := range q {
		minX, minY = math.Min(minX, p.X), math.Min(minY, p.Y)
		maxX, maxY = math.Max(maxX, p.X), math.Max(maxY, p.Y)
	}
	return image.Rect(int(math.Floor(minX)), int(math.Floor(minY)), int(math.Ceil(maxX)), int(math.Ceil(maxY)))
}

func rectIoU(a, b image.Rectangle) float64 {
	in := a.Intersect(b)
	if in.Empty() {
		return 0
	}
	ia := float64(in.Dx() * in.Dy())
	return ia / (float64(a.Dx()*a.Dy()+b.Dx()*b.Dy()) - ia)
}

// containment is the share of a's area inside b.
func containment(a, b image.Rectangle) float64 {
	in := a.Intersect(b)
	if in.Empty() || a.Empty() {
		return 0
	}
	return float64(in.Dx()*in.Dy()) / float64(a.Dx()*a.Dy())
}

// inQuad reports whether p lies inside the convex quad q (either winding).
func inQuad(p pt, q [4]pt) bool {
	var pos, neg bool
	for i := range q {
		c := q[(i+1)%4].sub(q[i]).cross(p.sub(q[i]))
		pos = pos || c > 0
		neg = neg || c < 0
	}
	return !(pos && neg)
}
