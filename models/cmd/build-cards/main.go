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
	"github.com/coupwatch/coupwatch/vision/observation"
)

// Model version written to the manifests; bump it when the features or the recipe change.
const version = "1.0.0"

var rankClasses = append(strings.Split(observation.Ranks, ""), models.Reject)
var suitClasses = append(strings.Split(observation.Suits, ""), models.Reject)

var sources = []models.Source{
	{Name: "blackjack-v13", URL: "https://universe.roboflow.com/black-jack-group-alpha/black-jack-8goxw/dataset/13 (via https://github.com/ScottJJosh/PokerSensei)", Licence: "CC BY 4.0", Note: "dev split; glyph features only, no photographs"},
	{Name: "cards-edje-tf", URL: "https://github.com/EdjeElectronics/TensorFlow-Object-Detection-API-Tutorial-Train-Multiple-Objects-Windows-10", Licence: "Apache-2.0", Note: "dev split; ranks only"},
	{Name: "OpenCV Hershey fonts", URL: "https://opencv.org", Licence: "Apache-2.0", Note: "synthetic rank glyphs"},
}

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
	flag.Parse()
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

// labelledCard is a card of a photograph matched to its label, with every corner read.
type labelledCard struct {
	set, image string
	rank, suit byte // suit 0 when the set has ranks only
	reads      []reading
}

func build(o options, log *slog.Logger) error {
	rng := rand.New(rand.NewPCG(o.seed, 7))
	cards, err := collect(o, rng, log)
	if err != nil {
		return err
	}
	synth := synthRanks(o.synth, rng)
	log.Info("collected", "cards", len(cards), "synthetic_ranks", len(synth))

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
	rankNet, suitNet, stats := trainRound(cards, synth, assign, heuristic, o, rng, log)
	// Round 2: the round-1 models pick the orientation and diagonal whose glyphs look most
	// like the label, and the models are trained again from scratch.
	var sc models.Scratch
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
	rankNet, suitNet, stats = trainRound(cards, synth, assign, learned, o, rng, log)
	return write(o, rankNet, suitNet, stats)
}

type roundStats struct {
	rankCounts, suitCounts map[string]int
	rankValAcc, suitValAcc float64
	cards, assigned        int
}

// trainRound builds the sample lists for an assignment rule and trains both models. One in
// five photographs is held out to measure accuracy, then the models are refitted on all.
func trainRound(cards []labelledCard, synth []sample,
	assign func(*labelledCard, func(*labelledCard, bool, int) float64) (bool, int, bool),
	score func(*labelledCard, bool, int) float64, o options, rng *rand.Rand, log *slog.Logger,
) (*models.MLP, *models.MLP, roundStats) {
	var rankS, suitS []sample
	st := roundStats{rankCounts: map[string]int{}, suitCounts: map[string]int{}, cards: len(cards)}
	for i := range cards {
		c := &cards[i]
		rot, diag, ok := assign(c, score)
		if !ok {
			continue
		}
		st.assigned++
		val := imageFold(c.image) == 0
		for _, r := range c.reads {
			switch {
			case r.rot90 == rot && r.corner%2 == diag:
				rankS = append(rankS, sample{x: r.g.Rank, y: slices.Index(rankClasses, string(c.rank)), val: val})
				if c.suit != 0 && (r.g.Red > 0.08) == observation.IsRed(c.suit) {
					suitS = append(suitS, sample{x: r.g.Suit, y: slices.Index(suitClasses, string(c.suit)), val: val})
				}
			case r.rot90 != rot:
				// The other orientation shows the index turned a quarter: no glyph may be
				// read there.
				rankS = append(rankS, sample{x: r.g.Rank, y: len(rankClasses) - 1, val: val})
				suitS = append(suitS, sample{x: r.g.Suit, y: len(suitClasses) - 1, val: val})
			}
		}
	}
	rankS = append(rankS, synth...)
	for _, s := range rankS {
		st.rankCounts[rankClasses[s.y]]++
	}
	for _, s := range suitS {
		st.suitCounts[suitClasses[s.y]]++
	}
	hidden := 64
	var rankNet, suitNet *models.MLP
	st.rankValAcc = fitAndValidate(rankS, []int{detect.RankFeatureSize, hidden, len(rankClasses)}, o, rng, &rankNet)
	st.suitValAcc = fitAndValidate(suitS, []int{detect.SuitFeatureSize, 32, len(suitClasses)}, o, rng, &suitNet)
	log.Info("trained", "assigned_cards", st.assigned, "of", st.cards, "rank_samples", len(rankS), "suit_samples", len(suitS),
		"rank_val_acc", fmt.Sprintf("%.3f", st.rankValAcc), "suit_val_acc", fmt.Sprintf("%.3f", st.suitValAcc))
	return rankNet, suitNet, st
}

type sample struct {
	x   []float32
	y   int
	val bool
}

// imageFold puts a photograph in one of five folds by its source name (augmented copies of
// one source photograph share a fold).
func imageFold(path string) int {
	base := filepath.Base(path)
	if i := strings.Index(base, "_jpg.rf."); i > 0 {
		base = base[:i]
	} else if i := strings.Index(base, "_jpeg.rf."); i > 0 {
		base = base[:i]
	}
	h := uint32(2166136261)
	for i := 0; i < len(base); i++ {
		h = (h ^ uint32(base[i])) * 16777619
	}
	return int(h % 5)
}

// fitAndValidate trains on the non-validation samples and measures accuracy on the
// validation ones, then trains the final network on all samples.
func fitAndValidate(ss []sample, sizes []int, o options, rng *rand.Rand, out **models.MLP) float64 {
	var tx, vx [][]float32
	var ty, vy []int
	var ax [][]float32
	var ay []int
	for _, s := range ss {
		ax, ay = append(ax, s.x), append(ay, s.y)
		if s.val {
			vx, vy = append(vx, s.x), append(vy, s.y)
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
	net := models.NewMLP(sizes, rng)
	net.Train(ax, ay, opt, rng)
	*out = net
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
func collect(o options, rng *rand.Rand, log *slog.Logger) ([]labelledCard, error) {
	finder := detect.NewQuadFinder()
	defer finder.Close()
	var out []labelledCard
	for _, name := range o.sets {
		set, err := dataset.Load(filepath.Join(o.shared, "data"), name)
		if err != nil {
			return nil, err
		}
		n := 0
		for _, smp := range set.Samples {
			if smp.Split != "dev" {
				continue // holdout photographs never go into a model
			}
			cs, err := cardsOf(finder, smp, name, o.variants, rng)
			if err != nil {
				return nil, err
			}
			out = append(out, cs...)
			n += len(cs)
		}
		log.Info("set read", "set", name, "cards", n)
	}
	if len(out) == 0 {
		return nil, errors.New("no labelled card found")
	}
	return out, nil
}

func cardsOf(finder *detect.QuadFinder, smp dataset.Sample, set string, variants int, rng *rand.Rand) ([]labelledCard, error) {
	img := gocv.IMRead(smp.Path, gocv.IMReadColor)
	defer img.Close()
	if img.Empty() {
		return nil, fmt.Errorf("reading %s: not an image", smp.Path)
	}
	quads, err := finder.FindCardQuads(img)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", smp.Path, err)
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
		c := labelledCard{set: set, image: smp.Path, rank: rank, suit: suit}
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
			for _, g := range detect.GlyphSamples(img, q, jit, blur) {
				c.reads = append(c.reads, reading{rot90: g.Rot90, corner: g.Corner, v: v, g: g})
			}
		}
		out = append(out, c)
	}
	return out, nil
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

func write(o options, rankNet, suitNet *models.MLP, st roundStats) error {
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		return err
	}
	for _, m := range []struct {
		name, file, man, feat string
		size                  int
		net                   *models.MLP
		classes               []string
		counts                map[string]int
		acc                   float64
		desc                  string
	}{
		{"cards-rank", "rank.bin", "rank.json", detect.RankFeatures, detect.RankFeatureSize, rankNet, rankClasses, st.rankCounts, st.rankValAcc,
			"Reads the rank glyph of a card's index corner (upright, cut from the warped card). 'none' = not an upright rank glyph."},
		{"cards-suit", "suit.bin", "suit.json", detect.SuitFeatures, detect.SuitFeatureSize, suitNet, suitClasses, st.suitCounts, st.suitValAcc,
			"Reads the suit glyph under the rank of a card's index corner. 'none' = not an upright suit glyph."},
	} {
		data, err := m.net.MarshalBinary()
		if err != nil {
			return err
		}
		man := models.Manifest{
			Name: m.name, Version: version, File: m.file, SHA256: models.Digest(data), Classes: m.classes,
			Input:       models.Input{Features: m.feat, Size: m.size},
			Description: m.desc, Sources: sources, BuiltBy: "go run ./models/cmd/build-cards",
			Training: map[string]any{
				"samples_per_class":   m.counts,
				"validation_accuracy": math.Round(m.acc*1000) / 1000,
				"validation":          "one photograph in five (by source name) held out of a first fit",
				"cards_matched":       st.cards,
				"cards_assigned":      st.assigned,
			},
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
