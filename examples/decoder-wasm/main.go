// Command decoder-wasm is an example WebAssembly device decoder in Go, for a
// made-up climate sensor, served through the ABI of
// github.com/fieldhub/fieldhub/sdk/decoder. Build it with
//
//	just example-decoder-wasm
//
// or
//
//	GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared -o bin/decoder-example.wasm ./examples/decoder-wasm
//
// and upload bin/decoder-example.wasm as a company decoder.
//
// Uplinks:
//
//	fPort 1, measurement: temperature int16 BE in 0.01 °C, humidity uint8 in
//	    0.5 %, battery uint16 BE in mV (5 bytes)
//	fPort 2, alarms: one byte of flags: bit 0 door open, bit 1 leak
//
// Downlinks, fPort 10: 0x01 then the report interval in minutes, uint16 BE.
package main

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/fieldhub/fieldhub/sdk/decoder"
)

const downlinkPort = 10

func init() {
	decoder.Serve(decoder.Decoder{
		DecodeUplink:   decodeUplink,
		EncodeDownlink: encodeDownlink,
		DecodeDownlink: decodeDownlink,
	})
}

// main is not run: the host calls the reactor's exports after _initialize.
func main() {}

func decodeUplink(in decoder.Input) (decoder.Output, error) {
	b := in.Bytes
	switch in.FPort {
	case 1:
		if len(b) < 5 {
			return decoder.Output{Errors: []string{fmt.Sprintf("a measurement has 5 bytes, this one %d", len(b))}}, nil
		}
		out := decoder.Output{Data: map[string]any{
			"temperature":     float64(int16(binary.BigEndian.Uint16(b[0:2]))) / 100,
			"humidity":        float64(b[2]) / 2,
			"battery_voltage": float64(binary.BigEndian.Uint16(b[3:5])) / 1000,
		}}
		if b[2] > 200 {
			out.Warnings = append(out.Warnings, "humidity above 100 %")
		}
		return out, nil
	case 2:
		if len(b) < 1 {
			return decoder.Output{Errors: []string{"an alarm frame has 1 byte"}}, nil
		}
		return decoder.Output{Data: map[string]any{
			"door_open": b[0]&1 != 0,
			"leak":      b[0]&2 != 0,
		}}, nil
	}
	return decoder.Output{Errors: []string{fmt.Sprintf("unknown fPort %d", in.FPort)}}, nil
}

func encodeDownlink(in decoder.DownlinkInput) (decoder.DownlinkOutput, error) {
	minutes, ok := in.Data["interval"].(float64)
	if !ok || minutes != math.Trunc(minutes) || minutes < 1 || minutes > 65535 {
		return decoder.DownlinkOutput{}, errors.New("interval must be a whole number of minutes from 1 to 65535")
	}
	b := []byte{0x01, 0, 0}
	binary.BigEndian.PutUint16(b[1:], uint16(minutes))
	return decoder.DownlinkOutput{Bytes: b, FPort: downlinkPort}, nil
}

func decodeDownlink(in decoder.Input) (decoder.Output, error) {
	if in.FPort != downlinkPort || len(in.Bytes) != 3 || in.Bytes[0] != 0x01 {
		return decoder.Output{Errors: []string{"not a report interval downlink"}}, nil
	}
	return decoder.Output{Data: map[string]any{"interval": float64(binary.BigEndian.Uint16(in.Bytes[1:]))}}, nil
}
