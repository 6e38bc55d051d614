package signin

import (
	"context"
	"net/http"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/audit"
	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/mail"
	"github.com/fieldhub/fieldhub/modules/accounts"
	"github.com/fieldhub/fieldhub/modules/accounts/internal/store"
	"github.com/fieldhub/fieldhub/modules/accounts/internal/validate"
)

// A reset link works once, for an hour; a user gets at most a few an hour so
// that the form cannot be used to flood someone's mailbox.
const (
	resetTTL         = time.Hour
	maxResetsPerHour = 3
)

// RequestReset mails a reset link to the account of email, if there is one,
// in the language of the request. It answers the same whether or not the
// address has an account, so that it cannot be used to find out.
func (s *Service) RequestReset(r *http.Request, email string) error {
	ctx := r.Context()
	email = validate.NormaliseEmail(email)
	v := &errs.Validation{}
	validate.Email(v, "email", email, errs.IDRequired)
	if err := v.Err(); err != nil {
		return err
	}
	u, err := store.UserByEmail(ctx, s.db, email)
	if errs.Is(err, errs.NotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	lang := s.lang(r)
	return s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		recent, err := store.CountLiveResets(ctx, tx, u.ID, time.Now().UTC()) // made within the last resetTTL
		if err != nil {
			return err
		}
		if recent >= maxResetsPerHour {
			s.log.Warn("password reset not sent: too many in the last hour", "user_id", u.ID)
			return nil
		}
		reset := &store.PasswordReset{ID: uuid.NewString(), UserID: u.ID, ExpiresAt: time.Now().UTC().Add(resetTTL)}
		if err := store.InsertReset(ctx, tx, reset); err != nil {
			return err
		}
		args := map[string]any{"name": u.Name(), "link": s.host.Config.PublicURL + "/forgot/" + reset.ID}
		return s.host.Mail.Enqueue(ctx, tx, mail.Message{
			To:      []string{u.Email},
			Subject: s.host.Catalogs.T(lang, "accounts.forgot.mail.subject", args),
			Text:    s.host.Catalogs.T(lang, "accounts.forgot.mail.body", args),
		})
	})
}

// CheckReset tells whether reset link id can still be used.
func (s *Service) CheckReset(ctx context.Context, id string) error {
	if _, err := uuid.Parse(id); err != nil {
		return errs.New(errs.Invalid, accounts.MsgResetBadGUID)
	}
	n, err := store.CountUsableResets(ctx, s.db, id, time.Now().UTC())
	if err != nil {
		return err
	}
	if n == 0 {
		return errs.New(errs.NotFound, accounts.MsgResetInvalid)
	}
	return nil
}

// Reset sets a new password through reset link id. The link is used up,
// the account's failed logins are forgotten, and every session of the user
// ends.
func (s *Service) Reset(ctx context.Context, id, password string, confirm *string) error {
	guid, err := uuid.Parse(id)
	if err != nil {
		return errs.New(errs.Invalid, accounts.MsgResetBadGUID)
	}
	v := &errs.Validation{}
	validate.NewPassword(v, password, confirm)
	if err := v.Err(); err != nil {
		return err
	}
	hash, err := auth.HashPassword(password)
	if err != nil {
		return err
	}
	var ended []string
	var user int64
	err = s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		now := time.Now().UTC()
		reset, err := store.UsableReset(ctx, tx, guid.String(), now)
		if err != nil {
			return errs.New(errs.NotFound, accounts.MsgResetInvalid)
		}
		used, err := store.UseReset(ctx, tx, reset.ID, now)
		if err != nil {
			return err
		}
		if !used {
			return errs.New(errs.NotFound, accounts.MsgResetInvalid)
		}
		user = reset.UserID
		if err := store.SetPassword(ctx, tx, reset.UserID, hash, now); err != nil {
			return err
		}
		if err := store.ClearLoginFailuresOf(ctx, tx, reset.UserID); err != nil {
			return err
		}
		ended, err = store.EndSessionsOf(ctx, tx, reset.UserID)
		return err
	})
	if err != nil {
		return err
	}
	s.SessionsEnded(ended)
	s.announceReset(ctx, user)
	return nil
}

// announceReset puts a password reset on the audit trail: the user made it
// through their mailed link, so they are who made it; never the password
// or the link.
func (s *Service) announceReset(ctx context.Context, id int64) {
	u, err := store.UserByID(ctx, s.db, id)
	if err != nil {
		return
	}
	audit.Announce(ctx, s.host.Bus, audit.Change{UserID: id, CompanyID: u.Company(), MessageID: accounts.AuditUserPasswordReset,
		Args: map[string]any{"target": u.Email}})
}
