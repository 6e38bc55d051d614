// Package nodes is the contract of the nodes module: applications, their
// nodes (tags, identified by DevEUI) with data keys and pictures, the pool of
// DevEUIs heard without a tag, integration tokens and the downlink queue
// (SPEC.md section 7 "Applications", "Tags", "Tag data", "Integration tokens"
// and "Downlinks"). Other modules use the Service interface and the events;
// the implementation lives in internal/.
//
// Downlinks are only queued here. Delivery is done by the ingest/downlink
// worker: it reads the queue with Service.Queued, hands each downlink to the
// network server of the tag's application (Service.Application,
// Service.TTSAPIKey) and records the outcome with Service.SetDownlinkStatus.
package nodes

import (
	"context"
	"time"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/tsdb"
	"github.com/fieldhub/fieldhub/modules/accounts"
	"github.com/fieldhub/fieldhub/modules/decoders"
	"github.com/fieldhub/fieldhub/modules/nodes/internal/core"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// Application groups a company's nodes and names their network server.
type Application = core.Application

// Tag is a node.
type Tag = core.Tag

// Key describes one data key of a tag.
type Key = core.Key

// PoolEntry is a DevEUI heard without a tag.
type PoolEntry = core.PoolEntry

// Token is an integration access token; only its hash is stored.
type Token = core.Token

// Downlink is a message queued for a node.
type Downlink = core.Downlink

// DownlinkAttempt is the outcome of one try of the downlink worker, for
// Service.RecordDownlinkAttempt.
type DownlinkAttempt = core.DownlinkAttempt

// State is what an uplink or a device status reports of a node, for
// Service.UpdateState.
type State = core.State

// TagState is the State of one tag, for Service.UpdateStates.
type TagState = core.TagState

// Events this module publishes.
type (
	TagCreated = core.TagCreated
	TagDeleted = core.TagDeleted
	// DownlinkCreated is published after a downlink is queued.
	DownlinkCreated = core.DownlinkCreated
)

// Network servers an application may name.
const (
	NetworkChirpStack = core.NetworkChirpStack
	NetworkTTS        = core.NetworkTTS
	NetworkGeneric    = core.NetworkGeneric
)

// Pool statuses.
const (
	PoolHidden = core.PoolHidden
	PoolShown  = core.PoolShown
	PoolTaken  = core.PoolTaken
)

// Downlink statuses.
const (
	DownlinkQueued       = core.DownlinkQueued
	DownlinkSent         = core.DownlinkSent
	DownlinkAcknowledged = core.DownlinkAcknowledged
	DownlinkFailed       = core.DownlinkFailed
)

// TokenPrefix starts every integration token.
const TokenPrefix = core.TokenPrefix

// NormaliseEUI strips spaces, dashes and colons from an EUI and upper-cases
// it, the form in which DevEUIs are stored.
func NormaliseEUI(s string) string { return core.NormaliseEUI(s) }

// Service is what other modules may ask of nodes. It is not scoped to a
// caller: the asking module decides who may see the answer. Lookups return
// an errs.NotFound error for an unknown id or DevEUI, and an errs.Invalid
// error for a DevEUI that is not 16 hexadecimal digits.
type Service interface {
	// Tag returns a tag by id, its AppKey opened.
	Tag(ctx context.Context, id int64) (*Tag, error)
	// TagByDevEUI returns the tag of a DevEUI given in any accepted spelling
	// (case, spaces, dashes and colons do not matter).
	TagByDevEUI(ctx context.Context, deveui string) (*Tag, error)
	// TagsByDevEUI returns the tags of many DevEUIs, each as TagByDevEUI
	// returns it, in one query: keyed by DevEUI as tags spell it (upper
	// case, NormaliseEUI). A DevEUI without a tag, or one that is not a
	// DevEUI, is absent from the map; that is not an error.
	TagsByDevEUI(ctx context.Context, deveuis []string) (map[string]*Tag, error)
	// CachedTagsByDevEUI is TagsByDevEUI from memory, for the ingest: each
	// tag's identity, decoder and keys are as committed when the call
	// began, on any instance, but its state (latest data and time,
	// battery, signal, alarm) and AppKey are empty. The tags are shared:
	// callers must not change them.
	CachedTagsByDevEUI(ctx context.Context, deveuis []string) (map[string]*Tag, error)
	// TagKeys lists the registered data keys of a tag with their labels,
	// units and default flag, by key. An unknown tag has none.
	TagKeys(ctx context.Context, tagID int64) ([]Key, error)
	// CompanyTags lists the tags of a company, by name.
	CompanyTags(ctx context.Context, companyID int64) ([]*Tag, error)
	// DecoderNodes lists the tags of a company whose decoder is key, by
	// name (the decoders module's delete check and re-decode job).
	DecoderNodes(ctx context.Context, companyID int64, key string) ([]decoders.NodeRef, error)
	// Application returns an application by id.
	Application(ctx context.Context, id int64) (*Application, error)
	// TTSAPIKey returns the opened The Things Stack API key of an
	// application, "" when none is stored.
	TTSAPIKey(ctx context.Context, applicationID int64) (string, error)
	// AddToPool records a DevEUI heard without a tag (source names where
	// from, such as "chirpstack"), or notes that it was heard again. A
	// DevEUI that has a tag is left alone.
	AddToPool(ctx context.Context, deveui, source string) error
	// EnsureKeys registers the data keys of a tag that are not known yet;
	// malformed key names are skipped.
	EnsureKeys(ctx context.Context, tagID int64, keys []string) error
	// EnsureKeysOfTags is EnsureKeys for many tags (keys by tag id) in one
	// statement; tags that do not exist (any more) are skipped.
	EnsureKeysOfTags(ctx context.Context, keys map[int64][]string) error
	// UpdateState records what a node reported: with State.Time, its
	// latest time and data (unless the node already reported something
	// newer); battery, RSSI and VDD when given. An unknown tag is not an
	// error.
	UpdateState(ctx context.Context, tagID int64, s State) error
	// UpdateStates is UpdateState for many tags, in one statement; the
	// states of a tag that comes more than once apply in the order given.
	UpdateStates(ctx context.Context, states []TagState) error
	// TokenCompany returns the company of a presented integration token. An
	// unknown or deleted token is an errs.Unauthorized error. Tokens are
	// kept in memory for a few seconds, so a token deleted through another
	// instance may still be taken for that long.
	TokenCompany(ctx context.Context, token string) (companyID int64, err error)
	// ApplicationsByChirpStackID returns the applications that name a
	// ChirpStack application id (in any case), oldest first; several
	// companies may name the same one. None is an empty list, not an error.
	ApplicationsByChirpStackID(ctx context.Context, chirpstackID string) ([]Application, error)
	// Queued returns up to limit queued downlinks (at most 1000) that are
	// due: never tried, or past the RetryAt of their last try. Oldest
	// first. Given network servers (NetworkChirpStack, ...), only the
	// downlinks of applications that name one of them.
	Queued(ctx context.Context, limit int, networkServers ...string) ([]Downlink, error)
	// Downlink returns a downlink by id, with its tag's DevEUI and company.
	Downlink(ctx context.Context, id int64) (*Downlink, error)
	// SetDownlinkStatus records what became of a downlink: DownlinkSent,
	// DownlinkAcknowledged (the device confirmed it), DownlinkFailed
	// (detail says why) or DownlinkQueued again (its attempts start over).
	SetDownlinkStatus(ctx context.Context, id int64, status, detail string) error
	// RecordDownlinkAttempt counts one try of the downlink worker and, if
	// the downlink is still queued, records the outcome: DownlinkSent,
	// DownlinkFailed, or DownlinkQueued to try again at RetryAt. An
	// unknown id is an errs.NotFound error, another status errs.Invalid.
	RecordDownlinkAttempt(ctx context.Context, id int64, a DownlinkAttempt) error
}

// Module is the nodes module as the kernel and main.go see it.
type Module interface {
	kernel.Module
	kernel.Router
	Service
}

// Decoders is the list of device decoders a tag of a company may name
// (SPEC.md section 3 "Decoder list"): the built-in ones and the company's
// own. Has reports whether key is one of them; Catalog lists them by name
// for the tag forms, without the empty prompt. A Catalog that fails or is
// empty means the list could not be read: the forms then say "Could not
// fetch decoders" and offer the built-in list.
type Decoders interface {
	Has(ctx context.Context, company int64, key string) (bool, error)
	Catalog(ctx context.Context, company int64) ([]decoders.Entry, error)
}

// Accounts is the part of accounts.Service that nodes uses: whether a
// company exists. It returns an errs.NotFound error for an unknown id.
type Accounts interface {
	Company(ctx context.Context, id int64) (*accounts.Company, error)
}

// Series is the part of tsdb.Store that nodes reads: the stored values
// the node details page and the tag data API show (points, trends, latest
// values) and the counts of data points. The methods return what tsdb.Store
// documents.
type Series interface {
	Range(ctx context.Context, s tsdb.Series, from, to time.Time, maxPoints int) ([]tsdb.Point, error)
	Latest(ctx context.Context, s tsdb.Series) (tsdb.Point, bool, error)
	Aggregate(ctx context.Context, s tsdb.Series, from, to time.Time, bucket time.Duration) ([]tsdb.Bucket, error)
	Count(ctx context.Context, company int64, from, to time.Time) (int64, error)
	CountByNode(ctx context.Context, company int64, from, to time.Time) (map[string]int64, error)
}

// Deps is what the nodes module needs from the rest of the portal.
type Deps struct {
	// Accounts tells whether a company exists. Required; the accounts
	// module satisfies it.
	Accounts Accounts
	// Decoders validates the decoder key of a tag and lists the decoders.
	// Required; the decoders module satisfies it.
	Decoders Decoders
	// UI draws the pages of applications, nodes, the node pool and
	// integration tokens. Optional: without it the module serves its API
	// alone (as in its own tests).
	UI *ui.Env
	// Series reads the stored values a node's details page shows, and
	// serves the tag data API. Optional: without it the page shows the
	// latest reported values only, the tag data routes are not served and
	// dataPoints24h stays 0.
	Series Series
}

// New builds the module. It panics when a required dependency is missing,
// so that a wiring mistake in main.go stops the program at start.
func New(host *kernel.Host, deps Deps) Module {
	if deps.Accounts == nil || deps.Decoders == nil {
		panic("nodes.New: Deps.Accounts and Deps.Decoders are required")
	}
	return core.New(host, core.Deps{Accounts: deps.Accounts, Decoders: deps.Decoders, UI: deps.UI, Series: deps.Series})
}
