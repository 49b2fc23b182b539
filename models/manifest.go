// Package models holds the recognition models of coupwatch and the code that loads them:
// each model file sits beside a manifest (name, version, sha256, classes, sources) and the
// loader refuses a file whose digest does not match its manifest. The models are embedded in
// the binary; `make models` (go run ./models/cmd/build-cards) rebuilds them from the
// labelled photographs in ../shared/data.
package models

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
)

// Manifest describes one model file.
type Manifest struct {
	Name    string   `json:"name"`
	Version string   `json:"version"`
	File    string   `json:"file"`
	SHA256  string   `json:"sha256"`
	Classes []string `json:"classes"`
	// Input says what the model reads, so a loader can check it was built for the same
	// feature extractor.
	Input       Input    `json:"input"`
	Description string   `json:"description"`
	Sources     []Source `json:"sources"`
	BuiltBy     string   `json:"built_by"`
	// Training records what the model was fitted on (sample counts per class, accuracy on
	// held-out samples), for people reading the manifest.
	Training map[string]any `json:"training,omitempty"`
}

// Input names the feature vector a model reads.
type Input struct {
	Features string `json:"features"`
	Size     int    `json:"size"`
}

// Source credits a data set a model was derived from.
type Source struct {
	Name    string `json:"name"`
	URL     string `json:"url"`
	Licence string `json:"licence"`
	Note    string `json:"note,omitempty"`
}

// ErrDigest is returned when a model file does not match its manifest.
var ErrDigest = errors.New("model file does not match its manifest's sha256")

// Digest is the hex sha256 of data.
func Digest(data []byte) string {
	s := sha256.Sum256(data)
	return hex.EncodeToString(s[:])
}

// ParseManifest reads a manifest and checks that data is the file it describes.
func ParseManifest(manifest, data []byte) (Manifest, error) {
	var m Manifest
	if err := json.Unmarshal(manifest, &m); err != nil {
		return m, fmt.Errorf("reading manifest: %w", err)
	}
	if m.Name == "" || m.Version == "" || len(m.Classes) == 0 {
		return m, fmt.Errorf("manifest %q: name, version and classes are required", m.Name)
	}
	if got := Digest(data); got != m.SHA256 {
		return m, fmt.Errorf("model %s %s: sha256 %s, manifest says %s: %w", m.Name, m.Version, got, m.SHA256, ErrDigest)
	}
	return m, nil
}
