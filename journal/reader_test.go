package journal_test

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/coupwatch/coupwatch/journal"
)

func readAll(t *testing.T, src string) ([]*journal.Event, error) {
	t.Helper()
	r := journal.NewReader(strings.NewReader(src), "j.jsonl")
	var evs []*journal.Event
	for {
		ev, err := r.Next()
		if errors.Is(err, io.EOF) {
			return evs, nil
		}
		if err != nil {
			return evs, err
		}
		evs = append(evs, ev.Clone())
	}
}

const head = `{"t":"2026-11-22T21:04:05.120Z","table":"RE-03","type":"table_open","game":"roulette_european","limits":{"min":200,"max":50000},"schema":1}` + "\n"

func TestReaderAcceptsEveryType(t *testing.T) {
	src := head + strings.Join([]string{
		`{"t":"2026-11-22T21:04:06Z","table":"RE-03","type":"dealer","dealer":"D-1"}`,
		`{"t":"2026-11-22T21:04:06.5Z","table":"RE-03","type":"coup_start","coup":"7"}`,
		`{"t":"2026-11-22T22:04:07.000+01:00","table":"RE-03","type":"note","text":"offset \u00e9t\u00e9 \ud83c\udfb2"}`,
		`{"t":"2026-11-22T21:04:07.100Z","table":"RE-03","type":"bet","src":"vision","conf":0.97,"frame":"cam#12","spot":"straight:17","player":"P1","amount":1000,"future":{"x":[1,2,{"y":null}]}}`,
		`{"t":"2026-11-22T21:04:08Z","table":"RE-03","type":"no_more_bets","cause":"announce"}`,
		`{"t":"2026-11-22T21:04:08Z","table":"RE-03","type":"card","to":"box:2.1","card":"10H"}`,
		`{"t":"2026-11-22T21:04:08Z","table":"RE-03","type":"reveal","to":"seat:3","cards":["AS","KD"]}`,
		`{"t":"2026-11-22T21:04:08Z","table":"RE-03","type":"action","player":"P1","action":"double","spot":"box:1","amount":500}`,
		`{"t":"2026-11-22T21:04:09Z","table":"RE-03","type":"spin","ball_revs":9.5,"ball_dir":"cw","rotor_dir":"ccw"}`,
		`{"t":"2026-11-22T21:04:09Z","table":"RE-03","type":"result","value":17}`,
		`{"t":"2026-11-22T21:04:09Z","table":"RE-03","type":"dice","values":[3,4],"faults":["slid","cocked"]}`,
		`{"t":"2026-11-22T21:04:10Z","table":"RE-03","type":"payout","spot":"straight:17","player":"P1","amount":35000}`,
		`{"t":"2026-11-22T21:04:10Z","table":"RE-03","type":"collect","spot":"red","player":"P2"}`,
		`{"t":"2026-11-22T21:04:10Z","table":"RE-03","type":"refund","spot":"red","player":"P2","amount":100}`,
		`{"t":"2026-11-22T21:04:10Z","table":"RE-03","type":"rake","amount":50}`,
		`{"t":"2026-11-22T21:04:11Z","table":"RE-03","type":"coup_end"}`,
	}, "\r\n") + "\n\n"
	evs, err := readAll(t, src)
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 17 {
		t.Fatalf("got %d events, want 17", len(evs))
	}
	if got := evs[0].Limits; got.Min != 200 || got.Max != 50000 || !evs[0].HasLimits {
		t.Errorf("limits = %+v", got)
	}
	// A member of limits that cannot be a limit (text, a flag) is another field, ignored.
	other, err := readAll(t, `{"t":"2026-11-22T21:04:05.120Z","table":"RE-03","type":"table_open","game":"boule","limits":{"min":200,"max":20000,"currency":"EUR","shared":true,"number":5000},"schema":1}`+"\n")
	if err != nil {
		t.Fatal(err)
	}
	if got := other[0].Limits; got.Min != 200 || got.Max != 20000 || len(got.Spots) != 1 || got.Spots["number"].Max != 5000 {
		t.Errorf("limits with other members = %+v", got)
	}
	// Overrides under a name of their own are read as "spots" is, each form of limit.
	for _, name := range []string{"per_spot", "overrides", "by_spot"} {
		named, err := readAll(t, `{"t":"2026-11-22T21:04:05.120Z","table":"RE-03","type":"table_open","game":"roulette_european","limits":{"min":200,"max":50000,"`+name+`":{"straight":2500,"red":{"min":500,"max":100000},"note":"x"}},"schema":1}`+"\n")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got := named[0].Limits
		if min, max := got.For("straight:17"); min != 200 || max != 2500 {
			t.Errorf("%s: straight:17 limits %d-%d, want 200-2500", name, min, max)
		}
		if min, max := got.For("red"); min != 500 || max != 100000 || len(got.Spots) != 2 {
			t.Errorf("%s: red limits %d-%d, spots %+v", name, min, max, got.Spots)
		}
	}
	// A spin's faults: an obstruction by any of its names; other names are no fault of a spin.
	for faults, want := range map[string]bool{`["touched"]`: true, `["obstruction"]`: true, `["blocked","wobbly"]`: true, `["wobbly"]`: false, `[]`: false} {
		spin, err := readAll(t, head+`{"t":"2026-11-22T21:04:06Z","table":"RE-03","type":"spin","revs":5,"dir":"cw","faults":`+faults+`}`+"\n")
		if err != nil {
			t.Fatalf("spin faults %s: %v", faults, err)
		}
		if got := spin[1].Obstructed; got != want || len(spin[1].Faults) != 0 {
			t.Errorf("spin faults %s: obstructed %v faults %v, want obstructed %v", faults, got, spin[1].Faults, want)
		}
	}
	// The flag by either name.
	for _, name := range []string{"obstructed", "obstruction"} {
		spin, err := readAll(t, head+`{"t":"2026-11-22T21:04:06Z","table":"RE-03","type":"spin","revs":5,"dir":"cw","`+name+`":true}`+"\n")
		if err != nil {
			t.Fatalf("spin %s: %v", name, err)
		}
		if !spin[1].Obstructed {
			t.Errorf("spin %s: true is not read as an obstruction", name)
		}
	}
	if evs[2].Coup != "7" || evs[3].Text != "offset été 🎲" {
		t.Errorf("coup %q text %q", evs[2].Coup, evs[3].Text)
	}
	if got := journal.FormatTime(evs[3].T); got != "2026-11-22T21:04:07.000Z" {
		t.Errorf("offset time = %s", got)
	}
	bet := evs[4]
	if bet.Spot != "straight:17" || bet.Player != "P1" || bet.Amount != 1000 || !bet.HasConf || bet.Conf != 0.97 || bet.Frame != "cam#12" || bet.Line != 5 {
		t.Errorf("bet = %+v", bet)
	}
	if evs[6].Card.String() != "TH" || evs[6].To != "box:2.1" {
		t.Errorf("card = %v to %s", evs[6].Card, evs[6].To)
	}
	if len(evs[7].Cards) != 2 || evs[7].Cards[0].String() != "AS" {
		t.Errorf("reveal = %v", evs[7].Cards)
	}
	if evs[9].BallRevs != 9.5 || evs[9].RotorDir != "ccw" {
		t.Errorf("spin = %+v", evs[9])
	}
	if evs[10].Value != "17" {
		t.Errorf("result = %q", evs[10].Value)
	}
	if !reflect.DeepEqual(evs[11].Values, []int{3, 4}) || !reflect.DeepEqual(evs[11].Faults, []string{"slid", "cocked"}) {
		t.Errorf("dice = %v %v", evs[11].Values, evs[11].Faults)
	}
	if evs[13].HasAmount {
		t.Errorf("collect without amount has HasAmount")
	}
}

func TestReaderRejects(t *testing.T) {
	tests := []struct {
		name, line, want string
	}{
		{"not json", `{"t":"2026-11-22T21:04:06Z",`, "invalid JSON"},
		{"trailing data", `{"t":"2026-11-22T21:04:06Z","table":"RE-03","type":"coup_end"} x`, "unexpected data after the object"},
		{"array", `[1,2]`, "one JSON object"},
		{"unknown type", `{"t":"2026-11-22T21:04:06Z","table":"RE-03","type":"bett"}`, `unknown event type "bett"`},
		{"missing type", `{"t":"2026-11-22T21:04:06Z","table":"RE-03"}`, `missing "type"`},
		{"missing t", `{"table":"RE-03","type":"coup_end"}`, `missing "t"`},
		{"bad time", `{"t":"22/11/2026","table":"RE-03","type":"coup_end"}`, "RFC 3339"},
		{"backwards", `{"t":"2026-11-22T21:04:04Z","table":"RE-03","type":"coup_end"}`, "time goes backwards"},
		{"no table", `{"t":"2026-11-22T21:04:06Z","type":"coup_end"}`, `needs "table"`},
		{"negative", `{"t":"2026-11-22T21:04:06Z","table":"RE-03","type":"bet","spot":"red","player":"P1","amount":-100}`, "negative"},
		{"float money", `{"t":"2026-11-22T21:04:06Z","table":"RE-03","type":"payout","spot":"red","player":"P1","amount":10.5}`, "integer number of cents"},
		{"huge float money", `{"t":"2026-11-22T21:04:06Z","table":"RE-03","type":"payout","spot":"red","player":"P1","amount":1e300}`, "integer number of cents"},
		{"string money", `{"t":"2026-11-22T21:04:06Z","table":"RE-03","type":"bet","spot":"red","player":"P1","amount":"100"}`, "integer number of cents"},
		{"no amount", `{"t":"2026-11-22T21:04:06Z","table":"RE-03","type":"bet","spot":"red","player":"P1"}`, `needs "amount"`},
		{"no spot", `{"t":"2026-11-22T21:04:06Z","table":"RE-03","type":"bet","player":"P1","amount":1}`, `needs "spot"`},
		{"bad card", `{"t":"2026-11-22T21:04:06Z","table":"RE-03","type":"card","to":"dealer","card":"1H"}`, "bad card"},
		{"bad place", `{"t":"2026-11-22T21:04:06Z","table":"RE-03","type":"card","to":"box:0","card":"AH"}`, "unknown card place"},
		{"bad die", `{"t":"2026-11-22T21:04:06Z","table":"RE-03","type":"dice","values":[0,7]}`, "1 to 6"},
		{"bad fault", `{"t":"2026-11-22T21:04:06Z","table":"RE-03","type":"dice","values":[1,2],"faults":["wobbly"]}`, `unknown fault "wobbly"`},
		{"bad dir", `{"t":"2026-11-22T21:04:06Z","table":"RE-03","type":"spin","ball_revs":8,"ball_dir":"left"}`, "cw"},
		{"bad conf", `{"t":"2026-11-22T21:04:06Z","table":"RE-03","type":"coup_end","conf":1.5}`, "conf"},
		{"schema 2", `{"t":"2026-11-22T21:04:06Z","table":"RE-03","type":"table_open","game":"boule","schema":2}`, "schema 2"},
		{"limit text override", `{"t":"2026-11-22T21:04:06Z","table":"RE-03","type":"table_open","game":"boule","limits":{"min":100,"number":[5]}}`, "limits.number: must be an integer maximum"},
		{"limits", `{"t":"2026-11-22T21:04:06Z","table":"RE-03","type":"table_open","game":"boule","limits":{"min":500,"max":100}}`, "above limits.max"},
		{"bad cause", `{"t":"2026-11-22T21:04:06Z","table":"RE-03","type":"no_more_bets","cause":"later"}`, "cause"},
		{"control char", "{\"t\":\"2026-11-22T21:04:06Z\",\"table\":\"RE\x01\",\"type\":\"coup_end\"}", "control character"},
		{"deep", `{"t":"2026-11-22T21:04:06Z","table":"RE-03","type":"coup_end","x":` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + `}`, "nesting"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := readAll(t, head+tt.line+"\n")
			if err == nil {
				t.Fatalf("accepted %s", tt.line)
			}
			if !journal.IsInvalid(err) {
				t.Errorf("error %v is not a LineError", err)
			}
			if !strings.HasPrefix(err.Error(), "j.jsonl:2: ") || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %q, want j.jsonl:2: ...%s...", err, tt.want)
			}
		})
	}
}

// A whole number of cents written with a zero fraction or an exponent is that integer.
func TestReaderWholeMoneyAsDecimal(t *testing.T) {
	for _, amount := range []string{"1000.0", "1000.00", "1e3", "1.0E3"} {
		evs, err := readAll(t, head+`{"t":"2026-11-22T21:04:06Z","table":"RE-03","type":"bet","spot":"red","player":"P1","amount":`+amount+`}`+"\n")
		if err != nil {
			t.Fatalf("%s: %v", amount, err)
		}
		if got := evs[len(evs)-1]; got.Amount != 1000 || !got.HasAmount {
			t.Errorf("%s read as %d (has %v), want 1000", amount, got.Amount, got.HasAmount)
		}
	}
}

func TestReaderSkipsUnknownTypesOnRequest(t *testing.T) {
	r := journal.NewReader(strings.NewReader(head+`{"t":"2026-11-22T21:04:06Z","table":"RE-03","type":"wink"}`+"\n"), "j")
	r.SkipUnknownTypes(true)
	n := 0
	for {
		_, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	if n != 1 || r.Skipped() != 1 {
		t.Errorf("read %d, skipped %d", n, r.Skipped())
	}
}

func TestLongLine(t *testing.T) {
	long := `{"t":"2026-11-22T21:04:06Z","table":"RE-03","type":"note","text":"` + strings.Repeat("a", 200000) + `"}`
	evs, err := readAll(t, head+long)
	if err != nil {
		t.Fatal(err)
	}
	if len(evs[1].Text) != 200000 {
		t.Errorf("text length %d", len(evs[1].Text))
	}
	_, err = readAll(t, head+`{"t":"2026-11-22T21:04:06Z","table":"RE-03","type":"note","text":"`+strings.Repeat("a", journal.MaxLineBytes+10)+`"}`)
	if err == nil || !strings.Contains(err.Error(), "longer than") {
		t.Errorf("over-long line: %v", err)
	}
}

// TestByteOrderMark: a UTF-8 byte order mark on the first line is skipped; anywhere else it is
// invalid input.
func TestByteOrderMark(t *testing.T) {
	evs, err := readAll(t, "\xef\xbb\xbf"+head)
	if err != nil || len(evs) != 1 || evs[0].Type != journal.TypeTableOpen {
		t.Fatalf("BOM on line 1: %v %v", evs, err)
	}
	if _, err := readAll(t, head+"\xef\xbb\xbf"+head); err == nil {
		t.Error("a BOM on line 2 was accepted")
	}
}

// TestRoundTripScenarios reads every public scenario, writes it back and reads it again.
func TestRoundTripScenarios(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(sharedDir(t), "scenarios", "*", "*.jsonl"))
	n := 0
	for _, f := range files {
		if strings.HasSuffix(f, ".expected.jsonl") {
			continue
		}
		n++
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		evs, err := readAll(t, string(src))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		var buf bytes.Buffer
		w := journal.NewWriter(&buf)
		for _, ev := range evs {
			if err := w.Write(ev); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		again, err := readAll(t, buf.String())
		if err != nil {
			t.Fatalf("%s rewritten: %v", f, err)
		}
		for i := range evs {
			evs[i].Rules, again[i].Rules = compact(evs[i].Rules), compact(again[i].Rules)
		}
		if !reflect.DeepEqual(evs, again) {
			t.Errorf("%s: round trip differs", f)
		}
	}
	if n == 0 {
		t.Skip("no scenarios found")
	}
}

func sharedDir(t *testing.T) string {
	t.Helper()
	if d := os.Getenv("COUPWATCH_SHARED"); d != "" {
		return d
	}
	return filepath.Join("..", "..", "shared")
}

func TestParseBox(t *testing.T) {
	tests := []struct {
		in        string
		box, hand int
		ok        bool
	}{
		{"box:1", 1, 0, true}, {"box:12.3", 12, 3, true}, {"box:0", 0, 0, false},
		{"box:1.0", 0, 0, false}, {"box:01", 0, 0, false}, {"box:", 0, 0, false},
		{"box:1:pairs", 0, 0, false}, {"seat:1", 0, 0, false}, {"box:+1", 0, 0, false},
	}
	for _, tt := range tests {
		b, h, ok := journal.ParseBox(tt.in)
		if b != tt.box || h != tt.hand || ok != tt.ok {
			t.Errorf("ParseBox(%q) = %d %d %v", tt.in, b, h, ok)
		}
	}
}

// A rejected line does not set the time the next lines may not go before: the agent goes on
// after a bad line, and a stray date on it must not blind the table to every line after it.
func TestRejectedLineSetsNoTime(t *testing.T) {
	r := journal.NewReader(strings.NewReader(head+
		`{"t":"2026-12-05T23:00:00Z","table":"RE-03","type":"bet","spot":"red","player":"P1","amount":-5}`+"\n"+
		`{"t":"2026-11-22T21:04:07Z","table":"RE-03","type":"coup_end"}`+"\n"), "j.jsonl")
	if _, err := r.Next(); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Next(); err == nil || !strings.Contains(err.Error(), "negative") {
		t.Fatalf("the bad line: %v", err)
	}
	ev, err := r.Next()
	if err != nil {
		t.Fatalf("the line after it: %v", err)
	}
	if ev.Type != journal.TypeCoupEnd || ev.Line != 3 {
		t.Errorf("read %v at line %d", ev.Type, ev.Line)
	}
}
