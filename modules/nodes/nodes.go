// Package nodes is the contract of the nodes module: applications, their
// nodes (tags, identified by DevEUI) with data keys and pictures, the pool of
// DevEUIs heard without a tag and integration tokens, with their JSON
// routes, the tag data API and their pages. Other modules use its role
// interfaces (Tags, States, Pool, Tokens, Applications) and its events;
// package module builds it, and the implementation lives in internal/.
//
// The ingest records what uplinks report through Tags, States and Pool; the
// netservers module authenticates the network servers by Tokens, finds the
// applications of their messages and downlinks through Applications, and
// adds its downlink section to the node details page and its network
// server setup to the application page through Pages (registries of
// PageSection and ApplicationSection, as the decoder page has).
//
// A DevEUI is unique in the installation: a company's registrations of
// DevEUIs that other companies' nodes have are limited (claims.go) and
// announced (DevEUIClaimRefused) for the SuperAdmin's log, and a
// SuperAdmin may move a node with its stored data to the company that
// proves it owns it (TagMoved).
//
// The roles are not scoped to a caller: the asking module decides who may
// see the answer. Lookups return an errs.NotFound error for an unknown id or
// DevEUI, and an errs.Invalid error for a DevEUI that is not 16 hexadecimal
// digits.
package nodes

import (
	"context"
	"net/http"

	"github.com/a-h/templ"

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
	// CachedTags is TagsByDevEUI from memory, for the ingest: the tags of
	// the DevEUIs (keyed as TagsByDevEUI keys them) and of the ids (nodes
	// values are written to), each tag's identity, decoder and keys as
	// committed when the call began, on any instance, but its state
	// (latest data and time, battery, signal, alarm) and AppKey empty. A
	// DevEUI or id without a tag is absent. The tags are shared: callers
	// must not change them.
	CachedTags(ctx context.Context, deveuis []string, ids []int64) (map[string]*Tag, map[int64]*Tag, error)
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
	// newer); battery (percent), battery voltage and RSSI when given. An
	// unknown tag is not an error.
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

// Tokens checks the integration tokens that network servers present and
// lists those of a company.
type Tokens interface {
	// TokenCompany returns the company of a presented integration token. An
	// unknown or deleted token is an errs.Unauthorized error. Tokens are
	// kept in memory for a few seconds, so a token deleted through another
	// instance may still be taken for that long.
	TokenCompany(ctx context.Context, token string) (companyID int64, err error)
	// CompanyTokens lists the integration tokens of a company, newest
	// first, without their secrets.
	CompanyTokens(ctx context.Context, companyID int64) ([]Token, error)
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

// PageSection is a section that another module adds to the node details
// page (/tagdetails/{deveui}), below the node's keys and above its
// picture, in the order of registration: the netservers module's
// downlinks, for one.
type PageSection interface {
	// TagSection draws the section for node t (as PageTag loads it) on the
	// page that r asks for; nil leaves the section out.
	TagSection(r *http.Request, t *Tag) (templ.Component, error)
}

// ApplicationSection is a section that another module adds to the page of
// an application (/application/{applicationId}), below the application's
// form and above its nodes, in the order of registration: the netservers
// module's setup of the network server, for one.
type ApplicationSection interface {
	// ApplicationSection draws the section for application a, whose nodes
	// are tags (by name), on the page that r asks for; nil leaves the
	// section out.
	ApplicationSection(r *http.Request, a *Application, tags []*Tag) (templ.Component, error)
}

// Pages is what the node details page and the application page offer the
// page routes of other modules. Without the UI (Deps.UI) there are no
// pages: sections are never drawn.
type Pages interface {
	// RegisterPageSection adds s to every node details page.
	RegisterPageSection(s PageSection)
	// RegisterApplicationSection adds s to every application page.
	RegisterApplicationSection(s ApplicationSection)
	// PageTag is the node that the path of r names by {deveui}, in any
	// accepted spelling, if the viewer manages its company; a malformed
	// DevEUI, like another company's node, is an errs.NotFound error, as
	// on the node details page itself.
	PageTag(r *http.Request) (*Tag, error)
	// TagPage returns what draws the details page of node t with section
	// in place of s's own drawing: the whole page around a form of s that
	// was refused, for ui.Env.FormFailed. s is the value registered,
	// found by ==, so register a pointer. The page is to be drawn with the
	// title "page.tag.details.title" and its islands (ui.Options{Islands:
	// true}); without the UI there is no page (errs.NotFound).
	TagPage(r *http.Request, t *Tag, s PageSection) (func(section templ.Component) templ.Component, error)
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
	Pages
	AlarmRegistry
	Silence
	Setups
	// UseProfiles gives the module the device profiles (the profiles
	// module, built after it), which nodes are created with and which the
	// bulk import and export name nodes' profiles by. Without it a file's
	// profile column is refused.
	UseProfiles(p Profiles)
}
