// Package pages holds the alarm screens: /alarm (the rules, with their
// status toggles and copies), /alarm/active (the open firings, with their
// acknowledgement), /alarm/create and /alarm/{id} (the rule's form, with a
// preview of its key's last 24 hours, the test message and the removal),
// and /alarm/{id}/history. They act on the viewer's company (a
// SuperAdmin's chosen one) with the rules and store the API uses.
package pages

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/audit"
	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/alarms"
	"github.com/fieldhub/fieldhub/modules/alarms/internal/engine"
	"github.com/fieldhub/fieldhub/modules/alarms/internal/store"
	"github.com/fieldhub/fieldhub/modules/nodes"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// Pages draws the alarm screens.
type Pages struct {
	host     *kernel.Host
	db       *bun.DB
	ui       *ui.Env
	accounts alarms.Accounts
	tags     alarms.Tags
	engine   *engine.Engine
}

// New returns the pages, drawn with env.
func New(host *kernel.Host, env *ui.Env, acc alarms.Accounts, tags alarms.Tags, eng *engine.Engine) *Pages {
	return &Pages{host: host, db: host.DB, ui: env, accounts: acc, tags: tags, engine: eng}
}

// menuItem is the side menu's "Alarm management" (SPEC.md section 2).
var menuItem = web.MenuItem{ID: "alarm", LabelID: "menu.alarm", Href: "/alarm", Icon: "mdi-alarm-light", Roles: auth.CompanyOrUser, Order: 50}

// Routes adds the menu entry and registers the pages.
func (p *Pages) Routes(r *web.ModuleRoutes) {
	p.host.Router.AddMenuItem(menuItem)
	r.Page("GET /alarm", auth.CompanyOrUser, p.listPage)
	r.Page("GET /alarm/active", auth.CompanyOrUser, p.activePage)
	r.Page("POST /alarm/active/{eventId}/reset", auth.CompanyOrUser, p.resetSubmit)
	r.Page("GET /alarm/create", auth.AdminOrCompanyAdmin, p.createPage)
	r.Page("POST /alarm/create", auth.AdminOrCompanyAdmin, p.createSubmit)
	r.Page("POST /alarm/test", auth.AdminOrCompanyAdmin, p.testSubmit)
	r.Page("GET /alarm/{alarmId}", auth.AdminOrCompanyAdmin, p.editPage)
	r.Page("POST /alarm/{alarmId}", auth.AdminOrCompanyAdmin, p.editSubmit)
	r.Page("GET /alarm/{alarmId}/history", auth.CompanyOrUser, p.historyPage)
	r.Page("POST /alarm/{alarmId}/status", auth.AdminOrCompanyAdmin, p.statusSubmit)
	r.Page("POST /alarm/{alarmId}/copy", auth.AdminOrCompanyAdmin, p.copySubmit)
	r.Page("GET /alarm/{alarmId}/delete", auth.AdminOrCompanyAdmin, p.deletePage)
	r.Page("POST /alarm/{alarmId}/delete", auth.AdminOrCompanyAdmin, p.deleteSubmit)
}

// t translates id in the language of the page being answered.
func (p *Pages) t(r *http.Request, id string, pairs ...any) string {
	args := map[string]any{}
	for i := 0; i+1 < len(pairs); i += 2 {
		args[fmt.Sprint(pairs[i])] = pairs[i+1]
	}
	return p.host.Catalogs.T(web.ViewerFrom(r.Context()).Lang, id, args)
}

// viewedCompany is the company the pages show: the caller's own, or the one
// a SuperAdmin chose; 0 for none.
func viewedCompany(r *http.Request) int64 { return web.ViewerFrom(r.Context()).CompanyID }

func notFound() error { return errs.New(errs.NotFound, errs.IDNotFound) }

// canManage reports whether the viewer may change the rules of the viewed
// company.
func canManage(ctx context.Context) bool {
	v := web.ViewerFrom(ctx)
	return v.Caller.CanManageCompany(v.CompanyID)
}

// pathAlarm loads the path's rule if it is the viewed company's.
func (p *Pages) pathAlarm(r *http.Request) (*alarms.Alarm, error) {
	id, err := web.PathID(r, "alarmId")
	if err != nil {
		return nil, notFound()
	}
	a, err := store.Get(r.Context(), p.db, id)
	if err != nil {
		return nil, err
	}
	if company := viewedCompany(r); company == 0 || a.CompanyID != company || !auth.CallerFrom(r.Context()).CanSeeCompany(company) {
		return nil, notFound()
	}
	return a, nil
}

// nodeNames names the viewed company's nodes by id.
func (p *Pages) companyTags(ctx context.Context, company int64) ([]*nodes.Tag, map[int64]*nodes.Tag, error) {
	tags, err := p.tags.CompanyTags(ctx, company)
	if err != nil {
		return nil, nil, err
	}
	byID := make(map[int64]*nodes.Tag, len(tags))
	for _, t := range tags {
		byID[t.ID] = t
	}
	return tags, byID, nil
}

func (p *Pages) announce(ctx context.Context, company int64, id, name string) {
	audit.Announce(ctx, p.host.Bus, audit.Change{CompanyID: company, MessageID: id, Args: map[string]any{"name": name}})
}

// row is a rule as the list shows it.
type row struct {
	*alarms.Alarm
	Node string
}

// listPage is /alarm: the company's rules.
func (p *Pages) listPage(w http.ResponseWriter, r *http.Request) error {
	const title = "alarms.page.title"
	company := viewedCompany(r)
	if company == 0 {
		return p.ui.Render(w, r, http.StatusOK, title, noCompany(title))
	}
	list, err := store.Company(r.Context(), p.db, company)
	if err != nil {
		return err
	}
	_, byID, err := p.companyTags(r.Context(), company)
	if err != nil {
		return err
	}
	rows := make([]row, len(list))
	for i, a := range list {
		rows[i] = row{Alarm: a, Node: nodeName(byID[a.TagID])}
		a.Triggered = a.OpenEventID != nil
	}
	return p.ui.Render(w, r, http.StatusOK, title, listPage(rows, canManage(r.Context())))
}

func nodeName(t *nodes.Tag) string {
	if t == nil {
		return ""
	}
	return t.Name
}

// statusSubmit switches a rule on or off from the list: htmx swaps its row.
func (p *Pages) statusSubmit(w http.ResponseWriter, r *http.Request) error {
	a, err := p.pathAlarm(r)
	if err != nil {
		return err
	}
	if err := store.SetActive(r.Context(), p.db, a.ID, !a.Active, time.Now().UTC()); err != nil {
		return err
	}
	p.engine.RulesChanged()
	p.announce(r.Context(), a.CompanyID, alarms.AuditToggled, a.Name)
	if !web.IsHTMX(r) {
		web.Redirect(w, r, "/alarm")
		return nil
	}
	if a, err = store.Get(r.Context(), p.db, a.ID); err != nil {
		return err
	}
	a.Triggered = a.OpenEventID != nil
	t, _ := p.tags.Tag(r.Context(), a.TagID)
	return p.ui.Fragment(w, r, http.StatusOK, listRow(row{Alarm: a, Node: nodeName(t)}, true))
}

// copySubmit copies a rule (switched off) and opens the copy's form.
func (p *Pages) copySubmit(w http.ResponseWriter, r *http.Request) error {
	a, err := p.pathAlarm(r)
	if err != nil {
		return err
	}
	name := []rune(a.Name + " (copy)")
	if len(name) > alarms.MaxName {
		name = name[:alarms.MaxName]
	}
	now := time.Now().UTC()
	c := *a
	c.ID, c.Name, c.Active, c.CreatedAt, c.UpdatedAt = 0, string(name), false, now, now
	c.PendingSince, c.Armed, c.OpenEventID, c.DigitalState, c.EvaluatedAt, c.LastValue = nil, true, nil, nil, nil, nil
	if err := store.Insert(r.Context(), p.db, &c); err != nil {
		return err
	}
	p.engine.RulesChanged()
	p.announce(r.Context(), c.CompanyID, alarms.AuditCreated, c.Name)
	web.Toast(w, r, "success", p.t(r, "alarms.copied"))
	web.Redirect(w, r, fmt.Sprintf("/alarm/%d", c.ID))
	return nil
}

// eventRow is a firing as the screens show it.
type eventRow struct {
	*alarms.Event
	Node string
}

func (p *Pages) eventRows(ctx context.Context, company int64, list []*alarms.Event) ([]eventRow, error) {
	_, byID, err := p.companyTags(ctx, company)
	if err != nil {
		return nil, err
	}
	rows := make([]eventRow, len(list))
	for i, ev := range list {
		rows[i] = eventRow{Event: ev, Node: nodeName(byID[ev.TagID])}
	}
	return rows, nil
}

// activePage is /alarm/active: the open firings.
func (p *Pages) activePage(w http.ResponseWriter, r *http.Request) error {
	const title = "alarms.active.title"
	company := viewedCompany(r)
	if company == 0 {
		return p.ui.Render(w, r, http.StatusOK, title, noCompany(title))
	}
	list, err := store.Events(r.Context(), p.db, store.EventFilter{CompanyID: company, Open: true, Limit: 1000})
	if err != nil {
		return err
	}
	rows, err := p.eventRows(r.Context(), company, list)
	if err != nil {
		return err
	}
	return p.ui.Render(w, r, http.StatusOK, title, activePage(rows))
}

// resetSubmit acknowledges an open firing: htmx swaps its row for the
// acknowledgement.
func (p *Pages) resetSubmit(w http.ResponseWriter, r *http.Request) error {
	id, err := web.PathID(r, "eventId")
	if err != nil {
		return notFound()
	}
	ev, err := store.Event(r.Context(), p.db, id)
	if err != nil {
		return err
	}
	if company := viewedCompany(r); company == 0 || ev.CompanyID != company || !auth.CallerFrom(r.Context()).CanSeeCompany(company) {
		return notFound()
	}
	caller := auth.CallerFrom(r.Context())
	u, err := p.accounts.User(r.Context(), caller.UserID)
	if err != nil {
		return err
	}
	var done bool
	err = p.db.RunInTx(r.Context(), nil, func(ctx context.Context, tx bun.Tx) error {
		done, err = store.Reset(ctx, tx, ev, caller.UserID, u.FirstName+" "+u.LastName, time.Now())
		return err
	})
	if err != nil {
		return err
	}
	if done {
		p.announce(r.Context(), ev.CompanyID, alarms.AuditReset, ev.Name)
		web.Toast(w, r, "success", p.t(r, "alarms.active.acknowledged"))
	} else {
		web.Toast(w, r, "info", p.t(r, alarms.IDAlreadyReset))
	}
	if !web.IsHTMX(r) {
		web.Redirect(w, r, "/alarm/active")
		return nil
	}
	if ev, err = store.Event(r.Context(), p.db, id); err != nil {
		return err
	}
	rows, err := p.eventRows(r.Context(), ev.CompanyID, []*alarms.Event{ev})
	if err != nil {
		return err
	}
	return p.ui.Fragment(w, r, http.StatusOK, activeRow(rows[0]))
}

// historyPage is /alarm/{id}/history: a rule's firings.
func (p *Pages) historyPage(w http.ResponseWriter, r *http.Request) error {
	a, err := p.pathAlarm(r)
	if err != nil {
		return err
	}
	list, err := store.Events(r.Context(), p.db, store.EventFilter{CompanyID: a.CompanyID, AlarmID: a.ID, Limit: 500})
	if err != nil {
		return err
	}
	rows, err := p.eventRows(r.Context(), a.CompanyID, list)
	if err != nil {
		return err
	}
	return p.ui.Render(w, r, http.StatusOK, "alarms.history.title", historyPage(a, rows, canManage(r.Context())))
}

// deletePage asks before a rule is deleted.
func (p *Pages) deletePage(w http.ResponseWriter, r *http.Request) error {
	a, err := p.pathAlarm(r)
	if err != nil {
		return err
	}
	return p.ui.RenderForm(w, r, http.StatusOK, "alarms.delete.title", deleteConfirm(a), nil)
}

// deleteSubmit deletes a rule with its history.
func (p *Pages) deleteSubmit(w http.ResponseWriter, r *http.Request) error {
	a, err := p.pathAlarm(r)
	if err != nil {
		return err
	}
	if err := store.Delete(r.Context(), p.db, a.ID); err != nil {
		return err
	}
	p.engine.RulesChanged()
	p.announce(r.Context(), a.CompanyID, alarms.AuditDeleted, a.Name)
	web.Toast(w, r, "success", p.t(r, "alarms.deleted"))
	web.Redirect(w, r, "/alarm")
	return nil
}

// weekdays are the days of activeDays in the form's order, Monday first.
var weekdays = []int{1, 2, 3, 4, 5, 6, 0}

func hasDay(days []int, d int) bool { return slices.Contains(days, d) }
