package outbox_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/coupwatch/coupwatch/alerts/outbox"
)

func msg(i int) outbox.Message {
	return outbox.Message{
		Key:     fmt.Sprintf("id-%04d", i),
		Topic:   "coupwatch/v1/s/T1/alerts/late_bet",
		Payload: []byte(fmt.Sprintf(`{"id":"id-%04d","detail":"%s"}`, i, strings.Repeat("x", i%50))),
		Born:    time.Unix(1700000000, int64(i)),
	}
}

func open(t *testing.T, dir string, opts outbox.Options) *outbox.Outbox {
	t.Helper()
	o, err := outbox.Open(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { o.Close() })
	return o
}

func appendN(t *testing.T, o *outbox.Outbox, from, to int) {
	t.Helper()
	for i := from; i < to; i++ {
		if err := o.Append(msg(i)); err != nil {
			t.Fatal(err)
		}
	}
}

// drain takes n entries, checks them and acknowledges those ack says to.
func drain(t *testing.T, o *outbox.Outbox, n int, ack func(i int) bool) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var keys []string
	for i := 0; i < n; i++ {
		e, err := o.Next(ctx)
		if err != nil {
			t.Fatalf("Next %d: %v", i, err)
		}
		var k int
		fmt.Sscanf(e.Key, "id-%d", &k)
		want := msg(k)
		if string(e.Payload) != string(want.Payload) || e.Topic != want.Topic || !e.Born.Equal(want.Born) {
			t.Fatalf("entry %s came back as %q %q %v", e.Key, e.Topic, e.Payload, e.Born)
		}
		keys = append(keys, e.Key)
		if ack(k) {
			if err := o.Ack(e); err != nil {
				t.Fatal(err)
			}
		} else {
			o.Nack(e)
		}
	}
	return keys
}

func keys(from, to int) []string {
	var out []string
	for i := from; i < to; i++ {
		out = append(out, msg(i).Key)
	}
	return out
}

func all(int) bool { return true }

func TestDeliverAndReopen(t *testing.T) {
	dir := t.TempDir()
	o := open(t, dir, outbox.Options{})
	appendN(t, o, 0, 10)
	if d := o.Depth(); d != 10 {
		t.Fatalf("depth %d", d)
	}
	got := drain(t, o, 4, all)
	if fmt.Sprint(got) != fmt.Sprint(keys(0, 4)) {
		t.Fatalf("order: %v", got)
	}
	o.Close()

	// Reopened, the 6 unacknowledged messages are pending again, in order.
	o = open(t, dir, outbox.Options{})
	if d := o.Depth(); d != 6 {
		t.Fatalf("depth after reopen %d, want 6", d)
	}
	got = drain(t, o, 6, all)
	if fmt.Sprint(got) != fmt.Sprint(keys(4, 10)) {
		t.Fatalf("after reopen: %v", got)
	}
	if d := o.Depth(); d != 0 {
		t.Fatalf("depth %d after acknowledging everything", d)
	}
	if err := o.WaitEmpty(context.Background()); err != nil {
		t.Fatal(err)
	}
	o.Close()
	// Everything acknowledged: reopening finds nothing and leaves no old segment behind.
	o = open(t, dir, outbox.Options{})
	if d := o.Depth(); d != 0 {
		t.Fatalf("depth %d", d)
	}
	o.Close()
	files, _ := os.ReadDir(dir)
	var names []string
	for _, f := range files {
		if f.Name() != "LOCK" { // the directory's lock file stays
			names = append(names, f.Name())
		}
	}
	if len(names) != 0 {
		t.Errorf("files left in an empty outbox: %v", names)
	}
}

func TestNackKeepsOrder(t *testing.T) {
	o := open(t, t.TempDir(), outbox.Options{})
	appendN(t, o, 0, 5)
	ctx := context.Background()
	var taken []*outbox.Entry
	for i := 0; i < 3; i++ {
		e, err := o.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		taken = append(taken, e)
	}
	// Give back in reverse order: the outbox still delivers them in append order.
	for i := len(taken) - 1; i >= 0; i-- {
		o.Nack(taken[i])
	}
	got := drain(t, o, 5, all)
	if fmt.Sprint(got) != fmt.Sprint(keys(0, 5)) {
		t.Fatalf("order after nack: %v", got)
	}
}

func segments(t *testing.T, dir string) []string {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(dir, "*.seg"))
	sort.Strings(m)
	return m
}

func TestTornLastRecord(t *testing.T) {
	dir := t.TempDir()
	reg := prometheus.NewRegistry()
	metrics := outbox.NewMetrics(reg)
	o := open(t, dir, outbox.Options{})
	appendN(t, o, 0, 5)
	o.Close()
	seg := segments(t, dir)[0]
	st, _ := os.Stat(seg)
	// A crash in the middle of the 5th record's write: cut it in half.
	last := int64(len(msg(4).Payload)) / 2
	if err := os.Truncate(seg, st.Size()-last); err != nil {
		t.Fatal(err)
	}
	o = open(t, dir, outbox.Options{Metrics: metrics, Label: "T1"})
	if c := o.Corrupt(); c != 1 {
		t.Errorf("Corrupt() = %d, want 1", c)
	}
	want := "# HELP coupwatch_outbox_corrupt_records_total Torn or corrupt outbox records skipped when the outbox was opened (a crash in the middle of a write).\n" +
		"# TYPE coupwatch_outbox_corrupt_records_total counter\n" +
		"coupwatch_outbox_corrupt_records_total{table=\"T1\"} 1\n"
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want), "coupwatch_outbox_corrupt_records_total"); err != nil {
		t.Error(err)
	}
	// The 4 intact records are delivered, and the outbox goes on accepting new ones.
	appendN(t, o, 5, 7)
	got := drain(t, o, 6, all)
	wantKeys := append(keys(0, 4), keys(5, 7)...)
	if fmt.Sprint(got) != fmt.Sprint(wantKeys) {
		t.Fatalf("got %v, want %v", got, wantKeys)
	}
}

func TestCorruptRecordInTheMiddle(t *testing.T) {
	dir := t.TempDir()
	o := open(t, dir, outbox.Options{})
	appendN(t, o, 0, 3)
	o.Close()
	seg := segments(t, dir)[0]
	b, err := os.ReadFile(seg)
	if err != nil {
		t.Fatal(err)
	}
	// Flip one payload byte of the second record: its checksum fails, the others survive.
	i := strings.Index(string(b), `"id-0001"`)
	b[i+2] ^= 0x20
	if err := os.WriteFile(seg, b, 0o640); err != nil {
		t.Fatal(err)
	}
	o = open(t, dir, outbox.Options{})
	if c := o.Corrupt(); c != 1 {
		t.Errorf("Corrupt() = %d, want 1", c)
	}
	got := drain(t, o, 2, all)
	if fmt.Sprint(got) != "[id-0000 id-0002]" {
		t.Fatalf("got %v", got)
	}
}

func TestTornAckEntry(t *testing.T) {
	dir := t.TempDir()
	o := open(t, dir, outbox.Options{})
	appendN(t, o, 0, 3)
	drain(t, o, 2, all)
	o.Close()
	acks, _ := filepath.Glob(filepath.Join(dir, "*.ack"))
	if len(acks) != 1 {
		t.Fatalf("ack files: %v", acks)
	}
	st, _ := os.Stat(acks[0])
	// The second acknowledgement was torn: its message is delivered again (a duplicate, not a loss).
	if err := os.Truncate(acks[0], st.Size()-5); err != nil {
		t.Fatal(err)
	}
	o = open(t, dir, outbox.Options{})
	got := drain(t, o, 2, all)
	if fmt.Sprint(got) != "[id-0001 id-0002]" {
		t.Fatalf("got %v", got)
	}
}

func TestSegmentsRotateAndAreDeleted(t *testing.T) {
	dir := t.TempDir()
	o := open(t, dir, outbox.Options{SegmentBytes: 512})
	appendN(t, o, 0, 40)
	if n := len(segments(t, dir)); n < 3 {
		t.Fatalf("%d segments for 40 messages of ~100 bytes with 512-byte segments", n)
	}
	drain(t, o, 40, all)
	// Every sealed segment is gone; only the active one may remain.
	if n := len(segments(t, dir)); n > 1 {
		t.Errorf("%d segments left after acknowledging everything", n)
	}
	o.Close()
	if n := len(segments(t, dir)); n != 0 {
		t.Errorf("%d segments left after Close", n)
	}
}

func TestAckedBeforeCrashNotRedelivered(t *testing.T) {
	dir := t.TempDir()
	o := open(t, dir, outbox.Options{SegmentBytes: 512})
	appendN(t, o, 0, 30)
	// Take them all, acknowledge the odd ones only.
	for i := 0; i < 30; i++ {
		e, err := o.Next(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if i%2 == 1 {
			if err := o.Ack(e); err != nil {
				t.Fatal(err)
			}
		}
	}
	// No Close: a crash. The acknowledgement files were written without fsync but reached the
	// page cache, which survives a process crash.
	o2 := open(t, dir, outbox.Options{SegmentBytes: 512})
	var want []string
	for i := 0; i < 30; i += 2 {
		want = append(want, msg(i).Key)
	}
	if d := o2.Depth(); d != 15 {
		t.Fatalf("depth %d after reopen, want 15", d)
	}
	got := drain(t, o2, 15, all)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("got %v\nwant %v", got, want)
	}
}

func TestConcurrentAppendAndDeliver(t *testing.T) {
	o := open(t, t.TempDir(), outbox.Options{SegmentBytes: 4096})
	const writers, each = 4, 100
	var wg sync.WaitGroup
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				if err := o.Append(msg(w*each + i)); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	seen := map[string]bool{}
	var mu sync.Mutex
	var readers sync.WaitGroup
	for r := 0; r < 3; r++ {
		readers.Add(1)
		go func() {
			defer readers.Done()
			for {
				e, err := o.Next(ctx)
				if err != nil {
					return
				}
				mu.Lock()
				seen[e.Key] = true
				mu.Unlock()
				if err := o.Ack(e); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	if err := o.WaitEmpty(ctx); err != nil {
		t.Fatal(err)
	}
	cancel()
	readers.Wait()
	if len(seen) != writers*each {
		t.Errorf("delivered %d distinct messages, want %d", len(seen), writers*each)
	}
}

func TestMetrics(t *testing.T) {
	reg := prometheus.NewRegistry()
	m := outbox.NewMetrics(reg)
	o := open(t, t.TempDir(), outbox.Options{Metrics: m, Label: "RE-03"})
	appendN(t, o, 0, 3)
	drain(t, o, 1, all)
	want := `
# HELP coupwatch_outbox_depth Alerts in the outbox not yet acknowledged by the broker.
# TYPE coupwatch_outbox_depth gauge
coupwatch_outbox_depth{table="RE-03"} 2
# HELP coupwatch_outbox_appended_total Alerts written (and fsynced) to the outbox.
# TYPE coupwatch_outbox_appended_total counter
coupwatch_outbox_appended_total{table="RE-03"} 3
# HELP coupwatch_outbox_acked_total Alerts acknowledged by the broker and removed from the outbox.
# TYPE coupwatch_outbox_acked_total counter
coupwatch_outbox_acked_total{table="RE-03"} 1
`
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want), "coupwatch_outbox_depth", "coupwatch_outbox_appended_total", "coupwatch_outbox_acked_total"); err != nil {
		t.Error(err)
	}
	if n, err := testutil.GatherAndCount(reg, "coupwatch_outbox_oldest_age_seconds"); err != nil || n != 1 {
		t.Errorf("oldest age series: %d, %v", n, err)
	}
}

// BenchmarkAppend measures durable append throughput: one fsync per batch.
func BenchmarkAppend(b *testing.B) {
	for _, batch := range []int{1, 16, 256} {
		b.Run(fmt.Sprintf("batch=%d", batch), func(b *testing.B) {
			o, err := outbox.Open(b.TempDir(), outbox.Options{})
			if err != nil {
				b.Fatal(err)
			}
			defer o.Close()
			msgs := make([]outbox.Message, batch)
			payload := []byte(strings.Repeat("a", 700)) // about the size of an alert
			b.SetBytes(int64(len(payload) * batch))
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				for j := range msgs {
					msgs[j] = outbox.Message{Key: fmt.Sprintf("%032x", i*batch+j), Topic: "coupwatch/v1/s/T/alerts/late_bet", Payload: payload}
				}
				if err := o.Append(msgs...); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			b.ReportMetric(float64(b.N*batch)/b.Elapsed().Seconds(), "alerts/s")
		})
	}
}

// TestHelperHoldOutbox is not a test: TestOneProcessPerOutbox runs the test binary on it to
// hold an outbox open in another process.
func TestHelperHoldOutbox(t *testing.T) {
	dir := os.Getenv("COUPWATCH_OUTBOX_HOLD")
	if dir == "" {
		t.Skip("helper process only")
	}
	o, err := outbox.Open(dir, outbox.Options{})
	if err != nil {
		fmt.Println("error:", err)
		return
	}
	defer o.Close()
	fmt.Println("holding")
	time.Sleep(time.Minute)
}

// TestOneProcessPerOutbox: a second process cannot open an outbox another holds (two agents
// on one data directory deliver alerts twice and out of order); once the holder is gone,
// killed included, it can.
func TestOneProcessPerOutbox(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperHoldOutbox$", "-test.v")
	cmd.Env = append(os.Environ(), "COUPWATCH_OUTBOX_HOLD="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	sc := bufio.NewScanner(out)
	held := false
	for sc.Scan() {
		if strings.Contains(sc.Text(), "holding") {
			held = true
			break
		}
		if strings.Contains(sc.Text(), "error:") {
			t.Fatal(sc.Text())
		}
	}
	if !held {
		t.Fatal("the helper process did not open the outbox")
	}
	if _, err := outbox.Open(dir, outbox.Options{}); err == nil || !strings.Contains(err.Error(), "in use by another process") {
		t.Fatalf("second process: %v", err)
	}
	cmd.Process.Kill()
	cmd.Wait()
	o, err := outbox.Open(dir, outbox.Options{})
	if err != nil {
		t.Fatalf("after the holder was killed: %v", err)
	}
	o.Close()
}
