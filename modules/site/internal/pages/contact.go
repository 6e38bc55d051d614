package pages

import (
	"context"
	"fmt"
	"net/http"
	"net/mail"
	"strings"
	"unicode/utf8"

	"github.com/a-h/templ"
	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/i18n"
	kmail "github.com/fieldhub/fieldhub/kernel/mail"
	"github.com/fieldhub/fieldhub/kernel/web"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// Limits of the contact form, in characters.
const (
	maxSubject = 255
	maxMessage = 5000
)

// Message IDs of the contact form; each is a key of the locale catalogs.
const (
	msgContactSent    = "page.contact.sent"
	msgContactSubject = "page.contact.mail.subject"
	msgContactHeader  = "page.contact.mail.header"
	msgNoRecipient    = "page.contact.noRecipient"
)

// contactMessage is what the form sends.
type contactMessage struct {
	Subject, Message string
}

// validate applies the form's rules: both fields required, the subject at
// most 255 characters (the message "Max characters is 255"), the
// message at most 5000.
func (c *contactMessage) validate(from contactSender) error {
	// The subject becomes a mail header: it stays on one line.
	c.Subject = strings.Join(strings.Fields(c.Subject), " ")
	c.Message = strings.TrimSpace(strings.ReplaceAll(c.Message, "\r\n", "\n"))
	v := &errs.Validation{}
	if from.Visitor {
		switch {
		case from.Name == "":
			v.Add("name", errs.IDRequired)
		case utf8.RuneCountInString(from.Name) > maxSubject:
			v.Add("name", errs.IDMaxChars255)
		}
		if a, err := mail.ParseAddress(from.Email); from.Email == "" {
			v.Add("email", errs.IDRequired)
		} else if err != nil || a.Address != from.Email {
			v.Add("email", "accounts.email.invalid")
		}
	}
	switch {
	case c.Subject == "":
		v.Add("subject", errs.IDRequired)
	case utf8.RuneCountInString(c.Subject) > maxSubject:
		v.Add("subject", errs.IDMaxChars255)
	}
	switch {
	case c.Message == "":
		v.Add("message", errs.IDRequired)
	case utf8.RuneCountInString(c.Message) > maxMessage:
		v.Add("message", errs.IDTooLong)
	}
	return v.Err()
}

func (m *Module) contactPage(w http.ResponseWriter, r *http.Request) error {
	sender, err := m.sender(r)
	if err != nil {
		return err
	}
	return m.ui.Render(w, r, http.StatusOK, "page.contact.title", contactCard(contactForm(sender, contactMessage{}, ui.NoErrors)))
}

// contactSubmit queues the message and answers with a cleared form: the
// fragment for htmx, else a redirect back to the page.
func (m *Module) contactSubmit(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	sender, err := m.sender(r)
	if err != nil {
		return err
	}
	msg := contactMessage{Subject: r.PostFormValue("subject"), Message: r.PostFormValue("message")}
	if err := m.sendContact(ctx, sender, msg); err != nil {
		return m.ui.FormFailed(w, r, err, "page.contact.title", func(fe ui.FormErrors) templ.Component {
			return contactForm(sender, msg, fe)
		}, contactCard)
	}
	web.Toast(w, r, "success", m.host.Catalogs.T(web.ViewerFrom(ctx).Lang, msgContactSent, nil))
	if !web.IsHTMX(r) {
		web.Redirect(w, r, "/contact")
		return nil
	}
	if sender.Visitor {
		sender = contactSender{Visitor: true}
	}
	return m.ui.Fragment(w, r, http.StatusOK, contactForm(sender, contactMessage{}, ui.NoErrors))
}

// contactSender is who writes: as the session tells it, or, for a visitor
// (the route is open to visitors), as the form says.
type contactSender struct {
	Name, Email, Company string
	Visitor              bool
}

func (m *Module) sender(r *http.Request) (contactSender, error) {
	ctx := r.Context()
	if !auth.CallerFrom(ctx).SignedIn() {
		return contactSender{Visitor: true, Name: strings.TrimSpace(r.PostFormValue("name")), Email: strings.TrimSpace(r.PostFormValue("email"))}, nil
	}
	u, err := m.accounts.User(ctx, auth.CallerFrom(ctx).UserID)
	if err != nil {
		if errs.Is(err, errs.NotFound) {
			// A token outlives a deleted account.
			return contactSender{}, errs.New(errs.Unauthorized, errs.IDUnauthorized)
		}
		return contactSender{}, err
	}
	name := strings.TrimSpace(u.FirstName + " " + u.LastName)
	if name == "" {
		name = u.Email
	}
	return contactSender{Name: name, Email: u.Email, Company: web.ViewerFrom(ctx).CompanyName}, nil
}

// sendContact validates msg and queues it to FIELDHUB_CONTACT_EMAIL or,
// without one, to every SuperAdmin: one mail each, so that one bad address
// does not hold up the others. mail.Message has no Reply-To, so the
// sender's address heads the text.
func (m *Module) sendContact(ctx context.Context, from contactSender, msg contactMessage) error {
	if err := msg.validate(from); err != nil {
		return err
	}
	to, err := m.contactRecipients(ctx)
	if err != nil {
		return err
	}
	// Mail to the installation's operators is written in the default language.
	cat, lang := m.host.Catalogs, i18n.Default
	company := from.Company
	if company == "" {
		company = "-"
	}
	header := cat.T(lang, msgContactHeader, map[string]any{"name": from.Name, "email": from.Email, "company": company})
	// The user's text is appended, not passed as a placeholder value, so
	// that braces in it are never taken for placeholders.
	mail := kmail.Message{
		Subject: cat.T(lang, msgContactSubject, nil) + " " + msg.Subject,
		Text:    header + "\n\n" + msg.Message + "\n",
	}
	return m.host.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		for _, addr := range to {
			one := mail
			one.To = []string{addr}
			if err := m.host.Mail.Enqueue(ctx, tx, one); err != nil {
				return err
			}
		}
		return nil
	})
}

// contactRecipients are the bare addresses the contact form writes to.
func (m *Module) contactRecipients(ctx context.Context) ([]string, error) {
	if cfg := m.host.Config.ContactEmail; cfg != "" {
		a, err := mail.ParseAddress(cfg)
		if err != nil {
			return nil, fmt.Errorf("FIELDHUB_CONTACT_EMAIL: %w", err)
		}
		return []string{a.Address}, nil
	}
	admins, err := m.accounts.SuperAdmins(ctx)
	if err != nil {
		return nil, err
	}
	var to []string
	for _, u := range admins {
		if u.Email != "" {
			to = append(to, u.Email)
		}
	}
	if len(to) == 0 {
		return nil, errs.New(errs.Unavailable, msgNoRecipient)
	}
	return to, nil
}
