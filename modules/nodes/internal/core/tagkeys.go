package core

import (
	"context"
	"fmt"
)

// TagKeys lists the registered data keys of a tag, for other modules (the
// dashboards label their series with them).
func (m *Module) TagKeys(ctx context.Context, tagID int64) ([]Key, error) {
	keys, err := m.store.keysOfTags(ctx, m.db, []int64{tagID})
	if err != nil {
		return nil, fmt.Errorf("keys of tag %d: %w", tagID, err)
	}
	return keys, nil
}
