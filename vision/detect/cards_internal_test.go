package detect

import (
	"image"
	"testing"
)

func near(a, b pt, tol float64) bool { return a.dist(b) <= tol }

func TestSplitQuad(t *testing.T) {
	for _, tc := range []struct {
		name string
		q    [4]pt
		ok   bool
		want [2][4]pt
	}{
		{
			name: "two cards side by side, long way across",
			q:    [4]pt{{0, 0}, {280, 0}, {280, 100}, {0, 100}},
			ok:   true,
			want: [2][4]pt{{{0, 0}, {140, 0}, {140, 100}, {0, 100}}, {{140, 0}, {280, 0}, {280, 100}, {140, 100}}},
		},
		{
			name: "two cards end to end, long way down",
			q:    [4]pt{{10, 10}, {110, 10}, {110, 260}, {10, 260}},
			ok:   true,
			want: [2][4]pt{{{10, 10}, {110, 10}, {110, 135}, {10, 135}}, {{10, 135}, {110, 135}, {110, 260}, {10, 260}}},
		},
		{name: "one card", q: [4]pt{{0, 0}, {100, 0}, {100, 140}, {0, 140}}},
		{name: "one card in a picture stretched to a square", q: [4]pt{{0, 0}, {100, 0}, {100, 190}, {0, 190}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := splitQuad(tc.q)
			if ok != tc.ok {
				t.Fatalf("split %v: ok %v, want %v", tc.q, ok, tc.ok)
			}
			for h := range got {
				for k := range got[h] {
					if ok && !near(got[h][k], tc.want[h][k], 1e-9) {
						t.Errorf("half %d corner %d = %v, want %v", h, k, got[h][k], tc.want[h][k])
					}
				}
			}
		})
	}
}

func TestRefitToIndexes(t *testing.T) {
	// The guess is a card drawn at 1.25 times the true card's size from its top-left index:
	// the true card's bottom-right index then lies inside the guess, at 0.8 of the way.
	const f = 0.8
	guess := [4]pt{{100, 50}, {100 + 1.25*canonW, 50}, {100 + 1.25*canonW, 50 + 1.25*canonH}, {100, 50 + 1.25*canonH}}
	i0 := image.Rect(10, 15, 26, 55) // index boxes in the guess's canonical pixels
	c0 := pt{18, 35}
	c2 := pt{c0.X + f*(canonW-2*c0.X), c0.Y + f*(canonH-2*c0.Y)}
	i2 := image.Rect(int(c2.X)-8, int(c2.Y)-20, int(c2.X)+8, int(c2.Y)+20)
	q, ok := refitToIndexes(guess, i0, i2)
	if !ok {
		t.Fatal("refit refused a plausible pair of indexes")
	}
	// The true card: its top-left is where the index sits f·c0 in from it, 1.25·f = 1 scale.
	tl := pt{100 + 1.25*c0.X*(1-f), 50 + 1.25*c0.Y*(1-f)}
	want := [4]pt{tl, tl.add(pt{canonW, 0}), tl.add(pt{canonW, canonH}), tl.add(pt{0, canonH})}
	for k := range q {
		if !near(q[k], want[k], 1) {
			t.Errorf("corner %d = %v, want %v", k, q[k], want[k])
		}
	}
	// Indexes that no card of this shape would place (far too close together) are refused.
	if _, ok := refitToIndexes(guess, i0, image.Rect(40, 60, 56, 100)); ok {
		t.Error("refit accepted indexes 30 px apart on a 180 px card")
	}
}

func TestInQuad(t *testing.T) {
	q := [4]pt{{0, 0}, {10, 2}, {8, 12}, {-2, 10}}
	for _, tc := range []struct {
		p    pt
		want bool
	}{{pt{4, 5}, true}, {pt{0.1, 0.1}, true}, {pt{11, 5}, false}, {pt{-3, 1}, false}} {
		if got := inQuad(tc.p, q); got != tc.want {
			t.Errorf("inQuad(%v) = %v, want %v", tc.p, got, tc.want)
		}
		// Either winding.
		r := [4]pt{q[3], q[2], q[1], q[0]}
		if got := inQuad(tc.p, r); got != tc.want {
			t.Errorf("inQuad(%v) counter-clockwise = %v, want %v", tc.p, got, tc.want)
		}
	}
}

func TestSameInk(t *testing.T) {
	// A patch of two glyphs: the rank in the left half, the suit in the right; each pixel
	// has the given ink and redness.
	patch := func(rankInk, rankRed, suitInk, suitRed float32) *cornerPatch {
		p := &cornerPatch{w: 20, h: 10, ink: make([]float32, 200), red: make([]float32, 200)}
		for y := 0; y < 10; y++ {
			for x := 0; x < 20; x++ {
				i := y*20 + x
				if x < 10 {
					p.ink[i], p.red[i] = rankInk, rankRed
				} else {
					p.ink[i], p.red[i] = suitInk, suitRed
				}
			}
		}
		return p
	}
	rb, sb := image.Rect(0, 0, 10, 10), image.Rect(10, 0, 20, 10)
	for _, tc := range []struct {
		name string
		p    *cornerPatch
		want bool
	}{
		{"black and black", patch(0.8, 0, 0.8, 0.02), true},
		{"red and red", patch(0.6, 0.4, 0.7, 0.5), true},
		// A thin red letter seen through blur: faint ink, little redness, but all of its ink
		// is red.
		{"pale red rank, red suit", patch(0.2, 0.05, 0.6, 0.4), true},
		{"black rank, red suit", patch(0.8, 0, 0.6, 0.4), false},
		{"red rank, black suit", patch(0.6, 0.4, 0.8, -0.02), false},
	} {
		if got := sameInk(tc.p, rb, sb, 0.1); got != tc.want {
			t.Errorf("%s: sameInk = %v, want %v (shares %.2f, %.2f)", tc.name, got, tc.want,
				redShare(tc.p, rb, 0.1), redShare(tc.p, sb, 0.1))
		}
	}
}

func TestQuadCoords(t *testing.T) {
	q := [4]pt{{100, 40}, {190, 70}, {140, 200}, {50, 170}} // a card turned and sheared
	for _, c := range []pt{{0, 0}, {canonW, 0}, {18, 35}, {canonW / 2, canonH / 2}, {162, 217}} {
		p := quadPoint(q, c)
		if back := quadCoords(q, p); !near(back, c, 1e-9) {
			t.Errorf("card point %v -> frame %v -> card %v", c, p, back)
		}
	}
	if got := quadPoint(q, pt{canonW, canonH}); !near(got, q[1].add(q[3]).sub(q[0]), 1e-9) {
		t.Errorf("bottom-right corner of the parallelogram = %v", got)
	}
}

func TestFitsIn(t *testing.T) {
	rect := func(w, h float64) [4]pt { return [4]pt{{0, 0}, {w, 0}, {w, h}, {0, h}} }
	heap := rect(209, 207) // a nine and a jack over it, outlined as one
	for _, tc := range []struct {
		name string
		q    [4]pt
		want bool
	}{
		{"a card of the heap, upright", rect(157, 220), true},
		{"the same card turned a quarter", rect(220, 157), true},
		{"a card guessed from a pip pair, twice the size", rect(250, 351), false},
		{"as wide as the heap but far longer", rect(200, 300), false},
		{"turned 30 degrees: its sides, not its bounds, count", [4]pt{{0, 0}, {136, 78}, {26, 269}, {-110, 190}}, true},
	} {
		if got := fitsIn(tc.q, heap, 1.3); got != tc.want {
			t.Errorf("%s: fitsIn = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// The steadiest reading is of the card that most readings name (the surer card in a tie):
// the first reading when it names that card, else the surest that does.
func TestSteadiest(t *testing.T) {
	read := func(card string, conf float64) cardRead {
		if card == "" {
			return cardRead{}
		}
		return cardRead{rank: card[0], suit: card[1], conf: conf, corners: 1}
	}
	for _, tc := range []struct {
		name  string
		reads []cardRead
		best  int
		n     int
	}{
		{"nothing read", []cardRead{read("", 0), read("", 0), read("", 0)}, 0, 0},
		{"the first reading named by most", []cardRead{read("4H", 0.6), read("4H", 0.9), read("", 0), read("4H", 0.7), read("7H", 0.95)}, 0, 3},
		{"most name another card than the first reading",
			[]cardRead{read("8H", 0.8), read("AH", 0.6), read("AH", 0.7), read("AH", 0.65), read("", 0)}, 2, 3},
		{"the first reading found nothing", []cardRead{read("", 0), read("6S", 0.7), read("6S", 0.8), read("6S", 0.75), read("", 0)}, 2, 3},
		{"a tie goes to the surer card", []cardRead{read("", 0), read("KH", 0.6), read("KC", 0.9), read("KH", 0.6), read("KC", 0.8)}, 2, 2},
		{"readings too unsure to name a card", []cardRead{read("", 0), read("KH", 0.2), read("KH", 0.3), read("KH", 0.1), read("QH", 0.5)}, 4, 1},
	} {
		best, n := steadiest(tc.reads)
		if best != tc.best || n != tc.n {
			t.Errorf("%s: reading %d named by %d, want %d by %d", tc.name, best, n, tc.best, tc.n)
		}
	}
}

// A card outlined twice, alone and with a strip of what lies beside it, is given the outline
// whose pips count its rank.
func TestTighterOutline(t *testing.T) {
	quad := func(x0, y0, x1, y1 float64) quadCand {
		q := [4]pt{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}
		return quadCand{q: q, bounds: quadBounds(q)}
	}
	big, tight, beside := quad(106, 7, 269, 265), quad(143, 101, 263, 267), quad(300, 101, 420, 267)
	th := func(conf float64, pips int) *cardRead {
		return &cardRead{rank: 'T', suit: 'H', conf: conf, corners: 1, pips: pips}
	}
	for _, tc := range []struct {
		name  string
		cands []quadCand
		reads []*cardRead
		want  int
	}{
		{"the outline whose pips count the rank", []quadCand{big, tight}, []*cardRead{th(0.8, 0), th(0.95, 10)}, 1},
		{"the larger outline's pips count the rank already", []quadCand{big, tight}, []*cardRead{th(0.8, 10), th(0.95, 10)}, -1},
		{"pips that count another rank", []quadCand{big, tight}, []*cardRead{th(0.8, 0), th(0.95, 9)}, -1},
		{"another card", []quadCand{big, tight}, []*cardRead{th(0.8, 0), {rank: '9', suit: 'H', conf: 0.95, corners: 1, pips: 9}}, -1},
		{"a less sure reading", []quadCand{big, tight}, []*cardRead{th(0.8, 0), th(0.7, 10)}, -1},
		{"not inside", []quadCand{big, beside}, []*cardRead{th(0.8, 0), th(0.95, 10)}, -1},
		{"not read", []quadCand{big, tight}, []*cardRead{th(0.8, 0), nil}, -1},
	} {
		if got := tighterOutline(tc.cands, tc.reads, 0); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, got, tc.want)
		}
	}
}

// A card under others is boxed as far as it shows, the same whichever way the frame is
// turned.
func TestVisiblePart(t *testing.T) {
	r := image.Rect
	for _, tc := range []struct {
		name string
		b    image.Rectangle
		over []image.Rectangle
		want image.Rectangle
	}{
		{"nothing over it", r(0, 0, 100, 140), nil, r(0, 0, 100, 140)},
		{"a corner covered: whole", r(0, 0, 100, 140), []image.Rectangle{r(70, 100, 200, 300)}, r(0, 0, 100, 140)},
		{"its right part covered", r(0, 0, 100, 140), []image.Rectangle{r(40, -10, 200, 150)}, r(0, 0, 40, 140)},
		{"its top covered", r(0, 0, 100, 140), []image.Rectangle{r(-10, -10, 110, 90)}, r(0, 90, 100, 140)},
		{"all covered", r(0, 0, 100, 140), []image.Rectangle{r(-10, -10, 110, 150)}, image.Rectangle{}},
		// A card over its top-left, most of both ways: an L in view, whose arms are the
		// strip along the bottom (260x95) and the strip along the right (73x221).
		{"an L, the bottom arm larger", r(155, 135, 460, 356), []image.Rectangle{r(130, 88, 387, 261)}, r(155, 261, 460, 356)},
		// The same turned a quarter turn clockwise (x, y → 480-y, x).
		{"the L turned", r(124, 155, 345, 460), []image.Rectangle{r(219, 130, 392, 387)}, r(124, 155, 219, 460)},
	} {
		if got := visiblePart(tc.b, tc.over); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
