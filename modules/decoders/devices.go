package decoders

import (
	"context"
	"io/fs"
	"strings"
	"time"

	"github.com/uptrace/bun"
)

// RepoPrefix starts the key of a codec imported from The Things Network's
// device repository (TheThingsNetwork/lorawan-devices):
// "ttn/<vendor id>/<codec id>", e.g. "ttn/milesight-iot/am308-codec". The
// key stays the same across imports; each import that changes the codec
// adds a version (see DeviceCodec).
const RepoPrefix = "ttn/"

// RepoKey is the decoder key of codec codecID of vendor vendorID.
func RepoKey(vendorID, codecID string) string { return RepoPrefix + vendorID + "/" + codecID }

// IsRepoKey reports whether key names an imported codec.
func IsRepoKey(key string) bool { return strings.HasPrefix(key, RepoPrefix) }

// DeviceImporter imports the device repository. The decoders module
// satisfies it; the command `fieldhub devices import` and the SuperAdmin
// page call it.
type DeviceImporter interface {
	// ImportDevices reads the repository in fsys (a checkout, its
	// vendor folder, or either under one top folder as archives hold
	// them: the vendor folder has index.yaml and one folder per vendor),
	// stores its vendors, device models and codecs, verifies each
	// codec against its examples in the sandbox and reports per codec.
	// A repository that cannot be read at all (no index.yaml) is an
	// errs.Invalid error with IDRepoIndex; a vendor, model or codec file
	// that does not parse is reported in ImportReport.Problems and left
	// out, the rest imported.
	ImportDevices(ctx context.Context, fsys fs.FS) (*ImportReport, error)
	// DeviceCatalog lists the imported vendors with their models, and
	// the imported codecs with their active version's results.
	DeviceCatalog(ctx context.Context) (*DeviceCatalog, error)
	// DeviceModel is one imported model, by its vendor's id and its own
	// (the ids stay across imports), for a device profile made from it;
	// an unknown one is an errs.NotFound error.
	DeviceModel(ctx context.Context, vendorID, modelID string) (*DeviceModel, error)
}

// Encoder encodes a downlink's JSON object into bytes with the encoder of
// a node's decoder (encodeDownlink of a codec that has one).
type Encoder interface {
	// EncodeDownlink encodes data with the codec that key names for
	// company. A key whose codec has no encoder is an errs.Invalid error
	// with IDNoEncoder; the codec's own errors (or its failure) are an
	// errs.Invalid error with IDEncodeFailed and the errors as "errors".
	EncodeDownlink(ctx context.Context, company int64, key string, fPort int, data map[string]any) (*Encoded, error)
}

// Encoded is what an encoder made of a downlink.
type Encoded struct {
	Bytes    []byte   `json:"bytes"`
	FPort    int      `json:"fPort"`
	Warnings []string `json:"warnings"`
}

// Vendor is a vendor of the device repository, a row of device_vendors.
type Vendor struct {
	bun.BaseModel `bun:"table:device_vendors,alias:dvn" json:"-"`

	ID         string    `bun:"id,pk" json:"id"`
	Name       string    `bun:"name" json:"name"`
	Website    string    `bun:"website" json:"website,omitempty"`
	Logo       string    `bun:"logo" json:"logo,omitempty"`
	ImportedAt time.Time `bun:"imported_at" json:"importedAt"`

	Models []DeviceModel `bun:"-" json:"models,omitempty"`
}

// DeviceModel is a device model of the repository, a row of
// device_models: what a device profile can later be made from.
type DeviceModel struct {
	bun.BaseModel `bun:"table:device_models,alias:dm" json:"-"`

	ID          int64  `bun:"id,pk,autoincrement" json:"-"`
	VendorID    string `bun:"vendor_id" json:"vendorId"`
	ModelID     string `bun:"model_id" json:"id"`
	Name        string `bun:"name" json:"name"`
	Description string `bun:"description" json:"description"`
	// Picture is the link to the model's main photo in the published
	// repository (raw.githubusercontent.com/.../vendor/<vendor>/<file>),
	// empty when it has none.
	Picture          string            `bun:"picture" json:"picture,omitempty"`
	FirmwareVersions []FirmwareVersion `bun:"firmware_versions,type:text" json:"firmwareVersions"`
	ImportedAt       time.Time         `bun:"imported_at" json:"importedAt"`
}

// FirmwareVersion is one firmware version of a model with its profiles.
type FirmwareVersion struct {
	Version  string          `json:"version"`
	Profiles []RegionProfile `json:"profiles"`
}

// RegionProfile is a model's LoRaWAN profile in one region, with the codec
// that decodes it (Codec: the codec id; DecoderKey: its key, empty when the
// codec is not in the repository).
type RegionProfile struct {
	Region     string `json:"region"`
	ProfileID  string `json:"profileId"`
	Codec      string `json:"codec,omitempty"`
	DecoderKey string `json:"decoderKey,omitempty"`
}

// DeviceCodec is an imported codec, a row of device_codecs: installation-
// wide, usable by the nodes of every company under its Key.
type DeviceCodec struct {
	bun.BaseModel `bun:"table:device_codecs,alias:dc" json:"-"`

	ID       int64  `bun:"id,pk,autoincrement" json:"-"`
	Key      string `bun:"key" json:"key"`
	VendorID string `bun:"vendor_id" json:"vendorId"`
	CodecID  string `bun:"codec_id" json:"codecId"`
	// VendorName is the vendor's name (as last imported) in lists.
	VendorName string    `bun:"vendor_name,scanonly" json:"vendorName,omitempty"`
	CreatedAt  time.Time `bun:"created_at" json:"createdAt"`
	UpdatedAt  time.Time `bun:"updated_at" json:"updatedAt"`

	// Active is the version that decodes (scanned with it).
	Active *CodecVersion `bun:"-" json:"active,omitempty"`
}

// CodecVersion is one imported version of a codec, a row of
// device_codec_versions. Every version is kept, like a company's own
// decoder's; exactly one is active.
type CodecVersion struct {
	bun.BaseModel `bun:"table:device_codec_versions,alias:dcv" json:"-"`

	ID      int64  `bun:"id,pk,autoincrement" json:"-"`
	CodecID int64  `bun:"codec_id" json:"-"`
	Version int    `bun:"version" json:"version"`
	Source  string `bun:"source" json:"-"`
	Hash    string `bun:"hash" json:"hash"`
	// Encoder tells that the codec has encodeDownlink.
	Encoder bool `bun:"encoder" json:"encoder"`
	// Passed and Failed count its examples; Results says per example.
	Passed     int             `bun:"passed" json:"passed"`
	Failed     int             `bun:"failed" json:"failed"`
	Results    []ExampleResult `bun:"results,type:text" json:"results"`
	Active     bool            `bun:"active" json:"active"`
	ImportedAt time.Time       `bun:"imported_at" json:"importedAt"`
}

// Failing tells that a codec version disagrees with one of its examples at
// least: such a codec is imported and shown as failing, never hidden.
func (v *CodecVersion) Failing() bool { return v.Failed > 0 }

// ExampleResult is the outcome of one of a codec's examples.
type ExampleResult struct {
	// Kind is "uplink" (uplinkDecoder's examples) or "downlink"
	// (downlinkEncoder's).
	Kind        string `json:"kind"`
	Description string `json:"description"`
	Passed      bool   `json:"passed"`
	// Problem says how the codec's answer differs, when it does.
	Problem string `json:"problem,omitempty"`
}

// The outcomes of a codec in an import.
const (
	CodecCreated   = "created"   // a new codec, version 1
	CodecUpdated   = "updated"   // a new version, now active
	CodecUnchanged = "unchanged" // the same source as the active version
	// CodecKept: a new version that fails examples the active version
	// passes is kept but not activated, so nodes go on decoding as before.
	CodecKept = "kept"
)

// ImportReport is what an import did.
type ImportReport struct {
	Vendors  int           `json:"vendors"`
	Models   int           `json:"models"`
	Codecs   []CodecReport `json:"codecs"`
	Passed   int           `json:"passed"`
	Failed   int           `json:"failed"`
	Problems []string      `json:"problems"`
	Duration time.Duration `json:"-"`
	Millis   int64         `json:"millis"`
}

// FailingCodecs counts the codecs that failed an example at least.
func (r *ImportReport) FailingCodecs() int {
	n := 0
	for _, c := range r.Codecs {
		if c.Failed > 0 {
			n++
		}
	}
	return n
}

// CodecReport is one codec's line of an import report.
type CodecReport struct {
	Key     string `json:"key"`
	Version int    `json:"version"`
	Outcome string `json:"outcome"`
	Passed  int    `json:"passed"`
	Failed  int    `json:"failed"`
	Encoder bool   `json:"encoder"`
	// Problems are the failed examples' descriptions and differences.
	Problems []string `json:"problems,omitempty"`
}

// DeviceCatalog is the answer of GET /api/devices.
type DeviceCatalog struct {
	Vendors []Vendor      `json:"vendors"`
	Codecs  []DeviceCodec `json:"codecs"`
}
