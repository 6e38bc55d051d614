// Package scriptsource holds the script engine that function buttons of the
// SCRIPT kind run, set once the scripts module exists.
package scriptsource

import (
	"context"
	"strconv"
	"sync/atomic"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/dashboards"
)

// Source asks the dashboards.Scripts set last; without one there is no
// script engine.
type Source struct {
	scripts atomic.Pointer[dashboards.Scripts]
}

// Set makes s the script engine.
func (src *Source) Set(s dashboards.Scripts) { src.scripts.Store(&s) }

// Known reports whether a script engine is set.
func (src *Source) Known() bool { return src.scripts.Load() != nil }

// unavailable is the answer while no script engine is registered.
func unavailable() error { return errs.New(errs.Unavailable, dashboards.IDNoScripts) }

// Invoked lists the company's invoked scripts.
func (src *Source) Invoked(ctx context.Context, companyID int64) ([]dashboards.ScriptRef, error) {
	s := src.scripts.Load()
	if s == nil {
		return nil, unavailable()
	}
	list, err := (*s).InvokedScripts(ctx, companyID)
	if list == nil {
		list = []dashboards.ScriptRef{}
	}
	return list, err
}

// Run runs the company's invoked script id.
func (src *Source) Run(ctx context.Context, companyID, scriptID int64) (dashboards.ScriptRun, error) {
	s := src.scripts.Load()
	if s == nil {
		return dashboards.ScriptRun{}, unavailable()
	}
	return (*s).RunScript(ctx, companyID, scriptID)
}

// IsInvoked reports whether a scriptid attribute names an invoked script of
// the company; without a script engine any positive number passes, as the
// engine checks again when the button is pressed.
func (src *Source) IsInvoked(ctx context.Context, companyID int64, scriptID string) (bool, error) {
	id, err := strconv.ParseInt(scriptID, 10, 64)
	if err != nil || id <= 0 {
		return false, nil
	}
	if !src.Known() {
		return true, nil
	}
	list, err := src.Invoked(ctx, companyID)
	if err != nil {
		return false, err
	}
	for _, s := range list {
		if s.ID == id {
			return true, nil
		}
	}
	return false, nil
}
