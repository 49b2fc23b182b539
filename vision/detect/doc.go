// Package detect recognises what lies on the felt in one frame: playing cards (Cards: rank
// and suit read from the index corners, face-down cards, unknown when unsure) and dice
// (Dice: the top face counted from its pips, with single-frame faults). Both work on gocv
// Mats, keep their working buffers between frames (one recogniser per goroutine) and return
// observation.Objects with boxes in pixels of the frame. The card recogniser reads its two
// glyph classifiers from the models package; docs/vision.md describes the method and its
// measured accuracy.
package detect
