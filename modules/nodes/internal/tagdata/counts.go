package tagdata

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/nodes"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/access"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/store"
)

// companyDataCount answers GET /companies/{companyId}/tagdata/count: the
// company's data points of the last 24 hours.
func (a *API) companyDataCount(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	company, err := access.VisibleCompanyID(ctx, r, a.accounts)
	if err != nil {
		return err
	}
	to := time.Now().UTC()
	from := to.Add(-defaultWindow)
	n, err := a.series.Count(ctx, company, from, to)
	if err != nil {
		return err
	}
	return web.OK(w, DataCount{From: from, To: to, Count: n})
}

// dataPointsWeek answers GET /companies/{companyId}/datapointsweek?tz=: the
// company's data points per day of the last 7 days, today (until now)
// last. Days run from midnight to midnight in the time zone tz, by default
// the company's, so that a day of 23 or 25 hours counts as one day.
func (a *API) dataPointsWeek(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	company, err := access.VisibleCompanyID(ctx, r, a.accounts)
	if err != nil {
		return err
	}
	q := newQuery(r)
	asked := q.zone()
	if err := q.v.Err(); err != nil {
		return err
	}
	loc, err := a.zoneOr(ctx, asked, company)
	if err != nil {
		return err
	}
	return a.answerCounts(ctx, w, company, weekDays(q.now, loc))
}

// weekDays are the bounds of the last 7 days in loc, today until now last:
// local midnights built as dates, so that the days the clocks change have
// 23 or 25 hours.
func weekDays(now time.Time, loc *time.Location) []time.Time {
	local := now.In(loc)
	bounds := make([]time.Time, 0, 8)
	for d := -6; d <= 0; d++ {
		bounds = append(bounds, time.Date(local.Year(), local.Month(), local.Day()+d, 0, 0, 0, 0, loc).UTC())
	}
	return append(bounds, now.UTC())
}

// dataPointsDay answers GET /companies/{companyId}/datapointsday: the
// company's data points per hour of the last 24 hours, the current hour
// (until now) last.
func (a *API) dataPointsDay(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	company, err := access.VisibleCompanyID(ctx, r, a.accounts)
	if err != nil {
		return err
	}
	now := time.Now().UTC()
	hour := now.Truncate(time.Hour)
	bounds := make([]time.Time, 0, 25)
	for h := -23; h <= 0; h++ {
		bounds = append(bounds, hour.Add(time.Duration(h)*time.Hour))
	}
	bounds = append(bounds, now)
	return a.answerCounts(ctx, w, company, bounds)
}

// answerCounts answers the counts of the company's data points between
// consecutive bounds.
func (a *API) answerCounts(ctx context.Context, w http.ResponseWriter, company int64, bounds []time.Time) error {
	out := make([]DataCount, len(bounds)-1)
	for i := range out {
		n, err := a.series.Count(ctx, company, bounds[i], bounds[i+1])
		if err != nil {
			return err
		}
		out[i] = DataCount{From: bounds[i], To: bounds[i+1], Count: n}
	}
	return web.OK(w, out)
}

// sensorDataPoints answers GET /companies/{companyId}/sensordatapoints/day:
// each tag's data points of the last 24 hours, by tag name.
func (a *API) sensorDataPoints(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	company, err := access.VisibleCompanyID(ctx, r, a.accounts)
	if err != nil {
		return err
	}
	tags, err := store.Tags(ctx, a.db, company)
	if err != nil {
		return err
	}
	to := time.Now().UTC()
	counts, err := a.series.CountByNode(ctx, company, to.Add(-defaultWindow), to)
	if err != nil {
		return err
	}
	out := make([]NodeCount, len(tags))
	for i, t := range tags {
		out[i] = NodeCount{ID: t.ID, Name: t.Name, DevEUI: t.DevEUI, Count: counts[strings.ToLower(t.DevEUI)]}
	}
	return web.OK(w, out)
}

// FillDataPoints sets the dataPoints24h of tags: the points their series
// hold in the last 24 hours, one count per company. Without the time
// series (series nil) it leaves them 0.
func FillDataPoints(ctx context.Context, series nodes.Series, tags ...*nodes.Tag) error {
	if series == nil || len(tags) == 0 {
		return nil
	}
	to := time.Now().UTC()
	counts := map[int64]map[string]int64{}
	for _, t := range tags {
		c, ok := counts[t.CompanyID]
		if !ok {
			var err error
			if c, err = series.CountByNode(ctx, t.CompanyID, to.Add(-defaultWindow), to); err != nil {
				return err
			}
			counts[t.CompanyID] = c
		}
		t.DataPoints24h = c[strings.ToLower(t.DevEUI)]
	}
	return nil
}
