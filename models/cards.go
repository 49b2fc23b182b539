package models

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
)

//go:embed cards
var embedded embed.FS

// Card model files, relative to the models folder.
const (
	CardRankFile     = "cards/rank.bin"
	CardRankManifest = "cards/rank.json"
	CardSuitFile     = "cards/suit.bin"
	CardSuitManifest = "cards/suit.json"
)

// Reject is the class a glyph classifier gives to ink that is no index glyph.
const Reject = "none"

// ErrNotBuilt is returned when a model file is missing: run `make models`.
var ErrNotBuilt = errors.New("model not built (run `make models`)")

// CardModels are the two index glyph classifiers of the card recogniser.
type CardModels struct {
	Rank, Suit                 *Ensemble
	RankManifest, SuitManifest Manifest
}

// LoadCards loads the card models embedded in the binary and verifies them.
func LoadCards() (*CardModels, error) {
	return LoadCardsFS(embedded)
}

// LoadCardsFS loads the card models from fsys (laid out like the models folder) and
// verifies each file against its manifest.
func LoadCardsFS(fsys fs.FS) (*CardModels, error) {
	rank, rm, err := loadMLP(fsys, CardRankFile, CardRankManifest)
	if err != nil {
		return nil, err
	}
	suit, sm, err := loadMLP(fsys, CardSuitFile, CardSuitManifest)
	if err != nil {
		return nil, err
	}
	return &CardModels{Rank: rank, Suit: suit, RankManifest: rm, SuitManifest: sm}, nil
}

func loadMLP(fsys fs.FS, file, manifest string) (*Ensemble, Manifest, error) {
	mb, err := fs.ReadFile(fsys, manifest)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, Manifest{}, fmt.Errorf("loading %s: %w", manifest, ErrNotBuilt)
		}
		return nil, Manifest{}, fmt.Errorf("loading %s: %w", manifest, err)
	}
	data, err := fs.ReadFile(fsys, file)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, Manifest{}, fmt.Errorf("loading %s: %w", file, ErrNotBuilt)
		}
		return nil, Manifest{}, fmt.Errorf("loading %s: %w", file, err)
	}
	m, err := ParseManifest(mb, data)
	if err != nil {
		return nil, m, fmt.Errorf("loading %s: %w", file, err)
	}
	if m.File != path.Base(file) {
		return nil, m, fmt.Errorf("loading %s: manifest describes %q", file, m.File)
	}
	var net Ensemble
	if err := net.UnmarshalBinary(data); err != nil {
		return nil, m, fmt.Errorf("loading %s: %w", file, err)
	}
	if net.Outputs() != len(m.Classes) {
		return nil, m, fmt.Errorf("loading %s: %d outputs for %d classes", file, net.Outputs(), len(m.Classes))
	}
	if m.Input.Size != net.Inputs() {
		return nil, m, fmt.Errorf("loading %s: %d inputs, manifest says %d", file, net.Inputs(), m.Input.Size)
	}
	return &net, m, nil
}
