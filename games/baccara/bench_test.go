package baccara_test

import (
	"bytes"
	"testing"

	"github.com/coupwatch/coupwatch/games/gamestest"

	"github.com/coupwatch/coupwatch/games"
	"github.com/coupwatch/coupwatch/games/baccara"
	"github.com/coupwatch/coupwatch/games/replay"
)

var gameIDs = []string{"punto_banco", "chemin_de_fer", "banque_a_tout_va"}

// TestGeneratedShiftsAreClean replays long generated shifts (several shoes each, with burns,
// stop cards, last coups, options taken both ways) whose payments are computed independently
// of the engine: the engine must find nothing and agree with every payment.
func TestGeneratedShiftsAreClean(t *testing.T) {
	cat, err := games.NewCatalog(baccara.Games()...)
	if err != nil {
		t.Fatal(err)
	}
	for _, game := range gameIDs {
		t.Run(game, func(t *testing.T) {
			data := generate(t, game, 1500, 7)
			var counts replay.Counts
			settled, observed := 0, 0
			err := replay.Run(cat, []replay.Source{{Name: game + ".jsonl", R: bytes.NewReader(data)}}, replay.Options{}, func(r games.Record) {
				counts.Add(r)
				switch r := r.(type) {
				case *games.Discrepancy:
					if counts.Discrepancies <= 5 {
						t.Errorf("coup %s: %s %s: %s", r.Coup, r.Kind, r.Rule, r.Detail)
					}
				case *games.Settlement:
					settled++
					if r.HasObserved {
						observed++
					}
				}
			})
			if err != nil {
				t.Fatal(err)
			}
			if counts.Coups != 1500 || counts.Discrepancies != 0 {
				t.Errorf("%d coups, %d discrepancies; want 1500 and none", counts.Coups, counts.Discrepancies)
			}
			// Pushes have no money events; everything else is paid or collected.
			if settled == 0 || observed < settled/2 {
				t.Errorf("%d settlements, %d with money", settled, observed)
			}
		})
	}
}

// BenchmarkReplay replays a generated shift per game end to end (parsing, engine, encoding the
// output) and reports events per second.
//
//	go test ./games/baccara -run '^$' -bench Replay -benchmem -cpu 1
func BenchmarkReplay(b *testing.B) {
	cat := gamestest.Catalog(b, baccara.Games()...)
	for _, game := range gameIDs {
		b.Run(game, func(b *testing.B) {
			gamestest.BenchReplay(b, cat, generate(b, game, 20_000, 11))
		})
	}
}
