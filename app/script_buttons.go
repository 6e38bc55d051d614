package app

import (
	"context"

	"github.com/fieldhub/fieldhub/modules/dashboards"
	"github.com/fieldhub/fieldhub/modules/scripts"
)

// scriptButtons gives the dashboards' function buttons the script engine
// (dashboards.Scripts): the scripts contract declares its own look-alike
// types, so that neither module imports the other.
type scriptButtons struct{ scripts scripts.Service }

func (s scriptButtons) InvokedScripts(ctx context.Context, companyID int64) ([]dashboards.ScriptRef, error) {
	refs, err := s.scripts.InvokedScripts(ctx, companyID)
	if err != nil {
		return nil, err
	}
	out := make([]dashboards.ScriptRef, len(refs))
	for i, r := range refs {
		out[i] = dashboards.ScriptRef{ID: r.ID, Name: r.Name}
	}
	return out, nil
}

func (s scriptButtons) RunScript(ctx context.Context, companyID, scriptID int64) (dashboards.ScriptRun, error) {
	run, err := s.scripts.RunScript(ctx, companyID, scriptID)
	if err != nil {
		return dashboards.ScriptRun{}, err
	}
	return dashboards.ScriptRun{Result: run.Result, Error: run.Error}, nil
}
