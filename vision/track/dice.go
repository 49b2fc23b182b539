// Package track turns per-frame recognitions into facts about a coup. DiceThrow follows the
// dice of a throw from release to rest and judges the throw: where the dice came to rest,
// whether one hit the far wall, whether they rolled or slid, and the single-frame faults seen
// at rest (stacked, cocked, on a chip). Its Result is the journal's dice event: values and
// faults named as in the coup journal spec. The package is pure Go (no cgo): positions are in
// table coordinates from calibration, detections come from vision/detect.
package track

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"time"

	"github.com/coupwatch/coupwatch/vision/observation"
)

// Point is a position on the table plane (the unit is the calibration's: millimetres, or
// pixels of a camera looking straight down).
type Point struct{ X, Y float64 }

func (p Point) sub(q Point) Point     { return Point{p.X - q.X, p.Y - q.Y} }
func (p Point) dist(q Point) float64  { return math.Hypot(p.X-q.X, p.Y-q.Y) }
func (p Point) dot(q Point) float64   { return p.X*q.X + p.Y*q.Y }
func (p Point) norm() float64         { return math.Hypot(p.X, p.Y) }
func (p Point) cross(q Point) float64 { return p.X*q.Y - p.Y*q.X }
func (p Point) scale(k float64) Point { return Point{p.X * k, p.Y * k} }
func (p Point) add(q Point) Point     { return Point{p.X + q.X, p.Y + q.Y} }

// Polygon is a closed outline on the table plane.
type Polygon []Point

// Contains reports whether p is inside the polygon (even-odd rule).
func (pg Polygon) Contains(p Point) bool {
	in := false
	for i, j := 0, len(pg)-1; i < len(pg); j, i = i, i+1 {
		a, b := pg[i], pg[j]
		if (a.Y > p.Y) != (b.Y > p.Y) && p.X < (b.X-a.X)*(p.Y-a.Y)/(b.Y-a.Y)+a.X {
			in = !in
		}
	}
	return in
}

// Segment is a straight stretch of the table, such as the far wall.
type Segment struct{ A, B Point }

// Dist is the distance from p to the segment.
func (s Segment) Dist(p Point) float64 {
	ab := s.B.sub(s.A)
	l2 := ab.dot(ab)
	if l2 == 0 {
		return p.dist(s.A)
	}
	t := math.Max(0, math.Min(1, p.sub(s.A).dot(ab)/l2))
	return p.dist(s.A.add(ab.scale(t)))
}

// Layout is the dice area of a table, from calibration.
type Layout struct {
	// Table is the felt the dice must come to rest on.
	Table Polygon
	// FarWall is the wall (bumper) at least one die must hit; WallReach is how close to it a
	// die's centre must come to count as a hit (about a die's width).
	FarWall   Segment
	WallReach float64
	// Length is the direction along the table's length a throw must follow (need not be a
	// unit vector); zero skips the lengthwise check.
	Length Point
	// Tray and Rack are the dealer's tray and the players' chip rails: dice resting there are
	// faults.
	Tray, Rack []Polygon
}

// DieSighting is one die seen in one frame.
type DieSighting struct {
	At Point
	// Value is the top face read (1 to 6), 0 when it could not be read (a die in flight is
	// often blurred).
	Value int
	// Flags are the single-frame faults the recogniser saw (cocked, stacked, on_chip).
	Flags []string
}

// DiceFrame is what the dice recogniser saw in one frame. T is the frame's time in the
// source's clock; frames must come in time order.
type DiceFrame struct {
	T    time.Duration
	Dice []DieSighting
}

// Config tunes a DiceThrow.
type Config struct {
	Layout
	// Dice is how many dice the game throws (2 at craps and rampo).
	Dice int
	// Still is the speed (units per second) under which a die counts as at rest.
	Still float64
	// RestFor is how long every die must stay still, with its face read, for the throw to
	// be over. Default 600ms.
	RestFor time.Duration
	// MaxSpeed is the fastest a die can travel (units per second): sightings farther apart
	// are two dice. Default: the table's size per 100ms.
	MaxSpeed float64
	// SlideMin is the travel over which a die that never changed its top face slid rather
	// than rolled. Default 4 × WallReach.
	SlideMin float64
	// LostFor is how long a tracked die may go unseen before it counts as gone (off the
	// table). Default 1s.
	LostFor time.Duration
}

// Result is a throw at rest: the journal's dice event.
type Result struct {
	// Values are the top faces of the dice at rest, in order of position along the table's
	// length (then across).
	Values []int
	// Faults are the journal's fault names, sorted, each once.
	Faults []string
	// Released and Rested are when the dice left the hand and when they came to rest.
	Released, Rested time.Duration
	// Rest are the resting positions, in the order of Values.
	Rest []Point
}

// state of a throw.
type state int

const (
	waiting  state = iota // dice resting from the last throw, or none on the table
	rolling               // a throw in progress
	settling              // every die still; waiting RestFor
)

// trackedDie follows one die through a throw.
type trackedDie struct {
	path       []Point
	times      []time.Duration
	values     []int // non-zero readings in order
	lastSeen   time.Duration
	stillSince time.Duration
	hitWall    bool
	travel     float64
	flags      map[string]int // rest-window flag counts
	restFrames int
	restValues []int // faces read while at rest
	lastValue  int   // face read in the latest sighting (0: unread)
	gone       bool
}

func (d *trackedDie) last() Point { return d.path[len(d.path)-1] }

// DiceThrow follows the dice of one table from throw to throw. It is not safe for concurrent
// use.
type DiceThrow struct {
	cfg      Config
	st       state
	dice     []*trackedDie
	released time.Duration
	restAt   time.Duration
	lastT    time.Duration
	started  bool
	// rest positions of the last result, to tell a new throw from dice lying still
	restPos []Point
}

// NewDiceThrow checks the configuration and makes a tracker.
func NewDiceThrow(cfg Config) (*DiceThrow, error) {
	if cfg.Dice <= 0 {
		return nil, errors.New("track: Dice must be at least 1")
	}
	if len(cfg.Table) < 3 {
		return nil, errors.New("track: Table needs at least 3 corners")
	}
	if cfg.WallReach <= 0 {
		return nil, errors.New("track: WallReach must be positive")
	}
	if cfg.Still <= 0 {
		return nil, errors.New("track: Still must be positive")
	}
	if cfg.RestFor <= 0 {
		cfg.RestFor = 600 * time.Millisecond
	}
	if cfg.LostFor <= 0 {
		cfg.LostFor = time.Second
	}
	if cfg.SlideMin <= 0 {
		cfg.SlideMin = 4 * cfg.WallReach
	}
	if cfg.MaxSpeed <= 0 {
		minX, maxX, minY, maxY := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
		for _, p := range cfg.Table {
			minX, maxX = math.Min(minX, p.X), math.Max(maxX, p.X)
			minY, maxY = math.Min(minY, p.Y), math.Max(maxY, p.Y)
		}
		cfg.MaxSpeed = math.Hypot(maxX-minX, maxY-minY) * 10
	}
	return &DiceThrow{cfg: cfg}, nil
}

// Observe feeds one frame. It returns the throw's Result, and true, on the frame where the
// dice of a throw have been at rest for RestFor.
func (t *DiceThrow) Observe(f DiceFrame) (Result, bool) {
	if t.started && f.T < t.lastT {
		return Result{}, false // out of order: ignored
	}
	dt := f.T - t.lastT
	t.started, t.lastT = true, f.T
	switch t.st {
	case waiting:
		if !t.throwStarts(f) {
			return Result{}, false
		}
		t.st = rolling
		t.released = f.T
		t.dice = nil
		t.update(f, 0)
		return Result{}, false
	default:
		t.update(f, dt)
	}
	allStill, allRead := t.still(f.T)
	switch {
	case allStill && allRead && t.st == rolling:
		t.st = settling
		t.restAt = f.T
		for _, d := range t.dice {
			d.flags, d.restFrames, d.restValues = map[string]int{}, 0, nil
		}
		t.countFlags(f)
	case allStill && allRead && t.st == settling:
		t.countFlags(f)
		if f.T-t.restAt >= t.cfg.RestFor {
			r := t.result()
			t.st = waiting
			t.restPos = r.Rest
			return r, true
		}
	case !allStill || !allRead:
		t.st = rolling
	}
	return Result{}, false
}

// InProgress reports whether a throw has started and its dice have not yet come to rest.
func (t *DiceThrow) InProgress() bool { return t.st != waiting }

// throwStarts reports whether a frame begins a throw: dice where none rested, or a resting
// die moved.
func (t *DiceThrow) throwStarts(f DiceFrame) bool {
	if len(f.Dice) == 0 {
		t.restPos = nil
		return false
	}
	if len(t.restPos) == 0 {
		return true
	}
	for _, d := range f.Dice {
		near := false
		for _, p := range t.restPos {
			if d.At.dist(p) <= t.cfg.WallReach/2 {
				near = true
				break
			}
		}
		if !near {
			return true
		}
	}
	return false
}

// update associates the frame's dice with the tracked ones (nearest first, within reach of
// the fastest die) and extends their paths.
func (t *DiceThrow) update(f DiceFrame, dt time.Duration) {
	reach := t.cfg.MaxSpeed * math.Max(dt.Seconds(), 0.05)
	type pair struct {
		d, s int
		dist float64
	}
	var pairs []pair
	for i, d := range t.dice {
		if d.gone {
			continue
		}
		for j, s := range f.Dice {
			if dd := d.last().dist(s.At); dd <= reach {
				pairs = append(pairs, pair{i, j, dd})
			}
		}
	}
	sort.Slice(pairs, func(a, b int) bool { return pairs[a].dist < pairs[b].dist })
	usedD := make([]bool, len(t.dice))
	usedS := make([]bool, len(f.Dice))
	for _, p := range pairs {
		if usedD[p.d] || usedS[p.s] {
			continue
		}
		usedD[p.d], usedS[p.s] = true, true
		t.extend(t.dice[p.d], f.Dice[p.s], f.T)
	}
	for j, s := range f.Dice {
		if usedS[j] {
			continue
		}
		d := &trackedDie{stillSince: -1}
		t.extend(d, s, f.T)
		t.dice = append(t.dice, d)
	}
	for i, used := range usedD {
		if d := t.dice[i]; !used && !d.gone && f.T-d.lastSeen > t.cfg.LostFor {
			d.gone = true
		}
	}
}

func (t *DiceThrow) extend(d *trackedDie, s DieSighting, now time.Duration) {
	if len(d.path) > 0 {
		prev := d.last()
		step := prev.dist(s.At)
		d.travel += step
		elapsed := (now - d.lastSeen).Seconds()
		if elapsed > 0 && step/elapsed <= t.cfg.Still {
			if d.stillSince < 0 {
				d.stillSince = d.lastSeen
			}
		} else {
			d.stillSince = -1
		}
	}
	d.path = append(d.path, s.At)
	d.times = append(d.times, now)
	d.lastSeen = now
	d.lastValue = 0
	if s.Value >= 1 && s.Value <= 6 {
		d.values = append(d.values, s.Value)
		d.lastValue = s.Value
	}
	if t.cfg.FarWall.Dist(s.At) <= t.cfg.WallReach {
		d.hitWall = true
	}
}

// still reports whether every die present is still and has its face read.
func (t *DiceThrow) still(now time.Duration) (bool, bool) {
	present := 0
	for _, d := range t.dice {
		if d.gone {
			continue
		}
		present++
		if d.stillSince < 0 || d.lastSeen != now {
			return false, false
		}
		if d.lastValue == 0 {
			return true, false
		}
	}
	return present > 0, true
}

func (t *DiceThrow) countFlags(f DiceFrame) {
	for _, s := range f.Dice {
		for _, d := range t.dice {
			if !d.gone && d.last() == s.At {
				d.restFrames++
				if s.Value >= 1 && s.Value <= 6 {
					d.restValues = append(d.restValues, s.Value)
				}
				for _, fl := range s.Flags {
					d.flags[fl]++
				}
			}
		}
	}
}

// result judges the throw.
func (t *DiceThrow) result() Result {
	faults := map[string]bool{}
	var rest []*trackedDie
	hit := false
	var start, far Point
	first := true
	for _, d := range t.dice {
		if first {
			start, far, first = d.path[0], d.path[0], false
		}
		for _, p := range d.path {
			if p.dist(start) > far.dist(start) {
				far = p
			}
		}
		if d.hitWall {
			hit = true
		}
		if d.gone {
			faults[observation.FaultOffTable] = true
			continue
		}
		rest = append(rest, d)
		// A die that travelled far without ever showing another face slid.
		if d.travel >= t.cfg.SlideMin && len(d.values) >= 3 && allSame(d.values) {
			faults[observation.FaultSlid] = true
		}
		p := d.last()
		switch {
		case inAny(t.cfg.Tray, p):
			faults[observation.FaultInTray] = true
		case inAny(t.cfg.Rack, p):
			faults[observation.FaultInRack] = true
		case !t.cfg.Table.Contains(p):
			faults[observation.FaultOffTable] = true
		}
		for _, name := range []string{observation.FaultCocked, observation.FaultStacked, observation.FaultOnChip} {
			if d.restFrames > 0 && 2*d.flags[name] > d.restFrames {
				faults[name] = true
			}
		}
	}
	if len(rest) < t.cfg.Dice {
		faults[observation.FaultOffTable] = true
	}
	if !hit {
		faults[observation.FaultNoWall] = true
	}
	if l := t.cfg.Length.norm(); l > 0 {
		v := far.sub(start)
		if n := v.norm(); n > t.cfg.WallReach {
			if math.Abs(v.dot(t.cfg.Length))/(n*l) < math.Cos(math.Pi/4) {
				faults[observation.FaultNotLengthwise] = true
			}
		}
	}
	axis := t.cfg.Length
	if axis.norm() == 0 {
		axis = Point{1, 0}
	}
	sort.SliceStable(rest, func(i, j int) bool {
		a, b := rest[i].last().dot(axis), rest[j].last().dot(axis)
		if a != b {
			return a < b
		}
		return rest[i].last().cross(axis) < rest[j].last().cross(axis)
	})
	r := Result{Released: t.released, Rested: t.restAt}
	for _, d := range rest {
		r.Values = append(r.Values, mode(d.restValues))
		r.Rest = append(r.Rest, d.last())
	}
	for f := range faults {
		r.Faults = append(r.Faults, f)
	}
	slices.Sort(r.Faults)
	return r
}

func inAny(ps []Polygon, p Point) bool {
	for _, pg := range ps {
		if pg.Contains(p) {
			return true
		}
	}
	return false
}

func allSame(v []int) bool {
	for _, x := range v {
		if x != v[0] {
			return false
		}
	}
	return true
}

// mode is the most frequent value (the latest on a tie).
func mode(v []int) int {
	var n [7]int
	best := 0
	for _, x := range v {
		n[x]++
		if n[x] >= n[best] {
			best = x
		}
	}
	return best
}

// String describes a result like the journal's dice event.
func (r Result) String() string {
	return fmt.Sprintf("dice %v faults %v", r.Values, r.Faults)
}
