package tagdata

import (
	"context"
	"time"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/accounts"
	"github.com/fieldhub/fieldhub/modules/nodes"
)

// zone reads the time zone ?tz= asks for (the islands send the viewer's);
// nil when absent, so that zoneOr falls back to the company's.
func (q *dataQuery) zone() *time.Location {
	tz := q.q.Get("tz")
	if tz == "" {
		return nil
	}
	loc, ok := accounts.LoadZone(tz)
	if !ok {
		q.v.Add("tz", nodes.IDTagDataTimeZone)
	}
	return loc
}

// zoneOr is loc, else the time zone of company, in which its days begin.
func (a *API) zoneOr(ctx context.Context, loc *time.Location, company int64) (*time.Location, error) {
	if loc != nil {
		return loc, nil
	}
	c, err := a.accounts.Company(ctx, company)
	if errs.Is(err, errs.NotFound) {
		return time.UTC, nil
	}
	if err != nil {
		return nil, err
	}
	return c.Location(), nil
}
