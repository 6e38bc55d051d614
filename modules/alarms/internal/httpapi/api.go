// Package httpapi answers the alarms module's JSON routes (SPEC.md section
// 7 "Alarms"; docs/api/alarms.md). Another company's rules and firings are
// not found.
package httpapi

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/audit"
	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/accounts"
	"github.com/fieldhub/fieldhub/modules/alarms"
	"github.com/fieldhub/fieldhub/modules/alarms/internal/engine"
	"github.com/fieldhub/fieldhub/modules/alarms/internal/rules"
	"github.com/fieldhub/fieldhub/modules/alarms/internal/store"
)

// API is the module's JSON routes.
type API struct {
	host     *kernel.Host
	db       *bun.DB
	accounts alarms.Accounts
	tags     alarms.Tags
	engine   *engine.Engine
	now      func() time.Time
}

// New returns the routes.
func New(host *kernel.Host, acc alarms.Accounts, tags alarms.Tags, eng *engine.Engine) *API {
	return &API{host: host, db: host.DB, accounts: acc, tags: tags, engine: eng, now: time.Now}
}

// Routes registers the routes: reading for CompanyOrUser, changing rules
// for AdminOrCompanyAdmin, every company's open firings for the SuperAdmin.
func (a *API) Routes(r *web.ModuleRoutes) {
	r.Describe(docs)
	r.API("GET /companies/{companyId}/alarm", auth.CompanyOrUser, a.list)
	r.API("POST /companies/{companyId}/alarm", auth.AdminOrCompanyAdmin, a.create)
	r.API("PUT /companies/{companyId}/alarm/{alarmId}", auth.AdminOrCompanyAdmin, a.update)
	r.API("GET /companies/{companyId}/alarm/active", auth.CompanyOrUser, a.active)
	r.API("GET /companies/{companyId}/alarm/history", auth.CompanyOrUser, a.history)
	r.API("GET /alarms/active/all", auth.SuperAdminOnly, a.all)
	r.API("GET /alarms/{alarmId}", auth.CompanyOrUser, a.get)
	r.API("DELETE /alarms/{alarmId}", auth.AdminOrCompanyAdmin, a.remove)
	r.API("POST /alarms/active/{alarmId}/status", auth.AdminOrCompanyAdmin, a.status)
	r.API("POST /alarms/copy/{alarmId}", auth.AdminOrCompanyAdmin, a.copy)
	r.API("POST /alarms/history/{eventId}/reset", auth.CompanyOrUser, a.reset)
	r.API("POST /alarms/setting/test", auth.AdminOrCompanyAdmin, a.test)
}

func notFound() error { return errs.New(errs.NotFound, errs.IDNotFound) }

// scoped checks that the caller may see (with manage, change) company's
// things; another company's are not found.
func scoped(ctx context.Context, company int64, manage bool) error {
	c := auth.CallerFrom(ctx)
	if !c.CanSeeCompany(company) {
		return notFound()
	}
	if manage && !c.CanManageCompany(company) {
		return errs.New(errs.Forbidden, errs.IDForbidden)
	}
	return nil
}

// pathCompany is the path's companyId, if the caller may reach it and it
// exists.
func (a *API) pathCompany(r *http.Request, manage bool) (int64, error) {
	id, err := web.PathID(r, "companyId")
	if err != nil {
		return 0, err
	}
	if err := scoped(r.Context(), id, manage); err != nil {
		return 0, err
	}
	if _, err := a.accounts.Company(r.Context(), id); err != nil {
		return 0, err
	}
	return id, nil
}

// pathAlarm loads the path's rule within the caller's reach.
func (a *API) pathAlarm(r *http.Request, manage bool) (*alarms.Alarm, error) {
	id, err := web.PathID(r, "alarmId")
	if err != nil {
		return nil, err
	}
	al, err := store.Get(r.Context(), a.db, id)
	if err != nil {
		return nil, err
	}
	if err := scoped(r.Context(), al.CompanyID, manage); err != nil {
		return nil, err
	}
	return al, nil
}

// callerCompany is the company a call without one in its path acts for:
// the caller's own; a SuperAdmin's ?companyId=, else the company chosen in
// the switcher.
func (a *API) callerCompany(r *http.Request) (int64, error) {
	id, err := accounts.RequestedCompany(r)
	if err != nil {
		return 0, err
	}
	if id == 0 {
		return 0, errs.New(errs.Invalid, alarms.IDNoCompany)
	}
	if _, err := a.accounts.Company(r.Context(), id); err != nil {
		return 0, err
	}
	return id, nil
}

// present fills the derived fields of rules: their nodes' names and
// DevEUIs and whether they have an open firing.
func (a *API) present(ctx context.Context, company int64, list ...*alarms.Alarm) error {
	tags, err := a.tags.CompanyTags(ctx, company)
	if err != nil {
		return err
	}
	for _, al := range list {
		al.Triggered = al.OpenEventID != nil
		if al.AlarmContacts == nil {
			al.AlarmContacts = []string{}
		}
		if al.EscalationContacts == nil {
			al.EscalationContacts = []string{}
		}
		for _, t := range tags {
			if t.ID == al.TagID {
				al.TagName, al.DevEUI = t.Name, t.DevEUI
			}
		}
	}
	return nil
}

// presentEvents fills the names and DevEUIs of firings' nodes.
func (a *API) presentEvents(ctx context.Context, list []*alarms.Event) error {
	byCompany := map[int64]map[int64][2]string{}
	for _, ev := range list {
		names, ok := byCompany[ev.CompanyID]
		if !ok {
			tags, err := a.tags.CompanyTags(ctx, ev.CompanyID)
			if err != nil {
				return err
			}
			names = map[int64][2]string{}
			for _, t := range tags {
				names[t.ID] = [2]string{t.Name, t.DevEUI}
			}
			byCompany[ev.CompanyID] = names
		}
		ev.TagName, ev.DevEUI = names[ev.TagID][0], names[ev.TagID][1]
	}
	return nil
}

// tagCompany is the company of a node, for the rules' check of tag.
func (a *API) tagCompany(ctx context.Context, id int64) (int64, error) {
	t, err := a.tags.Tag(ctx, id)
	if err != nil {
		return 0, err
	}
	return t.CompanyID, nil
}

func (a *API) announce(ctx context.Context, company int64, id string, al *alarms.Alarm) {
	audit.Announce(ctx, a.host.Bus, audit.Change{CompanyID: company, MessageID: id, Args: map[string]any{"name": al.Name}})
}

// list answers GET /companies/{companyId}/alarm.
func (a *API) list(w http.ResponseWriter, r *http.Request) error {
	company, err := a.pathCompany(r, false)
	if err != nil {
		return err
	}
	list, err := store.Company(r.Context(), a.db, company)
	if err != nil {
		return err
	}
	if err := a.present(r.Context(), company, list...); err != nil {
		return err
	}
	return web.OK(w, list)
}

// get answers GET /alarms/{alarmId}.
func (a *API) get(w http.ResponseWriter, r *http.Request) error {
	al, err := a.pathAlarm(r, false)
	if err != nil {
		return err
	}
	if err := a.present(r.Context(), al.CompanyID, al); err != nil {
		return err
	}
	return web.OK(w, al)
}

// create answers POST /companies/{companyId}/alarm.
func (a *API) create(w http.ResponseWriter, r *http.Request) error {
	company, err := a.pathCompany(r, true)
	if err != nil {
		return err
	}
	var in rules.Input
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	al, err := rules.Build(r.Context(), in, company, a.tagCompany)
	if err != nil {
		return err
	}
	al.CreatedAt = a.now().UTC()
	al.UpdatedAt = al.CreatedAt
	if err := store.Insert(r.Context(), a.db, al); err != nil {
		return err
	}
	a.engine.RulesChanged()
	a.announce(r.Context(), company, alarms.AuditCreated, al)
	if err := a.present(r.Context(), company, al); err != nil {
		return err
	}
	return web.Created(w, al)
}

// update answers PUT /companies/{companyId}/alarm/{alarmId}.
func (a *API) update(w http.ResponseWriter, r *http.Request) error {
	company, err := a.pathCompany(r, true)
	if err != nil {
		return err
	}
	old, err := a.pathAlarm(r, true)
	if err != nil {
		return err
	}
	if old.CompanyID != company {
		return notFound()
	}
	var in rules.Input
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	al, err := rules.Build(r.Context(), in, company, a.tagCompany)
	if err != nil {
		return err
	}
	al.ID, al.CreatedAt, al.UpdatedAt, al.OpenEventID = old.ID, old.CreatedAt, a.now().UTC(), old.OpenEventID
	if err := store.Update(r.Context(), a.db, al); err != nil {
		return err
	}
	a.engine.RulesChanged()
	a.announce(r.Context(), company, alarms.AuditUpdated, al)
	if err := a.present(r.Context(), company, al); err != nil {
		return err
	}
	return web.OK(w, al)
}

// remove answers DELETE /alarms/{alarmId}: the rule with its history.
func (a *API) remove(w http.ResponseWriter, r *http.Request) error {
	al, err := a.pathAlarm(r, true)
	if err != nil {
		return err
	}
	if err := store.Delete(r.Context(), a.db, al.ID); err != nil {
		return err
	}
	a.engine.RulesChanged()
	a.announce(r.Context(), al.CompanyID, alarms.AuditDeleted, al)
	return web.NoContent(w)
}

// status answers POST /alarms/active/{alarmId}/status: {"active": bool}
// sets the rule on or off; no body toggles it.
func (a *API) status(w http.ResponseWriter, r *http.Request) error {
	al, err := a.pathAlarm(r, true)
	if err != nil {
		return err
	}
	want := !al.Active
	if r.ContentLength != 0 {
		var in struct {
			Active *bool `json:"active"`
		}
		if err := web.Decode(r, &in); err != nil {
			return err
		}
		if in.Active != nil {
			want = *in.Active
		}
	}
	if err := store.SetActive(r.Context(), a.db, al.ID, want, a.now().UTC()); err != nil {
		return err
	}
	a.engine.RulesChanged()
	al.Active = want
	a.announce(r.Context(), al.CompanyID, alarms.AuditToggled, al)
	if al, err = store.Get(r.Context(), a.db, al.ID); err != nil {
		return err
	}
	if err := a.present(r.Context(), al.CompanyID, al); err != nil {
		return err
	}
	return web.OK(w, al)
}

// copy answers POST /alarms/copy/{alarmId}: a new rule with the same
// settings, named "<name> (copy)" and switched off, so that a copy never
// sends before someone has changed it.
func (a *API) copy(w http.ResponseWriter, r *http.Request) error {
	al, err := a.pathAlarm(r, true)
	if err != nil {
		return err
	}
	name := []rune(al.Name + " (copy)")
	if len(name) > alarms.MaxName {
		name = name[:alarms.MaxName]
	}
	now := a.now().UTC()
	c := *al
	c.ID, c.Name, c.Active, c.CreatedAt, c.UpdatedAt = 0, string(name), false, now, now
	c.PendingSince, c.Armed, c.OpenEventID, c.DigitalState, c.EvaluatedAt, c.LastValue = nil, true, nil, nil, nil, nil
	if err := store.Insert(r.Context(), a.db, &c); err != nil {
		return err
	}
	a.engine.RulesChanged()
	a.announce(r.Context(), c.CompanyID, alarms.AuditCreated, &c)
	if err := a.present(r.Context(), c.CompanyID, &c); err != nil {
		return err
	}
	return web.Created(w, &c)
}

// limitOf reads ?limit= (1 to 1000, default 200).
func limitOf(r *http.Request) (int, error) {
	raw := r.URL.Query().Get("limit")
	if raw == "" {
		return 200, nil
	}
	n, err := strconv.Atoi(raw)
	if err != nil || n < 1 || n > 1000 {
		return 0, errs.New(errs.Invalid, alarms.IDNumberInvalid).With("field", "limit")
	}
	return n, nil
}

// active answers GET /companies/{companyId}/alarm/active: the open
// firings, newest first.
func (a *API) active(w http.ResponseWriter, r *http.Request) error {
	company, err := a.pathCompany(r, false)
	if err != nil {
		return err
	}
	return a.events(w, r, store.EventFilter{CompanyID: company, Open: true, Limit: 1000})
}

// history answers GET /companies/{companyId}/alarm/history?alarmId=&limit=.
func (a *API) history(w http.ResponseWriter, r *http.Request) error {
	company, err := a.pathCompany(r, false)
	if err != nil {
		return err
	}
	f := store.EventFilter{CompanyID: company}
	if f.Limit, err = limitOf(r); err != nil {
		return err
	}
	if raw := r.URL.Query().Get("alarmId"); raw != "" {
		id, err := strconv.ParseInt(raw, 10, 64)
		if err != nil || id <= 0 {
			return errs.New(errs.Invalid, errs.IDBadID).With("id", raw)
		}
		al, err := store.Get(r.Context(), a.db, id)
		if err != nil {
			return err
		}
		if al.CompanyID != company {
			return notFound()
		}
		f.AlarmID = id
	}
	return a.events(w, r, f)
}

// all answers GET /alarms/active/all: every company's open firings.
func (a *API) all(w http.ResponseWriter, r *http.Request) error {
	return a.events(w, r, store.EventFilter{Open: true, Limit: 1000})
}

func (a *API) events(w http.ResponseWriter, r *http.Request, f store.EventFilter) error {
	list, err := store.Events(r.Context(), a.db, f)
	if err != nil {
		return err
	}
	if err := a.presentEvents(r.Context(), list); err != nil {
		return err
	}
	return web.OK(w, list)
}

// reset answers POST /alarms/history/{eventId}/reset: the caller
// acknowledges an open firing. One already reset is a conflict.
func (a *API) reset(w http.ResponseWriter, r *http.Request) error {
	id, err := web.PathID(r, "eventId")
	if err != nil {
		return err
	}
	ev, err := store.Event(r.Context(), a.db, id)
	if err != nil {
		return err
	}
	if err := scoped(r.Context(), ev.CompanyID, false); err != nil {
		return err
	}
	caller := auth.CallerFrom(r.Context())
	u, err := a.accounts.User(r.Context(), caller.UserID)
	if err != nil {
		return err
	}
	name := fmt.Sprintf("%s %s", u.FirstName, u.LastName)
	var done bool
	err = a.db.RunInTx(r.Context(), nil, func(ctx context.Context, tx bun.Tx) error {
		done, err = store.Reset(ctx, tx, ev, caller.UserID, name, a.now())
		return err
	})
	if err != nil {
		return err
	}
	if !done {
		return errs.New(errs.Conflict, alarms.IDAlreadyReset)
	}
	audit.Announce(r.Context(), a.host.Bus, audit.Change{CompanyID: ev.CompanyID, MessageID: alarms.AuditReset, Args: map[string]any{"name": ev.Name}})
	if ev, err = store.Event(r.Context(), a.db, id); err != nil {
		return err
	}
	if err := a.presentEvents(r.Context(), []*alarms.Event{ev}); err != nil {
		return err
	}
	return web.OK(w, ev)
}

// companyZone is a company's time zone, UTC when it cannot be read.
func (a *API) companyZone(r *http.Request, company int64) *time.Location {
	c, err := a.accounts.Company(r.Context(), company)
	if err != nil {
		return time.UTC
	}
	return c.Location()
}
