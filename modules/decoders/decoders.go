// Package decoders is the contract of the decoders module: the device
// decoders that turn a node's uplink payload into named values, and their
// list (GET /api/decoder, which the node forms fill their decoder choice
// from).
//
// The built-in decoders are the JavaScript codecs of catalog/ (The Things
// Stack codec API, with @key and @name headers) and "raw", which needs no
// code. A company may add its own decoders, JavaScript codecs or WebAssembly
// modules that follow sdk/decoder's ABI, kept in versions of which one is
// active; a node names one as CustomKey(id). Every codec runs in one shared
// kernel/sandbox Engine (started by Start, closed by Stop) under the time
// and memory limits of the node's company, and within the company's decode
// budget (Config): how many of its decodes run at once and how much codec
// time they take a second, so that one company's slow or hostile codec
// slows that company's uplinks alone. A company's decoder that breaks its
// limits in Config.SwitchOffAfter decodes in a row is switched off
// (SwitchOff, DecoderSwitchedOff) until a version is saved or activated,
// or a CompanyAdmin switches it on again (POST
// /api/decoders/{decoderId}/switch-on).
//
// The module is a leaf: it knows no other module but accounts. The ingest
// decodes every uplink through Service.Decode with the decoder key of the
// uplink's tag and the tag's company; the nodes module checks a tag's
// decoder key with Has and lists the choices with Catalog. What the module
// must ask of the modules that refer to its decoders goes through
// registries they fill when they are built: Users (which nodes use a
// decoder) and PageSection (what they show on a decoder's page). A newly
// active version is announced as VersionActivated. Package module builds
// the module.
package decoders

import (
	"context"
	"net/http"
	"strconv"
	"strings"

	"github.com/a-h/templ"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/modules/accounts"
)

// Raw is the key of the decoder that keeps a payload as it came. Its Data is
// {"raw": "<payload in lower-case hex>", "length": <payload length in bytes>};
// an empty payload gives {"length": 0}.
const Raw = "raw"

// IDRawName is the catalog id of raw's name as pages show it; the decoder
// list of the API keeps the English name of the built-in catalog.
const IDRawName = "decoders.raw.name"

// customPrefix starts the key of a company's own decoder: custom:<id>.
const customPrefix = "custom:"

// CustomKey is the decoder key by which a node names a company's decoder.
func CustomKey(id int64) string { return customPrefix + strconv.FormatInt(id, 10) }

// CustomID returns the decoder id of a key made by CustomKey, in that one
// spelling ("custom:07" is not one); ok is false for any other key.
func CustomID(key string) (id int64, ok bool) {
	rest, ok := strings.CutPrefix(key, customPrefix)
	if !ok {
		return 0, false
	}
	id, err := strconv.ParseInt(rest, 10, 64)
	if err != nil || id <= 0 || strconv.FormatInt(id, 10) != rest {
		return 0, false
	}
	return id, true
}

// Service decodes uplinks and lists the decoders. It is safe for concurrent
// use. It is not scoped to a caller: the company given is the one whose
// decoders a key may name (a company's own decoders are invisible to the
// others).
type Service interface {
	// Decode runs the decoder named key on in, under the limits of
	// in.Company. What the decoder says about the payload is in
	// Output.Warnings and Output.Errors, beside the values it could decode;
	// so is a codec that failed (it threw, broke a limit, returned
	// something of the wrong shape, or does not load): then Data is nil and
	// Errors says why. Decode returns an error only when it could not try:
	// an errs.NotFound error with message IDUnknown for a key the company
	// cannot use, an errs.Unavailable error (IDNotStarted) without a
	// sandbox, ctx's error when ctx ended, and a wrapped error when the
	// database failed. A codec runs within in.Company's decode budget:
	// Decode waits while the company's decodes take all it may run at once
	// or have spent their time of the last second, and only the company's
	// own decodes wait for it, as long as ctx lasts or at most in.MaxWait,
	// past which the codec does not run and Errors says so. A switched-off
	// decoder does not run: its Errors say so at once.
	Decode(ctx context.Context, key string, in Input) (Output, error)
	// Has reports whether company may give a node the decoder key: a
	// built-in one, or one of the company's own decoders.
	Has(ctx context.Context, company int64, key string) (bool, error)
	// Catalog lists the decoders a node of company may use, by name: the
	// built-in ones and the company's own (company 0: the built-in ones).
	// It does not hold the empty prompt that GET /api/decoder puts first.
	Catalog(ctx context.Context, company int64) ([]Entry, error)
	// SwitchedOff tells why the decoder key names for company is switched
	// off (SwitchOff), for the pages of its nodes; nil when it decodes, or
	// when key is no decoder of the company's own (built-in decoders are
	// never switched off).
	SwitchedOff(ctx context.Context, company int64, key string) (*SwitchOff, error)
}

// Users tells which nodes of a company name a decoder key. The module that
// keeps the nodes registers one with Registry.RegisterUsers when it is
// built, so that a decoder in use is not deleted (the refusal names the
// nodes) and a decoder's answer and page list its nodes. The nodes module
// satisfies it.
type Users interface {
	DecoderNodes(ctx context.Context, companyID int64, key string) ([]NodeRef, error)
}

// Registry takes the Users of the decoders. With none registered a
// decoder has no nodes: its lists are empty and it may be deleted. The
// answers of several are put together.
type Registry interface {
	RegisterUsers(u Users)
}

// PageSection is a section that another module adds to the page of a
// company's own decoder (/decoders/{decoderId}), below the nodes that use
// the decoder and above its removal, in the order of registration: the
// ingest's re-decoding, for one.
type PageSection interface {
	// DecoderSection draws the section for decoder d (as PageDecoder
	// loads it: without versions, source or nodes) on the page that r
	// asks for; nil leaves the section out.
	DecoderSection(r *http.Request, d *Decoder) (templ.Component, error)
}

// Pages is what the decoder pages offer the page routes of other modules.
// Without the UI (Deps.UI) there are no pages: sections are never drawn.
type Pages interface {
	// RegisterPageSection adds s to every decoder page.
	RegisterPageSection(s PageSection)
	// PageDecoder is the decoder that the path of r names by {decoderId},
	// if the viewer manages its company; a malformed id, like another
	// company's decoder, is an errs.NotFound error, as on the decoder
	// pages themselves.
	PageDecoder(r *http.Request) (*Decoder, error)
	// DecoderPage returns what draws the page of decoder d with section
	// in place of s's own drawing: the whole page around a form of s that
	// was refused, for ui.Env.FormFailed. s is the value registered,
	// found by ==, so register a pointer. The page is to be drawn with the
	// title "decoders.edit.title" and its islands (ui.Options{Islands:
	// true}); without the UI there is no page (errs.NotFound).
	DecoderPage(r *http.Request, d *Decoder, s PageSection) (func(section templ.Component) templ.Component, error)
}

// Accounts is the part of accounts.Service that the decoders module asks:
// whether a company exists, and who a user is (a version's author).
type Accounts interface {
	User(ctx context.Context, id int64) (*accounts.User, error)
	Company(ctx context.Context, id int64) (*accounts.Company, error)
}

// Module is the decoders module as the kernel and the application see it.
// Start starts the sandbox; Stop closes it.
type Module interface {
	kernel.Module
	kernel.Router
	kernel.Starter
	kernel.Stopper
	Service
	Registry
	Pages
	DeviceImporter
	Encoder
}
