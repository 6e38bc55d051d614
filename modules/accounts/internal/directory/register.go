package directory

import (
	"context"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/audit"
	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/mail"
	"github.com/fieldhub/fieldhub/modules/accounts"
	"github.com/fieldhub/fieldhub/modules/accounts/internal/store"
)

// maxNoticesPerHour bounds the mails about attempts to register a taken
// address, so that the form cannot flood its owner's mailbox.
const maxNoticesPerHour = 3

// RegisterUser is open registration (POST /users without a session): a User
// without a company, to be invited into one. It succeeds the same whether
// or not the address has an account, so that it cannot be used to find
// out: for a taken address nothing is stored and the owner is mailed
// instead, in their company's language, else in lang (the request's). Only
// a bad form is an error.
func (d *Directory) RegisterUser(ctx context.Context, lang string, in UserInput) error {
	if err := d.MayCreateUser(auth.Caller{Role: auth.Guest}); err != nil {
		return err
	}
	u, err := newUser(in) // hashes the password either way: both answers take as long
	if err != nil {
		return err
	}
	owner, err := store.UserByEmail(ctx, d.db, u.Email)
	if errs.Is(err, errs.NotFound) {
		err = store.InsertUser(ctx, d.db, u)
		if errs.Is(err, errs.Conflict) { // registered a moment ago by someone else
			if owner, err = store.UserByEmail(ctx, d.db, u.Email); err == nil {
				return d.noticeTaken(ctx, owner, lang)
			}
		}
		if err == nil {
			// The visitor made their own account: they are who made it.
			audit.Announce(ctx, d.host.Bus, audit.Change{UserID: u.ID, MessageID: accounts.AuditUserRegistered,
				Args: map[string]any{"target": u.Email}})
		}
		return err
	}
	if err != nil {
		return err
	}
	return d.noticeTaken(ctx, owner, lang)
}

// noticeTaken mails the owner of an address that someone tried to register
// it, at most a few times an hour.
func (d *Directory) noticeTaken(ctx context.Context, owner *accounts.User, lang string) error {
	if owner.CompanyID != nil {
		if c, err := store.CompanyByID(ctx, d.db, *owner.CompanyID); err == nil {
			lang = c.Language()
		}
	}
	cat := d.host.Catalogs
	base := d.host.Config.PublicURL
	args := map[string]any{"name": owner.Name(), "login": base + "/login", "forgot": base + "/forgot"}
	return d.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		now := time.Now().UTC()
		n, err := store.CountRegistrationNotices(ctx, tx, owner.ID, now.Add(-time.Hour))
		if err != nil {
			return err
		}
		if n >= maxNoticesPerHour {
			d.host.Logger("accounts").Warn("registration notice not sent: too many in the last hour", "user_id", owner.ID)
			return nil
		}
		if err := store.InsertRegistrationNotice(ctx, tx, owner.ID, now); err != nil {
			return err
		}
		return d.host.Mail.Enqueue(ctx, tx, mail.Message{
			To:      []string{owner.Email},
			Subject: cat.T(lang, "accounts.register.taken.subject", args),
			Text:    cat.T(lang, "accounts.register.taken.body", args),
		})
	})
}
