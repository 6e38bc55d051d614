package httpapi

import (
	"context"
	"net/http"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/dashboards"
	"github.com/fieldhub/fieldhub/modules/dashboards/internal/weather"
)

// The data a module reads: its series (points or trend buckets), their
// latest values, facts about its company and nodes, and the weather at its
// position. Each answer is the same for the signed-in routes
// (/dashboards/modules/{id}/...) and the public ones
// (/dashboards/public/{token}/modules/{id}/...).

// dataHandler answers one data read of a module of a dashboard.
type dataHandler func(w http.ResponseWriter, r *http.Request, wd *dashboards.Widget, d *dashboards.Dashboard) error

// widgetData makes a signed-in route of h: the module within the caller's
// reach.
func (a *API) widgetData(h dataHandler) web.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		wd, d, err := a.guard.PathWidget(r, false)
		if err != nil {
			return err
		}
		return h(w, r, wd, d)
	}
}

type publicKey struct{}

// publicCaller reports whether a data read comes through a public link.
func publicCaller(ctx context.Context) bool { return ctx.Value(publicKey{}) != nil }

// publicData makes a public route of h: the module of the token's
// dashboard.
func (a *API) publicData(h dataHandler) web.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		wd, d, err := a.guard.PublicWidget(r)
		if err != nil {
			return err
		}
		r = r.WithContext(context.WithValue(r.Context(), publicKey{}, true))
		return h(w, r, wd, d)
	}
}

// tagData answers GET .../tagdata.
func (a *API) tagData(w http.ResponseWriter, r *http.Request, wd *dashboards.Widget, d *dashboards.Dashboard) error {
	out, err := a.data.TagData(r.Context(), wd, d.CompanyID, r.URL.Query())
	if err != nil {
		return err
	}
	return web.OK(w, out)
}

// latestData answers GET .../tagdata/latest.
func (a *API) latestData(w http.ResponseWriter, r *http.Request, wd *dashboards.Widget, d *dashboards.Dashboard) error {
	out, err := a.data.Latest(r.Context(), wd, d.CompanyID)
	if err != nil {
		return err
	}
	return web.OK(w, out)
}

// infoData answers GET .../info.
func (a *API) infoData(w http.ResponseWriter, r *http.Request, wd *dashboards.Widget, d *dashboards.Dashboard) error {
	out, err := a.data.Info(r.Context(), wd, d.CompanyID, publicCaller(r.Context()))
	if err != nil {
		return err
	}
	return web.OK(w, out)
}

// weatherData answers GET .../weather: the forecast at the module's
// weather_lat/weather_lon, else at its node's position. A service that
// answered but not usefully is a 502 with the module's own message; one
// that cannot be reached a 503.
func (a *API) weatherData(w http.ResponseWriter, r *http.Request, wd *dashboards.Widget, d *dashboards.Dashboard) error {
	lat, lon, ok, err := a.data.Position(r.Context(), wd, d.CompanyID)
	if err != nil {
		return err
	}
	if !ok {
		return errs.New(errs.Invalid, dashboards.IDNoPosition)
	}
	f, err := a.weather.Forecast(r.Context(), lat, lon)
	if weather.IsBadGateway(err) {
		lang := a.host.Router.Lang(r)
		web.JSON(w, http.StatusBadGateway, web.Problem{Status: http.StatusBadGateway, ID: dashboards.IDWeatherBadGateway,
			Message: a.host.Catalogs.T(lang, dashboards.IDWeatherBadGateway, nil), RequestID: w.Header().Get("X-Request-Id")})
		return nil
	}
	if err != nil {
		if !errs.Is(err, errs.Unavailable) {
			err = errs.New(errs.Unavailable, dashboards.IDWeatherUnavailable).Wrap(err)
		}
		return err
	}
	return web.OK(w, f)
}

// alarmAnswer is the answer of GET .../alarm.
type alarmAnswer struct {
	Alarm *dashboards.AlarmState `json:"alarm"`
}

// alarmData answers GET .../alarm: the state of the alarm the module's
// alarm_id names, null when it names none of the dashboard company's
// alarms. A public link reads the same state, which tells nothing else of
// the rule.
func (a *API) alarmData(w http.ResponseWriter, r *http.Request, wd *dashboards.Widget, d *dashboards.Dashboard) error {
	st, err := a.alarms.Of(r.Context(), d.CompanyID, wd.Attributes["alarm_id"])
	if err != nil {
		return err
	}
	return web.OK(w, alarmAnswer{Alarm: st})
}
