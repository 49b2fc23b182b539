package catalog_test

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/coupwatch/coupwatch/games"
	"github.com/coupwatch/coupwatch/games/catalog"
)

var update = flag.Bool("update", false, "rewrite docs/rules.md from the engines")

// TestRulesDoc keeps docs/rules.md in step with the engines' rule descriptions.
func TestRulesDoc(t *testing.T) {
	cat, err := catalog.New()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("..", "..", "docs", "rules.md")
	want := catalog.RulesDoc(cat)
	if *update {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./games/catalog -run TestRulesDoc -update)", err)
	}
	if string(got) != want {
		t.Errorf("docs/rules.md is out of date: run go test ./games/catalog -run TestRulesDoc -update")
	}
}

// TestEveryRuleIsComplete checks that each rule cites an article and each game documents its spots.
func TestEveryRuleIsComplete(t *testing.T) {
	cat, err := catalog.New()
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[games.Kind]bool{}
	for _, k := range games.Kinds() {
		kinds[k] = true
	}
	for _, g := range cat.Games() {
		if g.Name == "" || g.Source == "" || g.Spots == "" {
			t.Errorf("%s: name, source and spots must be documented", g.ID)
		}
		for _, r := range g.Rules {
			if r.Article == "" || r.Summary == "" || !kinds[r.Kind] || r.Severity == "" {
				t.Errorf("%s: rule %q is incomplete: %+v", g.ID, r.ID, r)
			}
			if !strings.Contains(r.ID, ".") {
				t.Errorf("%s: rule id %q should be namespaced (game.rule)", g.ID, r.ID)
			}
		}
	}
}
