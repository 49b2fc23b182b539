package detect

import (
	"image"
	"math"
	"slices"
	"testing"
)

// patchOf makes a corner patch of the warped card's corner size (see extractCorner) with
// the given rectangles of ink: strength v, redness red.
func patchOf(inks ...ink) *cornerPatch {
	w, h := int(math.Round(cornerFracW*canonW)), int(math.Round(cornerFracH*canonH))
	p := &cornerPatch{w: w, h: h, ink: make([]float32, w*h), red: make([]float32, w*h)}
	for _, in := range inks {
		r := in.r.Intersect(image.Rect(0, 0, w, h))
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				p.ink[y*w+x] = max(p.ink[y*w+x], in.v)
				p.red[y*w+x] = in.red
			}
		}
	}
	return p
}

type ink = struct {
	r      image.Rectangle
	v, red float32
}

func TestCutIndex(t *testing.T) {
	heart := ink{image.Rect(6, 44, 22, 61), 0.9, 0.5}
	for _, tc := range []struct {
		name       string
		inks       []ink
		rank, suit image.Rectangle
	}{
		{
			name: "a whole rank glyph over its suit",
			inks: []ink{{image.Rect(6, 15, 20, 40), 0.9, 0.5}, heart},
			rank: image.Rect(6, 15, 20, 40), suit: heart.r,
		},
		{
			// The thin top stroke of a small, blurred 6 falls apart from its loop: a box
			// around the loop alone reads as another rank.
			name: "a rank glyph broken in two",
			inks: []ink{{image.Rect(8, 15, 20, 19), 0.9, 0.5}, {image.Rect(6, 20, 20, 40), 0.9, 0.5}, heart},
			rank: image.Rect(6, 15, 20, 40), suit: heart.r,
		},
		{
			// A speck well above the glyph, and the big pip of the body beside the index,
			// are not pieces of the rank.
			name: "ink apart from the rank glyph",
			inks: []ink{{image.Rect(8, 2, 12, 6), 0.9, 0.5}, {image.Rect(6, 15, 20, 40), 0.9, 0.5}, heart, {image.Rect(30, 20, 58, 60), 0.9, 0.5}},
			rank: image.Rect(6, 15, 20, 40), suit: heart.r,
		},
		{
			// The thin strokes of a small A break into its apex and its legs; the legs
			// pass for the suit unless the bigger suit just under them is seen.
			name: "an A broken into its apex and its legs",
			inks: []ink{{image.Rect(17, 10, 20, 17), 0.9, 0}, {image.Rect(15, 23, 25, 31), 0.9, 0}, {image.Rect(12, 28, 16, 31), 0.9, 0}, {image.Rect(11, 35, 26, 51), 0.9, 0}},
			rank: image.Rect(12, 10, 25, 31), suit: image.Rect(11, 35, 26, 51),
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := patchOf(tc.inks...)
			rank, suit, _, ok := cutIndex(p, make([]int32, p.w*p.h), canonW, canonH, false)
			if !ok {
				t.Fatal("no index cut")
			}
			if rank != tc.rank || suit != tc.suit {
				t.Errorf("rank %v suit %v, want %v and %v", rank, suit, tc.rank, tc.suit)
			}
		})
	}
}

// On a small, blurred court card the frame of the picture, printed close by, runs into the
// index glyphs and joins them to the picture at every threshold, so that cutIndex finds no
// index (IMG_3321's queen of hearts): the index is what lies before the frame.
func TestCutBeforeFrame(t *testing.T) {
	for _, tc := range []struct {
		name       string
		inks       []ink
		rank, suit image.Rectangle // none expected when empty
	}{
		{
			name: "an index touching the frame of a court card's picture",
			inks: []ink{{image.Rect(4, 12, 21, 36), 0.9, 0.5}, {image.Rect(4, 42, 21, 60), 0.9, 0.5},
				{image.Rect(21, 20, 24, 106), 0.9, 0.5}, {image.Rect(24, 30, 50, 62), 0.9, 0.5}},
			rank: image.Rect(4, 12, 21, 36), suit: image.Rect(4, 42, 21, 60),
		},
		{
			// Slivers beside a long stroke (a card's edge) are no glyphs: no suit is a
			// tenth as wide as it is high.
			name: "slivers beside a card's edge",
			inks: []ink{{image.Rect(12, 20, 15, 40), 0.9, 0.5}, {image.Rect(12, 41, 14, 63), 0.9, 0.5},
				{image.Rect(15, 10, 18, 106), 0.9, 0.5}},
		},
		{
			// Nor are specks (on a photograph's edge, wood grain read as a 4S).
			name: "specks touching a long stroke",
			inks: []ink{{image.Rect(11, 38, 14, 46), 0.9, 0}, {image.Rect(10, 48, 14, 55), 0.9, 0},
				{image.Rect(14, 10, 17, 106), 0.9, 0}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := patchOf(tc.inks...)
			labels := make([]int32, p.w*p.h)
			if rank, suit, _, ok := cutIndex(p, labels, canonW, canonH, false); ok {
				t.Fatalf("cutIndex cut rank %v suit %v: the case tests nothing", rank, suit)
			}
			before := slices.Clone(p.ink)
			rank, suit, _, ok := cutIndex(p, labels, canonW, canonH, true)
			if tc.rank.Empty() {
				if ok {
					t.Fatalf("cut rank %v suit %v, want none", rank, suit)
				}
				if !slices.Equal(p.ink, before) {
					t.Error("the patch's ink was not restored")
				}
				return
			}
			if !ok {
				t.Fatal("no index cut")
			}
			if rank != tc.rank || suit != tc.suit {
				t.Errorf("rank %v suit %v, want %v and %v", rank, suit, tc.rank, tc.suit)
			}
		})
	}
}

// pipsAt makes pip boxes (10x12) centred at the given fractions of a W x H card body.
func pipsAt(W, H float64, at ...[2]float64) []image.Rectangle {
	var out []image.Rectangle
	for _, a := range at {
		x, y := int(a[0]*W), int(a[1]*H)
		out = append(out, image.Rect(x-5, y-6, x+5, y+6))
	}
	return out
}

func TestStandardLayout(t *testing.T) {
	const W, H = 90, 126
	l, m, r := 0.3, 0.5, 0.7
	col := func(x float64, ys ...float64) [][2]float64 {
		var out [][2]float64
		for _, y := range ys {
			out = append(out, [2]float64{x, y})
		}
		return out
	}
	four := []float64{0.2, 0.4, 0.6, 0.8}
	three := []float64{0.2, 0.5, 0.8}
	join := func(cs ...[][2]float64) [][2]float64 {
		var out [][2]float64
		for _, c := range cs {
			out = append(out, c...)
		}
		return out
	}
	for _, tc := range []struct {
		name string
		pips [][2]float64
		want bool
	}{
		{"two", col(m, 0.2, 0.8), true},
		{"three", col(m, 0.2, 0.5, 0.8), true},
		{"four", join(col(l, 0.2, 0.8), col(r, 0.2, 0.8)), true},
		{"five", join(col(l, 0.2, 0.8), col(r, 0.2, 0.8), col(m, 0.5)), true},
		{"six", join(col(l, three...), col(r, three...)), true},
		{"seven", join(col(l, three...), col(r, three...), col(m, 0.35)), true},
		{"eight", join(col(l, three...), col(r, three...), col(m, 0.35, 0.65)), true},
		{"nine", join(col(l, four...), col(r, four...), col(m, 0.5)), true},
		{"ten", join(col(l, four...), col(r, four...), col(m, 0.3, 0.7)), true},
		// blackjack-v13 IMG_5740: a deck that prints its pips close together, in a frame.
		{"ten with its columns close together", join(col(0.4, four...), col(0.6, four...), col(m, 0.3, 0.7)), true},
		{"four with its columns close together", join(col(0.4, 0.2, 0.8), col(0.6, 0.2, 0.8)), true},
		// A ten that lost a middle pip is no nine: a nine's middle pip is in the centre.
		{"ten less a middle pip", join(col(l, four...), col(r, four...), col(m, 0.3)), false},
		// A six that lost a pip of one column is no five.
		{"six less an outer pip", join(col(l, three...), col(r, 0.2, 0.8)), false},
		{"seven with its middle pip in the centre", join(col(l, three...), col(r, three...), col(m, 0.5)), false},
		{"columns out of step", join(col(l, four...), col(r, three...), col(m, 0.5)), false},
		{"one pip", col(m, 0.5), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := standardLayout(pipsAt(W, H, tc.pips...), W, H); got != tc.want {
				t.Errorf("standardLayout = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestClutter(t *testing.T) {
	rank, suit := image.Rect(6, 10, 18, 30), image.Rect(6, 34, 18, 46)
	glyphs := []ink{{rank, 0.9, 0}, {suit, 0.9, 0}}
	// Blotches every 4 pixels, 3x3, over the whole corner: felt or wood grain.
	var felt []ink
	for y := 0; y < 110; y += 4 {
		for x := 0; x < 60; x += 4 {
			felt = append(felt, ink{image.Rect(x, y, x+3, y+3), 0.6, 0})
		}
	}
	for _, tc := range []struct {
		name     string
		inks     []ink
		min, max float64
	}{
		{"an index on plain paper", glyphs, 0, 0},
		{"an index beside a picture's frame line", append([]ink{{image.Rect(19, 0, 21, 106), 0.7, 0}}, glyphs...), 0.03, 0.2},
		{"a glyph pair amid blotches", append(felt, glyphs...), maxClutter, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := clutter(patchOf(tc.inks...), rank, suit, 0.5); got < tc.min || got > tc.max {
				t.Errorf("clutter %.3f, want %.2f to %.2f", got, tc.min, tc.max)
			}
		})
	}
}
