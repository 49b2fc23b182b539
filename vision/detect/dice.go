package detect

import (
	"image"
	"math"
	"math/bits"
	"sort"
	"unsafe"

	"github.com/coupwatch/coupwatch/vision/observation"

	"gocv.io/x/gocv"
)

// pip is a dark round blob found on a light surface: a candidate die pip.
type pip struct {
	c           pt      // centre, working-image pixels
	area        float64 // pixels
	major       float64 // ellipse semi-axes from second moments
	minor       float64
	angle       float64 // of the major axis, radians
	box         image.Rectangle
	contrast    float64 // surround brightness minus pip brightness, 0..255
	surround    float64 // mean grey of the ring around the pip
	surroundSat float64
	label       int32 // connected component in the pip mask
}

func (p pip) roundness() float64 { return p.minor / math.Max(p.major, 1e-9) }

// diameter is the pip's equivalent diameter.
func (p pip) diameter() float64 { return 2 * math.Sqrt(p.area/math.Pi) }

// pipFinder holds the Mats reused between frames by the pip search.
type pipFinder struct {
	gray, blur, mask, labels, stats, cents, hsv gocv.Mat
	body, bodyLabels, kernel                    gocv.Mat
}

func newPipFinder() *pipFinder {
	return &pipFinder{gray: gocv.NewMat(), blur: gocv.NewMat(), mask: gocv.NewMat(), labels: gocv.NewMat(),
		stats: gocv.NewMat(), cents: gocv.NewMat(), hsv: gocv.NewMat(), body: gocv.NewMat(), bodyLabels: gocv.NewMat(),
		kernel: gocv.GetStructuringElement(gocv.MorphEllipse, image.Pt(5, 5))}
}

func (f *pipFinder) Close() {
	for _, m := range []*gocv.Mat{&f.gray, &f.blur, &f.mask, &f.labels, &f.stats, &f.cents, &f.hsv, &f.body, &f.bodyLabels, &f.kernel} {
		m.Close()
	}
}

// find returns the dark compact blobs of a BGR working image that stand on a light, plain
// surround.
func (f *pipFinder) find(work gocv.Mat) []pip {
	gocv.CvtColor(work, &f.gray, gocv.ColorBGRToGray)
	gocv.CvtColor(work, &f.hsv, gocv.ColorBGRToHSV)
	gocv.GaussianBlur(f.gray, &f.blur, image.Pt(3, 3), 0, 0, gocv.BorderDefault)
	side := min(work.Rows(), work.Cols())
	block := max(15, (side/16)|1)
	gocv.AdaptiveThreshold(f.blur, &f.mask, 255, gocv.AdaptiveThresholdMean, gocv.ThresholdBinaryInv, block, 30)
	n := gocv.ConnectedComponentsWithStatsWithParams(f.mask, &f.labels, &f.stats, &f.cents, 8, gocv.MatTypeCV32S, gocv.CCL_DEFAULT)
	gray, _ := f.gray.DataPtrUint8()
	hsv, _ := f.hsv.DataPtrUint8()
	lab := int32s(f.labels)
	W, H := work.Cols(), work.Rows()
	imgArea := float64(W * H)
	var out []pip
	for i := 1; i < n; i++ {
		x := int(f.stats.GetIntAt(i, int(gocv.CC_STAT_LEFT)))
		y := int(f.stats.GetIntAt(i, int(gocv.CC_STAT_TOP)))
		w := int(f.stats.GetIntAt(i, int(gocv.CC_STAT_WIDTH)))
		h := int(f.stats.GetIntAt(i, int(gocv.CC_STAT_HEIGHT)))
		a := float64(f.stats.GetIntAt(i, int(gocv.CC_STAT_AREA)))
		if a < 6 || a > 0.004*imgArea || w > 4*h || h > 4*w {
			continue
		}
		if a < 0.4*float64(w*h) {
			continue // not compact: a stroke, a crack, a cable edge
		}
		if x == 0 || y == 0 || x+w >= W || y+h >= H {
			continue
		}
		// Moments of the blob.
		var sx, sy, sxx, syy, sxy, sum, dark float64
		for yy := y; yy < y+h; yy++ {
			for xx := x; xx < x+w; xx++ {
				if lab[yy*W+xx] != int32(i) {
					continue
				}
				fx, fy := float64(xx), float64(yy)
				sx += fx
				sy += fy
				sxx += fx * fx
				syy += fy * fy
				sxy += fx * fy
				sum++
				dark += float64(gray[yy*W+xx])
			}
		}
		cx, cy := sx/sum, sy/sum
		vxx, vyy, vxy := sxx/sum-cx*cx, syy/sum-cy*cy, sxy/sum-cx*cy
		tr, det := vxx+vyy, vxx*vyy-vxy*vxy
		disc := math.Sqrt(math.Max(0, tr*tr/4-det))
		l1, l2 := tr/2+disc, tr/2-disc
		p := pip{
			c: pt{cx, cy}, area: a, major: 2 * math.Sqrt(math.Max(l1, 0)), minor: 2 * math.Sqrt(math.Max(l2, 0)),
			angle: 0.5 * math.Atan2(2*vxy, vxx-vyy), box: image.Rect(x, y, x+w, y+h), label: int32(i),
		}
		// The ring around the pip must be light and plain: the face of a die.
		r := int(math.Ceil(0.6*math.Max(float64(w), float64(h)))) + 1
		var ring, ringSat, cnt float64
		for yy := max(0, y-r); yy < min(H, y+h+r); yy++ {
			for xx := max(0, x-r); xx < min(W, x+w+r); xx++ {
				if xx >= x && xx < x+w && yy >= y && yy < y+h {
					continue
				}
				if lab[yy*W+xx] != 0 {
					continue
				}
				ring += float64(gray[yy*W+xx])
				ringSat += float64(hsv[3*(yy*W+xx)+1])
				cnt++
			}
		}
		if cnt == 0 {
			continue
		}
		p.surround = ring / cnt
		p.surroundSat = ringSat / cnt
		p.contrast = p.surround - dark/sum
		out = append(out, p)
	}
	return out
}

// int32s views a continuous CV_32S Mat as a slice.
func int32s(m gocv.Mat) []int32 {
	b, err := m.DataPtrUint8()
	if err != nil || len(b) < 4 {
		return nil
	}
	return unsafe.Slice((*int32)(unsafe.Pointer(&b[0])), len(b)/4)
}

// Dice finds dice in a frame and reads their top faces from the pips. A Dice keeps working
// buffers between frames: use one per goroutine, and Close it.
type Dice struct {
	pf              *pipFinder
	work, bgr, cont gocv.Mat
}

// NewDice makes a dice recogniser. It has no learned model: pips are found as dark round
// blobs on a light die face and counted.
func NewDice() *Dice {
	return &Dice{pf: newPipFinder(), work: gocv.NewMat(), bgr: gocv.NewMat(), cont: gocv.NewMat()}
}

// Close releases the recogniser's buffers.
func (d *Dice) Close() error {
	d.pf.Close()
	d.work.Close()
	d.bgr.Close()
	d.cont.Close()
	return nil
}

// Die is one die read from a frame.
type Die struct {
	Value int             // pips on the top face, 1 to 6
	Box   image.Rectangle // the top face's pips, image pixels
	Conf  float64
	// Pips are the centres of the top face's pips, image pixels.
	Pips []image.Point
	// Cocked is set when no face is seen square on (the die leans on something); Stacked
	// when it lies on another die; OnChip when it rests on a chip.
	Cocked, Stacked, OnChip bool
}

// Flags are the single-frame faults seen on the die, in the journal's words (nil for none).
func (d Die) Flags() []string {
	var fs []string
	if d.Cocked {
		fs = append(fs, observation.FaultCocked)
	}
	if d.Stacked {
		fs = append(fs, observation.FaultStacked)
	}
	if d.OnChip {
		fs = append(fs, observation.FaultOnChip)
	}
	return fs
}

// maxDiceSide is the longest side of the image the dice search works on.
const maxDiceSide = 2000

// Dice returns the dice of a BGR (or grey, or BGRA) frame.
func (d *Dice) Dice(img gocv.Mat) ([]Die, error) {
	src, err := toBGR(img, &d.bgr)
	if err != nil {
		return nil, err
	}
	// Shrink by a whole factor: area averaging is then cheap and exact.
	k := (max(src.Rows(), src.Cols()) + maxDiceSide - 1) / maxDiceSide
	scale := 1 / float64(k)
	work := src
	if k > 1 {
		gocv.Resize(src, &d.work, image.Pt(src.Cols()/k, src.Rows()/k), 0, 0, gocv.InterpolationArea)
		work = d.work
	}
	pips := d.pf.find(work)
	var good []pip
	var lit []float64
	for _, p := range pips {
		if p.contrast >= 45 && p.contrast >= 0.38*p.surround && p.roundness() >= 0.3 {
			good = append(good, p)
			lit = append(lit, p.surround)
		}
	}
	// Die faces are the light things of the picture: a dark blob on a dark surround (a
	// cable, a shadow) is no pip.
	if len(lit) > 0 {
		sort.Float64s(lit)
		ref := lit[len(lit)*3/4]
		kept := good[:0]
		for _, p := range good {
			if p.surround >= 0.7*ref {
				kept = append(kept, p)
			}
		}
		good = kept
	}
	// What a pip of this picture looks like: the median of the pips of faces of two or more,
	// against which a lone blob read as a one is checked.
	var diams, surrounds []float64
	groups := d.pf.faces(good)
	for _, cl := range groups {
		if len(cl) >= 2 {
			for _, p := range cl {
				diams = append(diams, p.diameter())
				surrounds = append(surrounds, p.surround)
			}
		}
	}
	medD, medS := median(diams), median(surrounds)
	colour, hasColour := d.colour(work)
	var out []Die
	for _, cl := range groups {
		die, ok := readDie(cl)
		if !ok {
			continue
		}
		if die.Value == 1 && medD > 0 {
			var p pip
			for _, q := range cl {
				if q.c.img() == die.Pips[0] {
					p = q
				}
			}
			if p.diameter() < 0.6*medD || p.diameter() > 1.7*medD || p.surround < 0.85*medS || p.contrast < 70 {
				continue
			}
		}
		if hasColour {
			diam := 0.0
			for _, p := range cl {
				diam += p.diameter() / float64(len(cl))
			}
			die.OnChip = onChip(colour, die.Pips, diam)
		}
		inv := 1 / scale
		die.Box = image.Rect(int(float64(die.Box.Min.X)*inv), int(float64(die.Box.Min.Y)*inv),
			int(math.Ceil(float64(die.Box.Max.X)*inv)), int(math.Ceil(float64(die.Box.Max.Y)*inv))).
			Intersect(image.Rect(0, 0, src.Cols(), src.Rows()))
		for i, p := range die.Pips {
			die.Pips[i] = image.Pt(int(float64(p.X)*inv), int(float64(p.Y)*inv))
		}
		out = append(out, die)
	}
	markStacked(out)
	return out, nil
}

// colour is the working image's pixels, copied when the frame's are not continuous.
func (d *Dice) colour(work gocv.Mat) (bgrImage, bool) {
	if !work.IsContinuous() {
		work.CopyTo(&d.cont)
		work = d.cont
	}
	pix, err := work.DataPtrUint8()
	if err != nil || work.Type() != gocv.MatTypeCV8UC3 {
		return bgrImage{}, false
	}
	return bgrImage{pix: pix, w: work.Cols(), h: work.Rows()}, true
}

// sameFace reports whether the straight line between two pips runs over plain die face
// only: light, unsaturated, like the surround of both pips, with no edge or cloth between.
// Pips of one face pass; pips of two faces (the line crosses the die's edge) or of two dice
// (it crosses the cloth) do not.
func (f *pipFinder) sameFace(a, b pip) bool {
	gray, _ := f.gray.DataPtrUint8()
	hsv, _ := f.hsv.DataPtrUint8()
	lab := int32s(f.labels)
	W := f.gray.Cols()
	ref := (a.surround + b.surround) / 2
	sat := math.Max(a.surroundSat, b.surroundSat)
	d := a.c.dist(b.c)
	steps := int(d)
	bad, n := 0, 0
	for k := 0; k <= steps; k++ {
		p := a.c.add(b.c.sub(a.c).mul(float64(k) / math.Max(1, float64(steps))))
		// Skip the pips themselves and their blurred rims.
		if p.dist(a.c) < a.diameter()/2+2 || p.dist(b.c) < b.diameter()/2+2 {
			continue
		}
		x, y := int(p.X+0.5), int(p.Y+0.5)
		i := y*W + x
		if lab[i] != 0 {
			continue // inside a pip they pass over
		}
		n++
		g := float64(gray[i])
		if g < ref-math.Max(30, 0.2*ref) || float64(hsv[3*i+1]) > sat+25 {
			bad++
		}
	}
	return n < 3 || float64(bad) <= 0.1*float64(n)
}

// faces groups the pips by die face: pips alike in slant and joined by plain face. The
// faces seen square on are the dice's top faces; the faces beside a rounder face are side
// faces of that die and are dropped.
func (f *pipFinder) faces(ps []pip) [][]pip {
	n := len(ps)
	// Closest pairs first; two faces merge only when every pip of one is alike every pip of
	// the other (no chaining from a top face into a side face), and a face holds six pips
	// at most.
	type link struct {
		i, j int
		d    float64
	}
	var links []link
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			d := ps[i].c.dist(ps[j].c)
			if d <= 4.2*math.Max(ps[i].diameter(), ps[j].diameter()) && alike(ps[i], ps[j]) {
				links = append(links, link{i, j, d})
			}
		}
	}
	sort.Slice(links, func(a, b int) bool { return links[a].d < links[b].d })
	face := newUnion(n)
	members := make([][]int, n)
	for i := range members {
		members[i] = []int{i}
	}
	for _, l := range links {
		a, b := face.find(l.i), face.find(l.j)
		if a == b || len(members[a])+len(members[b]) > 6 {
			continue
		}
		ok := true
		for _, x := range members[a] {
			for _, y := range members[b] {
				if !alike(ps[x], ps[y]) {
					ok = false
				}
			}
		}
		if !ok || !f.sameFace(ps[l.i], ps[l.j]) {
			continue
		}
		face.join(a, b)
		r := face.find(a)
		merged := append(append([]int(nil), members[a]...), members[b]...)
		members[a], members[b] = nil, nil
		members[r] = merged
	}
	groups := map[int][]pip{}
	var order []int
	for i := range ps {
		r := face.find(i)
		if _, ok := groups[r]; !ok {
			order = append(order, r)
		}
		groups[r] = append(groups[r], ps[i])
	}
	all := make([][]pip, 0, len(order))
	for _, r := range order {
		all = append(all, groups[r])
	}
	// How square on a face is seen: round, large pips on a well lit face.
	round := func(g []pip) float64 {
		r, a, l := 0.0, 0.0, 0.0
		for _, p := range g {
			r += p.roundness() / float64(len(g))
			a += math.Sqrt(p.area) / float64(len(g))
			l += p.surround / float64(len(g))
		}
		return r * a * l
	}
	near := func(g, h []pip) bool {
		for _, p := range g {
			for _, q := range h {
				if p.c.dist(q.c) < 4.5*math.Max(p.diameter(), q.diameter()) {
					return true
				}
			}
		}
		return false
	}
	var top [][]pip
	for i, g := range all {
		rg := round(g)
		side := false
		for j, h := range all {
			if i == j {
				continue
			}
			rh := round(h)
			if rh > rg*1.12 && near(g, h) {
				side = true
				break
			}
		}
		if !side {
			top = append(top, g)
		}
	}
	return top
}

// alike reports whether two pips are seen at the same slant: a face's pips are all round, or
// all squeezed the same way.
func alike(a, b pip) bool {
	ra, rb := a.roundness(), b.roundness()
	if math.Abs(ra-rb) > 0.15 || (math.Max(ra, rb) >= 0.75 && math.Min(ra, rb) < 0.65) {
		return false
	}
	if r := a.area / b.area; r < 0.65 || r > 1.55 {
		return false
	}
	// One face is lit evenly; the faces of a die are not (the top takes the most light).
	if math.Abs(a.surround-b.surround) > 18 {
		return false
	}
	if ra < 0.75 && rb < 0.75 {
		da := math.Abs(math.Mod(a.angle-b.angle+math.Pi*1.5, math.Pi) - math.Pi/2)
		if da > 0.5 {
			return false
		}
	}
	return true
}

// union is a small union-find.
type union []int

func newUnion(n int) union {
	u := make(union, n)
	for i := range u {
		u[i] = i
	}
	return u
}

func (u union) find(i int) int {
	for u[i] != i {
		u[i] = u[u[i]]
		i = u[i]
	}
	return i
}

func (u union) join(i, j int) { u[u.find(i)] = u.find(j) }

// readDie reads a top face's pips as a die.
func readDie(top []pip) (Die, bool) {
	n := len(top)
	if n < 1 || n > 6 {
		return Die{}, false
	}
	maxRound := 0.0
	for _, p := range top {
		maxRound = math.Max(maxRound, p.roundness())
	}
	// A lone small or oblong blob is noise, not a one.
	if n == 1 && (top[0].roundness() < 0.6 || top[0].area < 20) {
		return Die{}, false
	}
	conf, ok := faceLayout(top)
	if !ok {
		return Die{}, false
	}
	if conf < 0.9 && n >= 4 {
		// No layout of a face: perhaps pips of a side face were joined to a smaller top
		// face. Keep the largest set of the roundest pips that stands like a face.
		if sub, ok := faceSubset(top); ok {
			top, n, conf = sub, len(sub), 0.75
		}
	}
	diam := 0.0
	box := image.Rectangle{Min: image.Pt(1<<30, 1<<30), Max: image.Pt(-1<<30, -1<<30)}
	var pips []image.Point
	for _, p := range top {
		diam += p.diameter() / float64(n)
		box = box.Union(p.box)
		pips = append(pips, p.c.img())
	}
	margin := pipBoxMargin
	if n == 1 {
		margin = onePipBoxMargin
	}
	m := int(math.Round(margin * diam))
	box = image.Rect(box.Min.X-m, box.Min.Y-m, box.Max.X+m, box.Max.Y+m)
	return Die{Value: n, Box: box, Conf: conf, Pips: pips, Cocked: maxRound < 0.55}, true
}

// faceSubset looks for the largest subset of pips (one or two fewer) that stands like a die
// face, the pips left out being flatter (seen more obliquely) than the pips kept: the pips
// of a side face joined to the top face.
func faceSubset(ps []pip) ([]pip, bool) {
	n := len(ps)
	var best []pip
	bestRound := 0.0
	for drop := 1; drop <= 2 && best == nil; drop++ {
		for mask := 0; mask < 1<<n; mask++ {
			if bits.OnesCount(uint(mask)) != drop {
				continue
			}
			var kept []pip
			var keptR, dropR float64
			for i, p := range ps {
				if mask&(1<<i) != 0 {
					dropR += p.roundness() / float64(drop)
				} else {
					kept = append(kept, p)
					keptR += p.roundness() / float64(n-drop)
				}
			}
			if dropR >= keptR-0.05 {
				continue
			}
			if conf, ok := faceLayout(kept); ok && conf >= 0.9 && keptR > bestRound {
				best, bestRound = kept, keptR
			}
		}
	}
	return best, best != nil
}

// pipBoxMargin is how far (in pip diameters) a reported box reaches beyond the top face's
// pips, the way the labelled sets draw die boxes around the pips.
const (
	pipBoxMargin    = 0.35
	onePipBoxMargin = 0.45
)

// faceLayout checks that pips stand like the pips of a die face and returns a confidence:
// one pip alone; two and three on a line; four at the corners of a square; five with one in
// the middle; six in two rows of three.
func faceLayout(ps []pip) (float64, bool) {
	n := len(ps)
	c := pt{}
	for _, p := range ps {
		c = c.add(p.c.mul(1 / float64(n)))
	}
	diam := 0.0
	for _, p := range ps {
		diam += p.diameter() / float64(n)
	}
	// Sizes alike.
	for _, p := range ps {
		if p.diameter() < 0.6*diam || p.diameter() > 1.5*diam {
			return 0, false
		}
	}
	switch n {
	case 1:
		return 0.9, true
	case 2:
		return 0.95, true
	case 3:
		// The middle pip sits midway between the other two.
		a, b, m := farthestPair(ps)
		mid := a.c.add(b.c).mul(0.5)
		if m.c.dist(mid) > 0.35*a.c.dist(b.c) {
			return 0, false
		}
		return 0.97, true
	case 4, 5, 6:
		// Every pip is near the centre... four of them near the corners.
		r := 0.0
		for _, p := range ps {
			r = math.Max(r, p.c.dist(c))
		}
		centre := 0
		for _, p := range ps {
			if p.c.dist(c) < 0.35*r {
				centre++
			}
		}
		switch {
		case n == 4 && centre == 0, n == 6 && centre == 0:
			return 0.97, true
		case n == 5 && centre == 1:
			return 0.97, true
		}
		return 0.5, true
	}
	return 0, false
}

// farthestPair returns the two pips farthest apart and a third one.
func farthestPair(ps []pip) (pip, pip, pip) {
	bi, bj, bd := 0, 1, -1.0
	for i := range ps {
		for j := i + 1; j < len(ps); j++ {
			if d := ps[i].c.dist(ps[j].c); d > bd {
				bi, bj, bd = i, j, d
			}
		}
	}
	for k := range ps {
		if k != bi && k != bj {
			return ps[bi], ps[bj], ps[k]
		}
	}
	return ps[bi], ps[bj], ps[bi]
}

// markStacked flags dice whose boxes overlap: one die lies on the other.
func markStacked(ds []Die) {
	for i := range ds {
		for j := i + 1; j < len(ds); j++ {
			if ds[i].Box.Overlaps(ds[j].Box) {
				ds[i].Stacked, ds[j].Stacked = true, true
			}
		}
	}
}

// Detect returns the dice of a frame as labelled objects ("1" to "6"), with the single-frame
// faults (cocked, stacked, on_chip) as flags.
func (d *Dice) Detect(img gocv.Mat) ([]observation.Object, error) {
	ds, err := d.Dice(img)
	if err != nil {
		return nil, err
	}
	out := make([]observation.Object, 0, len(ds))
	for _, die := range ds {
		o := observation.Object{
			Label: observation.DieLabel(die.Value),
			Box:   observation.Box{X: die.Box.Min.X, Y: die.Box.Min.Y, W: die.Box.Dx(), H: die.Box.Dy()},
			Conf:  math.Round(die.Conf*1000) / 1000,
			Flags: die.Flags(),
		}
		out = append(out, o)
	}
	return out, nil
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	return s[len(s)/2]
}
