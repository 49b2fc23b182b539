package gamestest_test

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/coupwatch/coupwatch/games/gamestest"
	"github.com/coupwatch/coupwatch/games/wheel"
)

func TestJournal(t *testing.T) {
	got := gamestest.Table{ID: "T-1", Start: time.Date(2026, 11, 22, 21, 0, 0, 0, time.UTC), Game: "roulette_european",
		Limits: `{"min":100}`, Rules: `{"payment_order":"off"}`, Open: `"name":"x"`}.Journal(`"type":"coup_start"`, gamestest.Fragment(map[string]any{"type": "result", "value": "17"}))
	want := `{"t":"2026-11-22T21:00:01Z","table":"T-1","type":"table_open","game":"roulette_european","schema":1,"limits":{"min":100},"rules":{"payment_order":"off"},"name":"x"}
{"t":"2026-11-22T21:00:02Z","table":"T-1","type":"coup_start"}
{"t":"2026-11-22T21:00:03Z","table":"T-1","type":"result","value":"17"}
`
	if got != want {
		t.Errorf("journal:\n%s\nwant:\n%s", got, want)
	}
}

func TestReplay(t *testing.T) {
	src := gamestest.Table{ID: "T-1", Start: time.Date(2026, 11, 22, 21, 0, 0, 0, time.UTC), Game: "roulette_european"}.Journal(
		`"type":"coup_start"`, `"type":"bet","spot":"red","player":"P1","amount":100`, `"type":"bet","spot":"black","player":"P2","amount":100`,
		`"type":"result","value":"1"`, `"type":"payout","spot":"red","player":"P1","amount":200`, `"type":"coup_end"`)
	o := gamestest.Run(t, gamestest.Catalog(t, wheel.Games()...), src)
	if len(o.Settlements) != 2 || len(o.Coups) != 1 || strings.Count(string(o.JSONL), "\n") != 2+len(o.Findings)+1 {
		t.Fatalf("output %s\n%s", o, o.JSONL)
	}
	if s := o.Settlement(t, "1", "red", "P1"); s.Expected != 100 {
		t.Errorf("red: %d", s.Expected)
	}
	if got, want := o.Rules(), []string{"1:roulette.payout"}; !reflect.DeepEqual(got, want) {
		t.Errorf("rules %v, want %v%s", got, want, o)
	}
	if got, want := o.Nets(), []string{"1 black P2 -100", "1 red P1 100"}; !reflect.DeepEqual(got, want) {
		t.Errorf("nets %v, want %v", got, want)
	}
	if got, want := o.CoupNets("1"), []string{"black P2 -100", "red P1 100"}; !reflect.DeepEqual(got, want) {
		t.Errorf("coup nets %v, want %v", got, want)
	}
	if got := o.CoupNets("2"); got == nil || len(got) != 0 {
		t.Errorf("coup 2 nets %#v", got)
	}
	if _, err := gamestest.Replay(t, gamestest.Catalog(t, wheel.Games()...), src+"{}\n"); err == nil || !strings.HasPrefix(err.Error(), "t.jsonl:8:") {
		t.Errorf("error %v, want one at t.jsonl:8", err)
	}
}

// recorder keeps the errors a helper reports instead of failing the test.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

func TestGolden(t *testing.T) {
	path := filepath.Join(t.TempDir(), "new", "x.golden")
	gamestest.Golden(t, path, []byte("a\nb\n"), true)
	if b, err := os.ReadFile(path); err != nil || string(b) != "a\nb\n" {
		t.Fatalf("update wrote %q, %v", b, err)
	}
	gamestest.Golden(t, path, []byte("a\nb\n"), false)
	r := &recorder{TB: t}
	gamestest.Golden(r, path, []byte("a\nc\n"), false)
	if len(r.errs) != 1 || !strings.Contains(r.errs[0], "x.golden line 2 differs") || !strings.Contains(r.errs[0], "got  c\n want b") {
		t.Errorf("errors %q", r.errs)
	}
}
