// Package registry is the gateways module's logic behind its routes and
// pages: who may see and change which gateway, the checks of a gateway's
// fields, and the lists with their statistics.
package registry

import (
	"context"
	"math"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/audit"
	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/gateways"
	"github.com/fieldhub/fieldhub/modules/gateways/internal/geocode"
	"github.com/fieldhub/fieldhub/modules/gateways/internal/stats"
	"github.com/fieldhub/fieldhub/modules/gateways/internal/store"
	"github.com/fieldhub/fieldhub/modules/nodes"
)

// maxName bounds a gateway's name (SPEC section 9's 255 characters).
const maxName = 255

// ErrNotFound is the answer for what does not exist or is out of reach.
var ErrNotFound = errs.New(errs.NotFound, errs.IDNotFound)

// Registry is the module's logic.
type Registry struct {
	host         *kernel.Host
	accounts     gateways.Accounts
	apps         gateways.Applications
	agg          *stats.Aggregator
	geo          *geocode.Client
	offlineAfter time.Duration
}

// New returns the registry.
func New(host *kernel.Host, accounts gateways.Accounts, apps gateways.Applications, agg *stats.Aggregator, geo *geocode.Client, offlineAfter time.Duration) *Registry {
	return &Registry{host: host, accounts: accounts, apps: apps, agg: agg, geo: geo, offlineAfter: offlineAfter}
}

// OfflineAfter is the silence after which a gateway is offline.
func (g *Registry) OfflineAfter() time.Duration { return g.offlineAfter }

// GeocodeOn reports whether the address lookup is configured.
func (g *Registry) GeocodeOn() bool { return g.geo != nil }

// scoped checks that the caller may see (and, with manage, change) what
// belongs to companyID; another company's things are not found.
func scoped(ctx context.Context, companyID int64, manage bool) error {
	c := auth.CallerFrom(ctx)
	if !c.CanSeeCompany(companyID) {
		return ErrNotFound
	}
	if manage && !c.CanManageCompany(companyID) {
		return errs.New(errs.Forbidden, errs.IDForbidden)
	}
	return nil
}

// Company checks that the caller may see company id and that it exists.
func (g *Registry) Company(ctx context.Context, id int64) error {
	if err := scoped(ctx, id, false); err != nil {
		return err
	}
	_, err := g.accounts.Company(ctx, id)
	return err
}

// Application returns the application id if the caller manages its company.
func (g *Registry) Application(ctx context.Context, id int64) (*nodes.Application, error) {
	app, err := g.apps.Application(ctx, id)
	if errs.Is(err, errs.NotFound) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	if err := scoped(ctx, app.CompanyID, true); err != nil {
		return nil, err
	}
	return app, nil
}

// Gateway returns gateway id if the caller may see (with manage: change) it.
func (g *Registry) Gateway(ctx context.Context, id int64, manage bool) (*gateways.Gateway, error) {
	gw, err := store.Gateway(ctx, g.host.DB, id)
	if err != nil {
		return nil, err
	}
	if err := scoped(ctx, gw.CompanyID, manage); err != nil {
		return nil, err
	}
	if err := g.withStats(ctx, gw.CompanyID, []*gateways.Gateway{gw}); err != nil {
		return nil, err
	}
	return gw, nil
}

// Create registers a gateway under application appID.
func (g *Registry) Create(ctx context.Context, appID int64, in gateways.Input) (*gateways.Gateway, error) {
	app, err := g.Application(ctx, appID)
	if err != nil {
		return nil, err
	}
	in.Name = strings.TrimSpace(in.Name)
	in.MacAddress = gateways.NormaliseEUI(in.MacAddress)
	var v errs.Validation
	checkName(&v, in.Name)
	switch {
	case in.MacAddress == "":
		v.Add("macAddress", errs.IDRequired)
	case !gateways.ValidEUI(in.MacAddress):
		v.Add("macAddress", gateways.IDBadEUI)
	}
	checkPosition(&v, in.Latitude, in.Longitude)
	if err := v.Err(); err != nil {
		return nil, err
	}
	gw := &gateways.Gateway{CompanyID: app.CompanyID, ApplicationID: app.ID, Name: in.Name, MacAddress: in.MacAddress,
		Latitude: *in.Latitude, Longitude: *in.Longitude}
	if err := store.Insert(ctx, g.host.DB, gw); err != nil {
		if errs.Is(err, errs.Conflict) {
			return nil, &errs.Error{Kind: errs.Conflict, ID: gateways.IDDuplicateEUI, Args: map[string]any{"eui": gw.MacAddress},
				Fields: []errs.FieldError{{Field: "macAddress", ID: gateways.IDDuplicateEUI, Args: map[string]any{"eui": gw.MacAddress}}}}
		}
		return nil, err
	}
	g.announce(ctx, gw, gateways.AuditCreated, nil, fields(gw))
	if err := g.withStats(ctx, gw.CompanyID, []*gateways.Gateway{gw}); err != nil {
		return nil, err
	}
	return gw, nil
}

// Move stores a new position of gateway id.
func (g *Registry) Move(ctx context.Context, id int64, p gateways.Position) (*gateways.Gateway, error) {
	gw, err := g.Gateway(ctx, id, true)
	if err != nil {
		return nil, err
	}
	var v errs.Validation
	checkPosition(&v, p.Latitude, p.Longitude)
	if err := v.Err(); err != nil {
		return nil, err
	}
	was := fields(gw)
	if err := store.Move(ctx, g.host.DB, gw.ID, *p.Latitude, *p.Longitude); err != nil {
		return nil, err
	}
	gw.Latitude, gw.Longitude = *p.Latitude, *p.Longitude
	if before, after := audit.Diff(was, fields(gw)); !audit.Empty(after) {
		g.announce(ctx, gw, gateways.AuditMoved, before, after)
	}
	return gw, nil
}

// Delete removes gateway id.
func (g *Registry) Delete(ctx context.Context, id int64) (*gateways.Gateway, error) {
	gw, err := g.Gateway(ctx, id, true)
	if err != nil {
		return nil, err
	}
	if err := store.Delete(ctx, g.host.DB, gw.ID); err != nil {
		return nil, err
	}
	g.announce(ctx, gw, gateways.AuditDeleted, fields(gw), nil)
	return gw, nil
}

// List returns the company's gateways with their statistics, after adding
// what this instance counted so far, so that the list is current here.
func (g *Registry) List(ctx context.Context, companyID int64) ([]*gateways.Gateway, error) {
	if err := g.Company(ctx, companyID); err != nil {
		return nil, err
	}
	list, err := store.CompanyGateways(ctx, g.host.DB, companyID)
	if err != nil {
		return nil, err
	}
	if err := g.withStats(ctx, companyID, list); err != nil {
		return nil, err
	}
	return list, nil
}

// Unknown lists the gateways the company's uplinks named that it has not
// registered, with their statistics.
func (g *Registry) Unknown(ctx context.Context, companyID int64) ([]gateways.Unknown, error) {
	if err := g.Company(ctx, companyID); err != nil {
		return nil, err
	}
	_ = g.agg.Flush(context.WithoutCancel(ctx))
	now := time.Now()
	euis, err := store.Unknown(ctx, g.host.DB, companyID, now)
	if err != nil {
		return nil, err
	}
	out := make([]gateways.Unknown, 0, len(euis))
	if len(euis) == 0 {
		return out, nil
	}
	st, err := store.CompanyStats(ctx, g.host.DB, companyID, now, g.offlineAfter)
	if err != nil {
		return nil, err
	}
	for _, eui := range euis {
		u := gateways.Unknown{MacAddress: eui, Stats: gateways.Stats{State: gateways.StateNever}}
		if s := st[eui]; s != nil {
			u.Stats = *s
		}
		out = append(out, u)
	}
	return out, nil
}

// Reverse looks up the address of a position.
func (g *Registry) Reverse(ctx context.Context, lat, lng *float64, lang string) (gateways.Address, error) {
	if g.geo == nil {
		return gateways.Address{}, errs.New(errs.NotFound, gateways.IDNoGeocoder)
	}
	var v errs.Validation
	checkPosition(&v, lat, lng)
	if err := v.Err(); err != nil {
		return gateways.Address{}, err
	}
	return g.geo.Reverse(ctx, *lat, *lng, lang)
}

// withStats fills in the statistics of a company's gateways.
func (g *Registry) withStats(ctx context.Context, companyID int64, list []*gateways.Gateway) error {
	_ = g.agg.Flush(context.WithoutCancel(ctx)) // not lost with a caller that gives up; a failure is logged
	st, err := store.CompanyStats(ctx, g.host.DB, companyID, time.Now(), g.offlineAfter)
	if err != nil {
		return err
	}
	for _, gw := range list {
		gw.Stats = gateways.Stats{State: gateways.StateNever}
		if s := st[gw.MacAddress]; s != nil {
			gw.Stats = *s
		}
	}
	return nil
}

func (g *Registry) announce(ctx context.Context, gw *gateways.Gateway, id string, before, after map[string]any) {
	audit.Announce(ctx, g.host.Bus, audit.Change{CompanyID: gw.CompanyID, MessageID: id, Args: map[string]any{"name": gw.Name},
		Before: before, After: after})
}

// fields are what the audit trail shows of a gateway.
func fields(gw *gateways.Gateway) map[string]any {
	return map[string]any{"name": gw.Name, "macAddress": gw.MacAddress, "latitude": gw.Latitude, "longitude": gw.Longitude}
}

// checkName validates a gateway's name: required, at most 255 characters,
// printable.
func checkName(v *errs.Validation, name string) {
	switch {
	case name == "":
		v.Add("name", errs.IDRequired)
	case utf8.RuneCountInString(name) > maxName:
		v.Add("name", errs.IDMaxChars255)
	case strings.IndexFunc(name, unicode.IsControl) >= 0 || !utf8.ValidString(name):
		v.Add("name", gateways.IDBadName)
	}
}

// checkPosition validates a latitude (-90 to 90) and longitude (-180 to
// 180), both required.
func checkPosition(v *errs.Validation, lat, lng *float64) {
	switch {
	case lat == nil:
		v.Add("latitude", errs.IDRequired)
	case math.IsNaN(*lat) || *lat < -90 || *lat > 90:
		v.Add("latitude", gateways.IDBadLatitude)
	}
	switch {
	case lng == nil:
		v.Add("longitude", errs.IDRequired)
	case math.IsNaN(*lng) || *lng < -180 || *lng > 180:
		v.Add("longitude", gateways.IDBadLongitude)
	}
}
