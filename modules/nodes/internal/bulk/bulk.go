// Package bulk imports a company's nodes from a CSV or XLSX file and
// exports them in the same format: a dry run reports per row what the
// import would create, change or refuse and why, before anything is
// written; an apply writes every row in one transaction, or nothing when
// a row is refused. Each row is validated by the registry's one validation
// of a node's fields (registry.ApplyTagWith), as the forms and the API are;
// an export imported again changes nothing.
package bulk

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/nodes"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/registry"
)

// Service imports and exports nodes.
type Service struct {
	reg      *registry.Registry
	decoders nodes.Decoders

	mu       sync.RWMutex
	profiles nodes.Profiles // nil: no profiles module
}

// New builds the service on the registry; decoders tells which decoder
// keys a company may name.
func New(reg *registry.Registry, decoders nodes.Decoders) *Service {
	return &Service{reg: reg, decoders: decoders}
}

// UseProfiles gives the service the device profiles that the profile
// column names.
func (s *Service) UseProfiles(p nodes.Profiles) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.profiles = p
}

// Profiles are the device profiles, nil without them.
func (s *Service) Profiles() nodes.Profiles {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.profiles
}

// Import reads a file of company's nodes and reports per row what the
// import does; with apply, and no row refused, it writes them all in one
// transaction. A file that cannot be read is an error; refused rows are
// not (the report says so).
func (s *Service) Import(ctx context.Context, companyID int64, data []byte, apply bool) (*Report, error) {
	sh, err := readSheet(data)
	if err != nil {
		return nil, err
	}
	l, err := parseHeader(sh.Header)
	if err != nil {
		return nil, err
	}
	p, err := s.newPlan(ctx, companyID, l, sh.Rows)
	if err != nil {
		return nil, err
	}
	for _, r := range sh.Rows {
		if err := p.row(ctx, r); err != nil {
			return nil, err
		}
	}
	s.reg.RefuseClaims(ctx, companyID, p.claimed)
	p.report.DryRun = !apply
	if !apply {
		return &p.report, nil
	}
	if p.report.Counts.Refused > 0 {
		p.report.ID = nodes.IDImportRefused
		return &p.report, nil
	}
	if err := s.reg.Import(ctx, p.batch()); err != nil {
		return nil, err
	}
	p.report.Applied = true
	return &p.report, nil
}

// memoDecoders asks the decoders whether a company may name a key once
// per key, not once per row.
func (s *Service) memoDecoders() registry.HasDecoder {
	known := map[string]bool{}
	return func(ctx context.Context, company int64, key string) (bool, error) {
		ok, seen := known[key]
		if seen {
			return ok, nil
		}
		ok, err := s.decoders.Has(ctx, company, key)
		if err != nil {
			return false, err
		}
		known[key] = ok
		return ok, nil
	}
}

// profileByName asks the profiles for a name once per name; nil is no such
// profile.
func profileByName(p nodes.Profiles, companyID int64) func(ctx context.Context, name string) (*nodes.ProfileRef, error) {
	known := map[string]*nodes.ProfileRef{}
	return func(ctx context.Context, name string) (*nodes.ProfileRef, error) {
		if ref, seen := known[name]; seen {
			return ref, nil
		}
		ref, err := p.ProfileByName(ctx, companyID, name)
		switch {
		case errors.Is(err, nodes.ErrProfileNotFound) || errs.Is(err, errs.NotFound):
			known[name] = nil
			return nil, nil
		case err != nil:
			return nil, fmt.Errorf("look up profile %q: %w", name, err)
		}
		known[name] = &ref
		return &ref, nil
	}
}
