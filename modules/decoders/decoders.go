// Package decoders is the contract of the decoders module: the device
// decoders that turn a node's uplink payload into named values, and their
// list (SPEC.md section 3 "Decoder list", section 7 GET /decoder).
//
// The built-in decoders are the JavaScript codecs of catalog/ (The Things
// Stack codec API, with @key and @name headers) and "raw", which needs no
// code. A company may add its own decoders, JavaScript codecs or WebAssembly
// modules that follow sdk/decoder's ABI, kept in versions of which one is
// active; a node names one as CustomKey(id). Every codec runs in one shared
// kernel/sandbox Engine (started by Start, closed by Stop) under the time
// and memory limits of the node's company.
//
// The ingest decodes every uplink through Service.Decode with the decoder
// key of the uplink's tag and the tag's company; the nodes module checks a
// tag's decoder key with Has and lists the choices with Catalog.
package decoders

import (
	"context"
	"embed"
	"fmt"
	"path"
	"strings"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/sandbox"
	"github.com/fieldhub/fieldhub/modules/decoders/internal/core"
	"github.com/fieldhub/fieldhub/webapp/ui"
)

// catalogFS holds the built-in codecs, <key>.js with its header, and the
// family libraries they include, lib/<family>.js.
//
//go:embed catalog/*.js catalog/lib/*.js
var catalogFS embed.FS

// CatalogSource gives the effective source of the built-in codec key, as
// the module runs it: the text of the family libraries its header names
// with "// @include <family>" lines (catalog/lib/<family>.js, in header
// order, each followed by "\n"), then the text of catalog/<key>.js. Tests,
// tools and the module itself run built-in codecs through it only;
// catalog/check-vectors.mjs resolves includes the same way.
func CatalogSource(key string) (string, error) {
	if key == Raw || strings.ContainsAny(key, "/\\.") || key == "" {
		return "", fmt.Errorf("%q is not a built-in JavaScript codec", key)
	}
	return core.ResolveSource(catalogFS, path.Join("catalog", key+".js"))
}

// Input is one uplink to decode: the company whose decoders and limits
// apply, the port, payload, time of reception and the node's decoder
// variables.
type Input = core.Input

// Output is what a decoder made of an uplink: the decoded values, what the
// decoder reported about the payload, its console output and how long it
// ran.
type Output = core.Output

// Entry is one decoder of the catalog: {"key": ..., "name": ...}, with
// "custom": true for a company's own decoder.
type Entry = core.Entry

// NodeRef names a node that uses a decoder, for the re-decode job and the
// decoder page.
type NodeRef = core.NodeRef

// RedecodeBatch is what one Uplinks.Redecode call did.
type RedecodeBatch = core.RedecodeBatch

// Limits bound one decode: time and memory.
type Limits = sandbox.Limits

// Raw is the key of the decoder that keeps a payload as it came. Its Data is
// {"raw": "<payload in lower-case hex>", "length": <payload length in bytes>};
// an empty payload gives {"length": 0}.
const Raw = core.Raw

// Message IDs (locale catalog keys) of the module's errors.
const (
	// IDUnknown: a decoder key that is not in the catalog of the company.
	IDUnknown = core.IDUnknown
	// IDNotStarted: the sandbox is not running (the module was not
	// started, or the binary lacks quickjs.wasm).
	IDNotStarted = core.IDNotStarted
)

// UplinkKey is the reserved time-series key under which the ingest keeps
// each uplink's raw payload, port and radio values as one text point (see
// UplinkRecord), so that stored uplinks can be decoded again. Decoded keys
// never take this form: their characters are letters, digits, '.', '-' and
// '_' only.
const UplinkKey = core.UplinkKey

// UplinkRecord is the text point kept under UplinkKey: compact JSON
// {"p": payload hex, "f": fPort, "r": rssi, "s": snr, "e": [decode errors]}.
type UplinkRecord = core.UplinkRecord

// ParseUplinkRecord reads the text of an UplinkKey point.
func ParseUplinkRecord(text string) (UplinkRecord, error) { return core.ParseUplinkRecord(text) }

// CustomKey is the decoder key by which a node names a company's decoder.
func CustomKey(id int64) string { return core.CustomKey(id) }

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
	// database failed.
	Decode(ctx context.Context, key string, in Input) (Output, error)
	// Has reports whether company may give a node the decoder key: a
	// built-in one, or one of the company's own decoders.
	Has(ctx context.Context, company int64, key string) (bool, error)
	// Catalog lists the decoders a node of company may use, by name: the
	// built-in ones and the company's own (company 0: the built-in ones).
	// It does not hold the empty prompt that GET /decoder puts first.
	Catalog(ctx context.Context, company int64) ([]Entry, error)
}

// Nodes is what the decoders module asks of the nodes module: which nodes
// of a company use a decoder (the delete check and the re-decode job). The
// nodes module satisfies it.
type Nodes = core.Nodes

// Uplinks is what the re-decode job asks of the ingest module, which
// satisfies it: Redecode decodes again, with the node's current decoder,
// the uplinks of one node of a company kept under UplinkKey in [from, to),
// at most limit of them, newest first, and stores the values they decode
// to in place of the old ones (same keys and times).
type Uplinks = core.Uplinks

// Accounts is the part of accounts.Service that the decoders module asks:
// whether a company exists, and who a user is (a version's author).
type Accounts = core.Accounts

// Module is the decoders module as the kernel and main.go see it. Start
// starts the sandbox and the re-decode job; Stop closes the sandbox.
type Module interface {
	kernel.Module
	kernel.Router
	kernel.Starter
	kernel.Stopper
	Service
}

// Deps is what the decoders module needs from the rest of the portal. All
// are optional, so that other modules' tests can build it bare: without
// them the module decodes and lists decoders, and the parts that need them
// are left out as each field says.
type Deps struct {
	// Accounts checks that a company exists before a decoder is made for
	// it and names the author of a version; without it neither is done.
	Accounts Accounts
	// Nodes tells which nodes use a decoder. It is a function because the
	// nodes module is built after this one (it checks decoder keys here):
	// main.go returns the nodes module once it is built. Without it a
	// decoder cannot be deleted and nothing can be re-decoded.
	Nodes func() Nodes
	// Uplinks re-decodes stored uplinks, resolved like Nodes (the ingest
	// module is built later still). Without it there is no re-decode.
	Uplinks func() Uplinks
	// UI draws the decoder pages; without it there are none.
	UI *ui.Env
	// Limits are the limits of a company that has none of its own;
	// zero fields take the sandbox's defaults (50 ms, 16 MiB).
	Limits Limits
}

// New builds the module.
func New(host *kernel.Host, deps Deps) Module {
	return core.New(host, catalogFS, core.Deps{Accounts: deps.Accounts, Nodes: deps.Nodes, Uplinks: deps.Uplinks, UI: deps.UI, Limits: deps.Limits})
}
