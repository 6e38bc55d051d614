package core

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/accounts"
)

// Message IDs of the module's errors (locale catalog keys).
const (
	msgTypeInvalid    = "logs.type.invalid"
	msgTimeInvalid    = "logs.time.invalid"
	msgRangeInvalid   = "logs.range.invalid"
	msgDevEUIInvalid  = "logs.deveui.invalid"
	msgLimitInvalid   = "logs.limit.invalid"
	msgCompanyMissing = "logs.company.required"
)

// list answers GET /logs.
func (m *Module) list(w http.ResponseWriter, r *http.Request) error {
	sc, err := m.scopeOf(r)
	if err != nil {
		return err
	}
	f, err := readFilter(r.URL.Query())
	if err != nil {
		return err
	}
	entries, err := listEntries(r.Context(), m.db, sc, f)
	if err != nil {
		return err
	}
	return web.OK(w, entries)
}

// activeUsers answers GET /logs/activeusers.
func (m *Module) activeUsers(w http.ResponseWriter, r *http.Request) error {
	sc, err := m.scopeOf(r)
	if err != nil {
		return err
	}
	now := m.now().UTC()
	n, err := countActive(r.Context(), m.db, sc, now.Add(-24*time.Hour), now.AddDate(0, 0, -7), now.Add(-activeWindow))
	if err != nil {
		return err
	}
	return web.OK(w, n)
}

// dataPoints answers GET /logs/datapoints: the company's data points in the
// last 24 hours (SPEC.md section 9), per clock hour.
func (m *Module) dataPoints(w http.ResponseWriter, r *http.Request) error {
	sc, err := m.scopeOf(r)
	if err != nil {
		return err
	}
	if sc.installation {
		// Data points belong to companies; the installation has none of its own.
		return errs.New(errs.Invalid, msgCompanyMissing)
	}
	to := m.now().UTC().Truncate(time.Microsecond)
	out := DataPoints{From: to.Add(-24 * time.Hour), To: to, Hours: []HourCount{}}
	for start := out.From; start.Before(to); {
		end := start.Truncate(time.Hour).Add(time.Hour)
		if end.After(to) {
			end = to
		}
		var n int64
		if !sc.none() {
			if n, err = m.deps.Series.Count(r.Context(), sc.company, start, end); err != nil {
				return err
			}
		}
		out.Hours = append(out.Hours, HourCount{Start: start, Count: n})
		out.Total += n
		start = end
	}
	return web.OK(w, out)
}

// scopeOf is the company a request answers for: the one named by
// ?companyId= if the caller may see it, else the caller's own; for a
// SuperAdmin the one chosen in the company switcher, else the installation.
// Another company's id, or one that does not exist, is not found.
func (m *Module) scopeOf(r *http.Request) (scope, error) {
	c := auth.CallerFrom(r.Context())
	if raw := r.URL.Query().Get("companyId"); raw != "" {
		id, err := strconv.ParseInt(raw, 10, 64)
		if err != nil || id <= 0 {
			return scope{}, errs.New(errs.Invalid, errs.IDBadID).With("id", raw)
		}
		if !c.CanSeeCompany(id) {
			return scope{}, errs.New(errs.NotFound, errs.IDNotFound)
		}
		if _, err := m.deps.Accounts.Company(r.Context(), id); err != nil {
			return scope{}, err
		}
		return scope{company: id}, nil
	}
	if c.Role != auth.SuperAdmin {
		return scope{company: c.CompanyID}, nil
	}
	if ck, err := r.Cookie(accounts.CompanyCookie); err == nil {
		if id, err := strconv.ParseInt(ck.Value, 10, 64); err == nil && id > 0 {
			return scope{company: id}, nil
		}
	}
	return scope{installation: true}, nil
}

// readFilter reads the query of GET /logs, collecting what is wrong.
func readFilter(q url.Values) (filter, error) {
	var v errs.Validation
	f := filter{limit: DefaultLimit}
	if raw := q.Get("type"); raw != "" {
		for _, t := range strings.Split(raw, ",") {
			t = strings.ToUpper(strings.TrimSpace(t))
			if !validType(t) {
				v.AddArgs("type", msgTypeInvalid, map[string]any{"types": strings.Join(Types, ", ")})
				break
			}
			f.types = append(f.types, t)
		}
	}
	readTime := func(name string) time.Time {
		raw := q.Get(name)
		if raw == "" {
			return time.Time{}
		}
		t, err := time.Parse(time.RFC3339Nano, raw)
		if err != nil || t.Year() < 1 || t.Year() > 9999 {
			v.Add(name, msgTimeInvalid)
			return time.Time{}
		}
		return t.UTC()
	}
	f.from, f.to = readTime("from"), readTime("to")
	if !f.from.IsZero() && !f.to.IsZero() && f.from.After(f.to) {
		v.Add("from", msgRangeInvalid)
	}
	if raw := q.Get("deveui"); raw != "" {
		f.devEUI = normaliseEUI(raw)
		if !validDevEUI(f.devEUI) {
			v.Add("deveui", msgDevEUIInvalid)
		}
	}
	if raw := q.Get("limit"); raw != "" {
		n, err := strconv.Atoi(raw)
		if err != nil || n < 1 || n > MaxLimit {
			v.AddArgs("limit", msgLimitInvalid, map[string]any{"max": MaxLimit})
		} else {
			f.limit = n
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
