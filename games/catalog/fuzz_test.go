package catalog_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coupwatch/coupwatch/games"
	"github.com/coupwatch/coupwatch/games/catalog"
	"github.com/coupwatch/coupwatch/games/replay"
	"github.com/coupwatch/coupwatch/journal"
)

// FuzzReplay feeds mutated journals of every game to the engines: whatever the order or the
// content of the events, a replay either reports invalid input or produces records; it never
// panics (a panic would stop a table's live pipeline). The seed corpus is every scenario journal.
//
//	go test ./games/catalog -run '^$' -fuzz FuzzReplay -fuzztime 5m
func FuzzReplay(f *testing.F) {
	for _, root := range scenarioDirs() {
		files, _ := filepath.Glob(filepath.Join(root, "*", "*.jsonl"))
		for _, p := range files {
			if strings.HasSuffix(p, ".expected.jsonl") {
				continue
			}
			if b, err := os.ReadFile(p); err == nil {
				f.Add(b)
			}
		}
	}
	cat, err := catalog.New()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		n := 0
		err := replay.Run(cat, []replay.Source{{Name: "fuzz.jsonl", R: bytes.NewReader(data)}}, replay.Options{}, func(r games.Record) {
			n++
			_ = r.AppendJSON(nil)
		})
		if err != nil && !journal.IsInvalid(err) {
			t.Fatalf("replay failed with a non-input error: %v", err)
		}
	})
}

// fuzzTime is the instant every reordered event is given.
var fuzzTime = time.Date(2026, 11, 22, 21, 0, 0, 0, time.UTC)

// orderPool holds one game's table_open line and its other event lines, all for table FZ-1 at
// fuzzTime, so that any sequence of them is a valid journal.
type orderPool struct {
	open  string
	lines []string
}

// orderPools reads every scenario journal into one pool per game, in the order games appear.
func orderPools() (map[string]*orderPool, []string) {
	pools := map[string]*orderPool{}
	var gamesSeen []string
	for _, root := range scenarioDirs() {
		files, _ := filepath.Glob(filepath.Join(root, "*", "*.jsonl"))
		for _, p := range files {
			if strings.HasSuffix(p, ".expected.jsonl") {
				continue
			}
			data, err := os.ReadFile(p)
			if err != nil {
				continue
			}
			r := journal.NewReader(bytes.NewReader(data), p)
			for {
				ev, err := r.Next()
				if err != nil {
					break
				}
				// One table, one instant: any order of lines is then in time order.
				ev.Table = "FZ-1"
				ev.T = fuzzTime
				line, _ := journal.Marshal(ev)
				switch ev.Type {
				case journal.TypeTableOpen:
					if pools[ev.Game] == nil {
						pools[ev.Game] = &orderPool{open: string(line)}
						gamesSeen = append(gamesSeen, ev.Game)
					}
				case journal.TypeNote:
				default:
					if len(gamesSeen) > 0 {
						pl := pools[gamesSeen[len(gamesSeen)-1]]
						pl.lines = append(pl.lines, string(line))
					}
				}
			}
		}
	}
	return pools, gamesSeen
}

// orderJournal builds the journal an input selects: its first byte picks the game, each next pair
// of bytes an event line of that game.
func orderJournal(pools map[string]*orderPool, gamesSeen []string, data []byte) string {
	pl := pools[gamesSeen[int(data[0])%len(gamesSeen)]]
	var b strings.Builder
	b.WriteString(pl.open)
	b.WriteByte('\n')
	for i := 1; i+1 < len(data) && i < 800; i += 2 {
		b.WriteString(pl.lines[(int(data[i])|int(data[i+1])<<8)%len(pl.lines)])
		b.WriteByte('\n')
	}
	return b.String()
}

// FuzzEngineOrder replays valid events of one game in any order the fuzzer picks: payouts before
// bets, cards after coup_end, reveals without cards, a result twice. Each input selects a game and
// a sequence of event lines drawn from that game's scenario journals (times made increasing, one
// table). The engines must never panic, and every output must be a valid record.
func FuzzEngineOrder(f *testing.F) {
	pools, gamesSeen := orderPools()
	if len(gamesSeen) == 0 {
		f.Skip("no scenarios")
	}
	cat, err := catalog.New()
	if err != nil {
		f.Fatal(err)
	}
	for i := range gamesSeen {
		seed := []byte{byte(i)}
		for j := 0; j < 60; j++ {
			seed = append(seed, byte(j), 0)
		}
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 3 {
			return
		}
		src := strings.NewReader(orderJournal(pools, gamesSeen, data))
		err := replay.Run(cat, []replay.Source{{Name: "order.jsonl", R: src}}, replay.Options{}, func(rec games.Record) {
			_ = rec.AppendJSON(nil)
		})
		if err != nil && !journal.IsInvalid(err) {
			t.Fatalf("non-input error: %v", err)
		}
	})
}
