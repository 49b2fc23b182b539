package blackjack_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/coupwatch/coupwatch/games"
	"github.com/coupwatch/coupwatch/games/blackjack"
	"github.com/coupwatch/coupwatch/games/gamestest"
)

// journalOf builds a blackjack journal: rules is the table_open's rules object ("" for none),
// each event a JSON fragment without t and table. Times advance a second per line.
func journalOf(rules string, events ...string) string {
	return gamestest.Table{ID: "BJ-T", Start: time.Date(2026, 11, 22, 21, 0, 0, 0, time.UTC), Game: "blackjack",
		Limits: `{"min":500,"max":50000}`, Rules: rules}.Journal(events...)
}

func catalog(t testing.TB) *games.Catalog {
	t.Helper()
	return gamestest.Catalog(t, blackjack.Games()...)
}

func tryRun(t *testing.T, src string) (gamestest.Output, error) {
	t.Helper()
	return gamestest.Replay(t, catalog(t), src)
}

func run(t *testing.T, src string) gamestest.Output {
	t.Helper()
	return gamestest.Run(t, catalog(t), src)
}

func bet(spot, player string, amount int64) string {
	return fmt.Sprintf(`"type":"bet","spot":%q,"player":%q,"amount":%d`, spot, player, amount)
}

func card(to, c string) string { return fmt.Sprintf(`"type":"card","to":%q,"card":%q`, to, c) }

func act(player, action, spot string) string {
	return fmt.Sprintf(`"type":"action","player":%q,"action":%q,"spot":%q`, player, action, spot)
}

func actAmount(player, action, spot string, amount int64) string {
	return fmt.Sprintf(`"type":"action","player":%q,"action":%q,"spot":%q,"amount":%d`, player, action, spot, amount)
}

func money(kind, spot, player string, amount int64) string {
	return fmt.Sprintf(`"type":%q,"spot":%q,"player":%q,"amount":%d`, kind, spot, player, amount)
}

func coupStart(id string) string { return fmt.Sprintf(`"type":"coup_start","coup":%q`, id) }

const (
	rnvp    = `"type":"no_more_bets","cause":"announce"`
	coupEnd = `"type":"coup_end"`
)

// burns returns n face-down burnt cards.
func burns(n int) []string {
	var r []string
	for i := 0; i < n; i++ {
		r = append(r, card("burn", "XX"))
	}
	return r
}

// deal returns the initial deal: first cards of the boxes in order, the croupier's card, second
// cards. boxes maps box spots (in deal order) to their two cards.
func deal(dealer string, boxes ...[3]string) []string {
	var r []string
	for _, b := range boxes {
		r = append(r, card(b[0], b[1]))
	}
	r = append(r, card("dealer", dealer))
	for _, b := range boxes {
		r = append(r, card(b[0], b[2]))
	}
	return r
}

func join(parts ...any) []string {
	var all []string
	for _, p := range parts {
		switch p := p.(type) {
		case string:
			all = append(all, p)
		case []string:
			all = append(all, p...)
		default:
			panic(fmt.Sprintf("join: %T", p))
		}
	}
	return all
}
