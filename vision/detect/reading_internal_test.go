package detect

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"path/filepath"
	"testing"

	"gocv.io/x/gocv"

	"github.com/coupwatch/coupwatch/models"
	"github.com/coupwatch/coupwatch/vision/internal/sharedtest"
)

// Ranks and suits of the corner reads below; 0 is the classifiers' "no glyph" class.
var (
	testRanks = []byte{0, 'A', 'J', 'K', '6'}
	testSuits = []byte{0, 'S', 'H', 'D', 'C'}
)

// corner makes an index corner read: its rank and suit probabilities (the rest on "no
// glyph") and its index box.
func corner(rank byte, rp float32, suit byte, sp float32, index image.Rectangle) cornerRead {
	probs := func(labels []byte, l byte, p float32) []float32 {
		out := make([]float32, len(labels))
		out[0] = 1 - p
		for i, x := range labels {
			if x == l && i > 0 {
				out[i], out[0] = p, 1-p
			}
		}
		return out
	}
	return cornerRead{ok: true, rankP: probs(testRanks, rank, rp), suitP: probs(testSuits, suit, sp), index: index}
}

func TestCombineCorners(t *testing.T) {
	upright := image.Rect(9, 13, 23, 58)      // a J over a diamond
	thin := image.Rect(6, 23, 12, 73)         // an index squeezed to a sliver
	frame := image.Rect(148, 146, 153, 220)   // a picture's frame line cut as an index
	picture := image.Rect(146, 146, 167, 222) // a court card's picture cut as an index
	for _, tc := range []struct {
		name          string
		a, b          cornerRead
		rank, suit    byte
		corners       int
		minConf, maxC float64
	}{
		{
			name: "a clear index and its partner corner", a: corner('J', 0.98, 'D', 0.97, upright), b: corner('J', 0.95, 'D', 0.99, upright),
			rank: 'J', suit: 'D', corners: 2, minConf: 0.9, maxC: 1,
		},
		{
			// cards-edje-tf cam_image13: the lower index runs into the picture's frame.
			name: "a clear index beside a corner read as no rank", a: corner('J', 0.98, 'D', 0.97, upright), b: corner('6', 0.06, 'S', 0.98, frame),
			rank: 'J', suit: 'D', corners: 1, minConf: 0.75, maxC: 0.8,
		},
		{
			name: "a faint reading of the same rank seconds the index", a: corner('K', 0.63, 'H', 1, upright), b: corner('K', 0.19, 'H', 1, upright),
			rank: 'K', suit: 'H', corners: 2, minConf: 0.4, maxC: 0.42,
		},
		{
			// cards-edje-tf IMG_2603: three cards fanned, outlined as one quad.
			name: "a squeezed index does not outvote the far corner", a: corner('A', 0.95, 'S', 0.89, thin), b: corner('K', 0.0, 'D', 0.8, picture),
			rank: 0, corners: 0, maxC: 0.01, // the king's corner alone reads no rank: no card
		},
		{
			// cam_image13 again, under another model: the frame line reads as the rank.
			name: "a frame line read as the same rank gives no suit", a: corner('J', 0.79, 'D', 0.99, upright), b: corner('J', 0.30, 'S', 0.94, frame),
			rank: 'J', suit: 'D', corners: 1, minConf: 0.6, maxC: 0.65,
		},
		{
			// cards-edje-tf IMG_2455, under another model: the lower J ran into the
			// picture's frame and reads as an ace.
			name: "an index run into the picture frame, far wider than its partner", a: corner('J', 0.98, 'C', 1, image.Rect(7, 13, 27, 61)), b: corner('A', 0.85, 'C', 1, image.Rect(133, 190, 174, 239)),
			rank: 'J', suit: 'C', corners: 1, minConf: 0.75, maxC: 0.8,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var reads [2][numCorners]cornerRead
			reads[0][0], reads[0][2] = tc.a, tc.b
			r := combineCorners(&reads, testRanks, testSuits)
			if r.rank != tc.rank || (tc.suit != 0 && r.suit != tc.suit) || r.corners != tc.corners {
				t.Fatalf("read %c%c from %d corners, want %c%c from %d", r.rank, r.suit, r.corners, tc.rank, tc.suit, tc.corners)
			}
			if r.conf < tc.minConf || r.conf > tc.maxC {
				t.Errorf("confidence %.3f, want %.2f to %.2f", r.conf, tc.minConf, tc.maxC)
			}
		})
	}
}

func TestConflicting(t *testing.T) {
	jack := corner('J', 0.98, 'C', 1, image.Rect(7, 13, 27, 61))
	for _, tc := range []struct {
		name  string
		other cornerRead
		want  byte
	}{
		{"another card's index of the same size", corner('A', 0.85, 'C', 1, image.Rect(140, 190, 166, 239)), 'A'},
		{"an index run into a picture frame, twice as wide", corner('A', 0.85, 'C', 1, image.Rect(133, 190, 174, 239)), 0},
		{"an unsure reading", corner('A', 0.6, 'C', 1, image.Rect(140, 190, 166, 239)), 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var reads [2][numCorners]cornerRead
			reads[0][0], reads[0][2] = jack, tc.other
			best := cardRead{rank: 'J', suit: 'C', corners: 1}
			if got := conflicting(&reads, best, testRanks); got != tc.want {
				t.Errorf("conflicting = %q, want %q", got, tc.want)
			}
		})
	}
}

// shippedCards is a card reader with the shipped models.
func shippedCards(t testing.TB) *Cards {
	t.Helper()
	m, err := models.LoadCards()
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewCards(m)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// cards-edje-tf cam_image13: a jack of diamonds alone on wood. A glyph pair in the grain
// beside it, read as a king, looked for its outline and found the jack's.
func TestOutlineNearHoldsTheIndex(t *testing.T) {
	shared := sharedtest.Dir(t)
	c := shippedCards(t)
	defer c.Close()
	img := gocv.IMRead(filepath.Join(shared, "data", "cards-edje-tf", "dev", "cam_image13.jpg"), gocv.IMReadColor)
	defer img.Close()
	if img.Empty() {
		t.Fatal("cam_image13.jpg: cannot read")
	}
	jack := image.Rect(349, 142, 550, 388) // as labelled
	guess := [4]pt{{380, 150}, {580, 150}, {580, 390}, {380, 390}}
	q, ok := c.outlineNear(img, guess, pt{375, 175})
	if !ok {
		t.Fatal("the jack's outline was not found from its own index")
	}
	if v := rectIoU(quadBounds(q), jack); v < 0.8 {
		t.Errorf("outline %v, IoU %.2f with the jack %v", quadBounds(q), v, jack)
	}
	if q, ok := c.outlineNear(img, guess, pt{640, 275}); ok {
		t.Errorf("an index in the wood beside the jack took its outline %v", quadBounds(q))
	}
}

// Pips weighed against an unsure index, on a drawn card whose two index corners are given
// their readings.
func TestPipsAgainstAnUnsureIndex(t *testing.T) {
	c := shippedCards(t)
	defer c.Close()
	c.labels = make([]int32, canonW*canonH) // sized by the first corner read, which is skipped here
	fourLessOne := [][2]float64{{0.3, 0.2}, {0.7, 0.2}, {0.3, 0.8}}
	centre := [][2]float64{{0.5, 0.5}}
	for _, tc := range []struct {
		name   string
		pips   [][2]float64
		index  byte
		rankP  float32
		pipR   int // the pip's radius, in 1/14 of the card's width
		want   byte
		labels bool
	}{
		// blackjack-v13 IMG_3321's four of hearts with a pip lost, under a fold model: its
		// indexes ran into the corner ornaments.
		{"pips in no layout, the index reads no rank", fourLessOne, '9', 0.02, 1, '3', false},
		{"pips in no layout, the index reads a rank, unsure", fourLessOne, '9', 0.3, 1, '3', true},
		// IMG_3321's ace of hearts, small and blurred, its A read as an 8.
		{"a lone pip in the centre against an eight", centre, '8', 0.67, 3, 'A', true},
		{"a lone pip in the centre against a five", centre, '5', 0.67, 1, '5', true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			img := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(40, 110, 30, 0), 600, 500, gocv.MatTypeCV8UC3)
			defer img.Close()
			card := image.Rect(100, 80, 100+canonW*2, 80+canonH*2)
			gocv.Rectangle(&img, card, color.RGBA{245, 245, 245, 0}, -1)
			W, H := card.Dx(), card.Dy()
			for _, f := range tc.pips {
				at := image.Pt(card.Min.X+int(f[0]*float64(W)), card.Min.Y+int(f[1]*float64(H)))
				heart(&img, at, tc.pipR*W/14, color.RGBA{200, 20, 30, 0}, f[1] > 0.5)
			}
			q := [4]pt{{float64(card.Min.X), float64(card.Min.Y)}, {float64(card.Max.X), float64(card.Min.Y)},
				{float64(card.Max.X), float64(card.Max.Y)}, {float64(card.Min.X), float64(card.Max.Y)}}
			c.views[0].reset(img, q, false)
			c.views[1].reset(img, q, true)
			for o := range c.cornerReads {
				for k := range c.cornerReads[o] {
					c.cornerReads[o][k].ok = false
				}
			}
			for _, k := range []int{0, 2} {
				x := &c.cornerReads[0][k]
				x.ok, x.index = true, image.Rect(8, 10, 24, 56)
				clear(x.rankP)
				clear(x.suitP)
				for i, l := range c.rankLabels {
					switch l {
					case 0:
						x.rankP[i] = 1 - tc.rankP
					case tc.index:
						x.rankP[i] = tc.rankP
					}
				}
				for i, l := range c.suitLabels {
					if l == 'H' {
						x.suitP[i] = 1
					}
				}
			}
			r := c.checkPips(cardRead{rank: tc.index, suit: 'H', conf: float64(tc.rankP), corners: 2})
			if r.pips != len(tc.pips) {
				t.Fatalf("%d pips counted, want %d", r.pips, len(tc.pips))
			}
			if got := r.conf >= minCardConf; r.rank != tc.want || got != tc.labels {
				t.Errorf("%c%c at %.3f (labelled %v), want %c labelled %v", r.rank, r.suit, r.conf, got, tc.want, tc.labels)
			}
		})
	}
}

// heart draws a heart pip of radius r centred at c, upside down when down.
func heart(img *gocv.Mat, c image.Point, r int, col color.RGBA, down bool) {
	s := 1
	if down {
		s = -1
	}
	lobe := r / 2
	gocv.Circle(img, image.Pt(c.X-lobe, c.Y-s*lobe/2), lobe+1, col, -1)
	gocv.Circle(img, image.Pt(c.X+lobe, c.Y-s*lobe/2), lobe+1, col, -1)
	tri := gocv.NewPointsVectorFromPoints([][]image.Point{{
		{c.X - r, c.Y - s*lobe/3}, {c.X + r, c.Y - s*lobe/3}, {c.X, c.Y + s*r},
	}})
	defer tri.Close()
	gocv.FillPoly(img, tri, col)
}

// Cards of the labelled photographs that once were missed, each read as labelled:
//   - photographs taken closer, or at a higher resolution, show the cards larger: the
//     corner-first search must find them as it does at the size the sets were labelled at.
//     Enlarged twice, IMG_3162's seven of clubs lies on a light sheet that is then a light
//     region over maxRegionPixels, which was not searched, and the card was lost;
//   - IMG_3321's queen of hearts, a small court card whose Q and heart run into the frame
//     of its picture at every ink threshold (see frameLine).
func TestCardsOfPhotographs(t *testing.T) {
	shared := sharedtest.Dir(t)
	c := shippedCards(t)
	defer c.Close()
	for _, tc := range []struct {
		file  string // under data/
		scale int    // the photograph is enlarged this many times
		turn  int    // then turned this many quarter turns clockwise
		label string
		box   image.Rectangle // as labelled, moved as the photograph was
	}{
		{"blackjack-v13/dev/images/IMG_3162_jpeg.rf.5b8dfe6bb60160f4b7e9359444f36e9c.jpg", 2, 0, "7C", image.Rect(468, 480, 734, 686)},
		{"blackjack-v13/dev/images/IMG_3321_jpeg.rf.6ea0435f5699bf233136ab0355175b9b.jpg", 1, 0, "QH", image.Rect(210, 139, 317, 185)},
		// A small index that reads only where the warp samples it well (see readSteady).
		{"blackjack-v13/dev/images/IMG_3321_jpeg.rf.6ea0435f5699bf233136ab0355175b9b.jpg", 1, 1, "4H", image.Rect(291, 462, 355, 583)},
		// A card outlined alone and with a strip of carpet (see tighterOutline).
		{"cards-edje-tf/dev/IMG_2437.JPG", 1, 1, "TH", image.Rect(143, 101, 263, 266)},
		// A card under another, seen as an L, boxed by the larger arm (see visiblePart).
		{"cards-edje-tf/dev/IMG_2641.JPG", 1, 1, "AC", image.Rect(155, 261, 413, 356)},
	} {
		t.Run(fmt.Sprintf("%s×%d+%d°", tc.label, tc.scale, 90*tc.turn), func(t *testing.T) {
			img := gocv.IMRead(filepath.Join(shared, "data", filepath.FromSlash(tc.file)), gocv.IMReadColor)
			defer img.Close()
			if img.Empty() {
				t.Fatalf("%s: cannot read", tc.file)
			}
			if tc.scale != 1 {
				gocv.Resize(img, &img, image.Pt(tc.scale*img.Cols(), tc.scale*img.Rows()), 0, 0, gocv.InterpolationCubic)
			}
			for range tc.turn {
				gocv.Rotate(img, &img, gocv.Rotate90Clockwise)
			}
			objs, err := c.Detect(img)
			if err != nil {
				t.Fatal(err)
			}
			for _, o := range objs {
				b := image.Rect(o.Box.X, o.Box.Y, o.Box.X+o.Box.W, o.Box.Y+o.Box.H)
				if o.Label == tc.label && rectIoU(b, tc.box) >= 0.5 {
					return
				}
			}
			t.Errorf("no %s at %v among %v", tc.label, tc.box, objs)
		})
	}
}

// A region too large to search at full resolution is searched shrunk: the glyphs found
// there come back in frame pixels, and glyphs too small to tell at that scale are left
// out.
func TestBlobsInLargeRegion(t *testing.T) {
	s := newIndexSearch()
	defer s.Close()
	frame := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(235, 235, 235, 0), 1400, 1600, gocv.MatTypeCV8UC3)
	defer frame.Close()
	big := image.Rect(1001, 703, 1031, 743) // 30x40: a glyph of a large card
	small := image.Rect(300, 300, 304, 306) // 4x6: print too fine to read shrunk
	for _, r := range []image.Rectangle{big, small} {
		gocv.Rectangle(&frame, r, color.RGBA{20, 20, 20, 0}, -1)
	}
	all := image.Rect(0, 0, 1600, 1400)
	blobs := s.blobsIn(frame, all, 3, math.Inf(1), inkContrast)
	if len(blobs) != 1 {
		t.Fatalf("%d blobs, want the large glyph alone: %+v", len(blobs), blobs)
	}
	b := blobs[0]
	if d := b.c.dist(pt{1015.5, 722.5}); d > 1.5 {
		t.Errorf("centre %v, %.1f px from the glyph's", b.c, d)
	}
	if v := rectIoU(b.box, big); v < 0.8 {
		t.Errorf("box %v, IoU %.2f with the glyph %v", b.box, v, big)
	}
	if b.size < 36 || b.size > 44 {
		t.Errorf("size %.0f, want about 40", b.size)
	}
	// The same region, small enough, is searched at full size and keeps the fine print.
	part := image.Rect(200, 200, 800, 800)
	if n := len(s.blobsIn(frame, part, 3, math.Inf(1), inkContrast)); n != 1 {
		t.Errorf("%d blobs in a region searched at full size, want the fine print", n)
	}
}

// BenchmarkCardsLightCloth1080p reads a real photograph enlarged to a 1920x1080 frame:
// one card on a light sheet that fills most of the frame, the worst case of the corner-first
// search (a light region far over maxRegionPixels, searched shrunk). One core.
func BenchmarkCardsLightCloth1080p(b *testing.B) {
	shared := sharedtest.Dir(b)
	img := gocv.IMRead(filepath.Join(shared, "data", "blackjack-v13", "dev", "images",
		"IMG_3162_jpeg.rf.5b8dfe6bb60160f4b7e9359444f36e9c.jpg"), gocv.IMReadColor)
	defer img.Close()
	if img.Empty() {
		b.Fatal("IMG_3162: cannot read")
	}
	big := gocv.NewMat()
	defer big.Close()
	gocv.Resize(img, &big, image.Pt(1920, 1920), 0, 0, gocv.InterpolationCubic)
	frame := big.Region(image.Rect(0, 420, 1920, 1500))
	defer frame.Close()
	c := shippedCards(b)
	defer c.Close()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := c.Detect(frame); err != nil {
			b.Fatal(err)
		}
	}
}
