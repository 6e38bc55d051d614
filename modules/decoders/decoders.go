// Package decoders is the contract of the decoders module: the device
// decoders that turn a node's uplink payload into named values, and their
// list (SPEC.md section 3 "Decoder list", section 7 GET /decoder). The ingest
// decodes every uplink through Service.Decode with the decoder key of the
// uplink's tag; the nodes module checks a tag's decoder key with Has.
//
// Today the module knows one decoder, "raw", which needs no code. The
// sandboxed WASM and JS decoders plug in behind the same Service.
package decoders

import (
	"context"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/modules/decoders/internal/core"
)

// Input is one uplink to decode: its port, payload, time of reception and
// the node's decoder variables.
type Input = core.Input

// Output is what a decoder made of an uplink: the decoded values, and what
// the decoder reported about the payload.
type Output = core.Output

// Entry is one decoder of the catalog: {"key": ..., "name": ...}.
type Entry = core.Entry

// Raw is the key of the decoder that keeps a payload as it came. Its Data is
// {"raw": "<payload in lower-case hex>", "length": <payload length in bytes>};
// an empty payload gives {"length": 0}.
const Raw = core.Raw

// IDUnknown is the message ID (a locale catalog key) of the error for a
// decoder key that is not in the catalog.
const IDUnknown = core.IDUnknown

// Service decodes uplinks and lists the decoders. It is safe for concurrent
// use and is not scoped to a caller: decoders are the same for every company.
type Service interface {
	// Decode runs the decoder named key on in. It returns an error only
	// when the decoder could not run: an errs.NotFound error with message
	// IDUnknown for a key not in the catalog, a wrapped error when the
	// sandbox failed or ctx ended. What the decoder says about the payload
	// is in Output.Warnings and Output.Errors, beside the values it could
	// decode.
	Decode(ctx context.Context, key string, in Input) (Output, error)
	// Has reports whether key names a decoder of the catalog.
	Has(key string) bool
	// Catalog lists the decoders, by name. It does not hold the empty
	// prompt that GET /decoder puts first.
	Catalog() []Entry
}

// Module is the decoders module as the kernel and main.go see it.
type Module interface {
	kernel.Module
	kernel.Router
	Service
}

// Deps is what the decoders module needs from the rest of the portal:
// nothing yet.
type Deps struct{}

// New builds the module.
func New(host *kernel.Host, deps Deps) Module { return core.New(host) }
