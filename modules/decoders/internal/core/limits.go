package core

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/sandbox"
	"github.com/fieldhub/fieldhub/kernel/web"
)

// The range a company's limits may be set in. The ceiling on time keeps one
// company's slow codec from holding the ingest of others for long; the
// ceiling on memory is the sandbox's own (sandbox.DefaultMaxMemory).
const (
	maxLimitTime   = time.Second
	maxLimitMemory = sandbox.DefaultMaxMemory
	limitsCheck    = 5 * time.Second // how long a company's limits are taken as known
)

// Message IDs of the limits.
const (
	msgLimitTime   = "decoders.limits.time"
	msgLimitMemory = "decoders.limits.memory"
)

// LimitsRow is a company's own limits.
type LimitsRow struct {
	bun.BaseModel `bun:"table:decoder_limits"`

	CompanyID int64     `bun:"company_id,pk"`
	TimeMS    int       `bun:"time_ms"`
	MemoryMiB int       `bun:"memory_mib"`
	UpdatedAt time.Time `bun:"updated_at"`
}

// LimitsView is the JSON of a company's limits.
type LimitsView struct {
	CompanyID int64 `json:"companyId"`
	TimeMS    int   `json:"timeMs"`
	MemoryMiB int   `json:"memoryMiB"`
	// Default is true when the company has the installation's limits.
	Default      bool `json:"default"`
	MaxTimeMS    int  `json:"maxTimeMs"`
	MaxMemoryMiB int  `json:"maxMemoryMiB"`
}

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
func (m *Module) defaultLimits() sandbox.Limits {
	l := m.deps.Limits
	if l.Time <= 0 {
		l.Time = sandbox.DefaultTime
	}
	if l.Memory <= 0 {
		l.Memory = sandbox.DefaultMemory
	}
	return l
}

// companyLimits returns the limits of one decode for company's nodes.
func (m *Module) companyLimits(ctx context.Context, company int64) (sandbox.Limits, error) {
	l, _, err := m.companyLimitsOwn(ctx, company)
	return l, err
}

func (m *Module) companyLimitsOwn(ctx context.Context, company int64) (sandbox.Limits, bool, error) {
	if company == 0 {
		return m.defaultLimits(), false, nil
	}
	m.limits.mu.Lock()
	e, ok := m.limits.m[company]
	m.limits.mu.Unlock()
	if ok && time.Since(e.checked) < limitsCheck {
		return e.lim, e.own, nil
	}
	var row LimitsRow
	err := m.db.NewSelect().Model(&row).Where("company_id = ?", company).Scan(ctx)
	e = limitsEntry{lim: m.defaultLimits(), checked: time.Now()}
	switch {
	case db.IsNoRows(err):
	case err != nil:
		return sandbox.Limits{}, false, fmt.Errorf("load decoder limits of company %d: %w", company, err)
	default:
		e.lim = sandbox.Limits{Time: time.Duration(row.TimeMS) * time.Millisecond, Memory: int64(row.MemoryMiB) << 20}
		e.own = true
	}
	m.limits.mu.Lock()
	if len(m.limits.m) > 10_000 {
		m.limits.m = map[int64]limitsEntry{} // bounded; a miss costs one query
	}
	m.limits.m[company] = e
	m.limits.mu.Unlock()
	return e.lim, e.own, nil
}

func (m *Module) limitRoutes(r *web.ModuleRoutes) {
	r.API("GET /companies/{companyId}/decoders/limits", auth.AdminOrCompanyAdmin, m.getLimits)
	r.API("PUT /companies/{companyId}/decoders/limits", auth.SuperAdminOnly, m.putLimits)
	r.API("DELETE /companies/{companyId}/decoders/limits", auth.SuperAdminOnly, m.deleteLimits)
}

// pathCompany is the path's companyId if the caller may see (manage) it.
func (m *Module) pathCompany(r *http.Request, manage bool) (int64, error) {
	id, err := web.PathID(r, "companyId")
	if err != nil {
		return 0, err
	}
	if err := scoped(r.Context(), id, manage); err != nil {
		return 0, err
	}
	if m.deps.Accounts != nil {
		if _, err := m.deps.Accounts.Company(r.Context(), id); err != nil {
			return 0, err
		}
	}
	return id, nil
}

func (m *Module) limitsView(ctx context.Context, company int64) (LimitsView, error) {
	m.limits.drop(company)
	l, own, err := m.companyLimitsOwn(ctx, company)
	if err != nil {
		return LimitsView{}, err
	}
	return LimitsView{CompanyID: company, TimeMS: int(l.Time / time.Millisecond), MemoryMiB: int(l.Memory >> 20), Default: !own,
		MaxTimeMS: int(maxLimitTime / time.Millisecond), MaxMemoryMiB: maxLimitMemory >> 20}, nil
}

// getLimits answers GET /companies/{companyId}/decoders/limits.
func (m *Module) getLimits(w http.ResponseWriter, r *http.Request) error {
	company, err := m.pathCompany(r, true)
	if err != nil {
		return err
	}
	v, err := m.limitsView(r.Context(), company)
	if err != nil {
		return err
	}
	return web.OK(w, v)
}

// limitsInput is the body of PUT .../decoders/limits.
type limitsInput struct {
	TimeMS    *int `json:"timeMs"`
	MemoryMiB *int `json:"memoryMiB"`
}

// putLimits answers PUT /companies/{companyId}/decoders/limits: a
// SuperAdmin sets a company's limits (a company cannot raise its own).
func (m *Module) putLimits(w http.ResponseWriter, r *http.Request) error {
	company, err := m.pathCompany(r, true)
	if err != nil {
		return err
	}
	var in limitsInput
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	if err := m.setLimits(r.Context(), company, in); err != nil {
		return err
	}
	v, err := m.limitsView(r.Context(), company)
	if err != nil {
		return err
	}
	return web.OK(w, v)
}

// setLimits validates and stores a company's limits.
func (m *Module) setLimits(ctx context.Context, company int64, in limitsInput) error {
	v := errs.Validation{}
	maxMS, maxMiB := int(maxLimitTime/time.Millisecond), maxLimitMemory>>20
	switch {
	case in.TimeMS == nil:
		v.Add("timeMs", errs.IDRequired)
	case *in.TimeMS < 1 || *in.TimeMS > maxMS:
		v.AddArgs("timeMs", msgLimitTime, map[string]any{"max": maxMS})
	}
	switch {
	case in.MemoryMiB == nil:
		v.Add("memoryMiB", errs.IDRequired)
	case *in.MemoryMiB < 1 || *in.MemoryMiB > maxMiB:
		v.AddArgs("memoryMiB", msgLimitMemory, map[string]any{"max": maxMiB})
	}
	if err := v.Err(); err != nil {
		return err
	}
	row := &LimitsRow{CompanyID: company, TimeMS: *in.TimeMS, MemoryMiB: *in.MemoryMiB, UpdatedAt: time.Now().UTC()}
	_, err := m.db.NewInsert().Model(row).On("CONFLICT (company_id) DO UPDATE").
		Set("time_ms = EXCLUDED.time_ms, memory_mib = EXCLUDED.memory_mib, updated_at = EXCLUDED.updated_at").Exec(ctx)
	if err != nil {
		return fmt.Errorf("store decoder limits of company %d: %w", company, err)
	}
	m.limits.drop(company)
	return nil
}

// deleteLimits answers DELETE /companies/{companyId}/decoders/limits: the
// company has the installation's limits again.
func (m *Module) deleteLimits(w http.ResponseWriter, r *http.Request) error {
	company, err := m.pathCompany(r, true)
	if err != nil {
		return err
	}
	if _, err := m.db.NewDelete().Model((*LimitsRow)(nil)).Where("company_id = ?", company).Exec(r.Context()); err != nil {
		return fmt.Errorf("delete decoder limits of company %d: %w", company, err)
	}
	m.limits.drop(company)
	v, err := m.limitsView(r.Context(), company)
	if err != nil {
		return err
	}
	return web.OK(w, v)
}
