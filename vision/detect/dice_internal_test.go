package detect

import (
	"image"
	"testing"
)

// A top face whose layout is spoilt by the flatter pips of a side face joined to it is read
// from its own, rounder pips.
func TestFaceSubset(t *testing.T) {
	round := func(x, y float64) pip {
		return pip{c: pt{x, y}, area: 50, major: 4, minor: 3.9, box: image.Rect(int(x)-4, int(y)-4, int(x)+4, int(y)+4)}
	}
	flat := func(x, y float64) pip {
		p := round(x, y)
		p.minor = 1.8
		return p
	}
	four := []pip{round(0, 0), round(20, 0), round(0, 20), round(20, 20)}
	tests := []struct {
		name string
		in   []pip
		want int // pips kept; 0: none found
	}{
		{"four and a side pip", append(append([]pip{}, four...), flat(34, 10)), 4},
		{"four and two side pips", append(append([]pip{}, four...), flat(34, 4), flat(34, 16)), 4},
		{"side pips as round as the face", append(append([]pip{}, four...), round(34, 4), round(34, 16)), 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := faceSubset(tc.in)
			if tc.want == 0 {
				if ok {
					t.Fatalf("kept %d pips, want none", len(got))
				}
				return
			}
			if !ok || len(got) != tc.want {
				t.Fatalf("kept %d pips (ok %v), want %d", len(got), ok, tc.want)
			}
			for _, p := range got {
				if p.roundness() < 0.9 {
					t.Errorf("kept a side pip at %v", p.c)
				}
			}
		})
	}
}
