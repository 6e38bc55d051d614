package registry

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/nodes"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/access"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/store"
)

// ApplicationInput is the body of application create and update calls.
// Absent fields are left as they are on update; ttsApiKey is write-only, and
// an empty one removes the stored key.
type ApplicationInput struct {
	Name                    *string `json:"name"`
	NetworkServer           *string `json:"networkServer"`
	ChirpStackApplicationID *string `json:"chirpstackApplicationId"`
	TTSDownlinkURL          *string `json:"ttsDownlinkUrl"`
	TTSAPIKey               *string `json:"ttsApiKey"`
}

// applyApplication copies the given fields of in onto a and validates them.
// With all set, absent fields count as empty (create); otherwise they are
// left alone (update).
func (g *Registry) applyApplication(a *nodes.Application, in ApplicationInput, all bool) error {
	v := &errs.Validation{}
	if all || in.Name != nil {
		a.Name = strings.TrimSpace(str(in.Name))
		switch {
		case a.Name == "":
			v.Add("name", nodes.IDAppNameRequired)
		case utf8.RuneCountInString(a.Name) > maxAppName:
			v.Add("name", nodes.IDAppNameTooLong)
		case !cleanText(a.Name):
			v.Add("name", nodes.IDTextInvalid)
		}
	}
	if all || in.NetworkServer != nil {
		a.NetworkServer = strings.ToLower(strings.TrimSpace(str(in.NetworkServer)))
		if a.NetworkServer == "" {
			a.NetworkServer = nodes.NetworkGeneric
		}
		if a.NetworkServer != nodes.NetworkChirpStack && a.NetworkServer != nodes.NetworkTTS && a.NetworkServer != nodes.NetworkGeneric {
			v.Add("networkServer", nodes.IDAppNetworkServer)
		}
	}
	if all || in.ChirpStackApplicationID != nil {
		a.ChirpStackApplicationID = strings.ToLower(strings.TrimSpace(str(in.ChirpStackApplicationID)))
		if a.ChirpStackApplicationID != "" && !uuid.MatchString(a.ChirpStackApplicationID) {
			v.Add("chirpstackApplicationId", nodes.IDAppChirpStackID)
		}
	}
	if all || in.TTSDownlinkURL != nil {
		a.TTSDownlinkURL = strings.TrimSpace(str(in.TTSDownlinkURL))
		switch {
		case a.TTSDownlinkURL == "":
		case !validHTTPURL(a.TTSDownlinkURL):
			v.Add("ttsDownlinkUrl", nodes.IDAppTTSURL)
		case !g.host.Config.OutboundPrivate && !publicHost(a.TTSDownlinkURL):
			v.Add("ttsDownlinkUrl", nodes.IDAppTTSPrivate)
		}
	}
	if all || in.TTSAPIKey != nil {
		key := strings.TrimSpace(str(in.TTSAPIKey))
		checkText(v, "ttsApiKey", key, maxAPIKey, false)
		a.SealedTTSAPIKey = g.seal(key)
	}
	return v.Err()
}

// AddApplication validates in and stores it as a new application of
// companyID, which the caller has checked they manage. The API and the
// /application/create page both use it.
func (g *Registry) AddApplication(ctx context.Context, companyID int64, in ApplicationInput) (*nodes.Application, error) {
	a := &nodes.Application{CompanyID: companyID}
	if err := g.applyApplication(a, in, true); err != nil {
		return nil, err
	}
	if err := store.InsertApplication(ctx, g.db, a); err != nil {
		return nil, err
	}
	g.announce(ctx, a.CompanyID, nodes.AuditAppCreated, map[string]any{"name": a.Name}, nil, nil)
	return a, nil
}

// SaveApplication validates the given fields of in onto a, an application
// the caller manages, and stores it. The API and the /application/{id} page
// both use it.
func (g *Registry) SaveApplication(ctx context.Context, a *nodes.Application, in ApplicationInput) error {
	was := applicationFields(a)
	if err := g.applyApplication(a, in, false); err != nil {
		return err
	}
	if err := store.UpdateApplication(ctx, g.db, a); err != nil {
		return err
	}
	g.announceDiff(ctx, a.CompanyID, nodes.AuditAppEdited, map[string]any{"name": a.Name}, was, applicationFields(a))
	return nil
}

// RemoveApplication deletes a, an application the caller manages. One that
// still has nodes is kept (409), as The Things Stack does, so that no node
// and its data go by accident.
func (g *Registry) RemoveApplication(ctx context.Context, a *nodes.Application) error {
	err := g.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		return store.DeleteApplication(ctx, tx, a.ID)
	})
	if err != nil {
		return err
	}
	g.announce(ctx, a.CompanyID, nodes.AuditAppDeleted, map[string]any{"name": a.Name}, nil, nil)
	return nil
}

// ScopedApplication loads application id within the caller's reach: one
// they may see, or with manage one they may change.
func (g *Registry) ScopedApplication(ctx context.Context, id int64, manage bool) (*nodes.Application, error) {
	a, err := store.ApplicationByID(ctx, g.db, id)
	if err != nil {
		return nil, err
	}
	if err := access.Scoped(ctx, a.CompanyID, manage); err != nil {
		return nil, err
	}
	return a, nil
}

// Applications lists the applications of a company, by name.
func (g *Registry) Applications(ctx context.Context, companyID int64) ([]nodes.Application, error) {
	return store.Applications(ctx, g.db, companyID)
}

// TagCounts counts the tags of each application of a company.
func (g *Registry) TagCounts(ctx context.Context, companyID int64) (map[int64]int, error) {
	return store.TagCounts(ctx, g.db, companyID)
}

// Application returns an application by id, whoever asks.
func (g *Registry) Application(ctx context.Context, id int64) (*nodes.Application, error) {
	return store.ApplicationByID(ctx, g.db, id)
}

// TTSAPIKey returns the opened The Things Stack API key of an application,
// "" when none is stored.
func (g *Registry) TTSAPIKey(ctx context.Context, applicationID int64) (string, error) {
	a, err := store.ApplicationByID(ctx, g.db, applicationID)
	if err != nil {
		return "", err
	}
	if a.SealedTTSAPIKey == "" {
		return "", nil
	}
	key, err := g.host.Box.Open(a.SealedTTSAPIKey)
	if err != nil {
		return "", fmt.Errorf("open tts api key of application %d: %w", applicationID, err)
	}
	return key, nil
}

// ApplicationsByChirpStackID returns the applications that name a ChirpStack
// application id (in any case), oldest first. Nothing stops two companies
// from naming the same one, so there may be several; none is not an error.
func (g *Registry) ApplicationsByChirpStackID(ctx context.Context, chirpstackID string) ([]nodes.Application, error) {
	id := strings.ToLower(strings.TrimSpace(chirpstackID))
	if id == "" {
		return []nodes.Application{}, nil
	}
	return store.ApplicationsByChirpStackID(ctx, g.db, id)
}

// ApplicationTags lists the tags of a, by name, as stored: without their
// derived fields.
func (g *Registry) ApplicationTags(ctx context.Context, a *nodes.Application) ([]*nodes.Tag, error) {
	tags, err := store.Tags(ctx, g.db, a.CompanyID)
	if err != nil {
		return nil, err
	}
	own := []*nodes.Tag{}
	for _, t := range tags {
		if t.ApplicationID == a.ID {
			own = append(own, t)
		}
	}
	return own, nil
}
