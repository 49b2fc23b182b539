// Package report renders replay records for people: the investigator's account of each coup
// (`coupwatch replay --format text`).
package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/coupwatch/coupwatch/games"
	"github.com/coupwatch/coupwatch/journal"
)

// Text writes a readable account of each coup: the stakes, the result, what each stake should
// have got and what it got, then every finding with its rule, article and evidence.
type Text struct {
	w       *bufio.Writer
	pending []games.Record
	totals  struct{ coups, findings, wrong int }
}

// NewText returns a renderer writing to w; call Close at the end.
func NewText(w io.Writer) *Text { return &Text{w: bufio.NewWriter(w)} }

// Record takes the next record of the replay.
func (t *Text) Record(r games.Record) {
	if c, ok := r.(*games.CoupSummary); ok {
		t.coup(c)
		t.pending = t.pending[:0]
		return
	}
	t.pending = append(t.pending, r)
}

func (t *Text) coup(c *games.CoupSummary) {
	w := t.w
	t.totals.coups++
	dealer := c.Dealer
	if dealer == "" {
		dealer = "unknown"
	}
	fmt.Fprintf(w, "== %s · %s · coup %s · dealer %s · %s to %s (journal lines %d-%d)\n",
		c.Table, c.Game, c.Coup, dealer, clock(c.Start), clock(c.End), c.FirstLine, c.LastLine)
	fmt.Fprintf(w, "   result: %s\n", c.Result)
	var setts []*games.Settlement
	var finds []*games.Discrepancy
	for _, r := range t.pending {
		switch r := r.(type) {
		case *games.Settlement:
			setts = append(setts, r)
		case *games.Discrepancy:
			finds = append(finds, r)
		}
	}
	if len(setts) > 0 {
		fmt.Fprintf(w, "   %-8s %-22s %10s  %-8s %12s %12s\n", "player", "spot", "stake", "outcome", "due", "got")
		for _, s := range setts {
			got := "-"
			mark := ""
			if s.HasObserved {
				got = signed(s.Observed)
				if s.Observed != s.Expected {
					mark = "  <-- wrong"
				}
			}
			fmt.Fprintf(w, "   %-8s %-22s %10s  %-8s %12s %12s%s\n", s.Player, s.Spot, games.FormatCents(s.Stake), s.Outcome, signed(s.Expected), got, mark)
			if s.Detail != "" {
				fmt.Fprintf(w, "   %8s %s\n", "", s.Detail)
			}
		}
	} else {
		fmt.Fprintln(w, "   no stakes settled")
	}
	if len(finds) == 0 {
		fmt.Fprintln(w, "   findings: none")
	} else {
		fmt.Fprintf(w, "   findings: %d\n", len(finds))
	}
	for _, d := range finds {
		t.totals.findings++
		if d.Kind == games.WrongPayout {
			t.totals.wrong++
		}
		fmt.Fprintf(w, "   - [%s] %s (%s) at %s\n", d.Severity, d.Kind, d.Rule, clock(d.T))
		fmt.Fprintf(w, "     %s\n", d.Detail)
		if !d.Expected.IsNone() || !d.Observed.IsNone() {
			fmt.Fprintf(w, "     expected %s, observed %s\n", d.Expected, d.Observed)
		}
		fmt.Fprintf(w, "     rule: %s\n", d.Article)
		fmt.Fprintf(w, "     evidence: %s\n", evidence(d.Evidence))
	}
	fmt.Fprintln(w)
}

// Close writes the totals and flushes.
func (t *Text) Close() error {
	fmt.Fprintf(t.w, "%d coups, %d findings (%d wrong payouts)\n", t.totals.coups, t.totals.findings, t.totals.wrong)
	return t.w.Flush()
}

func signed(n int64) string {
	if n > 0 {
		return "+" + games.FormatCents(n)
	}
	return games.FormatCents(n)
}

func clock(t time.Time) string { return journal.FormatTime(t) }

func evidence(e games.Evidence) string {
	var parts []string
	if len(e.Lines) > 0 {
		ls := make([]string, len(e.Lines))
		for i, l := range e.Lines {
			ls[i] = fmt.Sprint(l)
		}
		parts = append(parts, "lines "+strings.Join(ls, ", "))
	}
	if len(e.Frames) > 0 {
		parts = append(parts, "frames "+strings.Join(e.Frames, ", "))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, "; ")
}
