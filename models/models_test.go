package models_test

import (
	"errors"
	"math/rand/v2"
	"os"
	"testing"
	"testing/fstest"

	"github.com/coupwatch/coupwatch/models"
)

func TestMLPRoundTripAndLearns(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	// Two noisy clusters are easy: a fitted network must tell them apart.
	var xs [][]float32
	var ys []int
	for i := 0; i < 400; i++ {
		y := i % 2
		c := float32(y)*2 - 1
		xs = append(xs, []float32{c + float32(rng.NormFloat64())*0.3, -c + float32(rng.NormFloat64())*0.3, float32(rng.Float64())})
		ys = append(ys, y)
	}
	net := models.NewMLP([]int{3, 8, 2}, rng)
	net.Train(xs, ys, models.TrainOptions{Epochs: 20, BatchSize: 16, LearnRate: 0.01}, rng)
	var sc models.Scratch
	ok := 0
	for i, x := range xs {
		p := net.Predict(x, &sc)
		if (p[1] > p[0]) == (ys[i] == 1) {
			ok++
		}
		if s := p[0] + p[1]; s < 0.999 || s > 1.001 {
			t.Fatalf("probabilities sum to %v", s)
		}
	}
	if ok < 390 {
		t.Errorf("fitted network right on %d of 400", ok)
	}
	data, err := net.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var back models.MLP
	if err := back.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	var sc2 models.Scratch
	for _, x := range xs[:20] {
		a, b := net.Predict(x, &sc), back.Predict(x, &sc2)
		if a[0] != b[0] || a[1] != b[1] {
			t.Fatalf("round trip changed a prediction: %v vs %v", a, b)
		}
	}
	for _, bad := range [][]byte{nil, []byte("CWMLP\x01"), data[:len(data)-3], append(append([]byte(nil), data...), 0)} {
		var m models.MLP
		if err := m.UnmarshalBinary(bad); err == nil {
			t.Errorf("UnmarshalBinary accepted %d bytes of junk", len(bad))
		}
	}
}

func TestEmbeddedCardModelsVerify(t *testing.T) {
	m, err := models.LoadCards()
	if err != nil {
		t.Fatalf("LoadCards: %v", err)
	}
	if m.RankManifest.Name != "cards-rank" || m.SuitManifest.Name != "cards-suit" {
		t.Errorf("names %q %q", m.RankManifest.Name, m.SuitManifest.Name)
	}
	if len(m.RankManifest.Classes) != 14 || len(m.SuitManifest.Classes) != 4 {
		t.Errorf("classes %v / %v", m.RankManifest.Classes, m.SuitManifest.Classes)
	}
	if len(m.RankManifest.Sources) == 0 {
		t.Error("no sources credited in the manifest")
	}
}

func TestLoaderRefusesTamperedModels(t *testing.T) {
	read := func(name string) []byte {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	good := fstest.MapFS{}
	for _, f := range []string{models.CardRankFile, models.CardRankManifest, models.CardSuitFile, models.CardSuitManifest} {
		good[f] = &fstest.MapFile{Data: read(f)}
	}
	if _, err := models.LoadCardsFS(good); err != nil {
		t.Fatalf("untouched files: %v", err)
	}
	tampered := fstest.MapFS{}
	for k, v := range good {
		tampered[k] = &fstest.MapFile{Data: append([]byte(nil), v.Data...)}
	}
	tampered[models.CardRankFile].Data[100] ^= 0xff
	if _, err := models.LoadCardsFS(tampered); !errors.Is(err, models.ErrDigest) {
		t.Errorf("flipped byte: %v, want ErrDigest", err)
	}
	missing := fstest.MapFS{models.CardRankFile: good[models.CardRankFile]}
	if _, err := models.LoadCardsFS(missing); !errors.Is(err, models.ErrNotBuilt) {
		t.Errorf("missing manifest: %v, want ErrNotBuilt", err)
	}
}
