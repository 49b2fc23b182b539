// Package observation is the vocabulary shared by the recognisers and the tracker: what was
// seen in a frame (a labelled box with a confidence), the card and dice labels of the coup
// journal, and the dice faults. It is pure Go and builds with CGO_ENABLED=0.
package observation

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Box is an axis-aligned rectangle in pixels of the original image. It is written to JSON as
// [x, y, w, h].
type Box struct {
	X, Y, W, H int
}

// MarshalJSON writes the box as [x, y, w, h].
func (b Box) MarshalJSON() ([]byte, error) {
	return json.Marshal([4]int{b.X, b.Y, b.W, b.H})
}

// UnmarshalJSON reads [x, y, w, h].
func (b *Box) UnmarshalJSON(data []byte) error {
	var v [4]int
	if err := json.Unmarshal(data, &v); err != nil {
		return fmt.Errorf("box: %w", err)
	}
	*b = Box{X: v[0], Y: v[1], W: v[2], H: v[3]}
	return nil
}

// Area is the box's area in square pixels.
func (b Box) Area() int {
	if b.W <= 0 || b.H <= 0 {
		return 0
	}
	return b.W * b.H
}

// IoU is the intersection over union of two boxes (0 when either is empty).
func (b Box) IoU(o Box) float64 {
	x0, y0 := max(b.X, o.X), max(b.Y, o.Y)
	x1, y1 := min(b.X+b.W, o.X+o.W), min(b.Y+b.H, o.Y+o.H)
	if x1 <= x0 || y1 <= y0 {
		return 0
	}
	inter := float64((x1 - x0) * (y1 - y0))
	union := float64(b.Area()+o.Area()) - inter
	if union <= 0 {
		return 0
	}
	return inter / union
}

// Center is the box's centre.
func (b Box) Center() (x, y float64) {
	return float64(b.X) + float64(b.W)/2, float64(b.Y) + float64(b.H)/2
}

// Object is one thing recognised in a frame.
type Object struct {
	// Label is a card (QH, TD, XX, unknown) or a die face ("1" to "6").
	Label string `json:"label"`
	Box   Box    `json:"box"`
	// Conf is the recogniser's confidence in Label, 0 to 1.
	Conf float64 `json:"conf"`
	// Flags are per-object remarks such as the dice faults seen in a single frame
	// (cocked, stacked, on_chip).
	Flags []string `json:"flags,omitempty"`
}

// Card labels besides rank+suit.
const (
	// FaceDown is a card seen face down (the journal's XX).
	FaceDown = "XX"
	// Unknown is a face-up card whose rank or suit could not be read with confidence.
	Unknown = "unknown"
)

// Ranks lists the card ranks as the journal writes them, highest first.
const Ranks = "AKQJT98765432"

// Suits lists the card suits as the journal writes them.
const Suits = "SHDC"

// CardLabel is the journal label of a rank and suit, e.g. ('Q', 'H') → "QH".
func CardLabel(rank, suit byte) string {
	return string([]byte{rank, suit})
}

// ParseCard splits a card label into rank and suit. It accepts "10" for "T" like the journal
// readers do, and rejects anything that is not a face-up card.
func ParseCard(label string) (rank, suit byte, err error) {
	s := strings.ToUpper(strings.TrimSpace(label))
	if strings.HasPrefix(s, "10") {
		s = "T" + s[2:]
	}
	if len(s) != 2 || strings.IndexByte(Ranks, s[0]) < 0 || strings.IndexByte(Suits, s[1]) < 0 {
		return 0, 0, fmt.Errorf("card label %q: want a rank of %s and a suit of %s", label, Ranks, Suits)
	}
	return s[0], s[1], nil
}

// IsRed reports whether a suit is printed red (hearts and diamonds).
func IsRed(suit byte) bool { return suit == 'H' || suit == 'D' }

// DieLabel is the label of a die showing value pips on top.
func DieLabel(value int) string { return fmt.Sprintf("%d", value) }

// Dice faults, named as in the coup journal's dice event.
const (
	FaultNoWall        = "no_wall"
	FaultSlid          = "slid"
	FaultNotLengthwise = "not_lengthwise"
	FaultStacked       = "stacked"
	FaultCocked        = "cocked"
	FaultOnChip        = "on_chip"
	FaultInTray        = "in_tray"
	FaultInRack        = "in_rack"
	FaultOffTable      = "off_table"
	FaultHeld          = "held"
	FaultRubbed        = "rubbed"
	FaultBroken        = "broken"
	FaultMirror        = "mirror"
)
