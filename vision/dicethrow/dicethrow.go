// Package dicethrow follows dice throws through a recording: it reads every frame of a video
// file or image folder (vision/capture), finds and reads the dice of each (vision/detect) and
// hands them to the throw tracker (vision/track), whose results are the journal's dice events.
//
// Until calibration maps the camera to the table plane, positions are pixels of the frame:
// the far wall, the table, the tray and the rails are given in frame pixels, which stand in
// for table coordinates for a camera looking straight down.
package dicethrow

import (
	"context"
	"errors"
	"fmt"
	"image"
	"io"
	"math"

	"gocv.io/x/gocv"

	"github.com/coupwatch/coupwatch/vision/capture"
	"github.com/coupwatch/coupwatch/vision/detect"
	"github.com/coupwatch/coupwatch/vision/track"
)

// Config is the tracker's configuration in frame pixels. Fields left zero take defaults
// that depend on the frame's size, set on the first frame:
//
//   - Table: the whole frame;
//   - FarWall: the frame's right edge (the table's length along the picture, the shooter on
//     the left);
//   - WallReach: a twentieth of the frame's shorter side;
//   - Length: square to the far wall;
//   - Still: two WallReach per second;
//   - Dice: 2.
//
// The other fields keep track's defaults.
type Config struct {
	track.Config
}

// Summary tells what a recording held besides its throws.
type Summary struct {
	// Frames read and Corrupt frames skipped (images of a folder that did not decode).
	Frames, Corrupt int
	// Unfinished is set when the recording ended during a throw, before its dice came to
	// rest: that throw has no result.
	Unfinished bool
}

// Follow reads the recording at url (a video file or a folder of images, as capture names
// them) to its end and calls emit with each throw, on the frame where its dice have come to
// rest. It stops at the first error of emit, when ctx is cancelled, or when the recording
// cannot be opened or read.
func Follow(ctx context.Context, url string, cfg Config, emit func(track.Result) error) (Summary, error) {
	var sum Summary
	rec, err := capture.OpenRecording(url)
	if err != nil {
		return sum, err
	}
	defer rec.Close()
	dice := detect.NewDice()
	defer dice.Close()
	frame := gocv.NewMat()
	defer frame.Close()
	var tr *track.DiceThrow
	for {
		if err := ctx.Err(); err != nil {
			return sum, fmt.Errorf("reading %s: %w", url, err)
		}
		pts, err := rec.Read(&frame)
		if errors.Is(err, io.EOF) {
			break
		}
		if errors.Is(err, capture.ErrCorruptFrame) {
			sum.Corrupt++
			continue
		}
		if err != nil {
			return sum, fmt.Errorf("reading %s: %w", url, err)
		}
		sum.Frames++
		if tr == nil {
			c := cfg.Config
			Defaults(&c, image.Pt(frame.Cols(), frame.Rows()))
			if tr, err = track.NewDiceThrow(c); err != nil {
				return sum, fmt.Errorf("dice throws of %s: %w", url, err)
			}
		}
		ds, err := dice.Dice(frame)
		if err != nil {
			return sum, fmt.Errorf("%s at %v: %w", url, pts, err)
		}
		if r, ok := tr.Observe(track.DiceFrame{T: pts, Dice: Sightings(ds)}); ok {
			if err := emit(r); err != nil {
				return sum, err
			}
		}
	}
	if sum.Frames == 0 {
		return sum, fmt.Errorf("reading %s: no frame", url)
	}
	sum.Unfinished = tr.InProgress()
	return sum, nil
}

// Defaults fills the zero fields of a tracker configuration for a frame of the given size,
// as Config describes.
func Defaults(c *track.Config, size image.Point) {
	w, h := float64(size.X), float64(size.Y)
	if len(c.Table) == 0 {
		c.Table = track.Polygon{{X: 0, Y: 0}, {X: w, Y: 0}, {X: w, Y: h}, {X: 0, Y: h}}
	}
	if c.FarWall.A == c.FarWall.B {
		c.FarWall = track.Segment{A: track.Point{X: w - 1, Y: 0}, B: track.Point{X: w - 1, Y: h}}
	}
	if c.WallReach <= 0 {
		c.WallReach = math.Min(w, h) / 20
	}
	if c.Length == (track.Point{}) {
		c.Length = track.Point{X: c.FarWall.B.Y - c.FarWall.A.Y, Y: c.FarWall.A.X - c.FarWall.B.X}
	}
	if c.Still <= 0 {
		c.Still = 2 * c.WallReach
	}
	if c.Dice <= 0 {
		c.Dice = 2
	}
}

// Sightings turns the dice read in a frame into the tracker's sightings: the centre of each
// die's box, in frame pixels, its value and its single-frame flags.
func Sightings(ds []detect.Die) []track.DieSighting {
	out := make([]track.DieSighting, 0, len(ds))
	for _, d := range ds {
		s := track.DieSighting{
			At:    track.Point{X: float64(d.Box.Min.X+d.Box.Max.X) / 2, Y: float64(d.Box.Min.Y+d.Box.Max.Y) / 2},
			Value: d.Value,
			Flags: d.Flags(),
		}
		out = append(out, s)
	}
	return out
}
