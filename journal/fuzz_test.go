package journal_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/coupwatch/coupwatch/journal"
)

// FuzzReader proves the reader never panics, accepts only valid JSON objects, and that what it
// accepts survives a write/read round trip unchanged.
func FuzzReader(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(os.Getenv("COUPWATCH_SHARED"), "scenarios", "*", "*.jsonl"))
	if len(files) == 0 {
		files, _ = filepath.Glob(filepath.Join("..", "..", "shared", "scenarios", "*", "*.jsonl"))
	}
	for _, p := range files {
		if strings.HasSuffix(p, ".expected.jsonl") {
			continue
		}
		fh, err := os.Open(p)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(nil, 1<<20)
		for i := 0; sc.Scan() && i < 12; i++ {
			f.Add(append([]byte(nil), sc.Bytes()...))
		}
		fh.Close()
	}
	for _, s := range []string{
		`{"t":"2026-11-22T21:04:05.120Z","table":"T","type":"bet","spot":"red","player":"P","amount":1}`,
		`{"t":"2026-11-22T21:04:05Z","table":"T","type":"table_open","game":"boule","rules":{"a":[1,{"b":"\u00e9"}]},"limits":{"min":1,"max":2,"spots":{"red":{"max":1}},"number":5}}`,
		`{"t":"2026-11-22T21:04:05Z","table":"T","type":"note","text":"\ud83c\udfb2 \" \\ \/ \b\f\n\r\t"}`,
		`{"t":"2026-11-22T21:04:05Z","table":"T","type":"dice","values":[1,6],"faults":["stacked"]}`,
		`{"t":"2026-11-22T21:04:05Z","table":"T","type":"reveal","to":"board","cards":["AS","10D"]}`,
		`{"t":"2026-11-22T21:04:05Z","table":"T","type":"spin","revs":3.5,"dir":"cw","faults":["obstruction"]}`,
		`{"t":"2026-11-22T21:04:05Z","table":"T","type":"result","value":"00"}`,
		`{"t":"1e3"}`, `{"a":-0.1e-5}`, `{`, `{"t":"\ud800"}`, "{\"t\":\"\xff\"}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		if bytes.ContainsAny(line, "\n") {
			return
		}
		r := journal.NewReader(bytes.NewReader(line), "fuzz")
		ev, err := r.Next()
		if errors.Is(err, io.EOF) {
			return
		}
		if err != nil {
			if !journal.IsInvalid(err) {
				t.Fatalf("non-LineError %v", err)
			}
			return
		}
		if !json.Valid(line) {
			t.Fatalf("accepted invalid JSON %q", line)
		}
		ev = ev.Clone()
		out, err := journal.Marshal(ev)
		if err != nil {
			t.Fatalf("marshal: %v", err)
		}
		r2 := journal.NewReader(bytes.NewReader(out), "again")
		ev2, err := r2.Next()
		if err != nil {
			t.Fatalf("re-reading %s: %v", out, err)
		}
		ev2 = ev2.Clone()
		ev2.Line = ev.Line
		// Rules are kept as raw JSON; compare them compacted.
		ev.Rules, ev2.Rules = compact(ev.Rules), compact(ev2.Rules)
		if !reflect.DeepEqual(ev, ev2) {
			t.Fatalf("round trip differs:\n in  %q\n out %s\n %+v\n %+v", line, out, ev, ev2)
		}
	})
}

func compact(b []byte) []byte {
	if b == nil {
		return nil
	}
	var buf bytes.Buffer
	_ = json.Compact(&buf, b)
	return buf.Bytes()
}
