//go:build wasip1

package decoder

import "unsafe"

// The module's exports (see the package documentation). The input buffer
// and the last output are kept in these variables so that Go's collector
// leaves them alone while the host reads and writes them.
var input, output []byte

//go:wasmexport fieldhub_abi_v1
func abiV1() {}

//go:wasmexport fieldhub_operations
func operations() uint32 { return uint32(Operations()) }

//go:wasmexport fieldhub_alloc
func alloc(size uint32) uint32 {
	input = make([]byte, max(size, 1))[:size]
	return address(input)
}

//go:wasmexport fieldhub_decode_uplink
func decodeUplink(ptr, size uint32) uint64 { return respond(OpDecodeUplink, ptr, size) }

//go:wasmexport fieldhub_encode_downlink
func encodeDownlink(ptr, size uint32) uint64 { return respond(OpEncodeDownlink, ptr, size) }

//go:wasmexport fieldhub_decode_downlink
func decodeDownlink(ptr, size uint32) uint64 { return respond(OpDecodeDownlink, ptr, size) }

func respond(op Operation, ptr, size uint32) uint64 {
	if input == nil || ptr != address(input) || int(size) > cap(input) {
		output = failed(op, "the input is not where fieldhub_alloc put it")
	} else {
		output = Handle(op, input[:size])
	}
	input = nil
	return uint64(address(output))<<32 | uint64(len(output))
}

func address(b []byte) uint32 {
	return uint32(uintptr(unsafe.Pointer(unsafe.SliceData(b))))
}
