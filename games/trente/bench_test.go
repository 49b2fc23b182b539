package trente_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/coupwatch/coupwatch/games/gamestest"

	"github.com/coupwatch/coupwatch/games"
	"github.com/coupwatch/coupwatch/games/replay"
	"github.com/coupwatch/coupwatch/games/trente"
	"github.com/coupwatch/coupwatch/journal"
)

// genPrisoner is a stake in prison in the generated journal.
type genPrisoner struct {
	spot, player string
	stake        int64
	refaits      int
}

// trenteJournal generates a correct trente et quarante journal of about n events: six-deck
// parties, each ended (before its stop card) by a new table_open; ten stakes a coup on the four
// chances, some insured against the refait; rows dealt to their point; losers collected, then
// payments inverse, noir or rouge, couleur; at a refait the players share or go to prison.
// One winning payout in about fifty is overpaid by 1.00; it returns the journal and the number of
// overpayments seeded.
func trenteJournal(tb testing.TB, n int) ([]byte, int) {
	tb.Helper()
	rng := rand.New(rand.NewPCG(3, 5))
	var buf bytes.Buffer
	w := journal.NewWriter(&buf)
	t := time.Date(2026, 11, 22, 20, 0, 0, 0, time.UTC)
	events := 0
	emit := func(ev journal.Event) {
		t = t.Add(200 * time.Millisecond)
		ev.T, ev.Table = t, "TQ-B"
		if err := w.Write(&ev); err != nil {
			tb.Fatal(err)
		}
		events++
	}
	chances := []string{"noir", "rouge", "couleur", "inverse"}
	var deck []journal.Card
	next := len(deck)
	var prisoners []genPrisoner
	seeded := 0
	pay := func(spot, player string, net int64) {
		switch {
		case net > 0:
			if rng.IntN(50) == 0 {
				net += 100
				seeded++
			}
			emit(journal.Event{Type: journal.TypePayout, Spot: spot, Player: player, Amount: net, HasAmount: true})
		case net < 0:
			emit(journal.Event{Type: journal.TypeCollect, Spot: spot, Player: player, Amount: -net, HasAmount: true})
		}
	}
	points := func(c journal.Card) int {
		if c.Rank >= journal.Ten {
			return 10
		}
		return int(c.Rank)
	}
	for coup := 1; events < n; coup++ {
		// A new partie (and shoe) well before the stop card, once no stake is in prison.
		if len(deck)-next < 40 && len(prisoners) == 0 || len(deck)-next < 20 {
			deck = deck[:0]
			for d := 0; d < 6; d++ {
				for i := 0; i < 52; i++ {
					deck = append(deck, journal.CardFromIndex(i))
				}
			}
			rng.Shuffle(len(deck), func(i, j int) { deck[i], deck[j] = deck[j], deck[i] })
			next, prisoners = 0, prisoners[:0]
			emit(journal.Event{Type: journal.TypeTableOpen, Game: "trente_et_quarante", HasLimits: true, Limits: journal.Limits{Min: 500, Max: 100000}})
			emit(journal.Event{Type: journal.TypeDealer, Dealer: "D-0002"})
		}
		emit(journal.Event{Type: journal.TypeCoupStart, Coup: fmt.Sprint(coup)})
		type stake struct {
			spot, player string
			amount       int64
			insured      bool
		}
		var stakes []stake
		for i := 0; i < 10; i++ {
			s := stake{chances[rng.IntN(4)], fmt.Sprintf("P%d", i+1), int64(5+rng.IntN(95)) * 100, rng.IntN(5) == 0}
			stakes = append(stakes, s)
			emit(journal.Event{Type: journal.TypeBet, Spot: s.spot, Player: s.player, Amount: s.amount})
			if s.insured {
				premium := s.amount / 100
				emit(journal.Event{Type: journal.TypeBet, Spot: "insurance:" + s.spot, Player: s.player, Amount: premium})
				emit(journal.Event{Type: journal.TypeCollect, Spot: "insurance:" + s.spot, Player: s.player, Amount: premium, HasAmount: true})
			}
		}
		emit(journal.Event{Type: journal.TypeNoMoreBets, Cause: "announce"})
		var pts [2]int
		var first journal.Card
		for row, name := range []string{"noir", "rouge"} {
			for pts[row] <= 30 {
				c := deck[next]
				next++
				if row == 0 && pts[0] == 0 {
					first = c
				}
				pts[row] += points(c)
				emit(journal.Event{Type: journal.TypeCard, To: name, Card: c})
			}
		}
		won := map[string]bool{}
		refait, tie := pts[0] == 31 && pts[1] == 31, pts[0] == pts[1]
		if !tie {
			row := "noir"
			if pts[1] < pts[0] {
				row = "rouge"
			}
			won[row] = true
			if first.Red() == (row == "rouge") {
				won["couleur"] = true
			} else {
				won["inverse"] = true
			}
		}
		var losers []func()
		type win struct {
			spot, player string
			amount       int64
		}
		var winners []win
		var held []genPrisoner
		jailed := map[string]bool{}
		for _, p := range prisoners {
			jailed[p.spot+" "+p.player] = true
		}
		for _, p := range prisoners {
			switch {
			case refait:
				// Prison again; the stake keeps losing half its value at each refait.
				emit(journal.Event{Type: journal.TypeAction, Player: p.player, Action: "prison", Spot: p.spot})
				p.refaits++
				held = append(held, p)
			case tie:
				held = append(held, p)
			case won[p.spot]:
				if p.refaits > 1 {
					lost := p.stake - p.stake>>(p.refaits-1)
					losers = append(losers, func() { pay(p.spot, p.player, -lost) })
				}
			default:
				losers = append(losers, func() { pay(p.spot, p.player, -p.stake) })
			}
		}
		for _, s := range stakes {
			switch {
			case refait && s.insured:
			case refait && jailed[s.spot+" "+s.player]:
				// One decision per stake key: the player's new stake follows his prisoner.
				held = append(held, genPrisoner{s.spot, s.player, s.amount, 1})
			case refait:
				if rng.IntN(2) == 0 {
					emit(journal.Event{Type: journal.TypeAction, Player: s.player, Action: "share", Spot: s.spot})
					losers = append(losers, func() { pay(s.spot, s.player, -s.amount/2) })
				} else {
					emit(journal.Event{Type: journal.TypeAction, Player: s.player, Action: "prison", Spot: s.spot})
					held = append(held, genPrisoner{s.spot, s.player, s.amount, 1})
				}
			case tie:
			case won[s.spot]:
				winners = append(winners, win{s.spot, s.player, s.amount})
			default:
				losers = append(losers, func() { pay(s.spot, s.player, -s.amount) })
			}
		}
		prisoners = held
		for _, f := range losers {
			f()
		}
		// Payments chance by chance: inverse, then noir or rouge, then couleur (L623).
		for _, group := range [][]string{{"inverse"}, {"noir", "rouge"}, {"couleur"}} {
			for _, w := range winners {
				for _, g := range group {
					if w.spot == g {
						pay(w.spot, w.player, w.amount)
					}
				}
			}
		}
		emit(journal.Event{Type: journal.TypeCoupEnd})
	}
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes(), seeded
}

// TestGeneratedJournal replays the benchmark's journal: thousands of correct coups, refaits and
// prisoners included, must yield the seeded overpayments and nothing else.
func TestGeneratedJournal(t *testing.T) {
	data, seeded := trenteJournal(t, 60_000)
	cat, err := games.NewCatalog(trente.Games()...)
	if err != nil {
		t.Fatal(err)
	}
	var counts replay.Counts
	var first *games.Discrepancy
	err = replay.Run(cat, []replay.Source{{Name: "gen.jsonl", R: bytes.NewReader(data)}}, replay.Options{}, func(r games.Record) {
		counts.Add(r)
		if d, ok := r.(*games.Discrepancy); ok && d.Kind != games.WrongPayout && first == nil {
			first = d
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if first != nil {
		t.Fatalf("unexpected finding in coup %s: %s %s", first.Coup, first.Rule, first.Detail)
	}
	t.Logf("%d coups, %d prison choices, %d shares, %d insured stakes; %d overpayments seeded", counts.Coups,
		bytes.Count(data, []byte(`"prison"`)), bytes.Count(data, []byte(`"share"`)), bytes.Count(data, []byte(`"bet","spot":"insurance`)), seeded)
	if seeded == 0 || counts.ByKind[games.WrongPayout] != seeded || counts.Discrepancies != seeded {
		t.Errorf("%d overpayments seeded, replay found %v", seeded, counts.ByKind)
	}
	if counts.Coups < 1000 {
		t.Errorf("only %d coups", counts.Coups)
	}
}

// BenchmarkReplayTrente replays a generated one-million-event trente et quarante journal end to
// end: parsing, the rule engine, encoding every record.
//
//	go test ./games/trente -run '^$' -bench ReplayTrente -benchmem -cpu 1
func BenchmarkReplayTrente(b *testing.B) {
	data, _ := trenteJournal(b, 1_000_000)
	gamestest.BenchReplay(b, gamestest.Catalog(b, trente.Games()...), data)
}
