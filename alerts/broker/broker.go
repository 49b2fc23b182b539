// Package broker runs the embedded MQTT broker (mochi-mqtt, in-process): the default for a
// single box and for the demo, so nothing else has to run. It listens on TCP; the agent's
// publishers and any operator's subscriber connect to it like to any broker.
//
// It keeps no state on disk: retained status messages and sessions live as long as the
// process. Alerts are safe anyway: the agent's outbox holds each one until the broker has
// acknowledged it. Access is open to whoever can reach the address, so keep the default
// loopback listen address unless the network is trusted.
package broker

import (
	"context"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	mochi "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/hooks/auth"
	"github.com/mochi-mqtt/server/v2/listeners"
)

// Broker is a running embedded broker.
type Broker struct {
	srv *mochi.Server
	tcp *listeners.TCP
}

// Start starts a broker listening on addr ("127.0.0.1:1883"; port 0 picks a free port).
// The broker logs its errors to log (its routine messages are left out).
func Start(addr string, log *slog.Logger) (*Broker, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	log = slog.New(minLevel{h: log.Handler(), min: slog.LevelError})
	caps := mochi.NewDefaultServerCapabilities()
	// A burst of alerts must never be dropped for a slow subscriber: the limits are raised
	// like max_queued_messages in deploy/mosquitto/mosquitto.conf.
	caps.MaximumClientWritesPending = 64 * 1024
	caps.MaximumInflight = 65535
	caps.ReceiveMaximum = 65535
	srv := mochi.New(&mochi.Options{
		Capabilities: caps,
		Logger:       log,
		// $SYS topics are not needed; resend them rarely.
		SysTopicResendInterval: 3600,
	})
	if err := srv.AddHook(new(auth.AllowHook), nil); err != nil {
		return nil, fmt.Errorf("embedded broker: %w", err)
	}
	tcp := listeners.NewTCP(listeners.Config{ID: "tcp", Address: addr})
	if err := srv.AddListener(tcp); err != nil {
		return nil, fmt.Errorf("embedded broker: listening on %s: %w", addr, err)
	}
	if err := srv.Serve(); err != nil {
		srv.Close()
		return nil, fmt.Errorf("embedded broker: %w", err)
	}
	return &Broker{srv: srv, tcp: tcp}, nil
}

// Addr returns the address the broker listens on (host:port, the port resolved).
func (b *Broker) Addr() string { return b.tcp.Address() }

// URL returns the broker's URL for clients: tcp://host:port.
func (b *Broker) URL() string { return "tcp://" + b.Addr() }

// Close disconnects every client and stops the broker.
//
// mochi-mqtt v2.7.9 can deadlock when a client is being removed while the server closes
// (Clients.GetByListener takes its read lock twice; mochi-mqtt/server issue #488, fix not
// released). Close therefore first gives the clients that are already leaving (typically the
// agent's own publishers, disconnected just before) closeGrace to finish, and then waits for
// the server at most closeLimit: a broker that does not stop in time is reported and left to
// the process's exit rather than hanging it.
func (b *Broker) Close() error {
	deadline := time.Now().Add(closeGrace)
	for atomic.LoadInt64(&b.srv.Info.ClientsConnected) > 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	done := make(chan error, 1)
	go func() { done <- b.srv.Close() }()
	select {
	case err := <-done:
		if err != nil {
			return fmt.Errorf("embedded broker: %w", err)
		}
		return nil
	case <-time.After(closeLimit):
		return fmt.Errorf("embedded broker: not stopped after %v (mochi-mqtt issue #488); left to the process exit", closeLimit)
	}
}

// How long Close waits for departing clients, and for the server to stop.
const (
	closeGrace = 2 * time.Second
	closeLimit = 5 * time.Second
)

// minLevel drops records below min: mochi reports every client that goes away as a warning.
type minLevel struct {
	h   slog.Handler
	min slog.Level
}

func (m minLevel) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= m.min && m.h.Enabled(ctx, l)
}

func (m minLevel) Handle(ctx context.Context, r slog.Record) error { return m.h.Handle(ctx, r) }

func (m minLevel) WithAttrs(as []slog.Attr) slog.Handler {
	return minLevel{h: m.h.WithAttrs(as), min: m.min}
}

func (m minLevel) WithGroup(name string) slog.Handler {
	return minLevel{h: m.h.WithGroup(name), min: m.min}
}
