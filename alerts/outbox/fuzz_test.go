package outbox_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/coupwatch/coupwatch/alerts/outbox"
)

// FuzzSegment opens an outbox whose segment file holds arbitrary bytes (a disk that lied, a
// crash at any point of a write): Open never panics, whatever it recovers can be delivered and
// acknowledged, and the outbox still accepts and delivers a new alert.
//
//	go test ./alerts/outbox -run '^$' -fuzz FuzzSegment -fuzztime 2m
func FuzzSegment(f *testing.F) {
	dir := f.TempDir()
	o, err := outbox.Open(dir, outbox.Options{})
	if err != nil {
		f.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		if err := o.Append(msg(i)); err != nil {
			f.Fatal(err)
		}
	}
	o.Close()
	segs, _ := os.ReadDir(dir)
	for _, s := range segs {
		if b, err := os.ReadFile(dir + "/" + s.Name()); err == nil && len(b) > 0 {
			f.Add(b)
			f.Add(b[:len(b)/2])
		}
	}
	f.Add([]byte{0, 0, 0, 0, 0xff, 0xff, 0xff, 0x7f})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(segs) == 0 {
			t.Skip("no segment written")
		}
		dir := t.TempDir()
		if err := os.WriteFile(dir+"/"+segs[0].Name(), data, 0o644); err != nil {
			t.Fatal(err)
		}
		o, err := outbox.Open(dir, outbox.Options{})
		if err != nil {
			return // a clear error is fine; a panic is not
		}
		defer o.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		for n := o.Depth(); n > 0; n-- {
			e, err := o.Next(ctx)
			if err != nil {
				t.Fatalf("Next with %d recovered: %v", o.Depth(), err)
			}
			if err := o.Ack(e); err != nil {
				t.Fatalf("Ack: %v", err)
			}
		}
		if err := o.Append(msg(99)); err != nil {
			t.Fatalf("Append after recovery: %v", err)
		}
		e, err := o.Next(ctx)
		if err != nil || e.Key != msg(99).Key {
			t.Fatalf("new alert after recovery: %v %v", e, err)
		}
	})
}
