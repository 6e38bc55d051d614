// Package decoder is the ABI of Fieldhub's WebAssembly device decoders, and a
// helper that serves it from Go built with GOOS=wasip1 GOARCH=wasm.
//
// A decoder in Go is a reactor with an init function:
//
//	package main
//
//	import "github.com/fieldhub/fieldhub/sdk/decoder"
//
//	func init() {
//		decoder.Run(func(in decoder.Input) (decoder.Output, error) {
//			if len(in.Bytes) < 2 {
//				return decoder.Output{Errors: []string{"payload too short"}}, nil
//			}
//			t := float64(int16(uint16(in.Bytes[0])<<8|uint16(in.Bytes[1]))) / 10
//			return decoder.Output{Data: map[string]any{"temperature": t}}, nil
//		})
//	}
//
//	func main() {}
//
// built with
//
//	GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared -o decoder.wasm .
//
// (-buildmode=c-shared makes a WASI reactor: the host calls _initialize, which
// runs the init functions but not main, and then the exports; Run and Serve
// must therefore be called from init). Serve registers an encoder and a
// downlink decoder too.
//
// # The ABI, version 1
//
// Any language that compiles to WebAssembly can implement it. A decoder
// module:
//
//   - exports its linear memory as "memory", and a function
//     fieldhub_abi_v1() with no parameters and no results, whose presence says
//     which ABI the module follows;
//   - exports fieldhub_alloc(size i32) i32, which returns the address of size
//     bytes the host may write the input to;
//   - exports at least one operation, each (ptr i32, len i32) i64:
//     fieldhub_decode_uplink, fieldhub_encode_downlink and
//     fieldhub_decode_downlink. The host calls fieldhub_alloc, writes the input
//     JSON there and calls the operation with that address and length. The
//     result packs the address of the output JSON into the upper 32 bits and
//     its length into the lower 32; the output must stay valid until the next
//     call into the module;
//   - may export fieldhub_operations() i32, a bit mask of the operations it
//     implements (1 decode uplink, 2 encode downlink, 4 decode downlink), for
//     modules that export all three but implement fewer (this package's
//     modules do);
//   - may export _initialize (a WASI reactor), which the host calls once
//     after instantiation; a WASI command (exporting _start only) is refused;
//   - imports nothing but WASI preview 1 (wasi_snapshot_preview1).
//
// The JSON is the codec API of The Things Stack and ChirpStack v4, the same
// objects a JavaScript codec sees:
//
//	decode input   {"bytes": [1, 2], "fPort": 5, "recvTime": "2024-05-01T12:00:00.000Z", "variables": {"k": "v"}}
//	               (decode_downlink: no recvTime)
//	decode output  {"data": {...}, "warnings": ["..."], "errors": ["..."]}
//	encode input   {"data": {...}, "fPort": 5, "variables": {}}
//	encode output  {"bytes": [1, 2], "fPort": 5, "warnings": [], "errors": []}
//
// A problem with the payload (too short, an unknown frame type) goes in
// "errors", beside whatever data could be decoded: the uplink is stored with
// them. data must be an object; a decode output needs data or errors. A
// trap, an exit (proc_exit) or output that is not such JSON is a failure of
// the decoder itself, reported with the uplink as a decode error.
//
// # The sandbox
//
// Each call runs under the time limit (default 50 ms) and the memory limit
// (default 16 MiB of linear memory) of the node's company; a module that
// passes either is stopped and its instance thrown away. WASI gives no files,
// no environment and no arguments; the wall clock reads the uplink's
// reception time and stands still during a call; the monotonic clock moves in
// whole milliseconds; random numbers come from a fixed seed. stdout and
// stderr become the call's log. Instances are reused between calls: keep no
// state between them.
package decoder
