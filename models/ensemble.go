package models

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
)

// Ensemble is a few networks trained alike from different starting points; it predicts the
// mean of their probabilities, which is steadier and less over-confident than any one of
// them on glyphs unlike the training ones.
type Ensemble struct {
	Nets []*MLP
}

// EnsembleScratch holds the buffers of an ensemble's forward pass.
type EnsembleScratch struct {
	nets []Scratch
	sum  []float32
}

// Inputs is the length of the feature vector the ensemble reads.
func (e *Ensemble) Inputs() int { return e.Nets[0].Inputs() }

// Outputs is the number of classes.
func (e *Ensemble) Outputs() int { return e.Nets[0].Outputs() }

// Predict returns the mean class probabilities for x. The slice belongs to s.
func (e *Ensemble) Predict(x []float32, s *EnsembleScratch) []float32 {
	if len(s.nets) != len(e.Nets) {
		s.nets = make([]Scratch, len(e.Nets))
		s.sum = make([]float32, e.Outputs())
	}
	clear(s.sum)
	for i, n := range e.Nets {
		for k, p := range n.Predict(x, &s.nets[i]) {
			s.sum[k] += p
		}
	}
	for k := range s.sum {
		s.sum[k] /= float32(len(e.Nets))
	}
	return s.sum
}

const ensembleMagic = "CWENS\x01"

// MarshalBinary writes the ensemble: magic, count, then each network's bytes with their
// length, little-endian.
func (e *Ensemble) MarshalBinary() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(ensembleMagic)
	_ = binary.Write(&b, binary.LittleEndian, uint32(len(e.Nets)))
	for _, n := range e.Nets {
		d, err := n.MarshalBinary()
		if err != nil {
			return nil, err
		}
		_ = binary.Write(&b, binary.LittleEndian, uint32(len(d)))
		b.Write(d)
	}
	return b.Bytes(), nil
}

// UnmarshalBinary reads an ensemble, or a single network as an ensemble of one. All members
// must have the same inputs and classes.
func (e *Ensemble) UnmarshalBinary(data []byte) error {
	if !bytes.HasPrefix(data, []byte(ensembleMagic)) {
		var m MLP
		if err := m.UnmarshalBinary(data); err != nil {
			return err
		}
		e.Nets = []*MLP{&m}
		return nil
	}
	r := bytes.NewReader(data[len(ensembleMagic):])
	var n uint32
	if err := binary.Read(r, binary.LittleEndian, &n); err != nil || n == 0 || n > 64 {
		return fmt.Errorf("ensemble: bad member count %d (%v)", n, err)
	}
	e.Nets = nil
	for i := uint32(0); i < n; i++ {
		var l uint32
		if err := binary.Read(r, binary.LittleEndian, &l); err != nil || int(l) > r.Len() {
			return fmt.Errorf("ensemble: member %d: truncated", i)
		}
		d := make([]byte, l)
		if _, err := r.Read(d); err != nil {
			return fmt.Errorf("ensemble: member %d: %w", i, err)
		}
		var m MLP
		if err := m.UnmarshalBinary(d); err != nil {
			return fmt.Errorf("ensemble: member %d: %w", i, err)
		}
		if len(e.Nets) > 0 && (m.Inputs() != e.Inputs() || m.Outputs() != e.Outputs()) {
			return errors.New("ensemble: members of different shapes")
		}
		e.Nets = append(e.Nets, &m)
	}
	if r.Len() != 0 {
		return fmt.Errorf("ensemble: %d trailing bytes", r.Len())
	}
	return nil
}
