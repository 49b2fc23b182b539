// Package outbox is the durable alert outbox: a message is written to local disk and fsynced
// before anyone publishes it, and forgotten only once the broker has acknowledged it. A broker
// outage, an agent restart or a kill -9 loses nothing; a message may be delivered twice (it
// keeps its key, the alert id, so consumers deduplicate).
//
// On disk an outbox is a directory of segments. A segment NNNNNNNNNNNNNNNNNNNN.seg holds
// records appended in order:
//
//	u32 little-endian body length | u32 CRC-32C of the body | body
//	body: version byte (1) | i64 born | i64 enqueued | uvarint+key | uvarint+topic | payload
//
// and NNNNNNNNNNNNNNNNNNNN.ack beside it lists the acknowledged records as 12-byte entries
// (u64 record offset | u32 CRC-32C of those 8 bytes). Acknowledgements are written without
// fsync: losing one means a duplicate, never a loss. Each Open starts a new segment, so a
// torn record left by a crash is only ever at the end of an older segment: its checksum
// fails, it is skipped and counted, and the outbox goes on. A segment whose records are all
// acknowledged is deleted.
package outbox

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Message is what the outbox keeps: the payload to publish on a topic, under an idempotency key.
type Message struct {
	Key     string
	Topic   string
	Payload []byte
	// Born is when the event behind the message entered the agent: delivery latency is
	// measured from it.
	Born time.Time
}

// Entry is a message taken from the outbox for delivery; give it back with Ack or Nack.
type Entry struct {
	Message
	// Enqueued is when the message was appended.
	Enqueued time.Time

	seq  uint64 // position in the outbox, for ordering
	held int    // payload bytes counted in memBytes
	seg  *segment
	off  int64
	size int // record size on disk, header included
}

// Options tune an outbox.
type Options struct {
	// SegmentBytes starts a new segment once the active one reaches this size (default 4 MiB).
	SegmentBytes int64
	// Metrics, if set, receives the outbox's counters and gauges under Label.
	Metrics *Metrics
	Label   string
	Logger  *slog.Logger
	// Now is the clock (tests); default time.Now.
	Now func() time.Time
}

const (
	headerSize   = 8
	ackEntrySize = 12
	maxRecord    = 16 << 20
	version      = 1
)

// memCap bounds the payload bytes an outbox keeps in memory; beyond it payloads are read back
// from disk when delivered.
const memCap = 16 << 20

func checksum(b []byte) uint32 { return crc32.Checksum(b, crc32.MakeTable(crc32.Castagnoli)) }

// ErrClosed is returned by operations on a closed outbox.
var ErrClosed = errors.New("outbox: closed")

type segment struct {
	num     uint64
	path    string
	f       *os.File // read handle (and write handle for the active segment)
	ack     *os.File // opened on the first acknowledgement
	records int      // valid records
	acked   int
	size    int64
	active  bool
}

// Outbox is a durable queue of messages awaiting acknowledgement. It is safe for concurrent use.
type Outbox struct {
	dir  string
	opts Options
	log  *slog.Logger
	now  func() time.Time
	lock *os.File // holds the directory's lock while open (see lockDir)

	mu       sync.Mutex
	closed   bool
	active   *segment
	segs     map[uint64]*segment
	pending  []*Entry // sorted by seq
	inflight map[uint64]*Entry
	nextSeq  uint64
	wake     chan struct{} // signalled when pending grows or the outbox closes
	empty    chan struct{} // closed when nothing is undelivered; replaced when something is
	corrupt  int
	memBytes int // payload bytes held by pending and in-flight entries
	buf      []byte
}

// Open opens (or creates) the outbox in dir: every record not yet acknowledged is pending
// again, in the order it was appended. Torn or corrupt records are skipped and counted
// (Corrupt).
func Open(dir string, opts Options) (*Outbox, error) {
	if opts.SegmentBytes <= 0 {
		opts.SegmentBytes = 4 << 20
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return nil, fmt.Errorf("outbox: %w", err)
	}
	lock, err := lockDir(dir)
	if err != nil {
		return nil, err
	}
	o := &Outbox{
		dir: dir, opts: opts, log: opts.Logger, now: opts.Now, lock: lock,
		segs: map[uint64]*segment{}, inflight: map[uint64]*Entry{},
		wake: make(chan struct{}, 1), empty: make(chan struct{}),
	}
	if err := o.load(); err != nil {
		o.closeFiles()
		return nil, err
	}
	if err := o.rotate(); err != nil {
		o.closeFiles()
		return nil, err
	}
	if len(o.pending) == 0 {
		close(o.empty)
	}
	if opts.Metrics != nil {
		opts.Metrics.attach(o)
		// Every counter of the table is on /metrics from the start, at 0 until it counts.
		opts.Metrics.appended.WithLabelValues(opts.Label)
		opts.Metrics.acked.WithLabelValues(opts.Label)
		opts.Metrics.corrupt.WithLabelValues(opts.Label).Add(float64(o.corrupt))
	}
	return o, nil
}

func segName(num uint64, ext string) string { return fmt.Sprintf("%020d%s", num, ext) }

// load reads every segment of the directory.
func (o *Outbox) load() error {
	names, err := filepath.Glob(filepath.Join(o.dir, "*.seg"))
	if err != nil {
		return fmt.Errorf("outbox: %w", err)
	}
	var nums []uint64
	for _, n := range names {
		num, err := strconv.ParseUint(strings.TrimSuffix(filepath.Base(n), ".seg"), 10, 64)
		if err != nil {
			o.log.Warn("outbox: ignoring a file that is not a segment", "file", n)
			continue
		}
		nums = append(nums, num)
	}
	slices.Sort(nums)
	for _, num := range nums {
		if err := o.loadSegment(num); err != nil {
			return err
		}
	}
	// Acknowledgement files whose segment is gone (deleted before its .ack) are removed.
	acks, _ := filepath.Glob(filepath.Join(o.dir, "*.ack"))
	for _, a := range acks {
		num, err := strconv.ParseUint(strings.TrimSuffix(filepath.Base(a), ".ack"), 10, 64)
		if err == nil && !slices.Contains(nums, num) {
			_ = os.Remove(a)
		}
	}
	return nil
}

func (o *Outbox) loadSegment(num uint64) error {
	path := filepath.Join(o.dir, segName(num, ".seg"))
	acked, err := readAcks(filepath.Join(o.dir, segName(num, ".ack")))
	if err != nil {
		return err
	}
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("outbox: %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return fmt.Errorf("outbox: %w", err)
	}
	s := &segment{num: num, path: path, f: f, size: st.Size()}
	var hdr [headerSize]byte
	var off int64
	for off < s.size {
		if s.size-off < headerSize {
			o.corruptRecord(s, off, "torn header")
			break
		}
		if _, err := f.ReadAt(hdr[:], off); err != nil {
			f.Close()
			return fmt.Errorf("outbox: reading %s: %w", path, err)
		}
		n := int64(binary.LittleEndian.Uint32(hdr[0:4]))
		sum := binary.LittleEndian.Uint32(hdr[4:8])
		if n == 0 || n > maxRecord || off+headerSize+n > s.size {
			// A length that does not fit is a record torn by a crash (or garbage after
			// one): nothing after it can be trusted.
			o.corruptRecord(s, off, "torn record")
			break
		}
		body := make([]byte, n)
		if _, err := f.ReadAt(body, off+headerSize); err != nil {
			f.Close()
			return fmt.Errorf("outbox: reading %s: %w", path, err)
		}
		size := int(headerSize + n)
		if checksum(body) != sum {
			o.corruptRecord(s, off, "checksum mismatch")
			off += int64(size)
			continue
		}
		e, err := decode(body)
		if err != nil {
			o.corruptRecord(s, off, err.Error())
			off += int64(size)
			continue
		}
		s.records++
		if acked[off] {
			s.acked++
		} else {
			e.seq, e.seg, e.off, e.size = o.nextSeq, s, off, size
			e.Payload = nil // read again when delivered
			o.nextSeq++
			o.pending = append(o.pending, e)
		}
		off += int64(size)
	}
	if s.records == s.acked {
		f.Close()
		return o.removeSegment(s)
	}
	o.segs[num] = s
	return nil
}

func (o *Outbox) corruptRecord(s *segment, off int64, why string) {
	o.corrupt++
	o.log.Warn("outbox: skipping a corrupt record", "segment", s.path, "offset", off, "reason", why)
}

func readAcks(path string) (map[int64]bool, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("outbox: %w", err)
	}
	acked := make(map[int64]bool, len(b)/ackEntrySize)
	for i := 0; i+ackEntrySize <= len(b); i += ackEntrySize {
		e := b[i : i+ackEntrySize]
		if checksum(e[:8]) != binary.LittleEndian.Uint32(e[8:]) {
			continue // a torn or damaged entry: the record is delivered again
		}
		acked[int64(binary.LittleEndian.Uint64(e[:8]))] = true
	}
	return acked, nil
}

func encode(b []byte, m *Message, enqueued time.Time) []byte {
	start := len(b)
	b = append(b, make([]byte, headerSize)...)
	b = append(b, version)
	b = binary.LittleEndian.AppendUint64(b, uint64(m.Born.UnixNano()))
	b = binary.LittleEndian.AppendUint64(b, uint64(enqueued.UnixNano()))
	b = binary.AppendUvarint(b, uint64(len(m.Key)))
	b = append(b, m.Key...)
	b = binary.AppendUvarint(b, uint64(len(m.Topic)))
	b = append(b, m.Topic...)
	b = append(b, m.Payload...)
	body := b[start+headerSize:]
	binary.LittleEndian.PutUint32(b[start:], uint32(len(body)))
	binary.LittleEndian.PutUint32(b[start+4:], checksum(body))
	return b
}

func decode(body []byte) (*Entry, error) {
	if len(body) < 17 || body[0] != version {
		return nil, errors.New("unknown record version")
	}
	e := &Entry{}
	e.Born = time.Unix(0, int64(binary.LittleEndian.Uint64(body[1:9])))
	e.Enqueued = time.Unix(0, int64(binary.LittleEndian.Uint64(body[9:17])))
	rest := body[17:]
	str := func() (string, bool) {
		n, k := binary.Uvarint(rest)
		if k <= 0 || uint64(len(rest)-k) < n {
			return "", false
		}
		s := string(rest[k : k+int(n)])
		rest = rest[k+int(n):]
		return s, true
	}
	var ok bool
	if e.Key, ok = str(); !ok {
		return nil, errors.New("bad key")
	}
	if e.Topic, ok = str(); !ok {
		return nil, errors.New("bad topic")
	}
	e.Payload = rest
	return e, nil
}

// rotate seals the active segment and starts a new one.
func (o *Outbox) rotate() error {
	var num uint64 = 1
	for n := range o.segs {
		if n >= num {
			num = n + 1
		}
	}
	if o.active != nil {
		o.active.active = false
		if o.active.acked == o.active.records {
			if err := o.dropSegment(o.active); err != nil {
				return err
			}
		}
	}
	path := filepath.Join(o.dir, segName(num, ".seg"))
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_RDWR|os.O_APPEND, 0o640)
	if err != nil {
		return fmt.Errorf("outbox: %w", err)
	}
	if err := syncDir(o.dir); err != nil {
		f.Close()
		return err
	}
	s := &segment{num: num, path: path, f: f, active: true}
	o.segs[num] = s
	o.active = s
	return nil
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("outbox: %w", err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("outbox: syncing %s: %w", dir, err)
	}
	return nil
}

// Append writes the messages to disk and fsyncs them (one fsync for the batch); when it
// returns nil they survive a crash. They are then pending delivery, in order. The outbox
// keeps the payload slices: the caller must not change them afterwards.
func (o *Outbox) Append(msgs ...Message) error {
	if len(msgs) == 0 {
		return nil
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return ErrClosed
	}
	if o.active.size >= o.opts.SegmentBytes {
		if err := o.rotate(); err != nil {
			return err
		}
	}
	for i := range msgs {
		if m := &msgs[i]; len(m.Key)+len(m.Topic)+len(m.Payload)+64 > maxRecord {
			return fmt.Errorf("outbox: message %s is larger than %d bytes", m.Key, maxRecord)
		}
	}
	s := o.active
	now := o.now()
	buf := o.buf[:0]
	entries := make([]*Entry, len(msgs))
	var off = s.size
	for i := range msgs {
		m := &msgs[i]
		before := len(buf)
		buf = encode(buf, m, now)
		size := len(buf) - before
		e := &Entry{Message: Message{Key: m.Key, Topic: m.Topic, Born: m.Born}, Enqueued: now, seg: s, off: off, size: size}
		if o.memBytes+len(m.Payload) <= memCap {
			e.Payload, e.held = m.Payload, len(m.Payload)
			o.memBytes += e.held
		}
		entries[i] = e
		off += int64(size)
	}
	o.buf = buf
	start := time.Now()
	release := func() {
		for _, e := range entries {
			o.memBytes -= e.held
		}
	}
	if _, err := s.f.Write(buf); err != nil {
		release()
		// The segment may now end with a partial record: seal it so nothing is appended
		// after the damage, and start a new one for the next append.
		_ = o.rotate()
		return fmt.Errorf("outbox: writing %s: %w", s.path, err)
	}
	if err := s.f.Sync(); err != nil {
		release()
		_ = o.rotate()
		return fmt.Errorf("outbox: syncing %s: %w", s.path, err)
	}
	if m := o.opts.Metrics; m != nil {
		m.fsync.Observe(time.Since(start).Seconds())
		m.appended.WithLabelValues(o.opts.Label).Add(float64(len(msgs)))
	}
	s.size = off
	s.records += len(msgs)
	wasEmpty := o.undelivered() == 0
	for _, e := range entries {
		e.seq = o.nextSeq
		o.nextSeq++
		o.pending = append(o.pending, e)
	}
	if wasEmpty {
		o.empty = make(chan struct{})
	}
	o.signal()
	return nil
}

func (o *Outbox) signal() {
	select {
	case o.wake <- struct{}{}:
	default:
	}
}

func (o *Outbox) undelivered() int { return len(o.pending) + len(o.inflight) }

// Next returns the oldest pending message, waiting until there is one; the entry stays in
// the outbox, in flight, until Ack or Nack. It returns ctx.Err() or ErrClosed.
func (o *Outbox) Next(ctx context.Context) (*Entry, error) {
	for {
		o.mu.Lock()
		if o.closed {
			o.mu.Unlock()
			return nil, ErrClosed
		}
		if len(o.pending) > 0 {
			e := o.pending[0]
			o.pending[0] = nil
			o.pending = o.pending[1:]
			o.inflight[e.seq] = e
			if len(o.pending) > 0 {
				o.signal() // another waiter may take the next one
			}
			o.mu.Unlock()
			if e.Payload == nil {
				if err := o.readPayload(e); err != nil {
					return nil, err
				}
			}
			return e, nil
		}
		o.mu.Unlock()
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-o.wake:
		}
	}
}

// readPayload reads the payload of an entry loaded from disk.
func (o *Outbox) readPayload(e *Entry) error {
	body := make([]byte, e.size-headerSize)
	if _, err := e.seg.f.ReadAt(body, e.off+headerSize); err != nil {
		o.Nack(e)
		return fmt.Errorf("outbox: reading %s: %w", e.seg.path, err)
	}
	d, err := decode(body)
	if err != nil {
		o.Nack(e)
		return fmt.Errorf("outbox: %s at %d: %w", e.seg.path, e.off, err)
	}
	e.Payload = d.Payload
	return nil
}

// Ack forgets a delivered entry. Acknowledging an entry twice is harmless.
func (o *Outbox) Ack(e *Entry) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if _, ok := o.inflight[e.seq]; !ok {
		return nil
	}
	delete(o.inflight, e.seq)
	o.memBytes -= e.held
	e.held = 0
	if m := o.opts.Metrics; m != nil {
		m.acked.WithLabelValues(o.opts.Label).Inc()
	}
	if o.undelivered() == 0 {
		close(o.empty)
	}
	if o.closed {
		return ErrClosed
	}
	s := e.seg
	s.acked++
	if s.acked == s.records && !s.active {
		return o.dropSegment(s)
	}
	if s.ack == nil {
		f, err := os.OpenFile(filepath.Join(o.dir, segName(s.num, ".ack")), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o640)
		if err != nil {
			return fmt.Errorf("outbox: %w", err)
		}
		s.ack = f
	}
	var rec [ackEntrySize]byte
	binary.LittleEndian.PutUint64(rec[:8], uint64(e.off))
	binary.LittleEndian.PutUint32(rec[8:], checksum(rec[:8]))
	if _, err := s.ack.Write(rec[:]); err != nil {
		return fmt.Errorf("outbox: acknowledging in %s: %w", s.path, err)
	}
	return nil
}

// Nack puts an undelivered entry back; it is the next one Next returns (order is kept).
func (o *Outbox) Nack(e *Entry) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if _, ok := o.inflight[e.seq]; !ok || o.closed {
		return
	}
	delete(o.inflight, e.seq)
	i := sort.Search(len(o.pending), func(i int) bool { return o.pending[i].seq > e.seq })
	o.pending = slices.Insert(o.pending, i, e)
	o.signal()
}

func (o *Outbox) dropSegment(s *segment) error {
	delete(o.segs, s.num)
	if s.ack != nil {
		s.ack.Close()
	}
	s.f.Close()
	return o.removeSegment(s)
}

func (o *Outbox) removeSegment(s *segment) error {
	if err := os.Remove(s.path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("outbox: %w", err)
	}
	if err := os.Remove(filepath.Join(o.dir, segName(s.num, ".ack"))); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("outbox: %w", err)
	}
	return nil
}

// Depth returns the number of messages not yet acknowledged (pending or in flight).
func (o *Outbox) Depth() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.undelivered()
}

// Oldest returns when the oldest unacknowledged message was appended.
func (o *Outbox) Oldest() (time.Time, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	var t time.Time
	found := false
	if len(o.pending) > 0 {
		t, found = o.pending[0].Enqueued, true
	}
	for _, e := range o.inflight {
		if !found || e.Enqueued.Before(t) {
			t, found = e.Enqueued, true
		}
	}
	return t, found
}

// Corrupt returns how many torn or corrupt records Open skipped.
func (o *Outbox) Corrupt() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.corrupt
}

// Empty returns a channel that is closed while nothing is undelivered.
func (o *Outbox) Empty() <-chan struct{} {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.empty
}

// WaitEmpty waits until every message has been acknowledged.
func (o *Outbox) WaitEmpty(ctx context.Context) error {
	for {
		select {
		case <-o.Empty():
			if o.Depth() == 0 {
				return nil
			}
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Close closes the outbox files; what is undelivered stays on disk for the next Open.
// Entries in flight are simply not acknowledged.
func (o *Outbox) Close() error {
	o.mu.Lock()
	if o.closed {
		o.mu.Unlock()
		return nil
	}
	o.closed = true
	var err error
	if s := o.active; s != nil && s.records == s.acked {
		err = o.dropSegment(s)
	}
	for _, s := range o.segs {
		if s.ack != nil {
			if e := s.ack.Sync(); e != nil && err == nil {
				err = fmt.Errorf("outbox: %w", e)
			}
		}
	}
	o.closeFiles()
	close(o.wake)
	o.mu.Unlock()
	if o.opts.Metrics != nil {
		o.opts.Metrics.detach(o)
	}
	return err
}

func (o *Outbox) closeFiles() {
	for _, s := range o.segs {
		if s.ack != nil {
			s.ack.Close()
		}
		s.f.Close()
	}
	if o.lock != nil {
		o.lock.Close() // releases the lock
		o.lock = nil
	}
}

// lockDir takes an exclusive lock on the outbox directory (the file LOCK in it) for this
// process: two processes appending to and acknowledging one outbox would deliver alerts twice
// and out of order (two agents started on the same data directory). It is a POSIX record
// lock, owned by the process and released when the process ends, a crash included.
func lockDir(dir string) (*os.File, error) {
	f, err := os.OpenFile(filepath.Join(dir, "LOCK"), os.O_CREATE|os.O_RDWR, 0o640)
	if err != nil {
		return nil, fmt.Errorf("outbox: %w", err)
	}
	lk := syscall.Flock_t{Type: syscall.F_WRLCK, Whence: io.SeekStart}
	if err := syscall.FcntlFlock(f.Fd(), syscall.F_SETLK, &lk); err != nil {
		f.Close()
		if errors.Is(err, syscall.EAGAIN) || errors.Is(err, syscall.EACCES) {
			return nil, fmt.Errorf("outbox %s is in use by another process (another agent on the same data directory?)", dir)
		}
		return nil, fmt.Errorf("outbox %s: lock: %w", dir, err)
	}
	return f, nil
}

var _ io.Closer = (*Outbox)(nil)
