// Package profiles is the contract of the device profiles module: what a
// node of one device model gets when it is created, kept once per model.
// A profile belongs to a company (its Admins and CompanyAdmins keep it) or
// to the installation (a SuperAdmin's, company id 0 in the routes, usable
// by every company). It names a decoder (often an imported codec of the
// device repository, "ttn/<vendor>/<codec>", and then the model it came
// from), the labels and units of the keys and the default key, the
// expected uplink interval, alarm templates and a dashboard template.
//
// The nodes module asks it, through nodes.Profiles, to apply a profile to
// a node inside the transaction that creates the node: the node's decoder,
// keys and default key (nodes.Setups), a rule per alarm template
// (alarms.Templates) and a dashboard of the template's modules
// (Dashboards), and the node's profile is recorded. A changed profile is
// applied again to its nodes on request (POST /api/profiles/{id}/apply):
// the decoder, labels, units and default key, not the alarms and dashboard,
// which people may have changed since. docs/api/profiles.md describes the
// routes; package module builds the module, and the implementation lives
// in internal/.
package profiles

import (
	"context"
	"time"

	"github.com/uptrace/bun"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/modules/accounts"
	"github.com/fieldhub/fieldhub/modules/alarms"
	"github.com/fieldhub/fieldhub/modules/dashboards"
	"github.com/fieldhub/fieldhub/modules/decoders"
	"github.com/fieldhub/fieldhub/modules/nodes"
)

// Profile is a device profile, a row of device_profiles.
type Profile struct {
	bun.BaseModel `bun:"table:device_profiles,alias:dp" json:"-"`

	ID int64 `bun:"id,pk,autoincrement" json:"id"`
	// CompanyID is the company that keeps it; 0 (NULL in the table) is an
	// installation-wide profile.
	CompanyID int64  `bun:"company_id,nullzero" json:"companyId"`
	Name      string `bun:"name" json:"name"`
	// VendorID and ModelID name the device model of the repository it was
	// made from, empty when none.
	VendorID string `bun:"vendor_id" json:"vendorId"`
	ModelID  string `bun:"model_id" json:"modelId"`
	Decoder  string `bun:"decoder" json:"decoder"`
	// Keys are the labels and units of the node's keys; DefaultKey the key
	// its charts show first.
	Keys       []KeyLabel `bun:"key_labels,type:text" json:"keys"`
	DefaultKey string     `bun:"default_key" json:"defaultKey"`
	// UplinkInterval is how often a node sends, in seconds; 0 unknown.
	UplinkInterval int               `bun:"uplink_interval" json:"uplinkInterval"`
	Alarms         []alarms.Template `bun:"alarms,type:text" json:"alarms"`
	Dashboard      []DashboardModule `bun:"dashboard,type:text" json:"dashboard"`
	CreatedAt      time.Time         `bun:"created_at" json:"createdAt"`
	UpdatedAt      time.Time         `bun:"updated_at" json:"updatedAt"`

	// Nodes counts the nodes created with it (of the asking company, for
	// an installation-wide profile that a company reads).
	Nodes int `bun:"-" json:"nodes"`
}

// KeyLabel is a key of the profile's nodes with its label and unit.
type KeyLabel struct {
	Key   string `json:"key"`
	Label string `json:"label"`
	Unit  string `json:"unit"`
}

// DashboardModule is a module of the dashboard template: its type (the
// dashboards module's, such as dashboards.TypeChart), title, and the key
// of the node it shows.
type DashboardModule struct {
	Type   int    `json:"type"`
	Title  string `json:"title"`
	TagKey string `json:"tagKey"`
}

// Input is the body of the create and update routes.
type Input struct {
	Name           string            `json:"name"`
	VendorID       string            `json:"vendorId"`
	ModelID        string            `json:"modelId"`
	Decoder        string            `json:"decoder"`
	Keys           []KeyLabel        `json:"keys"`
	DefaultKey     string            `json:"defaultKey"`
	UplinkInterval int               `json:"uplinkInterval"`
	Alarms         []alarms.Template `json:"alarms"`
	Dashboard      []DashboardModule `json:"dashboard"`
}

// FromModel is the body of POST /api/profiles/from-model: the device
// model (vendor and model ids) and the company (0: installation-wide);
// Name, optional, replaces the model's.
type FromModel struct {
	CompanyID int64  `json:"companyId"`
	VendorID  string `json:"vendorId"`
	ModelID   string `json:"modelId"`
	Name      string `json:"name"`
}

// Applied is the answer of POST /api/profiles/{id}/apply and what an
// update answers beside the profile: how many nodes use the profile.
type Applied struct {
	Nodes int `json:"nodes"`
}

// Module is the profiles module as the kernel and the application see it.
type Module interface {
	kernel.Module
	kernel.Router
	nodes.Profiles
	nodes.ProfileChoices
}

// Nodes is what the module asks of the nodes module: setting a node up in
// the caller's transaction.
type Nodes interface {
	nodes.Setups
}

// Alarms makes a node's rules from the alarm templates; the alarms module
// satisfies it.
type Alarms interface {
	alarms.Templates
}

// Dashboards makes a node's dashboard from the dashboard template; the
// dashboards module satisfies it.
type Dashboards interface {
	SeedNode(ctx context.Context, idb bun.IDB, s dashboards.SeedDashboard, deveui string) (int64, bool, error)
}

// Decoders is what the module asks of the decoders module: whether a
// company may name a decoder, the decoders and the imported device models
// (the forms' lists, a profile made from a model).
type Decoders interface {
	Has(ctx context.Context, company int64, key string) (bool, error)
	Catalog(ctx context.Context, company int64) ([]decoders.Entry, error)
	DeviceCatalog(ctx context.Context) (*decoders.DeviceCatalog, error)
	DeviceModel(ctx context.Context, vendorID, modelID string) (*decoders.DeviceModel, error)
}

// Accounts tells whether a company exists (errs.NotFound when not).
type Accounts interface {
	Company(ctx context.Context, id int64) (*accounts.Company, error)
}

// Limits of a profile.
const (
	MaxName       = 255
	MaxKeys       = 100
	MaxAlarms     = 50
	MaxModules    = 50
	MaxInterval   = 7 * 24 * 3600
	DashboardName = "Devices" // the root category of the nodes' dashboards
)

// Message ids of the module; each is a key of the locale catalogs.
const (
	IDNameTaken       = "profiles.name.taken"
	IDDecoderUnknown  = "profiles.decoder.unknown"
	IDModelUnknown    = "profiles.model.unknown"
	IDModelNoCodec    = "profiles.model.noCodec"
	IDKeyInvalid      = "profiles.key.invalid"
	IDKeyTwice        = "profiles.key.twice"
	IDTextInvalid     = "profiles.text.invalid"
	IDIntervalInvalid = "profiles.interval.invalid"
	IDTooMany         = "profiles.tooMany"
	IDModuleType      = "profiles.module.type"
	IDCreated         = "profiles.created"
	IDUpdated         = "profiles.updated"
	IDDeleted         = "profiles.deleted"
	IDApplied         = "profiles.applied"
)

// Message ids of the audit trail: {name} is the profile's name.
const (
	AuditCreated = "audit.profile.created"
	AuditUpdated = "audit.profile.updated"
	AuditDeleted = "audit.profile.deleted"
)
