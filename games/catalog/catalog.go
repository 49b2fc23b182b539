// Package catalog assembles every game coupwatch knows. It is the one place that imports all
// the game families; commands build their catalog here and pass it down.
package catalog

import (
	"github.com/coupwatch/coupwatch/games"
	"github.com/coupwatch/coupwatch/games/wheel"
)

// New returns a catalog of all the games.
func New() (*games.Catalog, error) {
	var all []*games.Game
	all = append(all, wheel.Games()...)
	return games.NewCatalog(all...)
}
