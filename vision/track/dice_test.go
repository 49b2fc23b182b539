package track_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/coupwatch/coupwatch/vision/track"
)

// A craps table in millimetres: 3 m long, 1.2 m wide, the far wall at x = 3000.
func layout() track.Layout {
	return track.Layout{
		Table:     track.Polygon{{0, 0}, {3000, 0}, {3000, 1200}, {0, 1200}},
		FarWall:   track.Segment{A: track.Point{X: 3000, Y: 0}, B: track.Point{X: 3000, Y: 1200}},
		WallReach: 25,
		Length:    track.Point{X: 1, Y: 0},
		Tray:      []track.Polygon{{{1300, 1100}, {1700, 1100}, {1700, 1200}, {1300, 1200}}},
	}
}

// leg is one straight stretch of a die's motion.
type leg struct {
	to    track.Point
	dur   time.Duration
	value func(i int) int // top face read at frame i of the leg (0: unread)
}

// dieScript is a die's whole journey: where it is released, its legs, and what it shows at
// rest.
type dieScript struct {
	from   track.Point
	legs   []leg
	rest   int
	flags  []string
	vanish bool // leaves the picture at the end of its legs
}

const frame = 40 * time.Millisecond

func rolling(i int) int { return 1 + i%6 }

// frames plays the scripts from t0 and keeps the dice still for restFor at the end.
func frames(t0 time.Duration, dice []dieScript, restFor time.Duration) []track.DiceFrame {
	var total time.Duration
	for _, d := range dice {
		var s time.Duration
		for _, l := range d.legs {
			s += l.dur
		}
		total = max(total, s)
	}
	var out []track.DiceFrame
	for t := time.Duration(0); t <= total+restFor; t += frame {
		f := track.DiceFrame{T: t0 + t}
		for _, d := range dice {
			p, v, moving := d.from, d.rest, false
			var start time.Duration
			done := true
			for _, l := range d.legs {
				if t < start+l.dur {
					k := float64(t-start) / float64(l.dur)
					p = track.Point{X: p.X + (l.to.X-p.X)*k, Y: p.Y + (l.to.Y-p.Y)*k}
					v = l.value(int((t - start) / frame))
					moving, done = true, false
					break
				}
				p = l.to
				start += l.dur
			}
			if done && d.vanish {
				continue
			}
			s := track.DieSighting{At: p, Value: v}
			if !moving {
				s.Flags = d.flags
			}
			f.Dice = append(f.Dice, s)
		}
		out = append(out, f)
	}
	return out
}

func run(t *testing.T, tr *track.DiceThrow, fs []track.DiceFrame) []track.Result {
	t.Helper()
	var rs []track.Result
	for _, f := range fs {
		if r, ok := tr.Observe(f); ok {
			rs = append(rs, r)
		}
	}
	return rs
}

func newThrow(t *testing.T) *track.DiceThrow {
	t.Helper()
	tr, err := track.NewDiceThrow(track.Config{Layout: layout(), Dice: 2, Still: 30})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func TestDiceThrowFaults(t *testing.T) {
	toWall := func(y float64) []leg {
		return []leg{
			{to: track.Point{X: 2990, Y: y}, dur: 800 * time.Millisecond, value: rolling},
			{to: track.Point{X: 2600, Y: y + 50}, dur: 400 * time.Millisecond, value: rolling},
		}
	}
	for _, tc := range []struct {
		name   string
		dice   []dieScript
		values []int
		faults []string
	}{
		{
			name: "good throw",
			dice: []dieScript{
				{from: track.Point{X: 300, Y: 500}, legs: toWall(500), rest: 4},
				{from: track.Point{X: 300, Y: 600}, legs: []leg{
					{to: track.Point{X: 2985, Y: 650}, dur: 800 * time.Millisecond, value: rolling},
					{to: track.Point{X: 2400, Y: 700}, dur: 500 * time.Millisecond, value: rolling},
				}, rest: 3},
			},
			values: []int{3, 4},
		},
		{
			name: "short of the wall",
			dice: []dieScript{
				{from: track.Point{X: 300, Y: 500}, legs: []leg{{to: track.Point{X: 2000, Y: 520}, dur: time.Second, value: rolling}}, rest: 6},
				{from: track.Point{X: 300, Y: 600}, legs: []leg{{to: track.Point{X: 2100, Y: 640}, dur: time.Second, value: rolling}}, rest: 1},
			},
			values: []int{6, 1},
			faults: []string{"no_wall"},
		},
		{
			name: "slid",
			dice: []dieScript{
				{from: track.Point{X: 300, Y: 500}, legs: toWall(500), rest: 2},
				{from: track.Point{X: 300, Y: 600}, legs: []leg{
					{to: track.Point{X: 2980, Y: 600}, dur: 800 * time.Millisecond, value: func(int) int { return 5 }},
					{to: track.Point{X: 2700, Y: 600}, dur: 300 * time.Millisecond, value: func(int) int { return 5 }},
				}, rest: 5},
			},
			values: []int{2, 5},
			faults: []string{"slid"},
		},
		{
			name: "one die off the table",
			dice: []dieScript{
				{from: track.Point{X: 300, Y: 500}, legs: toWall(500), rest: 2},
				{from: track.Point{X: 300, Y: 600}, legs: []leg{{to: track.Point{X: 2000, Y: 1300}, dur: 600 * time.Millisecond, value: rolling}}, vanish: true},
			},
			values: []int{2},
			faults: []string{"off_table"},
		},
		{
			name: "in the tray",
			dice: []dieScript{
				{from: track.Point{X: 300, Y: 500}, legs: toWall(500), rest: 2},
				{from: track.Point{X: 300, Y: 600}, legs: []leg{
					{to: track.Point{X: 2990, Y: 900}, dur: 800 * time.Millisecond, value: rolling},
					{to: track.Point{X: 1500, Y: 1150}, dur: 600 * time.Millisecond, value: rolling},
				}, rest: 6},
			},
			values: []int{6, 2},
			faults: []string{"in_tray"},
		},
		{
			name: "stacked and cocked at rest",
			dice: []dieScript{
				{from: track.Point{X: 300, Y: 500}, legs: toWall(500), rest: 2, flags: []string{"stacked"}},
				{from: track.Point{X: 300, Y: 600}, legs: toWall(560), rest: 2, flags: []string{"stacked", "cocked"}},
			},
			values: []int{2, 2},
			faults: []string{"cocked", "stacked"},
		},
		{
			name: "thrown across",
			dice: []dieScript{
				{from: track.Point{X: 1000, Y: 100}, legs: []leg{{to: track.Point{X: 1100, Y: 1100}, dur: time.Second, value: rolling}}, rest: 1},
				{from: track.Point{X: 1050, Y: 100}, legs: []leg{{to: track.Point{X: 1200, Y: 1000}, dur: time.Second, value: rolling}}, rest: 2},
			},
			values: []int{1, 2},
			faults: []string{"no_wall", "not_lengthwise"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rs := run(t, newThrow(t), frames(time.Second, tc.dice, time.Second))
			if len(rs) != 1 {
				t.Fatalf("%d results, want 1: %v", len(rs), rs)
			}
			if !reflect.DeepEqual(rs[0].Values, tc.values) {
				t.Errorf("values %v, want %v", rs[0].Values, tc.values)
			}
			if len(rs[0].Faults) != len(tc.faults) || (len(tc.faults) > 0 && !reflect.DeepEqual(rs[0].Faults, tc.faults)) {
				t.Errorf("faults %v, want %v", rs[0].Faults, tc.faults)
			}
			if rs[0].Released != time.Second {
				t.Errorf("released at %v, want 1s", rs[0].Released)
			}
		})
	}
}

func TestDiceAtRestNeedTheirFacesRead(t *testing.T) {
	dice := []dieScript{
		{from: track.Point{X: 300, Y: 500}, legs: []leg{{to: track.Point{X: 2990, Y: 500}, dur: time.Second, value: rolling}}, rest: 0},
		{from: track.Point{X: 300, Y: 600}, legs: []leg{{to: track.Point{X: 2980, Y: 600}, dur: time.Second, value: rolling}}, rest: 0},
	}
	fs := frames(0, dice, 2*time.Second)
	// Unread for the first second of rest, read after.
	for i := range fs {
		if fs[i].T > 2*time.Second {
			for k := range fs[i].Dice {
				fs[i].Dice[k].Value = 3 + k
			}
		}
	}
	rs := run(t, newThrow(t), fs)
	if len(rs) != 1 {
		t.Fatalf("%d results", len(rs))
	}
	if rs[0].Rested <= 2*time.Second {
		t.Errorf("rested at %v: before the faces were read", rs[0].Rested)
	}
	if !reflect.DeepEqual(rs[0].Values, []int{4, 3}) && !reflect.DeepEqual(rs[0].Values, []int{3, 4}) {
		t.Errorf("values %v", rs[0].Values)
	}
}

func TestRestingDiceDoNotStartAThrow(t *testing.T) {
	tr := newThrow(t)
	throw := []dieScript{
		{from: track.Point{X: 300, Y: 500}, legs: []leg{{to: track.Point{X: 2990, Y: 500}, dur: time.Second, value: rolling}}, rest: 5},
		{from: track.Point{X: 300, Y: 600}, legs: []leg{{to: track.Point{X: 2980, Y: 640}, dur: time.Second, value: rolling}}, rest: 6},
	}
	fs := frames(0, throw, 3*time.Second) // long rest: one result only
	// The stickman returns the dice; they are thrown again.
	second := []dieScript{
		{from: track.Point{X: 400, Y: 500}, legs: []leg{{to: track.Point{X: 2995, Y: 450}, dur: time.Second, value: rolling}}, rest: 1},
		{from: track.Point{X: 400, Y: 600}, legs: []leg{{to: track.Point{X: 2990, Y: 700}, dur: time.Second, value: rolling}}, rest: 1},
	}
	fs = append(fs, frames(10*time.Second, second, time.Second)...)
	rs := run(t, tr, fs)
	if len(rs) != 2 {
		t.Fatalf("%d results, want 2: %v", len(rs), rs)
	}
	if !reflect.DeepEqual(rs[0].Values, []int{6, 5}) && !reflect.DeepEqual(rs[0].Values, []int{5, 6}) {
		t.Errorf("first throw %v", rs[0].Values)
	}
	if !reflect.DeepEqual(rs[1].Values, []int{1, 1}) || rs[1].Released != 10*time.Second {
		t.Errorf("second throw %v released %v", rs[1].Values, rs[1].Released)
	}
}

func TestNewDiceThrowValidates(t *testing.T) {
	for _, cfg := range []track.Config{
		{Layout: layout(), Dice: 0, Still: 30},
		{Layout: track.Layout{WallReach: 10}, Dice: 2, Still: 30},
		{Layout: track.Layout{Table: layout().Table}, Dice: 2, Still: 30},
		{Layout: layout(), Dice: 2},
	} {
		if _, err := track.NewDiceThrow(cfg); err == nil {
			t.Errorf("NewDiceThrow(%+v) accepted", cfg)
		}
	}
}

func TestPolygonContains(t *testing.T) {
	pg := track.Polygon{{0, 0}, {10, 0}, {10, 10}, {0, 10}}
	for _, tc := range []struct {
		p  track.Point
		in bool
	}{{track.Point{X: 5, Y: 5}, true}, {track.Point{X: 11, Y: 5}, false}, {track.Point{X: -1, Y: -1}, false}, {track.Point{X: 9.9, Y: 0.1}, true}} {
		if got := pg.Contains(tc.p); got != tc.in {
			t.Errorf("Contains(%v) = %v", tc.p, got)
		}
	}
}
