package core

import (
	"context"
	"fmt"
	"strings"
)

// ApplicationsByChirpStackID returns the applications that name a ChirpStack
// application id (in any case), oldest first. Nothing stops two companies
// from naming the same one, so there may be several; none is not an error.
func (m *Module) ApplicationsByChirpStackID(ctx context.Context, chirpstackID string) ([]Application, error) {
	id := strings.ToLower(strings.TrimSpace(chirpstackID))
	list := []Application{}
	if id == "" {
		return list, nil
	}
	if err := m.db.NewSelect().Model(&list).Where("chirpstack_application_id = ?", id).Order("id").Scan(ctx); err != nil {
		return nil, fmt.Errorf("find applications of ChirpStack application %s: %w", id, err)
	}
	for i := range list {
		list[i].TTSAPIKeySet = list[i].SealedTTSAPIKey != ""
	}
	return list, nil
}
