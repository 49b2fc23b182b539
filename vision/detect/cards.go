package detect

import (
	"errors"
	"fmt"
	"image"
	"math"
	"sort"

	"gocv.io/x/gocv"

	"github.com/coupwatch/coupwatch/models"
	"github.com/coupwatch/coupwatch/vision/observation"
)

// ErrEmptyFrame is returned for a frame with no pixels.
var ErrEmptyFrame = errors.New("empty frame")

// Confidence thresholds of the card reader.
const (
	// minCardConf is the least confidence at which a read card is reported with its label.
	minCardConf = 0.35
	// singleCornerPenalty scales the confidence of a card read from one index corner only.
	singleCornerPenalty = 0.8
	// maxWorkSide is the longest side of the image the card search works on.
	maxWorkSide = 1000
)

// Cards finds face-up playing cards in a frame and reads them from their index corners. A
// Cards keeps working buffers between frames: use one per goroutine, and Close it.
type Cards struct {
	rank, suit   *models.MLP
	rankLabels   []byte // class index → rank letter, 0 for the reject class
	suitLabels   []byte
	seg          *segmenter
	work, bgr    gocv.Mat
	card         rgbImage
	patch        cornerPatch
	labels       []int32
	rankFeat     []float32
	suitFeat     []float32
	rankScratch  models.Scratch
	suitScratch  models.Scratch
	cornerReads  [2][numCorners]cornerRead
	probsBacking []float32
}

// cornerRead is what one index corner says.
type cornerRead struct {
	ok           bool
	rankP, suitP []float32
}

// NewCards makes a card recogniser from the card models (models.LoadCards).
func NewCards(m *models.CardModels) (*Cards, error) {
	if m == nil || m.Rank == nil || m.Suit == nil {
		return nil, errors.New("card recogniser: no models")
	}
	if m.RankManifest.Input.Features != RankFeatures || m.Rank.Inputs() != RankFeatureSize {
		return nil, fmt.Errorf("card recogniser: rank model %s reads %q (%d), this build computes %q (%d): rebuild the models",
			m.RankManifest.Version, m.RankManifest.Input.Features, m.Rank.Inputs(), RankFeatures, RankFeatureSize)
	}
	if m.SuitManifest.Input.Features != SuitFeatures || m.Suit.Inputs() != SuitFeatureSize {
		return nil, fmt.Errorf("card recogniser: suit model %s reads %q (%d), this build computes %q (%d): rebuild the models",
			m.SuitManifest.Version, m.SuitManifest.Input.Features, m.Suit.Inputs(), SuitFeatures, SuitFeatureSize)
	}
	rl, err := classLetters(m.RankManifest.Classes, observation.Ranks)
	if err != nil {
		return nil, fmt.Errorf("card recogniser: rank model: %w", err)
	}
	sl, err := classLetters(m.SuitManifest.Classes, observation.Suits)
	if err != nil {
		return nil, fmt.Errorf("card recogniser: suit model: %w", err)
	}
	c := &Cards{
		rank: m.Rank, suit: m.Suit, rankLabels: rl, suitLabels: sl,
		seg: newSegmenter(), work: gocv.NewMat(), bgr: gocv.NewMat(),
		rankFeat: make([]float32, RankFeatureSize), suitFeat: make([]float32, SuitFeatureSize),
	}
	nr, ns := len(rl), len(sl)
	c.probsBacking = make([]float32, 2*numCorners*(nr+ns))
	k := 0
	for o := range c.cornerReads {
		for i := range c.cornerReads[o] {
			c.cornerReads[o][i].rankP = c.probsBacking[k : k+nr]
			k += nr
			c.cornerReads[o][i].suitP = c.probsBacking[k : k+ns]
			k += ns
		}
	}
	return c, nil
}

func classLetters(classes []string, alphabet string) ([]byte, error) {
	out := make([]byte, len(classes))
	seen := 0
	for i, c := range classes {
		switch {
		case c == models.Reject:
			out[i] = 0
		case len(c) == 1 && alphabet != "" && containsByte(alphabet, c[0]):
			out[i] = c[0]
			seen++
		default:
			return nil, fmt.Errorf("unexpected class %q", c)
		}
	}
	if seen != len(alphabet) {
		return nil, fmt.Errorf("%d of the %d classes %s", seen, len(alphabet), alphabet)
	}
	return out, nil
}

func containsByte(s string, b byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == b {
			return true
		}
	}
	return false
}

// Close releases the recogniser's buffers.
func (c *Cards) Close() error {
	c.seg.Close()
	c.work.Close()
	c.bgr.Close()
	return nil
}

// cardRead is the reading of one candidate quad.
type cardRead struct {
	rank, suit byte
	conf       float64
	corners    int // index corners that were read (1 or 2)
	evidence   bool
}

// Detect finds the cards in a BGR (or grey, or BGRA) frame. Boxes are in the frame's pixels.
func (c *Cards) Detect(img gocv.Mat) ([]observation.Object, error) {
	src, err := c.asBGR(img)
	if err != nil {
		return nil, err
	}
	cands := c.findQuads(src)
	return c.selectCards(src, cands), nil
}

// asBGR returns img as 3-channel 8-bit BGR, converting into a reused Mat when needed.
func (c *Cards) asBGR(img gocv.Mat) (gocv.Mat, error) {
	return toBGR(img, &c.bgr)
}

func toBGR(img gocv.Mat, dst *gocv.Mat) (gocv.Mat, error) {
	if img.Empty() || img.Rows() < 8 || img.Cols() < 8 {
		return img, ErrEmptyFrame
	}
	switch img.Type() {
	case gocv.MatTypeCV8UC3:
		return img, nil
	case gocv.MatTypeCV8UC1:
		gocv.CvtColor(img, dst, gocv.ColorGrayToBGR)
	case gocv.MatTypeCV8UC4:
		gocv.CvtColor(img, dst, gocv.ColorBGRAToBGR)
	default:
		return img, fmt.Errorf("unsupported pixel type %v", img.Type())
	}
	return *dst, nil
}

// findQuads returns card-shaped quads in original-image pixels, largest first.
func (c *Cards) findQuads(src gocv.Mat) []quadCand {
	return findQuads(src, c.seg, &c.work)
}

func findQuads(src gocv.Mat, seg *segmenter, workMat *gocv.Mat) []quadCand {
	scale := math.Min(1, float64(maxWorkSide)/float64(max(src.Rows(), src.Cols())))
	work := src
	if scale < 1 {
		gocv.Resize(src, workMat, image.Pt(int(math.Round(float64(src.Cols())*scale)), int(math.Round(float64(src.Rows())*scale))), 0, 0, gocv.InterpolationArea)
		work = *workMat
	}
	cands := seg.candidates(work)
	if scale < 1 {
		inv := 1 / scale
		for i := range cands {
			for k := range cands[i].q {
				cands[i].q[k] = cands[i].q[k].mul(inv)
			}
			cands[i].area *= inv * inv
			cands[i].bounds = quadBounds(cands[i].q)
		}
	}
	cands = dedupe(cands, 0.85)
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].area > cands[j].area })
	return cands
}

type accepted struct {
	obj    observation.Object
	bounds image.Rectangle
}

// selectCards reads the candidates, largest first, and keeps a consistent set: a card read
// from both index corners first, then cards read from one corner, then unreadable cards that
// still show an index, as unknown.
func (c *Cards) selectCards(src gocv.Mat, cands []quadCand) []observation.Object {
	reads := make([]*cardRead, len(cands))
	var acc []accepted
	frame := image.Rect(0, 0, src.Cols(), src.Rows())
	overlaps := func(b image.Rectangle) bool {
		for _, a := range acc {
			if containment(b, a.bounds) > 0.6 || containment(a.bounds, b) > 0.6 || rectIoU(a.bounds, b) > 0.3 {
				return true
			}
		}
		return false
	}
	add := func(cd quadCand, r *cardRead, label string, conf float64) {
		b := cd.bounds.Intersect(frame)
		acc = append(acc, accepted{
			obj: observation.Object{
				Label: label,
				Box:   observation.Box{X: b.Min.X, Y: b.Min.Y, W: b.Dx(), H: b.Dy()},
				Conf:  math.Round(conf*1000) / 1000,
			},
			bounds: cd.bounds,
		})
	}
	for pass := 0; pass < 3; pass++ {
		for i, cd := range cands {
			if overlaps(cd.bounds) {
				continue
			}
			if reads[i] == nil {
				r := c.read(src, cd.q)
				reads[i] = &r
			}
			r := reads[i]
			switch {
			case pass == 0 && r.corners == 2 && r.conf >= minCardConf:
				add(cd, r, observation.CardLabel(r.rank, r.suit), r.conf)
			case pass == 1 && r.conf >= minCardConf:
				add(cd, r, observation.CardLabel(r.rank, r.suit), r.conf)
			case pass == 2 && r.evidence:
				add(cd, r, observation.Unknown, math.Min(r.conf, 0.3))
			}
		}
	}
	out := make([]observation.Object, len(acc))
	for i, a := range acc {
		out[i] = a.obj
	}
	return out
}

// read warps the quad both ways round and reads the index corners of each.
func (c *Cards) read(src gocv.Mat, q [4]pt) cardRead {
	for o := 0; o < 2; o++ {
		w := warpCard(src, q, o == 1)
		err := toRGBImage(w, &c.card)
		w.Close()
		if err != nil {
			return cardRead{}
		}
		for k := 0; k < numCorners; k++ {
			c.readCorner(k, &c.cornerReads[o][k])
		}
	}
	return combineCorners(&c.cornerReads, c.rankLabels, c.suitLabels)
}

// readCorner classifies the index of corner k of the current warped card.
func (c *Cards) readCorner(k int, out *cornerRead) {
	extractCorner(&c.card, k, &c.patch)
	n := c.patch.w * c.patch.h
	if cap(c.labels) < n {
		c.labels = make([]int32, n)
	}
	thr := inkThreshold(c.patch.ink)
	bs := c.patch.blobs(thr, c.labels[:n])
	rb, sb, ok := indexGlyphs(&c.patch, bs, c.card.w, c.card.h)
	out.ok = ok
	if !ok {
		return
	}
	rankFeatures(&c.patch, rb, c.card.h, c.rankFeat)
	copy(out.rankP, c.rank.Predict(c.rankFeat, &c.rankScratch))
	suitFeatures(&c.patch, sb, meanRed(&c.patch, sb, thr), c.suitFeat)
	copy(out.suitP, c.suit.Predict(c.suitFeat, &c.suitScratch))
}

// combineCorners picks the orientation and diagonal whose index corners give the most
// confident reading. Two corners of the same card are averaged, so that corners that
// disagree lower the confidence instead of raising it.
func combineCorners(reads *[2][numCorners]cornerRead, rankLabels, suitLabels []byte) cardRead {
	var best cardRead
	for o := 0; o < 2; o++ {
		for d := 0; d < 2; d++ {
			a, b := &reads[o][d], &reads[o][d+2]
			var r cardRead
			switch {
			case a.ok && b.ok:
				ri, rp := argmaxAvg(a.rankP, b.rankP, rankLabels)
				si, sp := argmaxAvg(a.suitP, b.suitP, suitLabels)
				r = cardRead{rank: rankLabels[ri], suit: suitLabels[si], conf: rp * sp, corners: 2}
			case a.ok || b.ok:
				x := a
				if !a.ok {
					x = b
				}
				ri, rp := argmaxAvg(x.rankP, x.rankP, rankLabels)
				si, sp := argmaxAvg(x.suitP, x.suitP, suitLabels)
				r = cardRead{rank: rankLabels[ri], suit: suitLabels[si], conf: rp * sp * singleCornerPenalty, corners: 1}
			default:
				continue
			}
			if rp := maxNonReject(a, b, rankLabels); rp > 0.5 {
				r.evidence = true
			}
			if r.conf > best.conf || (!best.evidence && r.evidence) {
				ev := best.evidence || r.evidence
				if r.conf > best.conf {
					best = r
				}
				best.evidence = ev
			}
		}
	}
	return best
}

// argmaxAvg returns the non-reject class with the highest mean probability over p and q.
func argmaxAvg(p, q []float32, labels []byte) (int, float64) {
	bi, bp := 0, -1.0
	for i := range p {
		if labels[i] == 0 {
			continue
		}
		v := float64(p[i]+q[i]) / 2
		if v > bp {
			bi, bp = i, v
		}
	}
	return bi, bp
}

func maxNonReject(a, b *cornerRead, labels []byte) float64 {
	m := 0.0
	for _, x := range []*cornerRead{a, b} {
		if !x.ok {
			continue
		}
		for i, p := range x.rankP {
			if labels[i] != 0 {
				m = math.Max(m, float64(p))
			}
		}
	}
	return m
}
