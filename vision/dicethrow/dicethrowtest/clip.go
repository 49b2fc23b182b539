// Package dicethrowtest makes real H.264 videos of dice throws for tests: real dice cut from
// the labelled dice-matteop65 photographs (../shared/data, never copied into the
// repository), moved across a felt frame at test time and encoded by ffmpeg. Tests that use
// it are skipped when the photographs or ffmpeg are absent.
package dicethrowtest

import (
	"fmt"
	"image"
	"math"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"gocv.io/x/gocv"

	"github.com/coupwatch/coupwatch/vision/dataset"
	"github.com/coupwatch/coupwatch/vision/detect"
	"github.com/coupwatch/coupwatch/vision/internal/sharedtest"
)

// PatchSide is the side of a die patch, pixels: the die's top face with the wood around it.
const PatchSide = 90

// perValue is how many patches of each face are kept.
const perValue = 2

// Patches are real dice, PatchSide square, cut from the photographs around a labelled top
// face, kept only when the dice recogniser reads them right (one die, the labelled value,
// not cocked) alone on felt.
type Patches struct {
	byValue [7][]gocv.Mat
}

// Felt is the colour of the table cloth of the clips (BGR).
var Felt = gocv.NewScalar(40, 110, 30, 0)

// LoadPatches cuts the patches; it skips the test when the photographs are absent or too few
// faces are read right. Close them after use.
func LoadPatches(tb testing.TB) *Patches {
	tb.Helper()
	s, err := dataset.Load(filepath.Join(sharedtest.Dir(tb), "data"), "dice-matteop65")
	if err != nil {
		tb.Skipf("dice-matteop65: %v", err)
	}
	d := detect.NewDice()
	defer d.Close()
	probe := gocv.NewMatWithSizeFromScalar(Felt, 3*PatchSide, 3*PatchSide, gocv.MatTypeCV8UC3)
	defer probe.Close()
	p := &Patches{}
	need := 6 * perValue
	for _, smp := range s.Samples {
		if need == 0 {
			break
		}
		img := gocv.IMRead(smp.Path, gocv.IMReadColor)
		for _, tr := range smp.Truth {
			v, err := strconv.Atoi(tr.Label)
			if err != nil || v < 1 || v > 6 || len(p.byValue[v]) == perValue {
				continue
			}
			cx, cy := tr.Box.Center()
			r := image.Rect(int(cx)-PatchSide/2, int(cy)-PatchSide/2, int(cx)+PatchSide/2, int(cy)+PatchSide/2)
			if !r.In(image.Rect(0, 0, img.Cols(), img.Rows())) {
				continue
			}
			src := img.Region(r)
			patch := src.Clone()
			src.Close()
			probe.SetTo(Felt)
			paste(&probe, patch, image.Pt(3*PatchSide/2, 3*PatchSide/2))
			ds, err := d.Dice(probe)
			if err != nil || len(ds) != 1 || ds[0].Value != v || ds[0].Cocked {
				patch.Close()
				continue
			}
			p.byValue[v] = append(p.byValue[v], patch)
			need--
		}
		img.Close()
	}
	if need > 0 {
		p.Close()
		tb.Skipf("dice-matteop65: too few faces read right to cut %d patches of each value", perValue)
	}
	return p
}

// Close releases the patches.
func (p *Patches) Close() {
	for _, ms := range p.byValue {
		for _, m := range ms {
			m.Close()
		}
	}
}

// paste copies patch onto dst centred at c, clipped to dst.
func paste(dst *gocv.Mat, patch gocv.Mat, c image.Point) {
	r := image.Rect(c.X-patch.Cols()/2, c.Y-patch.Rows()/2, c.X-patch.Cols()/2+patch.Cols(), c.Y-patch.Rows()/2+patch.Rows())
	in := r.Intersect(image.Rect(0, 0, dst.Cols(), dst.Rows()))
	if in.Empty() {
		return
	}
	src := patch.Region(in.Sub(r.Min))
	roi := dst.Region(in)
	src.CopyTo(&roi)
	src.Close()
	roi.Close()
}

// Die is one die's part in a clip.
type Die struct {
	// Path is where the die passes, at an even speed, from release (the first point) to rest
	// (the last); a point may lie outside the frame.
	Path []image.Point
	// Rolls shows another face every few frames while the die moves; without it the die
	// shows its rest face all along (it slides).
	Rolls bool
	// Rest is the face on top at rest, 1 to 6.
	Rest int
}

// Clip is a throw to film.
type Clip struct {
	// Size of the frame; default 960x540.
	Size image.Point
	// FPS default 25.
	FPS int
	// Move is how long the dice travel (all of them, from release to rest); Still how long
	// they then lie still before the clip ends.
	Move, Still time.Duration
	Dice        []Die
}

// Make films the clip: it writes dir/name.mp4 (H.264, yuv420p) and returns its path. It
// skips the test when ffmpeg is not installed.
func (p *Patches) Make(tb testing.TB, dir, name string, c Clip) string {
	tb.Helper()
	if _, err := exec.LookPath("ffmpeg"); err != nil {
		tb.Skip("ffmpeg not installed (Debian package ffmpeg): cannot make the test video")
	}
	if c.Size == (image.Point{}) {
		c.Size = image.Pt(960, 540)
	}
	if c.FPS <= 0 {
		c.FPS = 25
	}
	out := filepath.Join(dir, name+".mp4")
	cmd := exec.Command("ffmpeg", "-loglevel", "error", "-y", "-f", "rawvideo", "-pix_fmt", "bgr24",
		"-s", fmt.Sprintf("%dx%d", c.Size.X, c.Size.Y), "-r", strconv.Itoa(c.FPS), "-i", "-",
		"-c:v", "libx264", "-preset", "veryfast", "-crf", "18", "-pix_fmt", "yuv420p", out)
	in, err := cmd.StdinPipe()
	if err != nil {
		tb.Fatal(err)
	}
	var errb limitedBuffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		tb.Fatalf("ffmpeg: %v", err)
	}
	frame := gocv.NewMatWithSizeFromScalar(Felt, c.Size.Y, c.Size.X, gocv.MatTypeCV8UC3)
	defer frame.Close()
	moving := int(c.Move.Seconds() * float64(c.FPS))
	total := moving + int(c.Still.Seconds()*float64(c.FPS))
	var werr error
	for i := 0; i <= total && werr == nil; i++ {
		frame.SetTo(Felt)
		for k, d := range c.Dice {
			face := d.Rest
			pos := along(d.Path, min(1, float64(i)/float64(max(moving, 1))))
			if d.Rolls && i < moving {
				// Another face every third frame, never the same twice running.
				face = 1 + (d.Rest+i/3)%6
			}
			ms := p.byValue[face]
			paste(&frame, ms[k%len(ms)], pos)
		}
		_, werr = in.Write(frame.ToBytes())
	}
	in.Close()
	if err := cmd.Wait(); err != nil || werr != nil {
		tb.Fatalf("ffmpeg: %v %v\n%s", err, werr, errb.b)
	}
	return out
}

// along is the point at fraction f (0 to 1) of the length of a path.
func along(path []image.Point, f float64) image.Point {
	if len(path) == 1 {
		return path[0]
	}
	total := 0.0
	for i := 1; i < len(path); i++ {
		total += dist(path[i-1], path[i])
	}
	goal := f * total
	for i := 1; i < len(path); i++ {
		l := dist(path[i-1], path[i])
		if goal <= l && l > 0 {
			t := goal / l
			a, b := path[i-1], path[i]
			return image.Pt(a.X+int(t*float64(b.X-a.X)+0.5), a.Y+int(t*float64(b.Y-a.Y)+0.5))
		}
		goal -= l
	}
	return path[len(path)-1]
}

func dist(a, b image.Point) float64 {
	dx, dy := float64(a.X-b.X), float64(a.Y-b.Y)
	return math.Hypot(dx, dy)
}

// limitedBuffer keeps the first 4 kB written to it (ffmpeg's complaints).
type limitedBuffer struct{ b []byte }

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if room := 4096 - len(l.b); room > 0 {
		l.b = append(l.b, p[:min(room, len(p))]...)
	}
	return len(p), nil
}
