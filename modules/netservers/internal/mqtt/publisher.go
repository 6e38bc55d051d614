package mqtt

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"sync"

	"github.com/eclipse/paho.golang/autopaho"
	"github.com/eclipse/paho.golang/paho"
)

// publisher sends ChirpStack downlinks. Its connection is its own, opened
// at the first downlink: the subscription may be held by another instance,
// while the downlink worker runs wherever the scheduler's lock falls. Its
// session is clean and its client id unique, since the queue it would
// otherwise protect is the database's.
type publisher struct {
	ctx context.Context // the module's: the connection ends with it
	cfg *mqttConfig
	log *slog.Logger

	mu sync.Mutex
	cm *autopaho.ConnectionManager
}

func newPublisher(ctx context.Context, cfg *mqttConfig, log *slog.Logger) *publisher {
	return &publisher{ctx: ctx, cfg: cfg, log: log}
}

// connection returns the connection, opening it on first use.
func (p *publisher) connection() (*autopaho.ConnectionManager, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cm != nil {
		return p.cm, nil
	}
	suffix := make([]byte, 4)
	_, _ = rand.Read(suffix)
	state := &connState{log: p.log, what: "publisher"}
	cc := p.cfg.clientConfig(p.cfg.clientID + "-down-" + hex.EncodeToString(suffix))
	cc.CleanStartOnInitialConnection = true
	cc.OnConnectionUp = func(_ *autopaho.ConnectionManager, ca *paho.Connack) { state.up(ca, p.cfg.server.String()) }
	cc.OnConnectionDown = state.lost
	cc.OnConnectError = state.failed
	cm, err := autopaho.NewConnection(p.ctx, cc)
	if err != nil {
		return nil, fmt.Errorf("open MQTT connection: %w", err)
	}
	p.cm = cm
	return cm, nil
}

// publish sends payload to topic with QoS 1 and returns once the broker
// has acknowledged it (PUBACK): the back-pressure that keeps a burst of
// downlinks from overrunning the broker's queue.
func (p *publisher) publish(ctx context.Context, topic string, payload []byte) error {
	cm, err := p.connection()
	if err != nil {
		return err
	}
	if err := cm.AwaitConnection(ctx); err != nil {
		return fmt.Errorf("MQTT broker %s not reachable: %w", p.cfg.server.Host, err)
	}
	if _, err := cm.Publish(ctx, &paho.Publish{Topic: topic, QoS: 1, Payload: payload}); err != nil {
		return fmt.Errorf("publish to %s: %w", topic, err)
	}
	return nil
}

// close waits for the connection to end; the module's context, cancelled
// before Stop, has begun it.
func (p *publisher) close() {
	p.mu.Lock()
	cm := p.cm
	p.mu.Unlock()
	if cm != nil {
		<-cm.Done()
	}
}
