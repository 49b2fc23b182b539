// Package catalog assembles every game coupwatch knows. It is the one place that imports all
// the game families; commands build their catalog here and pass it down.
package catalog

import (
	"github.com/coupwatch/coupwatch/games"
	"github.com/coupwatch/coupwatch/games/baccara"
	"github.com/coupwatch/coupwatch/games/blackjack"
	"github.com/coupwatch/coupwatch/games/dice"
	"github.com/coupwatch/coupwatch/games/holdem"
	"github.com/coupwatch/coupwatch/games/poker"
	"github.com/coupwatch/coupwatch/games/trente"
	"github.com/coupwatch/coupwatch/games/wheel"
)

// New returns a catalog of all the games.
func New() (*games.Catalog, error) {
	var all []*games.Game
	all = append(all, wheel.Games()...)
	all = append(all, blackjack.Games()...)
	all = append(all, trente.Games()...)
	all = append(all, poker.Games()...)
	all = append(all, holdem.Games()...)
	all = append(all, baccara.Games()...)
	all = append(all, dice.Games()...)
	return games.NewCatalog(all...)
}
