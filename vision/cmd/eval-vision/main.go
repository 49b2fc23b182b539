//go:build cgo

// Command eval-vision measures the card and dice recognisers on the labelled photographs in
// ../shared/data (every split present: dev, and holdout where it exists) and prints a
// Markdown table of recall, precision and confidently-wrong calls per set.
//
//	go run ./vision/cmd/eval-vision [-shared ../shared] [-models DIR] [-errors]
package main

import (
	"errors"
	"flag"
	"fmt"
	"image"
	"math"
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

func main() {
	os.Exit(run())
}

type detector interface {
	Detect(gocv.Mat) ([]observation.Object, error)
}

func run() int {
	def := os.Getenv("COUPWATCH_SHARED")
	if def == "" {
		def = "../shared"
	}
	shared := flag.String("shared", def, "shared folder holding data/ (env COUPWATCH_SHARED)")
	modelDir := flag.String("models", "", "load the card models from this folder instead of the embedded ones")
	showErrors := flag.Bool("errors", false, "list every wrong call")
	only := flag.String("set", "", "evaluate this set only")
	fold := flag.Int("fold", -1, "evaluate the photographs of this cross-validation fold only (0-4)")
	crossval := flag.String("crossval", "", "folder with one model folder per fold (0/ to 4/, each built with build-cards -leave-out-fold N): read every photograph with the models that never saw it; several folders, comma-separated (fold models built with other -seed values), give a row each and a row pooling them")
	scale := flag.Float64("scale", 1, "enlarge (or shrink) every photograph and its labels by this factor before reading it: how the recognisers fare on cards seen larger or smaller than the sets show them")
	turn := flag.Int("turn", 0, "turn every photograph and its labels this many quarter turns clockwise before reading it (0-3): how the recognisers fare on cards seen from another side of the table")
	mirror := flag.Bool("mirror", false, "mirror every photograph and its labels left to right before reading it (before -turn): how the recognisers fare on a camera set to mirror its picture, or on a set's flipped copies")
	flag.Parse()
	if *scale < 0.25 || *scale > 4 {
		fmt.Fprintf(os.Stderr, "eval-vision: -scale %v: want 0.25 to 4\n", *scale)
		return 2
	}
	if *turn < 0 || *turn > 3 {
		fmt.Fprintf(os.Stderr, "eval-vision: -turn %v: want 0 to 3\n", *turn)
		return 2
	}
	view := view{scale: *scale, turn: *turn, mirror: *mirror}

	var cm *models.CardModels
	var err error
	if *modelDir != "" {
		cm, err = models.LoadCardsFS(os.DirFS(*modelDir))
	} else {
		cm, err = models.LoadCards()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "eval-vision:", err)
		return 1
	}
	cards, err := detect.NewCards(cm)
	if err != nil {
		fmt.Fprintln(os.Stderr, "eval-vision:", err)
		return 1
	}
	defer cards.Close()
	// The card recognisers to measure: the one with the shipped (or -models) models, or one
	// set of fold models per cross-validation folder.
	cardRuns := []cardRun{{det: cards}}
	var cvDirs []string
	if *crossval != "" {
		cvDirs = strings.Split(*crossval, ",")
		cardRuns = nil
		for _, dir := range cvDirs {
			cv, err := loadFolds(dir)
			if err != nil {
				fmt.Fprintln(os.Stderr, "eval-vision:", err)
				return 1
			}
			defer cv.Close()
			r := cardRun{det: cv}
			if len(cvDirs) > 1 {
				r.suffix = " (" + dir + ")"
			}
			cardRuns = append(cardRuns, r)
		}
	}
	dice := detect.NewDice()
	defer dice.Close()

	var rows []eval.Row
	for _, name := range []string{"blackjack-v13", "cards-edje-tf", "dice-matteop65"} {
		if *only != "" && name != *only {
			continue
		}
		set, err := dataset.Load(filepath.Join(*shared, "data"), name)
		if errors.Is(err, dataset.ErrNoSet) {
			fmt.Fprintf(os.Stderr, "eval-vision: %s: not found under %s, skipped\n", name, *shared)
			continue
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "eval-vision:", err)
			return 1
		}
		runs := cardRuns
		if set.Kind == "dice" {
			if *crossval != "" {
				continue // the fold models are built from the dev split of the card sets
			}
			runs = []cardRun{{det: dice}}
		}
		pooled := map[string]*eval.Counts{}
		var splits []string
		for _, run := range runs {
			bySplit, centre, sp, err := measure(set, run.det, *fold, *crossval != "", view)
			if err != nil {
				fmt.Fprintln(os.Stderr, "eval-vision:", err)
				return 1
			}
			for _, s := range sp {
				rows = append(rows, eval.Row{Set: name + view.suffix() + run.suffix, Split: s, Counts: *bySplit[s]})
				if set.Kind == "dice" {
					rows = append(rows, eval.Row{Set: name + " (matched by centre)", Split: s, Counts: *centre[s]})
				}
				if pooled[s] == nil {
					pooled[s] = &eval.Counts{}
					splits = append(splits, s)
				}
				pooled[s].Merge(*bySplit[s])
			}
		}
		if len(runs) > 1 {
			for _, s := range splits {
				p := *pooled[s]
				p.Errors, p.Misses = nil, nil // listed per run already
				rows = append(rows, eval.Row{Set: fmt.Sprintf("%s (%d runs pooled)", name, len(runs)), Split: s, Counts: p})
			}
		}
	}
	if err := eval.WriteTable(os.Stdout, rows); err != nil {
		return 1
	}
	if *showErrors {
		for _, r := range rows {
			for _, e := range r.Errors {
				fmt.Println("wrong:", e)
			}
			for _, e := range r.Misses {
				fmt.Println("missed:", e)
			}
		}
	}
	return 0
}

// cardRun is a card recogniser measured, and what its rows' set names are suffixed with.
type cardRun struct {
	det    detector
	suffix string
}

// measure reads every photograph of set (of cross-validation fold onlyFold, unless it is -1;
// of the dev split only when devOnly) with det, and scores it per split, by IoU and by centre.
// A foldDetectors det reads each photograph with the models of its fold. Each photograph
// and its labels are resized, mirrored and turned as v says first.
func measure(set *dataset.Set, det detector, onlyFold int, devOnly bool, v view) (bySplit, centre map[string]*eval.Counts, splits []string, err error) {
	bySplit = map[string]*eval.Counts{}
	centre = map[string]*eval.Counts{} // dice also scored by centre (see eval.Counts)
	for _, smp := range set.Samples {
		if onlyFold >= 0 && eval.Fold(smp.Path) != onlyFold {
			continue
		}
		if devOnly && smp.Split != "dev" {
			continue
		}
		c := bySplit[smp.Split]
		if c == nil {
			c = &eval.Counts{}
			bySplit[smp.Split] = c
			centre[smp.Split] = &eval.Counts{CentreMatch: true}
			splits = append(splits, smp.Split)
		}
		img := gocv.IMRead(smp.Path, gocv.IMReadColor)
		if v.scale != 1 && !img.Empty() {
			img, smp = scaled(img, smp, v.scale)
		}
		if v.mirror && !img.Empty() {
			img, smp = mirrored(img, smp)
		}
		if v.turn != 0 && !img.Empty() {
			img, smp = turned(img, smp, v.turn)
		}
		d := det
		if cv, ok := det.(foldDetectors); ok {
			d = cv[eval.Fold(smp.Path)]
		}
		dets, err := d.Detect(img)
		img.Close()
		if err != nil {
			return nil, nil, nil, fmt.Errorf("%s: %w", smp.Path, err)
		}
		c.Add(smp, dets)
		centre[smp.Split].Add(smp, dets)
	}
	return bySplit, centre, splits, nil
}

// scaled resizes img (which it closes) and the sample's labels by f.
func scaled(img gocv.Mat, smp dataset.Sample, f float64) (gocv.Mat, dataset.Sample) {
	out := gocv.NewMat()
	interp := gocv.InterpolationCubic
	if f < 1 {
		interp = gocv.InterpolationArea
	}
	w, h := int(math.Round(f*float64(img.Cols()))), int(math.Round(f*float64(img.Rows())))
	gocv.Resize(img, &out, image.Pt(w, h), 0, 0, interp)
	sx, sy := float64(w)/float64(img.Cols()), float64(h)/float64(img.Rows())
	img.Close()
	smp.Width, smp.Height = w, h
	smp.Truth = slices.Clone(smp.Truth)
	for i := range smp.Truth {
		b := &smp.Truth[i].Box
		x0, y0 := int(math.Round(sx*float64(b.X))), int(math.Round(sy*float64(b.Y)))
		x1, y1 := int(math.Round(sx*float64(b.X+b.W))), int(math.Round(sy*float64(b.Y+b.H)))
		b.X, b.Y, b.W, b.H = x0, y0, x1-x0, y1-y0
	}
	return out, smp
}

// turned turns img (which it closes) and the sample's labels by quarter turns clockwise.
func turned(img gocv.Mat, smp dataset.Sample, quarters int) (gocv.Mat, dataset.Sample) {
	out := gocv.NewMat()
	smp.Truth = slices.Clone(smp.Truth)
	for q := 0; q < quarters; q++ {
		gocv.Rotate(img, &out, gocv.Rotate90Clockwise)
		img.Close()
		img, out = out, gocv.NewMat()
		// A quarter turn clockwise takes (x, y) of a W x H image to (H-y, x).
		h := smp.Height
		smp.Width, smp.Height = smp.Height, smp.Width
		for i := range smp.Truth {
			b := &smp.Truth[i].Box
			b.X, b.Y, b.W, b.H = h-(b.Y+b.H), b.X, b.H, b.W
		}
	}
	out.Close()
	return img, smp
}

// mirrored mirrors img (which it closes) and the sample's labels left to right.
func mirrored(img gocv.Mat, smp dataset.Sample) (gocv.Mat, dataset.Sample) {
	out := gocv.NewMat()
	gocv.Flip(img, &out, 1)
	img.Close()
	smp.Truth = slices.Clone(smp.Truth)
	for i := range smp.Truth {
		b := &smp.Truth[i].Box
		b.X = smp.Width - (b.X + b.W)
	}
	return out, smp
}

// view is how each photograph is shown to the recognisers: resized by scale, mirrored left
// to right if mirror, then turned turn quarter turns clockwise.
type view struct {
	scale  float64
	turn   int
	mirror bool
}

// suffix names the view in a row's set name ("" for the photographs as they are).
func (v view) suffix() string {
	s := ""
	if v.scale != 1 {
		s += fmt.Sprintf(" ×%g", v.scale)
	}
	if v.mirror {
		s += " mirrored"
	}
	if v.turn != 0 {
		s += fmt.Sprintf(" turned %d°", 90*v.turn)
	}
	return s
}

// foldDetectors holds one card recogniser per cross-validation fold.
type foldDetectors []*detect.Cards

func (f foldDetectors) Detect(m gocv.Mat) ([]observation.Object, error) { return f[0].Detect(m) }

// Close closes the recognisers.
func (f foldDetectors) Close() {
	for _, d := range f {
		d.Close()
	}
}

// loadFolds loads the fold models of a cross-validation folder (0/ to 4/).
func loadFolds(dir string) (foldDetectors, error) {
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("-crossval %s: no such folder", dir)
	}
	var cv foldDetectors
	for k := 0; k < eval.Folds; k++ {
		m, err := models.LoadCardsFS(os.DirFS(filepath.Join(dir, fmt.Sprint(k))))
		if err == nil {
			var d *detect.Cards
			if d, err = detect.NewCards(m); err == nil {
				cv = append(cv, d)
				continue
			}
		}
		cv.Close()
		return nil, fmt.Errorf("%s: fold %d: %w", dir, k, err)
	}
	return cv, nil
}
