//go:build cgo

package main

import (
	"fmt"
	"image"
	"image/color"
	"log/slog"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"gocv.io/x/gocv"

	"github.com/coupwatch/coupwatch/vision/detect"
	"github.com/coupwatch/coupwatch/vision/observation"
)

// Synthetic cards: whole cards drawn with the glyphs of real typefaces (models/fonts) and
// drawn suit shapes, laid on a drawn cloth, seen at a slant, in a stretched picture, blurred,
// noisy and JPEG-compressed, and then cut by the recogniser's own code exactly like the
// photographs. They teach the glyph classifiers decks, sizes and distortions the few decks
// of the photographs do not show, and what the cutting does to small, blurred indexes (rank
// and suit run together, a pip taken for an index): the true index boxes are known, so a
// glyph that was cut wrong is learnt as "no index" rather than as its card's rank.

// Canonical size of a drawn card (portrait, poker proportions).
const synthW, synthH = 250, 350

// shape is a glyph as polygon groups in a unit box (x right, y down, 0..1); the polygons of a
// group are filled together (so that holes stay open), groups one after the other.
type shape [][][]pt

type pt struct{ x, y float64 }

// fontShape turns a glyph outline (font units, y up) into a shape filling its own box.
func fontShape(contours [][]int) (shape, bool) {
	minX, minY, maxX, maxY := outlineBounds(contours)
	if !(maxX > minX && maxY > minY) {
		return nil, false
	}
	var g [][]pt
	for _, c := range contours {
		var p []pt
		for i := 0; i+1 < len(c); i += 2 {
			p = append(p, pt{(float64(c[i]) - minX) / (maxX - minX), (maxY - float64(c[i+1])) / (maxY - minY)})
		}
		if len(p) >= 3 {
			g = append(g, p)
		}
	}
	return shape{g}, len(g) > 0
}

// outlineBounds is the bounding box of a glyph outline (x, y pairs in font units).
func outlineBounds(contours [][]int) (minX, minY, maxX, maxY float64) {
	minX, minY, maxX, maxY = math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, c := range contours {
		for i := 0; i+1 < len(c); i += 2 {
			x, y := float64(c[i]), float64(c[i+1])
			minX, maxX = math.Min(minX, x), math.Max(maxX, x)
			minY, maxY = math.Min(minY, y), math.Max(maxY, y)
		}
	}
	return minX, minY, maxX, maxY
}

// aspect is a glyph's width over its height in font units.
func aspect(contours [][]int) float64 {
	minX, minY, maxX, maxY := outlineBounds(contours)
	return (maxX - minX) / math.Max(1, maxY-minY)
}

// drawShape fills s into the box (x, y, w, h) of m, turned half a turn about the card's
// centre when turn is set.
func drawShape(m *gocv.Mat, s shape, x, y, w, h float64, turn bool, ink color.RGBA) {
	for _, g := range s {
		pts := make([][]image.Point, len(g))
		for i, poly := range g {
			pts[i] = make([]image.Point, len(poly))
			for k, p := range poly {
				px, py := x+p.x*w, y+p.y*h
				if turn {
					px, py = float64(m.Cols())-px, float64(m.Rows())-py
				}
				pts[i][k] = image.Pt(int(math.Round(px)), int(math.Round(py)))
			}
		}
		pv := gocv.NewPointsVectorFromPoints(pts)
		gocv.FillPoly(m, pv, ink)
		pv.Close()
	}
}

// drawnSuit is a suit symbol drawn by drawSuit (on a scratch canvas), as a shape.
func drawnSuit(suit byte, rng *rand.Rand) shape {
	canvas := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(0, 0, 0, 0), 120, 120, gocv.MatTypeCV8UC1)
	defer canvas.Close()
	drawSuit(&canvas, suit, color.RGBA{255, 255, 255, 0}, rng)
	cs := gocv.FindContours(canvas, gocv.RetrievalExternal, gocv.ChainApproxSimple)
	defer cs.Close()
	var polys [][]pt
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for i := 0; i < cs.Size(); i++ {
		var p []pt
		for _, q := range cs.At(i).ToPoints() {
			p = append(p, pt{float64(q.X), float64(q.Y)})
			minX, maxX = math.Min(minX, float64(q.X)), math.Max(maxX, float64(q.X))
			minY, maxY = math.Min(minY, float64(q.Y)), math.Max(maxY, float64(q.Y))
		}
		polys = append(polys, p)
	}
	var s shape
	for _, p := range polys {
		for k := range p {
			p[k] = pt{(p[k].x - minX) / math.Max(1, maxX-minX), (p[k].y - minY) / math.Max(1, maxY-minY)}
		}
		s = append(s, [][]pt{p})
	}
	return s
}

// deckStyle is what one drawn deck looks like.
type deckStyle struct {
	face              fontFace
	paper, red, black color.RGBA
	rankH             float64 // rank glyph height, share of the card height
	condense          float64 // glyph width factor
	indexX, indexY    float64 // top-left of the rank glyph, shares of the card
	suitScale         float64 // suit glyph height over the rank's
	gap               float64 // between rank and suit, share of the card height
	fontSuits         bool    // suit symbols from the typeface, else drawn shapes
	pipH              float64
	border            bool
	mirrored          bool // the whole card seen in a mirror (a flipped picture)
}

func randomStyle(faces []fontFace, rng *rand.Rand) deckStyle {
	v := func(a, b float64) float64 { return a + rng.Float64()*(b-a) }
	paper := uint8(v(200, 255))
	st := deckStyle{
		face:      faces[rng.IntN(len(faces))],
		paper:     color.RGBA{R: paper, G: paper - uint8(rng.IntN(12)), B: paper - uint8(rng.IntN(30)), A: 0},
		red:       color.RGBA{R: uint8(v(150, 235)), G: uint8(v(0, 60)), B: uint8(v(10, 70))},
		black:     color.RGBA{R: uint8(v(0, 60)), G: uint8(v(0, 60)), B: uint8(v(0, 60))},
		rankH:     v(0.065, 0.11),
		condense:  v(0.7, 1.25),
		indexX:    v(0.025, 0.08),
		indexY:    v(0.025, 0.07),
		suitScale: v(0.55, 1.0),
		gap:       v(0.008, 0.03),
		fontSuits: rng.IntN(2) == 0,
		pipH:      v(0.1, 0.15),
		border:    rng.IntN(4) == 0,
		mirrored:  rng.IntN(4) == 0,
	}
	if rng.IntN(8) == 0 { // a gold or tinted deck
		st.paper = color.RGBA{R: uint8(v(180, 230)), G: uint8(v(140, 200)), B: uint8(v(40, 120))}
		st.red = color.RGBA{R: uint8(v(120, 170)), G: uint8(v(30, 70)), B: uint8(v(20, 50))}
		st.black = color.RGBA{R: uint8(v(50, 90)), G: uint8(v(40, 70)), B: uint8(v(20, 50))}
	}
	return st
}

var suitRunes = map[byte]string{'S': "\u2660", 'H': "\u2665", 'D': "\u2666", 'C': "\u2663"}

// rankShape is the rank's glyph (two glyphs for "10") in the deck's typeface.
func rankShape(st deckStyle, rank byte, rng *rand.Rand) (shape, float64, bool) {
	text := string(rank)
	if rank == 'T' {
		text = "10"
	}
	if len(text) == 1 {
		c := st.face.Glyphs[text]
		s, ok := fontShape(c)
		return s, aspect(c) * st.condense, ok
	}
	// "10": the two digits side by side, a little apart, in one box.
	c1, c0 := st.face.Glyphs["1"], st.face.Glyphs["0"]
	s1, ok1 := fontShape(c1)
	s0, ok0 := fontShape(c0)
	if !ok1 || !ok0 {
		return nil, 0, false
	}
	a1, a0 := aspect(c1)*st.condense*0.85, aspect(c0)*st.condense*0.85
	gap := 0.04 + rng.Float64()*0.12
	total := a1 + gap + a0
	var out shape
	for _, part := range []struct {
		s      shape
		x0, w0 float64
	}{{s1, 0, a1 / total}, {s0, (a1 + gap) / total, a0 / total}} {
		for _, g := range part.s {
			var ng [][]pt
			for _, poly := range g {
				np := make([]pt, len(poly))
				for k, p := range poly {
					np[k] = pt{part.x0 + p.x*part.w0, p.y}
				}
				ng = append(ng, np)
			}
			out = append(out, ng)
		}
	}
	return out, total, true
}

func suitShape(st deckStyle, suit byte, rng *rand.Rand) (shape, float64) {
	if st.fontSuits {
		if c, ok := st.face.Glyphs[suitRunes[suit]]; ok {
			if s, ok := fontShape(c); ok {
				return s, aspect(c)
			}
		}
	}
	return drawnSuit(suit, rng), 0.75 + rng.Float64()*0.3
}

// pipLayout gives the pips of a number card: those of the upper half (drawn twice, the
// second time turned half a turn) and those drawn once, upright (card shares).
func pipLayout(rank byte) (twice, once []pt) {
	l, m, r := 0.3, 0.5, 0.7
	switch rank {
	case '2':
		twice = []pt{{m, 0.2}}
	case '3':
		twice, once = []pt{{m, 0.2}}, []pt{{m, 0.5}}
	case '4':
		twice = []pt{{l, 0.2}, {r, 0.2}}
	case '5':
		twice, once = []pt{{l, 0.2}, {r, 0.2}}, []pt{{m, 0.5}}
	case '6':
		twice, once = []pt{{l, 0.2}, {r, 0.2}}, []pt{{l, 0.5}, {r, 0.5}}
	case '7':
		twice, once = []pt{{l, 0.2}, {r, 0.2}}, []pt{{l, 0.5}, {r, 0.5}, {m, 0.35}}
	case '8':
		twice, once = []pt{{l, 0.2}, {r, 0.2}, {m, 0.35}}, []pt{{l, 0.5}, {r, 0.5}}
	case '9':
		twice, once = []pt{{l, 0.2}, {r, 0.2}, {l, 0.4}, {r, 0.4}}, []pt{{m, 0.5}}
	case 'T':
		twice = []pt{{l, 0.2}, {r, 0.2}, {l, 0.4}, {r, 0.4}, {m, 0.3}}
	}
	return twice, once
}

// drawCard draws one card face, synthW x synthH, and returns the boxes (card pixels) of the
// rank and the suit glyph of its top-left index (the bottom-right one is the same turned).
func drawCard(st deckStyle, rank, suit byte, rng *rand.Rand) (gocv.Mat, image.Rectangle, image.Rectangle) {
	m := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(float64(st.paper.B), float64(st.paper.G), float64(st.paper.R), 0), synthH, synthW, gocv.MatTypeCV8UC3)
	ink := st.black
	if observation.IsRed(suit) {
		ink = st.red
	}
	W, H := float64(synthW), float64(synthH)
	if st.border {
		gocv.Rectangle(&m, image.Rect(int(0.035*W), int(0.03*H), int(0.965*W), int(0.97*H)), color.RGBA{R: 120, G: 120, B: 140}, 1)
	}
	rs, ra, ok := rankShape(st, rank, rng)
	if !ok {
		return m, image.Rectangle{}, image.Rectangle{}
	}
	ss, sa := suitShape(st, suit, rng)
	rh := st.rankH * H
	rw := rh * ra
	if rw > 0.17*W-st.indexX*W { // the index stays clear of the body, as printed
		rw = 0.17*W - st.indexX*W
		rh = rw / ra
	}
	sh := rh * st.suitScale
	sw := sh * sa
	rx, ry := st.indexX*W, st.indexY*H
	sx := rx + rw/2 - sw/2
	if sx < 0.015*W {
		sx = 0.015 * W
	}
	sy := ry + rh + st.gap*H
	for _, turn := range []bool{false, true} {
		drawShape(&m, rs, rx, ry, rw, rh, turn, ink)
		drawShape(&m, ss, sx, sy, sw, sh, turn, ink)
	}
	rb := image.Rect(int(rx), int(ry), int(math.Ceil(rx+rw)), int(math.Ceil(ry+rh)))
	sb := image.Rect(int(sx), int(sy), int(math.Ceil(sx+sw)), int(math.Ceil(sy+sh)))
	// The body.
	switch {
	case rank == 'A':
		ps := 0.2 + rng.Float64()*0.2
		drawShape(&m, ss, W/2-ps*H*sa/2, H/2-ps*H/2, ps*H*sa, ps*H, false, ink)
	case strings.IndexByte("JQK", rank) >= 0:
		drawPicture(&m, ink, rng)
		// A small suit beside the picture, as many decks print.
		ph := st.pipH * H * 0.6
		drawShape(&m, ss, 0.24*W, 0.16*H, ph*sa, ph, false, ink)
		drawShape(&m, ss, 0.24*W, 0.16*H, ph*sa, ph, true, ink)
	default:
		twice, once := pipLayout(rank)
		ph := st.pipH * H
		pw := ph * sa
		for _, p := range twice {
			for _, turn := range []bool{false, true} {
				drawShape(&m, ss, p.x*W-pw/2, p.y*H-ph/2, pw, ph, turn, ink)
			}
		}
		for _, p := range once {
			drawShape(&m, ss, p.x*W-pw/2, p.y*H-ph/2, pw, ph, false, ink)
		}
	}
	return m, rb, sb
}

// drawPicture fills the middle of a face card with a framed, half-turn symmetric clutter of
// coloured shapes, like the pictures of court cards.
func drawPicture(m *gocv.Mat, ink color.RGBA, rng *rand.Rand) {
	W, H := m.Cols(), m.Rows()
	frame := image.Rect(W/5, H/7, W-W/5, H-H/7)
	pic := m.Region(frame)
	defer pic.Close()
	pw, ph := float64(frame.Dx()), float64(frame.Dy())
	palette := []color.RGBA{ink, {R: 30, G: 60, B: 170}, {R: 230, G: 190, B: 40}, {R: 20, G: 20, B: 20}, {R: 240, G: 200, B: 170}, {R: 200, G: 30, B: 40}}
	seed := rng.Uint64()
	for _, turn := range []bool{false, true} {
		r2 := rand.New(rand.NewPCG(seed, 1))
		for k := 0; k < 14; k++ {
			c := palette[r2.IntN(len(palette))]
			cx, cy := r2.Float64()*pw, r2.Float64()*ph/2
			ax, ay := 4+r2.Float64()*0.25*pw, 4+r2.Float64()*0.12*ph
			if turn {
				cx, cy = pw-cx, ph-cy
			}
			gocv.EllipseWithParams(&pic, image.Pt(int(cx), int(cy)), image.Pt(int(ax), int(ay)), r2.Float64()*180, 0, 360, c, -1, gocv.Line8, 0)
		}
	}
	gocv.Rectangle(m, frame, color.RGBA{R: 60, G: 60, B: 90}, 2)
}

// synthScene lays a drawn card on a drawn cloth, seen at a slant in a stretched picture, and
// degrades the picture like a camera. It returns the picture and the card's corners in it
// (top-left, top-right, bottom-right, bottom-left of the card), and about how many pixels
// high a glyph glyphH pixels high on the card is in the picture (at least).
func synthScene(card gocv.Mat, glyphH int, rng *rand.Rand) (gocv.Mat, [4]gocv.Point2f, float64) {
	v := func(a, b float64) float64 { return a + rng.Float64()*(b-a) }
	W, H := float64(card.Cols()), float64(card.Rows())
	// Size, turn, stretch of the picture and slant of the camera.
	short := math.Exp(v(math.Log(32), math.Log(200)))
	s := short / W
	th := v(0, 2*math.Pi)
	sx, sy := 1.0, 1.0
	if rng.IntN(2) == 0 {
		st := math.Exp(v(math.Log(0.55), math.Log(1.8)))
		sx, sy = math.Sqrt(st), 1/math.Sqrt(st)
	}
	corners := [4]pt{{0, 0}, {W, 0}, {W, H}, {0, H}}
	var q [4]pt
	tilt := v(0, 0.25)
	tdir := v(0, 2*math.Pi)
	for k, c := range corners {
		x, y := (c.x-W/2)*s, (c.y-H/2)*s
		// Perspective: the far side shrinks.
		d := (x*math.Cos(tdir) + y*math.Sin(tdir)) / (short * 1.4)
		f := 1 - tilt*d
		x, y = x*f, y*f
		xr := x*math.Cos(th) - y*math.Sin(th)
		yr := x*math.Sin(th) + y*math.Cos(th)
		q[k] = pt{xr * sx, yr * sy}
	}
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range q {
		minX, maxX = math.Min(minX, p.x), math.Max(maxX, p.x)
		minY, maxY = math.Min(minY, p.y), math.Max(maxY, p.y)
	}
	margin := v(12, 40)
	sw, sh := int(maxX-minX+2*margin), int(maxY-minY+2*margin)
	var dst [4]gocv.Point2f
	for k, p := range q {
		dst[k] = gocv.Point2f{X: float32(p.x - minX + margin), Y: float32(p.y - minY + margin)}
	}
	scene := drawCloth(sw, sh, rng)
	src := gocv.NewPoint2fVectorFromPoints([]gocv.Point2f{{X: 0, Y: 0}, {X: float32(W), Y: 0}, {X: float32(W), Y: float32(H)}, {X: 0, Y: float32(H)}})
	dv := gocv.NewPoint2fVectorFromPoints(dst[:])
	hm := gocv.GetPerspectiveTransform2f(src, dv)
	warped := gocv.NewMat()
	gocv.WarpPerspectiveWithParams(card, &warped, hm, image.Pt(sw, sh), gocv.InterpolationArea, gocv.BorderConstant, color.RGBA{})
	mask := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(0, 0, 0, 0), sh, sw, gocv.MatTypeCV8U)
	var poly []image.Point
	for _, p := range dst {
		poly = append(poly, image.Pt(int(math.Round(float64(p.X))), int(math.Round(float64(p.Y)))))
	}
	pv := gocv.NewPointsVectorFromPoints([][]image.Point{poly})
	gocv.FillPoly(&mask, pv, color.RGBA{255, 255, 255, 0})
	warped.CopyToWithMask(&scene, mask)
	pv.Close()
	mask.Close()
	warped.Close()
	hm.Close()
	src.Close()
	dv.Close()
	px := float64(glyphH) * s * math.Min(sx, sy) * (1 - tilt)
	degrade(&scene, px, rng)
	return scene, dst, px
}

// drawCloth draws a table surface: a plain or graded colour, grain or speckle, noise.
func drawCloth(w, h int, rng *rand.Rand) gocv.Mat {
	cols := [][3]float64{{40, 110, 30}, {30, 60, 120}, {60, 90, 140}, {120, 120, 120}, {30, 30, 30}, {200, 200, 195}, {60, 40, 140}, {20, 20, 90}, {150, 160, 150}}
	c := cols[rng.IntN(len(cols))]
	for i := range c {
		c[i] = math.Max(0, math.Min(255, c[i]+rng.NormFloat64()*20))
	}
	m := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(c[0], c[1], c[2], 0), h, w, gocv.MatTypeCV8UC3)
	switch rng.IntN(3) {
	case 0: // speckle
		n := w * h / 40
		for k := 0; k < n; k++ {
			d := rng.NormFloat64() * 50
			gocv.Circle(&m, image.Pt(rng.IntN(w), rng.IntN(h)), 1+rng.IntN(2), color.RGBA{R: clamp8(c[2] + d), G: clamp8(c[1] + d), B: clamp8(c[0] + d)}, -1)
		}
	case 1: // grain
		for y := 0; y < h; y += 2 + rng.IntN(5) {
			d := rng.NormFloat64() * 25
			gocv.Line(&m, image.Pt(0, y), image.Pt(w, y+rng.IntN(9)-4), color.RGBA{R: clamp8(c[2] + d), G: clamp8(c[1] + d), B: clamp8(c[0] + d)}, 1+rng.IntN(2))
		}
	}
	return m
}

func clamp8(v float64) uint8 { return uint8(math.Max(0, math.Min(255, v))) }

// degrade blurs (at most so much that glyphs glyphPx pixels high stay legible), lights, adds
// noise to and JPEG-compresses a picture.
func degrade(m *gocv.Mat, glyphPx float64, rng *rand.Rand) {
	if b := rng.Float64(); b < 0.7 {
		s := math.Min(0.3+1.2*b, glyphPx/10)
		k := 2*int(math.Ceil(2*s)) + 1
		gocv.GaussianBlur(*m, m, image.Pt(k, k), s, s, gocv.BorderReplicate)
	}
	// Light: gain and offset per picture.
	m.ConvertToWithParams(m, gocv.MatTypeCV8UC3, float32(0.6+rng.Float64()*0.6), float32(rng.NormFloat64()*15))
	if rng.IntN(2) == 0 {
		// Sensor noise from rng, not OpenCV's RandN: OpenCV's generator is per OS thread,
		// which would make the build depend on goroutine scheduling.
		if b, err := m.DataPtrUint8(); err == nil && m.IsContinuous() {
			for i := range b {
				b[i] = clamp8(float64(b[i]) + rng.NormFloat64()*6)
			}
		}
	}
	if rng.IntN(3) != 0 {
		buf, err := gocv.IMEncodeWithParams(gocv.JPEGFileExt, *m, []int{gocv.IMWriteJpegQuality, 30 + rng.IntN(60)})
		if err == nil {
			d, err := gocv.IMDecode(buf.GetBytes(), gocv.IMReadColor)
			buf.Close()
			if err == nil && !d.Empty() {
				m.Close()
				*m = d
			} else {
				d.Close()
			}
		}
	}
}

// synthCardSamples draws n cards of every rank and suit in random decks and cuts their
// index glyphs (and pips) with the recogniser's code. Glyphs cut where the index is, and
// matching its true boxes, are positives; glyphs cut anywhere else (the other way round,
// the corners without index, an index cut wrong) teach the rank model's reject class.
//
// dump, when not empty, is a folder that receives the first pictures drawn, for review.
func synthCardSamples(faces []fontFace, n int, dump string, rng *rand.Rand, log *slog.Logger) (rankS, suitS []sample) {
	if len(faces) == 0 || n <= 0 {
		return nil, nil
	}
	reject := len(rankClasses) - 1
	var stats [3]int
	defer func() {
		if dump != "" {
			dumpSamples(dump, "rank", rankS, rankClasses, 14, 20)
			dumpSamples(dump, "suit", suitS, suitClasses, 12, 12)
		}
		log.Info("synthetic index cuts", "right", stats[0], "wrong", stats[1], "unsure", stats[2])
	}()
	for k := 0; k < n; k++ {
		for ri := 0; ri < len(observation.Ranks); ri++ {
			for si := 0; si < len(observation.Suits); si++ {
				rank, suit := observation.Ranks[ri], observation.Suits[si]
				st := randomStyle(faces, rng)
				card, rb, sb := drawCard(st, rank, suit, rng)
				if rb.Empty() {
					card.Close()
					continue
				}
				if st.mirrored {
					gocv.Flip(card, &card, 1)
				}
				scene, q, glyphPx := synthScene(card, rb.Dy(), rng)
				card.Close()
				if dump != "" && k == 0 && si == 0 {
					_ = os.MkdirAll(dump, 0o755)
					gocv.IMWrite(filepath.Join(dump, fmt.Sprintf("synth_%c%c.png", rank, suit)), scene)
				}
				quad := detect.CardQuad{Corners: q}
				l01 := dist(q[0], q[1]) + dist(q[2], q[3])
				l12 := dist(q[1], q[2]) + dist(q[3], q[0])
				// The way round that puts the card's top side on top of the warp.
				uprightRot := l01 > l12
				var jit [4]gocv.Point2f
				size := math.Sqrt(l01 * l12 / 4)
				for c := range jit {
					jit[c] = gocv.Point2f{X: float32(rng.NormFloat64() * 0.01 * size), Y: float32(rng.NormFloat64() * 0.01 * size)}
				}
				// True index boxes in warped-card pixels (the warp is 180x252 for 250x350).
				sc := 180.0 / synthW
				trueRank := scaleRect(rb, sc)
				trueSuit := scaleRect(sb, sc)
				gs := detect.GlyphSamples(scene, quad, jit, 0, 0, rng)
				for _, g := range gs {
					indexCorner := g.Corner%2 == 0
					if st.mirrored {
						indexCorner = !indexCorner
					}
					if g.Rot90 != uprightRot || !indexCorner {
						if os.Getenv("SYNTH_NOREJ") == "" {
							rankS = append(rankS, sample{x: g.Rank, y: reject})
						}
						continue
					}
					switch rm, sm := cutMatch(g.RankBox, trueRank), cutMatch(g.SuitBox, trueSuit); {
					case rm == cutRight && sm == cutRight && glyphPx < 7:
						// Too small to be legible: neither taught as a rank nor as no index.
						stats[2]++
					case rm == cutRight && sm == cutRight:
						rankS = append(rankS, sample{x: g.Rank, y: ri})
						suitS = append(suitS, sample{x: g.Suit, y: si})
						stats[0]++
					case rm == cutWrong && os.Getenv("SYNTH_NOREJ") == "":
						rankS = append(rankS, sample{x: g.Rank, y: reject})
						stats[1]++
					default:
						stats[2]++
					}
				}
				if strings.IndexByte("A23456789T", rank) >= 0 && !st.mirrored {
					for _, x := range detect.PipSamples(scene, quad, uprightRot) {
						suitS = append(suitS, sample{x: x, y: si})
					}
				}
				scene.Close()
			}
		}
	}
	return rankS, suitS
}

const (
	cutRight = iota
	cutUnsure
	cutWrong
)

// cutMatch compares the box a glyph was cut from with the glyph's true box: right when its
// centre lies in the true box and its height is about the same, wrong when it is clearly
// elsewhere or of another size (two glyphs run together, a pip, part of a glyph).
func cutMatch(cut, truth image.Rectangle) int {
	c := image.Pt((cut.Min.X+cut.Max.X)/2, (cut.Min.Y+cut.Max.Y)/2)
	hr := float64(cut.Dy()) / math.Max(1, float64(truth.Dy()))
	grow := func(r image.Rectangle, f float64) image.Rectangle {
		dx, dy := int(f*float64(r.Dx())), int(f*float64(r.Dy()))
		return image.Rect(r.Min.X-dx, r.Min.Y-dy, r.Max.X+dx, r.Max.Y+dy)
	}
	switch {
	case c.In(grow(truth, 0.1)) && hr > 0.75 && hr < 1.3:
		return cutRight
	case !c.In(grow(truth, 0.5)) || hr < 0.55 || hr > 1.6:
		return cutWrong
	}
	return cutUnsure
}

func dist(a, b gocv.Point2f) float64 { return math.Hypot(float64(a.X-b.X), float64(a.Y-b.Y)) }

func scaleRect(r image.Rectangle, s float64) image.Rectangle {
	return image.Rect(int(float64(r.Min.X)*s), int(float64(r.Min.Y)*s), int(math.Ceil(float64(r.Max.X)*s)), int(math.Ceil(float64(r.Max.Y)*s)))
}
