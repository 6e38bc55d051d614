package store

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/modules/decoders"
)

// PutVendor adds or replaces vendor v (without its models).
func PutVendor(ctx context.Context, idb bun.IDB, v *decoders.Vendor) error {
	_, err := idb.NewInsert().Model(v).On("CONFLICT (id) DO UPDATE").
		Set("name = EXCLUDED.name, website = EXCLUDED.website, logo = EXCLUDED.logo, imported_at = EXCLUDED.imported_at").Exec(ctx)
	if err != nil {
		return fmt.Errorf("store vendor %s: %w", v.ID, err)
	}
	return nil
}

// ReplaceModels makes models the device models of vendor: those the import
// no longer lists go.
func ReplaceModels(ctx context.Context, idb bun.IDB, vendor string, models []decoders.DeviceModel) error {
	if _, err := idb.NewDelete().Model((*decoders.DeviceModel)(nil)).Where("vendor_id = ?", vendor).Exec(ctx); err != nil {
		return fmt.Errorf("clear the models of vendor %s: %w", vendor, err)
	}
	if len(models) == 0 {
		return nil
	}
	if _, err := idb.NewInsert().Model(&models).Exec(ctx); err != nil {
		return fmt.Errorf("store the models of vendor %s: %w", vendor, err)
	}
	return nil
}

// Vendors lists the vendors by name, with their models by name.
func Vendors(ctx context.Context, idb bun.IDB) ([]decoders.Vendor, error) {
	vendors := []decoders.Vendor{}
	if err := idb.NewSelect().Model(&vendors).OrderExpr("lower(name), id").Scan(ctx); err != nil {
		return nil, fmt.Errorf("list vendors: %w", err)
	}
	var models []decoders.DeviceModel
	if err := idb.NewSelect().Model(&models).OrderExpr("lower(name), model_id").Scan(ctx); err != nil {
		return nil, fmt.Errorf("list device models: %w", err)
	}
	at := map[string]int{}
	for i, v := range vendors {
		at[v.ID] = i
	}
	for _, m := range models {
		if i, ok := at[m.VendorID]; ok {
			vendors[i].Models = append(vendors[i].Models, m)
		}
	}
	return vendors, nil
}

// DeviceCodec loads the codec of key with its active version (with source);
// found is false for an unknown key.
func DeviceCodec(ctx context.Context, idb bun.IDB, key string) (c *decoders.DeviceCodec, found bool, err error) {
	c = new(decoders.DeviceCodec)
	err = idb.NewSelect().Model(c).Where("key = ?", key).Scan(ctx)
	if db.IsNoRows(err) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("load codec %s: %w", key, err)
	}
	v := new(decoders.CodecVersion)
	err = idb.NewSelect().Model(v).Where("codec_id = ? AND active", c.ID).Scan(ctx)
	if db.IsNoRows(err) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("load the active version of codec %s: %w", key, err)
	}
	c.Active = v
	return c, true, nil
}

// DeviceCodecs lists the imported codecs by key with their active
// versions, without source.
func DeviceCodecs(ctx context.Context, idb bun.IDB) ([]decoders.DeviceCodec, error) {
	codecs := []decoders.DeviceCodec{}
	err := idb.NewSelect().Model(&codecs).ColumnExpr("dc.*").
		ColumnExpr("(SELECT v.name FROM device_vendors v WHERE v.id = dc.vendor_id) AS vendor_name").
		OrderExpr("dc.key").Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("list codecs: %w", err)
	}
	var versions []decoders.CodecVersion
	err = idb.NewSelect().Model(&versions).ExcludeColumn("source").Where("active").Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("list codec versions: %w", err)
	}
	byCodec := map[int64]*decoders.CodecVersion{}
	for i := range versions {
		byCodec[versions[i].CodecID] = &versions[i]
	}
	for i := range codecs {
		codecs[i].Active = byCodec[codecs[i].ID]
	}
	return codecs, nil
}

// CodecVersions lists codec id's versions, newest first, without source.
func CodecVersions(ctx context.Context, idb bun.IDB, id int64) ([]decoders.CodecVersion, error) {
	var list []decoders.CodecVersion
	if err := idb.NewSelect().Model(&list).ExcludeColumn("source").Where("codec_id = ?", id).OrderExpr("version DESC").Scan(ctx); err != nil {
		return nil, fmt.Errorf("list versions of codec %d: %w", id, err)
	}
	return list, nil
}

// InsertDeviceCodec adds c and sets its id.
func InsertDeviceCodec(ctx context.Context, idb bun.IDB, c *decoders.DeviceCodec) error {
	if _, err := idb.NewInsert().Model(c).Returning("id").Exec(ctx); err != nil {
		return fmt.Errorf("insert codec %s: %w", c.Key, err)
	}
	return nil
}

// AddCodecVersion adds v; when v is active, the codec's other versions are
// made inactive first.
func AddCodecVersion(ctx context.Context, idb bun.IDB, v *decoders.CodecVersion) error {
	if v.Active {
		if _, err := idb.NewUpdate().Model((*decoders.CodecVersion)(nil)).Set("active = ?", false).Where("codec_id = ?", v.CodecID).Exec(ctx); err != nil {
			return fmt.Errorf("deactivate the versions of codec %d: %w", v.CodecID, err)
		}
	}
	if _, err := idb.NewInsert().Model(v).Returning("id").Exec(ctx); err != nil {
		return fmt.Errorf("insert version %d of codec %d: %w", v.Version, v.CodecID, err)
	}
	_, err := idb.NewUpdate().Model((*decoders.DeviceCodec)(nil)).Set("updated_at = ?", v.ImportedAt).Where("id = ?", v.CodecID).Exec(ctx)
	if err != nil {
		return fmt.Errorf("touch codec %d: %w", v.CodecID, err)
	}
	return nil
}

// LatestCodecVersion is the number of codec id's newest version.
func LatestCodecVersion(ctx context.Context, idb bun.IDB, id int64) (int, error) {
	var n int
	err := idb.NewSelect().Model((*decoders.CodecVersion)(nil)).ColumnExpr("COALESCE(MAX(version), 0)").Where("codec_id = ?", id).Scan(ctx, &n)
	if err != nil {
		return 0, fmt.Errorf("newest version of codec %d: %w", id, err)
	}
	return n, nil
}

// DeviceModel loads model modelID of vendor vendorID; found is false when
// there is none.
func DeviceModel(ctx context.Context, idb bun.IDB, vendorID, modelID string) (m *decoders.DeviceModel, found bool, err error) {
	m = new(decoders.DeviceModel)
	err = idb.NewSelect().Model(m).Where("vendor_id = ? AND model_id = ?", vendorID, modelID).Scan(ctx)
	if db.IsNoRows(err) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("load device model %s/%s: %w", vendorID, modelID, err)
	}
	return m, true, nil
}
