// Package module builds the demo module for the application package.
package module

import (
	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/modules/demo"
	"github.com/fieldhub/fieldhub/modules/demo/internal/simulator"
)

// Deps is what the demo module needs beside the kernel.
type Deps struct {
	// Accounts finds the demo company's CompanyAdmin, as whom the simulator
	// acts. Required; the accounts module satisfies it.
	Accounts demo.Accounts
	// CompanyID is the demo company (accounts.Module.EnsureDemoCompany).
	// Required.
	CompanyID int64
	// BaseURL is the portal's own address as this process reaches it
	// (http://127.0.0.1:8080), known once it listens. Required.
	BaseURL string
	// Dashboards makes the demo's dashboard once its nodes exist. Optional:
	// without it the demo has nodes and data only.
	Dashboards demo.Dashboards
}

// New builds the module. It panics when a required dependency is missing,
// so that a wiring mistake stops the program at start.
func New(host *kernel.Host, deps Deps) demo.Module {
	if deps.Accounts == nil || deps.CompanyID <= 0 || deps.BaseURL == "" {
		panic("demo module: Deps.Accounts, Deps.CompanyID and Deps.BaseURL are required")
	}
	return simulator.New(host, simulator.Config{Accounts: deps.Accounts, CompanyID: deps.CompanyID, BaseURL: deps.BaseURL, Dashboards: deps.Dashboards})
}
