package httpapi

import (
	"net/http"
	"time"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/ingest"
	"github.com/fieldhub/fieldhub/modules/ingest/internal/redecode"
)

// tagDataInput is the body of POST /tag/{tagId}/tagdata.
type tagDataInput struct {
	Key   string  `json:"key"`
	Value any     `json:"value"`
	Time  *string `json:"time"`
}

// tagDataPoint is the stored point the route answers.
type tagDataPoint struct {
	Key   string    `json:"key"`
	Value any       `json:"value"`
	Time  time.Time `json:"time"`
}

// writeTagData answers POST /tag/{tagId}/tagdata: a manual value for one
// of the node's keys, stored as an uplink's values are (ingest.Values), by
// those who may edit the node.
func (a *API) writeTagData(w http.ResponseWriter, r *http.Request) error {
	id, err := web.PathID(r, "tagId")
	if err != nil {
		return err
	}
	tag, err := a.tags.Tag(r.Context(), id)
	if err != nil {
		return err
	}
	if err := redecode.Scoped(r.Context(), tag.CompanyID, true); err != nil {
		return err
	}
	var in tagDataInput
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	v := errs.Validation{}
	if in.Key == "" {
		v.Add("key", errs.IDRequired)
	}
	if in.Value == nil {
		v.Add("value", errs.IDRequired)
	}
	var at time.Time
	if in.Time != nil && *in.Time != "" {
		if at, err = time.Parse(time.RFC3339Nano, *in.Time); err != nil {
			v.Add("time", ingest.IDValueTime)
		}
	}
	if err := v.Err(); err != nil {
		return err
	}
	out, err := a.values.WriteValues(r.Context(), ingest.Write{CompanyID: tag.CompanyID, TagID: tag.ID, Time: at,
		Values: map[string]any{in.Key: in.Value}, Source: ingest.SourceManual})
	if err != nil {
		return err
	}
	return web.Created(w, tagDataPoint{Key: in.Key, Value: out.Values[in.Key], Time: out.Time})
}
