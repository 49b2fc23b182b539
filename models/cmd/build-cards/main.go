//go:build cgo

// Command build-cards rebuilds the card index glyph classifiers (models/cards) from the
// labelled photographs in ../shared/data: it finds the cards of every dev photograph with the
// recogniser's own card finder, cuts the index glyphs out exactly as the recogniser does,
// adds glyphs drawn with OpenCV's Hershey fonts for the ranks the photographs show rarely,
// and trains two small perceptrons (rank, suit) on CPU.
//
//	go run ./models/cmd/build-cards [-shared ../shared] [-out models/cards]
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"image"
	"image/color"
	"log/slog"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"gocv.io/x/gocv"

	"github.com/coupwatch/coupwatch/models"
	"github.com/coupwatch/coupwatch/vision/dataset"
	"github.com/coupwatch/coupwatch/vision/detect"
	"github.com/coupwatch/coupwatch/vision/eval"
	"github.com/coupwatch/coupwatch/vision/observation"
)

// Model version written to the manifests; bump it when the features or the recipe change.
const version = "1.1.0"

var rankClasses = append(strings.Split(observation.Ranks, ""), models.Reject)
var suitClasses = strings.Split(observation.Suits, "")

var (
	blackjackSource = models.Source{Name: "blackjack-v13", URL: "https://universe.roboflow.com/black-jack-group-alpha/black-jack-8goxw/dataset/13 (via https://github.com/ScottJJosh/PokerSensei, commit 98dab89330f1438f529e3c626973ca3d70dde9cd)",
		Licence: "CC BY 4.0", Note: "dev split; glyph features only, no photographs"}
	edjeSource = models.Source{Name: "cards-edje-tf", URL: "https://github.com/EdjeElectronics/TensorFlow-Object-Detection-API-Tutorial-Train-Multiple-Objects-Windows-10 (commit c1645825822622fc75919b6be253779d49678f55)",
		Licence: "Apache-2.0", Note: "dev split; ranks only"}
	dejavuSource = models.Source{Name: "DejaVu fonts 2.37", URL: "https://dejavu-fonts.github.io/ (outlines in models/fonts/glyphs.json)",
		Licence: "Bitstream Vera Fonts licence; DejaVu changes public domain (models/fonts/LICENSE-fonts.txt)", Note: "index glyphs of synthetic cards drawn by build-cards"}
	rankSources = []models.Source{blackjackSource, edjeSource, dejavuSource,
		{Name: "OpenCV Hershey fonts", URL: "https://opencv.org", Licence: "Apache-2.0", Note: "rank glyphs drawn by build-cards"}}
	suitSources = []models.Source{blackjackSource, dejavuSource,
		{Name: "suit shapes", URL: "models/cmd/build-cards (drawSuit)", Licence: "same as this repository", Note: "suit symbols drawn by build-cards"}}
)

func main() {
	os.Exit(run())
}

type options struct {
	shared, out string
	sets        []string
	variants    int
	synth       int
	seed        uint64
	epochs      int
	fold        int
	dump        string
	ensemble    int
	augment     int
	glyphs      string
	cards       int
	hidden      int
}

// valFold is the fold held out of the first fit to measure accuracy.
func (o options) valFold() int {
	if o.fold == 0 {
		return 1
	}
	return 0
}

func run() int {
	log := slog.New(slog.NewTextHandler(os.Stderr, nil)).With("component", "build-cards")
	var o options
	def := os.Getenv("COUPWATCH_SHARED")
	if def == "" {
		def = "../shared"
	}
	var sets string
	flag.StringVar(&o.shared, "shared", def, "shared folder holding data/ (env COUPWATCH_SHARED)")
	flag.StringVar(&o.out, "out", "models/cards", "folder to write rank/suit models and manifests into")
	flag.StringVar(&sets, "sets", "blackjack-v13,cards-edje-tf", "labelled card sets to learn from (dev splits only)")
	flag.IntVar(&o.variants, "variants", 24, "jittered re-cuts of every labelled card")
	flag.IntVar(&o.synth, "synth", 120, "synthetic glyphs per rank")
	flag.Uint64Var(&o.seed, "seed", 1, "random seed (the build is deterministic for a seed)")
	flag.IntVar(&o.epochs, "epochs", 30, "training epochs")
	flag.IntVar(&o.augment, "augment", 0, "extra cuts of every glyph, with boxes moved a pixel and strokes thickened or thinned")
	flag.IntVar(&o.ensemble, "ensemble", 3, "networks per model, averaged")
	flag.IntVar(&o.hidden, "hidden", 64, "hidden units of the rank networks (the suit networks have half)")
	flag.StringVar(&o.dump, "dump", "", "write a picture of the training glyphs of every class into this folder, for review")
	flag.IntVar(&o.fold, "leave-out-fold", -1, "leave the photographs of this fold (0-4, see eval-vision -fold) out, for cross-validation")
	extract := flag.String("extract-glyphs", "", "extract the outlines of the rank and suit glyphs of every TrueType font in this folder into -glyphs, and stop")
	flag.IntVar(&o.cards, "synth-cards", 8, "drawn cards of every rank and suit (in random decks, scenes and cameras) whose index glyphs are cut like the photographs'")
	flag.StringVar(&o.glyphs, "glyphs", "models/fonts/glyphs.json", "glyph outlines of real typefaces (see -extract-glyphs)")
	flag.Parse()
	if *extract != "" {
		if err := extractGlyphs(*extract, o.glyphs); err != nil {
			log.Error("extracting glyph outlines failed", "err", err)
			return 1
		}
		return 0
	}
	o.sets = strings.Split(sets, ",")
	if err := build(o, log); err != nil {
		log.Error("build failed", "err", err)
		return 1
	}
	return 0
}

// reading is one index corner cut from a labelled card.
type reading struct {
	rot90  bool
	corner int
	v      int // variant
	g      detect.GlyphSample
}

// background is an index-like reading cut from a quad that is no labelled card.
type background struct {
	image string
	g     detect.GlyphSample
}

// labelledCard is a card of a photograph matched to its label, with every corner read.
type labelledCard struct {
	set, image string
	rank, suit byte // suit 0 when the set has ranks only
	reads      []reading
	pips       map[bool][][]float32 // pip suit features by rot90
}

func build(o options, log *slog.Logger) error {
	rng := rand.New(rand.NewPCG(o.seed, 7))
	cards, bgs, err := collect(o, rng, log)
	if err != nil {
		return err
	}
	synth := synthRanks(o.synth, rng)
	for _, b := range bgs {
		synth = append(synth, sample{x: b.g.Rank, y: len(rankClasses) - 1, val: eval.Fold(b.image) == o.valFold()})
	}
	synthSuit := synthSuits(o.synth, rng)
	if o.cards > 0 {
		faces, err := loadGlyphs(o.glyphs)
		if err != nil {
			return err
		}
		dump := ""
		if o.dump != "" {
			dump = filepath.Join(o.dump, "scenes")
		}
		r, s := synthCardSamples(faces, o.cards, dump, rng, log)
		synth = append(synth, r...)
		synthSuit = append(synthSuit, s...)
		log.Info("synthetic cards", "decks", o.cards, "rank_samples", len(r), "suit_samples", len(s))
	}
	log.Info("collected", "cards", len(cards), "background_glyphs", len(bgs), "synthetic_ranks", o.synth*len(observation.Ranks), "synthetic_suits", len(synthSuit))

	// Round 1: which orientation holds the index is decided by geometry and ink colour.
	assign := func(c *labelledCard, score func(c *labelledCard, rot90 bool, diag int) float64) (bool, int, bool) {
		best, br, bd := -1.0, false, 0
		second := -1.0
		for _, rot := range []bool{false, true} {
			for d := 0; d < 2; d++ {
				s := score(c, rot, d)
				if s > best {
					second = best
					best, br, bd = s, rot, d
				} else if s > second {
					second = s
				}
			}
		}
		return br, bd, best > 0 && best > second
	}
	heuristic := func(c *labelledCard, rot90 bool, diag int) float64 {
		s := 0.0
		for _, r := range c.reads {
			if r.v != 0 || r.rot90 != rot90 || r.corner%2 != diag {
				continue
			}
			s++
			if c.suit != 0 && (r.g.Red > 0.08) == observation.IsRed(c.suit) {
				s += 0.5
			}
		}
		return s
	}
	// Round 0: a rank model of drawn glyphs only screens the cut glyphs: one that model does
	// not place among the four likeliest ranks for its label is a mis-cut (a pip, a picture
	// fragment, two glyphs run together) and is left out of the positives.
	var sc0 models.Scratch
	synthNet := models.NewMLP([]int{detect.RankFeatureSize, 64, len(rankClasses)}, rng)
	{
		var xs [][]float32
		var ys []int
		for _, s := range synth {
			xs, ys = append(xs, s.x), append(ys, s.y)
		}
		synthNet.Train(xs, ys, models.TrainOptions{Epochs: o.epochs, BatchSize: 32, LearnRate: 0.002, WeightDecay: 1e-4, ClassWeights: balance(ys, len(rankClasses))}, rng)
	}
	plausible := func(r reading, c *labelledCard) bool {
		p := synthNet.Predict(r.g.Rank, &sc0)
		ti := slices.Index(rankClasses, string(c.rank))
		better := 0
		for i, v := range p[:len(rankClasses)-1] {
			if i != ti && v > p[ti] {
				better++
			}
		}
		return better < 4
	}
	first := o
	first.ensemble = 1 // the first round only picks which corners hold the index
	rankNet, _, _ := trainRound(cards, synth, synthSuit, assign, heuristic, plausible, first, rng, log)
	// Round 2: the round-1 models pick the orientation and diagonal whose glyphs look most
	// like the label, and the models are trained again from scratch.
	var sc models.EnsembleScratch
	learned := func(c *labelledCard, rot90 bool, diag int) float64 {
		s, n := 0.0, 0
		ri := slices.Index(rankClasses, string(c.rank))
		for _, r := range c.reads {
			if r.v != 0 || r.rot90 != rot90 || r.corner%2 != diag {
				continue
			}
			s += float64(rankNet.Predict(r.g.Rank, &sc)[ri])
			n++
		}
		if n == 0 {
			return 0
		}
		return s / float64(n) * (1 + 0.1*float64(n))
	}
	rankNet, suitNet, stats := trainRound(cards, synth, synthSuit, assign, learned, plausible, o, rng, log)
	return write(o, rankNet, suitNet, stats)
}

type roundStats struct {
	rankCounts, suitCounts map[string]int
	rankValAcc, suitValAcc float64
	cards, assigned        int
}

// trainRound builds the sample lists for an assignment rule and trains both models. One in
// five photographs is held out to measure accuracy, then the models are refitted on all.
func trainRound(cards []labelledCard, synth, synthSuit []sample,
	assign func(*labelledCard, func(*labelledCard, bool, int) float64) (bool, int, bool),
	score func(*labelledCard, bool, int) float64, keep func(reading, *labelledCard) bool,
	o options, rng *rand.Rand, log *slog.Logger,
) (*models.Ensemble, *models.Ensemble, roundStats) {
	var rankS, suitS []sample
	st := roundStats{rankCounts: map[string]int{}, suitCounts: map[string]int{}, cards: len(cards)}
	for i := range cards {
		c := &cards[i]
		rot, diag, ok := assign(c, score)
		if !ok {
			continue
		}
		st.assigned++
		val := eval.Fold(c.image) == o.valFold()
		for _, r := range c.reads {
			switch {
			case r.rot90 == rot && r.corner%2 == diag:
				if !keep(r, c) {
					continue
				}
				ry := slices.Index(rankClasses, string(c.rank))
				rankS = append(rankS, sample{x: r.g.Rank, y: ry, val: val})
				for _, v := range r.g.Variants {
					rankS = append(rankS, sample{x: v[0], y: ry, val: val, variant: true})
				}
				if c.suit != 0 && (r.g.Red > 0.08) == observation.IsRed(c.suit) {
					sy := slices.Index(suitClasses, string(c.suit))
					suitS = append(suitS, sample{x: r.g.Suit, y: sy, val: val})
					for _, v := range r.g.Variants {
						suitS = append(suitS, sample{x: v[1], y: sy, val: val, variant: true})
					}
				}
			case r.rot90 != rot:
				// The other orientation shows the index turned a quarter: no rank may be
				// read there.
				rankS = append(rankS, sample{x: r.g.Rank, y: len(rankClasses) - 1, val: val})
			}
		}
		if c.suit != 0 && strings.IndexByte("A23456789T", c.rank) >= 0 {
			for _, x := range c.pips[rot] {
				suitS = append(suitS, sample{x: x, y: slices.Index(suitClasses, string(c.suit)), val: val})
			}
		}
	}
	rankS = append(rankS, synth...)
	suitS = append(suitS, synthSuit...)
	for _, s := range rankS {
		st.rankCounts[rankClasses[s.y]]++
	}
	for _, s := range suitS {
		st.suitCounts[suitClasses[s.y]]++
	}
	if o.dump != "" {
		dumpSamples(o.dump, "rank", rankS, rankClasses, 14, 20)
		dumpSamples(o.dump, "suit", suitS, suitClasses, 12, 12)
	}
	hidden := o.hidden
	var rankNet, suitNet *models.Ensemble
	st.rankValAcc = fitAndValidate(rankS, []int{detect.RankFeatureSize, hidden, len(rankClasses)}, o, rng, &rankNet)
	st.suitValAcc = fitAndValidate(suitS, []int{detect.SuitFeatureSize, o.hidden / 2, len(suitClasses)}, o, rng, &suitNet)
	log.Info("trained", "assigned_cards", st.assigned, "of", st.cards, "rank_samples", len(rankS), "suit_samples", len(suitS),
		"rank_val_acc", fmt.Sprintf("%.3f", st.rankValAcc), "suit_val_acc", fmt.Sprintf("%.3f", st.suitValAcc))
	return rankNet, suitNet, st
}

type sample struct {
	x       []float32
	y       int
	val     bool
	variant bool // an augmented cut, left out of the accuracy measure
}

// fitAndValidate trains on the non-validation samples and measures accuracy on the
// validation ones, then trains the final network on all samples.
func fitAndValidate(ss []sample, sizes []int, o options, rng *rand.Rand, out **models.Ensemble) float64 {
	var tx, vx [][]float32
	var ty, vy []int
	var ax [][]float32
	var ay []int
	for _, s := range ss {
		ax, ay = append(ax, s.x), append(ay, s.y)
		if s.val {
			if !s.variant {
				vx, vy = append(vx, s.x), append(vy, s.y)
			}
		} else {
			tx, ty = append(tx, s.x), append(ty, s.y)
		}
	}
	opt := models.TrainOptions{Epochs: o.epochs, BatchSize: 32, LearnRate: 0.002, WeightDecay: 1e-4, ClassWeights: balance(ay, sizes[len(sizes)-1])}
	acc := math.NaN()
	if len(vx) > 0 {
		net := models.NewMLP(sizes, rng)
		net.Train(tx, ty, opt, rng)
		var sc models.Scratch
		ok := 0
		for i, x := range vx {
			p := net.Predict(x, &sc)
			if argmax(p) == vy[i] {
				ok++
			}
		}
		acc = float64(ok) / float64(len(vx))
	}
	ens := &models.Ensemble{}
	for k := 0; k < o.ensemble; k++ {
		net := models.NewMLP(sizes, rng)
		net.Train(ax, ay, opt, rng)
		ens.Nets = append(ens.Nets, net)
	}
	*out = ens
	return acc
}

func balance(ys []int, n int) []float64 {
	cnt := make([]float64, n)
	for _, y := range ys {
		cnt[y]++
	}
	w := make([]float64, n)
	total := float64(len(ys))
	for i := range w {
		if cnt[i] > 0 {
			w[i] = math.Min(5, math.Sqrt(total/float64(n)/cnt[i]))
		}
	}
	return w
}

func argmax(p []float32) int {
	bi := 0
	for i, v := range p {
		if v > p[bi] {
			bi = i
		}
	}
	return bi
}

// collect reads every labelled card of the dev splits.
func collect(o options, rng *rand.Rand, log *slog.Logger) ([]labelledCard, []background, error) {
	finder := detect.NewQuadFinder()
	defer finder.Close()
	var out []labelledCard
	var bgs []background
	for _, name := range o.sets {
		set, err := dataset.Load(filepath.Join(o.shared, "data"), name)
		if err != nil {
			return nil, nil, err
		}
		n := 0
		for _, smp := range set.Samples {
			if smp.Split != "dev" {
				continue // holdout photographs never go into a model
			}
			if o.fold >= 0 && eval.Fold(smp.Path) == o.fold {
				continue
			}
			cs, bg, err := cardsOf(finder, smp, name, o.variants, o.augment, rng)
			if err != nil {
				return nil, nil, err
			}
			out = append(out, cs...)
			bgs = append(bgs, bg...)
			n += len(cs)
		}
		log.Info("set read", "set", name, "cards", n)
	}
	if len(out) == 0 {
		return nil, nil, errors.New("no labelled card found")
	}
	return out, bgs, nil
}

func cardsOf(finder *detect.QuadFinder, smp dataset.Sample, set string, variants, augment int, rng *rand.Rand) ([]labelledCard, []background, error) {
	img := gocv.IMRead(smp.Path, gocv.IMReadColor)
	defer img.Close()
	if img.Empty() {
		return nil, nil, fmt.Errorf("reading %s: not an image", smp.Path)
	}
	quads, err := finder.FindCardQuads(img)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", smp.Path, err)
	}
	// Quads away from every labelled object (chips, tables, books, pips of unlabelled
	// cards...) teach the rank model what is no index.
	var bg []background
	for _, q := range quads {
		free := true
		for _, t := range smp.Truth {
			tb := image.Rect(t.Box.X, t.Box.Y, t.Box.X+t.Box.W, t.Box.Y+t.Box.H)
			if iou(tb, q.Bounds) > 0.05 || share(q.Bounds, tb) > 0.5 || share(tb, q.Bounds) > 0.2 {
				free = false
				break
			}
		}
		if !free {
			continue
		}
		for _, g := range detect.GlyphSamples(img, q, [4]gocv.Point2f{}, 0, 0, rng) {
			bg = append(bg, background{image: smp.Path, g: g})
		}
	}
	var out []labelledCard
	for _, t := range smp.Truth {
		var rank, suit byte
		if t.RankOnly() {
			rank = t.Label[0]
		} else if r, s, err := observation.ParseCard(t.Label); err == nil {
			rank, suit = r, s
		} else {
			continue // face down, joker
		}
		tb := image.Rect(t.Box.X, t.Box.Y, t.Box.X+t.Box.W, t.Box.Y+t.Box.H)
		bi, best := -1, 0.6
		for i, q := range quads {
			if v := iou(tb, q.Bounds); v > best {
				bi, best = i, v
			}
		}
		if bi < 0 {
			continue
		}
		q := quads[bi]
		c := labelledCard{set: set, image: smp.Path, rank: rank, suit: suit, pips: map[bool][][]float32{}}
		if suit != 0 {
			for _, rot := range []bool{false, true} {
				c.pips[rot] = detect.PipSamples(img, q, rot)
			}
		}
		size := math.Sqrt(float64(q.Bounds.Dx() * q.Bounds.Dy()))
		for v := 0; v < variants; v++ {
			var jit [4]gocv.Point2f
			blur := 0.0
			if v > 0 {
				for k := range jit {
					jit[k] = gocv.Point2f{X: float32(rng.NormFloat64() * 0.012 * size), Y: float32(rng.NormFloat64() * 0.012 * size)}
				}
				if v%3 == 0 {
					blur = 0.5 + rng.Float64()
				}
			}
			for _, g := range detect.GlyphSamples(img, q, jit, blur, augment, rng) {
				c.reads = append(c.reads, reading{rot90: g.Rot90, corner: g.Corner, v: v, g: g})
			}
		}
		out = append(out, c)
	}
	return out, bg, nil
}

// share is the part of a's area inside b.
func share(a, b image.Rectangle) float64 {
	in := a.Intersect(b)
	if in.Empty() || a.Empty() {
		return 0
	}
	return float64(in.Dx()*in.Dy()) / float64(a.Dx()*a.Dy())
}

func iou(a, b image.Rectangle) float64 {
	in := a.Intersect(b)
	if in.Empty() {
		return 0
	}
	ia := float64(in.Dx() * in.Dy())
	return ia / (float64(a.Dx()*a.Dy()+b.Dx()*b.Dy()) - ia)
}

// synthRanks draws every rank with the Hershey fonts at random weights, widths, slants and
// blurs, and computes its features as if it were cut from a card.
func synthRanks(per int, rng *rand.Rand) []sample {
	fonts := []gocv.HersheyFont{gocv.FontHersheySimplex, gocv.FontHersheyDuplex, gocv.FontHersheyComplex, gocv.FontHersheyTriplex}
	var out []sample
	canvas := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(255, 255, 255, 0), 160, 200, gocv.MatTypeCV8UC3)
	defer canvas.Close()
	warped := gocv.NewMat()
	defer warped.Close()
	for ri, r := range observation.Ranks {
		text := string(r)
		if r == 'T' {
			text = "10"
		}
		for k := 0; k < per; k++ {
			canvas.SetTo(gocv.NewScalar(255, 255, 255, 0))
			f := fonts[rng.IntN(len(fonts))]
			th := 1 + rng.IntN(4)
			scale := 1.6 + rng.Float64()*1.2
			gocv.PutText(&canvas, text, image.Pt(40, 120), f, scale, color.RGBA{0, 0, 0, 0}, th)
			// Random narrowing and slant, as condensed card faces and a tilted camera give.
			sx := 0.6 + rng.Float64()*0.6
			sh := (rng.Float64() - 0.5) * 0.3
			src := gocv.NewPoint2fVectorFromPoints([]gocv.Point2f{{X: 0, Y: 0}, {X: 100, Y: 0}, {X: 0, Y: 100}})
			dst := gocv.NewPoint2fVectorFromPoints([]gocv.Point2f{{X: 50, Y: 0}, {X: float32(50 + 100*sx), Y: 0}, {X: float32(50 + 100*sh), Y: 100}})
			m := gocv.GetAffineTransform2f(src, dst)
			gocv.WarpAffineWithParams(canvas, &warped, m, image.Pt(200, 160), gocv.InterpolationLinear, gocv.BorderConstant, color.RGBA{255, 255, 255, 0})
			m.Close()
			src.Close()
			dst.Close()
			if b := rng.Float64(); b < 0.5 {
				s := 1 + 2*b*2
				kk := 2*int(math.Ceil(2*s)) + 1
				gocv.GaussianBlur(warped, &warped, image.Pt(kk, kk), s, s, gocv.BorderReplicate)
			}
			// Card glyph heights are 5-9% of the card height.
			x, ok := detect.RankFeaturesOfImage(warped, int(float64(glyphHeight(warped))/(0.05+0.04*rng.Float64())))
			if !ok {
				continue
			}
			out = append(out, sample{x: x, y: ri, val: false})
		}
	}
	return out
}

// synthSuits draws the four suit symbols as filled shapes of random proportions, in red or
// black ink, slightly turned and blurred, and computes their features as if cut from a card.
func synthSuits(per int, rng *rand.Rand) []sample {
	var out []sample
	canvas := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(255, 255, 255, 0), 120, 120, gocv.MatTypeCV8UC3)
	defer canvas.Close()
	for si, suit := range observation.Suits {
		for k := 0; k < per; k++ {
			canvas.SetTo(gocv.NewScalar(255, 255, 255, 0))
			ink := color.RGBA{R: 30, G: 30, B: 30}
			if observation.IsRed(byte(suit)) {
				r := uint8(120 + rng.IntN(120))
				ink = color.RGBA{R: r, G: uint8(20 + rng.IntN(50)), B: uint8(20 + rng.IntN(60))}
			} else if rng.IntN(3) == 0 {
				ink = color.RGBA{R: uint8(rng.IntN(80)), G: uint8(rng.IntN(80)), B: uint8(rng.IntN(80))}
			}
			drawSuit(&canvas, byte(suit), ink, rng)
			if b := rng.Float64(); b < 0.6 {
				s := 0.6 + 2.5*b
				kk := 2*int(math.Ceil(2*s)) + 1
				gocv.GaussianBlur(canvas, &canvas, image.Pt(kk, kk), s, s, gocv.BorderReplicate)
			}
			if x, ok := detect.SuitFeaturesOfImage(canvas); ok {
				out = append(out, sample{x: x, y: si})
			}
		}
	}
	return out
}

// drawSuit fills one suit symbol, about 60 pixels high, in the middle of the canvas.
func drawSuit(m *gocv.Mat, suit byte, ink color.RGBA, rng *rand.Rand) {
	h := 40 + rng.Float64()*30
	w := h * (0.75 + rng.Float64()*0.35)
	rot := (rng.Float64() - 0.5) * 0.25
	cx, cy := 60.0, 60.0
	var polys [][]image.Point
	place := func(pts [][2]float64) []image.Point {
		// pts in a unit box (-0.5..0.5, y down), scaled and turned.
		out := make([]image.Point, len(pts))
		for i, p := range pts {
			x, y := p[0]*w, p[1]*h
			out[i] = image.Pt(int(cx+x*math.Cos(rot)-y*math.Sin(rot)), int(cy+x*math.Sin(rot)+y*math.Cos(rot)))
		}
		return out
	}
	heart := func(flip bool, top, bottom float64) [][2]float64 {
		// The classic heart curve, normalised to the unit box between top and bottom.
		var pts [][2]float64
		lobe := 0.8 + rng.Float64()*0.4
		for t := 0.0; t < 2*math.Pi; t += 0.05 {
			x := 16 * math.Pow(math.Sin(t), 3) / 34 * lobe
			y := -(13*math.Cos(t) - 5*math.Cos(2*t) - 2*math.Cos(3*t) - math.Cos(4*t)) / 30
			y = top + (y+0.55)/1.1*(bottom-top)
			if flip {
				y = top + bottom - y
			}
			pts = append(pts, [2]float64{x, y})
		}
		return pts
	}
	switch suit {
	case 'D':
		bend := rng.Float64() * 0.08
		var pts [][2]float64
		corners := [][2]float64{{0, -0.5}, {0.5, 0}, {0, 0.5}, {-0.5, 0}}
		for i := range corners {
			a, b := corners[i], corners[(i+1)%4]
			for t := 0.0; t < 1; t += 0.1 {
				x := a[0] + (b[0]-a[0])*t
				y := a[1] + (b[1]-a[1])*t
				// Pull the middle of each side in for curved diamonds.
				k := math.Sin(math.Pi*t) * bend
				pts = append(pts, [2]float64{x * (1 - k*2), y * (1 - k*2)})
			}
		}
		polys = append(polys, place(pts))
	case 'H':
		polys = append(polys, place(heart(false, -0.5, 0.5)))
	case 'S':
		stem := 0.15 + rng.Float64()*0.15
		polys = append(polys, place(heart(true, -0.5, 0.5-stem)))
		sw := 0.12 + rng.Float64()*0.12
		polys = append(polys, place([][2]float64{{0, 0.5 - stem - 0.2}, {sw, 0.5}, {-sw, 0.5}}))
	case 'C':
		r := 0.22 + rng.Float64()*0.05
		for _, c := range [][2]float64{{0, -0.5 + r}, {-0.5 + r, 0.1}, {0.5 - r, 0.1}} {
			var pts [][2]float64
			for t := 0.0; t < 2*math.Pi; t += 0.2 {
				pts = append(pts, [2]float64{c[0] + r*math.Cos(t)*h/w, c[1] + r*math.Sin(t)})
			}
			polys = append(polys, place(pts))
		}
		sw := 0.1 + rng.Float64()*0.1
		polys = append(polys, place([][2]float64{{0, -0.1}, {sw, 0.5}, {-sw, 0.5}}))
		polys = append(polys, place([][2]float64{{-0.12, -0.05}, {0.12, -0.05}, {0.12, 0.2}, {-0.12, 0.2}}))
	}
	// One polygon at a time: overlapping polygons filled together cancel out.
	for _, p := range polys {
		pv := gocv.NewPointsVectorFromPoints([][]image.Point{p})
		gocv.FillPoly(m, pv, ink)
		pv.Close()
	}
}

// glyphHeight is the height of the dark pixels of a synthetic glyph image.
func glyphHeight(m gocv.Mat) int {
	gray := gocv.NewMat()
	defer gray.Close()
	gocv.CvtColor(m, &gray, gocv.ColorBGRToGray)
	b, _ := gray.DataPtrUint8()
	top, bot := -1, -1
	for y := 0; y < gray.Rows(); y++ {
		for x := 0; x < gray.Cols(); x++ {
			if b[y*gray.Cols()+x] < 128 {
				if top < 0 {
					top = y
				}
				bot = y
				break
			}
		}
	}
	if top < 0 {
		return 1
	}
	return bot - top + 1
}

func write(o options, rankNet, suitNet *models.Ensemble, st roundStats) error {
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		return err
	}
	for _, m := range []struct {
		name, file, man, feat string
		sources               []models.Source
		size                  int
		net                   *models.Ensemble
		classes               []string
		counts                map[string]int
		acc                   float64
		desc                  string
	}{
		{"cards-rank", "rank.bin", "rank.json", detect.RankFeatures, rankSources, detect.RankFeatureSize, rankNet, rankClasses, st.rankCounts, st.rankValAcc,
			"Reads the rank glyph of a card's index corner (upright, cut from the warped card). 'none' = not an upright rank glyph."},
		{"cards-suit", "suit.bin", "suit.json", detect.SuitFeatures, suitSources, detect.SuitFeatureSize, suitNet, suitClasses, st.suitCounts, st.suitValAcc,
			"Reads the suit glyph under the rank of a card's index corner (trained on index suits and on the upright pips of number cards)."},
	} {
		data, err := m.net.MarshalBinary()
		if err != nil {
			return err
		}
		training := map[string]any{
			"samples_per_class": m.counts,
			"validation":        "one photograph in five (by source name) held out of a first fit",
			"cards_matched":     st.cards,
			"cards_assigned":    st.assigned,
		}
		if !math.IsNaN(m.acc) {
			training["validation_accuracy"] = math.Round(m.acc*1000) / 1000
		}
		if o.fold >= 0 {
			training["left_out_fold"] = o.fold
		}
		man := models.Manifest{
			Name: m.name, Version: version, File: m.file, SHA256: models.Digest(data), Classes: m.classes,
			Input:       models.Input{Features: m.feat, Size: m.size},
			Description: m.desc, Sources: m.sources, BuiltBy: "go run ./models/cmd/build-cards",
			Training: training,
		}
		mb, err := json.MarshalIndent(man, "", "  ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(o.out, m.file), data, 0o644); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(o.out, m.man), append(mb, '\n'), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// dumpSamples writes, per class, a sheet of up to 200 training rasters (synthetic ones
// last), so that a person can check the cut glyphs are what their label says.
func dumpSamples(dir, name string, ss []sample, classes []string, w, h int) {
	_ = os.MkdirAll(dir, 0o755)
	const cols, per, scale = 20, 200, 3
	for ci, cl := range classes {
		var xs [][]float32
		for _, s := range ss {
			if s.y == ci && len(xs) < per {
				xs = append(xs, s.x)
			}
		}
		if len(xs) == 0 {
			continue
		}
		rows := (len(xs) + cols - 1) / cols
		m := gocv.NewMatWithSize(rows*(h+1)*scale, cols*(w+1)*scale, gocv.MatTypeCV8UC1)
		b, _ := m.DataPtrUint8()
		for i := range b {
			b[i] = 128
		}
		for i, x := range xs {
			ox, oy := (i%cols)*(w+1)*scale, (i/cols)*(h+1)*scale
			for y := 0; y < h; y++ {
				for xx := 0; xx < w; xx++ {
					v := uint8(255 - 255*x[y*w+xx])
					for dy := 0; dy < scale; dy++ {
						for dx := 0; dx < scale; dx++ {
							b[(oy+y*scale+dy)*m.Cols()+ox+xx*scale+dx] = v
						}
					}
				}
			}
		}
		gocv.IMWrite(filepath.Join(dir, fmt.Sprintf("%s_%s.png", name, cl)), m)
		m.Close()
	}
}
