package wheel_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/coupwatch/coupwatch/games/gamestest"
	"github.com/coupwatch/coupwatch/games/wheel"
)

// journalOf builds a journal for table T-1: open is the table_open's extra fields, each event a
// JSON fragment without t and table ("type":"bet",...). Times advance a second per line.
func journalOf(game, open string, events ...string) string {
	return gamestest.Table{ID: "T-1", Start: time.Date(2026, 11, 22, 21, 0, 0, 0, time.UTC), Game: game, Open: open}.Journal(events...)
}

func run(t *testing.T, src string) gamestest.Output {
	t.Helper()
	return gamestest.Run(t, gamestest.Catalog(t, wheel.Games()...), src)
}

func tryRun(t *testing.T, src string) (gamestest.Output, error) {
	t.Helper()
	return gamestest.Replay(t, gamestest.Catalog(t, wheel.Games()...), src)
}

func bet(spot, player string, amount int64) string {
	return fmt.Sprintf(`"type":"bet","spot":%q,"player":%q,"amount":%d`, spot, player, amount)
}

func money(kind, spot, player string, amount int64) string {
	return fmt.Sprintf(`"type":%q,"spot":%q,"player":%q,"amount":%d`, kind, spot, player, amount)
}

func result(v string) string { return fmt.Sprintf(`"type":"result","value":%q`, v) }

func spin(revs int, ball, rotor string) string {
	return fmt.Sprintf(`"type":"spin","ball_revs":%d,"ball_dir":%q,"rotor_dir":%q`, revs, ball, rotor)
}

func wheelSpin(revs int, dir string) string {
	return fmt.Sprintf(`"type":"spin","revs":%d,"dir":%q`, revs, dir)
}

func action(player, act, spot string) string {
	return fmt.Sprintf(`"type":"action","player":%q,"action":%q,"spot":%q`, player, act, spot)
}

const (
	coupStart = `"type":"coup_start"`
	rnvp      = `"type":"no_more_bets","cause":"announce"`
	coupEnd   = `"type":"coup_end"`
)

// coup returns the events of one roulette coup: bets, a regular spin, the cut-off, the result,
// then the given money and actions, then coup_end.
func coup(rotor string, bets []string, res string, after ...string) []string {
	ball := "cw"
	if rotor == "cw" {
		ball = "ccw"
	}
	ev := append([]string{coupStart}, bets...)
	ev = append(ev, spin(9, ball, rotor), rnvp, result(res))
	ev = append(ev, after...)
	return append(ev, coupEnd)
}

func join(parts ...[]string) []string {
	var all []string
	for _, p := range parts {
		all = append(all, p...)
	}
	return all
}
