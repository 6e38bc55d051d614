// Package httpapi answers the logs module's JSON routes under /api/logs:
// the entries of a company, its active users and its data points.
package httpapi

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/accounts"
	"github.com/fieldhub/fieldhub/modules/logs"
	"github.com/fieldhub/fieldhub/modules/logs/internal/store"
)

// API is the module's JSON routes.
type API struct {
	db       *bun.DB
	accounts logs.Accounts
	series   logs.Series
	now      func() time.Time
}

// New returns the routes, which read db, ask accounts whether a company
// exists and series how many data points it stored.
func New(db *bun.DB, accounts logs.Accounts, series logs.Series) *API {
	return &API{db: db, accounts: accounts, series: series, now: time.Now}
}

// Routes registers the routes, open to every signed-in user for their own
// company.
func (a *API) Routes(r *web.ModuleRoutes) {
	r.Describe(docs)
	r.API("GET /logs", auth.CompanyOrUser, a.list)
	r.API("GET /logs/activeusers", auth.CompanyOrUser, a.activeUsers)
	r.API("GET /logs/datapoints", auth.CompanyOrUser, a.dataPoints)
}

// list answers GET /logs.
func (a *API) list(w http.ResponseWriter, r *http.Request) error {
	sc, err := a.scopeOf(r)
	if err != nil {
		return err
	}
	f, err := readFilter(r.URL.Query())
	if err != nil {
		return err
	}
	entries, err := store.ListEntries(r.Context(), a.db, sc, f)
	if err != nil {
		return err
	}
	return web.OK(w, entries)
}

// activeUsers answers GET /logs/activeusers.
func (a *API) activeUsers(w http.ResponseWriter, r *http.Request) error {
	sc, err := a.scopeOf(r)
	if err != nil {
		return err
	}
	now := a.now().UTC()
	n, err := store.CountActive(r.Context(), a.db, sc, now.Add(-24*time.Hour), now.AddDate(0, 0, -7), now.Add(-store.ActiveWindow))
	if err != nil {
		return err
	}
	return web.OK(w, n)
}

// dataPoints answers GET /logs/datapoints: the company's data points in the
// last 24 hours, per clock hour of the company's time zone.
func (a *API) dataPoints(w http.ResponseWriter, r *http.Request) error {
	sc, err := a.scopeOf(r)
	if err != nil {
		return err
	}
	if sc.Installation {
		// Data points belong to companies; the installation has none of its own.
		return errs.New(errs.Invalid, logs.IDCompanyRequired)
	}
	loc := time.UTC
	if !sc.None() {
		c, err := a.accounts.Company(r.Context(), sc.Company)
		if err != nil && !errs.Is(err, errs.NotFound) {
			return err
		}
		if c != nil {
			loc = c.Location()
		}
	}
	to := a.now().UTC().Truncate(time.Microsecond)
	out := logs.DataPoints{From: to.Add(-24 * time.Hour), To: to, Hours: []logs.HourCount{}}
	for start := out.From; start.Before(to); {
		end := nextHour(start, loc)
		if end.After(to) {
			end = to
		}
		var n int64
		if !sc.None() {
			if n, err = a.series.Count(r.Context(), sc.Company, start, end); err != nil {
				return err
			}
		}
		out.Hours = append(out.Hours, logs.HourCount{Start: start, Count: n})
		out.Total += n
		start = end
	}
	return web.OK(w, out)
}

// nextHour is the start of the clock hour after t in loc: on the UTC hour
// in most zones, on the half hour in a zone such as Asia/Kolkata, so that
// the counts' hours are those of the company's clocks. The hour is found
// by taking off t's local minutes and seconds, which an hour the clocks
// repeat in autumn cannot make ambiguous.
func nextHour(t time.Time, loc *time.Location) time.Time {
	l := t.In(loc)
	into := time.Duration(l.Minute())*time.Minute + time.Duration(l.Second())*time.Second + time.Duration(l.Nanosecond())
	return t.Add(time.Hour - into)
}

// scopeOf is the company a request answers for: the one named by
// ?companyId= if the caller may see it, else the caller's own; for a
// SuperAdmin the one chosen in the company switcher, else the installation.
// Another company's id, or one that does not exist, is not found. The
// audit trail (USEREVENT) is for the company's administrators: a User's
// scope leaves it out.
func (a *API) scopeOf(r *http.Request) (store.Scope, error) {
	c := auth.CallerFrom(r.Context())
	if raw := r.URL.Query().Get("companyId"); raw != "" {
		id, err := strconv.ParseInt(raw, 10, 64)
		if err != nil || id <= 0 {
			return store.Scope{}, errs.New(errs.Invalid, errs.IDBadID).With("id", raw)
		}
		if !c.CanSeeCompany(id) {
			return store.Scope{}, errs.New(errs.NotFound, errs.IDNotFound)
		}
		if _, err := a.accounts.Company(r.Context(), id); err != nil {
			return store.Scope{}, err
		}
		return store.Scope{Company: id, NoAudit: !c.Role.AtLeast(auth.CompanyAdmin)}, nil
	}
	if c.Role != auth.SuperAdmin {
		return store.Scope{Company: c.CompanyID, NoAudit: !c.Role.AtLeast(auth.CompanyAdmin)}, nil
	}
	if ck, err := r.Cookie(accounts.CompanyCookie); err == nil {
		if id, err := strconv.ParseInt(ck.Value, 10, 64); err == nil && id > 0 {
			return store.Scope{Company: id}, nil
		}
	}
	return store.Scope{Installation: true}, nil
}

// readFilter reads the query of GET /logs, collecting what is wrong.
func readFilter(q url.Values) (store.Filter, error) {
	var v errs.Validation
	f := store.Filter{Limit: logs.DefaultLimit}
	if raw := q.Get("type"); raw != "" {
		for _, t := range strings.Split(raw, ",") {
			t = strings.ToUpper(strings.TrimSpace(t))
			if !logs.ValidType(t) {
				v.AddArgs("type", logs.IDTypeInvalid, map[string]any{"types": strings.Join(logs.Types, ", ")})
				break
			}
			f.Types = append(f.Types, t)
		}
	}
	readTime := func(name string) time.Time {
		raw := q.Get(name)
		if raw == "" {
			return time.Time{}
		}
		t, err := time.Parse(time.RFC3339Nano, raw)
		if err != nil || t.Year() < 1 || t.Year() > 9999 {
			v.Add(name, logs.IDTimeInvalid)
			return time.Time{}
		}
		return t.UTC()
	}
	f.From, f.To = readTime("from"), readTime("to")
	if !f.From.IsZero() && !f.To.IsZero() && f.From.After(f.To) {
		v.Add("from", logs.IDRangeInvalid)
	}
	if raw := q.Get("deveui"); raw != "" {
		f.DevEUI = normaliseEUI(raw)
		if !logs.ValidDevEUI(f.DevEUI) {
			v.Add("deveui", logs.IDDevEUIInvalid)
		}
	}
	if raw := q.Get("limit"); raw != "" {
		n, err := strconv.Atoi(raw)
		if err != nil || n < 1 || n > logs.MaxLimit {
			v.AddArgs("limit", logs.IDLimitInvalid, map[string]any{"max": logs.MaxLimit})
		} else {
			f.Limit = n
		}
	}
	return f, v.Err()
}

// normaliseEUI drops the spaces, dashes and colons people write EUIs with
// and spells it upper case, as the nodes module stores DevEUIs.
func normaliseEUI(s string) string {
	s = strings.NewReplacer(" ", "", "-", "", ":", "").Replace(strings.TrimSpace(s))
	return strings.ToUpper(s)
}
