package simulator

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/fieldhub/fieldhub/modules/demo"
)

// setUp waits until the portal answers, then makes sure the demo company
// has the application, the catalog's nodes and a fresh integration token,
// and returns the nodes to simulate.
func (m *Simulator) setUp(ctx context.Context) ([]*simNode, error) {
	if err := m.api.call(ctx, "GET", "/healthz", "", nil, http.StatusOK, nil); err != nil {
		return nil, err
	}
	session, err := m.session(ctx)
	if err != nil {
		return nil, err
	}
	company := m.deps.CompanyID
	appID, err := m.ensureApplication(ctx, session)
	if err != nil {
		return nil, err
	}
	var tags []struct {
		ID     int64  `json:"id"`
		DevEUI string `json:"deveui"`
	}
	if err := m.api.call(ctx, "GET", fmt.Sprintf("/api/companies/%d/tags", company), session, nil, http.StatusOK, &tags); err != nil {
		return nil, err
	}
	have := map[string]int64{}
	for _, t := range tags {
		have[strings.ToUpper(t.DevEUI)] = t.ID
	}
	var nodes []*simNode
	for i, n := range demo.Nodes() {
		id, ok := have[n.DevEUI]
		if !ok {
			var created struct {
				ID int64 `json:"id"`
			}
			err := m.api.call(ctx, "POST", fmt.Sprintf("/api/applications/%d/tag", appID), session, map[string]any{
				"name": n.Name, "deveui": n.DevEUI, "type": n.Type, "location": n.Location, "lat": n.Lat, "long": n.Long,
			}, http.StatusCreated, &created)
			var apiErr *apiError
			if errors.As(err, &apiErr) && apiErr.status == http.StatusConflict {
				m.log.Warn("demo node's DevEUI belongs to another tag; not simulated", "deveui", n.DevEUI)
				continue
			}
			if err != nil {
				return nil, err
			}
			id = created.ID
		}
		nodes = append(nodes, newSimNode(n, id, int64(i+1), m.now()))
	}
	if err := m.ensureGateways(ctx, session, appID); err != nil {
		return nil, err
	}
	if err := m.ensureToken(ctx, session); err != nil {
		return nil, err
	}
	return nodes, nil
}

// ensureGateways registers the demo's gateways, which its uplinks name,
// when missing; a gateway a user deleted comes back at the next start.
func (m *Simulator) ensureGateways(ctx context.Context, session string, appID int64) error {
	for _, g := range demo.Gateways() {
		err := m.api.call(ctx, "POST", fmt.Sprintf("/api/gateway/%d", appID), session,
			map[string]any{"name": g.Name, "macAddress": g.EUI, "latitude": g.Lat, "longitude": g.Long}, http.StatusCreated, nil)
		var apiErr *apiError
		if errors.As(err, &apiErr) && apiErr.status == http.StatusConflict {
			continue // registered already
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// ensureApplication returns the id of the demo's application, made when
// missing.
func (m *Simulator) ensureApplication(ctx context.Context, session string) (int64, error) {
	var apps []struct {
		ID   int64  `json:"id"`
		Name string `json:"name"`
	}
	if err := m.api.call(ctx, "GET", fmt.Sprintf("/api/companies/%d/applications", m.deps.CompanyID), session, nil, http.StatusOK, &apps); err != nil {
		return 0, err
	}
	for _, a := range apps {
		if a.Name == demo.ApplicationName {
			return a.ID, nil
		}
	}
	var created struct {
		ID int64 `json:"id"`
	}
	err := m.api.call(ctx, "POST", fmt.Sprintf("/api/applications/%d", m.deps.CompanyID), session,
		map[string]any{"name": demo.ApplicationName, "networkServer": "generic"}, http.StatusCreated, &created)
	return created.ID, err
}

// ensureToken replaces the simulator's integration token: the old one's
// secret is not known any more (a token is shown once, when it is made).
func (m *Simulator) ensureToken(ctx context.Context, session string) error {
	var tokens []struct {
		ID    int64  `json:"id"`
		Label string `json:"label"`
	}
	if err := m.api.call(ctx, "GET", fmt.Sprintf("/api/integration/tokens/%d", m.deps.CompanyID), session, nil, http.StatusOK, &tokens); err != nil {
		return err
	}
	for _, t := range tokens {
		if t.Label == demo.TokenLabel {
			if err := m.api.call(ctx, "DELETE", fmt.Sprintf("/api/integration/tokens/%d", t.ID), session, nil, http.StatusNoContent, nil); err != nil {
				return err
			}
		}
	}
	var created struct {
		Token string `json:"token"`
	}
	if err := m.api.call(ctx, "POST", fmt.Sprintf("/api/integration/tokens/%d", m.deps.CompanyID), session,
		map[string]any{"label": demo.TokenLabel, "isCompany": true}, http.StatusCreated, &created); err != nil {
		return err
	}
	if created.Token == "" {
		return errors.New("integration token: the answer holds no token")
	}
	m.token.Store(&created.Token)
	return nil
}

// renewToken makes a new integration token after the simulator's was
// refused (a user deleted it); at most once a minute.
func (m *Simulator) renewToken(ctx context.Context) {
	m.renewMu.Lock()
	defer m.renewMu.Unlock()
	if time.Since(m.renewed) < time.Minute {
		return
	}
	m.renewed = time.Now()
	session, err := m.session(ctx)
	if err == nil {
		err = m.ensureToken(ctx, session)
	}
	if err != nil && ctx.Err() == nil {
		m.log.Warn("demo: could not renew the integration token", "err", err)
	}
}
