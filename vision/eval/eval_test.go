package eval_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/coupwatch/coupwatch/vision/dataset"
	"github.com/coupwatch/coupwatch/vision/eval"
	"github.com/coupwatch/coupwatch/vision/observation"
)

func box(x, y, w, h int) observation.Box { return observation.Box{X: x, Y: y, W: w, H: h} }

func TestCounts(t *testing.T) {
	smp := dataset.Sample{Path: "a.jpg", Width: 1000, Height: 1000, Truth: []dataset.Truth{
		{Label: "QH", Box: box(100, 100, 100, 140)},    // read right
		{Label: "TD", Box: box(400, 100, 100, 140)},    // read wrong, confidently
		{Label: "7C", Box: box(700, 100, 100, 140)},    // unknown
		{Label: "2S", Box: box(100, 500, 100, 140)},    // missed
		{Label: "joker", Box: box(400, 500, 100, 140)}, // not scored
		{Label: "AS", Box: box(0, 800, 100, 140)},      // at the border: not fully visible
	}}
	dets := []observation.Object{
		{Label: "QH", Box: box(102, 98, 100, 142), Conf: 0.98},
		{Label: "TH", Box: box(400, 100, 100, 140), Conf: 0.95},
		{Label: "unknown", Box: box(700, 100, 100, 140), Conf: 0.2},
		{Label: "KD", Box: box(400, 500, 100, 140), Conf: 0.7}, // the joker
		{Label: "AS", Box: box(0, 800, 100, 140), Conf: 0.6},
		{Label: "5C", Box: box(800, 800, 50, 50), Conf: 0.91}, // nothing there
	}
	var c eval.Counts
	c.Add(smp, dets)
	want := eval.Counts{Images: 1, Truths: 5, Full: 4, Correct: 2, FullCorrect: 1, Wrong: 1, FullWrong: 1, Unknown: 1,
		Calls: 4, FalsePos: 1, ConfWrong: 2, Confident: 3}
	c.Errors, c.Misses = nil, nil
	if !reflect.DeepEqual(c, want) {
		t.Errorf("counts\n%+v, want\n%+v", c, want)
	}
}

// Two runs merged count twice: every count, and every error and miss listed (a field added to
// Counts and forgotten by Merge fails here).
func TestMerge(t *testing.T) {
	smp := dataset.Sample{Path: "a.jpg", Width: 1000, Height: 1000, Truth: []dataset.Truth{
		{Label: "QH", Box: box(100, 100, 100, 140)},
		{Label: "TD", Box: box(400, 100, 100, 140)},
		{Label: "7C", Box: box(700, 100, 100, 140)},
		{Label: "2S", Box: box(100, 500, 100, 140)},
	}}
	var one eval.Counts
	one.Add(smp, []observation.Object{
		{Label: "QH", Box: box(100, 100, 100, 140), Conf: 0.98},
		{Label: "TH", Box: box(400, 100, 100, 140), Conf: 0.95},
		{Label: "unknown", Box: box(700, 100, 100, 140), Conf: 0.2},
		{Label: "5C", Box: box(800, 800, 50, 50), Conf: 0.91},
	})
	var two eval.Counts
	two.Merge(one)
	two.Merge(one)
	a, b := reflect.ValueOf(one), reflect.ValueOf(two)
	for i := 0; i < a.NumField(); i++ {
		name := a.Type().Field(i).Name
		switch f := a.Field(i); f.Kind() {
		case reflect.Int:
			if f.Int() == 0 {
				t.Errorf("%s is 0 in the run merged: the test scores nothing there", name)
			}
			if got := b.Field(i).Int(); got != 2*f.Int() {
				t.Errorf("%s merged twice = %d, want %d", name, got, 2*f.Int())
			}
		case reflect.Slice:
			if got := b.Field(i).Len(); got != 2*f.Len() || f.Len() == 0 {
				t.Errorf("%s merged twice has %d entries, want %d (and more than none)", name, got, 2*f.Len())
			}
		}
	}
}

// Dice labelled by the whole face (a big box) while the detector boxes the pips: no match
// by IoU, a match by centre; a die elsewhere matches neither way.
func TestCentreMatch(t *testing.T) {
	smp := dataset.Sample{Path: "d.jpg", Width: 600, Height: 600, Truth: []dataset.Truth{
		{Label: "1", Box: box(100, 100, 120, 120)},
		{Label: "5", Box: box(400, 400, 60, 60)},
	}}
	dets := []observation.Object{
		{Label: "1", Box: box(150, 150, 22, 22), Conf: 0.95}, // the pip of the "1", centred in its face
		{Label: "5", Box: box(300, 300, 60, 60), Conf: 0.95}, // beside the "5": no match
	}
	var iou, centre eval.Counts
	centre.CentreMatch = true
	iou.Add(smp, dets)
	centre.Add(smp, dets)
	if iou.Correct != 0 || iou.FalsePos != 2 {
		t.Errorf("by IoU: %d right, %d false positives; want 0 and 2", iou.Correct, iou.FalsePos)
	}
	if centre.Correct != 1 || centre.FalsePos != 1 {
		t.Errorf("by centre: %d right, %d false positives; want 1 and 1", centre.Correct, centre.FalsePos)
	}
}

func TestRankOnlyAndTable(t *testing.T) {
	smp := dataset.Sample{Path: "b.jpg", Width: 500, Height: 500, Truth: []dataset.Truth{
		{Label: "Q", Rank: true, Box: box(10, 10, 100, 140)},
		{Label: "9", Rank: true, Box: box(200, 10, 100, 140)},
	}}
	var c eval.Counts
	c.Add(smp, []observation.Object{
		{Label: "QS", Box: box(10, 10, 100, 140), Conf: 0.9},
		{Label: "6H", Box: box(200, 10, 100, 140), Conf: 0.5},
	})
	if c.Correct != 1 || c.Wrong != 1 || c.ConfWrong != 0 {
		t.Errorf("%+v", c)
	}
	var b strings.Builder
	if err := eval.WriteTable(&b, []eval.Row{{Set: "s", Split: "dev", Counts: c}}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "| s | dev | 1 | 2 | 1 | 50.0% |") {
		t.Errorf("table:\n%s", b.String())
	}
}

func TestFoldKeepsAugmentedCopiesTogether(t *testing.T) {
	a := eval.Fold("data/IMG_3321_jpeg.rf.6ea0435f.jpg")
	b := eval.Fold("other/IMG_3321_jpeg.rf.99999999.jpg")
	if a != b {
		t.Errorf("two copies of one photograph in folds %d and %d", a, b)
	}
	seen := map[int]bool{}
	for _, n := range []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"} {
		f := eval.Fold(n + ".jpg")
		if f < 0 || f >= eval.Folds {
			t.Fatalf("fold %d", f)
		}
		seen[f] = true
	}
	if len(seen) < 3 {
		t.Errorf("folds used: %v", seen)
	}
}
