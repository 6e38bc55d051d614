// Package httpapi answers the signal tests' JSON routes under
// /api/signaltest (docs/api/signaltests.md).
package httpapi

import (
	"context"
	"database/sql"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/audit"
	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/errs"
	kevents "github.com/fieldhub/fieldhub/kernel/events"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/signaltests"
	"github.com/fieldhub/fieldhub/modules/signaltests/internal/store"
)

// API is the module's JSON routes.
type API struct {
	db       *bun.DB
	bus      kevents.Bus
	nodes    signaltests.Nodes
	gateways signaltests.GatewayNames
	now      func() time.Time
}

// New returns the routes. gateways may be nil.
func New(db *bun.DB, bus kevents.Bus, nodes signaltests.Nodes, gateways signaltests.GatewayNames) *API {
	return &API{db: db, bus: bus, nodes: nodes, gateways: gateways, now: time.Now}
}

// Routes registers the routes, open to CompanyOrUser roles within the
// companies they may see: field testing is work for every role (SPEC.md
// section 2, "Field testing").
func (a *API) Routes(r *web.ModuleRoutes) {
	r.Describe(docs)
	r.API("POST /signaltest/{companyId}/{deveui}", auth.CompanyOrUser, a.start)
	r.API("GET /signaltest/{companyId}", auth.CompanyOrUser, a.list)
	r.API("GET /signaltest/single/{testId}", auth.CompanyOrUser, a.single)
	r.API("GET /signaltest/peek/{testId}", auth.CompanyOrUser, a.peek)
	r.API("PUT /signaltest/end/{testId}", auth.CompanyOrUser, a.end)
	r.API("DELETE /signaltest/{testId}", auth.CompanyOrUser, a.remove)
}

func notFound() error { return errs.New(errs.NotFound, errs.IDNotFound) }

// pathCompany is the path's companyId when the caller may see it.
func pathCompany(r *http.Request) (int64, error) {
	id, err := web.PathID(r, "companyId")
	if err != nil {
		return 0, err
	}
	if !auth.CallerFrom(r.Context()).CanSeeCompany(id) {
		return 0, notFound()
	}
	return id, nil
}

// pathTest is the path's test when the caller may see its company.
func (a *API) pathTest(r *http.Request) (*signaltests.Test, error) {
	id, err := web.PathID(r, "testId")
	if err != nil {
		return nil, err
	}
	t, err := store.Get(r.Context(), a.db, id)
	if err != nil {
		return nil, err
	}
	if !auth.CallerFrom(r.Context()).CanSeeCompany(t.CompanyID) {
		return nil, notFound()
	}
	return t, nil
}

// start answers POST /signaltest/{companyId}/{deveui}.
func (a *API) start(w http.ResponseWriter, r *http.Request) error {
	companyID, err := pathCompany(r)
	if err != nil {
		return err
	}
	var body signaltests.StartRequest
	if r.ContentLength != 0 {
		if err := web.Decode(r, &body); err != nil {
			return err
		}
	}
	body.Description = strings.TrimSpace(body.Description)
	body.LatitudeKey = strings.TrimSpace(body.LatitudeKey)
	body.LongitudeKey = strings.TrimSpace(body.LongitudeKey)
	var v errs.Validation
	if utf8.RuneCountInString(body.Description) > signaltests.MaxDescription {
		v.Add("description", errs.IDMaxChars255)
	}
	if utf8.RuneCountInString(body.LatitudeKey) > signaltests.MaxKey {
		v.Add("latitudeKey", errs.IDMaxChars255)
	}
	if utf8.RuneCountInString(body.LongitudeKey) > signaltests.MaxKey {
		v.Add("longitudeKey", errs.IDMaxChars255)
	}
	if err := v.Err(); err != nil {
		return err
	}
	tag, err := a.nodes.TagByDevEUI(r.Context(), r.PathValue("deveui"))
	if err != nil {
		return err
	}
	if tag.CompanyID != companyID {
		return notFound()
	}
	t := &signaltests.Test{CompanyID: companyID, TagID: tag.ID, DevEUI: tag.DevEUI, TagName: tag.Name, Description: body.Description,
		LatitudeKey: body.LatitudeKey, LongitudeKey: body.LongitudeKey, Start: a.now().UTC().Truncate(time.Microsecond)}
	if err := store.Start(r.Context(), a.db, t); err != nil {
		return err
	}
	a.announce(r.Context(), t, signaltests.IDAuditStarted)
	return web.Created(w, t)
}

// list answers GET /signaltest/{companyId}.
func (a *API) list(w http.ResponseWriter, r *http.Request) error {
	companyID, err := pathCompany(r)
	if err != nil {
		return err
	}
	tests, err := store.List(r.Context(), a.db, companyID)
	if err != nil {
		return err
	}
	return web.OK(w, tests)
}

// single answers GET /signaltest/single/{testId}: the test with every
// point.
func (a *API) single(w http.ResponseWriter, r *http.Request) error {
	out, err := a.detail(r, 0)
	if err != nil {
		return err
	}
	return web.OK(w, out)
}

// peek answers GET /signaltest/peek/{testId}?after=: the test with the
// points after the cursor, for a page that polls.
func (a *API) peek(w http.ResponseWriter, r *http.Request) error {
	var after int64
	if raw := r.URL.Query().Get("after"); raw != "" {
		n, err := strconv.ParseInt(raw, 10, 64)
		if err != nil || n < 0 {
			return errs.New(errs.Invalid, signaltests.IDCursorInvalid).With("after", raw)
		}
		after = n
	}
	d, err := a.detail(r, after)
	if err != nil {
		return err
	}
	out := signaltests.Peek{Detail: *d, Cursor: after}
	if n := len(out.Points); n > 0 {
		out.Cursor = out.Points[n-1].ID
	}
	return web.OK(w, out)
}

// detail reads the path's test and its points after a cursor from one
// snapshot of the database, so that its averages are those of its points
// even while uplinks add more.
func (a *API) detail(r *http.Request, after int64) (*signaltests.Detail, error) {
	id, err := web.PathID(r, "testId")
	if err != nil {
		return nil, err
	}
	var opts *sql.TxOptions
	if db.DialectOf(a.db) == db.Postgres {
		opts = &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true}
	}
	var out signaltests.Detail
	err = a.db.RunInTx(r.Context(), opts, func(ctx context.Context, tx bun.Tx) error {
		t, err := store.Get(ctx, tx, id)
		if err != nil {
			return err
		}
		if !auth.CallerFrom(ctx).CanSeeCompany(t.CompanyID) {
			return notFound()
		}
		out.Test = *t
		out.Points, err = store.Points(ctx, tx, t.ID, after)
		return err
	})
	if err != nil {
		return nil, err
	}
	return &out, a.nameGateways(r.Context(), out.CompanyID, out.Points)
}

// nameGateways gives the points' receptions the names and positions the
// gateways module knows, when the installation has one.
func (a *API) nameGateways(ctx context.Context, companyID int64, ps []signaltests.Point) error {
	if a.gateways == nil || len(ps) == 0 {
		return nil
	}
	seen := map[string]bool{}
	var euis []string
	for _, p := range ps {
		for _, rc := range p.Receptions {
			if !seen[rc.GatewayID] {
				seen[rc.GatewayID] = true
				euis = append(euis, rc.GatewayID)
			}
		}
	}
	names, err := a.gateways.Names(ctx, companyID, euis)
	if err != nil {
		return err
	}
	for i := range ps {
		for j := range ps[i].Receptions {
			rc := &ps[i].Receptions[j]
			if g, ok := names[rc.GatewayID]; ok {
				rc.Name, rc.Lat, rc.Lng = g.Name, g.Lat, g.Lng
			}
		}
	}
	return nil
}

// end answers PUT /signaltest/end/{testId}: "Complete test".
func (a *API) end(w http.ResponseWriter, r *http.Request) error {
	t, err := a.pathTest(r)
	if err != nil {
		return err
	}
	if err := store.End(r.Context(), a.db, t.ID, a.now().UTC().Truncate(time.Microsecond)); err != nil {
		return err
	}
	if t, err = store.Get(r.Context(), a.db, t.ID); err != nil {
		return err
	}
	a.announce(r.Context(), t, signaltests.IDAuditCompleted)
	return web.OK(w, t)
}

// remove answers DELETE /signaltest/{testId}.
func (a *API) remove(w http.ResponseWriter, r *http.Request) error {
	t, err := a.pathTest(r)
	if err != nil {
		return err
	}
	if err := store.Delete(r.Context(), a.db, t.ID); err != nil {
		return err
	}
	a.announce(r.Context(), t, signaltests.IDAuditDeleted)
	return web.NoContent(w)
}

// announce puts a change to a company's tests on the audit trail.
func (a *API) announce(ctx context.Context, t *signaltests.Test, id string) {
	audit.Announce(ctx, a.bus, audit.Change{CompanyID: t.CompanyID, MessageID: id,
		Args: map[string]any{"name": t.TagName, "deveui": t.DevEUI, "description": t.Description}})
}
