// Package module builds the site module for the application package.
package module

import (
	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/modules/site"
	"github.com/fieldhub/fieldhub/modules/site/internal/pages"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// Deps is what the site module needs beside the kernel. Both are required.
type Deps struct {
	// UI draws the pages.
	UI *ui.Env
	// Accounts answers who writes through the contact form and who receives
	// it; the accounts module satisfies it.
	Accounts site.Accounts
}

// New builds the module. It panics when a dependency is missing, so that a
// wiring mistake stops the program at start.
func New(host *kernel.Host, deps Deps) site.Module {
	if deps.UI == nil || deps.Accounts == nil {
		panic("site module: Deps.UI and Deps.Accounts are required")
	}
	return pages.New(host, deps.UI, deps.Accounts)
}
