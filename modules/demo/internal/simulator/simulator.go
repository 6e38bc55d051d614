// Package simulator is the demo module at work: it sets up the demo's
// application, nodes, integration token and dashboard through the portal's
// HTTP API, then posts the nodes' uplinks as devices would.
package simulator

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/modules/accounts"
	"github.com/fieldhub/fieldhub/modules/demo"
)

// sessionTTL is how long the simulator's access token lasts; it is used
// only for the set-up calls and made again when needed.
const sessionTTL = 5 * time.Minute

// Config is what the simulator works on.
type Config struct {
	// Accounts finds the demo company's CompanyAdmin.
	Accounts demo.Accounts
	// CompanyID is the demo company.
	CompanyID int64
	// BaseURL is the portal's own address as this process reaches it.
	BaseURL string
	// Dashboards makes the demo's dashboard; nil for none.
	Dashboards demo.Dashboards
}

// Simulator sets the demo up and runs it; it satisfies demo.Module.
type Simulator struct {
	host *kernel.Host
	log  *slog.Logger
	deps Config
	api  *client
	wg   sync.WaitGroup
	now  func() time.Time
	// token is the simulator's integration token.
	token atomic.Pointer[string]
	// renewMu guards renewed, when the token was last made again.
	renewMu sync.Mutex
	renewed time.Time
	// warnMu guards warned, when a failed uplink was last logged.
	warnMu sync.Mutex
	warned time.Time
}

// New returns the simulator, which does nothing before Start.
func New(host *kernel.Host, deps Config) *Simulator {
	return &Simulator{host: host, log: host.Logger("demo"), deps: deps, now: time.Now,
		api: &client{base: deps.BaseURL, http: &http.Client{Timeout: 10 * time.Second}}}
}

// Name names the module.
func (m *Simulator) Name() string { return "demo" }

// Start runs the set-up and the simulator in the background: the portal
// answers HTTP only once every module has started.
func (m *Simulator) Start(ctx context.Context) error {
	m.wg.Add(1)
	go func() {
		defer m.wg.Done()
		m.run(ctx)
	}()
	return nil
}

// Stop waits for the simulator, which ends with the kernel's context.
func (m *Simulator) Stop(ctx context.Context) error {
	done := make(chan struct{})
	go func() { m.wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// run sets the demo up, retrying while the portal is not answering yet,
// then simulates until ctx ends.
func (m *Simulator) run(ctx context.Context) {
	var nodes []*simNode
	for attempt := 0; ; attempt++ {
		var err error
		nodes, err = m.setUp(ctx)
		if err == nil {
			break
		}
		if ctx.Err() != nil {
			return
		}
		if attempt == 5 {
			m.log.Warn("demo set-up failed, retrying", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(min(time.Duration(attempt+1)*100*time.Millisecond, 5*time.Second)):
		}
	}
	m.seedDashboard(ctx)
	m.log.Info("demo simulator started", "nodes", len(nodes), "application", demo.ApplicationName)
	m.simulate(ctx, nodes)
}

// session returns an access token of the demo company's CompanyAdmin (an
// Admin of the company will do): the simulator acts as them.
func (m *Simulator) session(ctx context.Context) (string, error) {
	users, err := m.deps.Accounts.CompanyUsers(ctx, m.deps.CompanyID)
	if err != nil {
		return "", fmt.Errorf("users of the demo company: %w", err)
	}
	var admin *accounts.User
	for _, role := range []auth.Role{auth.CompanyAdmin, auth.Admin} {
		for i := range users {
			if admin == nil && users[i].Role == role {
				admin = &users[i]
			}
		}
	}
	if admin == nil {
		return "", errors.New("the demo company has no CompanyAdmin to act as")
	}
	c := auth.Caller{UserID: admin.ID, Role: admin.Role, CompanyID: m.deps.CompanyID, SessionID: "demo-simulator"}
	return m.host.Tokens.Issue(c, m.now().Add(sessionTTL)), nil
}
