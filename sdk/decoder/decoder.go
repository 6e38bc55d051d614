package decoder

import (
	"encoding/json"
	"fmt"
	"strconv"
	"time"
)

// Input is an uplink (or a downlink to decode).
type Input struct {
	// Bytes is the application payload.
	Bytes []byte
	// FPort is the LoRaWAN application port.
	FPort int
	// RecvTime is when the network server received the uplink; zero for
	// a downlink.
	RecvTime time.Time
	// Variables are the node's decoder variables.
	Variables map[string]string
}

// Output is what a decoder made of a payload.
type Output struct {
	// Data holds the decoded values: numbers, strings, booleans, and maps
	// and slices of them.
	Data map[string]any
	// Warnings and Errors are what the decoder has to say about the
	// payload; they are stored with the uplink beside Data.
	Warnings []string
	Errors   []string
}

// DownlinkInput is a downlink to encode.
type DownlinkInput struct {
	Data      map[string]any
	FPort     int
	Variables map[string]string
}

// DownlinkOutput is an encoded downlink.
type DownlinkOutput struct {
	Bytes []byte
	// FPort is the port to send on; 0 leaves the one asked for.
	FPort    int
	Warnings []string
	Errors   []string
}

// Decoder is what a module serves. Leave out what it does not do.
type Decoder struct {
	DecodeUplink   func(Input) (Output, error)
	EncodeDownlink func(DownlinkInput) (DownlinkOutput, error)
	DecodeDownlink func(Input) (Output, error)
}

// Operation is one of the ABI's entry points; the values are the bits of
// fieldhub_operations.
type Operation uint32

// The operations.
const (
	OpDecodeUplink   Operation = 1
	OpEncodeDownlink Operation = 2
	OpDecodeDownlink Operation = 4
)

var served Decoder

// Serve makes d the module's decoder. Call it from an init function.
func Serve(d Decoder) { served = d }

// Run serves a decoder that decodes uplinks only. Call it from an init
// function.
func Run(decode func(Input) (Output, error)) { Serve(Decoder{DecodeUplink: decode}) }

// Operations reports what the served decoder implements.
func Operations() Operation {
	var ops Operation
	if served.DecodeUplink != nil {
		ops |= OpDecodeUplink
	}
	if served.EncodeDownlink != nil {
		ops |= OpEncodeDownlink
	}
	if served.DecodeDownlink != nil {
		ops |= OpDecodeDownlink
	}
	return ops
}

// Handle runs the served decoder on one input in the ABI's JSON and returns
// the output JSON, as the module's exports do. Tests of a decoder can call it
// natively, without WebAssembly. An error the decoder returns, or a panic, is
// reported in the output's errors.
func Handle(op Operation, input []byte) (output []byte) {
	defer func() {
		if r := recover(); r != nil {
			output = failed(op, fmt.Sprintf("the decoder panicked: %v", r))
		}
	}()
	switch op {
	case OpDecodeUplink, OpDecodeDownlink:
		fn := served.DecodeUplink
		if op == OpDecodeDownlink {
			fn = served.DecodeDownlink
		}
		if fn == nil {
			return failed(op, "this decoder does not implement "+op.String())
		}
		var in Input
		if err := json.Unmarshal(input, &in); err != nil {
			return failed(op, "the input is not valid: "+err.Error())
		}
		out, err := fn(in)
		if err != nil {
			out.Errors = append(out.Errors, err.Error())
		}
		return marshal(op, out)
	case OpEncodeDownlink:
		if served.EncodeDownlink == nil {
			return failed(op, "this decoder does not implement "+op.String())
		}
		var in DownlinkInput
		if err := json.Unmarshal(input, &in); err != nil {
			return failed(op, "the input is not valid: "+err.Error())
		}
		out, err := served.EncodeDownlink(in)
		if err != nil {
			out.Errors = append(out.Errors, err.Error())
		}
		if out.FPort == 0 {
			out.FPort = in.FPort
		}
		return marshal(op, out)
	}
	return failed(op, "unknown operation")
}

func (op Operation) String() string {
	switch op {
	case OpDecodeUplink:
		return "decode uplink"
	case OpEncodeDownlink:
		return "encode downlink"
	case OpDecodeDownlink:
		return "decode downlink"
	}
	return "operation " + strconv.Itoa(int(op))
}

func failed(op Operation, msg string) []byte {
	if op == OpEncodeDownlink {
		return marshal(op, DownlinkOutput{Errors: []string{msg}})
	}
	return marshal(op, Output{Errors: []string{msg}})
}

func marshal(op Operation, v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		return failed(op, "the output cannot be encoded as JSON: "+err.Error())
	}
	return b
}

// The JSON forms of the types: the codec API's field names, bytes as arrays
// of numbers.

type inputJSON struct {
	Bytes     byteArray         `json:"bytes"`
	FPort     int               `json:"fPort"`
	RecvTime  *time.Time        `json:"recvTime,omitempty"`
	Variables map[string]string `json:"variables"`
}

// MarshalJSON writes the input as the ABI's JSON.
func (in Input) MarshalJSON() ([]byte, error) {
	j := inputJSON{Bytes: in.Bytes, FPort: in.FPort, Variables: in.Variables}
	if !in.RecvTime.IsZero() {
		j.RecvTime = &in.RecvTime
	}
	if j.Variables == nil {
		j.Variables = map[string]string{}
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads the ABI's JSON.
func (in *Input) UnmarshalJSON(b []byte) error {
	var j inputJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*in = Input{Bytes: j.Bytes, FPort: j.FPort, Variables: j.Variables}
	if j.RecvTime != nil {
		in.RecvTime = *j.RecvTime
	}
	return nil
}

type outputJSON struct {
	Data     map[string]any `json:"data"`
	Warnings []string       `json:"warnings,omitempty"`
	Errors   []string       `json:"errors,omitempty"`
}

// MarshalJSON writes the output as the ABI's JSON; nil Data is {}.
func (o Output) MarshalJSON() ([]byte, error) {
	j := outputJSON(o)
	if j.Data == nil {
		j.Data = map[string]any{}
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads the ABI's JSON.
func (o *Output) UnmarshalJSON(b []byte) error {
	var j outputJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*o = Output(j)
	return nil
}

type downlinkInputJSON struct {
	Data      map[string]any    `json:"data"`
	FPort     int               `json:"fPort"`
	Variables map[string]string `json:"variables"`
}

// MarshalJSON writes the downlink input as the ABI's JSON.
func (in DownlinkInput) MarshalJSON() ([]byte, error) {
	j := downlinkInputJSON(in)
	if j.Data == nil {
		j.Data = map[string]any{}
	}
	if j.Variables == nil {
		j.Variables = map[string]string{}
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads the ABI's JSON.
func (in *DownlinkInput) UnmarshalJSON(b []byte) error {
	var j downlinkInputJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*in = DownlinkInput(j)
	return nil
}

type downlinkOutputJSON struct {
	Bytes    byteArray `json:"bytes,omitempty"`
	FPort    int       `json:"fPort,omitempty"`
	Warnings []string  `json:"warnings,omitempty"`
	Errors   []string  `json:"errors,omitempty"`
}

// MarshalJSON writes the downlink output as the ABI's JSON.
func (o DownlinkOutput) MarshalJSON() ([]byte, error) {
	return json.Marshal(downlinkOutputJSON{Bytes: o.Bytes, FPort: o.FPort, Warnings: o.Warnings, Errors: o.Errors})
}

// UnmarshalJSON reads the ABI's JSON.
func (o *DownlinkOutput) UnmarshalJSON(b []byte) error {
	var j downlinkOutputJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*o = DownlinkOutput{Bytes: j.Bytes, FPort: j.FPort, Warnings: j.Warnings, Errors: j.Errors}
	return nil
}

// byteArray is bytes as JSON's array of numbers (encoding/json would write
// base64).
type byteArray []byte

func (b byteArray) MarshalJSON() ([]byte, error) {
	out := make([]byte, 0, 2+4*len(b))
	out = append(out, '[')
	for i, x := range b {
		if i > 0 {
			out = append(out, ',')
		}
		out = strconv.AppendUint(out, uint64(x), 10)
	}
	return append(out, ']'), nil
}

func (b *byteArray) UnmarshalJSON(data []byte) error {
	var ns []int
	if err := json.Unmarshal(data, &ns); err != nil {
		return fmt.Errorf("bytes must be an array of numbers from 0 to 255: %w", err)
	}
	out := make([]byte, len(ns))
	for i, n := range ns {
		if n < 0 || n > 255 {
			return fmt.Errorf("bytes[%d] = %d is not from 0 to 255", i, n)
		}
		out[i] = byte(n)
	}
	*b = out
	return nil
}
