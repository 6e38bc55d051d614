// Package nodes is the contract of the nodes module: applications, their
// nodes (tags, identified by DevEUI) with data keys and pictures, the pool of
// DevEUIs heard without a tag, integration tokens and the downlink queue,
// with their JSON routes, the tag data API and their pages. Other modules
// use its role interfaces (Tags, States, Pool, Tokens, Applications,
// Downlinks) and its events; package module builds it, and the
// implementation lives in internal/.
//
// Downlinks are only queued here. Delivery is done by the ingest's downlink
// worker: it reads the queue with Downlinks.Queued, hands each downlink to
// the network server of the tag's application (Applications.Application,
// Applications.TTSAPIKey) and records the outcome with
// Downlinks.RecordDownlinkAttempt and Downlinks.SetDownlinkStatus.
//
// The roles are not scoped to a caller: the asking module decides who may
// see the answer. Lookups return an errs.NotFound error for an unknown id or
// DevEUI, and an errs.Invalid error for a DevEUI that is not 16 hexadecimal
// digits.
package nodes

import (
	"context"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/modules/decoders"
)

// Tags looks up tags: by id, by DevEUI, by company and by decoder.
type Tags interface {
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
}

// States records what nodes report: their state and the data keys of their
// uplinks, as the ingest stores them.
type States interface {
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
}

// Pool keeps the DevEUIs heard without a tag.
type Pool interface {
	// AddToPool records a DevEUI heard without a tag (source names where
	// from, such as "chirpstack"), or notes that it was heard again. A
	// DevEUI that has a tag is left alone.
	AddToPool(ctx context.Context, deveui, source string) error
}

// Tokens checks the integration tokens that network servers present.
type Tokens interface {
	// TokenCompany returns the company of a presented integration token. An
	// unknown or deleted token is an errs.Unauthorized error. Tokens are
	// kept in memory for a few seconds, so a token deleted through another
	// instance may still be taken for that long.
	TokenCompany(ctx context.Context, token string) (companyID int64, err error)
}

// Applications looks up applications and their network-server settings.
type Applications interface {
	// Application returns an application by id.
	Application(ctx context.Context, id int64) (*Application, error)
	// TTSAPIKey returns the opened The Things Stack API key of an
	// application, "" when none is stored.
	TTSAPIKey(ctx context.Context, applicationID int64) (string, error)
	// ApplicationsByChirpStackID returns the applications that name a
	// ChirpStack application id (in any case), oldest first; several
	// companies may name the same one. None is an empty list, not an error.
	ApplicationsByChirpStackID(ctx context.Context, chirpstackID string) ([]Application, error)
}

// Module is the nodes module as the kernel and the application see it: its
// routes and pages, and every role other modules may ask of it.
type Module interface {
	kernel.Module
	kernel.Router
	Tags
	States
	Pool
	Tokens
	Applications
	Downlinks
}
