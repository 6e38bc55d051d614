package core

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/mail"
	"github.com/fieldhub/fieldhub/kernel/web"
)

// A reset link works once, for an hour; a user gets at most a few an hour so
// that the form cannot be used to flood someone's mailbox.
const (
	resetTTL         = time.Hour
	maxResetsPerHour = 3
)

type passwordReset struct {
	bun.BaseModel `bun:"table:password_resets"`
	ID            string       `bun:"id,pk"`
	UserID        int64        `bun:"user_id"`
	ExpiresAt     time.Time    `bun:"expires_at"`
	UsedAt        bun.NullTime `bun:"used_at"`
}

// forgot answers POST /users/forgot/{email}. It answers the same whether or
// not the address has an account, so that it cannot be used to find out.
func (m *Module) forgot(w http.ResponseWriter, r *http.Request) error {
	if err := m.requestReset(r, r.PathValue("email")); err != nil {
		return err
	}
	return m.message(w, r, http.StatusAccepted, msgForgotSent)
}

// requestReset mails a reset link to the account of email, if there is one.
func (m *Module) requestReset(r *http.Request, email string) error {
	ctx := r.Context()
	email = normaliseEmail(email)
	v := &errs.Validation{}
	checkEmail(v, "email", email, errs.IDRequired)
	if err := v.Err(); err != nil {
		return err
	}
	u, err := m.store.userByEmail(ctx, m.db, email)
	if errs.Is(err, errs.NotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	lang := m.lang(r)
	return m.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		recent, err := tx.NewSelect().Model((*passwordReset)(nil)).
			Where("user_id = ? AND expires_at > ?", u.ID, time.Now().UTC()).Count(ctx) // made within the last resetTTL
		if err != nil {
			return fmt.Errorf("count password resets: %w", err)
		}
		if recent >= maxResetsPerHour {
			m.log.Warn("password reset not sent: too many in the last hour", "user_id", u.ID)
			return nil
		}
		reset := &passwordReset{ID: uuid.NewString(), UserID: u.ID, ExpiresAt: time.Now().UTC().Add(resetTTL)}
		if _, err := tx.NewInsert().Model(reset).Exec(ctx); err != nil {
			return fmt.Errorf("store password reset: %w", err)
		}
		args := map[string]any{"name": u.Name(), "link": m.host.Config.PublicURL + "/forgot/" + reset.ID}
		return m.host.Mail.Enqueue(ctx, tx, mail.Message{
			To:      []string{u.Email},
			Subject: m.host.Catalogs.T(lang, "accounts.forgot.mail.subject", args),
			Text:    m.host.Catalogs.T(lang, "accounts.forgot.mail.body", args),
		})
	})
}

// resetPassword answers PUT /users/forgot/{guid} with the new password.
func (m *Module) resetPassword(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Password        string  `json:"password"`
		ConfirmPassword *string `json:"confirmPassword"`
	}
	if _, err := uuid.Parse(r.PathValue("guid")); err != nil {
		return errs.New(errs.Invalid, msgResetBadGUID)
	}
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	if err := m.resetWith(r.Context(), r.PathValue("guid"), in.Password, in.ConfirmPassword); err != nil {
		return err
	}
	return m.message(w, r, http.StatusOK, msgResetDone)
}

// resetWith sets a new password through reset link id. The link is used up,
// and every session of the user ends.
func (m *Module) resetWith(ctx context.Context, id, password string, confirm *string) error {
	guid, err := uuid.Parse(id)
	if err != nil {
		return errs.New(errs.Invalid, msgResetBadGUID)
	}
	v := &errs.Validation{}
	checkNewPassword(v, password, confirm)
	if err := v.Err(); err != nil {
		return err
	}
	hash, err := auth.HashPassword(password)
	if err != nil {
		return err
	}
	return m.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		now := time.Now().UTC()
		reset := new(passwordReset)
		err := tx.NewSelect().Model(reset).Where("id = ? AND used_at IS NULL AND expires_at > ?", guid.String(), now).Scan(ctx)
		if err != nil {
			return errs.New(errs.NotFound, msgResetInvalid)
		}
		res, err := tx.NewUpdate().Model((*passwordReset)(nil)).Set("used_at = ?", now).
			Where("id = ? AND used_at IS NULL", reset.ID).Exec(ctx)
		if err != nil {
			return fmt.Errorf("use password reset: %w", err)
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return errs.New(errs.NotFound, msgResetInvalid)
		}
		if _, err := tx.NewUpdate().Model((*User)(nil)).Set("password_hash = ?", hash).Set("updated_at = ?", now).
			Where("id = ?", reset.UserID).Exec(ctx); err != nil {
			return fmt.Errorf("set password: %w", err)
		}
		if _, err := tx.NewDelete().Model((*loginFailure)(nil)).
			Where("email = (?)", tx.NewSelect().Model((*User)(nil)).Column("email").Where("id = ?", reset.UserID)).Exec(ctx); err != nil {
			return fmt.Errorf("clear login failures: %w", err)
		}
		return m.store.deleteSessionsOf(ctx, tx, reset.UserID)
	})
}
