package httpapi

import (
	"context"
	"net/http"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/settings/internal/store"
)

// getUserSettings answers GET /settings: the caller's own settings.
func (a *API) getUserSettings(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	c := auth.CallerFrom(ctx)
	stored, err := a.values.Load(ctx, store.UserScope(c.UserID))
	if err != nil {
		return err
	}
	return a.answerUser(ctx, w, c, stored)
}

// postUserSettings answers POST /settings: it stores the given settings of
// the caller and answers all of them.
func (a *API) postUserSettings(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	c := auth.CallerFrom(ctx)
	body, err := decodeBody(r)
	if err != nil {
		return err
	}
	stored, err := a.values.SaveUser(ctx, c, body)
	if err != nil {
		return err
	}
	return a.answerUser(ctx, w, c, stored)
}

func (a *API) answerUser(ctx context.Context, w http.ResponseWriter, c auth.Caller, stored map[string]string) error {
	if _, ok := stored["language"]; !ok {
		lang, err := a.values.DefaultLanguage(ctx, c)
		if err != nil {
			return err
		}
		stored["language"] = lang
	}
	return web.OK(w, a.values.Users().Render(stored, nil))
}
