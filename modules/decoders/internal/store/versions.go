package store

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/decoders"
)

// Versions lists a decoder's versions, newest first, without content.
func Versions(ctx context.Context, idb bun.IDB, decoderID int64) ([]decoders.Version, error) {
	list := []decoders.Version{}
	err := idb.NewSelect().Model(&list).ExcludeColumn("source", "module").
		Where("decoder_id = ?", decoderID).Order("version DESC").Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("list versions of decoder %d: %w", decoderID, err)
	}
	return list, nil
}

// Version loads version number of a decoder with its content; an unknown
// one is an errs.NotFound error with message decoders.IDVersionUnknown.
func Version(ctx context.Context, idb bun.IDB, decoderID int64, number int) (*decoders.Version, error) {
	v := new(decoders.Version)
	err := idb.NewSelect().Model(v).Where("decoder_id = ? AND version = ?", decoderID, number).Scan(ctx)
	if db.IsNoRows(err) {
		return nil, errs.New(errs.NotFound, decoders.IDVersionUnknown).With("version", number)
	}
	if err != nil {
		return nil, fmt.Errorf("load version %d of decoder %d: %w", number, decoderID, err)
	}
	return v, nil
}

// AddVersion stores v as the decoder's next version, active when activate
// is set (then the only active one), and touches the decoder.
func AddVersion(ctx context.Context, tx bun.IDB, v *decoders.Version, activate bool) error {
	var last int
	if err := tx.NewSelect().Model((*decoders.Version)(nil)).ColumnExpr("COALESCE(MAX(version), 0)").
		Where("decoder_id = ?", v.DecoderID).Scan(ctx, &last); err != nil {
		return fmt.Errorf("number the version of decoder %d: %w", v.DecoderID, err)
	}
	v.Version = last + 1
	v.CreatedAt = time.Now().UTC()
	if activate {
		if _, err := tx.NewUpdate().Model((*decoders.Version)(nil)).Set("active = FALSE").Where("decoder_id = ?", v.DecoderID).Exec(ctx); err != nil {
			return fmt.Errorf("deactivate versions of decoder %d: %w", v.DecoderID, err)
		}
		v.Active = true
	}
	if _, err := tx.NewInsert().Model(v).Returning("id").Exec(ctx); err != nil {
		if db.IsUniqueViolation(err) { // another version was added at the same time
			return errs.New(errs.Conflict, errs.IDGeneric).Wrap(err)
		}
		return fmt.Errorf("insert version of decoder %d: %w", v.DecoderID, err)
	}
	_, err := tx.NewUpdate().Model((*decoders.Decoder)(nil)).Set("updated_at = ?", v.CreatedAt).Where("id = ?", v.DecoderID).Exec(ctx)
	if err != nil {
		return fmt.Errorf("touch decoder %d: %w", v.DecoderID, err)
	}
	return nil
}

// Activate makes version number the decoder's only active one and touches
// the decoder; run it in a transaction.
func Activate(ctx context.Context, tx bun.IDB, decoderID int64, number int) error {
	if _, err := tx.NewUpdate().Model((*decoders.Version)(nil)).Set("active = (version = ?)", number).Where("decoder_id = ?", decoderID).Exec(ctx); err != nil {
		return fmt.Errorf("activate version %d of decoder %d: %w", number, decoderID, err)
	}
	_, err := tx.NewUpdate().Model((*decoders.Decoder)(nil)).Set("updated_at = ?", time.Now().UTC()).Where("id = ?", decoderID).Exec(ctx)
	return err
}

// ActiveRow is what the codec cache reads of a decoder and its active
// version.
type ActiveRow struct {
	CompanyID         int64      `bun:"company_id"`
	Kind              string     `bun:"kind"`
	Name              string     `bun:"name"`
	SwitchedOffAt     *time.Time `bun:"switched_off_at"`
	SwitchedOffReason string     `bun:"switched_off_reason"`
	VersionID         int64      `bun:"version_id"`
	Hash              string     `bun:"hash"`
}

// Active reads decoder id's company, kind, name, switch-off and active
// version; found is false when there is no such decoder.
func Active(ctx context.Context, idb bun.IDB, id int64) (row ActiveRow, found bool, err error) {
	err = idb.NewRaw(`SELECT d.company_id, d.kind, d.name, d.switched_off_at, d.switched_off_reason, v.id AS version_id, v.hash
		FROM decoders d JOIN decoder_versions v ON v.decoder_id = d.id AND v.active WHERE d.id = ?`, id).Scan(ctx, &row)
	if db.IsNoRows(err) {
		return row, false, nil
	}
	if err != nil {
		return row, false, fmt.Errorf("load decoder %d: %w", id, err)
	}
	return row, true, nil
}

// Content reads a version's source and module by the version's row id.
func Content(ctx context.Context, idb bun.IDB, decoderID, versionID int64) (source string, module []byte, err error) {
	var v decoders.Version
	if err := idb.NewSelect().Model(&v).Column("source", "module").Where("id = ?", versionID).Scan(ctx); err != nil {
		return "", nil, fmt.Errorf("load version %d of decoder %d: %w", versionID, decoderID, err)
	}
	return v.Source, v.Module, nil
}

// SwitchOff switches decoder id off at at for reason, unless it is off
// already or its active version is no longer the one of hash (a new one
// was activated meanwhile); done tells whether this call switched it off.
func SwitchOff(ctx context.Context, idb bun.IDB, id int64, hash string, at time.Time, reason string) (done bool, err error) {
	res, err := idb.NewUpdate().Model((*decoders.Decoder)(nil)).
		Set("switched_off_at = ?, switched_off_reason = ?", at, reason).
		Where("id = ? AND switched_off_at IS NULL", id).
		Where("EXISTS (SELECT 1 FROM decoder_versions v WHERE v.decoder_id = ? AND v.active AND v.hash = ?)", id, hash).
		Exec(ctx)
	if err != nil {
		return false, fmt.Errorf("switch off decoder %d: %w", id, err)
	}
	n, err := res.RowsAffected()
	return n > 0, err
}

// SwitchOn switches decoder id on again (it may be on already).
func SwitchOn(ctx context.Context, idb bun.IDB, id int64) error {
	_, err := idb.NewUpdate().Model((*decoders.Decoder)(nil)).
		Set("switched_off_at = NULL, switched_off_reason = ''").Where("id = ?", id).Exec(ctx)
	if err != nil {
		return fmt.Errorf("switch on decoder %d: %w", id, err)
	}
	return nil
}
