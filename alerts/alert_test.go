package alerts_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/coupwatch/coupwatch/alerts"
	"github.com/coupwatch/coupwatch/games"
	"github.com/coupwatch/coupwatch/games/catalog"
	"github.com/coupwatch/coupwatch/games/replay"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// compileSchema compiles schema/alert.v1.json (as embedded in the package).
func compileSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(alerts.JSONSchema()))
	if err != nil {
		t.Fatalf("schema is not JSON: %v", err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("alert.v1.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("alert.v1.json")
	if err != nil {
		t.Fatalf("compiling the schema: %v", err)
	}
	return s
}

func validate(t *testing.T, s *jsonschema.Schema, msg []byte) error {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(msg))
	if err != nil {
		t.Fatalf("alert is not JSON: %v\n%s", err, msg)
	}
	return s.Validate(v)
}

// replayAlerts replays a journal and returns the alerts of its discrepancies.
func replayAlerts(t *testing.T, path string, m alerts.Meta) []*alerts.Alert {
	t.Helper()
	cat, err := catalog.New()
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []*alerts.Alert
	err = replay.Run(cat, []replay.Source{{Name: path, R: f}}, replay.Options{}, func(r games.Record) {
		if d, ok := r.(*games.Discrepancy); ok {
			out = append(out, alerts.New(d, m))
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

var meta = alerts.Meta{Site: "casino-1", Game: "roulette_european", Dealer: "D-0377", AgentID: "edge-1", AgentVersion: "test", Journal: "roulette.jsonl"}

// TestAlertsMatchSchema validates every alert produced from the test journal against the
// committed JSON Schema, and compares them with the golden messages.
func TestAlertsMatchSchema(t *testing.T) {
	s := compileSchema(t)
	as := replayAlerts(t, "testdata/roulette.jsonl", meta)
	if len(as) < 4 {
		t.Fatalf("only %d alerts from the test journal", len(as))
	}
	var golden bytes.Buffer
	kinds := map[string]bool{}
	for _, a := range as {
		msg, err := a.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		if err := validate(t, s, msg); err != nil {
			t.Errorf("alert does not match the schema: %v\n%s", err, msg)
		}
		back, err := alerts.Parse(msg)
		if err != nil {
			t.Errorf("Parse: %v", err)
		} else if back.ID != a.ID || back.Topic() != a.Topic() {
			t.Errorf("Parse changed the alert: %+v", back)
		}
		kinds[a.Kind] = true
		golden.Write(msg)
		golden.WriteByte('\n')
	}
	for _, k := range []string{"wrong_payout", "late_bet", "irregular_spin"} {
		if !kinds[k] {
			t.Errorf("the test journal raised no %s alert", k)
		}
	}
	compareGolden(t, "testdata/roulette.alerts.jsonl", golden.Bytes())
}

func compareGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (run with -update if the change is intended):\n got: %s\nwant: %s", path, got, want)
	}
}

// TestSchemaRejects checks that the schema is not vacuous: broken alerts fail it.
func TestSchemaRejects(t *testing.T) {
	s := compileSchema(t)
	as := replayAlerts(t, "testdata/roulette.jsonl", meta)
	good, err := as[0].Marshal()
	if err != nil {
		t.Fatal(err)
	}
	mutations := []struct {
		name string
		edit func(m map[string]any)
	}{
		{"missing id", func(m map[string]any) { delete(m, "id") }},
		{"short id", func(m map[string]any) { m["id"] = "abc" }},
		{"wrong schema", func(m map[string]any) { m["schema"] = "coupwatch.alert.v2" }},
		{"unknown kind", func(m map[string]any) { m["kind"] = "cheating" }},
		{"float money", func(m map[string]any) { m["expected"] = 12.5 }},
		{"bad time", func(m map[string]any) { m["t"] = "yesterday" }},
		{"table with slash", func(m map[string]any) { m["table"] = "RE/03" }},
		{"missing evidence lines", func(m map[string]any) { m["evidence"] = map[string]any{"frames": []any{}} }},
		{"missing dealer", func(m map[string]any) { delete(m, "dealer") }},
	}
	for _, mu := range mutations {
		t.Run(mu.name, func(t *testing.T) {
			var m map[string]any
			if err := json.Unmarshal(good, &m); err != nil {
				t.Fatal(err)
			}
			mu.edit(m)
			b, _ := json.Marshal(m)
			if validate(t, s, b) == nil {
				t.Errorf("schema accepted %s", b)
			}
		})
	}
}

func TestIDIsDeterministicAndDistinct(t *testing.T) {
	first := replayAlerts(t, "testdata/roulette.jsonl", meta)
	second := replayAlerts(t, "testdata/roulette.jsonl", alerts.Meta{Site: meta.Site, AgentID: "other-agent", AgentVersion: "v2"})
	seen := map[string]bool{}
	for i, a := range first {
		if a.ID != second[i].ID {
			t.Errorf("alert %d: id %s on one replay, %s on another", i, a.ID, second[i].ID)
		}
		if seen[a.ID] {
			t.Errorf("alert %d: id %s used twice", i, a.ID)
		}
		seen[a.ID] = true
	}
	d := &games.Discrepancy{Table: "RE-03", Coup: "1", T: time.Date(2026, 11, 22, 21, 0, 0, 0, time.UTC), Rule: "roulette.payout", Spot: "red", Player: "P1"}
	d.Evidence.AddRef(12, "")
	base := alerts.ID("s", d)
	variants := []func(d *games.Discrepancy) (site string){
		func(d *games.Discrepancy) string { return "s2" },
		func(d *games.Discrepancy) string { d.Table = "RE-04"; return "s" },
		func(d *games.Discrepancy) string { d.Coup = "2"; return "s" },
		func(d *games.Discrepancy) string { d.T = d.T.Add(time.Millisecond); return "s" },
		func(d *games.Discrepancy) string { d.Rule = "roulette.late_bet"; return "s" },
		func(d *games.Discrepancy) string { d.Spot = "black"; return "s" },
		func(d *games.Discrepancy) string { d.Player = "P2"; return "s" },
		func(d *games.Discrepancy) string { d.Evidence.AddRef(13, ""); return "s" },
		// Field boundaries are part of the hash: moving a character between fields changes it.
		func(d *games.Discrepancy) string { d.Spot, d.Player = "redP", "1"; return "s" },
	}
	for i, v := range variants {
		c := *d
		c.Evidence.Lines = append([]int(nil), d.Evidence.Lines...)
		site := v(&c)
		if id := alerts.ID(site, &c); id == base {
			t.Errorf("variant %d has the same id as the base finding", i)
		}
	}
}

func TestTopics(t *testing.T) {
	tests := []struct{ got, want string }{
		{alerts.AlertTopic("lyon", "RE-03", "late_bet"), "coupwatch/v1/lyon/RE-03/alerts/late_bet"},
		{alerts.StatusTopic("lyon", "RE-03"), "coupwatch/v1/lyon/RE-03/status"},
		{alerts.AlertFilter("", "", ""), "coupwatch/v1/+/+/alerts/+"},
		{alerts.AlertFilter("lyon", "", "wrong_payout"), "coupwatch/v1/lyon/+/alerts/wrong_payout"},
		{alerts.StatusFilter("lyon", ""), "coupwatch/v1/lyon/+/status"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}

// TestDocExample keeps the example message of docs/alerts.md valid against the schema.
func TestDocExample(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "alerts.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "<!-- example alert -->\n```json\n")
	if !ok {
		t.Fatal("docs/alerts.md has no ```json block after <!-- example alert -->")
	}
	example, _, ok := strings.Cut(rest, "```")
	if !ok {
		t.Fatal("unterminated example in docs/alerts.md")
	}
	if err := validate(t, compileSchema(t), []byte(example)); err != nil {
		t.Errorf("the example of docs/alerts.md does not match the schema: %v", err)
	}
	if _, err := alerts.Parse([]byte(example)); err != nil {
		t.Error(err)
	}
}
