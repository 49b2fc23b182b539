package broker_test

import (
	"fmt"
	"sync"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/coupwatch/coupwatch/alerts/broker"
)

// Close returns promptly while the clients it serves are leaving (as the agent's publishers
// leave just before it stops the broker): mochi-mqtt v2.7.9 can deadlock when a client is
// removed during Close (issue #488), and that must not hang the agent's or the demo's exit.
func TestCloseWhileClientsLeave(t *testing.T) {
	for round := 0; round < 5; round++ {
		b, err := broker.Start("127.0.0.1:0", nil)
		if err != nil {
			t.Fatal(err)
		}
		var clients []paho.Client
		for i := 0; i < 8; i++ {
			o := paho.NewClientOptions().AddBroker(b.URL()).SetClientID(fmt.Sprintf("c%d-%d", round, i)).
				SetCleanSession(true).SetAutoReconnect(false).SetConnectTimeout(2 * time.Second)
			c := paho.NewClient(o)
			if tok := c.Connect(); !tok.WaitTimeout(3*time.Second) || tok.Error() != nil {
				t.Fatalf("connecting: %v", tok.Error())
			}
			clients = append(clients, c)
		}
		var wg sync.WaitGroup
		for _, c := range clients {
			wg.Add(1)
			go func(c paho.Client) {
				defer wg.Done()
				c.Disconnect(0)
			}(c)
		}
		start := time.Now()
		done := make(chan error, 1)
		go func() { done <- b.Close() }()
		select {
		case err := <-done:
			if err != nil {
				t.Logf("round %d: %v", round, err) // reported, not hung
			}
		case <-time.After(15 * time.Second):
			t.Fatalf("round %d: Close hung", round)
		}
		t.Logf("round %d: closed in %v", round, time.Since(start).Round(time.Millisecond))
		wg.Wait()
	}
}

func TestStartAndURL(t *testing.T) {
	b, err := broker.Start("127.0.0.1:0", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	o := paho.NewClientOptions().AddBroker(b.URL()).SetClientID("probe").SetConnectTimeout(2 * time.Second)
	c := paho.NewClient(o)
	if tok := c.Connect(); !tok.WaitTimeout(3*time.Second) || tok.Error() != nil {
		t.Fatalf("connecting to %s: %v", b.URL(), tok.Error())
	}
	c.Disconnect(0)
	if _, err := broker.Start(b.Addr(), nil); err == nil {
		t.Error("a second broker on the same address started")
	}
}
