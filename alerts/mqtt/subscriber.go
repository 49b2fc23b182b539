package mqtt

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"
)

// SubscriberOptions configure a Subscriber.
type SubscriberOptions struct {
	Conn
	// Filters are the topic filters to follow (QoS 1).
	Filters []string
	// Persistent keeps the session at the broker between connections (clean session off):
	// with a fixed ClientID, alerts published while the subscriber is away are queued by the
	// broker and delivered when it comes back.
	Persistent bool
	Logger     *slog.Logger
}

// Message is one received message.
type Message struct {
	Topic    string
	Payload  []byte
	Retained bool
}

// Subscriber follows topics, reconnecting and resubscribing by itself.
type Subscriber struct {
	opts  SubscriberOptions
	log   *slog.Logger
	ready chan struct{}
	once  sync.Once
}

// NewSubscriber returns a subscriber; Run starts it.
func NewSubscriber(o SubscriberOptions) *Subscriber {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return &Subscriber{opts: o, log: o.Logger, ready: make(chan struct{})}
}

// Ready is closed once the first subscription is acknowledged by the broker.
func (s *Subscriber) Ready() <-chan struct{} { return s.ready }

// Run connects and calls handle for every message, one at a time and in order, until ctx is
// cancelled. It retries the connection until ctx is done; connection problems are logged.
// handle must return quickly (it holds up the connection).
func (s *Subscriber) Run(ctx context.Context, handle func(Message)) error {
	msgs := make(chan Message, 1024)
	o := s.opts.clientOptions().
		SetCleanSession(!s.opts.Persistent).
		SetAutoReconnect(true).
		SetConnectRetry(true).
		SetConnectRetryInterval(500 * time.Millisecond).
		SetMaxReconnectInterval(5 * time.Second).
		SetOrderMatters(true).
		SetResumeSubs(true).
		SetConnectionLostHandler(func(_ paho.Client, err error) {
			s.log.Warn("lost the broker connection; reconnecting", "url", s.opts.URL, "err", err)
		})
	// Messages reach the handler through a channel so that a slow handler never runs on
	// paho's network goroutine. The channel is bounded: when it is full paho waits, and the
	// broker queues (QoS 1): nothing is dropped.
	deliver := func(_ paho.Client, m paho.Message) {
		select {
		case msgs <- Message{Topic: m.Topic(), Payload: m.Payload(), Retained: m.Retained()}:
		case <-ctx.Done():
		}
	}
	o.SetDefaultPublishHandler(deliver)
	o.SetOnConnectHandler(func(c paho.Client) {
		filters := make(map[string]byte, len(s.opts.Filters))
		for _, f := range s.opts.Filters {
			filters[f] = 1
		}
		tok := c.SubscribeMultiple(filters, deliver)
		if !tok.WaitTimeout(orDefault(s.opts.ConnectTimeout, 10*time.Second)) || tok.Error() != nil {
			s.log.Warn("subscribing failed", "filters", s.opts.Filters, "err", tok.Error())
			return
		}
		s.once.Do(func() { close(s.ready) })
	})
	if len(s.opts.Filters) == 0 {
		return fmt.Errorf("subscriber: no topic filter")
	}
	c := paho.NewClient(o)
	connected := c.Connect().Done() // with ConnectRetry it completes once connected
	defer c.Disconnect(250)
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-connected:
			connected = nil
			s.log.Debug("connected to the broker", "url", s.opts.URL)
		case m := <-msgs:
			handle(m)
		}
	}
}
