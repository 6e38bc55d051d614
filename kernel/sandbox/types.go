package sandbox

import (
	"encoding/json"
	"log/slog"
	"time"
)

// Options configure an Engine. The zero value is usable: every field has a
// default.
type Options struct {
	// Limits are the limits of a call that passes a zero Limits, and of
	// the fields a call leaves zero. Default: 50 ms and 16 MiB.
	Limits Limits
	// MaxMemory caps Limits.Memory of any call, and is the hard ceiling
	// on an instance's linear memory that wazero enforces beneath the
	// per-call limits. Default: 64 MiB.
	MaxMemory int64
	// MaxOutput caps the JSON a call may return, in bytes. Default: 1 MiB.
	MaxOutput int
	// MaxLog caps the console output a call keeps, in bytes; the log ends
	// with a line saying it was cut. Default: 16 KiB.
	MaxLog int
	// MaxSource caps the size of a JavaScript codec's source. Default: 1 MiB.
	MaxSource int
	// PoolSize is the number of warm instances each codec may keep, which
	// is also how many calls of one codec run at once. Default:
	// runtime.GOMAXPROCS(0).
	PoolSize int
	// IdleTimeout is how long a warm instance may go unused before it is
	// closed (a codec keeps its loaded image and starts a new instance
	// from it in well under a millisecond). Default: 1 minute.
	IdleTimeout time.Duration
	// LoadTimeout limits a codec's top-level code (and a WASM module's
	// initialisation) when the codec is loaded. Default: 1 s.
	LoadTimeout time.Duration
	// CacheDir, when set, keeps wazero's compiled machine code in this
	// directory across restarts. Without it the compiled code is cached
	// in memory for the life of the process.
	CacheDir string
	// Logger receives the engine's own events (instances closed after a
	// failure). Default: slog.Default().
	Logger *slog.Logger
}

// Limits bound one call. A zero field takes the Engine's default.
type Limits struct {
	// Time is the longest a call may run.
	Time time.Duration
	// Memory is the most a JavaScript codec may allocate, or the largest a
	// WASM module's linear memory may grow to, in bytes.
	Memory int64
}

// Input is an uplink (or a downlink to decode) as codecs see it.
type Input struct {
	// Bytes is the application payload.
	Bytes []byte
	// FPort is the LoRaWAN application port.
	FPort int
	// RecvTime is when the network server received the uplink. It is
	// input.recvTime, and it is also what Date.now() and new Date()
	// return inside the call. Zero means the time of the call.
	RecvTime time.Time
	// Variables are the node's codec variables (input.variables).
	Variables map[string]string
	// Tenant is whose call this is (a company). What a JavaScript codec
	// left in its instance after a call that ended well (globals, a
	// changed prototype, a closure's variables) may reach the next call
	// of the same tenant on that instance; it never reaches a call of
	// another tenant, and a call that failed leaves nothing behind. Empty:
	// every call starts from the codec's image. Trusted codecs, which keep
	// no state, ignore it. See Codec.
	Tenant string
}

// DownlinkInput is a downlink to encode.
type DownlinkInput struct {
	// Data is the object to encode (input.data).
	Data map[string]any
	// FPort is the port passed to the ChirpStack v3 and The Things
	// Network v2 forms, and the result's port when the codec gives none.
	FPort int
	// Variables are the node's codec variables (input.variables).
	Variables map[string]string
	// Tenant is whose call this is, as Input.Tenant.
	Tenant string
}

// Result is what a decode call produced.
type Result struct {
	// Data holds the decoded values, as JSON gives them: float64, string,
	// bool, nil, []any and map[string]any.
	Data map[string]any
	// Warnings and Errors are what the codec reported about the payload.
	Warnings []string
	Errors   []string
	// Log is the call's console output (console.log, .info and .debug as
	// they are, .warn and .error prefixed "warn: " and "error: "), or a
	// WASM module's stdout and stderr lines.
	Log []string
	// Duration is how long the codec ran.
	Duration time.Duration
	// Form is the function that ran.
	Form Form
	// Raw is the function's return value as JSON.stringify gave it (for
	// WASM modules: the JSON the module returned).
	Raw json.RawMessage
}

// EncodeResult is what an encode call produced.
type EncodeResult struct {
	// Bytes is the downlink payload.
	Bytes []byte
	// FPort is the port the codec chose, or DownlinkInput.FPort.
	FPort    int
	Warnings []string
	Errors   []string
	Log      []string
	Duration time.Duration
	Form     Form
	Raw      json.RawMessage
}

// Form is one of the codec function forms the sandbox knows. A codec may
// define several; for each operation the sandbox calls the first it defines
// in the order of preference: decodeUplink, Decode, Decoder for uplinks;
// encodeDownlink, Encode, Encoder for downlinks.
type Form int

// The codec forms, by the name of their function.
const (
	// FormDecodeUplink is decodeUplink(input) of The Things Stack and
	// ChirpStack v4: input {bytes, fPort, recvTime, variables}, result
	// {data, warnings, errors}.
	FormDecodeUplink Form = iota
	// FormDecode is ChirpStack v3's Decode(fPort, bytes, variables),
	// which returns the data object.
	FormDecode
	// FormDecoder is The Things Network v2's Decoder(bytes, port), which
	// returns the data object.
	FormDecoder
	// FormEncodeDownlink is encodeDownlink(input): input {data,
	// variables}, result {bytes, fPort, warnings, errors}.
	FormEncodeDownlink
	// FormEncode is ChirpStack v3's Encode(fPort, obj, variables), which
	// returns the bytes.
	FormEncode
	// FormEncoder is The Things Network v2's Encoder(object, port), which
	// returns the bytes.
	FormEncoder
	// FormDecodeDownlink is decodeDownlink(input): input {bytes, fPort,
	// variables}, result {data, warnings, errors}.
	FormDecodeDownlink
	formCount
)

var formNames = [formCount]string{"decodeUplink", "Decode", "Decoder", "encodeDownlink", "Encode", "Encoder", "decodeDownlink"}

// String gives the function name of the form.
func (f Form) String() string {
	if f < 0 || f >= formCount {
		return "unknown"
	}
	return formNames[f]
}

// decodes reports whether the form takes a payload (bytes).
func (f Form) decodes() bool {
	return f == FormDecodeUplink || f == FormDecode || f == FormDecoder || f == FormDecodeDownlink
}

// Operation is what a call asks of a codec.
type Operation int

// The operations.
const (
	OpDecodeUplink Operation = iota
	OpEncodeDownlink
	OpDecodeDownlink
)

// forms lists the forms that serve an operation, best first.
func (o Operation) forms() []Form {
	switch o {
	case OpDecodeUplink:
		return []Form{FormDecodeUplink, FormDecode, FormDecoder}
	case OpEncodeDownlink:
		return []Form{FormEncodeDownlink, FormEncode, FormEncoder}
	default:
		return []Form{FormDecodeDownlink}
	}
}

func (o Operation) String() string {
	switch o {
	case OpDecodeUplink:
		return "decode uplink"
	case OpEncodeDownlink:
		return "encode downlink"
	default:
		return "decode downlink"
	}
}
