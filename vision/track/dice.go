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
	// LostFor is how long a confirmed die may go unseen before it counts as gone (off the
	// table). Default 1s.
	LostFor time.Duration
	// ConfirmFrames is how many frames a track must be seen in before it counts as a die.
	// A real detector sees things that are not dice (a chip's inlay read as a lone "1", a
	// reflection) in a frame or two; a die is seen frame after frame. The rule is the same
	// all through a throw, young or old: the dice that start a throw are confirmed by the
	// very evidence that starts it (below), a die that shows up later is confirmed a few
	// frames after (it is only ignored meanwhile), and a real die lost before it was
	// confirmed still leaves fewer than Dice dice at rest, which is off_table anyway.
	// Default 3.
	ConfirmFrames int
	// DropAfter is how long a track not yet confirmed may go unseen before it is dropped
	// silently: it never counts among the dice, never makes a throw off_table, never holds
	// up the rest. ConfirmFrames sightings must therefore come no more than DropAfter apart
	// (consecutive frames, or nearly). It should span a few frame intervals. Default 200ms.
	DropAfter time.Duration
	// Gap is how long a confirmed die may go unseen (motion blur, a hand passing over it)
	// and still count as present and still, at its last position, for the rest decision.
	// Unseen longer, it holds up the rest until it is seen again or, after LostFor, gone.
	// Default 200ms.
	Gap time.Duration
}

// Result is a throw at rest: the journal's dice event.
type Result struct {
	// Values are the top faces of the dice at rest, in order of position along the table's
	// length (then across).
	Values []int
	// Faults are the journal's fault names, sorted, each once.
	Faults []string
	// Released and Rested are when the dice left the hand (the first frame of the evidence
	// that started the throw) and when they came to rest (the first frame of the RestFor
	// wait that ended it).
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

// trackedDie follows one die (or, until it is confirmed, what may be one) through a throw.
type trackedDie struct {
	path       []Point
	times      []time.Duration // when each point of path was seen
	values     []int           // non-zero readings in order
	lastSeen   time.Duration
	stillSince time.Duration
	hitWall    bool
	travel     float64
	flags      map[string]int // rest-window flag counts
	restFrames int            // rest-window frames the die was seen in
	restValues []int          // faces read while at rest
	lastValue  int            // face read in the latest sighting (0: unread)
	lastFlags  []string       // flags of the latest sighting
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
	// rest positions of the last result, to tell a new throw from dice lying still, and
	// when a die was last seen at one of them
	restPos  []Point
	restSeen time.Duration
	// While waiting: tracks of the sightings that could start a throw (away from the rest
	// positions), and the frames since the oldest of them began, replayed into the throw
	// once one is confirmed so that the throw starts with its first frame.
	pending []*trackedDie
	backlog []DiceFrame
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
	if cfg.ConfirmFrames <= 0 {
		cfg.ConfirmFrames = 3
	}
	if cfg.DropAfter <= 0 {
		cfg.DropAfter = 200 * time.Millisecond
	}
	if cfg.Gap <= 0 {
		cfg.Gap = 200 * time.Millisecond
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
	t.started, t.lastT = true, f.T
	if t.st == waiting {
		if !t.throwStarts(f) {
			return Result{}, false
		}
		t.st = rolling
	} else {
		t.dice = t.associate(t.dice, f.Dice, f.T)
	}
	if !t.atRest(f.T) {
		t.st = rolling
		return Result{}, false
	}
	switch t.st {
	case rolling:
		t.st = settling
		t.restAt = f.T
		for _, d := range t.dice {
			d.flags, d.restFrames, d.restValues = nil, 0, nil
		}
		t.countFlags(f.T)
	case settling:
		t.countFlags(f.T)
		if f.T-t.restAt >= t.cfg.RestFor {
			r := t.result()
			t.st = waiting
			t.restPos, t.restSeen = r.Rest, f.T
			return r, true
		}
	}
	return Result{}, false
}

// InProgress reports whether a throw has started and its dice have not yet come to rest.
func (t *DiceThrow) InProgress() bool { return t.st != waiting }

// throwStarts reports whether a frame begins a throw: dice where none rested, or a resting
// die moved, seen in ConfirmFrames frames. A sighting of that kind is only a candidate: it is
// followed as a pending track, and the throw starts on the frame that confirms one; the
// frames since that track's first sighting are then replayed into the throw, which is thus
// released at the first frame of its evidence. A blip never confirmed starts nothing, so
// dice at rest are not reported twice.
func (t *DiceThrow) throwStarts(f DiceFrame) bool {
	var fresh []DieSighting
	for _, s := range f.Dice {
		if t.nearRest(s.At) {
			t.restSeen = f.T
		} else {
			fresh = append(fresh, s)
		}
	}
	// The rest positions are forgotten only once no die has been seen at them for LostFor
	// (the dice were taken away), not on the first frame without dice: a detector that
	// misses the resting dice for a frame would otherwise have them start a new throw.
	if len(t.restPos) > 0 && f.T-t.restSeen > t.cfg.LostFor {
		t.restPos = nil
	}
	t.pending = t.associate(t.pending, fresh, f.T)
	t.backlog = append(t.backlog, cloneFrame(f))
	if len(t.pending) == 0 {
		t.backlog = t.backlog[:0]
		return false
	}
	released, confirmed := t.pending[0].times[0], false
	oldest := released
	for _, d := range t.pending {
		oldest = min(oldest, d.times[0])
		if t.confirmed(d) && (!confirmed || d.times[0] < released) {
			released, confirmed = d.times[0], true
		}
	}
	if !confirmed {
		// Keep only the frames a pending track could still need.
		i := 0
		for i < len(t.backlog) && t.backlog[i].T < oldest {
			i++
		}
		t.backlog = slices.Delete(t.backlog, 0, i)
		return false
	}
	replay := t.backlog
	t.pending, t.backlog = nil, nil
	t.released, t.dice = released, nil
	for _, bf := range replay {
		if bf.T >= released {
			t.dice = t.associate(t.dice, bf.Dice, bf.T)
		}
	}
	return true
}

// nearRest reports whether p is where a die of the last throw rests.
func (t *DiceThrow) nearRest(p Point) bool {
	for _, q := range t.restPos {
		if p.dist(q) <= t.cfg.WallReach/2 {
			return true
		}
	}
	return false
}

// cloneFrame copies a frame kept for later, in case the caller reuses its slices.
func cloneFrame(f DiceFrame) DiceFrame {
	c := DiceFrame{T: f.T, Dice: slices.Clone(f.Dice)}
	for i := range c.Dice {
		c.Dice[i].Flags = slices.Clone(c.Dice[i].Flags)
	}
	return c
}

// confirmed reports whether a track has been seen often enough to be a die.
func (t *DiceThrow) confirmed(d *trackedDie) bool { return len(d.path) >= t.cfg.ConfirmFrames }

// associate matches the sightings of the frame at now with the tracks (nearest first, within
// reach of the fastest die since the track was last seen, confirmed tracks before the
// others so that a blip near a die cannot take its sighting), extends their paths, starts a
// track for each sighting left over, and returns the tracks: confirmed ones unseen for
// LostFor marked gone, unconfirmed ones unseen for DropAfter dropped.
func (t *DiceThrow) associate(tracks []*trackedDie, ss []DieSighting, now time.Duration) []*trackedDie {
	type pair struct {
		d, s      int
		confirmed bool
		dist      float64
	}
	var pairs []pair
	for i, d := range tracks {
		if d.gone {
			continue
		}
		// A die unseen for a few frames may have travelled a few frames' worth.
		reach := t.cfg.MaxSpeed * math.Max((now-d.lastSeen).Seconds(), 0.05)
		for j, s := range ss {
			if dd := d.last().dist(s.At); dd <= reach {
				pairs = append(pairs, pair{i, j, t.confirmed(d), dd})
			}
		}
	}
	sort.SliceStable(pairs, func(a, b int) bool {
		if pairs[a].confirmed != pairs[b].confirmed {
			return pairs[a].confirmed
		}
		return pairs[a].dist < pairs[b].dist
	})
	usedD := make([]bool, len(tracks))
	usedS := make([]bool, len(ss))
	for _, p := range pairs {
		if usedD[p.d] || usedS[p.s] {
			continue
		}
		usedD[p.d], usedS[p.s] = true, true
		t.extend(tracks[p.d], ss[p.s], now)
	}
	for j, s := range ss {
		if usedS[j] {
			continue
		}
		d := &trackedDie{stillSince: -1}
		t.extend(d, s, now)
		tracks = append(tracks, d)
	}
	return slices.DeleteFunc(tracks, func(d *trackedDie) bool {
		unseen := now - d.lastSeen
		if !t.confirmed(d) {
			return unseen > t.cfg.DropAfter
		}
		if unseen > t.cfg.LostFor {
			d.gone = true
		}
		return false
	})
}

func (t *DiceThrow) extend(d *trackedDie, s DieSighting, now time.Duration) {
	if len(d.path) > 0 {
		prev := d.last()
		step := prev.dist(s.At)
		d.travel += step
		// The speed is over the time since the die was last seen, so that a gap in the
		// sightings neither makes a resting die look fast nor a rolling one slow.
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
	d.lastFlags = s.Flags
	if t.cfg.FarWall.Dist(s.At) <= t.cfg.WallReach {
		d.hitWall = true
	}
}

// atRest reports whether there are dice and every one is still with its face read. Only
// confirmed dice count. One unseen for no more than Gap counts as still at its last
// position, with the face last read; one unseen longer holds the rest up (it may be
// rolling out of sight) until it is seen again or gone.
func (t *DiceThrow) atRest(now time.Duration) bool {
	present := 0
	for _, d := range t.dice {
		if d.gone || !t.confirmed(d) {
			continue
		}
		present++
		if d.stillSince < 0 || now-d.lastSeen > t.cfg.Gap || d.lastValue == 0 {
			return false
		}
	}
	return present > 0
}

// countFlags counts the rest frame at now for the dice seen in it: a die missed in a frame
// neither votes for a face nor dilutes its flags.
func (t *DiceThrow) countFlags(now time.Duration) {
	for _, d := range t.dice {
		if d.gone || d.lastSeen != now {
			continue
		}
		d.restFrames++
		if d.lastValue != 0 {
			d.restValues = append(d.restValues, d.lastValue)
		}
		if d.flags == nil {
			d.flags = map[string]int{}
		}
		for _, fl := range d.lastFlags {
			d.flags[fl]++
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
		if !t.confirmed(d) {
			continue // never seen enough to be a die: no part of the throw
		}
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
