package models

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
)

// MLP is a small fully connected classifier: ReLU hidden layers and a softmax output. It is
// what the card recogniser uses to read index glyphs; inference is pure Go and allocation
// free with a reused Scratch.
type MLP struct {
	Layers []Dense
}

// Dense is one fully connected layer; W is Out rows of In weights.
type Dense struct {
	In, Out int
	W, B    []float32
}

// Scratch holds the activations of one forward pass so that callers can reuse them.
type Scratch struct {
	acts [][]float32
}

// NewMLP makes a network with the given layer sizes (input first, classes last) and
// He-initialised weights.
func NewMLP(sizes []int, rng *rand.Rand) *MLP {
	m := &MLP{}
	for i := 0; i+1 < len(sizes); i++ {
		d := Dense{In: sizes[i], Out: sizes[i+1], W: make([]float32, sizes[i]*sizes[i+1]), B: make([]float32, sizes[i+1])}
		s := math.Sqrt(2 / float64(d.In))
		for k := range d.W {
			d.W[k] = float32(rng.NormFloat64() * s)
		}
		m.Layers = append(m.Layers, d)
	}
	return m
}

// Inputs is the length of the feature vector the network reads.
func (m *MLP) Inputs() int { return m.Layers[0].In }

// Outputs is the number of classes.
func (m *MLP) Outputs() int { return m.Layers[len(m.Layers)-1].Out }

// Predict returns the class probabilities for x. The returned slice belongs to s.
func (m *MLP) Predict(x []float32, s *Scratch) []float32 {
	if len(s.acts) != len(m.Layers) {
		s.acts = make([][]float32, len(m.Layers))
		for i, l := range m.Layers {
			s.acts[i] = make([]float32, l.Out)
		}
	}
	in := x
	for li, l := range m.Layers {
		out := s.acts[li]
		for o := 0; o < l.Out; o++ {
			sum := l.B[o] + dot(l.W[o*l.In:(o+1)*l.In], in)
			if li < len(m.Layers)-1 && sum < 0 {
				sum = 0
			}
			out[o] = sum
		}
		in = out
	}
	softmax(in)
	return in
}

// dot is the dot product of w and x (len(w) >= len(x)), four products at a time.
func dot(w, x []float32) float32 {
	w = w[:len(x)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(x); i += 4 {
		s0 += w[i] * x[i]
		s1 += w[i+1] * x[i+1]
		s2 += w[i+2] * x[i+2]
		s3 += w[i+3] * x[i+3]
	}
	for ; i < len(x); i++ {
		s0 += w[i] * x[i]
	}
	return (s0 + s1) + (s2 + s3)
}

func softmax(v []float32) {
	mx := v[0]
	for _, x := range v {
		mx = max(mx, x)
	}
	sum := float32(0)
	for i, x := range v {
		e := float32(math.Exp(float64(x - mx)))
		v[i] = e
		sum += e
	}
	for i := range v {
		v[i] /= sum
	}
}

const mlpMagic = "CWMLP\x01"

// MarshalBinary writes the network as: magic, layer count, then per layer In, Out, weights
// and biases, all little-endian.
func (m *MLP) MarshalBinary() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(mlpMagic)
	_ = binary.Write(&b, binary.LittleEndian, uint32(len(m.Layers)))
	for _, l := range m.Layers {
		_ = binary.Write(&b, binary.LittleEndian, [2]uint32{uint32(l.In), uint32(l.Out)})
		_ = binary.Write(&b, binary.LittleEndian, l.W)
		_ = binary.Write(&b, binary.LittleEndian, l.B)
	}
	return b.Bytes(), nil
}

// UnmarshalBinary reads what MarshalBinary wrote and checks the layer shapes chain.
func (m *MLP) UnmarshalBinary(data []byte) error {
	r := bytes.NewReader(data)
	magic := make([]byte, len(mlpMagic))
	if _, err := io.ReadFull(r, magic); err != nil || string(magic) != mlpMagic {
		return errors.New("mlp: not a coupwatch MLP file")
	}
	var n uint32
	if err := binary.Read(r, binary.LittleEndian, &n); err != nil {
		return fmt.Errorf("mlp: %w", err)
	}
	if n == 0 || n > 16 {
		return fmt.Errorf("mlp: %d layers", n)
	}
	m.Layers = nil
	for i := uint32(0); i < n; i++ {
		var sz [2]uint32
		if err := binary.Read(r, binary.LittleEndian, &sz); err != nil {
			return fmt.Errorf("mlp: layer %d: %w", i, err)
		}
		if sz[0] == 0 || sz[1] == 0 || sz[0]*sz[1] > 1<<22 {
			return fmt.Errorf("mlp: layer %d: bad shape %dx%d", i, sz[0], sz[1])
		}
		if len(m.Layers) > 0 && m.Layers[len(m.Layers)-1].Out != int(sz[0]) {
			return fmt.Errorf("mlp: layer %d: input %d does not follow output %d", i, sz[0], m.Layers[len(m.Layers)-1].Out)
		}
		d := Dense{In: int(sz[0]), Out: int(sz[1]), W: make([]float32, sz[0]*sz[1]), B: make([]float32, sz[1])}
		if err := binary.Read(r, binary.LittleEndian, d.W); err != nil {
			return fmt.Errorf("mlp: layer %d weights: %w", i, err)
		}
		if err := binary.Read(r, binary.LittleEndian, d.B); err != nil {
			return fmt.Errorf("mlp: layer %d biases: %w", i, err)
		}
		m.Layers = append(m.Layers, d)
	}
	if r.Len() != 0 {
		return fmt.Errorf("mlp: %d trailing bytes", r.Len())
	}
	return nil
}

// TrainOptions tunes Train.
type TrainOptions struct {
	Epochs      int
	BatchSize   int
	LearnRate   float64
	WeightDecay float64
	// Weights per class, to balance rare classes (nil: all 1).
	ClassWeights []float64
}

// Train fits the network to the samples by mini-batch Adam on the cross-entropy. It is
// deterministic for a given rng.
func (m *MLP) Train(xs [][]float32, ys []int, opt TrainOptions, rng *rand.Rand) {
	type moments struct{ mw, vw, mb, vb []float64 }
	mom := make([]moments, len(m.Layers))
	grads := make([]moments, len(m.Layers)) // reuse mw as grad W, mb as grad B
	for i, l := range m.Layers {
		mom[i] = moments{make([]float64, len(l.W)), make([]float64, len(l.W)), make([]float64, len(l.B)), make([]float64, len(l.B))}
		grads[i] = moments{mw: make([]float64, len(l.W)), mb: make([]float64, len(l.B))}
	}
	acts := make([][]float64, len(m.Layers)+1)
	deltas := make([][]float64, len(m.Layers))
	for i, l := range m.Layers {
		acts[i+1] = make([]float64, l.Out)
		deltas[i] = make([]float64, l.Out)
	}
	acts[0] = make([]float64, m.Inputs())
	idx := make([]int, len(xs))
	for i := range idx {
		idx[i] = i
	}
	const b1, b2, eps = 0.9, 0.999, 1e-8
	step := 0
	for ep := 0; ep < opt.Epochs; ep++ {
		rng.Shuffle(len(idx), func(i, j int) { idx[i], idx[j] = idx[j], idx[i] })
		lr := opt.LearnRate * 0.5 * (1 + math.Cos(math.Pi*float64(ep)/float64(opt.Epochs)))
		for start := 0; start < len(idx); start += opt.BatchSize {
			end := min(start+opt.BatchSize, len(idx))
			for i := range grads {
				clear(grads[i].mw)
				clear(grads[i].mb)
			}
			for _, k := range idx[start:end] {
				for i, v := range xs[k] {
					acts[0][i] = float64(v)
				}
				// forward
				for li, l := range m.Layers {
					in, out := acts[li], acts[li+1]
					for o := 0; o < l.Out; o++ {
						w := l.W[o*l.In : (o+1)*l.In]
						s := float64(l.B[o])
						for i, v := range in {
							s += float64(w[i]) * v
						}
						if li < len(m.Layers)-1 && s < 0 {
							s = 0
						}
						out[o] = s
					}
				}
				last := acts[len(m.Layers)]
				mx := last[0]
				for _, v := range last {
					mx = math.Max(mx, v)
				}
				sum := 0.0
				for i, v := range last {
					last[i] = math.Exp(v - mx)
					sum += last[i]
				}
				cw := 1.0
				if opt.ClassWeights != nil {
					cw = opt.ClassWeights[ys[k]]
				}
				d := deltas[len(m.Layers)-1]
				for i := range last {
					p := last[i] / sum
					t := 0.0
					if i == ys[k] {
						t = 1
					}
					d[i] = (p - t) * cw
				}
				// backward
				for li := len(m.Layers) - 1; li >= 0; li-- {
					l := m.Layers[li]
					in := acts[li]
					d := deltas[li]
					g := grads[li]
					for o := 0; o < l.Out; o++ {
						if d[o] == 0 {
							continue
						}
						row := g.mw[o*l.In : (o+1)*l.In]
						for i, v := range in {
							row[i] += d[o] * v
						}
						g.mb[o] += d[o]
					}
					if li > 0 {
						pd := deltas[li-1]
						for i := range pd {
							pd[i] = 0
						}
						for o := 0; o < l.Out; o++ {
							if d[o] == 0 {
								continue
							}
							w := l.W[o*l.In : (o+1)*l.In]
							for i := range pd {
								pd[i] += d[o] * float64(w[i])
							}
						}
						for i := range pd {
							if in[i] <= 0 {
								pd[i] = 0
							}
						}
					}
				}
			}
			step++
			n := float64(end - start)
			c1 := 1 - math.Pow(b1, float64(step))
			c2 := 1 - math.Pow(b2, float64(step))
			for li := range m.Layers {
				l := &m.Layers[li]
				g, mo := grads[li], mom[li]
				for i := range l.W {
					gr := g.mw[i]/n + opt.WeightDecay*float64(l.W[i])
					mo.mw[i] = b1*mo.mw[i] + (1-b1)*gr
					mo.vw[i] = b2*mo.vw[i] + (1-b2)*gr*gr
					l.W[i] -= float32(lr * (mo.mw[i] / c1) / (math.Sqrt(mo.vw[i]/c2) + eps))
				}
				for i := range l.B {
					gr := g.mb[i] / n
					mo.mb[i] = b1*mo.mb[i] + (1-b1)*gr
					mo.vb[i] = b2*mo.vb[i] + (1-b2)*gr*gr
					l.B[i] -= float32(lr * (mo.mb[i] / c1) / (math.Sqrt(mo.vb[i]/c2) + eps))
				}
			}
		}
	}
}
