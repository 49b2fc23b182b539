package capture

import (
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"gocv.io/x/gocv"
)

// ErrCorruptFrame is returned by a source for a frame it could not decode (a corrupt file in
// an image folder); the source is still usable.
var ErrCorruptFrame = errors.New("corrupt frame")

// source is one open connection to a camera, a stream, a file or a folder. It is used by one
// goroutine at a time.
type source interface {
	// read decodes the next frame into m and returns its position in the source's own clock.
	// It returns io.EOF after the last frame of a file or folder.
	read(m *gocv.Mat) (time.Duration, error)
	close()
	// live reports whether the source is a live camera or stream (reconnect when it ends)
	// rather than a recording (stop, or loop, when it ends).
	live() bool
}

// Kind names the sources capture understands.
type Kind string

// The kinds of source, chosen from the URL.
const (
	KindStream Kind = "stream" // rtsp://, http://, https:// (MJPEG or anything FFmpeg reads)
	KindDevice Kind = "device" // v4l2:///dev/video0, /dev/video0, v4l2:0
	KindFile   Kind = "file"   // file:///a/b.mp4 or a path to a video file
	KindFolder Kind = "folder" // dir:///a/b or a path to a folder of images
)

// Parse tells what kind of source a URL names and returns the address to open: the URL
// itself for streams, the device number for devices, the path for files and folders.
func Parse(raw string) (Kind, string, error) {
	if raw == "" {
		return "", "", errors.New("empty source URL")
	}
	if u, err := url.Parse(raw); err == nil && u.Scheme != "" && len(u.Scheme) > 1 {
		switch strings.ToLower(u.Scheme) {
		case "rtsp", "rtsps", "http", "https":
			return KindStream, raw, nil
		case "v4l2", "device":
			p := u.Path
			if p == "" {
				p = u.Opaque
			}
			return KindDevice, p, nil
		case "file":
			p := u.Path
			if st, err := os.Stat(p); err == nil && st.IsDir() {
				return KindFolder, p, nil
			}
			return KindFile, p, nil
		case "dir", "folder":
			return KindFolder, u.Path, nil
		default:
			return "", "", fmt.Errorf("source %q: unknown scheme %q (want rtsp, http, https, v4l2, file or dir)", raw, u.Scheme)
		}
	}
	if strings.HasPrefix(raw, "/dev/video") {
		return KindDevice, raw, nil
	}
	st, err := os.Stat(raw)
	if err != nil {
		return "", "", fmt.Errorf("source %q: %w", raw, err)
	}
	if st.IsDir() {
		return KindFolder, raw, nil
	}
	return KindFile, raw, nil
}

// open opens a source by URL.
func open(raw string) (source, error) {
	kind, addr, err := Parse(raw)
	if err != nil {
		return nil, err
	}
	switch kind {
	case KindStream:
		vc, err := gocv.OpenVideoCaptureWithAPI(addr, gocv.VideoCaptureFFmpeg)
		if err != nil {
			return nil, fmt.Errorf("opening stream %s: %w", raw, err)
		}
		if !vc.IsOpened() {
			vc.Close()
			return nil, fmt.Errorf("opening stream %s: not opened", raw)
		}
		return &videoSource{vc: vc, isLive: true}, nil
	case KindDevice:
		n, err := deviceNumber(addr)
		if err != nil {
			return nil, fmt.Errorf("opening camera %s: %w", raw, err)
		}
		vc, err := gocv.VideoCaptureDeviceWithAPI(n, gocv.VideoCaptureV4L2)
		if err != nil {
			return nil, fmt.Errorf("opening camera %s: %w", raw, err)
		}
		if !vc.IsOpened() {
			vc.Close()
			return nil, fmt.Errorf("opening camera %s: not opened", raw)
		}
		return &videoSource{vc: vc, isLive: true}, nil
	case KindFile:
		if _, err := os.Stat(addr); err != nil {
			return nil, fmt.Errorf("opening video %s: %w", raw, err)
		}
		vc, err := gocv.OpenVideoCaptureWithAPI(addr, gocv.VideoCaptureFFmpeg)
		if err != nil {
			return nil, fmt.Errorf("opening video %s: not a video FFmpeg can read: %w", raw, err)
		}
		if !vc.IsOpened() {
			vc.Close()
			return nil, fmt.Errorf("opening video %s: not a video FFmpeg can read", raw)
		}
		return &videoSource{vc: vc}, nil
	default:
		return openFolder(addr)
	}
}

// deviceNumber reads 0 from "/dev/video0", "video0" or "0".
func deviceNumber(addr string) (int, error) {
	s := strings.TrimPrefix(filepath.Base(addr), "video")
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("device %q: want /dev/videoN", addr)
	}
	return n, nil
}

// videoSource reads a stream, a device or a video file through OpenCV (FFmpeg, V4L2).
type videoSource struct {
	vc     *gocv.VideoCapture
	isLive bool
	last   time.Duration
	n      int
	start  time.Time
}

func (s *videoSource) read(m *gocv.Mat) (time.Duration, error) {
	if s.start.IsZero() {
		s.start = time.Now()
	}
	if !s.vc.Read(m) || m.Empty() {
		if s.isLive {
			return 0, errors.New("stream ended or camera unplugged")
		}
		return 0, io.EOF
	}
	s.n++
	// The source's clock: the stream or file position; a device without one gets the time
	// since it was opened.
	pos := time.Duration(s.vc.Get(gocv.VideoCapturePosMsec) * float64(time.Millisecond))
	if pos <= 0 || pos < s.last {
		if s.isLive {
			pos = time.Since(s.start)
		} else if fps := s.vc.Get(gocv.VideoCaptureFPS); fps > 0 {
			pos = time.Duration(float64(s.n-1) / fps * float64(time.Second))
		}
	}
	s.last = pos
	return pos, nil
}

func (s *videoSource) close()     { s.vc.Close() }
func (s *videoSource) live() bool { return s.isLive }

// imageExts are the file extensions a folder source reads, in lower case.
var imageExts = map[string]bool{".jpg": true, ".jpeg": true, ".png": true, ".bmp": true, ".webp": true, ".tif": true, ".tiff": true}

// folderSource reads the images of a folder in name order; a frame's time is the file's
// modification time relative to the first file's.
type folderSource struct {
	files []string
	i     int
	t0    time.Time
}

func openFolder(dir string) (source, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("opening image folder %s: %w", dir, err)
	}
	var files []string
	for _, e := range ents {
		if !e.IsDir() && imageExts[strings.ToLower(filepath.Ext(e.Name()))] {
			files = append(files, filepath.Join(dir, e.Name()))
		}
	}
	sort.Strings(files)
	if len(files) == 0 {
		return nil, fmt.Errorf("opening image folder %s: no images", dir)
	}
	return &folderSource{files: files}, nil
}

func (s *folderSource) read(m *gocv.Mat) (time.Duration, error) {
	if s.i >= len(s.files) {
		return 0, io.EOF
	}
	name := s.files[s.i]
	s.i++
	st, err := os.Stat(name)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", name, err)
	}
	if s.t0.IsZero() {
		s.t0 = st.ModTime()
	}
	img := gocv.IMRead(name, gocv.IMReadColor)
	if img.Empty() {
		img.Close()
		return 0, fmt.Errorf("%s: %w", name, ErrCorruptFrame)
	}
	img.CopyTo(m)
	img.Close()
	return st.ModTime().Sub(s.t0), nil
}

func (s *folderSource) close()     {}
func (s *folderSource) live() bool { return false }

// Recording reads a video file or a folder of images frame by frame, with no queue and no
// drops: for offline analysis, where every frame counts and the reader sets the pace. It is
// used by one goroutine at a time.
type Recording struct {
	src source
}

// OpenRecording opens a video file or a folder of images (file:// or dir:// URL, or a path).
// Live sources (streams, devices) are refused: they need a Camera.
func OpenRecording(raw string) (*Recording, error) {
	kind, _, err := Parse(raw)
	if err != nil {
		return nil, err
	}
	if kind != KindFile && kind != KindFolder {
		return nil, fmt.Errorf("source %q: a %s is live: only video files and image folders can be read as recordings", raw, kind)
	}
	src, err := open(raw)
	if err != nil {
		return nil, err
	}
	return &Recording{src: src}, nil
}

// Read decodes the next frame into m and returns its time in the recording's clock (file
// position, or modification time relative to the first image). It returns io.EOF after the
// last frame, and an error wrapping ErrCorruptFrame for an image it could not decode (the
// recording is still usable).
func (r *Recording) Read(m *gocv.Mat) (time.Duration, error) { return r.src.read(m) }

// Close releases the recording.
func (r *Recording) Close() { r.src.close() }
