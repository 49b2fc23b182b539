package games

import (
	"fmt"
	"sort"

	"github.com/coupwatch/coupwatch/journal"
)

// Rule is one rule an engine checks. Its ID is stable (alerts, statistics and dashboards key
// on it); its Article says where the regulation states it.
type Rule struct {
	ID       string
	Kind     Kind
	Severity Severity
	// Article cites the regulation: "AM 88-384 art. 8.3 (seed 001 L558)".
	Article string
	// Summary is one sentence for docs/rules.md.
	Summary string
	// Reading, when set, is the reading chosen where the texts are ambiguous.
	Reading string
}

// OptionDoc documents one rules option of a game (a key of table_open.rules).
type OptionDoc struct {
	Key     string
	Default string
	Doc     string
}

// Setup is what an engine is built from: the table_open event of its table.
type Setup struct {
	Table string
	Game  *Game
	// Open is the table_open event (a clone the engine may keep).
	Open *journal.Event
	// Prev is the table's previous table_open, nil for its first (a clone the engine may keep).
	Prev *journal.Event
	// Dealer is the dealer on duty when the table opened, if known.
	Dealer string
	// Options are the rules options; the engine reads what it knows, the runner rejects the rest.
	Options *Options
	// NextCoup numbers the table's coups (1, 2, ...) for coup_start events without an id.
	NextCoup func() string
}

// Engine replays the coups of one table. Apply and Close append their records to out and
// return it. Engines never keep the *journal.Event they are given past the call.
type Engine interface {
	Apply(ev *journal.Event, out []Record) []Record
	// Close ends the open coup, if any, at the end of the journal or at shutdown.
	Close(out []Record) []Record
}

// Game describes one game: how to validate its events and how to build its engine.
type Game struct {
	// ID is the journal's game id ("roulette_european").
	ID string
	// Name is the game's name for people.
	Name string
	// Source cites the regulation the engine implements.
	Source string
	// Spots documents the spots in one line.
	Spots string
	// Rules lists every rule the engine can raise.
	Rules []Rule
	// Options documents the rules options with their defaults.
	Options []OptionDoc
	// Check validates an event against the game (spot, result value, card place, action);
	// a non-nil error makes the journal invalid.
	Check func(ev *journal.Event) error
	// New builds an engine for a table.
	New func(s Setup) (Engine, error)
}

// Rule returns the game's rule with the given id; it panics on an unknown id, which is a
// programming error caught by the package tests.
func (g *Game) Rule(id string) Rule {
	for _, r := range g.Rules {
		if r.ID == id {
			return r
		}
	}
	panic(fmt.Sprintf("games: %s has no rule %q", g.ID, id))
}

// Catalog is the set of games an agent knows, by id.
type Catalog struct {
	games map[string]*Game
}

// NewCatalog builds a catalog; duplicate ids are an error.
func NewCatalog(gs ...*Game) (*Catalog, error) {
	c := &Catalog{games: make(map[string]*Game, len(gs))}
	for _, g := range gs {
		if _, dup := c.games[g.ID]; dup {
			return nil, fmt.Errorf("games: duplicate game %q", g.ID)
		}
		if g.New == nil || g.Check == nil {
			return nil, fmt.Errorf("games: game %q has no engine or checker", g.ID)
		}
		seen := map[string]bool{}
		for _, r := range g.Rules {
			if seen[r.ID] {
				return nil, fmt.Errorf("games: %s lists rule %q twice", g.ID, r.ID)
			}
			seen[r.ID] = true
		}
		c.games[g.ID] = g
	}
	return c, nil
}

// Game returns the game with that id.
func (c *Catalog) Game(id string) (*Game, bool) {
	g, ok := c.games[id]
	return g, ok
}

// Games returns every game, sorted by id.
func (c *Catalog) Games() []*Game {
	out := make([]*Game, 0, len(c.games))
	for _, g := range c.games {
		out = append(out, g)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// IDs returns the game ids, sorted.
func (c *Catalog) IDs() []string {
	out := make([]string, 0, len(c.games))
	for id := range c.games {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}
