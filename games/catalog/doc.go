package catalog

import (
	"fmt"
	"strings"

	"github.com/coupwatch/coupwatch/games"
)

// RulesDoc renders docs/rules.md: every game, its rules options with their defaults, and every
// rule id with its kind, severity, article and the reading chosen where the texts are ambiguous.
// The file is generated from the engines' own descriptions (go test ./games/catalog -update).
func RulesDoc(cat *games.Catalog) string {
	var b strings.Builder
	b.WriteString("# Rules: every game, rule id and rules option\n\n")
	b.WriteString("<!-- Generated from the engines by `go test ./games/catalog -run TestRulesDoc -update`. Do not edit. -->\n\n")
	b.WriteString("Each discrepancy in the replay output and each alert carries a `rule` id from this page and the\n")
	b.WriteString("`article` it comes from. Seed line numbers (Lnnn) refer to the regulation texts in `../shared/seeds/`\n")
	b.WriteString("(001 = Monaco AM 88-384, 003 = Monaco AM 2008-761, 000/004 = French arrêté of 30 Dec 2014, 002 = the\n")
	b.WriteString("later rampo wording). Where the texts are silent or ambiguous, **Reading** states the default the engine\n")
	b.WriteString("applies; a rules option (`table_open.rules`) lets a house choose another. An unknown option is an error.\n\n")
	b.WriteString("Every game also accepts `rounding` (amounts due to players: exact cents, fractions rounded down, unless\n")
	b.WriteString("the house sets `\"up\"`, `\"nearest\"`, a unit in cents, or `{\"unit\": 50, \"mode\": \"nearest\"}`).\n\n")
	b.WriteString("Every game reports a stake changed after the cut-off once in the coup, however often it changes\n")
	b.WriteString("(`late_bet`); at the wheels a stake outside the limits is likewise reported once in the coup, judged\n")
	b.WriteString("at the amount it plays for when it was changed late.\n\n")
	b.WriteString("Games: ")
	for i, g := range cat.Games() {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "[%s](#%s)", g.Name, g.ID)
	}
	b.WriteString(".\n\n")
	for _, g := range cat.Games() {
		fmt.Fprintf(&b, "## %s\n\n", g.ID)
		fmt.Fprintf(&b, "**%s**: %s.\n\n", g.Name, g.Source)
		fmt.Fprintf(&b, "Spots: %s.\n\n", g.Spots)
		if len(g.Options) > 0 {
			b.WriteString("| option | default | meaning |\n|---|---|---|\n")
			for _, o := range g.Options {
				fmt.Fprintf(&b, "| `%s` | `%s` | %s |\n", o.Key, o.Default, cell(o.Doc))
			}
			b.WriteString("\n")
		}
		b.WriteString("| rule | kind | severity | article | rule and reading |\n|---|---|---|---|---|\n")
		for _, r := range g.Rules {
			text := cell(r.Summary)
			if r.Reading != "" {
				text += " **Reading:** " + cell(r.Reading)
			}
			fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s |\n", r.ID, r.Kind, r.Severity, cell(r.Article), text)
		}
		b.WriteString("\n")
	}
	return b.String()
}

func cell(s string) string { return strings.ReplaceAll(s, "|", "\\|") }
