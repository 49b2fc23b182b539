package dataset_test

import (
	"errors"
	"image"
	"image/jpeg"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/coupwatch/coupwatch/vision/dataset"
	"github.com/coupwatch/coupwatch/vision/observation"
)

func writeJPEG(t *testing.T, path string, w, h int) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := jpeg.Encode(f, image.NewGray(image.Rect(0, 0, w, h)), nil); err != nil {
		t.Fatal(err)
	}
}

func write(t *testing.T, path, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// The three label formats, in miniature, in a temporary shared/data folder.
func TestLoadFormats(t *testing.T) {
	root := t.TempDir()
	bj := filepath.Join(root, "blackjack-v13")
	write(t, filepath.Join(bj, "data.yaml"), "nc: 3\nnames: ['10 of clubs', 'Queen of hearts', 'card back']\n")
	writeJPEG(t, filepath.Join(bj, "dev", "images", "a.jpg"), 100, 50)
	// A polygon, its near duplicate, a box, and a card back.
	write(t, filepath.Join(bj, "dev", "labels", "a.txt"),
		"0 0.1 0.1 0.5 0.1 0.5 0.5 0.1 0.5\n0 0.1 0.1 0.5 0.11 0.5 0.5 0.1 0.5\n1 0.75 0.5 0.2 0.4\n2 0.5 0.9 0.1 0.1\n")
	ed := filepath.Join(root, "cards-edje-tf")
	writeJPEG(t, filepath.Join(ed, "dev", "x.JPG"), 60, 40)
	write(t, filepath.Join(ed, "dev", "x.xml"), `<annotation><size><width>60</width><height>40</height></size>
<object><name>queen</name><bndbox><xmin>5</xmin><ymin>6</ymin><xmax>25</xmax><ymax>36</ymax></bndbox></object></annotation>`)
	dc := filepath.Join(root, "dice-matteop65")
	writeJPEG(t, filepath.Join(dc, "dev", "d.jpg"), 200, 100)
	write(t, filepath.Join(dc, "dev", "d.txt"), "4 0.5 0.5 0.1 0.2\n")
	writeJPEG(t, filepath.Join(dc, "holdout", "h.jpg"), 200, 100)
	write(t, filepath.Join(dc, "holdout", "h.txt"), "0 0.25 0.25 0.1 0.1\n")

	for _, tc := range []struct {
		set   string
		truth [][]dataset.Truth
		split []string
	}{
		{"blackjack-v13", [][]dataset.Truth{{
			{Label: "TC", Box: observation.Box{X: 10, Y: 5, W: 40, H: 20}},
			{Label: "QH", Box: observation.Box{X: 65, Y: 15, W: 20, H: 20}},
			{Label: "XX", Box: observation.Box{X: 45, Y: 43, W: 10, H: 5}},
		}}, []string{"dev"}},
		{"cards-edje-tf", [][]dataset.Truth{{{Label: "Q", Box: observation.Box{X: 5, Y: 6, W: 20, H: 30}, Rank: true}}}, []string{"dev"}},
		{"dice-matteop65", [][]dataset.Truth{
			{{Label: "5", Box: observation.Box{X: 90, Y: 40, W: 20, H: 20}}},
			{{Label: "1", Box: observation.Box{X: 40, Y: 20, W: 20, H: 10}}},
		}, []string{"dev", "holdout"}},
	} {
		s, err := dataset.Load(root, tc.set)
		if err != nil {
			t.Fatalf("%s: %v", tc.set, err)
		}
		if len(s.Samples) != len(tc.truth) {
			t.Fatalf("%s: %d samples", tc.set, len(s.Samples))
		}
		for i, smp := range s.Samples {
			if !reflect.DeepEqual(smp.Truth, tc.truth[i]) {
				t.Errorf("%s sample %d: %+v, want %+v", tc.set, i, smp.Truth, tc.truth[i])
			}
			if smp.Split != tc.split[i] {
				t.Errorf("%s sample %d: split %s", tc.set, i, smp.Split)
			}
		}
	}
	if _, err := dataset.Load(root, "chip-stacks"); err == nil {
		t.Error("unknown set accepted")
	}
	if _, err := dataset.Load(t.TempDir(), "blackjack-v13"); !errors.Is(err, dataset.ErrNoSet) {
		t.Errorf("missing set: %v", err)
	}
}

func TestBadLabels(t *testing.T) {
	root := t.TempDir()
	dc := filepath.Join(root, "dice-matteop65")
	writeJPEG(t, filepath.Join(dc, "dev", "d.jpg"), 20, 10)
	for _, bad := range []string{"9 0.5 0.5 0.1 0.1\n", "x 0.5 0.5 0.1 0.1\n", "1 0.5 0.5 0.1\n"} {
		write(t, filepath.Join(dc, "dev", "d.txt"), bad)
		if _, err := dataset.Load(root, "dice-matteop65"); err == nil {
			t.Errorf("label %q accepted", bad)
		}
	}
}
