package httpapi

import (
	"net/http"

	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/access"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/registry"
)

// listTokens answers GET /integration/tokens/{companyId}; the tokens
// themselves are never shown again, only their hints.
func (a *API) listTokens(w http.ResponseWriter, r *http.Request) error {
	id, err := access.ManagedCompanyID(r.Context(), r, a.accounts)
	if err != nil {
		return err
	}
	list, err := a.reg.CompanyTokens(r.Context(), id)
	if err != nil {
		return err
	}
	return web.OK(w, list)
}

// createToken answers POST /integration/tokens/{companyId} with {label,
// isCompany}. The answer is the one time the token is shown.
func (a *API) createToken(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	id, err := access.ManagedCompanyID(ctx, r, a.accounts)
	if err != nil {
		return err
	}
	var in registry.TokenInput
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	t, err := a.reg.AddToken(ctx, id, in)
	if err != nil {
		return err
	}
	return web.Created(w, t)
}

// deleteToken answers DELETE /integration/tokens/{tokenId}.
func (a *API) deleteToken(w http.ResponseWriter, r *http.Request) error {
	id, err := web.PathID(r, "tokenId")
	if err != nil {
		return err
	}
	t, err := a.reg.ManagedToken(r.Context(), id)
	if err != nil {
		return err
	}
	if err := a.reg.RemoveToken(r.Context(), t); err != nil {
		return err
	}
	return web.NoContent(w)
}
