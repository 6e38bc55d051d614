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
	"slices"
	"strings"
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

// decoderKey resolves what a row's decoder cell names to the key as the
// decoder list spells it: people retype keys from the list and change
// their case. A key the company may name as written is taken as it is;
// otherwise the one key of the company's list that differs from it only in
// case. ambiguous is true when several keys do; "" with ambiguous false is
// no such key, which the node validation then refuses.
func (s *Service) decoderKey(companyID int64, has registry.HasDecoder) func(ctx context.Context, v string) (key string, ambiguous bool, err error) {
	var byFold folded
	return func(ctx context.Context, v string) (string, bool, error) {
		ok, err := has(ctx, companyID, v)
		if err != nil || ok {
			return v, false, err
		}
		if byFold == nil {
			list, err := s.decoders.Catalog(ctx, companyID)
			if err != nil {
				return "", false, fmt.Errorf("list decoders: %w", err)
			}
			keys := make([]string, len(list))
			for i, e := range list {
				keys[i] = e.Key
			}
			byFold = foldIndex(keys)
		}
		switch key, n := byFold.find(v); n {
		case 0:
			return v, false, nil
		case 1:
			return key, false, nil
		default:
			return "", true, nil
		}
	}
}

// folded indexes names by their lower case, each spelling once.
type folded map[string][]string

func foldIndex(names []string) folded {
	f := folded{}
	for _, name := range names {
		k := strings.ToLower(strings.TrimSpace(name))
		if !slices.Contains(f[k], name) {
			f[k] = append(f[k], name)
		}
	}
	return f
}

// find is the one name that differs from v only in case, and how many do.
func (f folded) find(v string) (string, int) {
	names := f[strings.ToLower(v)]
	if len(names) != 1 {
		return "", len(names)
	}
	return names[0], 1
}

// profileByName resolves a profile name once per name: the profile of
// that exact name (the company's own before the installation's), else the
// one whose name differs from it only in case, as people type "em300-th"
// for "EM300-TH". nil is no such profile; ambiguous is true when the
// names of several profiles differ from it only in case.
func profileByName(p nodes.Profiles, companyID int64) func(ctx context.Context, name string) (ref *nodes.ProfileRef, ambiguous bool, err error) {
	type answer struct {
		ref       *nodes.ProfileRef
		ambiguous bool
	}
	known := map[string]answer{}
	var byFold folded
	exact := func(ctx context.Context, name string) (*nodes.ProfileRef, error) {
		ref, err := p.ProfileByName(ctx, companyID, name)
		switch {
		case errors.Is(err, nodes.ErrProfileNotFound) || errs.Is(err, errs.NotFound):
			return nil, nil
		case err != nil:
			return nil, fmt.Errorf("look up profile %q: %w", name, err)
		}
		return &ref, nil
	}
	return func(ctx context.Context, name string) (*nodes.ProfileRef, bool, error) {
		if a, seen := known[name]; seen {
			return a.ref, a.ambiguous, nil
		}
		ref, err := exact(ctx, name)
		if err != nil {
			return nil, false, err
		}
		list, lists := p.(nodes.ProfileChoices)
		if ref != nil || !lists {
			known[name] = answer{ref: ref}
			return ref, false, nil
		}
		if byFold == nil {
			refs, err := list.CompanyProfiles(ctx, companyID)
			if err != nil {
				return nil, false, fmt.Errorf("list profiles: %w", err)
			}
			names := make([]string, len(refs))
			for i, r := range refs {
				names[i] = r.Name
			}
			byFold = foldIndex(names)
		}
		var a answer
		switch spelt, n := byFold.find(name); n {
		case 0:
		case 1:
			if a.ref, err = exact(ctx, spelt); err != nil {
				return nil, false, err
			}
		default:
			a.ambiguous = true
		}
		known[name] = a
		return a.ref, a.ambiguous, nil
	}
}
