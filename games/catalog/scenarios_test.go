package catalog_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/coupwatch/coupwatch/games"
	"github.com/coupwatch/coupwatch/games/catalog"
	"github.com/coupwatch/coupwatch/games/replay"
)

// sharedDir finds ../shared (or $COUPWATCH_SHARED), where the public scenarios live.
func sharedDir() string {
	if d := os.Getenv("COUPWATCH_SHARED"); d != "" {
		return d
	}
	return filepath.Join("..", "..", "..", "shared")
}

// scenarioDirs returns the scenario folders: the public ones in ../shared and the project's
// own in testdata/scenarios.
func scenarioDirs() []string {
	return []string{filepath.Join(sharedDir(), "scenarios"), filepath.Join("testdata", "scenarios")}
}

// TestScenarios replays every scenario journal and compares it with its expected output the
// way the project is judged (../shared/tools/check-scenarios): every expected settlement with
// the same net, discrepancies one to one on coup, kind, spot, player (and the expected net of a
// wrong payout); extra settlements are fine, extra discrepancies are not.
func TestScenarios(t *testing.T) {
	cat, err := catalog.New()
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, root := range scenarioDirs() {
		journals, _ := filepath.Glob(filepath.Join(root, "*", "*.jsonl"))
		for _, j := range journals {
			if strings.HasSuffix(j, ".expected.jsonl") {
				continue
			}
			want := strings.TrimSuffix(j, ".jsonl") + ".expected.jsonl"
			if _, err := os.Stat(want); err != nil {
				continue
			}
			found++
			game := filepath.Base(filepath.Dir(j))
			name := game + "/" + strings.TrimSuffix(filepath.Base(j), ".jsonl")
			if strings.HasPrefix(root, "testdata") {
				name = "own/" + name
			}
			t.Run(name, func(t *testing.T) {
				if _, ok := cat.Game(game); !ok {
					t.Skipf("game %s has no engine yet", game)
				}
				checkScenario(t, cat, j, want)
			})
		}
	}
	if found == 0 {
		t.Skip("no scenarios found (set COUPWATCH_SHARED to the shared folder)")
	}
}

type settleKey struct{ coup, spot, player string }

type discKey struct {
	coup, kind   string
	spot, player *string
	expected     *string
}

func (d discKey) String() string {
	s := func(p *string) string {
		if p == nil {
			return "*"
		}
		return *p
	}
	return fmt.Sprintf("(coup %s %s spot %s player %s expected %s)", d.coup, d.kind, s(d.spot), s(d.player), s(d.expected))
}

func checkScenario(t *testing.T, cat *games.Catalog, journalPath, expectedPath string) {
	t.Helper()
	f, err := os.Open(journalPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var got []map[string]any
	err = replay.Run(cat, []replay.Source{{Name: journalPath, R: f}}, replay.Options{}, func(r games.Record) {
		var m map[string]any
		if err := json.Unmarshal(r.AppendJSON(nil), &m); err != nil {
			t.Fatalf("record is not JSON: %v", err)
		}
		got = append(got, m)
	})
	if err != nil {
		t.Fatalf("replay: %v", err)
	}
	want := loadJSONL(t, expectedPath)
	ws, wd := keys(want)
	gs, gd := keys(got)
	var problems []string
	for k, v := range ws {
		g, ok := gs[k]
		switch {
		case !ok:
			problems = append(problems, fmt.Sprintf("no settlement %v", k))
		case g != v:
			problems = append(problems, fmt.Sprintf("settlement %v: want %d got %d", k, v, g))
		}
	}
	rest := append([]discKey(nil), gd...)
	for _, w := range wd {
		matched := false
		for i, g := range rest {
			if w.coup == g.coup && w.kind == g.kind && matchOpt(w.spot, g.spot) && matchOpt(w.player, g.player) && matchOpt(w.expected, g.expected) {
				rest = append(rest[:i], rest[i+1:]...)
				matched = true
				break
			}
		}
		if !matched {
			problems = append(problems, "missing discrepancy "+w.String())
		}
	}
	for _, g := range rest {
		problems = append(problems, "unexpected discrepancy "+g.String())
	}
	sort.Strings(problems)
	for _, p := range problems {
		t.Error(p)
	}
}

func matchOpt(want, got *string) bool {
	if want == nil {
		return true
	}
	return got != nil && *want == *got
}

func loadJSONL(t *testing.T, path string) []map[string]any {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []map[string]any
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, m)
	}
	return out
}

func str(v any) *string {
	if v == nil {
		return nil
	}
	var s string
	switch v := v.(type) {
	case string:
		s = v
	case float64:
		s = fmt.Sprint(int64(v))
	default:
		s = fmt.Sprint(v)
	}
	return &s
}

func keys(records []map[string]any) (map[settleKey]int64, []discKey) {
	sett := map[settleKey]int64{}
	var disc []discKey
	for _, r := range records {
		switch r["type"] {
		case "settlement":
			k := settleKey{deref(str(r["coup"])), deref(str(r["spot"])), deref(str(r["player"]))}
			n, _ := r["expected"].(float64)
			sett[k] += int64(n)
		case "discrepancy":
			d := discKey{coup: deref(str(r["coup"])), kind: deref(str(r["kind"])), spot: str(r["spot"]), player: str(r["player"])}
			if r["kind"] == "wrong_payout" {
				d.expected = str(r["expected"])
			}
			disc = append(disc, d)
		}
	}
	return sett, disc
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
