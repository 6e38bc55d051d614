package tagdata

import (
	"net/http"
	"time"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/nodes"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/access"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/store"
)

// tagDataPoints answers GET /tag/tagdata?tagId=&key=&from=&to=&max=: the
// points of one key of a tag, downsampled to at most max.
func (a *API) tagDataPoints(w http.ResponseWriter, r *http.Request) error {
	q := newQuery(r)
	id, ok := q.id("tagId")
	if !ok && !q.v.Has("tagId") {
		q.v.Add("tagId", errs.IDRequired)
	}
	key, maxPoints := q.key(), q.max()
	from, to := q.window()
	if err := q.v.Err(); err != nil {
		return err
	}
	t, err := a.reg.ScopedTag(r.Context(), id, false)
	if err != nil {
		return err
	}
	return a.answerPoints(w, r, t, key, from, to, maxPoints)
}

// companyTagData answers GET /companies/{companyId}/tagdata?deveui=&key=&from=&to=&max=
// (or tagId= instead of deveui=): as GET /tag/tagdata, for a tag of that
// company.
func (a *API) companyTagData(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	company, err := access.VisibleCompanyID(ctx, r, a.accounts)
	if err != nil {
		return err
	}
	q := newQuery(r)
	id, byID := q.id("tagId")
	deveui := nodes.NormaliseEUI(q.q.Get("deveui"))
	switch {
	case byID || q.v.Has("tagId"):
	case deveui == "":
		q.v.Add("deveui", errs.IDRequired)
	case !nodes.ValidDevEUI(deveui):
		q.v.Add("deveui", nodes.IDDevEUIFormat)
	}
	key, maxPoints := q.key(), q.max()
	from, to := q.window()
	if err := q.v.Err(); err != nil {
		return err
	}
	var t *nodes.Tag
	if byID {
		t, err = store.TagByID(ctx, a.db, id)
	} else {
		t, err = store.TagByDevEUI(ctx, a.db, deveui)
	}
	if err != nil {
		return err
	}
	if t.CompanyID != company {
		return access.ErrNotFound
	}
	return a.answerPoints(w, r, t, key, from, to, maxPoints)
}

// answerPoints answers the points of key of t (its default key when key is
// ""), at most maxPoints of them.
func (a *API) answerPoints(w http.ResponseWriter, r *http.Request, t *nodes.Tag, key string, from, to time.Time, maxPoints int) error {
	ctx := r.Context()
	k, err := a.keyOf(ctx, t, key)
	if err != nil {
		return err
	}
	pts, err := a.series.Range(ctx, seriesOf(t, k.Key), from, to, maxPoints)
	if err != nil {
		return err
	}
	out := make([]TagDatum, len(pts))
	for i, p := range pts {
		out[i] = datum(t, k, p, true)
	}
	return web.OK(w, out)
}

// latestTagData answers GET /tag/latest/{tagId}/{key}: the key's most
// recent value, with a null value when it has none.
func (a *API) latestTagData(w http.ResponseWriter, r *http.Request) error {
	t, k, err := a.pathTagKey(r)
	if err != nil {
		return err
	}
	p, ok, err := a.series.Latest(r.Context(), seriesOf(t, k.Key))
	if err != nil {
		return err
	}
	return web.OK(w, datum(t, k, p, ok))
}
