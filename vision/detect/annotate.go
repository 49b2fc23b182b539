package detect

import (
	"fmt"
	"image"
	"image/color"
	"math"

	"gocv.io/x/gocv"

	"github.com/coupwatch/coupwatch/vision/observation"
)

// Annotate draws the objects' boxes, labels and confidences on img, for a person to check
// what the recogniser saw. Confident calls are green, unsure ones orange, unknown ones red.
func Annotate(img *gocv.Mat, objs []observation.Object) {
	scale := math.Max(0.5, float64(max(img.Rows(), img.Cols()))/1200)
	thick := max(1, int(math.Round(2*scale)))
	for _, o := range objs {
		c := color.RGBA{0, 200, 0, 0}
		switch {
		case o.Label == observation.Unknown:
			c = color.RGBA{230, 30, 30, 0}
		case o.Conf < 0.9:
			c = color.RGBA{255, 150, 0, 0}
		}
		r := image.Rect(o.Box.X, o.Box.Y, o.Box.X+o.Box.W, o.Box.Y+o.Box.H)
		gocv.Rectangle(img, r, c, thick)
		text := fmt.Sprintf("%s %.2f", o.Label, o.Conf)
		for _, f := range o.Flags {
			text += " " + f
		}
		sz := gocv.GetTextSize(text, gocv.FontHersheySimplex, 0.6*scale, thick)
		at := image.Pt(r.Min.X, r.Min.Y-4)
		if at.Y-sz.Y < 0 {
			at.Y = r.Max.Y + sz.Y + 4
		}
		gocv.Rectangle(img, image.Rect(at.X, at.Y-sz.Y-2, at.X+sz.X, at.Y+2), color.RGBA{0, 0, 0, 0}, -1)
		gocv.PutText(img, text, at, gocv.FontHersheySimplex, 0.6*scale, c, thick)
	}
}
