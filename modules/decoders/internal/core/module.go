// Package core implements the decoders module: the catalog of device
// decoders, GET /decoder, and decoding through the decoder a key names.
package core

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/auth"
	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
)

// Input is one uplink to decode.
type Input struct {
	// FPort is the LoRaWAN application port, 0 when the network server
	// gave none.
	FPort int
	// Bytes is the application payload.
	Bytes []byte
	// RecvTime is when the network server received the uplink.
	RecvTime time.Time
	// Variables are the node's decoder settings (calibration offsets and
	// the like), nil when there are none.
	Variables map[string]string
}

// Output is what a decoder made of an uplink.
type Output struct {
	// Data holds the decoded values: numbers, strings, booleans, and
	// objects or arrays of them.
	Data map[string]any
	// Warnings and Errors are what the decoder reported about the payload
	// (a reading out of range, a payload it does not understand). They do
	// not make Decode fail: Data holds what could be decoded.
	Warnings []string
	Errors   []string
}

// Entry is one decoder of the catalog.
type Entry struct {
	Key  string `json:"key"`
	Name string `json:"name"`
}

// Raw is the key of the decoder that keeps a payload as it came.
const Raw = "raw"

// IDUnknown is the message of an unknown decoder key.
const IDUnknown = "decoders.unknown"

// decoder is one decoder of the catalog.
type decoder interface {
	decode(ctx context.Context, in Input) (Output, error)
}

// Module is the decoders module.
type Module struct {
	decoders map[string]decoder
	catalog  []Entry
}

// New builds the module with its built-in decoders.
func New(host *kernel.Host) *Module {
	m := &Module{decoders: map[string]decoder{}}
	m.add(Entry{Key: Raw, Name: "Raw payload (hex)"}, rawDecoder{})
	return m
}

func (m *Module) add(e Entry, d decoder) {
	m.decoders[e.Key] = d
	m.catalog = append(m.catalog, e)
	slices.SortFunc(m.catalog, func(a, b Entry) int { return strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name)) })
}

// Name names the module.
func (m *Module) Name() string { return "decoders" }

// Routes registers GET /decoder (SPEC.md section 7 "Tags").
func (m *Module) Routes(r *web.ModuleRoutes) {
	r.API("GET /decoder", auth.CompanyOrUser, m.list)
}

// prompt is the first entry of the list the client shows: an empty choice.
var prompt = Entry{Key: "", Name: ""}

// list answers GET /decoder: the empty prompt, then every decoder by name.
func (m *Module) list(w http.ResponseWriter, r *http.Request) error {
	return web.OK(w, append([]Entry{prompt}, m.catalog...))
}

// Decode runs the decoder named key.
func (m *Module) Decode(ctx context.Context, key string, in Input) (Output, error) {
	d, ok := m.decoders[key]
	if !ok {
		return Output{}, errs.New(errs.NotFound, IDUnknown).With("key", key)
	}
	if err := ctx.Err(); err != nil {
		return Output{}, err
	}
	return d.decode(ctx, in)
}

// Has reports whether key names a decoder.
func (m *Module) Has(key string) bool {
	_, ok := m.decoders[key]
	return ok
}

// Catalog lists the decoders by name.
func (m *Module) Catalog() []Entry { return slices.Clone(m.catalog) }
