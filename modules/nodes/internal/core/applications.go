package core

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
)

// applicationInput is the body of application create and update calls.
// Absent fields are left as they are on update; ttsApiKey is write-only, and
// an empty one removes the stored key.
type applicationInput struct {
	Name                    *string `json:"name"`
	NetworkServer           *string `json:"networkServer"`
	ChirpStackApplicationID *string `json:"chirpstackApplicationId"`
	TTSDownlinkURL          *string `json:"ttsDownlinkUrl"`
	TTSAPIKey               *string `json:"ttsApiKey"`
}

// applyApplication copies the given fields of in onto a and validates them
// with the messages of SPEC.md section 5. With all set, absent fields count
// as empty (create); otherwise they are left alone (update).
func (m *Module) applyApplication(a *Application, in applicationInput, all bool) error {
	v := &errs.Validation{}
	if all || in.Name != nil {
		a.Name = strings.TrimSpace(str(in.Name))
		switch {
		case a.Name == "":
			v.Add("name", msgAppNameRequired)
		case utf8.RuneCountInString(a.Name) > maxAppName:
			v.Add("name", msgAppNameTooLong)
		case !cleanText(a.Name):
			v.Add("name", msgTextInvalid)
		}
	}
	if all || in.NetworkServer != nil {
		a.NetworkServer = strings.ToLower(strings.TrimSpace(str(in.NetworkServer)))
		if a.NetworkServer == "" {
			a.NetworkServer = NetworkGeneric
		}
		if a.NetworkServer != NetworkChirpStack && a.NetworkServer != NetworkTTS && a.NetworkServer != NetworkGeneric {
			v.Add("networkServer", msgAppNetworkServer)
		}
	}
	if all || in.ChirpStackApplicationID != nil {
		a.ChirpStackApplicationID = strings.ToLower(strings.TrimSpace(str(in.ChirpStackApplicationID)))
		if a.ChirpStackApplicationID != "" && !uuid.MatchString(a.ChirpStackApplicationID) {
			v.Add("chirpstackApplicationId", msgAppChirpStackID)
		}
	}
	if all || in.TTSDownlinkURL != nil {
		a.TTSDownlinkURL = strings.TrimSpace(str(in.TTSDownlinkURL))
		switch {
		case a.TTSDownlinkURL == "":
		case !validHTTPURL(a.TTSDownlinkURL):
			v.Add("ttsDownlinkUrl", msgAppTTSURL)
		case !m.host.Config.OutboundPrivate && !publicHost(a.TTSDownlinkURL):
			v.Add("ttsDownlinkUrl", msgAppTTSPrivate)
		}
	}
	if all || in.TTSAPIKey != nil {
		key := strings.TrimSpace(str(in.TTSAPIKey))
		checkText(v, "ttsApiKey", key, maxAPIKey, false)
		a.SealedTTSAPIKey = m.seal(key)
	}
	return v.Err()
}

// createApplication answers POST /applications/{companyId}.
func (m *Module) createApplication(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	if c := auth.CallerFrom(ctx); c.CompanyID == 0 && c.Role != auth.SuperAdmin {
		return errs.New(errs.Invalid, msgAppNoCompany)
	}
	companyID, err := m.managedCompanyID(ctx, r)
	if err != nil {
		return err
	}
	var in applicationInput
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	a, err := m.addApplication(ctx, companyID, in)
	if err != nil {
		return err
	}
	return web.Created(w, a)
}

// addApplication validates in and stores it as a new application of
// companyID, which the caller has checked they manage. The API and the
// /application/create page both use it.
func (m *Module) addApplication(ctx context.Context, companyID int64, in applicationInput) (*Application, error) {
	a := &Application{CompanyID: companyID}
	if err := m.applyApplication(a, in, true); err != nil {
		return nil, err
	}
	if err := m.store.insertApplication(ctx, m.db, a); err != nil {
		return nil, err
	}
	return a, nil
}

func (m *Module) getApplication(w http.ResponseWriter, r *http.Request) error {
	a, err := m.pathApplication(r.Context(), r, false)
	if err != nil {
		return err
	}
	return web.OK(w, a)
}

func (m *Module) updateApplication(w http.ResponseWriter, r *http.Request) error {
	a, err := m.pathApplication(r.Context(), r, true)
	if err != nil {
		return err
	}
	var in applicationInput
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	if err := m.saveApplication(r.Context(), a, in); err != nil {
		return err
	}
	return web.OK(w, a)
}

// saveApplication validates the given fields of in onto a, an application
// the caller manages, and stores it. The API and the /application/{id} page
// both use it.
func (m *Module) saveApplication(ctx context.Context, a *Application, in applicationInput) error {
	if err := m.applyApplication(a, in, false); err != nil {
		return err
	}
	return m.store.updateApplication(ctx, m.db, a)
}

// deleteApplication answers DELETE /applications/{applicationId}.
func (m *Module) deleteApplication(w http.ResponseWriter, r *http.Request) error {
	a, err := m.pathApplication(r.Context(), r, true)
	if err != nil {
		return err
	}
	if err := m.removeApplication(r.Context(), a); err != nil {
		return err
	}
	return web.NoContent(w)
}

// removeApplication deletes a, an application the caller manages. One that
// still has nodes is kept (409), as The Things Stack does, so that no node
// and its data go by accident.
func (m *Module) removeApplication(ctx context.Context, a *Application) error {
	return m.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		return m.store.deleteApplication(ctx, tx, a.ID)
	})
}

// companyApplications answers GET /companies/{companyId}/applications.
func (m *Module) companyApplications(w http.ResponseWriter, r *http.Request) error {
	id, err := m.visibleCompanyID(r.Context(), r)
	if err != nil {
		return err
	}
	list, err := m.store.applications(r.Context(), m.db, id)
	if err != nil {
		return err
	}
	return web.OK(w, list)
}

// Application returns an application by id, whoever asks.
func (m *Module) Application(ctx context.Context, id int64) (*Application, error) {
	return m.store.applicationByID(ctx, m.db, id)
}

// TTSAPIKey returns the opened The Things Stack API key of an application,
// "" when none is stored.
func (m *Module) TTSAPIKey(ctx context.Context, applicationID int64) (string, error) {
	a, err := m.store.applicationByID(ctx, m.db, applicationID)
	if err != nil {
		return "", err
	}
	if a.SealedTTSAPIKey == "" {
		return "", nil
	}
	key, err := m.host.Box.Open(a.SealedTTSAPIKey)
	if err != nil {
		return "", fmt.Errorf("open tts api key of application %d: %w", applicationID, err)
	}
	return key, nil
}
