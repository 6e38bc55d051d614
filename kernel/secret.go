package kernel

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/db"
)

type storedSecret struct {
	bun.BaseModel `bun:"table:kernel_secrets"`
	Name          string `bun:"name,pk"`
	Value         string `bun:"value"`
}

// installationSecret returns the configured secret, or the one kept in the
// database, generating it on first start. Keeping it in the shared database
// means several instances agree on it without configuration.
func installationSecret(ctx context.Context, bdb *bun.DB, configured string) ([]byte, error) {
	if configured != "" {
		return []byte(configured), nil
	}
	candidate := &storedSecret{Name: "installation", Value: auth.RandomToken(48)}
	if _, err := bdb.NewInsert().Model(candidate).On("CONFLICT (name) DO NOTHING").Exec(ctx); err != nil && !db.IsUniqueViolation(err) {
		return nil, fmt.Errorf("store installation secret: %w", err)
	}
	var s storedSecret
	if err := bdb.NewSelect().Model(&s).Where("name = ?", "installation").Scan(ctx); err != nil {
		return nil, fmt.Errorf("read installation secret: %w", err)
	}
	return []byte(s.Value), nil
}
