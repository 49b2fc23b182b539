package track_test

import (
	"fmt"
	"reflect"
	"slices"
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

// goodThrow is the "good throw" of TestDiceThrowFaults: both dice reach the far wall and
// rest at (2600, 550) showing 4 and (2400, 700) showing 3. Released at t0, its dice are still
// from t0 + 1.32 s, so it comes to rest at t0 + 1.36 s.
func goodThrow() []dieScript {
	return []dieScript{
		{from: track.Point{X: 300, Y: 500}, legs: []leg{
			{to: track.Point{X: 2990, Y: 500}, dur: 800 * time.Millisecond, value: rolling},
			{to: track.Point{X: 2600, Y: 550}, dur: 400 * time.Millisecond, value: rolling},
		}, rest: 4},
		{from: track.Point{X: 300, Y: 600}, legs: []leg{
			{to: track.Point{X: 2985, Y: 650}, dur: 800 * time.Millisecond, value: rolling},
			{to: track.Point{X: 2400, Y: 700}, dur: 500 * time.Millisecond, value: rolling},
		}, rest: 3},
	}
}

// blip adds a false die (a chip's inlay read as a lone "1") to the frames at the given times,
// which must be frame times (t0 + k × 40 ms): it panics otherwise, so that no test passes
// for want of its blip.
func blip(at track.Point, ts ...time.Duration) func([]track.DiceFrame) []track.DiceFrame {
	return func(fs []track.DiceFrame) []track.DiceFrame {
		n := 0
		for i := range fs {
			if slices.Contains(ts, fs[i].T) {
				fs[i].Dice = append(fs[i].Dice, track.DieSighting{At: at, Value: 1})
				n++
			}
		}
		if n != len(ts) {
			panic(fmt.Sprintf("blip at %v: %d of the times %v are frames", at, n, ts))
		}
		return fs
	}
}

// miss takes die k (its index in the script) out of the frames for which drop says so; i is
// the frame's index. The scripts it is used on have no vanishing die, so indexes hold.
func miss(k int, drop func(i int, t time.Duration) bool) func([]track.DiceFrame) []track.DiceFrame {
	return func(fs []track.DiceFrame) []track.DiceFrame {
		for i := range fs {
			if drop(i, fs[i].T) {
				fs[i].Dice = slices.Delete(slices.Clone(fs[i].Dice), k, k+1)
			}
		}
		return fs
	}
}

// TestDiceThrowNoisyDetector feeds what a real detector gives: false dice seen in a frame or
// two, real dice missed now and then, and checks each throw is reported once, with the clean
// run's values, faults and times.
func TestDiceThrowNoisyDetector(t *testing.T) {
	type want struct {
		values           []int
		faults           []string
		released, rested time.Duration
	}
	const s = time.Second
	ms := time.Millisecond
	for _, tc := range []struct {
		name  string
		dice  []dieScript
		rest  time.Duration
		noise []func([]track.DiceFrame) []track.DiceFrame
		more  []track.DiceFrame // frames after the first throw's
		want  []want
	}{
		{
			name: "clean",
			dice: goodThrow(), rest: s,
			want: []want{{values: []int{3, 4}, released: s, rested: 2360 * ms}},
		},
		{
			// The old tracker took the lone "1" for a third die that then left the table.
			name: "false die in one frame of the roll",
			dice: goodThrow(), rest: s,
			noise: []func([]track.DiceFrame) []track.DiceFrame{blip(track.Point{X: 1500, Y: 200}, 1400*ms)},
			want:  []want{{values: []int{3, 4}, released: s, rested: 2360 * ms}},
		},
		{
			name: "false die at rest, before the throw is over",
			dice: goodThrow(), rest: s,
			noise: []func([]track.DiceFrame) []track.DiceFrame{blip(track.Point{X: 1500, Y: 200}, 2400*ms, 2440*ms)},
			want:  []want{{values: []int{3, 4}, released: s, rested: 2360 * ms}},
		},
		{
			// Nor does a false die at the wall count as a die hitting it.
			name: "false die at the wall of a short throw",
			dice: []dieScript{
				{from: track.Point{X: 300, Y: 500}, legs: []leg{{to: track.Point{X: 2000, Y: 520}, dur: s, value: rolling}}, rest: 6},
				{from: track.Point{X: 300, Y: 600}, legs: []leg{{to: track.Point{X: 2100, Y: 640}, dur: s, value: rolling}}, rest: 1},
			},
			rest:  s,
			noise: []func([]track.DiceFrame) []track.DiceFrame{blip(track.Point{X: 2995, Y: 300}, 1600*ms)},
			// At their places from 2 s, still (from then) at 2.04 s.
			want: []want{{values: []int{6, 1}, faults: []string{"no_wall"}, released: s, rested: 2040 * ms}},
		},
		{
			// The old tracker started a throw on the false die and reported the resting dice
			// a second time.
			name: "false die while the dice rest",
			dice: goodThrow(), rest: 3 * s,
			noise: []func([]track.DiceFrame) []track.DiceFrame{blip(track.Point{X: 1000, Y: 300}, 3520*ms)},
			want:  []want{{values: []int{3, 4}, released: s, rested: 2360 * ms}},
		},
		{
			// The old tracker forgot where the dice rested on a frame without dice.
			name: "resting dice both missed in a frame",
			dice: goodThrow(), rest: 3 * s,
			noise: []func([]track.DiceFrame) []track.DiceFrame{
				miss(0, func(_ int, t time.Duration) bool { return t == 3800*ms }),
				miss(0, func(_ int, t time.Duration) bool { return t == 3800*ms }),
			},
			want: []want{{values: []int{3, 4}, released: s, rested: 2360 * ms}},
		},
		{
			// A resting die knocked 600 mm: a throw, released on the first frame it is off its
			// place (5.04 s), though it starts only once confirmed.
			name: "a resting die moved",
			dice: goodThrow(), rest: 2 * s,
			more: frames(5*s, []dieScript{
				{from: track.Point{X: 2600, Y: 550}, legs: []leg{{to: track.Point{X: 2000, Y: 550}, dur: 400 * time.Millisecond, value: rolling}}, rest: 6},
				{from: track.Point{X: 2400, Y: 700}, rest: 3},
			}, s),
			want: []want{
				{values: []int{3, 4}, released: s, rested: 2360 * ms},
				{values: []int{6, 3}, faults: []string{"no_wall"}, released: 5040 * ms, rested: 5440 * ms},
			},
		},
		{
			// A false die, then the resting dice both missed for a frame, then a false die in
			// two frames: the old tracker started a new throw on each and reported the
			// resting dice again. The real second throw is still seen.
			name: "blips while the dice rest",
			dice: goodThrow(), rest: 3 * s,
			noise: []func([]track.DiceFrame) []track.DiceFrame{
				blip(track.Point{X: 1000, Y: 300}, 3520*ms),
				miss(0, func(_ int, t time.Duration) bool { return t == 3800*ms }),
				miss(0, func(_ int, t time.Duration) bool { return t == 3800*ms }),
				blip(track.Point{X: 1200, Y: 900}, 4000*ms, 4040*ms),
			},
			more: frames(10*s, []dieScript{
				{from: track.Point{X: 400, Y: 500}, legs: []leg{{to: track.Point{X: 2995, Y: 450}, dur: s, value: rolling}}, rest: 1},
				{from: track.Point{X: 400, Y: 600}, legs: []leg{{to: track.Point{X: 2990, Y: 700}, dur: s, value: rolling}}, rest: 2},
			}, s),
			want: []want{
				{values: []int{3, 4}, released: s, rested: 2360 * ms},
				{values: []int{2, 1}, released: 10 * s, rested: 11040 * ms},
			},
		},
		{
			// The old tracker restarted the rest wait on every miss and never ended the throw.
			name: "a die missed in 1 of 3 frames at rest",
			dice: goodThrow(), rest: 2 * s,
			noise: []func([]track.DiceFrame) []track.DiceFrame{
				miss(0, func(i int, t time.Duration) bool { return t > 2300*ms && i%3 == 0 }),
			},
			want: []want{{values: []int{3, 4}, released: s, rested: 2360 * ms}},
		},
		{
			name: "each die missed in 1 of 3 frames, all through",
			dice: goodThrow(), rest: 2 * s,
			noise: []func([]track.DiceFrame) []track.DiceFrame{
				miss(1, func(i int, _ time.Duration) bool { return i%3 == 1 }),
				miss(0, func(i int, _ time.Duration) bool { return i%3 == 0 }),
			},
			// The second die is missed at 2.36 s, the first frame that would show it still:
			// the rest starts one frame later.
			want: []want{{values: []int{3, 4}, released: s, rested: 2400 * ms}},
		},
		{
			// Unseen for 600 ms, more than Gap: the rest waits for it to be seen again.
			name: "a die hidden for less than LostFor",
			dice: goodThrow(), rest: 2 * s,
			noise: []func([]track.DiceFrame) []track.DiceFrame{
				miss(0, func(_ int, t time.Duration) bool { return t >= 2400*ms && t < 3000*ms }),
			},
			// Seen again at 3 s where it was: still from then.
			want: []want{{values: []int{3, 4}, released: s, rested: 3000 * ms}},
		},
		{
			// Hidden (by a hand, say) where it rests, for longer than LostFor: it is gone.
			name: "a die hidden for more than LostFor",
			dice: goodThrow(), rest: 3 * s,
			noise: []func([]track.DiceFrame) []track.DiceFrame{
				miss(0, func(_ int, t time.Duration) bool { return t >= 2400*ms }),
			},
			// Last seen at 2.36 s, gone on the first frame more than 1 s later.
			want: []want{{values: []int{3}, faults: []string{"off_table"}, released: s, rested: 3400 * ms}},
		},
		{
			// A die that leaves the picture while the other one is missed now and then.
			name: "a die that leaves",
			dice: []dieScript{
				{from: track.Point{X: 300, Y: 500}, legs: []leg{
					{to: track.Point{X: 2990, Y: 500}, dur: 800 * time.Millisecond, value: rolling},
					{to: track.Point{X: 2600, Y: 550}, dur: 400 * time.Millisecond, value: rolling},
				}, rest: 2},
				{from: track.Point{X: 300, Y: 600}, legs: []leg{{to: track.Point{X: 2000, Y: 1300}, dur: 600 * time.Millisecond, value: rolling}}, vanish: true},
			},
			rest: 2 * s,
			noise: []func([]track.DiceFrame) []track.DiceFrame{
				miss(0, func(i int, t time.Duration) bool { return t > 2300*ms && i%3 == 0 }),
			},
			// Last seen at 1.56 s, gone at 2.6 s.
			want: []want{{values: []int{2}, faults: []string{"off_table"}, released: s, rested: 2600 * ms}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := frames(s, tc.dice, tc.rest)
			for _, n := range tc.noise {
				fs = n(fs)
			}
			rs := run(t, newThrow(t), append(fs, tc.more...))
			if len(rs) != len(tc.want) {
				t.Fatalf("%d results, want %d: %v", len(rs), len(tc.want), rs)
			}
			for i, w := range tc.want {
				r := rs[i]
				if !reflect.DeepEqual(r.Values, w.values) || !reflect.DeepEqual(r.Faults, w.faults) {
					t.Errorf("throw %d: %v, want dice %v faults %v", i, r, w.values, w.faults)
				}
				if r.Released != w.released || r.Rested != w.rested {
					t.Errorf("throw %d: released %v rested %v, want %v and %v", i, r.Released, r.Rested, w.released, w.rested)
				}
			}
		})
	}
}
