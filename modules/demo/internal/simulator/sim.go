package simulator

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"time"
)

// simulate posts each node's uplinks until ctx ends: the first at once (a
// node after the other, so they do not all come in one burst), then one
// every Node.Every, 20 % early or late at random.
func (m *Simulator) simulate(ctx context.Context, nodes []*simNode) {
	var wg sync.WaitGroup
	for i, n := range nodes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m.runNode(ctx, n, time.Duration(i)*150*time.Millisecond)
		}()
	}
	wg.Wait()
}

func (m *Simulator) runNode(ctx context.Context, n *simNode, delay time.Duration) {
	timer := time.NewTimer(delay)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-timer.C:
		}
		if !m.post(ctx, n) {
			return
		}
		jitter := 0.8 + 0.4*n.rng.Float64()
		timer.Reset(time.Duration(float64(n.Every) * jitter))
	}
}

// post sends one uplink of n through POST /api/ingest/generic, as a device
// would. It returns false when n should no longer be simulated: the node
// is not the demo company's any more (the portal put the uplink in the
// node pool).
func (m *Simulator) post(ctx context.Context, n *simNode) bool {
	body := n.uplink(m.now())
	body["devEui"] = n.DevEUI
	token := ""
	if t := m.token.Load(); t != nil {
		token = *t
	}
	err := m.api.call(ctx, "POST", "/api/ingest/generic", token, body, http.StatusOK, nil)
	var apiErr *apiError
	switch {
	case err == nil || ctx.Err() != nil:
	case errors.As(err, &apiErr) && apiErr.status == http.StatusAccepted:
		m.log.Info("demo node is gone from the demo company; no longer simulated", "deveui", n.DevEUI)
		return false
	case errors.As(err, &apiErr) && apiErr.status == http.StatusUnauthorized:
		m.renewToken(ctx)
	default:
		m.warn("demo uplink failed", "deveui", n.DevEUI, "err", err)
	}
	return true
}

// warn logs at most once a minute, so that a portal in trouble is not also
// flooded by its own demo.
func (m *Simulator) warn(msg string, args ...any) {
	m.warnMu.Lock()
	defer m.warnMu.Unlock()
	if time.Since(m.warned) < time.Minute {
		return
	}
	m.warned = time.Now()
	m.log.Warn(msg, args...)
}
