package gamestest

import (
	"bytes"
	"testing"

	"github.com/coupwatch/coupwatch/games"
	"github.com/coupwatch/coupwatch/games/replay"
)

// BenchReplay replays the journal data through cat b.N times, end to end as `coupwatch
// replay` does (parsing, the engines, encoding every record as JSON), and reports events/s
// and events/op. It returns the tallies of the last replay, for the caller to check that the
// journal was replayed at all.
func BenchReplay(b *testing.B, cat *games.Catalog, data []byte) replay.Counts {
	b.Helper()
	events := bytes.Count(data, []byte{'\n'})
	out := make([]byte, 0, 64<<20)
	var counts replay.Counts
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		out = out[:0]
		counts = replay.Counts{}
		err := replay.Run(cat, []replay.Source{{Name: "bench.jsonl", R: bytes.NewReader(data)}}, replay.Options{}, func(r games.Record) {
			counts.Add(r)
			out = append(r.AppendJSON(out), '\n')
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(events)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
	b.ReportMetric(float64(events), "events/op")
	return counts
}
