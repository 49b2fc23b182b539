// Package eval scores recogniser output against labelled photographs: recall, precision and
// confidently-wrong calls per set, for all labelled objects and for the fully visible ones.
// It is pure Go; vision/cmd/eval-vision runs the recognisers and prints the table.
package eval

import (
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"

	"github.com/coupwatch/coupwatch/vision/dataset"
	"github.com/coupwatch/coupwatch/vision/observation"
)

// MatchIoU is the least intersection over union at which a detection is taken to be the
// labelled object.
const MatchIoU = 0.5

// ConfidentConf is the confidence from which a wrong call counts as confidently wrong.
const ConfidentConf = 0.9

// Counts are the tallies of one set.
type Counts struct {
	// CentreMatch, when set before scoring, matches a detection to a labelled object when
	// each box holds the other's centre, instead of by IoU: for dice, whose labelled boxes
	// follow two conventions (the pips of the top face in most photographs, the whole face
	// in a few), so that a die read right is not counted as a miss for the size of its box.
	CentreMatch bool
	Images      int
	// Truths are the labelled objects scored (jokers excluded); Full those fully visible.
	Truths, Full int
	// Correct are the truths matched by a detection with the right label.
	Correct, FullCorrect int
	// Wrong are truths matched by a detection with another label (not unknown).
	Wrong, FullWrong int
	// Unknown are truths matched by an unknown detection.
	Unknown int
	// Calls are the detections with a label (not unknown); FalsePos those matching no truth.
	Calls, FalsePos int
	// ConfWrong are calls with conf >= ConfidentConf that are wrong or match no truth.
	ConfWrong int
	// Confident are calls with conf >= ConfidentConf.
	Confident int
	// Errors lists the wrong calls, and Misses the labelled objects not read, for people to
	// look at.
	Errors, Misses []string
}

// Recall is the share of truths read right.
func (c Counts) Recall() float64 { return ratio(c.Correct, c.Truths) }

// FullRecall is the share of fully visible truths read right.
func (c Counts) FullRecall() float64 { return ratio(c.FullCorrect, c.Full) }

// Precision is the share of calls that are right.
func (c Counts) Precision() float64 { return ratio(c.Correct, c.Calls) }

// ConfWrongRate is the share of calls that are confidently wrong.
func (c Counts) ConfWrongRate() float64 { return ratio(c.ConfWrong, c.Calls) }

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// labelMatches compares a detection label with a truth label; a rank-only truth is matched
// by the rank alone.
func labelMatches(truth dataset.Truth, label string) bool {
	if truth.RankOnly() {
		return len(label) == 2 && label[0] == truth.Label[0]
	}
	return truth.Label == label
}

// scored reports whether a truth counts: jokers have no journal label.
func scored(t dataset.Truth) bool { return t.Label != "joker" }

// FullyVisible approximates "fully visible" from labels alone: the box does not touch the
// image border and overlaps no other labelled object.
func FullyVisible(s dataset.Sample, i int) bool {
	b := s.Truth[i].Box
	if b.X <= 1 || b.Y <= 1 || b.X+b.W >= s.Width-1 || b.Y+b.H >= s.Height-1 {
		return false
	}
	for j, o := range s.Truth {
		if j != i && b.IoU(o.Box) > 0.02 {
			return false
		}
	}
	return true
}

// holdsCentre reports whether each box holds the other's centre.
func holdsCentre(a, b observation.Box) bool {
	in := func(r observation.Box, x, y float64) bool {
		return x >= float64(r.X) && x <= float64(r.X+r.W) && y >= float64(r.Y) && y <= float64(r.Y+r.H)
	}
	ax, ay := a.Center()
	bx, by := b.Center()
	return in(a, bx, by) && in(b, ax, ay)
}

// Add scores one image's detections.
func (c *Counts) Add(s dataset.Sample, dets []observation.Object) {
	c.Images++
	// Greedy matching, most confident detections first.
	order := make([]int, len(dets))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return dets[order[a]].Conf > dets[order[b]].Conf })
	taken := make([]bool, len(s.Truth))
	matched := make([]int, len(dets))
	for i := range matched {
		matched[i] = -1
	}
	for _, di := range order {
		best, bi := MatchIoU, -1
		if c.CentreMatch {
			best = 0
		}
		for ti, t := range s.Truth {
			if taken[ti] {
				continue
			}
			v := dets[di].Box.IoU(t.Box)
			if c.CentreMatch && !holdsCentre(dets[di].Box, t.Box) {
				continue
			}
			if v >= best {
				best, bi = v, ti
			}
		}
		if bi >= 0 {
			taken[bi] = true
			matched[di] = bi
		}
	}
	for ti, t := range s.Truth {
		if !scored(t) {
			continue
		}
		c.Truths++
		full := FullyVisible(s, ti)
		if full {
			c.Full++
		}
		di := -1
		for d, m := range matched {
			if m == ti {
				di = d
			}
		}
		if di < 0 {
			c.Misses = append(c.Misses, fmt.Sprintf("%s: %s at %v not found (fully visible: %v)", s.Path, t.Label, t.Box, full))
			continue
		}
		switch l := dets[di].Label; {
		case l == observation.Unknown:
			c.Unknown++
			c.Misses = append(c.Misses, fmt.Sprintf("%s: %s at %v read as unknown (fully visible: %v)", s.Path, t.Label, t.Box, full))
		case labelMatches(t, l):
			c.Correct++
			if full {
				c.FullCorrect++
			}
		default:
			c.Wrong++
			if full {
				c.FullWrong++
			}
		}
	}
	for di, d := range dets {
		if d.Label == observation.Unknown {
			continue
		}
		c.Calls++
		confident := d.Conf >= ConfidentConf
		if confident {
			c.Confident++
		}
		ti := matched[di]
		if ti >= 0 && !scored(s.Truth[ti]) {
			c.Calls-- // a joker read as something: neither right nor wrong
			if confident {
				c.Confident--
			}
			continue
		}
		wrong := ti < 0 || !labelMatches(s.Truth[ti], d.Label)
		if ti < 0 {
			c.FalsePos++
		}
		if wrong && confident {
			c.ConfWrong++
		}
		if wrong {
			truth := "nothing labelled"
			if ti >= 0 {
				truth = s.Truth[ti].Label
			}
			c.Errors = append(c.Errors, fmt.Sprintf("%s: %s (conf %.2f) at %v, truth %s", s.Path, d.Label, d.Conf, d.Box, truth))
		}
	}
}

// Merge adds the counts of o (the same photographs read by other models, or other
// photographs) to c, so that several cross-validation runs are scored as one.
func (c *Counts) Merge(o Counts) {
	c.Images += o.Images
	c.Truths += o.Truths
	c.Full += o.Full
	c.Correct += o.Correct
	c.FullCorrect += o.FullCorrect
	c.Wrong += o.Wrong
	c.FullWrong += o.FullWrong
	c.Unknown += o.Unknown
	c.Calls += o.Calls
	c.FalsePos += o.FalsePos
	c.ConfWrong += o.ConfWrong
	c.Confident += o.Confident
	c.Errors = append(c.Errors, o.Errors...)
	c.Misses = append(c.Misses, o.Misses...)
}

// Row is one set's line of the results table.
type Row struct {
	Set, Split string
	Counts
}

// WriteTable writes the results as a Markdown table.
func WriteTable(w io.Writer, rows []Row) error {
	var b strings.Builder
	b.WriteString("| set | split | images | labelled | read right | recall | fully visible: right / labelled | recall (fully visible) | calls | precision | false pos. | unknown | conf ≥ 0.9 wrong |\n")
	b.WriteString("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %s | %d | %d | %d | %.1f%% | %d / %d | %.1f%% | %d | %.1f%% | %d | %d | %d (%.2f%%) |\n",
			r.Set, r.Split, r.Images, r.Truths, r.Correct, 100*r.Recall(), r.FullCorrect, r.Full, 100*r.FullRecall(),
			r.Calls, 100*r.Precision(), r.FalsePos, r.Unknown, r.ConfWrong, 100*r.ConfWrongRate())
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Folds is the number of cross-validation folds photographs are spread over.
const Folds = 5

// Fold puts a photograph in one of Folds folds by its source name, so that augmented copies
// of one source photograph (Roboflow's "NAME_jpg.rf.HASH.jpg") share a fold.
func Fold(path string) int {
	base := filepath.Base(path)
	for _, sep := range []string{"_jpg.rf.", "_jpeg.rf.", "_JPG.rf.", "_png.rf."} {
		if i := strings.Index(base, sep); i > 0 {
			base = base[:i]
			break
		}
	}
	h := uint32(2166136261)
	for i := 0; i < len(base); i++ {
		h = (h ^ uint32(base[i])) * 16777619
	}
	return int(h % Folds)
}
