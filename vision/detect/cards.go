package detect

import (
	"cmp"
	"errors"
	"fmt"
	"image"
	"math"
	"slices"
	"sort"

	"gocv.io/x/gocv"

	"github.com/coupwatch/coupwatch/models"
	"github.com/coupwatch/coupwatch/vision/observation"
)

// ErrEmptyFrame is returned for a frame with no pixels.
var ErrEmptyFrame = errors.New("empty frame")

// Confidence thresholds of the card reader.
const (
	// minCardConf is the least confidence at which a card read from both index corners is
	// reported with its label; minSingleConf for a card read from one corner.
	minCardConf   = 0.35
	minSingleConf = 0.6
	// rejectedCorner is the best rank probability under which a corner read beside a
	// readable one is taken for no index at all.
	rejectedCorner = 0.2
	// maxClutter is the most ink (as a share of the paper) around the index of a card read
	// from one corner: an index is printed on plain paper (see clutter).
	maxClutter = 0.4
	// singleCornerPenalty scales the confidence of a card read from one index corner only.
	singleCornerPenalty = 0.8
	// minMargin1 and minMargin2 are the least plain-paper share of the margin of a card read
	// from one index corner, and from two.
	minMargin1 = 0.0
	minMargin2 = 0.0
	// sureConf is the confidence of a two-corner reading above which the pips are not
	// counted.
	sureConf = 0.9
	// minBackSide is the least size in pixels (either side) of a quad called a card back:
	// smaller patterned patches are too often something else.
	minBackSide = 60
	// minCardLong is the least long side in frame pixels of a quad read as a card: a rank
	// glyph is about an eighth of a card's height, and under 6 pixels the reader cannot
	// tell glyphs apart, so a smaller quad read as a card (a die face printed on a chip)
	// is a misreading.
	minCardLong = 48
	// redInk is the mean redness above which ink is taken to be red.
	redInk = 0.08
	// maxWorkSide is about the longest side of the image the card search works on: the
	// image is shrunk by the whole factor nearest its longest side over this (a 1920x1080
	// frame is searched at 640x360, a 960x540 one at full size).
	maxWorkSide = 700
)

// Cards finds face-up playing cards in a frame and reads them from their index corners. A
// Cards keeps working buffers between frames: use one per goroutine, and Close it.
type Cards struct {
	rank, suit   *models.Ensemble
	rankLabels   []byte // class index → rank letter, 0 for the reject class
	suitLabels   []byte
	seg          *segmenter
	search       *indexSearch
	workScale    int // the factor the finder shrank the last frame by
	work, bgr    gocv.Mat
	views        [2]*cardView // the candidate warped both ways round
	patch, body  cornerPatch
	labels       []int32
	rankFeat     []float32
	suitFeat     []float32
	rankScratch  models.EnsembleScratch
	suitScratch  models.EnsembleScratch
	cornerReads  [2][numCorners]cornerRead
	probsBacking []float32
}

// cornerRead is what one index corner says.
type cornerRead struct {
	ok           bool
	rankP, suitP []float32
	index        image.Rectangle // rank and suit glyphs, in card pixels
	// clutter is the share of ink around the index (see clutter).
	clutter float64
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
	if err == nil && slices.Contains(sl, 0) {
		err = errors.New("the suit model has a reject class")
	}
	if err != nil {
		return nil, fmt.Errorf("card recogniser: suit model: %w", err)
	}
	c := &Cards{
		rank: m.Rank, suit: m.Suit, rankLabels: rl, suitLabels: sl,
		seg: newSegmenter(), search: newIndexSearch(), work: gocv.NewMat(), bgr: gocv.NewMat(), views: [2]*cardView{newCardView(), newCardView()},
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
	c.search.Close()
	c.work.Close()
	c.bgr.Close()
	for _, v := range c.views {
		v.Close()
	}
	return nil
}

// cardRead is the reading of one candidate quad.
type cardRead struct {
	rank, suit byte
	conf       float64
	corners    int // index corners that were read (1 or 2)
	evidence   bool
	back       float64 // how much the quad looks like the back of a card (no index read)
	rot90      bool
	diag       int
	pips       int // pips counted on the body, 0 for none
	// conflict is a rank that another index corner of the same way round reads with
	// confidence (0 for none): two cards in one quad, or one corner misread.
	conflict byte
	// clutter is the ink around the index of a card read from one corner (see clutter).
	clutter float64
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
	c.workScale = workScale(src)
	// Too small to read (the training's finder keeps them: their corners teach the rank
	// model what is no index).
	return slices.DeleteFunc(findQuads(src, c.seg, &c.work), func(cd quadCand) bool {
		return max(cd.bounds.Dx(), cd.bounds.Dy()) < minCardLong
	})
}

// workScale is the whole factor the card search shrinks a frame by.
func workScale(src gocv.Mat) int {
	return max(1, int(math.Round(float64(max(src.Rows(), src.Cols()))/maxWorkSide)))
}

func findQuads(src gocv.Mat, seg *segmenter, workMat *gocv.Mat) []quadCand {
	// Shrink by a whole factor: area averaging is then cheap and exact.
	k := workScale(src)
	scale := 1 / float64(k)
	work := src
	if k > 1 {
		// The search needs grey only: convert first, shrink a third as many channels.
		gocv.CvtColor(src, &seg.full, gocv.ColorBGRToGray)
		gocv.Resize(seg.full, workMat, image.Pt(src.Cols()/k, src.Rows()/k), 0, 0, gocv.InterpolationArea)
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
	q      [4]pt
	// single marks a quad read from one index corner: it may be the outline of several
	// cards of a heap, read at the corner of the one underneath.
	single bool
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
			q:      cd.q,
			single: r.corners == 1,
		})
	}
	for pass := 0; pass < 3; pass++ {
		if pass == 1 {
			// Two cards side by side, touching, outline as one long quad: read its halves.
			cands, reads = c.splitPairs(src, cands, reads, acc, overlaps)
		}
		if pass == 2 {
			// Cards the finder could not outline alone, read from an index in view.
			acc = c.cornerFirst(src, cands, reads, acc, overlaps)
		}
		for i, cd := range cands {
			if overlaps(cd.bounds) {
				continue
			}
			if reads[i] == nil {
				r := c.readSteady(src, cd.q)
				reads[i] = &r
			}
			r := reads[i]
			switch {
			case pass == 0 && r.corners == 2 && r.conf >= minCardConf:
				add(cd, r, observation.CardLabel(r.rank, r.suit), r.conf)
			case pass == 1 && r.conf >= minSingleConf && r.clutter <= maxClutter:
				// (One "index" amid ink, in a quad the finder outlined, is a glyph pair of
				// cloth, wood grain or a picture.)
				if j := tighterOutline(cands, reads, i); j >= 0 {
					cd, r = cands[j], reads[j]
				}
				add(cd, r, observation.CardLabel(r.rank, r.suit), r.conf)
			case pass == 2 && r.evidence:
				add(cd, r, observation.Unknown, math.Max(0.05, math.Min(r.conf, 0.3)))
			case pass == 2 && r.back > 0 && !r.evidence && r.conf < minCardConf && min(cd.bounds.Dx(), cd.bounds.Dy()) >= minBackSide:
				add(cd, r, observation.FaceDown, r.back)
			}
		}
	}
	out := make([]observation.Object, len(acc))
	for i, a := range acc {
		out[i] = a.obj
	}
	return out
}

// tighterOutline returns the candidate inside quad i that reads as the same card from pips
// that count its rank, where quad i's own reading has no such pips; else -1. The finder
// outlines a card twice when its edge merges on one side with what lies beside it (a
// shadow, the pattern of a cloth): once alone and once with that strip. Both hold the
// card's index, and the larger is first in line, but only the card's own outline puts the
// pips where a card has them.
func tighterOutline(cands []quadCand, reads []*cardRead, i int) int {
	r := reads[i]
	if r.pips > 0 && pipRank(r.pips) == r.rank {
		return -1
	}
	best := -1
	for j, cd := range cands {
		o := reads[j]
		if j == i || o == nil || o.rank != r.rank || o.suit != r.suit || o.pips == 0 || pipRank(o.pips) != o.rank ||
			o.clutter > maxClutter || o.conf < r.conf || containment(cd.bounds, cands[i].bounds) < 0.9 {
			continue
		}
		if best < 0 || o.conf > reads[best].conf {
			best = j
		}
	}
	return best
}

// minPairRatio is the least ratio of a quad's long sides to its short ones at which it may
// be two cards lying side by side (one card is 1.4, and up to about 1.9 in a picture
// stretched to a square; two cards touching along their long sides are 2.8).
const minPairRatio = 2.0

// splitPairs adds the halves of the long quads that read as no card (see minPairRatio) to
// the candidates, with their readings: the halves of two cards touching are the cards. Not
// a quad the size of a card read from both corners in the same frame: in a picture stretched
// to a square, one card can be that long.
func (c *Cards) splitPairs(src gocv.Mat, cands []quadCand, reads []*cardRead, acc []accepted, overlaps func(image.Rectangle) bool) ([]quadCand, []*cardRead) {
	n := len(cands)
	for i := 0; i < n; i++ {
		cd, r := cands[i], reads[i]
		if r == nil || !r.evidence || overlaps(cd.bounds) || cardSized(cd.q, acc) {
			continue
		}
		halves, ok := splitQuad(cd.q)
		if !ok {
			continue
		}
		var hr [2]cardRead
		for k, h := range halves {
			hr[k] = c.read(src, h)
		}
		if max(hr[0].conf, hr[1].conf) < minSingleConf {
			continue // not two cards, or none that can be read
		}
		// Both halves become candidates: the one not read is searched corner-first.
		for k, h := range halves {
			cands = append(cands, quadCand{q: h, area: polyArea(h[:]), fill: cd.fill, bounds: quadBounds(h), source: cd.source})
			reads = append(reads, &hr[k])
		}
	}
	return cands, reads
}

// splitQuad cuts a quad whose long sides are at least minPairRatio times its short ones
// across the middle of its long sides, into two quads (clockwise from top-left).
func splitQuad(q [4]pt) ([2][4]pt, bool) {
	s0, s1 := meanSides(q)
	mid := func(a, b pt) pt { return a.add(b).mul(0.5) }
	switch {
	case s0 >= minPairRatio*s1:
		a, b := mid(q[0], q[1]), mid(q[3], q[2])
		return [2][4]pt{{q[0], a, b, q[3]}, {a, q[1], q[2], b}}, true
	case s1 >= minPairRatio*s0:
		a, b := mid(q[1], q[2]), mid(q[0], q[3])
		return [2][4]pt{{q[0], q[1], a, b}, {b, a, q[2], q[3]}}, true
	}
	return [2][4]pt{}, false
}

// cornerFirst reads the cards whose index lies in a part of the frame that the cards
// accepted so far do not explain (see cornerfirst.go), and adds them to acc.
func (c *Cards) cornerFirst(src gocv.Mat, cands []quadCand, reads []*cardRead, acc []accepted, overlaps func(image.Rectangle) bool) []accepted {
	frame := image.Rect(0, 0, src.Cols(), src.Rows())
	var quads []image.Rectangle
	for i, cd := range cands {
		if r := reads[i]; r != nil && (r.evidence || r.conflict != 0) && !overlaps(cd.bounds) {
			quads = append(quads, cd.bounds)
		}
	}
	cards := make([][4]pt, len(acc))
	var heaps []image.Rectangle
	for i, a := range acc {
		cards[i] = a.q
		// Cards fanned over each other often outline as one quad, read at the index of the
		// card underneath; the indexes of the cards over it are searched, last. Not when
		// the quad fits a card read from both corners in the same frame: it is a card.
		if a.single && !cardSized(a.q, acc) {
			heaps = append(heaps, a.bounds)
		}
	}
	var fs, lone []found
	var readPairs [][4]int
	// Heaps have a budget of their own: the light regions of a speckled cloth must not use
	// it all up.
	budget, onHeaps, onFaint, partners := maxFrameIndexPairs, false, false, 0
	rois := c.search.unexplained(src, c.seg.bright, c.workScale, quads, cards, heaps)
	for ri := 0; ri < len(rois); ri++ {
		roi := rois[ri]
		if roi.heap && !onHeaps {
			budget, onHeaps = maxFrameIndexPairs/2, true
		}
		if roi.faint && !onFaint {
			budget, onFaint = maxFrameIndexPairs/4, true
		}
		lo, hi := roi.glyphRange()
		contrast := inkContrast
		if roi.faint {
			contrast = faintInkContrast
		}
		pairs := indexPairs(c.search.blobsIn(src, roi.r, lo, hi, contrast))
		found0 := len(fs) + len(lone)
		tried := 0
	pairs:
		for _, p := range pairs {
			if tried == maxIndexPairs || budget == 0 {
				break
			}
			// An index inside a card read already is that card's (one read from one corner
			// may hold cards over it: see below).
			var in []int
			for k, a := range acc {
				if p.rank.c.img().In(a.bounds) {
					if !a.single {
						continue pairs
					}
					in = append(in, k)
				}
			}
			// Regions overlap, and the fainter search finds the pairs of the usual one
			// again: a pair read once is not read again.
			key := [4]int{int(math.Round(p.rank.c.X)), int(math.Round(p.rank.c.Y)), int(math.Round(p.suit.c.X)), int(math.Round(p.suit.c.Y))}
			if slices.Contains(readPairs, key) {
				continue
			}
			readPairs = append(readPairs, key)
			tried++
			budget--
			q, r, ok := c.readAtIndex(src, p)
			if !ok {
				continue
			}
			conf := math.Min(r.conf, cornerFirstConf) // its outline was guessed
			cr := &c.cornerReads[0][0]
			centre, guessed := quadPoint(q, mid(cr.index)), true
			// Outside a quad the finder outlined, one index is too little: glyph pairs are
			// everywhere (print, wood grain, chips). The card's other index or its pips must
			// say the same, or the card must outline when looked for there alone.
			if roi.glyph == 0 && r.corners < 2 && !(r.pips > 0 && pipRank(r.pips) == r.rank) {
				oq, ok := c.outlineNear(src, q, p.rank.c)
				if !ok {
					// Unless its other index is found on its own (below).
					lone = append(lone, found{label: observation.CardLabel(r.rank, r.suit), conf: conf,
						q: q, index: p.rank.c, sure: 1, centre: centre, glyph: p.rank.size})
					continue
				}
				q, guessed = oq, false
			}
			if r.corners == 2 && c.cornerReads[0][2].ok {
				// Both indexes read: they place the card better than the guess from one.
				if rq, ok := refitToIndexes(q, cr.index, c.cornerReads[0][2].index); ok {
					q = rq
				}
			}
			label := observation.CardLabel(r.rank, r.suit)
			if slices.ContainsFunc(in, func(k int) bool { return acc[k].obj.Label == label }) {
				continue // the index the card was read from
			}
			// The same rank in the same place: the card read from one corner, read again
			// with another suit. The surer reading names it.
			if k := slices.IndexFunc(in, func(k int) bool {
				return acc[k].obj.Label[0] == label[0] && rectIoU(quadBounds(q), acc[k].bounds) > 0.6
			}); k >= 0 {
				if a := &acc[in[k]]; conf > a.obj.Conf {
					a.obj.Label, a.obj.Conf = label, math.Round(conf*1000)/1000
				}
				continue
			}
			// A card over another of a heap is of the heap's cards' size, and the heap's
			// outline is at least that big: a larger card is a misreading of the picture
			// or pips of the card underneath.
			for _, k := range in {
				if !fitsIn(q, acc[k].q, 1.3) {
					continue pairs
				}
			}
			bounds := quadBounds(q).Intersect(frame)
			f := found{label: label, conf: conf, q: q, bounds: bounds, index: p.rank.c,
				sure: r.corners, centre: centre, glyph: p.rank.size}
			// A card read from one index whose size was guessed from that index: its other
			// index, where it should be, places it (the guess may have put that corner off
			// the card, so that it could not be read there).
			if f.sure == 1 && guessed && partners < maxLoneIndexes {
				partners++
				if b, ok := c.partnerOf(src, f); ok {
					if rq, ok := refitToCentres(f.q, quadCoords(f.q, f.centre), quadCoords(f.q, b.centre)); ok {
						f.q, f.bounds, f.sure, f.conf = rq, quadBounds(rq).Intersect(frame), 2, math.Max(f.conf, b.conf)
					}
				}
			}
			// Found already from another pair of its glyphs, or from the same index read
			// with another suit: the one placed by both its indexes is kept (an outline
			// found near one index may be that of two cards), else the surer reading.
			dup := slices.IndexFunc(fs, func(g found) bool {
				return rectIoU(g.bounds, f.bounds) > 0.3 && (g.label == label ||
					g.label[0] == label[0] && g.index.dist(f.index) < 1.5*max(g.glyph, f.glyph))
			})
			switch {
			case dup < 0:
				fs = append(fs, f)
			case f.sure > fs[dup].sure || f.sure == fs[dup].sure && f.conf > fs[dup].conf:
				fs[dup] = f
			}
		}
		if !roi.faint && !roi.heap && len(fs)+len(lone) == found0 && shrinkFactor(roi.r) == 1 {
			// A region where nothing was read is searched again for fainter ink (the thin
			// strokes of a blurred index break apart at the usual contrast), last, with a
			// budget of its own. Not a heap: a card read from one corner is explained
			// already, and its picture offers many faint glyph pairs. Nor a region searched
			// shrunk (see blobsIn): shrinking has averaged the strokes already, and a
			// second look at a frame-sized cloth costs more than it finds.
			f := roi
			f.faint = true
			rois = append(rois, f)
		}
	}
	// A card read from one index only, outside any quad: its other index, read on its own
	// and turned half a turn, confirms it, and the two place the card.
	for i, n := 0, len(lone); i < n && i < maxLoneIndexes; i++ {
		if b, ok := c.partnerOf(src, lone[i]); ok {
			lone = append(lone, b)
		}
	}
	used := make([]bool, len(lone))
	for i, a := range lone {
		for j := i + 1; j < len(lone) && !used[i]; j++ {
			b := lone[j]
			// Each guess is sized from one index's glyph spacing: one of them at least must
			// hold the other index (the refit below checks that the two make a card).
			if used[j] || a.label != b.label || !(inQuad(a.index, b.q) || inQuad(b.index, a.q)) {
				continue
			}
			upA, upB := a.q[0].sub(a.q[3]), b.q[0].sub(b.q[3])
			if upA.dot(upB) > -0.8*upA.norm()*upB.norm() {
				continue // not turned half a turn from each other
			}
			q, ok := refitToCentres(a.q, quadCoords(a.q, a.centre), quadCoords(a.q, b.centre))
			if !ok {
				continue
			}
			used[i], used[j] = true, true
			bounds := quadBounds(q).Intersect(frame)
			if slices.ContainsFunc(fs, func(f found) bool { return f.label == a.label && rectIoU(f.bounds, bounds) > 0.3 }) {
				continue
			}
			fs = append(fs, found{label: a.label, conf: math.Max(a.conf, b.conf), q: q, bounds: bounds, index: a.index, sure: 2})
		}
	}
	// A card lying on another shows both its indexes (it is whole); the card under it shows
	// one. So an index that lies on a card read from both corners, read itself from one, is
	// a detail of that card (a court card's picture, a pip) and not a card on it.
	weaker := make([]bool, len(fs))
	for i, f := range fs {
		for _, g := range fs {
			if g.sure > f.sure && inQuad(f.index, g.q) {
				weaker[i] = true
			}
		}
	}
	k := 0
	for i, f := range fs {
		if !weaker[i] {
			fs[k] = f
			k++
		}
	}
	fs = fs[:k]
	// Box each card as far as it shows: cut by the cards accepted whole, by the cards found
	// whose index lies on it (they lie over it) and by those read from more corners (they
	// are whole).
	whole := acc[:len(acc):len(acc)]
	for i, a := range whole {
		// A card read from one corner that holds the index of another card lies under it.
		var over []image.Rectangle
		for _, f := range fs {
			if a.single && f.label != a.obj.Label && inQuad(f.index, a.q) {
				over = append(over, f.bounds)
			}
		}
		if len(over) > 0 {
			box := visiblePart(a.bounds, over).Intersect(frame)
			if box.Empty() {
				continue
			}
			whole[i].obj.Box = observation.Box{X: box.Min.X, Y: box.Min.Y, W: box.Dx(), H: box.Dy()}
			whole[i].bounds = box
		}
	}
	for i, f := range fs {
		var over []image.Rectangle
		for _, a := range whole {
			if !(a.single && inQuad(f.index, a.q)) {
				over = append(over, a.bounds)
			}
		}
		for j, g := range fs {
			if j != i && (g.index.img().In(f.bounds) || g.sure > f.sure) {
				over = append(over, g.bounds)
			}
		}
		box := visiblePart(f.bounds, over)
		if box.Empty() || rectIoU(box, f.bounds) < 0.15 {
			continue
		}
		acc = append(acc, accepted{
			obj: observation.Object{
				Label: f.label,
				Box:   observation.Box{X: box.Min.X, Y: box.Min.Y, W: box.Dx(), H: box.Dy()},
				Conf:  math.Round(f.conf*1000) / 1000,
			},
			bounds: box,
			q:      f.q,
		})
	}
	return acc
}

// cardSized reports whether quad q is no bigger (1.15 times either way) than a card read
// from both its corners among acc: then it is one card, not several outlined as one.
func cardSized(q [4]pt, acc []accepted) bool {
	return slices.ContainsFunc(acc, func(w accepted) bool { return !w.single && fitsIn(q, w.q, 1.15) })
}

// fitsIn reports whether quad q's short and long sides are at most f times those of quad o.
func fitsIn(q, o [4]pt, f float64) bool {
	sides := func(q [4]pt) (float64, float64) {
		a, b := meanSides(q)
		return min(a, b), max(a, b)
	}
	qs, ql := sides(q)
	os2, ol := sides(o)
	return qs <= f*os2 && ql <= f*ol
}

// found is a card read corner-first.
type found struct {
	label  string
	conf   float64
	q      [4]pt // clockwise from the card's top-left
	bounds image.Rectangle
	index  pt  // the rank glyph's centre
	sure   int // the index corners it was read from
	centre pt  // the index's centre (rank and suit)
	glyph  float64
}

// partnerOf looks for the other index of a card read from one index, where that index
// should be (half a turn from the first, at the opposite corner of the guessed card), and
// returns it read on its own. The region searched may have cut the other index off, its
// pairs may have come after the search's budget, or the guess may have put the other corner
// off the card (its size is guessed from one index's glyph spacing).
func (c *Cards) partnerOf(src gocv.Mat, a found) (found, bool) {
	c0 := quadCoords(a.q, a.centre)
	want := quadPoint(a.q, pt{canonW - c0.X, canonH - c0.Y})
	up := a.q[0].sub(a.q[3])
	// Near where it should be first; then, farther, if the guess was far off (the glyphs'
	// spacing varies between decks). The search's ink threshold follows its window, so the
	// near window is not searched again as part of the far one only.
	for _, reach := range []float64{0.5 * a.q[0].dist(a.q[1]), 0.5 * a.q[0].dist(a.q[3])} {
		win := image.Rect(int(want.X-reach), int(want.Y-reach), int(want.X+reach), int(want.Y+reach)).Intersect(image.Rect(0, 0, src.Cols(), src.Rows()))
		if win.Dx() < 16 || win.Dy() < 16 {
			continue
		}
		var near []indexPair
		for _, p := range indexPairs(c.search.blobsIn(src, win, math.Max(5, 0.4*a.glyph), 1.6*a.glyph, inkContrast)) {
			if pu := p.rank.c.sub(p.suit.c); pu.dot(up) <= -0.8*pu.norm()*up.norm() {
				near = append(near, p) // the other index is turned half a turn
			}
		}
		slices.SortStableFunc(near, func(p, q indexPair) int {
			return cmp.Compare(p.rank.c.dist(want), q.rank.c.dist(want))
		})
		for i, p := range near {
			if i == maxIndexPairs/4 {
				break
			}
			q, r, ok := c.readAtIndex(src, p)
			if !ok || observation.CardLabel(r.rank, r.suit) != a.label {
				continue
			}
			return found{label: a.label, conf: math.Min(r.conf, cornerFirstConf), q: q, index: p.rank.c, sure: 1,
				centre: quadPoint(q, mid(c.cornerReads[0][0].index)), glyph: p.rank.size}, true
		}
	}
	return found{}, false
}

// readAtIndex reads the card whose top-left index is glyph pair p, and reports whether it
// was read, from that index, without dispute. c.cornerReads[0][0] is then that index's read.
func (c *Cards) readAtIndex(src gocv.Mat, p indexPair) ([4]pt, cardRead, bool) {
	q := cardOfIndex(p)
	if !c.indexAt(src, q) {
		return q, cardRead{}, false
	}
	r := c.read(src, q)
	cr := &c.cornerReads[0][0]
	if r.corners == 0 || r.rot90 || r.diag != 0 || !cr.ok || r.conflict != 0 || r.conf < minSingleConf {
		return q, r, false
	}
	// The reading must come from the index that was found.
	at := pt{indexRankX, indexRankY}.img()
	if g := cr.index; !at.In(image.Rect(g.Min.X-g.Dx()/2, g.Min.Y-g.Dy()/4, g.Max.X+g.Dx()/2, g.Max.Y)) {
		return q, r, false
	}
	return q, r, true
}

// indexAt reports whether corner 0 of quad q holds something the rank model reads as a rank
// (a quick look before reading the whole card).
func (c *Cards) indexAt(src gocv.Mat, q [4]pt) bool {
	c.views[0].reset(src, q, false)
	card := c.views[0].corner(0)
	cr := &c.cornerReads[0][0]
	c.readCorner(card, 0, cr)
	if !c.views[0].ok || !cr.ok {
		return false
	}
	_, p := argmaxAvg(cr.rankP, cr.rankP, c.rankLabels)
	return p >= 0.5
}

// outlineNear looks for the outline of a card where quad q is guessed to lie, with the card
// finder run on that part of the frame alone (its thresholds then follow the card and what
// lies around it, not the whole frame), and returns it. The outline must hold the index at
// which the card was guessed: one beside it is a neighbour's.
func (c *Cards) outlineNear(src gocv.Mat, q [4]pt, index pt) ([4]pt, bool) {
	b := quadBounds(q)
	pad := max(b.Dx(), b.Dy()) / 4
	b = image.Rect(b.Min.X-pad, b.Min.Y-pad, b.Max.X+pad, b.Max.Y+pad).Intersect(image.Rect(0, 0, src.Cols(), src.Rows()))
	if b.Dx() < 16 || b.Dy() < 16 {
		return q, false
	}
	crop := src.Region(b)
	defer crop.Close()
	k := max(1, int(math.Ceil(float64(max(b.Dx(), b.Dy()))/maxWorkSide)))
	work := crop
	if k > 1 {
		gocv.Resize(crop, &c.work, image.Pt(b.Dx()/k, b.Dy()/k), 0, 0, gocv.InterpolationArea)
		work = c.work
	}
	// The outline nearest the guess: a region that holds the card and its neighbour
	// outlines there too.
	want := quadBounds(q)
	best, bestIoU := q, 0.5
	for _, cd := range c.seg.candidates(work) {
		var fq [4]pt
		for i, p := range cd.q {
			fq[i] = p.mul(float64(k)).add(pt{float64(b.Min.X), float64(b.Min.Y)})
		}
		if v := rectIoU(quadBounds(fq), want); v > bestIoU && inQuad(index, fq) {
			best, bestIoU = fq, v
		}
	}
	return best, bestIoU > 0.5
}

// read warps the quad both ways round, reads the index corners of each, and checks the
// reading against the pips of the card's body.
func (c *Cards) read(src gocv.Mat, q [4]pt) cardRead {
	for o := range c.cornerReads {
		for k := range c.cornerReads[o] {
			c.cornerReads[o][k].ok = false
		}
	}
	// The index corners of both ways round first, then the corners that hold the index of a
	// card seen in a mirror; reading stops as soon as the two index corners of one way
	// round agree.
	var started [2]bool
	readOrder := [...][2]int{{0, 0}, {0, 2}, {1, 0}, {1, 2}, {0, 1}, {0, 3}, {1, 1}, {1, 3}}
	for _, ok := range readOrder {
		o, k := ok[0], ok[1]
		if !started[o] {
			c.views[o].reset(src, q, o == 1)
			started[o] = true
		}
		card := c.views[o].corner(k)
		if !c.views[o].ok {
			return cardRead{}
		}
		c.readCorner(card, k, &c.cornerReads[o][k])
		if k == 2 && c.sureOf(o) {
			break
		}
	}
	if !started[1] {
		c.views[1].reset(src, q, true)
	}
	r := combineCorners(&c.cornerReads, c.rankLabels, c.suitLabels)
	if !r.evidence && r.conf < minCardConf {
		// Nothing in the corners reads as an index: perhaps the back of a card.
		r.back = backScore(c.views[0].body())
	}
	if r.corners == 0 {
		return r
	}
	if r.conflict != 0 {
		// Corners that read different ranks: the pips of a number card settle which is
		// right (a corner misread); without them the quad may hold two cards and gets no
		// label.
		n := c.pipCount(r)
		if n == 0 || (pipRank(n) != r.rank && pipRank(n) != r.conflict) {
			return cardRead{evidence: r.evidence}
		}
		r.rank = pipRank(n)
		r = c.checkPips(r)
		r.conf = math.Min(r.conf, 0.85) // a disputed reading is never sure
		return r
	}
	if r.corners == 2 && r.conf >= sureConf {
		return r // both index corners agree: the pips could only confirm it
	}
	// A card's margin is plain paper; a quad of cloth or of a picture is not.
	m := marginScore(c.views[0].body())
	if m < minMargin2 || (r.corners == 1 && m < minMargin1) {
		return cardRead{}
	}
	if m < minMargin1 {
		r.evidence = false
	}
	return c.checkPips(r)
}

// readSteady reads quad q like read and, when that gives no sure reading of a card seen
// smaller than the canonical card, reads it again shifted by half a frame pixel each way.
// The glyphs of a small index are a few pixels high: where the warp samples them decides
// whether their strokes join or part, and a reading that changes with half a pixel is no
// reading to rest on. The card that more than half of the steadyReads readings name is the
// reading (see steadiest); with no such card, the first reading stands.
func (c *Cards) readSteady(src gocv.Mat, q [4]pt) cardRead {
	r := c.read(src, q)
	short := math.Min(meanSides(q))
	if (r.corners == 2 && r.conf >= sureConf) || short >= 0.6*canonW {
		return r
	}
	var buf [steadyReads]cardRead
	reads := append(buf[:0], r)
	for _, d := range [...]pt{{X: 0.5, Y: 0.5}, {X: -0.5, Y: -0.5}, {X: 0.5, Y: -0.5}, {X: -0.5, Y: 0.5}} {
		if _, n := steadiest(reads); 2*(n+steadyReads-len(reads)) <= steadyReads {
			break // no card can have most of the readings now
		}
		var jq [4]pt
		for k := range q {
			jq[k] = q[k].add(d)
		}
		reads = append(reads, c.read(src, jq))
	}
	best, n := steadiest(reads)
	if 2*n <= steadyReads {
		return r // no card that most readings name
	}
	return reads[best]
}

// steadiest returns the reading of the card that most readings name (the surer card in a
// tie), and how many name it. The reading is the first one when it names that card, else
// the surest that does.
func steadiest(reads []cardRead) (int, int) {
	names := func(x cardRead) bool { return x.corners > 0 && x.conf >= minCardConf }
	best, bn, bs := 0, 0, 0.0
	for i, x := range reads {
		if !names(x) {
			continue
		}
		n, sum := 0, 0.0
		for _, y := range reads {
			if names(y) && y.rank == x.rank && y.suit == x.suit {
				n++
				sum += y.conf
			}
		}
		if n > bn || (n == bn && sum > bs) {
			best, bn, bs = i, n, sum
		}
	}
	if bn == 0 {
		return 0, 0
	}
	card := reads[best]
	same := func(x cardRead) bool { return names(x) && x.rank == card.rank && x.suit == card.suit }
	if same(reads[0]) {
		return 0, bn
	}
	for i, x := range reads {
		if same(x) && x.conf > reads[best].conf {
			best = i
		}
	}
	return best, bn
}

// steadyReads is how many readings readSteady makes of a quad at most: as it is, and shifted
// by half a pixel four ways.
const steadyReads = 5

// sureOf reports whether orientation o read two opposite index corners with the same
// confident rank and suit.
func (c *Cards) sureOf(o int) bool {
	for d := 0; d < 2; d++ {
		a, b := &c.cornerReads[o][d], &c.cornerReads[o][d+2]
		if !a.ok || !b.ok {
			continue
		}
		ra, pa := argmaxAvg(a.rankP, a.rankP, c.rankLabels)
		rb, pb := argmaxAvg(b.rankP, b.rankP, c.rankLabels)
		sa, qa := argmaxAvg(a.suitP, a.suitP, c.suitLabels)
		sb, qb := argmaxAvg(b.suitP, b.suitP, c.suitLabels)
		if ra == rb && sa == sb && min(pa, pb) > 0.6 && min(qa, qb) > 0.6 {
			return true
		}
	}
	return false
}

// readCorner classifies the index of corner k of a warped card.
func (c *Cards) readCorner(card *rgbImage, k int, out *cornerRead) {
	extractCorner(card, k, &c.patch)
	n := c.patch.w * c.patch.h
	if cap(c.labels) < card.w*card.h {
		c.labels = make([]int32, card.w*card.h)
	}
	rb, sb, thr, ok := cutIndex(&c.patch, c.labels[:n], card.w, card.h, true)
	out.ok = ok
	out.index = image.Rectangle{}
	if !ok {
		return
	}
	// The rank and the suit of an index are printed in the same ink.
	sr := meanRed(&c.patch, sb, thr)
	if !sameInk(&c.patch, rb, sb, thr) {
		out.ok = false
		return
	}
	out.index = cornerBox(card, k, rb.Union(sb))
	out.clutter = clutter(&c.patch, rb, sb, thr)
	rankFeatures(&c.patch, rb, card.h, c.rankFeat)
	copy(out.rankP, c.rank.Predict(c.rankFeat, &c.rankScratch))
	suitFeatures(&c.patch, sb, sr, c.suitFeat)
	copy(out.suitP, c.suit.Predict(c.suitFeat, &c.suitScratch))
}

// pipCount counts the pips of the card in the orientation its index was read in (0 when
// the body is no pip layout).
func (c *Cards) pipCount(r cardRead) int {
	card, exclude := c.pipBody(r)
	return findPips(card, &c.body, c.labels, exclude).n
}

// view is the index of the warp (c.views, c.cornerReads) the card was read in.
func (r cardRead) view() int {
	if r.rot90 {
		return 1
	}
	return 0
}

// pipBody is the body of the card in the orientation its index was read in, and the boxes
// where pips are not looked for: the indexes read, or the corners where one would be.
func (c *Cards) pipBody(r cardRead) (*rgbImage, []image.Rectangle) {
	o := r.view()
	card := c.views[o].body()
	var exclude []image.Rectangle
	for k := 0; k < numCorners; k++ {
		zone := cornerBox(card, k, image.Rect(0, 0, int(0.17*float64(card.w)), int(0.25*float64(card.h))))
		exclude = append(exclude, zone)
		// A big index reaches out of the zone; "an index" read over a pip (a corner of a
		// number card read as a glyph pair) is centred outside it, and must not hide it.
		if cr := &c.cornerReads[o][k]; cr.ok {
			if ix := halfRect(cr.index); mid(ix).img().In(zone) {
				exclude = append(exclude, ix)
			}
		}
	}
	return card, exclude
}

// halfRect maps a box of the canonical card onto the half-size body.
func halfRect(r image.Rectangle) image.Rectangle {
	return image.Rect(r.Min.X/2, r.Min.Y/2, (r.Max.X+1)/2, (r.Max.Y+1)/2)
}

// pipRank is the rank of a number card with n pips (an ace for one).
func pipRank(n int) byte {
	if n < 2 {
		return 'A'
	}
	return observation.Ranks[len(observation.Ranks)-n+1]
}

// centrePip reports whether rank b is a court card, an ace or a number card printed with a
// pip in the centre (a three, a five, a nine): one that may show a lone pip there.
func centrePip(b byte) bool {
	switch n := rankPips(b); n {
	case 0, 3, 5, 9:
		return true
	}
	return false
}

// rankPips is the number of pips of a number card of rank b (0 for an ace or a court card).
func rankPips(b byte) int {
	switch {
	case b == 'T':
		return 10
	case b >= '2' && b <= '9':
		return int(b - '0')
	}
	return 0
}

// checkPips counts the pips of the card in the orientation its index was read in. On a
// number card the count is a second, independent reading of the rank and every pip a second
// reading of the suit: agreement raises the confidence, disagreement lowers it.
func (c *Cards) checkPips(r cardRead) cardRead {
	card, exclude := c.pipBody(r)
	ps := findPips(card, &c.body, c.labels, exclude)
	if ps.n == 0 && r.conf < sureConf {
		// No pips the way round the index was read: an unsure index may have been read
		// sideways (a glyph turned a quarter turn can pass for another). Pips standing in
		// a count's layout the other way round show which way the card is up.
		o := 1 - r.view()
		if slices.ContainsFunc(c.cornerReads[o][:], func(x cornerRead) bool { return x.ok }) {
			f := r
			f.rot90 = !r.rot90
			if a, b := &c.cornerReads[o][f.diag], &c.cornerReads[o][f.diag+2]; !a.ok && !b.ok {
				f.diag = 1 - f.diag
			}
			card, exclude = c.pipBody(f)
			if ps2 := findPips(card, &c.body, c.labels, exclude); ps2.standard {
				r, ps = f, ps2
			}
		}
	}
	r.pips = ps.n
	if ps.n == 0 {
		return r
	}
	// Suit from the pips, each turned upright like the index suit.
	H := card.h
	nSuit := len(c.suitLabels)
	pipSuit := make([]float64, nSuit)
	used := 0
	thr := inkThreshold(c.body.ink)
	for _, b := range ps.boxes {
		cy := float64(b.Min.Y+b.Max.Y) / 2
		switch {
		case cy < 0.45*float64(H):
			suitFeatures(&c.body, b, meanRed(&c.body, b, thr), c.suitFeat)
		case cy > 0.55*float64(H):
			continue // judged below, from the card turned half a turn
		default:
			continue
		}
		for i, p := range c.suit.Predict(c.suitFeat, &c.suitScratch) {
			pipSuit[i] += float64(p)
		}
		used++
	}
	for _, b := range ps.boxes {
		cy := float64(b.Min.Y+b.Max.Y) / 2
		if cy <= 0.55*float64(H) {
			continue
		}
		// A pip of the lower half stands on its head: read it turned half a turn.
		suitFeatures(&c.body, b, meanRed(&c.body, b, thr), c.suitFeat)
		slices.Reverse(c.suitFeat[:suitFeatW*suitFeatH])
		for i, p := range c.suit.Predict(c.suitFeat, &c.suitScratch) {
			pipSuit[i] += float64(p)
		}
		used++
	}
	// Index suit, averaged over the corners read.
	o := r.view()
	a, b := &c.cornerReads[o][r.diag], &c.cornerReads[o][r.diag+2]
	idxSuit := make([]float64, nSuit)
	nIdx := 0.0
	for _, x := range []*cornerRead{a, b} {
		if x.ok {
			for i, p := range x.suitP {
				idxSuit[i] += float64(p)
			}
			nIdx++
		}
	}
	wp := math.Min(float64(used), 4)
	bestS, bestP := 0, -1.0
	idxS, idxP := 0, -1.0 // the index's own suit, for when the pips are no pips
	for i := range idxSuit {
		v := idxSuit[i]
		if nIdx > 0 && v/nIdx > idxP {
			idxS, idxP = i, v/nIdx
		}
		if used > 0 {
			v += pipSuit[i] / float64(used) * wp
		}
		v /= nIdx + wp
		if observation.IsRed(c.suitLabels[i]) != ps.red {
			v *= 0.2 // pips and suit must be the same ink
		}
		if v > bestP {
			bestS, bestP = i, v
		}
	}
	// Rank: the pip count against the index.
	pipRank, lostTo := pipRank(ps.n), pipRank(layoutLosesTo(ps.n))
	rankP := 0.0
	for _, x := range []*cornerRead{a, b} {
		if x.ok {
			ri, rp := argmaxAvg(x.rankP, x.rankP, c.rankLabels)
			if c.rankLabels[ri] == r.rank {
				rankP += rp / nIdx
			}
		}
	}
	suit := c.suitLabels[bestS]
	// Pips standing as their count's always do are a reading of the rank in their own
	// right, unless the index reads the one count that layout can be with a pip lost.
	standard := ps.standard && (layoutLosesTo(ps.n) == 0 || r.rank != lostTo)
	switch {
	case r.rank == pipRank:
		// Two independent readings agree.
		r.conf = (1 - (1-rankP)*0.2) * bestP
		if r.corners == 1 {
			r.conf *= 0.95
		}
	case ps.n == 1 && rankP < sureConf && !centrePip(r.rank):
		// A lone pip in the centre is an ace's: a number card with no pip there cannot
		// show one alone, whatever pips of it were lost (a small, blurred A taken for an 8).
		r.rank = pipRank
		r.conf = 0.6 * bestP
	case rankP >= sureConf || (rankP >= 0.5 && !standard):
		// The index is sure and the count disagrees (pips merged or hidden, a picture that
		// looks like pips): keep the index, with less confidence. What was counted is then
		// no pips, and its ink says nothing of the suit either (a court card's picture
		// counted as an ace's pip is not red). A lone blob in the middle is what the pip finder makes of an ace and of many
		// a court card's picture alike: it hardly disputes a court rank.
		f := 0.6
		if ps.n == 1 && (r.rank == 'J' || r.rank == 'Q' || r.rank == 'K') {
			f = 0.85
		}
		r.conf = math.Min(r.conf, rankP*idxP) * f
		r.suit = c.suitLabels[idxS]
		return r
	case standard:
		// The layout overrules an index the classifier was not sure of (a typeface it has
		// not learnt, a ten taken for a nine).
		r.rank = pipRank
		r.conf = 0.85 * bestP
	case rankPips(r.rank) >= 2 && (rankPips(r.rank) == ps.n+1 || rankPips(r.rank) == ps.n-1):
		// Pips in no count's layout, one off the index's rank: a pip hidden, merged with
		// another or stray. The unsure index stands, as unsure.
		r.conf = 0.6 * bestP
	case rankP < 0.1:
		// Pips in no count's layout and an index that reads as no rank: nothing says
		// which card this is.
		r.rank = pipRank
		r.conf = 0.3 * bestP
	default:
		// The count overrules a rank glyph the classifier was unsure of.
		r.rank = pipRank
		r.conf = 0.6 * bestP
	}
	r.suit = suit
	return r
}

// combineCorners picks the orientation and diagonal whose index corners give the most
// confident reading. Two corners of the same card are averaged, so that corners that
// disagree lower the confidence instead of raising it.
func combineCorners(reads *[2][numCorners]cornerRead, rankLabels, suitLabels []byte) cardRead {
	var best cardRead
	for o := 0; o < 2; o++ {
		for d := 0; d < 2; d++ {
			a, b := &reads[o][d], &reads[o][d+2]
			aok, bok := a.ok, b.ok
			if aok && bok {
				// An "index" squeezed to a thin line beside one of an index's shape is no
				// second reading: it is a picture's frame line, or the end card of a fan
				// outlined as one quad (whose far corner is another card's). Nor is a
				// corner the rank model rejects outright beside one it reads well, unless
				// it reads the same rank, however faintly. Averaged in, either would halve
				// a clear index's confidence or give the card the wrong suit.
				ra, ma := argmaxAvg(a.rankP, a.rankP, rankLabels)
				rb, mb := argmaxAvg(b.rankP, b.rankP, rankLabels)
				sa, sb := squeezed(a.index), squeezed(b.index)
				switch {
				case sa && !sb:
					aok = false
				case sb && !sa:
					bok = false
				case ra == rb:
				case merged(a.index.Dx(), b.index.Dx()):
					aok = false
				case merged(b.index.Dx(), a.index.Dx()):
					bok = false
				case ma < rejectedCorner && mb > 0.5:
					aok = false
				case mb < rejectedCorner && ma > 0.5:
					bok = false
				}
			}
			var r cardRead
			switch {
			case aok && bok:
				ri, rp := argmaxAvg(a.rankP, b.rankP, rankLabels)
				si, sp := argmaxAvg(a.suitP, b.suitP, suitLabels)
				r = cardRead{rank: rankLabels[ri], suit: suitLabels[si], conf: rp * sp, corners: 2}
			case aok || bok:
				x := a
				if !aok {
					x = b
				}
				ri, rp := argmaxAvg(x.rankP, x.rankP, rankLabels)
				si, sp := argmaxAvg(x.suitP, x.suitP, suitLabels)
				r = cardRead{rank: rankLabels[ri], suit: suitLabels[si], conf: rp * sp * singleCornerPenalty, corners: 1, clutter: x.clutter}
			default:
				continue
			}
			r.rot90, r.diag = o == 1, d
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
	if best.corners > 0 {
		best.conflict = conflicting(reads, best, rankLabels)
	}
	return best
}

// squeezed reports whether an index box (rank and suit) is under a fifth as wide as it is
// tall: no typeface prints one so. A picture's frame line cut as an index is so thin, and so
// is the index of the end card of a fan outlined as one quad, once warped to one card's
// shape.
func squeezed(index image.Rectangle) bool {
	return 5*index.Dx() < index.Dy()
}

// merged reports whether an index box w pixels wide is over 1.6 times as wide as its card's
// other index (otherW): its rank ran into something beside it (a court card's picture
// frame). The two indexes of a card are of one size, and of two cards of one deck nearly so
// (a ten's is the widest).
func merged(w, otherW int) bool {
	return 5*w > 8*otherW
}

// conflicting returns the rank another index corner of the chosen orientation reads with
// confidence when it differs from the chosen one (0 for none): the quad then covers two
// cards (touching or overlapping), or one corner is misread.
//
// A corner whose index box is far wider than the chosen index's (see merged) is no dispute.
func conflicting(reads *[2][numCorners]cornerRead, best cardRead, rankLabels []byte) byte {
	o := best.view()
	ref := math.MaxInt
	for _, k := range []int{best.diag, best.diag + 2} {
		if r := &reads[o][k]; r.ok {
			ref = min(ref, r.index.Dx())
		}
	}
	for k := 0; k < numCorners; k++ {
		r := &reads[o][k]
		if !r.ok || (ref < math.MaxInt && merged(r.index.Dx(), ref)) {
			continue
		}
		ri, rp := argmaxAvg(r.rankP, r.rankP, rankLabels)
		if rp > 0.8 && rankLabels[ri] != best.rank {
			return rankLabels[ri]
		}
	}
	return 0
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

// clutter is the share of the corner patch around an index (rank box rb, suit box sb),
// within a third of the index's width of it and up to the corner, that is ink at threshold
// thr. An index is printed on plain paper, with a margin to the card's edge: on a real card
// this is mostly paper (under a third ink, the odd picture frame or ornament included),
// while a glyph pair of felt, wood grain or a printed picture sits amid ink.
func clutter(p *cornerPatch, rb, sb image.Rectangle, thr float32) float64 {
	u := rb.Union(sb)
	pad := max(2, u.Dx()/3)
	r := image.Rect(0, 0, min(p.w, u.Max.X+pad), min(p.h, u.Max.Y+pad))
	n, ink := 0, 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if q := image.Pt(x, y); q.In(rb) || q.In(sb) {
				continue
			}
			n++
			if p.ink[y*p.w+x] >= thr {
				ink++
			}
		}
	}
	if n == 0 {
		return 0
	}
	return float64(ink) / float64(n)
}
