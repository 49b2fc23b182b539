//go:build cgo

package capture_test

import (
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"gocv.io/x/gocv"

	"github.com/coupwatch/coupwatch/vision/capture"
)

func TestParse(t *testing.T) {
	dir := t.TempDir()
	vid := filepath.Join(dir, "a.mp4")
	if err := os.WriteFile(vid, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		url  string
		kind capture.Kind
		addr string
		err  bool
	}{
		{url: "rtsp://10.0.0.5:554/table1", kind: capture.KindStream, addr: "rtsp://10.0.0.5:554/table1"},
		{url: "http://cam/mjpeg", kind: capture.KindStream, addr: "http://cam/mjpeg"},
		{url: "https://cam/mjpeg", kind: capture.KindStream, addr: "https://cam/mjpeg"},
		{url: "v4l2:///dev/video2", kind: capture.KindDevice, addr: "/dev/video2"},
		{url: "/dev/video0", kind: capture.KindDevice, addr: "/dev/video0"},
		{url: "file://" + vid, kind: capture.KindFile, addr: vid},
		{url: vid, kind: capture.KindFile, addr: vid},
		{url: "dir://" + dir, kind: capture.KindFolder, addr: dir},
		{url: dir, kind: capture.KindFolder, addr: dir},
		{url: "ftp://x/y", err: true},
		{url: "", err: true},
		{url: filepath.Join(dir, "missing.mp4"), err: true},
	} {
		kind, addr, err := capture.Parse(tc.url)
		if (err != nil) != tc.err {
			t.Errorf("Parse(%q) error %v, want error %v", tc.url, err, tc.err)
			continue
		}
		if err == nil && (kind != tc.kind || addr != tc.addr) {
			t.Errorf("Parse(%q) = %s %q, want %s %q", tc.url, kind, addr, tc.kind, tc.addr)
		}
	}
}

// makeVideo has ffmpeg write a real H.264 video of n frames at fps into dir.
func makeVideo(t *testing.T, dir string, n, fps int) string {
	t.Helper()
	if _, err := exec.LookPath("ffmpeg"); err != nil {
		t.Skip("ffmpeg not installed (Debian package ffmpeg): cannot make the test video")
	}
	out := filepath.Join(dir, "table.mp4")
	cmd := exec.Command("ffmpeg", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
		fmt.Sprintf("testsrc=size=320x240:rate=%d", fps), "-frames:v", fmt.Sprint(n), "-pix_fmt", "yuv420p", out)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("ffmpeg: %v\n%s", err, b)
	}
	return out
}

// collect runs the camera and gathers the frames until the queue closes or n frames came.
func collect(t *testing.T, cam *capture.Camera, ctx context.Context, consume func(capture.Frame) bool) error {
	t.Helper()
	errc := make(chan error, 1)
	go func() { errc <- cam.Run(ctx) }()
	for f := range cam.Frames() {
		more := consume(f)
		f.Mat.Close()
		if !more {
			break
		}
	}
	// Drain so that Run can close the queue's frames.
	go func() {
		for f := range cam.Frames() {
			f.Mat.Close()
		}
	}()
	select {
	case err := <-errc:
		return err
	case <-time.After(20 * time.Second):
		t.Fatal("Run did not return")
		return nil
	}
}

func TestVideoFile(t *testing.T) {
	path := makeVideo(t, t.TempDir(), 20, 10)
	reg := prometheus.NewRegistry()
	m := capture.NewMetrics(reg)
	cam, err := capture.New(capture.Config{Name: "t1", URL: path, QueueSize: 64}, m, nil)
	if err != nil {
		t.Fatal(err)
	}
	var pts []time.Duration
	var seq []uint64
	err = collect(t, cam, context.Background(), func(f capture.Frame) bool {
		if f.Mat.Cols() != 320 || f.Mat.Rows() != 240 {
			t.Errorf("frame %d is %dx%d", f.Seq, f.Mat.Cols(), f.Mat.Rows())
		}
		pts = append(pts, f.PTS)
		seq = append(seq, f.Seq)
		return true
	})
	if !errors.Is(err, capture.ErrEnded) {
		t.Fatalf("Run: %v, want ErrEnded", err)
	}
	if len(pts) != 20 {
		t.Fatalf("%d frames, want 20", len(pts))
	}
	for i := 1; i < len(pts); i++ {
		step := pts[i] - pts[i-1]
		if step < 90*time.Millisecond || step > 110*time.Millisecond {
			t.Errorf("frame %d: PTS step %v, want 100ms (10 fps)", i, step)
		}
		if seq[i] != seq[i-1]+1 {
			t.Errorf("frame %d: seq %d after %d", i, seq[i], seq[i-1])
		}
	}
	if got := testutil.ToFloat64(m.FramesCounter("t1")); got != 20 {
		t.Errorf("frames_total %v, want 20", got)
	}
}

func writeJPEG(t *testing.T, path string, n int) {
	t.Helper()
	m := testImage(n)
	defer m.Close()
	if !gocv.IMWrite(path, m) {
		t.Fatalf("writing %s", path)
	}
}

// testImage is a 160x120 picture with the number n drawn on it.
func testImage(n int) gocv.Mat {
	m := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(40, 120, 40, 0), 120, 160, gocv.MatTypeCV8UC3)
	gocv.PutText(&m, fmt.Sprint(n), image.Pt(20, 80), gocv.FontHersheySimplex, 2, color.RGBA{255, 255, 255, 0}, 3)
	return m
}

func TestFolderSkipsCorruptImages(t *testing.T) {
	dir := t.TempDir()
	for i := 0; i < 3; i++ {
		writeJPEG(t, filepath.Join(dir, fmt.Sprintf("frame%02d.jpg", i)), i)
	}
	if err := os.WriteFile(filepath.Join(dir, "frame01b.jpg"), []byte("\xff\xd8 not really a jpeg"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("ignored"), 0o644); err != nil {
		t.Fatal(err)
	}
	m := capture.NewMetrics(nil)
	cam, err := capture.New(capture.Config{Name: "f", URL: dir, QueueSize: 8}, m, nil)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	err = collect(t, cam, context.Background(), func(f capture.Frame) bool { n++; return true })
	if !errors.Is(err, capture.ErrEnded) {
		t.Fatalf("Run: %v, want ErrEnded", err)
	}
	if n != 3 {
		t.Errorf("%d frames, want 3", n)
	}
	if got := testutil.ToFloat64(m.CorruptCounter("f")); got != 1 {
		t.Errorf("corrupt_frames_total %v, want 1", got)
	}
}

func TestQueueDropsOldestAndCounts(t *testing.T) {
	dir := t.TempDir()
	for i := 0; i < 10; i++ {
		writeJPEG(t, filepath.Join(dir, fmt.Sprintf("f%02d.png", i)), i)
	}
	m := capture.NewMetrics(nil)
	cam, err := capture.New(capture.Config{Name: "q", URL: dir, QueueSize: 2}, m, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Nobody reads until the folder is done: all but the last two frames are dropped.
	if err := cam.Run(context.Background()); !errors.Is(err, capture.ErrEnded) {
		t.Fatalf("Run: %v", err)
	}
	var seqs []uint64
	for f := range cam.Frames() {
		seqs = append(seqs, f.Seq)
		f.Mat.Close()
	}
	if len(seqs) != 2 || seqs[0] != 9 || seqs[1] != 10 {
		t.Errorf("queued frames %v, want the newest two [9 10]", seqs)
	}
	if got := testutil.ToFloat64(m.DroppedCounter("q")); got != 8 {
		t.Errorf("frames_dropped_total %v, want 8", got)
	}
}

// mjpegServer serves an endless multipart MJPEG stream of real JPEG frames on a loopback
// port; stall makes it stop sending after a few frames while keeping the connection open.
type mjpegServer struct {
	addr  string
	srv   *http.Server
	wg    sync.WaitGroup
	stall bool
}

func startMJPEG(t *testing.T, addr string, stall bool) *mjpegServer {
	t.Helper()
	var ln net.Listener
	var err error
	for i := 0; i < 50; i++ { // the port may still be held for a moment after a restart
		if ln, err = net.Listen("tcp", addr); err == nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err != nil {
		t.Errorf("listen: %v", err)
		return &mjpegServer{srv: &http.Server{}}
	}
	s := &mjpegServer{addr: ln.Addr().String(), stall: stall}
	var frames [][]byte
	for i := 0; i < 5; i++ {
		m := testImage(i)
		buf, err := gocv.IMEncode(gocv.JPEGFileExt, m)
		m.Close()
		if err != nil {
			t.Errorf("encoding a frame: %v", err)
			continue
		}
		frames = append(frames, append([]byte(nil), buf.GetBytes()...))
		buf.Close()
	}
	s.srv = &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "multipart/x-mixed-replace; boundary=frame")
		for i := 0; ; i++ {
			if s.stall && i >= 5 {
				<-r.Context().Done()
				return
			}
			f := frames[i%len(frames)]
			if _, err := fmt.Fprintf(w, "--frame\r\nContent-Type: image/jpeg\r\nContent-Length: %d\r\n\r\n", len(f)); err != nil {
				return
			}
			if _, err := w.Write(append(f, '\r', '\n')); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
				return
			case <-time.After(40 * time.Millisecond):
			}
		}
	})}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		_ = s.srv.Serve(ln)
	}()
	return s
}

// kill drops the server and every open connection, like a camera unplugged.
func (s *mjpegServer) kill() {
	_ = s.srv.Close()
	s.wg.Wait()
}

func TestMJPEGReconnectsAfterUnplug(t *testing.T) {
	srv := startMJPEG(t, "127.0.0.1:0", false)
	url := "http://" + srv.addr + "/stream.mjpg"
	m := capture.NewMetrics(nil)
	cam, err := capture.New(capture.Config{Name: "net", URL: url, QueueSize: 4, StaleAfter: 3 * time.Second,
		MinBackoff: 100 * time.Millisecond, MaxBackoff: 400 * time.Millisecond}, m, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var before, after int
	restarted := false
	restartc := make(chan *mjpegServer, 1)
	err = collect(t, cam, ctx, func(f capture.Frame) bool {
		if f.Mat.Empty() {
			t.Error("empty frame")
		}
		if f.Conn == 1 {
			before++
		} else {
			after++
		}
		if before == 10 && !restarted {
			restarted = true
			srv.kill() // unplugged mid-stream
			go func() {
				time.Sleep(700 * time.Millisecond)
				restartc <- startMJPEG(t, srv.addr, false)
			}()
		}
		if after >= 10 {
			cancel()
			return false
		}
		return true
	})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	select {
	case srv2 := <-restartc:
		srv2.kill()
	case <-time.After(5 * time.Second):
		t.Error("the stream server was not restarted")
	}
	if before < 10 || after < 10 {
		t.Fatalf("frames before unplug %d, after %d: want 10 each", before, after)
	}
	if got := testutil.ToFloat64(m.ReconnectsCounter("net")); got < 1 {
		t.Errorf("reconnects_total %v, want at least 1", got)
	}
	if got := testutil.ToFloat64(m.ErrorsCounter("net")); got < 1 {
		t.Errorf("errors_total %v, want at least 1 (the lost connection)", got)
	}
}

func TestWatchdogDropsStalledStream(t *testing.T) {
	srv := startMJPEG(t, "127.0.0.1:0", true)
	defer srv.kill()
	m := capture.NewMetrics(nil)
	cam, err := capture.New(capture.Config{Name: "stall", URL: "http://" + srv.addr + "/s.mjpg", StaleAfter: 500 * time.Millisecond,
		MinBackoff: 50 * time.Millisecond, MaxBackoff: 100 * time.Millisecond}, m, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	conns := map[int]bool{}
	errc := make(chan error, 1)
	go func() { errc <- cam.Run(ctx) }()
	deadline := time.After(15 * time.Second)
	for len(conns) < 2 {
		select {
		case f := <-cam.Frames():
			conns[f.Conn] = true
			f.Mat.Close()
		case <-deadline:
			t.Fatalf("no frame after a stall: connections seen %v", conns)
		}
	}
	cancel()
	srv.kill() // lets the stalled reads return
	for f := range cam.Frames() {
		f.Mat.Close()
	}
	if err := <-errc; err != nil {
		t.Fatalf("Run: %v", err)
	}
	if got := testutil.ToFloat64(m.StaleCounter("stall")); got < 1 {
		t.Errorf("stale_total %v, want at least 1", got)
	}
}

func TestMissingDeviceRetriesWithoutCrashing(t *testing.T) {
	m := capture.NewMetrics(nil)
	cam, err := capture.New(capture.Config{Name: "gone", URL: "v4l2:///dev/video97", MinBackoff: 20 * time.Millisecond, MaxBackoff: 40 * time.Millisecond}, m, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 400*time.Millisecond)
	defer cancel()
	if err := cam.Run(ctx); err != nil {
		t.Fatalf("Run: %v, want nil on cancel", err)
	}
	if got := testutil.ToFloat64(m.ErrorsCounter("gone")); got < 2 {
		t.Errorf("errors_total %v, want repeated failed opens", got)
	}
	if _, ok := <-cam.Frames(); ok {
		t.Error("a frame from a missing device")
	}
}
