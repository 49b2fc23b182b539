package agent

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/coupwatch/coupwatch/journal"
)

// Item is one journal line handed from a source to its pipeline.
type Item struct {
	// Ev is the event (a clone the pipeline owns); nil when Err is set.
	Ev *journal.Event
	// Err is an invalid line (*journal.LineError, naming the file and line): the pipeline logs
	// it, counts it and goes on.
	Err error
	// Arrived is when the event entered the agent; alert latency is measured from it.
	Arrived time.Time
	// Warm marks a line already processed before a restart: it only rebuilds the engines'
	// state (no store, no alert).
	Warm bool
}

// Line returns the item's journal line number.
func (it *Item) Line() int {
	if it.Ev != nil {
		return it.Ev.Line
	}
	var le *journal.LineError
	if errors.As(it.Err, &le) {
		return le.Line
	}
	return 0
}

// Source produces a table's journal events.
type Source interface {
	// Name identifies the journal for checkpoints and evidence (a file's absolute path).
	Name() string
	// Run sends every line to out, in order: lines up to resume marked Warm and unpaced, then
	// the rest. Sends block (events are never dropped: a slow pipeline slows the source). It
	// returns nil at the end of the journal, ctx.Err() when cancelled, or a read error.
	Run(ctx context.Context, resume int, out chan<- Item) error
}

// JournalSource reads a coup journal (JSON Lines): a file, possibly growing (follow), or an
// embedded one. Speed paces a recorded journal after its recorded timing.
type JournalSource struct {
	name   string
	open   func() (io.ReadCloser, error)
	speed  float64
	follow bool
	poll   time.Duration
}

// FileSource reads the journal file at path. speed 0 reads as fast as possible, 1 keeps the
// recorded timing, 10 plays ten times faster. follow keeps reading as the file grows (the
// source then never ends; speed does not apply).
func FileSource(path string, speed float64, follow bool) (*JournalSource, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("journal %s: %w", path, err)
	}
	return &JournalSource{
		name:   abs,
		open:   func() (io.ReadCloser, error) { return os.Open(abs) },
		speed:  speed,
		follow: follow,
		poll:   200 * time.Millisecond,
	}, nil
}

// FSSource reads a journal from a file system (the demo's embedded journals); name identifies it.
func FSSource(name string, fsys fs.FS, file string, speed float64) *JournalSource {
	return &JournalSource{name: name, open: func() (io.ReadCloser, error) { return fsys.Open(file) }, speed: speed}
}

// Name implements Source.
func (s *JournalSource) Name() string { return s.name }

// Table returns the table of the journal's first valid event (for `agent --journal`, which
// learns the table from the journal).
func (s *JournalSource) Table() (string, error) {
	f, err := s.open()
	if err != nil {
		return "", fmt.Errorf("journal %s: %w", s.name, err)
	}
	defer f.Close()
	rd := journal.NewReader(f, s.name)
	rd.SkipUnknownTypes(true)
	var first error
	for {
		ev, err := rd.Next()
		if errors.Is(err, io.EOF) {
			if first != nil {
				return "", fmt.Errorf("journal %s: no valid event, so no table id; the first invalid line: %w", s.name, first)
			}
			return "", fmt.Errorf("journal %s: no event, so no table id", s.name)
		}
		if journal.IsInvalid(err) {
			if first == nil {
				first = err
			}
			continue
		}
		if err != nil {
			return "", err
		}
		return ev.Table, nil
	}
}

// Run implements Source.
func (s *JournalSource) Run(ctx context.Context, resume int, out chan<- Item) error {
	f, err := s.open()
	for err != nil {
		if !s.follow || !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("journal %s: %w", s.name, err)
		}
		// Following a journal that does not exist yet: wait for it.
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(s.poll):
		}
		f, err = s.open()
	}
	defer func() { // f may be reopened below
		if f != nil {
			f.Close()
		}
	}()
	if resume > 0 {
		// A journal replaced or cut under the same name since the last run is refused: one
		// shorter than the lines already processed cannot be the same journal (one as long is
		// checked at the resume line, see Pipeline.verifyResume).
		n, err := completeLines(f)
		if err != nil {
			return fmt.Errorf("journal %s: %w", s.name, err)
		}
		if n < resume {
			return fmt.Errorf("journal %s: %w: it has %d lines, fewer than the %d already processed; move the old state aside or give the new journal another name", s.name, errJournalChanged, n, resume)
		}
		// Read again from the start.
		if sk, ok := f.(io.Seeker); ok {
			_, err = sk.Seek(0, io.SeekStart)
		} else {
			f.Close()
			f, err = s.open()
		}
		if err != nil {
			return fmt.Errorf("journal %s: %w", s.name, err)
		}
	}
	var r io.Reader = f
	if s.follow {
		fr := &followReader{ctx: ctx, r: f, poll: s.poll}
		if file, ok := f.(*os.File); ok {
			fr.file, fr.path = file, s.name
		}
		r = fr
	}
	rd := journal.NewReader(r, s.name)
	var wall time.Time // pacing origin: wall clock and journal time of the first live event
	var base time.Time
	for {
		ev, err := rd.Next()
		if errors.Is(err, io.EOF) {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return nil
		}
		item := Item{}
		switch {
		case journal.IsInvalid(err):
			item.Err = err
		case err != nil:
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return err
		default:
			item.Ev = ev.Clone()
		}
		item.Warm = rd.Line() <= resume
		if !item.Warm && item.Ev != nil && s.speed > 0 && !s.follow {
			if wall.IsZero() {
				wall, base = time.Now(), ev.T
			} else if d := time.Until(wall.Add(time.Duration(float64(ev.T.Sub(base)) / s.speed))); d > 0 {
				t := time.NewTimer(d)
				select {
				case <-ctx.Done():
					t.Stop()
					return ctx.Err()
				case <-t.C:
				}
			}
		}
		item.Arrived = time.Now()
		select {
		case out <- item:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// errJournalChanged is a journal file replaced or cut under the same name.
var errJournalChanged = errors.New("the journal was replaced or cut")

// completeLines counts the newline-terminated lines of r.
func completeLines(r io.Reader) (int, error) {
	buf := make([]byte, 64<<10)
	n := 0
	for {
		k, err := r.Read(buf)
		n += bytes.Count(buf[:k], []byte{'\n'})
		if errors.Is(err, io.EOF) {
			return n, nil
		}
		if err != nil {
			return n, err
		}
	}
}

// followReader reads a growing file: it hands out complete lines only (a line being written
// is never read half-way) and waits for more at the end of the file until ctx is done. A file
// cut shorter than what was read, or another file moved to its path, is errJournalChanged.
type followReader struct {
	ctx     context.Context
	r       io.Reader
	file    *os.File // the file behind r, if it is one, and its path
	path    string
	poll    time.Duration
	offset  int64
	pending []byte // read but after the last newline
	ready   []byte // complete lines not yet handed out
	buf     []byte
}

// changed reports whether the followed file was cut or replaced.
func (f *followReader) changed() bool {
	if f.file == nil {
		return false
	}
	st, err := f.file.Stat()
	if err != nil || st.Size() < f.offset {
		return true
	}
	at, err := os.Stat(f.path)
	return err == nil && !os.SameFile(st, at)
}

func (f *followReader) Read(p []byte) (int, error) {
	for len(f.ready) == 0 {
		if f.buf == nil {
			f.buf = make([]byte, 64<<10)
		}
		n, err := f.r.Read(f.buf)
		if n > 0 {
			f.offset += int64(n)
			f.pending = append(f.pending, f.buf[:n]...)
			if i := bytes.LastIndexByte(f.pending, '\n'); i >= 0 {
				f.ready = append(f.ready[:0], f.pending[:i+1]...)
				f.pending = append(f.pending[:0], f.pending[i+1:]...)
			}
			continue
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return 0, err
		}
		if f.changed() {
			return 0, errJournalChanged
		}
		select {
		case <-f.ctx.Done():
			return 0, io.EOF
		case <-time.After(f.poll):
		}
	}
	n := copy(p, f.ready)
	f.ready = f.ready[n:]
	return n, nil
}
