package decoding

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/sandbox"
	"github.com/fieldhub/fieldhub/modules/decoders"
	"github.com/fieldhub/fieldhub/modules/decoders/internal/devrepo"
	"github.com/fieldhub/fieldhub/modules/decoders/internal/store"
)

// ImportDevices imports the device repository whose vendor folder is
// vendorDir; see decoders.DeviceImporter. The codecs are verified on an
// engine of the import's own, so that an import (from the command line, or
// while the portal decodes) neither needs the portal's sandbox nor slows
// its uplinks' codecs.
func (s *Service) ImportDevices(ctx context.Context, vendorDir fs.FS) (*decoders.ImportReport, error) {
	s.importing.Lock()
	defer s.importing.Unlock()
	t0 := time.Now()
	vendorDir, ok := devrepo.Locate(vendorDir)
	if !ok {
		return nil, errs.New(errs.Invalid, decoders.IDRepoIndex)
	}
	repo, err := devrepo.Read(vendorDir)
	if err != nil {
		return nil, errs.New(errs.Invalid, decoders.IDRepoIndex).Wrap(err)
	}
	e, err := sandbox.New(context.WithoutCancel(ctx), sandbox.Options{Limits: s.limits, Logger: s.log})
	if err != nil {
		return nil, errs.New(errs.Unavailable, decoders.IDNotStarted).Wrap(err)
	}
	defer e.Close()
	report := &decoders.ImportReport{Codecs: []decoders.CodecReport{}, Problems: append([]string{}, repo.Problems...)}
	now := time.Now().UTC()
	verified := make([]verifiedCodec, 0, len(repo.Codecs))
	known := map[string]bool{}
	for i := range repo.Codecs {
		c := &repo.Codecs[i]
		key := decoders.RepoKey(c.Vendor, c.ID)
		if len(key) > 64 {
			report.Problems = append(report.Problems, fmt.Sprintf("%s: the key is longer than 64 characters; not imported", key))
			continue
		}
		results, encoder, err := devrepo.Verify(ctx, e, c, s.limits)
		if err != nil {
			return nil, fmt.Errorf("verify codec %s: %w", key, err)
		}
		known[key] = true
		verified = append(verified, verifiedCodec{codec: c, key: key, results: results, encoder: encoder})
	}
	err = s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		for _, v := range repo.Vendors {
			if err := store.PutVendor(ctx, tx, &decoders.Vendor{ID: v.ID, Name: v.Name, Website: v.Website, Logo: v.Logo, ImportedAt: now}); err != nil {
				return err
			}
			models := make([]decoders.DeviceModel, 0, len(v.Models))
			for _, m := range v.Models {
				models = append(models, deviceModel(v.ID, m, known, now))
			}
			if err := store.ReplaceModels(ctx, tx, v.ID, models); err != nil {
				return err
			}
			report.Vendors++
			report.Models += len(models)
		}
		for _, v := range verified {
			line, err := storeCodec(ctx, tx, v, now)
			if err != nil {
				return err
			}
			report.Codecs = append(report.Codecs, line)
			report.Passed += line.Passed
			report.Failed += line.Failed
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, v := range verified {
		s.codecs.dropRepo(v.key)
	}
	report.Duration = time.Since(t0)
	report.Millis = report.Duration.Milliseconds()
	s.log.Info("device repository imported", "vendors", report.Vendors, "models", report.Models, "codecs", len(report.Codecs),
		"examples_passed", report.Passed, "examples_failed", report.Failed, "took", report.Duration.String())
	return report, nil
}

type verifiedCodec struct {
	codec   *devrepo.Codec
	key     string
	results []decoders.ExampleResult
	encoder bool
}

func deviceModel(vendor string, m devrepo.Model, known map[string]bool, now time.Time) decoders.DeviceModel {
	dm := decoders.DeviceModel{VendorID: vendor, ModelID: m.ID, Name: m.Name, Description: m.Description, Picture: m.Picture,
		FirmwareVersions: []decoders.FirmwareVersion{}, ImportedAt: now}
	for _, f := range m.Firmware {
		fv := decoders.FirmwareVersion{Version: f.Version, Profiles: []decoders.RegionProfile{}}
		for _, p := range f.Profiles {
			rp := decoders.RegionProfile{Region: p.Region, ProfileID: p.ID, Codec: p.Codec}
			if p.Codec != "" && known[decoders.RepoKey(vendor, p.Codec)] {
				rp.DecoderKey = decoders.RepoKey(vendor, p.Codec)
			}
			fv.Profiles = append(fv.Profiles, rp)
		}
		dm.FirmwareVersions = append(dm.FirmwareVersions, fv)
	}
	return dm
}

// storeCodec stores one verified codec: a new codec, a new version (active
// unless it fails examples while the active one passes them all, so that
// the nodes using it go on decoding as before), or nothing when the source
// did not change.
func storeCodec(ctx context.Context, tx bun.IDB, v verifiedCodec, now time.Time) (decoders.CodecReport, error) {
	sum := sha256.Sum256([]byte(v.codec.Source))
	hash := hex.EncodeToString(sum[:])
	ver := &decoders.CodecVersion{Source: v.codec.Source, Hash: hash, Encoder: v.encoder, Results: v.results, ImportedAt: now, Active: true}
	for _, r := range v.results {
		if r.Passed {
			ver.Passed++
		} else {
			ver.Failed++
		}
	}
	line := decoders.CodecReport{Key: v.key, Passed: ver.Passed, Failed: ver.Failed, Encoder: v.encoder}
	for _, r := range v.results {
		if !r.Passed {
			line.Problems = append(line.Problems, fmt.Sprintf("%s example %q: %s", r.Kind, r.Description, r.Problem))
		}
	}
	have, found, err := store.DeviceCodec(ctx, tx, v.key)
	if err != nil {
		return line, err
	}
	switch {
	case !found:
		c := &decoders.DeviceCodec{Key: v.key, VendorID: v.codec.Vendor, CodecID: v.codec.ID, CreatedAt: now, UpdatedAt: now}
		if err := store.InsertDeviceCodec(ctx, tx, c); err != nil {
			return line, err
		}
		ver.CodecID, ver.Version, line.Outcome = c.ID, 1, decoders.CodecCreated
	case have.Active.Hash == hash:
		line.Version, line.Outcome = have.Active.Version, decoders.CodecUnchanged
		line.Passed, line.Failed = have.Active.Passed, have.Active.Failed
		return line, nil
	default:
		n, err := store.LatestCodecVersion(ctx, tx, have.ID)
		if err != nil {
			return line, err
		}
		ver.CodecID, ver.Version, line.Outcome = have.ID, n+1, decoders.CodecUpdated
		if ver.Failed > 0 && have.Active.Failed == 0 {
			ver.Active, line.Outcome = false, decoders.CodecKept
		}
	}
	line.Version = ver.Version
	return line, store.AddCodecVersion(ctx, tx, ver)
}

// DeviceCatalog lists the imported vendors, models and codecs.
func (s *Service) DeviceCatalog(ctx context.Context) (*decoders.DeviceCatalog, error) {
	vendors, err := store.Vendors(ctx, s.db)
	if err != nil {
		return nil, err
	}
	codecs, err := store.DeviceCodecs(ctx, s.db)
	if err != nil {
		return nil, err
	}
	return &decoders.DeviceCatalog{Vendors: vendors, Codecs: codecs}, nil
}

// DeviceModel loads one imported model; see decoders.DeviceImporter.
func (s *Service) DeviceModel(ctx context.Context, vendorID, modelID string) (*decoders.DeviceModel, error) {
	m, found, err := store.DeviceModel(ctx, s.db, vendorID, modelID)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, errs.New(errs.NotFound, errs.IDNotFound)
	}
	return m, nil
}

// DeviceDetails is one model of the catalog with its vendor and the codecs
// its profiles name; an unknown model is an errs.NotFound error.
func (s *Service) DeviceDetails(ctx context.Context, vendorID, modelID string) (*decoders.DeviceDetails, error) {
	cat, err := s.DeviceCatalog(ctx)
	if err != nil {
		return nil, err
	}
	for _, v := range cat.Vendors {
		if v.ID != vendorID {
			continue
		}
		for _, m := range v.Models {
			if m.ModelID != modelID {
				continue
			}
			d := &decoders.DeviceDetails{Vendor: v, Model: m, Codecs: []decoders.DeviceCodec{}}
			d.Vendor.Models = nil
			for _, k := range m.DecoderKeys() {
				if c := cat.Codec(k); c != nil {
					d.Codecs = append(d.Codecs, *c)
				}
			}
			return d, nil
		}
	}
	return nil, errs.New(errs.NotFound, errs.IDNotFound)
}

// repoCodec returns the active version of the imported codec key, from the
// cache while its check is recent. Imported codecs are every company's.
func (s *Service) repoCodec(ctx context.Context, key string) (*loaded, error) {
	s.codecs.mu.Lock()
	l := s.codecs.repo[key]
	s.codecs.mu.Unlock()
	if l != nil && time.Since(l.checked) < customCheck {
		return l, nil
	}
	c, found, err := store.DeviceCodec(ctx, s.db, key)
	if err != nil {
		return nil, err
	}
	if !found {
		s.codecs.dropRepo(key)
		return nil, errUnknown(key)
	}
	var fresh *loaded
	if l != nil && l.hash == c.Active.Hash {
		fresh = &loaded{codec: l.codec, fail: l.fail}
	} else {
		e := s.engine.Load()
		if e == nil {
			return nil, errNotStarted()
		}
		if fresh, err = load(ctx, e, decoders.KindJS, []byte(c.Active.Source), false); err != nil {
			return nil, err
		}
	}
	fresh.name, fresh.hash, fresh.checked = key, c.Active.Hash, time.Now()
	fresh.touch()
	s.codecs.mu.Lock()
	s.codecs.repo[key] = fresh
	s.codecs.mu.Unlock()
	return fresh, nil
}

// hasRepoCodec tells whether key names an imported codec.
func (s *Service) hasRepoCodec(ctx context.Context, key string) (bool, error) {
	_, found, err := store.DeviceCodec(ctx, s.db, key)
	return found, err
}

// repoEntries lists the imported codecs for the decoder choice, named
// "<vendor name>: <codec id>" (product names, like the built-in ones) and,
// when failing, marked so.
func (s *Service) repoEntries(ctx context.Context) ([]decoders.Entry, error) {
	codecs, err := store.DeviceCodecs(ctx, s.db)
	if err != nil {
		return nil, err
	}
	list := make([]decoders.Entry, 0, len(codecs))
	for _, c := range codecs {
		vendor := c.VendorName
		if vendor == "" {
			vendor = c.VendorID
		}
		e := decoders.Entry{Key: c.Key, Name: vendor + ": " + c.CodecID, Repo: true}
		if c.Active != nil && c.Active.Failed > 0 {
			e.Failing = true
		}
		list = append(list, e)
	}
	return list, nil
}

// MaxArchive bounds an uploaded archive of the repository (a checkout of
// lorawan-devices with its photos is about 100 MiB packed).
const MaxArchive = 256 << 20

// ImportArchive imports the repository in an uploaded .tar.gz or .zip
// archive (of a checkout, or of its vendor folder); data that is no such
// archive is an errs.Invalid error with IDRepoArchive.
func (s *Service) ImportArchive(ctx context.Context, data []byte) (*decoders.ImportReport, error) {
	fsys, err := devrepo.OpenArchive(data)
	if err != nil {
		v := &errs.Validation{}
		v.Add("archive", decoders.IDRepoArchive)
		return nil, v.Err()
	}
	return s.ImportDevices(ctx, fsys)
}
