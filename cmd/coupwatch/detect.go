//go:build cgo

package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"gocv.io/x/gocv"

	"github.com/coupwatch/coupwatch/models"
	"github.com/coupwatch/coupwatch/vision/detect"
	"github.com/coupwatch/coupwatch/vision/observation"
)

// recogniser is what detect runs on each image.
type recogniser interface {
	Detect(gocv.Mat) ([]observation.Object, error)
	Close() error
}

// detectLine is one line of detect's output.
type detectLine struct {
	Image   string               `json:"image"`
	Objects []observation.Object `json:"objects"`
}

// runDetect implements `coupwatch detect --kind cards|dice [--annotate DIR] IMAGE...`: one JSON
// line per image with the objects recognised. An unreadable image is reported on stderr and
// skipped; the others are still processed and the exit status is 2. With --video (dice only)
// it follows the dice throws of a clip instead: see runDiceVideo.
func runDetect(e *env, args []string) int {
	fs := flag.NewFlagSet("detect", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	kind := fs.String("kind", "", "what to recognise: cards or dice")
	annotate := fs.String("annotate", "", "also write each image with its boxes and labels drawn into this folder")
	var tf throwFlags
	tf.register(fs)
	fs.Usage = func() {
		fmt.Fprintln(e.stderr, "usage: coupwatch detect --kind cards|dice [--annotate DIR] IMAGE...")
		fmt.Fprintln(e.stderr, "       coupwatch detect --kind dice --video CLIP [--far-wall X1,Y1,X2,Y2] [--wall-reach PX] [--table X,Y,W,H] [--tray X,Y,W,H]... [--rack X,Y,W,H]... [--dice N]")
		fs.PrintDefaults()
	}
	images, err := parseInterspersed(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	if err != nil {
		return exitInvalid
	}
	if tf.video != "" || tf.set(fs) {
		switch {
		case tf.video == "":
			fmt.Fprintln(e.stderr, "coupwatch detect: --far-wall, --wall-reach, --table, --tray, --rack and --dice need --video")
			return exitInvalid
		case *kind != "dice":
			fmt.Fprintln(e.stderr, "coupwatch detect: --video needs --kind dice (dice throws are the only thing followed through a clip)")
			return exitInvalid
		case len(images) > 0:
			fmt.Fprintf(e.stderr, "coupwatch detect: --video takes no image arguments, got %q\n", images)
			return exitInvalid
		case *annotate != "":
			fmt.Fprintln(e.stderr, "coupwatch detect: --annotate does not apply to --video")
			return exitInvalid
		}
		return runDiceVideo(e, tf)
	}
	if len(images) == 0 {
		fmt.Fprintln(e.stderr, "coupwatch detect: no image given")
		fs.Usage()
		return exitInvalid
	}
	var rec recogniser
	switch *kind {
	case "cards":
		m, err := models.LoadCards()
		if err != nil {
			fmt.Fprintf(e.stderr, "coupwatch detect: %v\n", err)
			return exitFailure
		}
		c, err := detect.NewCards(m)
		if err != nil {
			fmt.Fprintf(e.stderr, "coupwatch detect: %v\n", err)
			return exitFailure
		}
		rec = c
	case "dice":
		rec = detect.NewDice()
	case "":
		fmt.Fprintln(e.stderr, "coupwatch detect: --kind is required (cards or dice)")
		return exitInvalid
	default:
		fmt.Fprintf(e.stderr, "coupwatch detect: --kind must be cards or dice, got %q\n", *kind)
		return exitInvalid
	}
	defer rec.Close()
	if *annotate != "" {
		if err := os.MkdirAll(*annotate, 0o755); err != nil {
			fmt.Fprintf(e.stderr, "coupwatch detect: annotate folder: %v\n", err)
			return exitFailure
		}
	}
	enc := json.NewEncoder(e.stdout)
	status := exitOK
	written := map[string]int{}
	for _, path := range images {
		if err := e.ctx.Err(); err != nil {
			fmt.Fprintf(e.stderr, "coupwatch detect: interrupted: %v\n", err)
			return exitFailure
		}
		objs, st := detectOne(e, rec, path, *annotate, written)
		if st != exitOK {
			status = max(status, st)
			if objs == nil {
				continue
			}
		}
		if objs == nil {
			objs = []observation.Object{}
		}
		if err := enc.Encode(detectLine{Image: path, Objects: objs}); err != nil {
			fmt.Fprintf(e.stderr, "coupwatch detect: writing output: %v\n", err)
			return exitFailure
		}
	}
	return status
}

// detectOne reads, recognises and (optionally) annotates one image. A nil result means the
// image could not be read.
func detectOne(e *env, rec recogniser, path, annotate string, written map[string]int) ([]observation.Object, int) {
	data, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintf(e.stderr, "coupwatch detect: %s: %v\n", path, err)
		return nil, exitInvalid
	}
	img, err := gocv.IMDecode(data, gocv.IMReadColor)
	if err != nil || img.Empty() {
		if err == nil {
			img.Close()
		}
		fmt.Fprintf(e.stderr, "coupwatch detect: %s: not a readable image (corrupt, empty or an unsupported format)\n", path)
		return nil, exitInvalid
	}
	defer img.Close()
	objs, err := rec.Detect(img)
	if err != nil {
		fmt.Fprintf(e.stderr, "coupwatch detect: %s: %v\n", path, err)
		return nil, exitInvalid
	}
	if annotate == "" {
		return objs, exitOK
	}
	detect.Annotate(&img, objs)
	out := annotatedName(annotate, path, written)
	if !gocv.IMWrite(out, img) {
		fmt.Fprintf(e.stderr, "coupwatch detect: %s: could not write %s\n", path, out)
		return objs, exitFailure
	}
	return objs, exitOK
}

// annotatedName is where the annotated copy of path goes: the same base name as a PNG,
// numbered when two inputs share a name.
func annotatedName(dir, path string, written map[string]int) string {
	base := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	n := written[base]
	written[base] = n + 1
	if n > 0 {
		base = fmt.Sprintf("%s-%d", base, n+1)
	}
	return filepath.Join(dir, base+".png")
}

// parseInterspersed parses flags that may come before, between or after the positional
// arguments, and returns the positional ones. "--" ends the flags.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if len(args) > 0 && len(rest) < len(args) && args[len(args)-len(rest)-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}
