package decoding

import (
	"context"
	"sync"
	"time"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/sandbox"
	"github.com/fieldhub/fieldhub/modules/decoders"
	"github.com/fieldhub/fieldhub/modules/decoders/internal/store"
)

// The range a company's limits may be set in. The ceiling on time keeps one
// company's slow codec from holding the ingest of others for long; the
// ceiling on memory is the sandbox's own (sandbox.DefaultMaxMemory).
const (
	maxLimitTime   = time.Second
	maxLimitMemory = sandbox.DefaultMaxMemory
	limitsCheck    = 5 * time.Second // how long a company's limits are taken as known
)

type limitsEntry struct {
	lim     sandbox.Limits
	own     bool
	checked time.Time
}

// limitsCache keeps each company's limits for limitsCheck, since every
// uplink needs them.
type limitsCache struct {
	mu sync.Mutex
	m  map[int64]limitsEntry
}

func (c *limitsCache) init() { c.m = map[int64]limitsEntry{} }

func (c *limitsCache) drop(company int64) {
	c.mu.Lock()
	delete(c.m, company)
	c.mu.Unlock()
}

// defaultLimits are the limits of a company without its own.
func (s *Service) defaultLimits() sandbox.Limits {
	l := s.limits
	if l.Time <= 0 {
		l.Time = sandbox.DefaultTime
	}
	if l.Memory <= 0 {
		l.Memory = sandbox.DefaultMemory
	}
	return l
}

// companyLimits returns the limits of one decode for company's nodes.
func (s *Service) companyLimits(ctx context.Context, company int64) (sandbox.Limits, error) {
	l, _, err := s.companyLimitsOwn(ctx, company)
	return l, err
}

func (s *Service) companyLimitsOwn(ctx context.Context, company int64) (sandbox.Limits, bool, error) {
	if company == 0 {
		return s.defaultLimits(), false, nil
	}
	s.limitsCache.mu.Lock()
	e, ok := s.limitsCache.m[company]
	s.limitsCache.mu.Unlock()
	if ok && time.Since(e.checked) < limitsCheck {
		return e.lim, e.own, nil
	}
	row, found, err := store.Limits(ctx, s.db, company)
	if err != nil {
		return sandbox.Limits{}, false, err
	}
	e = limitsEntry{lim: s.defaultLimits(), checked: time.Now()}
	if found {
		e.lim = sandbox.Limits{Time: time.Duration(row.TimeMS) * time.Millisecond, Memory: int64(row.MemoryMiB) << 20}
		e.own = true
	}
	s.limitsCache.mu.Lock()
	if len(s.limitsCache.m) > 10_000 {
		s.limitsCache.m = map[int64]limitsEntry{} // bounded; a miss costs one query
	}
	s.limitsCache.m[company] = e
	s.limitsCache.mu.Unlock()
	return e.lim, e.own, nil
}

// LimitsView reads a company's limits afresh.
func (s *Service) LimitsView(ctx context.Context, company int64) (decoders.LimitsView, error) {
	s.limitsCache.drop(company)
	l, own, err := s.companyLimitsOwn(ctx, company)
	if err != nil {
		return decoders.LimitsView{}, err
	}
	return decoders.LimitsView{CompanyID: company, TimeMS: int(l.Time / time.Millisecond), MemoryMiB: int(l.Memory >> 20), Default: !own,
		MaxTimeMS: int(maxLimitTime / time.Millisecond), MaxMemoryMiB: maxLimitMemory >> 20}, nil
}

// LimitsInput is a company's limits as the API (PUT
// .../decoders/limits) and the limits form take them.
type LimitsInput struct {
	TimeMS    *int `json:"timeMs"`
	MemoryMiB *int `json:"memoryMiB"`
}

// SetLimits validates and stores a company's limits.
func (s *Service) SetLimits(ctx context.Context, company int64, in LimitsInput) error {
	v := errs.Validation{}
	maxMS, maxMiB := int(maxLimitTime/time.Millisecond), maxLimitMemory>>20
	switch {
	case in.TimeMS == nil:
		v.Add("timeMs", errs.IDRequired)
	case *in.TimeMS < 1 || *in.TimeMS > maxMS:
		v.AddArgs("timeMs", decoders.IDLimitTime, map[string]any{"max": maxMS})
	}
	switch {
	case in.MemoryMiB == nil:
		v.Add("memoryMiB", errs.IDRequired)
	case *in.MemoryMiB < 1 || *in.MemoryMiB > maxMiB:
		v.AddArgs("memoryMiB", decoders.IDLimitMemory, map[string]any{"max": maxMiB})
	}
	if err := v.Err(); err != nil {
		return err
	}
	row := &decoders.LimitsRow{CompanyID: company, TimeMS: *in.TimeMS, MemoryMiB: *in.MemoryMiB, UpdatedAt: time.Now().UTC()}
	if err := store.SaveLimits(ctx, s.db, row); err != nil {
		return err
	}
	s.limitsCache.drop(company)
	s.announce(ctx, company, decoders.AuditLimits, map[string]any{"timeMs": row.TimeMS, "memoryMiB": row.MemoryMiB},
		nil, map[string]any{"timeMs": row.TimeMS, "memoryMiB": row.MemoryMiB})
	return nil
}

// ResetLimits gives a company the installation's limits again.
func (s *Service) ResetLimits(ctx context.Context, company int64) error {
	if err := store.DeleteLimits(ctx, s.db, company); err != nil {
		return err
	}
	s.limitsCache.drop(company)
	s.announce(ctx, company, decoders.AuditLimitsReset, nil, nil, nil)
	return nil
}
