// Package mqtt delivers alerts over MQTT with paho: the Publisher takes messages from a durable
// outbox, publishes them with QoS 1 and acknowledges them in the outbox only once the broker
// has acknowledged them; the Subscriber follows alert and status topics (the operator's
// `coupwatch alerts --follow`, the demo).
package mqtt

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"
	"github.com/eclipse/paho.mqtt.golang/packets"

	"github.com/coupwatch/coupwatch/alerts/outbox"
)

// Conn says how to reach the broker.
type Conn struct {
	// URL is the broker: tcp://host:1883, ssl://host:8883, ws://... (paho's schemes).
	URL      string
	ClientID string
	Username string
	// Password is used as is; callers keep it out of logs.
	Password       string
	TLS            *tls.Config
	KeepAlive      time.Duration
	ConnectTimeout time.Duration
}

func (c *Conn) clientOptions() *paho.ClientOptions {
	o := paho.NewClientOptions().
		AddBroker(c.URL).
		SetClientID(c.ClientID).
		SetKeepAlive(orDefault(c.KeepAlive, 30*time.Second)).
		SetConnectTimeout(orDefault(c.ConnectTimeout, 10*time.Second)).
		SetCleanSession(true)
	if c.Username != "" {
		o.SetUsername(c.Username)
		o.SetPassword(c.Password)
	}
	if c.TLS != nil {
		o.SetTLSConfig(c.TLS)
	}
	return o
}

func orDefault(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

// Status is a retained status message the publisher maintains for its table.
type Status struct {
	Topic string
	// Online is published (retained) on every connection.
	Online func() []byte
	// Offline is published (retained) on a graceful stop.
	Offline func() []byte
	// Will is the last will: the broker publishes it (retained) if the connection is lost.
	Will []byte
}

// PublisherOptions configure a Publisher.
type PublisherOptions struct {
	Conn
	Status Status
	// AckTimeout bounds the wait for a PUBACK; an unacknowledged message is sent again on a new
	// connection.
	AckTimeout time.Duration
	// MaxInflight bounds the messages published and not yet acknowledged.
	MaxInflight int
	// ReconnectMin and ReconnectMax bound the exponential back-off between connection attempts.
	ReconnectMin, ReconnectMax time.Duration
	// StopGrace bounds the wait for the acknowledgements of messages in flight when Run stops.
	StopGrace time.Duration
	Logger    *slog.Logger
	Metrics   *Metrics
	// Label is the table, for metrics.
	Label string
	// OnAck, if set, is called after each acknowledgement with the entry and its delivery
	// latency (from Born to the broker's acknowledgement).
	OnAck func(e *outbox.Entry, latency time.Duration)
}

// Publisher delivers an outbox to a broker.
type Publisher struct {
	opts      PublisherOptions
	log       *slog.Logger
	connected atomic.Bool
	outage    atomic.Bool // a connection failure has been logged and not yet recovered
}

// NewPublisher returns a publisher; Run starts it.
func NewPublisher(o PublisherOptions) *Publisher {
	o.AckTimeout = orDefault(o.AckTimeout, 10*time.Second)
	o.ReconnectMin = orDefault(o.ReconnectMin, 250*time.Millisecond)
	o.ReconnectMax = orDefault(o.ReconnectMax, 30*time.Second)
	o.StopGrace = orDefault(o.StopGrace, 2*time.Second)
	if o.MaxInflight <= 0 {
		o.MaxInflight = 64
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return &Publisher{opts: o, log: o.Logger}
}

// Connected reports whether the publisher is connected to the broker.
func (p *Publisher) Connected() bool { return p.connected.Load() }

// Run connects (retrying with back-off) and delivers the outbox until ctx is cancelled; then
// it waits briefly for the acknowledgements in flight, publishes the offline status and
// disconnects. Whatever is not acknowledged stays in the outbox. Run returns nil when ctx is
// cancelled, and an error if the outbox fails or the broker refuses the credentials.
func (p *Publisher) Run(ctx context.Context, ob *outbox.Outbox) error {
	if m := p.opts.Metrics; m != nil {
		m.start(p.opts.Label)
	}
	backoff := p.opts.ReconnectMin
	short := 0 // connections in a row that the broker closed at once
	for {
		c, lost, err := p.connect(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			p.connectFailed(err)
			if refusedCredentials(err) {
				// Retrying cannot help: the configuration must change. The alerts stay in
				// the outbox for the next start.
				return fmt.Errorf("broker %s refused the agent's credentials (mqtt.username, mqtt.password): %w", p.opts.URL, err)
			}
			select {
			case <-ctx.Done():
				return nil
			case <-time.After(backoff):
			}
			backoff = min(backoff*2, p.opts.ReconnectMax)
			continue
		}
		if p.outage.Swap(false) {
			p.log.Info("connected to the broker again", "url", p.opts.URL)
		} else {
			p.log.Info("connected to the broker", "url", p.opts.URL)
		}
		p.setConnected(true)
		since := time.Now()
		err = p.session(ctx, c, lost, ob)
		p.setConnected(false)
		if ctx.Err() != nil {
			p.stop(c)
			return err
		}
		c.Disconnect(0)
		if err != nil {
			return err
		}
		p.outage.Store(true)
		p.log.Warn("lost the broker connection; undelivered alerts stay in the outbox", "url", p.opts.URL, "undelivered", ob.Depth())
		if time.Since(since) >= shortSession {
			backoff, short = p.opts.ReconnectMin, 0
			continue
		}
		// The broker closed the connection at once: back off as after a failed attempt, or
		// two clients with one id (two agents for one table) knock each other off in a loop.
		if short++; short == 3 {
			p.log.Warn("the broker keeps closing the connection at once; is another client connected with the same client id?",
				"url", p.opts.URL, "client_id", p.opts.ClientID)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(backoff):
		}
		backoff = min(backoff*2, p.opts.ReconnectMax)
	}
}

// shortSession is how long a connection must last for the next one to start without waiting:
// one the broker closes sooner is retried with the back-off of a failed attempt.
const shortSession = 5 * time.Second

// refusedCredentials reports whether a connection attempt was refused for its user name or
// password (CONNACK return codes 4 and 5).
func refusedCredentials(err error) bool {
	return errors.Is(err, packets.ErrorRefusedBadUsernameOrPassword) || errors.Is(err, packets.ErrorRefusedNotAuthorised)
}

func (p *Publisher) connectFailed(err error) {
	if m := p.opts.Metrics; m != nil {
		m.connectErrors.WithLabelValues(p.opts.Label).Inc()
	}
	// Log an outage once, not at every retry.
	if !p.outage.Swap(true) {
		p.log.Warn("cannot reach the broker; retrying, alerts wait in the outbox", "url", p.opts.URL, "err", err)
	} else {
		p.log.Debug("cannot reach the broker", "url", p.opts.URL, "err", err)
	}
}

func (p *Publisher) setConnected(up bool) {
	p.connected.Store(up)
	if m := p.opts.Metrics; m != nil {
		v := 0.0
		if up {
			v = 1
			m.connects.WithLabelValues(p.opts.Label).Inc()
		}
		m.connected.WithLabelValues(p.opts.Label).Set(v)
	}
}

// connect makes one connection attempt; lost receives the reason the connection ends.
func (p *Publisher) connect(ctx context.Context) (paho.Client, <-chan error, error) {
	lost := make(chan error, 1)
	o := p.opts.clientOptions().
		SetAutoReconnect(false).
		SetConnectRetry(false).
		SetWriteTimeout(p.opts.AckTimeout).
		SetOrderMatters(false).
		SetConnectionLostHandler(func(_ paho.Client, err error) {
			select {
			case lost <- err:
			default:
			}
		})
	if s := p.opts.Status; s.Topic != "" && s.Will != nil {
		o.SetBinaryWill(s.Topic, s.Will, 1, true)
	}
	c := paho.NewClient(o)
	tok := c.Connect()
	select {
	case <-tok.Done():
	case <-ctx.Done():
		// paho bounds the attempt with its connect timeout; wait for it so nothing leaks.
		<-tok.Done()
		if tok.Error() == nil {
			c.Disconnect(0)
		}
		return nil, nil, ctx.Err()
	}
	if err := tok.Error(); err != nil {
		return nil, nil, err
	}
	return c, lost, nil
}

type flight struct {
	e   *outbox.Entry
	tok paho.Token
}

// session publishes the outbox on one connection until the connection fails or ctx is done.
func (p *Publisher) session(ctx context.Context, c paho.Client, lost <-chan error, ob *outbox.Outbox) error {
	if s := p.opts.Status; s.Topic != "" && s.Online != nil {
		tok := c.Publish(s.Topic, 1, true, s.Online())
		if !tok.WaitTimeout(p.opts.AckTimeout) || tok.Error() != nil {
			p.publishError()
			return nil // the connection is not usable: reconnect
		}
	}
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	defer wg.Wait()
	wg.Go(func() {
		select {
		case <-lost:
			cancel()
		case <-sctx.Done():
		}
	})
	// inflight is bounded by MaxInflight: when it is full the publishing loop waits for
	// acknowledgements (back-pressure; nothing is dropped, the rest waits in the outbox).
	inflight := make(chan flight, p.opts.MaxInflight)
	var ackErr error
	var ackWG sync.WaitGroup
	ackWG.Go(func() {
		ackErr = p.acker(ctx, sctx, cancel, inflight, ob)
	})
	var err error
	for {
		e, nerr := ob.Next(sctx)
		if nerr != nil {
			if !errors.Is(nerr, context.Canceled) && !errors.Is(nerr, context.DeadlineExceeded) {
				err = fmt.Errorf("taking an alert from the outbox: %w", nerr)
			}
			break
		}
		tok := c.Publish(e.Topic, 1, false, e.Payload)
		select {
		case inflight <- flight{e, tok}:
			continue
		case <-sctx.Done():
			ob.Nack(e)
		}
		break
	}
	close(inflight)
	ackWG.Wait()
	if err == nil {
		err = ackErr
	}
	return err
}

// acker waits for the acknowledgements in publishing order. A message is acknowledged in the
// outbox once the broker has acknowledged it; one that fails or times out goes back to the
// outbox and ends the session (the connection is replaced).
func (p *Publisher) acker(ctx, sctx context.Context, cancel context.CancelFunc, inflight <-chan flight, ob *outbox.Outbox) error {
	var firstErr error
	var stopBy time.Time // once stopping, every wait ends by then
	for f := range inflight {
		if ctx.Err() != nil && stopBy.IsZero() {
			stopBy = time.Now().Add(p.opts.StopGrace)
		}
		ok := p.waitAck(ctx, sctx, f.tok, &stopBy)
		if !ok {
			ob.Nack(f.e)
			p.publishError()
			cancel()
			continue
		}
		if err := ob.Ack(f.e); err != nil && firstErr == nil {
			firstErr = fmt.Errorf("acknowledging alert %s in the outbox: %w", f.e.Key, err)
			cancel()
		}
		latency := time.Duration(0)
		if !f.e.Born.IsZero() {
			latency = time.Since(f.e.Born)
		}
		if m := p.opts.Metrics; m != nil {
			m.published.WithLabelValues(p.opts.Label).Inc()
			if !f.e.Born.IsZero() {
				m.latency.WithLabelValues(p.opts.Label).Observe(latency.Seconds())
			}
		}
		if p.opts.OnAck != nil {
			p.opts.OnAck(f.e, latency)
		}
	}
	return firstErr
}

// waitAck waits for one acknowledgement: up to AckTimeout while running, until stopBy when
// stopping, and not at all once the connection is gone.
func (p *Publisher) waitAck(ctx, sctx context.Context, tok paho.Token, stopBy *time.Time) bool {
	timeout := p.opts.AckTimeout
	if !stopBy.IsZero() {
		timeout = time.Until(*stopBy)
	}
	timer := time.NewTimer(max(timeout, 0))
	defer timer.Stop()
	select {
	case <-tok.Done():
		return tok.Error() == nil
	case <-timer.C:
		return false
	case <-sctx.Done():
	}
	if ctx.Err() != nil {
		// Stopping: what is already sent may still be acknowledged, briefly.
		if stopBy.IsZero() {
			*stopBy = time.Now().Add(p.opts.StopGrace)
			timer.Reset(p.opts.StopGrace)
		}
		select {
		case <-tok.Done():
			return tok.Error() == nil
		case <-timer.C:
			return false
		}
	}
	// The connection is gone: only an acknowledgement already received counts.
	select {
	case <-tok.Done():
		return tok.Error() == nil
	default:
		return false
	}
}

func (p *Publisher) publishError() {
	if m := p.opts.Metrics; m != nil {
		m.publishErrors.WithLabelValues(p.opts.Label).Inc()
	}
}

// stop publishes the offline status and disconnects.
func (p *Publisher) stop(c paho.Client) {
	if s := p.opts.Status; s.Topic != "" && s.Offline != nil && c.IsConnectionOpen() {
		tok := c.Publish(s.Topic, 1, true, s.Offline())
		tok.WaitTimeout(p.opts.StopGrace)
	}
	c.Disconnect(250)
}
