//go:build cgo

package main

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// The card models learn the index glyphs partly from glyphs drawn in real typefaces (the
// decks of the photographs are few). The outlines of the glyphs that matter (ranks, "10",
// suit symbols) are extracted once from TrueType fonts into a small JSON file kept in the
// repository (models/fonts), so that a rebuild needs no font installed and gives the same
// models everywhere. This file reads TrueType outlines (simple and composite glyphs of the
// 'glyf' table, 'cmap' format 4) and flattens their quadratic curves to polygons.

// glyphChars are the characters extracted from each face: ranks and the suit symbols
// (black and white forms).
var glyphChars = []rune("AKQJ1023456789\u2660\u2665\u2666\u2663\u2664\u2661\u2662\u2667")

// fontFace holds the outlines of one typeface: per character, its contours as flattened
// polygons (x, y pairs in font units, y up).
type fontFace struct {
	Name       string             `json:"name"`
	UnitsPerEm int                `json:"units_per_em"`
	Glyphs     map[string][][]int `json:"glyphs"`
}

// glyphFile is the extract written to models/fonts.
type glyphFile struct {
	Source  string     `json:"source"`
	Licence string     `json:"licence"`
	Note    string     `json:"note"`
	Faces   []fontFace `json:"faces"`
}

// extractGlyphs reads every .ttf file of dir and writes the outlines of glyphChars to out.
func extractGlyphs(dir, out string) error {
	files, err := filepath.Glob(filepath.Join(dir, "*.ttf"))
	if err != nil {
		return err
	}
	slices.Sort(files)
	gf := glyphFile{
		Source:  dir,
		Licence: "Bitstream Vera Fonts Copyright (c) 2003 by Bitstream, Inc. All Rights Reserved; DejaVu changes are in public domain (see LICENSE-fonts.txt beside this file)",
		Note:    "glyph outlines flattened to polygons by `build-cards -extract-glyphs`; used to draw training glyphs only",
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".ttf")
		if strings.Contains(name, "Math") || strings.Contains(name, "Mono") || strings.Contains(name, "ExtraLight") || strings.Contains(name, "Oblique") || strings.Contains(name, "Italic") {
			continue // slanted, hairline and monospaced faces (a slashed zero): the slant is drawn by the builder instead
		}
		b, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		t, err := parseTTF(b)
		if err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
		face := fontFace{Name: name, UnitsPerEm: t.unitsPerEm, Glyphs: map[string][][]int{}}
		for _, r := range glyphChars {
			gid := t.glyphIndex(r)
			if gid == 0 {
				continue
			}
			cs, err := t.outline(gid, 0)
			if err != nil {
				return fmt.Errorf("%s: %q: %w", f, r, err)
			}
			if len(cs) > 0 {
				face.Glyphs[string(r)] = cs
			}
		}
		gf.Faces = append(gf.Faces, face)
	}
	if len(gf.Faces) == 0 {
		return fmt.Errorf("no usable .ttf file in %s", dir)
	}
	b, err := json.Marshal(gf)
	if err != nil {
		return err
	}
	return os.WriteFile(out, append(b, '\n'), 0o644)
}

// loadGlyphs reads an extract written by extractGlyphs.
func loadGlyphs(path string) ([]fontFace, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading glyph outlines: %w", err)
	}
	var gf glyphFile
	if err := json.Unmarshal(b, &gf); err != nil {
		return nil, fmt.Errorf("reading glyph outlines %s: %w", path, err)
	}
	return gf.Faces, nil
}

type ttf struct {
	data       []byte
	tables     map[string][]byte
	unitsPerEm int
	longLoca   bool
	numGlyphs  int
}

var errTTF = errors.New("not a TrueType font this reader understands")

func parseTTF(b []byte) (*ttf, error) {
	if len(b) < 12 {
		return nil, errTTF
	}
	if v := binary.BigEndian.Uint32(b); v != 0x00010000 && v != 0x74727565 {
		return nil, errTTF
	}
	n := int(binary.BigEndian.Uint16(b[4:]))
	t := &ttf{data: b, tables: map[string][]byte{}}
	for i := 0; i < n; i++ {
		r := 12 + 16*i
		if r+16 > len(b) {
			return nil, errTTF
		}
		tag := string(b[r : r+4])
		off := int(binary.BigEndian.Uint32(b[r+8:]))
		l := int(binary.BigEndian.Uint32(b[r+12:]))
		if off < 0 || l < 0 || off+l > len(b) {
			return nil, fmt.Errorf("table %s out of range: %w", tag, errTTF)
		}
		t.tables[tag] = b[off : off+l]
	}
	for _, tag := range []string{"head", "maxp", "cmap", "loca", "glyf"} {
		if t.tables[tag] == nil {
			return nil, fmt.Errorf("no %s table: %w", tag, errTTF)
		}
	}
	head := t.tables["head"]
	if len(head) < 54 {
		return nil, errTTF
	}
	t.unitsPerEm = int(binary.BigEndian.Uint16(head[18:]))
	t.longLoca = binary.BigEndian.Uint16(head[50:]) == 1
	t.numGlyphs = int(binary.BigEndian.Uint16(t.tables["maxp"][4:]))
	return t, nil
}

// glyphIndex maps a character to its glyph through a Unicode BMP cmap subtable (format 4);
// 0 when the font has none.
func (t *ttf) glyphIndex(r rune) int {
	cm := t.tables["cmap"]
	if len(cm) < 4 || r > 0xFFFF {
		return 0
	}
	n := int(binary.BigEndian.Uint16(cm[2:]))
	for i := 0; i < n; i++ {
		rec := 4 + 8*i
		if rec+8 > len(cm) {
			return 0
		}
		pid, eid := binary.BigEndian.Uint16(cm[rec:]), binary.BigEndian.Uint16(cm[rec+2:])
		off := int(binary.BigEndian.Uint32(cm[rec+4:]))
		if !((pid == 3 && eid == 1) || pid == 0) || off+14 > len(cm) {
			continue
		}
		st := cm[off:]
		if binary.BigEndian.Uint16(st) != 4 {
			continue
		}
		segX2 := int(binary.BigEndian.Uint16(st[6:]))
		seg := segX2 / 2
		ends, starts := 14, 14+segX2+2
		deltas, ranges := starts+segX2, starts+2*segX2
		if ranges+segX2 > len(st) {
			continue
		}
		c := int(r)
		for s := 0; s < seg; s++ {
			end := int(binary.BigEndian.Uint16(st[ends+2*s:]))
			if end < c {
				continue
			}
			start := int(binary.BigEndian.Uint16(st[starts+2*s:]))
			if start > c {
				break
			}
			delta := int(binary.BigEndian.Uint16(st[deltas+2*s:]))
			ro := int(binary.BigEndian.Uint16(st[ranges+2*s:]))
			if ro == 0 {
				return (c + delta) & 0xFFFF
			}
			at := ranges + 2*s + ro + 2*(c-start)
			if at+2 > len(st) {
				return 0
			}
			g := int(binary.BigEndian.Uint16(st[at:]))
			if g == 0 {
				return 0
			}
			return (g + delta) & 0xFFFF
		}
	}
	return 0
}

func (t *ttf) glyphData(gid int) []byte {
	loca, glyf := t.tables["loca"], t.tables["glyf"]
	var a, b int
	if t.longLoca {
		if 4*gid+8 > len(loca) {
			return nil
		}
		a, b = int(binary.BigEndian.Uint32(loca[4*gid:])), int(binary.BigEndian.Uint32(loca[4*gid+4:]))
	} else {
		if 2*gid+4 > len(loca) {
			return nil
		}
		a, b = 2*int(binary.BigEndian.Uint16(loca[2*gid:])), 2*int(binary.BigEndian.Uint16(loca[2*gid+2:]))
	}
	if a >= b || b > len(glyf) {
		return nil
	}
	return glyf[a:b]
}

// outline returns the contours of a glyph, flattened, in font units.
func (t *ttf) outline(gid, depth int) ([][]int, error) {
	if gid <= 0 || gid >= t.numGlyphs || depth > 4 {
		return nil, nil
	}
	g := t.glyphData(gid)
	if len(g) < 10 {
		return nil, nil
	}
	nc := int(int16(binary.BigEndian.Uint16(g)))
	if nc < 0 {
		return t.composite(g[10:], depth)
	}
	p := 10
	if p+2*nc+2 > len(g) {
		return nil, errTTF
	}
	ends := make([]int, nc)
	for i := range ends {
		ends[i] = int(binary.BigEndian.Uint16(g[p+2*i:]))
	}
	p += 2 * nc
	if nc == 0 {
		return nil, nil
	}
	np := ends[nc-1] + 1
	il := int(binary.BigEndian.Uint16(g[p:]))
	p += 2 + il
	flags := make([]byte, 0, np)
	for len(flags) < np {
		if p >= len(g) {
			return nil, errTTF
		}
		f := g[p]
		p++
		flags = append(flags, f)
		if f&8 != 0 {
			if p >= len(g) {
				return nil, errTTF
			}
			rep := int(g[p])
			p++
			for k := 0; k < rep && len(flags) < np; k++ {
				flags = append(flags, f)
			}
		}
	}
	read := func(short, same byte) ([]int, error) {
		out := make([]int, np)
		v := 0
		for i, f := range flags {
			switch {
			case f&short != 0:
				if p >= len(g) {
					return nil, errTTF
				}
				d := int(g[p])
				p++
				if f&same == 0 {
					d = -d
				}
				v += d
			case f&same == 0:
				if p+2 > len(g) {
					return nil, errTTF
				}
				v += int(int16(binary.BigEndian.Uint16(g[p:])))
				p += 2
			}
			out[i] = v
		}
		return out, nil
	}
	xs, err := read(2, 16)
	if err != nil {
		return nil, err
	}
	ys, err := read(4, 32)
	if err != nil {
		return nil, err
	}
	var out [][]int
	start := 0
	for _, end := range ends {
		if end < start || end >= np {
			return nil, errTTF
		}
		out = append(out, flatten(xs[start:end+1], ys[start:end+1], flags[start:end+1]))
		start = end + 1
	}
	return out, nil
}

// composite assembles a glyph made of other glyphs, moved (and scaled) as recorded.
func (t *ttf) composite(g []byte, depth int) ([][]int, error) {
	var out [][]int
	p := 0
	for {
		if p+4 > len(g) {
			return nil, errTTF
		}
		fl := binary.BigEndian.Uint16(g[p:])
		gid := int(binary.BigEndian.Uint16(g[p+2:]))
		p += 4
		var dx, dy int
		if fl&1 != 0 {
			if p+4 > len(g) {
				return nil, errTTF
			}
			dx, dy = int(int16(binary.BigEndian.Uint16(g[p:]))), int(int16(binary.BigEndian.Uint16(g[p+2:])))
			p += 4
		} else {
			if p+2 > len(g) {
				return nil, errTTF
			}
			dx, dy = int(int8(g[p])), int(int8(g[p+1]))
			p += 2
		}
		if fl&2 == 0 {
			return nil, fmt.Errorf("composite glyph with point-matched parts: %w", errTTF)
		}
		a, b, c, d := 1.0, 0.0, 0.0, 1.0
		f2 := func(at int) float64 { return float64(int16(binary.BigEndian.Uint16(g[at:]))) / 16384 }
		switch {
		case fl&8 != 0:
			a, d = f2(p), f2(p)
			p += 2
		case fl&0x40 != 0:
			a, d = f2(p), f2(p+2)
			p += 4
		case fl&0x80 != 0:
			a, b, c, d = f2(p), f2(p+2), f2(p+4), f2(p+6)
			p += 8
		}
		cs, err := t.outline(gid, depth+1)
		if err != nil {
			return nil, err
		}
		for _, ct := range cs {
			m := make([]int, len(ct))
			for i := 0; i+1 < len(ct); i += 2 {
				x, y := float64(ct[i]), float64(ct[i+1])
				m[i] = int(a*x+c*y) + dx
				m[i+1] = int(b*x+d*y) + dy
			}
			out = append(out, m)
		}
		if fl&0x20 == 0 {
			return out, nil
		}
	}
}

// flatten turns one TrueType contour (on-curve and off-curve quadratic control points) into
// a polygon, each curve cut into a few straight pieces.
func flatten(xs, ys []int, flags []byte) []int {
	n := len(xs)
	type pt struct{ x, y float64 }
	on := func(i int) bool { return flags[i%n]&1 != 0 }
	at := func(i int) pt { return pt{float64(xs[i%n]), float64(ys[i%n])} }
	mid := func(a, b pt) pt { return pt{(a.x + b.x) / 2, (a.y + b.y) / 2} }
	// Start on an on-curve point (or between two off-curve ones).
	s := -1
	for i := 0; i < n; i++ {
		if on(i) {
			s = i
			break
		}
	}
	var start pt
	if s < 0 {
		start, s = mid(at(0), at(1)), 1
	} else {
		start = at(s)
	}
	var out []int
	emit := func(p pt) { out = append(out, int(p.x+0.5*sign(p.x)), int(p.y+0.5*sign(p.y))) }
	emit(start)
	cur := start
	const steps = 6
	for k := 1; k <= n; k++ {
		i := s + k
		if on(i) {
			if k < n || !(at(i) == start) {
				emit(at(i))
			}
			cur = at(i)
			continue
		}
		ctrl := at(i)
		var end pt
		if on(i+1) || k == n {
			end = at(i + 1)
			if k == n {
				end = start
			}
		} else {
			end = mid(ctrl, at(i+1))
		}
		for j := 1; j <= steps; j++ {
			u := float64(j) / steps
			a, b, c := (1-u)*(1-u), 2*u*(1-u), u*u
			emit(pt{a*cur.x + b*ctrl.x + c*end.x, a*cur.y + b*ctrl.y + c*end.y})
		}
		cur = end
		if on(i + 1) {
			k++ // the curve's end point is emitted already
		}
	}
	return out
}

func sign(v float64) float64 {
	if v < 0 {
		return -1
	}
	return 1
}
