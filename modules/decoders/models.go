package decoders

import (
	"time"

	"github.com/uptrace/bun"
)

// Input is one uplink to decode.
type Input struct {
	// Company is the company of the uplink's node: the one whose own
	// decoders a key may name and whose limits apply. 0 allows the
	// built-in decoders only, under the default limits.
	Company int64
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
	// MaxWait is how long the decode may wait for its company's decode
	// budget; past it the codec does not run and Output.Errors says so. 0
	// waits as long as the context lasts.
	MaxWait time.Duration
}

// Output is what a decoder made of an uplink.
type Output struct {
	// Data holds the decoded values: numbers, strings, booleans, and
	// objects or arrays of them. nil when the codec failed.
	Data map[string]any
	// Warnings and Errors are what the decoder reported about the payload
	// (a reading out of range, a payload it does not understand), and,
	// last in Errors, why the codec failed if it did. They do not make
	// Decode fail: Data holds what could be decoded.
	Warnings []string
	Errors   []string
	// Log is the codec's console output.
	Log []string
	// Duration is how long the codec ran.
	Duration time.Duration
	// SwitchOff is set on the one call after which the company's decoder
	// was switched off: the last of Config.SwitchOffAfter decodes in a row
	// that broke a limit. Later calls answer at once, with Errors saying
	// that the decoder is switched off, until it is switched on again.
	SwitchOff *SwitchOff
}

// SwitchOff says why and since when a company's own decoder is switched
// off: it broke the sandbox's limits (time, memory, stack, output) in
// Config.SwitchOffAfter decodes in a row. Its nodes' uplinks are then
// stored raw, and kept for decoding again, until a CompanyAdmin saves (or
// activates) a version or switches it on again.
type SwitchOff struct {
	DecoderID int64 `json:"decoderId"`
	// Name is the decoder's name.
	Name string    `json:"name"`
	At   time.Time `json:"at"`
	// Reason is the sandbox's text of the last broken limit ("time limit
	// of 50 ms exceeded").
	Reason string `json:"reason"`
}

// Entry is one decoder of the catalog: {"key": ..., "name": ...}, with
// "custom": true for a company's own decoder.
type Entry struct {
	Key  string `json:"key"`
	Name string `json:"name"`
	// Custom marks a company's own decoder.
	Custom bool `json:"custom,omitempty"`
	// Repo marks a codec imported from the device repository (key
	// RepoKey), Failing one whose active version fails an example.
	Repo    bool `json:"repo,omitempty"`
	Failing bool `json:"failing,omitempty"`
}

// NodeRef names a node that uses a decoder, for the decoder's answer, its
// page and the refusal to delete it.
type NodeRef struct {
	ID     int64  `bun:"id" json:"id"`
	Name   string `bun:"name" json:"name"`
	DevEUI string `bun:"deveui" json:"deveui"`
}

// The kinds of a company's own decoder.
const (
	// KindJS is a JavaScript codec.
	KindJS = "js"
	// KindWASM is a WebAssembly module that follows sdk/decoder's ABI.
	KindWASM = "wasm"
)

// Decoder is a company's own decoder, a row of the table decoders.
type Decoder struct {
	bun.BaseModel `bun:"table:decoders,alias:d" json:"-"`

	ID        int64     `bun:"id,pk,autoincrement" json:"id"`
	CompanyID int64     `bun:"company_id" json:"companyId"`
	Name      string    `bun:"name" json:"name"`
	Kind      string    `bun:"kind" json:"kind"`
	CreatedAt time.Time `bun:"created_at" json:"createdAt"`
	UpdatedAt time.Time `bun:"updated_at" json:"updatedAt"`
	// SwitchedOffAt is when the decoder was switched off for breaking its
	// limits again and again (see SwitchOff), nil while it decodes;
	// SwitchedOffReason is the last limit it broke.
	SwitchedOffAt     *time.Time `bun:"switched_off_at" json:"switchedOffAt"`
	SwitchedOffReason string     `bun:"switched_off_reason" json:"switchedOffReason,omitempty"`

	// Key is the decoder key nodes name it by.
	Key string `bun:"-" json:"key"`
	// ActiveVersion is the number of the version that decodes.
	ActiveVersion int `bun:"active_version,scanonly" json:"activeVersion"`
	// Versions, newest first, without their content; Source is the active
	// version's source (JavaScript), and Nodes the nodes that use the
	// decoder: both only in the answer about one decoder.
	Versions []Version `bun:"-" json:"versions,omitempty"`
	Source   *string   `bun:"-" json:"source,omitempty"`
	Nodes    []NodeRef `bun:"-" json:"nodes,omitempty"`
}

// Version is one version of a company's own decoder, a row of the table
// decoder_versions.
type Version struct {
	bun.BaseModel `bun:"table:decoder_versions,alias:dv" json:"-"`

	ID            int64     `bun:"id,pk,autoincrement" json:"-"`
	DecoderID     int64     `bun:"decoder_id" json:"decoderId"`
	Version       int       `bun:"version" json:"version"`
	Source        string    `bun:"source" json:"source,omitempty"`
	Module        []byte    `bun:"module" json:"-"`
	Hash          string    `bun:"hash" json:"hash"`
	Size          int       `bun:"size" json:"size"`
	Active        bool      `bun:"active" json:"active"`
	CreatedBy     *int64    `bun:"created_by" json:"createdBy"`
	CreatedByName string    `bun:"created_by_name" json:"createdByName"`
	CreatedAt     time.Time `bun:"created_at" json:"createdAt"`

	// ModuleBase64 is a WebAssembly version's module, in the answer about
	// one version.
	ModuleBase64 string `bun:"-" json:"module,omitempty"`
}

// LimitsRow is a company's own sandbox limits, a row of the table
// decoder_limits; a company without one has the installation's.
type LimitsRow struct {
	bun.BaseModel `bun:"table:decoder_limits"`

	CompanyID int64     `bun:"company_id,pk"`
	TimeMS    int       `bun:"time_ms"`
	MemoryMiB int       `bun:"memory_mib"`
	UpdatedAt time.Time `bun:"updated_at"`
}

// LimitsView is the JSON of a company's limits.
type LimitsView struct {
	CompanyID int64 `json:"companyId"`
	TimeMS    int   `json:"timeMs"`
	MemoryMiB int   `json:"memoryMiB"`
	// Default is true when the company has the installation's limits.
	Default      bool `json:"default"`
	MaxTimeMS    int  `json:"maxTimeMs"`
	MaxMemoryMiB int  `json:"maxMemoryMiB"`
}

// TestResult is the answer of POST /api/decoder/test.
type TestResult struct {
	Data     map[string]any `json:"data"`
	Warnings []string       `json:"warnings"`
	Errors   []string       `json:"errors"`
	Log      []string       `json:"log"`
	// Micros is how long the codec ran, in microseconds.
	Micros int64 `json:"micros"`
}
