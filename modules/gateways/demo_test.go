package gateways_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/modules/demo"
	demomodule "github.com/fieldhub/fieldhub/modules/demo/module"
)

// TestDemoGateways checks issue 20's "done when": the demo company's
// gateways have positions, its simulated uplinks name them, so they are
// online with last seen and signal figures; when the demo stream stops they
// turn offline after the configured silence (3 s here).
func TestDemoGateways(t *testing.T) {
	t.Parallel()
	p := kerneltest.Start(t, db.SQLite, map[string]string{"FIELDHUB_GATEWAY_OFFLINE_AFTER": "3s"}, app.Build)
	ctx := context.Background()
	company, err := p.App.SeedDemo(ctx, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	sim := demomodule.New(p.Host(), demomodule.Deps{Accounts: p.App.Accounts(), CompanyID: company, BaseURL: p.URL})
	// The simulator ends with the context it started with (the kernel's).
	simCtx, endStream := context.WithCancel(ctx)
	if err := sim.Start(simCtx); err != nil {
		t.Fatal(err)
	}
	stopped := false
	stop := func() {
		if !stopped {
			stopped = true
			endStream()
			sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			defer cancel()
			_ = sim.Stop(sctx)
		}
	}
	t.Cleanup(stop)
	root := p.SuperAdmin(t)
	var list []any
	all := func(ok func(g map[string]any) bool) func() bool {
		return func() bool {
			list = p.Client.Must(t, "GET", fmt.Sprintf("/api/gateway/company/%d", company), root, nil, http.StatusOK).List()
			if len(list) != len(demo.Gateways()) {
				return false
			}
			for _, g := range list {
				if !ok(g.(map[string]any)) {
					return false
				}
			}
			return true
		}
	}
	kerneltest.WaitFor(t, 30*time.Second, all(func(g map[string]any) bool {
		return g["state"] == "online" && g["lastSeen"] != nil && g["medianRssi"] != nil && g["medianSnr"] != nil && g["uplinks24h"].(float64) > 0 &&
			g["latitude"].(float64) > 59 && g["longitude"].(float64) > 18
	}), func() string { return fmt.Sprintf("the demo's gateways online with figures: %v", list) })
	stop()
	kerneltest.WaitFor(t, 30*time.Second, all(func(g map[string]any) bool { return g["state"] == "offline" }),
		func() string { return fmt.Sprintf("the demo's gateways offline after the stream stopped: %v", list) })
}
