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
	"os"
	"path/filepath"

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
	crossval := flag.String("crossval", "", "folder with one model folder per fold (0/ to 4/, each built with build-cards -leave-out-fold N): read every photograph with the models that never saw it")
	flag.Parse()

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
	var cardDet detector = cards
	if *crossval != "" {
		cv := foldDetectors{}
		for k := 0; k < eval.Folds; k++ {
			m, err := models.LoadCardsFS(os.DirFS(filepath.Join(*crossval, fmt.Sprint(k))))
			if err != nil {
				fmt.Fprintln(os.Stderr, "eval-vision:", err)
				return 1
			}
			d, err := detect.NewCards(m)
			if err != nil {
				fmt.Fprintln(os.Stderr, "eval-vision:", err)
				return 1
			}
			defer d.Close()
			cv = append(cv, d)
		}
		cardDet = cv
	}
	dice := detect.NewDice()
	defer dice.Close()

	var rows []eval.Row
	for _, s := range []struct {
		name string
		det  detector
	}{{"blackjack-v13", cardDet}, {"cards-edje-tf", cardDet}, {"dice-matteop65", dice}} {
		if *only != "" && s.name != *only {
			continue
		}
		set, err := dataset.Load(filepath.Join(*shared, "data"), s.name)
		if errors.Is(err, dataset.ErrNoSet) {
			fmt.Fprintf(os.Stderr, "eval-vision: %s: not found under %s, skipped\n", s.name, *shared)
			continue
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "eval-vision:", err)
			return 1
		}
		bySplit := map[string]*eval.Counts{}
		centre := map[string]*eval.Counts{} // dice also scored by centre (see eval.Counts)
		var splits []string
		for _, smp := range set.Samples {
			if *fold >= 0 && eval.Fold(smp.Path) != *fold {
				continue
			}
			if *crossval != "" && (smp.Split != "dev" || set.Kind != "cards") {
				continue // the fold models are built from the dev split of the card sets
			}
			c := bySplit[smp.Split]
			if c == nil {
				c = &eval.Counts{}
				bySplit[smp.Split] = c
				centre[smp.Split] = &eval.Counts{CentreMatch: true}
				splits = append(splits, smp.Split)
			}
			img := gocv.IMRead(smp.Path, gocv.IMReadColor)
			det := s.det
			if cv, ok := det.(foldDetectors); ok {
				det = cv[eval.Fold(smp.Path)]
			}
			dets, err := det.Detect(img)
			img.Close()
			if err != nil {
				fmt.Fprintf(os.Stderr, "eval-vision: %s: %v\n", smp.Path, err)
				return 1
			}
			c.Add(smp, dets)
			centre[smp.Split].Add(smp, dets)
		}
		for _, sp := range splits {
			rows = append(rows, eval.Row{Set: s.name, Split: sp, Counts: *bySplit[sp]})
			if set.Kind == "dice" {
				rows = append(rows, eval.Row{Set: s.name + " (matched by centre)", Split: sp, Counts: *centre[sp]})
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

// foldDetectors holds one card recogniser per cross-validation fold.
type foldDetectors []*detect.Cards

func (f foldDetectors) Detect(m gocv.Mat) ([]observation.Object, error) { return f[0].Detect(m) }
