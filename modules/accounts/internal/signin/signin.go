// Package signin is how people get into their accounts: logins with their
// rate limit, sessions with their access and refresh tokens and the
// browser's cookies, and password resets by mailed link. The JSON routes
// and the pages both use it.
package signin

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/modules/accounts"
	"github.com/fieldhub/fieldhub/modules/accounts/internal/revoked"
	"github.com/fieldhub/fieldhub/modules/accounts/internal/store"
)

// Service signs people in and out.
type Service struct {
	host  *kernel.Host
	db    *bun.DB
	log   *slog.Logger
	cfg   accounts.Config
	ended *revoked.List
}

// New builds the service on the host's database, configuration and tokens;
// ended is the list of ended sessions, which it adds to.
func New(host *kernel.Host, cfg accounts.Config, ended *revoked.List) *Service {
	return &Service{host: host, db: host.DB, log: host.Logger("accounts"), cfg: cfg, ended: ended}
}

// SessionsEnded refuses at once the access tokens of sessions that ended
// (the store's End functions return them), once their ending is committed.
func (s *Service) SessionsEnded(ids []string) { s.ended.Add(ids) }

// Prune deletes expired sessions, reset links and login failures; the
// module runs it every hour.
func (s *Service) Prune(ctx context.Context) error {
	return store.Prune(ctx, s.db, time.Now().UTC(), failureWindow, s.ended.Keep())
}

// lang is the language the request is answered in.
func (s *Service) lang(r *http.Request) string { return s.host.Router.Lang(r) }
