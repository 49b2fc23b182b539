//go:build cgo

package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/coupwatch/coupwatch/vision/dicethrow"
	"github.com/coupwatch/coupwatch/vision/track"
)

// throwFlags are detect's flags for following dice throws through a clip. Positions are
// pixels of the frame, standing in for table coordinates until calibration exists.
type throwFlags struct {
	video     string
	farWall   segmentFlag
	wallReach float64
	table     rectsFlag
	trays     rectsFlag
	racks     rectsFlag
	dice      int
}

func (f *throwFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.video, "video", "", "follow the dice throws of this video file (or image folder): one JSON line per throw (--kind dice)")
	fs.Var(&f.farWall, "far-wall", "the far wall a die must hit, X1,Y1,X2,Y2 in frame pixels (default: the frame's right edge)")
	fs.Float64Var(&f.wallReach, "wall-reach", 0, "how close (pixels) a die's centre must come to the far wall to count as a hit (default: a twentieth of the frame's shorter side)")
	fs.Var(&f.table, "table", "the felt the dice must rest on, X,Y,W,H in frame pixels (default: the whole frame)")
	fs.Var(&f.trays, "tray", "a dice tray, X,Y,W,H in frame pixels (repeatable): a die resting there is in_tray")
	fs.Var(&f.racks, "rack", "a chip rail, X,Y,W,H in frame pixels (repeatable): a die resting there is in_rack")
	fs.IntVar(&f.dice, "dice", 2, "how many dice a throw has (2 at craps and rampo)")
}

// set reports whether any throw flag other than --video was given.
func (f *throwFlags) set(fs *flag.FlagSet) bool {
	given := false
	fs.Visit(func(fl *flag.Flag) {
		switch fl.Name {
		case "far-wall", "wall-reach", "table", "tray", "rack", "dice":
			given = true
		}
	})
	return given
}

// config checks the flags and makes the tracker's configuration.
func (f *throwFlags) config() (dicethrow.Config, error) {
	var c dicethrow.Config
	if f.dice < 1 || f.dice > 5 {
		return c, fmt.Errorf("--dice must be 1 to 5, got %d", f.dice)
	}
	if f.wallReach < 0 || math.IsNaN(f.wallReach) || math.IsInf(f.wallReach, 0) {
		return c, fmt.Errorf("--wall-reach must be a positive number of pixels, got %v", f.wallReach)
	}
	if len(f.table) > 1 {
		return c, errors.New("--table given twice")
	}
	c.Dice = f.dice
	c.WallReach = f.wallReach
	if f.farWall.given {
		c.FarWall = f.farWall.seg
	}
	if len(f.table) == 1 {
		c.Table = f.table[0]
	}
	c.Tray, c.Rack = f.trays, f.racks
	return c, nil
}

// throwLine is one line of detect --video's output: a throw at rest, the journal's dice
// event (values along the table's length, faults by their journal names).
type throwLine struct {
	Video  string       `json:"video"`
	Values []int        `json:"values"`
	Faults []string     `json:"faults"`
	Start  float64      `json:"released_s"` // the clip's clock, seconds
	End    float64      `json:"rested_s"`
	Rest   [][2]float64 `json:"rest"` // resting positions, frame pixels, in the order of values
}

// runDiceVideo follows the dice throws of a clip and prints one JSON line per throw. A clip
// that cannot be read, or bad flag values, exit 2; a clip that ends during a throw is noted
// on stderr.
func runDiceVideo(e *env, f throwFlags) int {
	cfg, err := f.config()
	if err != nil {
		fmt.Fprintf(e.stderr, "coupwatch detect: %v\n", err)
		return exitInvalid
	}
	enc := json.NewEncoder(e.stdout)
	var werr error
	sum, err := dicethrow.Follow(e.ctx, f.video, cfg, func(r track.Result) error {
		l := throwLine{Video: f.video, Values: r.Values, Faults: r.Faults, Start: seconds(r.Released), End: seconds(r.Rested), Rest: [][2]float64{}}
		if l.Values == nil {
			l.Values = []int{}
		}
		if l.Faults == nil {
			l.Faults = []string{}
		}
		for _, p := range r.Rest {
			l.Rest = append(l.Rest, [2]float64{math.Round(p.X*10) / 10, math.Round(p.Y*10) / 10})
		}
		if err := enc.Encode(l); err != nil {
			werr = err
			return fmt.Errorf("writing output: %w", err)
		}
		return nil
	})
	switch {
	case werr != nil:
		fmt.Fprintf(e.stderr, "coupwatch detect: %v\n", err)
		return exitFailure
	case e.ctx.Err() != nil:
		fmt.Fprintf(e.stderr, "coupwatch detect: interrupted: %v\n", e.ctx.Err())
		return exitFailure
	case err != nil:
		fmt.Fprintf(e.stderr, "coupwatch detect: %v\n", err)
		return exitInvalid
	}
	if sum.Unfinished {
		fmt.Fprintf(e.stderr, "coupwatch detect: %s ended before the dice of the last throw came to rest\n", f.video)
	}
	if sum.Corrupt > 0 {
		fmt.Fprintf(e.stderr, "coupwatch detect: %s: %d corrupt frames skipped\n", f.video, sum.Corrupt)
	}
	return exitOK
}

func seconds(d time.Duration) float64 { return math.Round(d.Seconds()*1000) / 1000 }

// parseNumbers reads n comma-separated finite numbers.
func parseNumbers(s string, n int, what string) ([]float64, error) {
	parts := strings.Split(s, ",")
	if len(parts) != n {
		return nil, fmt.Errorf("want %s, got %q", what, s)
	}
	out := make([]float64, n)
	for i, p := range parts {
		v, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("want %s, got %q", what, s)
		}
		out[i] = v
	}
	return out, nil
}

// segmentFlag is X1,Y1,X2,Y2.
type segmentFlag struct {
	seg   track.Segment
	given bool
}

func (s *segmentFlag) String() string {
	if s == nil || !s.given {
		return ""
	}
	return fmt.Sprintf("%g,%g,%g,%g", s.seg.A.X, s.seg.A.Y, s.seg.B.X, s.seg.B.Y)
}

func (s *segmentFlag) Set(v string) error {
	n, err := parseNumbers(v, 4, "X1,Y1,X2,Y2")
	if err != nil {
		return err
	}
	if n[0] == n[2] && n[1] == n[3] {
		return fmt.Errorf("the wall's two ends are the same point in %q", v)
	}
	s.seg, s.given = track.Segment{A: track.Point{X: n[0], Y: n[1]}, B: track.Point{X: n[2], Y: n[3]}}, true
	return nil
}

// rectsFlag is X,Y,W,H, repeatable.
type rectsFlag []track.Polygon

func (r *rectsFlag) String() string {
	if r == nil {
		return ""
	}
	var parts []string
	for _, p := range *r {
		parts = append(parts, fmt.Sprintf("%g,%g,%g,%g", p[0].X, p[0].Y, p[2].X-p[0].X, p[2].Y-p[0].Y))
	}
	return strings.Join(parts, " ")
}

func (r *rectsFlag) Set(v string) error {
	n, err := parseNumbers(v, 4, "X,Y,W,H")
	if err != nil {
		return err
	}
	if n[2] <= 0 || n[3] <= 0 {
		return fmt.Errorf("width and height must be positive in %q", v)
	}
	x, y, w, h := n[0], n[1], n[2], n[3]
	*r = append(*r, track.Polygon{{X: x, Y: y}, {X: x + w, Y: y}, {X: x + w, Y: y + h}, {X: x, Y: y + h}})
	return nil
}
