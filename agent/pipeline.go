package agent

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/coupwatch/coupwatch/alerts"
	"github.com/coupwatch/coupwatch/alerts/outbox"
	"github.com/coupwatch/coupwatch/games"
	"github.com/coupwatch/coupwatch/journal"
	"github.com/coupwatch/coupwatch/journal/store"
)

// queueSize bounds the events between a source and its pipeline. Back-pressure policy: when
// the queue is full the source waits (events are never dropped).
const queueSize = 256

// maxBatch bounds the events committed together (one outbox fsync, one store transaction).
const maxBatch = 512

// PipelineOptions build a table's pipeline.
type PipelineOptions struct {
	Table   string
	Source  Source
	Catalog *games.Catalog
	Outbox  *outbox.Outbox
	Store   *store.Store
	// Site, AgentID and AgentVersion go into every alert.
	Site, AgentID, AgentVersion string
	Logger                      *slog.Logger
	Metrics                     *Metrics
	// OnAlert, if set, is called for every alert once it is durable (the demo counts them).
	OnAlert func(*alerts.Alert)
}

// Pipeline runs one table: journal events in, rule engines in the middle, alerts into the
// outbox, events and findings into the store.
type Pipeline struct {
	o      PipelineOptions
	log    *slog.Logger
	runner *games.Runner
	dealer string

	mu       sync.Mutex
	finished bool // the journal ended and everything is committed
	stats    TableStats
}

// TableStats summarise what a pipeline processed in this run.
type TableStats struct {
	Table    string
	Game     string
	Events   int
	Invalid  int
	Coups    int
	Findings map[games.Kind]int
	// Resumed is the journal line the pipeline resumed after (0 for a fresh start).
	Resumed int
}

// NewPipeline returns a table pipeline; Run starts it.
func NewPipeline(o PipelineOptions) *Pipeline {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	r := games.NewRunner(o.Catalog)
	r.SetFile(o.Source.Name())
	return &Pipeline{o: o, log: o.Logger, runner: r, stats: TableStats{Table: o.Table, Findings: map[games.Kind]int{}}}
}

// Finished reports whether the pipeline's journal ended and everything it produced is durable.
func (p *Pipeline) Finished() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.finished
}

// Stats returns what the pipeline processed so far.
func (p *Pipeline) Stats() TableStats {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := p.stats
	s.Findings = make(map[games.Kind]int, len(p.stats.Findings))
	for k, v := range p.stats.Findings {
		s.Findings[k] = v
	}
	return s
}

// Run processes the table's journal until the source ends (the last coup is then closed and
// committed) or ctx is cancelled (what was read is committed; the open coup continues at the
// next start, rebuilt from the journal). It resumes after the store's checkpoint.
func (p *Pipeline) Run(ctx context.Context) error {
	name := p.o.Source.Name()
	cp, ok, err := p.o.Store.Checkpoint(context.WithoutCancel(ctx), p.o.Table)
	if err != nil {
		return err
	}
	resume := 0
	if ok && cp.Source == name {
		if cp.Done {
			p.log.Info("journal already processed; nothing to do", "journal", name, "lines", cp.Line)
			p.mu.Lock()
			p.finished = true
			p.mu.Unlock()
			return nil
		}
		resume = cp.Line
		p.log.Info("resuming after the last committed line", "journal", name, "line", resume)
	}
	p.mu.Lock()
	p.stats.Resumed = resume
	p.mu.Unlock()
	if m := p.o.Metrics; m != nil {
		m.up.WithLabelValues(p.o.Table).Set(1)
		defer m.up.WithLabelValues(p.o.Table).Set(0)
		// The table's counters are on /metrics from the start, at 0 until they count.
		m.events.WithLabelValues(p.o.Table)
		m.invalid.WithLabelValues(p.o.Table)
	}

	items := make(chan Item, queueSize)
	sctx, stopSource := context.WithCancel(ctx)
	defer stopSource()
	var srcErr error
	var wg sync.WaitGroup
	wg.Go(func() {
		defer close(items)
		srcErr = p.o.Source.Run(sctx, resume, items)
	})
	// Commits must complete even while shutting down: they use a context that is not cancelled.
	cctx := context.WithoutCancel(ctx)
	b := &batch{table: p.o.Table, source: name, line: resume}
	var perr error
	for perr == nil {
		it, ok := <-items
		if !ok {
			break
		}
		perr = p.process(b, &it, resume)
	drain:
		for perr == nil && b.n < maxBatch {
			select {
			case it, ok := <-items:
				if !ok {
					break drain
				}
				perr = p.process(b, &it, resume)
			default:
				break drain
			}
		}
		if perr == nil {
			perr = p.commit(cctx, b, false)
		}
	}
	if perr != nil {
		// Stop the source and wait for it before reporting.
		stopSource()
		for range items {
		}
		wg.Wait()
		return perr
	}
	wg.Wait()
	if srcErr != nil {
		if errors.Is(srcErr, context.Canceled) || errors.Is(srcErr, context.DeadlineExceeded) {
			p.log.Info("stopped; the open coup continues at the next start", "line", b.line)
			return nil
		}
		return fmt.Errorf("table %s: %w", p.o.Table, srcErr)
	}
	// The journal ended: close the open coup, as replay does at the end of a file.
	p.handle(b, p.runner.Close(nil), time.Now())
	if err := p.commit(cctx, b, true); err != nil {
		return err
	}
	p.mu.Lock()
	p.finished = true
	p.mu.Unlock()
	p.log.Info("journal done", "journal", name, "lines", b.line)
	return nil
}

// batch accumulates one commit.
type batch struct {
	table, source string
	n             int
	line          int
	msgs          []outbox.Message
	sb            store.Batch
	alerts        []*alerts.Alert
	out           []games.Record
}

func (b *batch) reset() {
	b.n = 0
	b.msgs = b.msgs[:0]
	b.alerts = b.alerts[:0]
	b.sb.Events = b.sb.Events[:0]
	b.sb.Findings = b.sb.Findings[:0]
	b.sb.Coups = b.sb.Coups[:0]
}

func (p *Pipeline) process(b *batch, it *Item, resume int) error {
	b.n++
	if l := it.Line(); l > b.line {
		b.line = l
	}
	if it.Err != nil {
		if !it.Warm {
			p.invalid(it.Err)
		}
		return nil
	}
	ev := it.Ev
	if ev.Table != p.o.Table {
		if !it.Warm {
			p.invalid(&journal.LineError{File: p.o.Source.Name(), Line: ev.Line,
				Msg: fmt.Sprintf("event for table %s in the journal of table %s", ev.Table, p.o.Table)})
		}
		return nil
	}
	if ev.Type == journal.TypeDealer {
		p.dealer = ev.Dealer
	}
	out, err := p.runner.Apply(ev, b.out[:0])
	if it.Warm {
		// Rebuilding the engines' state: what this line produced is already stored and alerted.
		clear(out)
		b.out = out[:0]
		if ev.Line == resume && err == nil {
			return p.verifyResume(ev)
		}
		return nil
	}
	if err != nil {
		var ee *games.EngineError
		if errors.As(err, &ee) {
			// A bug in an engine: reported loudly, and the table goes on being watched.
			p.log.Error("rule engine failed on an event; the table goes on", "err", err, "stack", string(ee.Stack))
		}
		p.invalid(err)
		return nil
	}
	line, err := journal.Marshal(ev)
	if err != nil {
		return fmt.Errorf("table %s: %w", p.o.Table, err)
	}
	b.sb.Events = append(b.sb.Events, store.Event{Line: ev.Line, T: ev.T, Type: ev.Type.String(), JSON: line})
	if m := p.o.Metrics; m != nil {
		m.events.WithLabelValues(p.o.Table).Inc()
	}
	p.mu.Lock()
	p.stats.Events++
	p.mu.Unlock()
	p.handle(b, out, it.Arrived)
	clear(out)
	b.out = out[:0]
	return nil
}

// verifyResume checks that the journal still holds, at the resume line, the event stored
// before the restart: a journal replaced under the same name must not be mixed with the old.
func (p *Pipeline) verifyResume(ev *journal.Event) error {
	stored, ok, err := p.o.Store.StoredLine(context.Background(), p.o.Table, p.o.Source.Name(), ev.Line)
	if err != nil || !ok {
		return err
	}
	line, err := journal.Marshal(ev)
	if err != nil {
		return err
	}
	if !bytes.Equal(line, stored) {
		return fmt.Errorf("table %s: journal %s changed since line %d was processed (the store holds %s): move the old state aside or give the new journal another name",
			p.o.Table, p.o.Source.Name(), ev.Line, stored)
	}
	return nil
}

// handle turns records into alerts, findings and coups.
func (p *Pipeline) handle(b *batch, recs []games.Record, arrived time.Time) {
	game := ""
	if g, ok := p.runner.Game(p.o.Table); ok {
		game = g.ID
	}
	for _, r := range recs {
		switch r := r.(type) {
		case *games.Discrepancy:
			a := alerts.New(r, alerts.Meta{Site: p.o.Site, Game: game, Dealer: p.dealer, AgentID: p.o.AgentID,
				AgentVersion: p.o.AgentVersion, Journal: p.o.Source.Name()})
			msg, err := a.Marshal()
			if err != nil {
				// An alert is plain data; failing to encode it is a bug, but never drop it silently.
				p.log.Error("encoding an alert", "err", err, "rule", r.Rule)
				continue
			}
			b.msgs = append(b.msgs, outbox.Message{Key: a.ID, Topic: a.Topic(), Payload: msg, Born: arrived})
			b.sb.Findings = append(b.sb.Findings, store.Finding{ID: a.ID, Coup: r.Coup, T: r.T, Kind: a.Kind, Rule: r.Rule, Severity: a.Severity, JSON: msg})
			b.alerts = append(b.alerts, a)
			if m := p.o.Metrics; m != nil {
				m.findings.WithLabelValues(p.o.Table, game, a.Kind, r.Rule).Inc()
			}
			p.mu.Lock()
			p.stats.Findings[r.Kind]++
			p.mu.Unlock()
		case *games.CoupSummary:
			b.sb.Coups = append(b.sb.Coups, store.Coup{Coup: r.Coup, Game: r.Game, Dealer: r.Dealer, Result: r.Result,
				Start: r.Start, End: r.End, FirstLine: r.FirstLine, LastLine: r.LastLine, Discrepancies: r.Discrepancies})
			if m := p.o.Metrics; m != nil {
				m.coups.WithLabelValues(p.o.Table, r.Game).Inc()
			}
			p.mu.Lock()
			p.stats.Coups++
			p.stats.Game = r.Game
			p.mu.Unlock()
		}
	}
}

func (p *Pipeline) invalid(err error) {
	p.log.Warn("invalid journal line skipped", "err", err)
	if m := p.o.Metrics; m != nil {
		m.invalid.WithLabelValues(p.o.Table).Inc()
	}
	p.mu.Lock()
	p.stats.Invalid++
	p.mu.Unlock()
}

// commit makes a batch durable: alerts into the outbox (fsync) first, then events, findings,
// coups and the checkpoint in one store transaction. A crash between the two redoes the
// batch at the next start: the alerts come again with the same ids.
func (p *Pipeline) commit(ctx context.Context, b *batch, done bool) error {
	defer b.reset()
	if b.n == 0 && !done {
		return nil
	}
	start := time.Now()
	if err := p.o.Outbox.Append(b.msgs...); err != nil {
		return fmt.Errorf("table %s: %w", p.o.Table, err)
	}
	b.sb.Table, b.sb.Source, b.sb.Line, b.sb.Done = b.table, b.source, b.line, done
	if err := p.o.Store.Write(ctx, &b.sb); err != nil {
		return fmt.Errorf("table %s: %w", p.o.Table, err)
	}
	if m := p.o.Metrics; m != nil {
		m.commit.Observe(time.Since(start).Seconds())
	}
	if p.o.OnAlert != nil {
		for _, a := range b.alerts {
			p.o.OnAlert(a)
		}
	}
	return nil
}
