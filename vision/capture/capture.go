// Package capture reads frames from cameras: RTSP and HTTP(S) MJPEG streams, V4L2 devices,
// video files and folders of images, chosen by URL. A Camera reconnects with exponential
// backoff when its source fails, watches for a stalled source, and hands frames to the
// detector through a small queue that drops the oldest frame when detection falls behind,
// counting every drop. Frames carry the source's own timestamp.
package capture

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"

	"gocv.io/x/gocv"
)

// Frame is one picture from a camera. The receiver owns Mat and must Close it.
type Frame struct {
	Mat gocv.Mat
	// Seq numbers the frames of a camera from 1, across reconnections.
	Seq uint64
	// PTS is the frame's time in the source's own clock: the stream or file position, or the
	// image's modification time relative to the first image of a folder.
	PTS time.Duration
	// Received is when the frame was read, by the agent's clock.
	Received time.Time
	// Conn counts the source's connections: it changes when the camera reconnected, so that
	// the PTS clock may have restarted.
	Conn int
}

// Config describes one camera.
type Config struct {
	// Name labels the camera in logs and metrics (a bounded label: one per camera).
	Name string
	// URL is rtsp://, http(s)://, v4l2:///dev/videoN (or /dev/videoN), file:///video.mp4
	// (or a path) or dir:///folder (or a path to a folder of images).
	URL string
	// QueueSize is how many frames wait for detection; when it is full the oldest is
	// dropped. Default 2.
	QueueSize int
	// StaleAfter is how long a live source may go without a frame before the watchdog drops
	// the connection and reconnects. Default 5s.
	StaleAfter time.Duration
	// MinBackoff and MaxBackoff bound the wait between reconnection attempts, which doubles
	// from the first to the second. Defaults 250ms and 30s.
	MinBackoff, MaxBackoff time.Duration
	// Loop restarts a file or folder at its end instead of finishing.
	Loop bool
	// Pace, for files and folders, waits between frames as their timestamps say (real-time
	// replay); without it frames come as fast as they are read.
	Pace bool
}

func (c *Config) defaults() {
	if c.QueueSize <= 0 {
		c.QueueSize = 2
	}
	if c.StaleAfter <= 0 {
		c.StaleAfter = 5 * time.Second
	}
	if c.MinBackoff <= 0 {
		c.MinBackoff = 250 * time.Millisecond
	}
	if c.MaxBackoff < c.MinBackoff {
		c.MaxBackoff = max(30*time.Second, c.MinBackoff)
	}
	if c.Name == "" {
		c.Name = "camera"
	}
}

// Camera reads one source into its frame queue.
type Camera struct {
	cfg     Config
	log     *slog.Logger
	m       *Metrics
	frames  chan Frame
	open    func(string) (source, error)
	mu      sync.Mutex
	seq     uint64
	started bool
}

// New makes a camera; Run starts it. metrics may be shared by several cameras.
func New(cfg Config, metrics *Metrics, log *slog.Logger) (*Camera, error) {
	cfg.defaults()
	if _, _, err := Parse(cfg.URL); err != nil {
		return nil, fmt.Errorf("camera %s: %w", cfg.Name, err)
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if metrics == nil {
		metrics = NewMetrics(nil)
	}
	return &Camera{
		cfg: cfg, log: log.With("component", "capture", "camera", cfg.Name), m: metrics,
		frames: make(chan Frame, cfg.QueueSize), open: open,
	}, nil
}

// Frames is the camera's frame queue. Back-pressure: it holds Config.QueueSize frames; when
// detection falls behind the oldest frame is dropped (and counted), so the detector always
// works on recent pictures. It is closed when Run returns.
func (c *Camera) Frames() <-chan Frame { return c.frames }

// ErrEnded is returned by Run when a file or folder source has no more frames.
var ErrEnded = errors.New("source ended")

// Run reads frames until ctx is cancelled (it returns nil) or, for a file or folder without
// Loop, until the last frame (it returns ErrEnded). A live source that fails or goes stale is
// reopened with exponential backoff, forever. Run closes the frame queue, and any frames left
// in it, only after its reader has stopped. Run may be called once.
func (c *Camera) Run(ctx context.Context) error {
	c.mu.Lock()
	if c.started {
		c.mu.Unlock()
		return errors.New("capture: Run called twice")
	}
	c.started = true
	c.mu.Unlock()
	defer close(c.frames)

	var wg sync.WaitGroup
	defer wg.Wait()
	backoff := c.cfg.MinBackoff
	for conn := 1; ; conn++ {
		if ctx.Err() != nil {
			return nil
		}
		err := c.connection(ctx, conn, &wg)
		switch {
		case ctx.Err() != nil:
			return nil
		case errors.Is(err, ErrEnded):
			return ErrEnded
		case err == nil:
			backoff = c.cfg.MinBackoff // it delivered frames: start the backoff afresh
		default:
			c.m.errors.WithLabelValues(c.cfg.Name).Inc()
			c.log.Warn("camera failed, reconnecting", "err", err, "in", backoff)
		}
		c.m.reconnects.WithLabelValues(c.cfg.Name).Inc()
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(backoff):
		}
		backoff = min(2*backoff, c.cfg.MaxBackoff)
	}
}

// readResult is what the reader goroutine hands to the connection loop.
type readResult struct {
	frame Frame
	err   error
}

// connection opens the source once and pumps its frames into the queue until the source
// fails, goes stale or ends. It returns nil when it delivered frames and the source then
// failed or went stale (reconnect at once), an error when it delivered none.
func (c *Camera) connection(ctx context.Context, conn int, wg *sync.WaitGroup) error {
	rctx, stop := context.WithCancel(ctx)
	defer stop()
	results := make(chan readResult)
	wg.Add(1)
	// The reader owns the source: OpenCV reads block, so the reader is left to finish its
	// read when the watchdog gives up on it; it closes the source itself and Run waits for
	// it before returning.
	go func() {
		defer wg.Done()
		c.reader(rctx, conn, results)
	}()
	delivered := 0
	stale := time.NewTimer(c.cfg.StaleAfter)
	defer stale.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-stale.C:
			c.m.stale.WithLabelValues(c.cfg.Name).Inc()
			c.log.Warn("no frame from camera, dropping the connection", "for", c.cfg.StaleAfter, "conn", conn)
			if delivered > 0 {
				return nil
			}
			return fmt.Errorf("camera %s: no frame within %s", c.cfg.Name, c.cfg.StaleAfter)
		case r, ok := <-results:
			if !ok {
				return nil
			}
			if r.err != nil {
				if errors.Is(r.err, ErrEnded) {
					return ErrEnded
				}
				if delivered > 0 {
					c.log.Warn("camera connection lost", "err", r.err, "conn", conn, "frames", delivered)
					c.m.errors.WithLabelValues(c.cfg.Name).Inc()
					return nil
				}
				return r.err
			}
			delivered++
			c.push(r.frame)
			if !stale.Stop() {
				select {
				case <-stale.C:
				default:
				}
			}
			stale.Reset(c.cfg.StaleAfter)
		}
	}
}

// reader opens the source and reads it until an error, the end or cancellation. Every
// result is sent on out unless ctx is cancelled; out is closed when it returns.
func (c *Camera) reader(ctx context.Context, conn int, out chan<- readResult) {
	defer close(out)
	send := func(r readResult) bool {
		select {
		case out <- r:
			return true
		case <-ctx.Done():
			if r.err == nil {
				r.frame.Mat.Close()
			}
			return false
		}
	}
	src, err := c.open(c.cfg.URL)
	if err != nil {
		send(readResult{err: err})
		return
	}
	defer func() { src.close() }()
	c.log.Info("camera connected", "conn", conn)
	var lastPTS time.Duration
	var paceStart time.Time
	for ctx.Err() == nil {
		m := gocv.NewMat()
		pts, err := src.read(&m)
		if errors.Is(err, io.EOF) {
			m.Close()
			if !c.cfg.Loop {
				send(readResult{err: ErrEnded})
				return
			}
			src.close()
			if src, err = c.open(c.cfg.URL); err != nil {
				src = noSource{}
				send(readResult{err: err})
				return
			}
			paceStart = time.Time{}
			continue
		}
		if errors.Is(err, ErrCorruptFrame) {
			m.Close()
			c.m.corrupt.WithLabelValues(c.cfg.Name).Inc()
			c.log.Warn("skipping a corrupt frame", "err", err)
			continue
		}
		if err != nil {
			m.Close()
			send(readResult{err: err})
			return
		}
		if c.cfg.Pace && !src.live() {
			if paceStart.IsZero() {
				paceStart = time.Now().Add(-pts)
			}
			if wait := time.Until(paceStart.Add(pts)); wait > 0 {
				select {
				case <-ctx.Done():
					m.Close()
					return
				case <-time.After(wait):
				}
			}
		}
		lastPTS = pts
		c.mu.Lock()
		c.seq++
		seq := c.seq
		c.mu.Unlock()
		if !send(readResult{frame: Frame{Mat: m, Seq: seq, PTS: lastPTS, Received: time.Now(), Conn: conn}}) {
			return
		}
	}
}

// noSource stands for a source that could not be reopened.
type noSource struct{}

func (noSource) read(*gocv.Mat) (time.Duration, error) { return 0, io.EOF }
func (noSource) close()                                {}
func (noSource) live() bool                            { return false }

// push queues a frame, dropping (and closing) the oldest queued one when the queue is full.
// Run is the only sender, so a slot freed here stays free for the frame.
func (c *Camera) push(f Frame) {
	c.m.frames.WithLabelValues(c.cfg.Name).Inc()
	c.m.lastFrame.WithLabelValues(c.cfg.Name).Set(float64(f.Received.UnixNano()) / 1e9)
	for {
		select {
		case c.frames <- f:
			return
		default:
		}
		select {
		case old := <-c.frames:
			old.Mat.Close()
			c.m.dropped.WithLabelValues(c.cfg.Name).Inc()
		default:
		}
	}
}
