// Package dataset reads the labelled photograph sets the recognisers are built and measured
// on (see ../shared/data and docs/vision.md): YOLO polygon/box labels with a data.yaml class
// list (blackjack-v13), Pascal VOC XML with rank-only names (cards-edje-tf) and Darknet YOLO
// dice labels (dice-matteop65). It is pure Go.
package dataset

import (
	"bufio"
	"encoding/xml"
	"errors"
	"fmt"
	"image"
	_ "image/jpeg" // the sets are JPEG photographs
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/coupwatch/coupwatch/vision/observation"
)

// Truth is one labelled object of a photograph.
type Truth struct {
	// Label is a journal card label (QH, TD, XX), a rank alone for sets without suits
	// ("Q"), or a die face ("1" to "6").
	Label string
	Box   observation.Box
	// Rank is set when the set labels cards by rank only: Label is then the rank.
	Rank bool
}

// RankOnly reports whether the label names a card's rank without a suit.
func (t Truth) RankOnly() bool { return t.Rank }

// Sample is one photograph with its labels.
type Sample struct {
	Split  string // "dev" or "holdout"
	Path   string
	Width  int
	Height int
	Truth  []Truth
}

// Set is a named collection of samples.
type Set struct {
	Name    string
	Kind    string // "cards" or "dice"
	Samples []Sample
}

// ErrNoSet is returned when a set's folder does not exist.
var ErrNoSet = errors.New("data set not found")

// Load reads every split (dev, and holdout where present) of a known set under root (the
// shared data folder).
func Load(root, name string) (*Set, error) {
	dir := filepath.Join(root, name)
	if _, err := os.Stat(dir); err != nil {
		return nil, fmt.Errorf("loading %s: %w", dir, ErrNoSet)
	}
	switch name {
	case "blackjack-v13":
		return loadYOLOCards(dir, name)
	case "cards-edje-tf":
		return loadVOC(dir, name)
	case "dice-matteop65":
		return loadDice(dir, name)
	}
	return nil, fmt.Errorf("loading %s: unknown set %q", dir, name)
}

// Splits lists the splits present in a set folder ("dev", and "holdout" where it exists).
func Splits(dir string) []string {
	var out []string
	for _, s := range []string{"dev", "holdout"} {
		if st, err := os.Stat(filepath.Join(dir, s)); err == nil && st.IsDir() {
			out = append(out, s)
		}
	}
	return out
}

func imageSize(path string) (int, int, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	cfg, _, err := image.DecodeConfig(f)
	if err != nil {
		return 0, 0, fmt.Errorf("reading %s: %w", path, err)
	}
	return cfg.Width, cfg.Height, nil
}

// blackjackLabel maps a data.yaml class name to a journal label ("" for non-cards).
func blackjackLabel(name string) string {
	switch name {
	case "card back":
		return observation.FaceDown
	case "Joker":
		return "joker"
	}
	parts := strings.Split(name, " of ")
	if len(parts) != 2 {
		return ""
	}
	rank := map[string]string{"10": "T", "Ace": "A", "King": "K", "Queen": "Q", "Jack": "J"}[parts[0]]
	if rank == "" {
		rank = parts[0]
	}
	suit := map[string]string{"clubs": "C", "diamonds": "D", "hearts": "H", "spades": "S"}[parts[1]]
	if len(rank) != 1 || suit == "" {
		return ""
	}
	return rank + suit
}

func readClassNames(path string) ([]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "names:") {
			continue
		}
		v := strings.TrimSpace(strings.TrimPrefix(line, "names:"))
		v = strings.TrimSuffix(strings.TrimPrefix(v, "["), "]")
		var names []string
		for _, n := range strings.Split(v, ",") {
			names = append(names, strings.Trim(strings.TrimSpace(n), `'"`))
		}
		return names, nil
	}
	return nil, fmt.Errorf("%s: no names list", path)
}

func loadYOLOCards(dir, name string) (*Set, error) {
	names, err := readClassNames(filepath.Join(dir, "data.yaml"))
	if err != nil {
		return nil, fmt.Errorf("loading %s: %w", name, err)
	}
	set := &Set{Name: name, Kind: "cards"}
	for _, split := range Splits(dir) {
		imgs, _ := filepath.Glob(filepath.Join(dir, split, "images", "*"))
		sort.Strings(imgs)
		for _, img := range imgs {
			w, h, err := imageSize(img)
			if err != nil {
				return nil, err
			}
			base := strings.TrimSuffix(filepath.Base(img), filepath.Ext(img))
			rows, err := readYOLO(filepath.Join(dir, split, "labels", base+".txt"), w, h)
			if err != nil {
				return nil, err
			}
			s := Sample{Split: split, Path: img, Width: w, Height: h}
			for _, r := range rows {
				if r.cls < 0 || r.cls >= len(names) {
					return nil, fmt.Errorf("%s: class %d out of range", img, r.cls)
				}
				l := blackjackLabel(names[r.cls])
				if l == "" {
					continue // chips
				}
				s.Truth = append(s.Truth, Truth{Label: l, Box: r.box})
			}
			s.Truth = dedupeTruth(s.Truth)
			set.Samples = append(set.Samples, s)
		}
	}
	return set, nil
}

// dedupeTruth drops a label repeated on the same object (some blackjack-v13 images label
// every card twice with nearly the same polygon).
func dedupeTruth(ts []Truth) []Truth {
	var out []Truth
	for _, t := range ts {
		dup := false
		for _, o := range out {
			if o.Label == t.Label && o.Box.IoU(t.Box) > 0.7 {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, t)
		}
	}
	return out
}

type yoloRow struct {
	cls int
	box observation.Box
}

// readYOLO reads 'cls cx cy w h' boxes and 'cls x1 y1 x2 y2 ...' polygons, normalised to
// the image size, as pixel boxes.
func readYOLO(path string, w, h int) ([]yoloRow, error) {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	defer f.Close()
	var out []yoloRow
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		fs := strings.Fields(sc.Text())
		if len(fs) == 0 {
			continue
		}
		cls, err := strconv.Atoi(fs[0])
		if err != nil {
			return nil, fmt.Errorf("%s:%d: class: %w", path, line, err)
		}
		v := make([]float64, len(fs)-1)
		for i, s := range fs[1:] {
			if v[i], err = strconv.ParseFloat(s, 64); err != nil {
				return nil, fmt.Errorf("%s:%d: %w", path, line, err)
			}
		}
		var x0, y0, x1, y1 float64
		switch {
		case len(v) == 4:
			x0, y0, x1, y1 = v[0]-v[2]/2, v[1]-v[3]/2, v[0]+v[2]/2, v[1]+v[3]/2
		case len(v) >= 6 && len(v)%2 == 0:
			x0, y0, x1, y1 = math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
			for i := 0; i < len(v); i += 2 {
				x0, x1 = math.Min(x0, v[i]), math.Max(x1, v[i])
				y0, y1 = math.Min(y0, v[i+1]), math.Max(y1, v[i+1])
			}
		default:
			return nil, fmt.Errorf("%s:%d: %d numbers, want 4 or an even number of at least 6", path, line, len(v))
		}
		x0, y0 = math.Max(0, x0), math.Max(0, y0)
		x1, y1 = math.Min(1, x1), math.Min(1, y1)
		bx := observation.Box{X: int(math.Round(x0 * float64(w))), Y: int(math.Round(y0 * float64(h)))}
		bx.W = int(math.Round(x1*float64(w))) - bx.X
		bx.H = int(math.Round(y1*float64(h))) - bx.Y
		out = append(out, yoloRow{cls: cls, box: bx})
	}
	return out, sc.Err()
}

type vocAnnotation struct {
	Size struct {
		Width  int `xml:"width"`
		Height int `xml:"height"`
	} `xml:"size"`
	Objects []struct {
		Name string `xml:"name"`
		Box  struct {
			XMin float64 `xml:"xmin"`
			YMin float64 `xml:"ymin"`
			XMax float64 `xml:"xmax"`
			YMax float64 `xml:"ymax"`
		} `xml:"bndbox"`
	} `xml:"object"`
}

var vocRanks = map[string]string{
	"ace": "A", "king": "K", "queen": "Q", "jack": "J", "ten": "T", "nine": "9",
	"eight": "8", "seven": "7", "six": "6", "five": "5", "four": "4", "three": "3", "two": "2",
}

func loadVOC(dir, name string) (*Set, error) {
	set := &Set{Name: name, Kind: "cards"}
	for _, split := range Splits(dir) {
		xmls, _ := filepath.Glob(filepath.Join(dir, split, "*.xml"))
		sort.Strings(xmls)
		for _, x := range xmls {
			b, err := os.ReadFile(x)
			if err != nil {
				return nil, err
			}
			var a vocAnnotation
			if err := xml.Unmarshal(b, &a); err != nil {
				return nil, fmt.Errorf("reading %s: %w", x, err)
			}
			base := strings.TrimSuffix(x, ".xml")
			img := ""
			for _, ext := range []string{".JPG", ".jpg", ".jpeg", ".png"} {
				if _, err := os.Stat(base + ext); err == nil {
					img = base + ext
					break
				}
			}
			if img == "" {
				return nil, fmt.Errorf("%s: no image beside it", x)
			}
			s := Sample{Split: split, Path: img, Width: a.Size.Width, Height: a.Size.Height}
			for _, o := range a.Objects {
				r, ok := vocRanks[strings.ToLower(strings.TrimSpace(o.Name))]
				if !ok {
					return nil, fmt.Errorf("%s: unknown name %q", x, o.Name)
				}
				bx := observation.Box{X: int(o.Box.XMin), Y: int(o.Box.YMin)}
				bx.W, bx.H = int(o.Box.XMax)-bx.X, int(o.Box.YMax)-bx.Y
				s.Truth = append(s.Truth, Truth{Label: r, Box: bx, Rank: true})
			}
			set.Samples = append(set.Samples, s)
		}
	}
	return set, nil
}

func loadDice(dir, name string) (*Set, error) {
	set := &Set{Name: name, Kind: "dice"}
	for _, split := range Splits(dir) {
		imgs, _ := filepath.Glob(filepath.Join(dir, split, "*.jpg"))
		sort.Strings(imgs)
		for _, img := range imgs {
			w, h, err := imageSize(img)
			if err != nil {
				return nil, err
			}
			rows, err := readYOLO(strings.TrimSuffix(img, ".jpg")+".txt", w, h)
			if err != nil {
				return nil, err
			}
			s := Sample{Split: split, Path: img, Width: w, Height: h}
			for _, r := range rows {
				if r.cls < 0 || r.cls > 5 {
					return nil, fmt.Errorf("%s: dice class %d out of range", img, r.cls)
				}
				s.Truth = append(s.Truth, Truth{Label: observation.DieLabel(r.cls + 1), Box: r.box})
			}
			set.Samples = append(set.Samples, s)
		}
	}
	return set, nil
}
