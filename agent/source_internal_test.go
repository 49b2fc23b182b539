package agent

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func journalLines(n int) string {
	var b strings.Builder
	b.WriteString(`{"t":"2026-11-22T21:00:00.000Z","table":"RE-03","type":"table_open","game":"roulette_european","schema":1}` + "\n")
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, `{"t":"2026-11-22T21:00:%02d.000Z","table":"RE-03","type":"note","text":"line %d"}`+"\n", i%60, i+1)
	}
	return b.String()
}

// drain runs s from resume and returns how many items it sent and its error.
func drain(ctx context.Context, s *JournalSource, resume int) (int, error) {
	out := make(chan Item, 16)
	errc := make(chan error, 1)
	go func() { errc <- s.Run(ctx, resume, out); close(out) }()
	n := 0
	for range out {
		n++
	}
	return n, <-errc
}

// A journal replaced under the same name by a shorter one is refused at the restart: it
// cannot hold the lines already processed.
func TestShorterJournalIsRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j.jsonl")
	if err := os.WriteFile(path, []byte(journalLines(5)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, follow := range []bool{false, true} {
		s, err := FileSource(path, 0, follow)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		n, err := drain(ctx, s, 12)
		cancel()
		if !errors.Is(err, errJournalChanged) || !strings.Contains(err.Error(), "5 lines, fewer than the 12 already processed") {
			t.Errorf("follow %v: %d items, error %v", follow, n, err)
		}
	}
	// As long as what was processed: read, warm up to the resume line.
	s, err := FileSource(path, 0, false)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if n, err := drain(ctx, s, 5); err != nil || n != 5 {
		t.Errorf("resume at the last line: %d items, error %v", n, err)
	}
}

// A followed journal cut shorter, or replaced by another file, stops the source with
// errJournalChanged instead of waiting for lines that will never come.
func TestFollowedJournalCutOrReplaced(t *testing.T) {
	for _, how := range []string{"cut", "replaced"} {
		t.Run(how, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "j.jsonl")
			if err := os.WriteFile(path, []byte(journalLines(6)), 0o644); err != nil {
				t.Fatal(err)
			}
			s, err := FileSource(path, 0, true)
			if err != nil {
				t.Fatal(err)
			}
			s.poll = 10 * time.Millisecond
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			out := make(chan Item, 16)
			errc := make(chan error, 1)
			go func() { errc <- s.Run(ctx, 0, out) }()
			for i := 0; i < 6; i++ {
				<-out
			}
			switch how {
			case "cut":
				err = os.WriteFile(path, []byte(journalLines(2)), 0o644)
			case "replaced":
				other := filepath.Join(dir, "other.jsonl")
				if err = os.WriteFile(other, []byte(journalLines(9)), 0o644); err == nil {
					err = os.Rename(other, path)
				}
			}
			if err != nil {
				t.Fatal(err)
			}
			select {
			case err := <-errc:
				if !errors.Is(err, errJournalChanged) {
					t.Errorf("source stopped with %v", err)
				}
			case it := <-out:
				t.Errorf("source read on: %+v", it)
			case <-ctx.Done():
				t.Error("the source is still waiting on the changed journal")
			}
		})
	}
}
