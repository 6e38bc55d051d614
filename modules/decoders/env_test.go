package decoders_test

import (
	"encoding/binary"
	"testing"

	"github.com/fieldhub/fieldhub/app"
	"github.com/fieldhub/fieldhub/kernel"
	"github.com/fieldhub/fieldhub/kernel/db"
	"github.com/fieldhub/fieldhub/kernel/kerneltest"
	"github.com/fieldhub/fieldhub/modules/decoders"
)

// env is a running portal (app.Build) with the companies of
// kerneltest.Devices: acme and beta, each with a CompanyAdmin, an
// application with a node, and an integration token; acme also has a User.
type env struct {
	*kerneltest.Devices
	host *kernel.Host
	dec  decoders.Module
}

func newEnv(t *testing.T, d db.Dialect) *env {
	t.Helper()
	p := kerneltest.Start(t, d, nil, app.Build)
	return &env{Devices: kerneltest.NewDevices(t, p.Client, p.App, p.App.Series()), host: p.Host(), dec: p.App.Decoders()}
}

// wasmDecoder builds a WebAssembly module that follows sdk/decoder's ABI
// and answers every decode with output (JSON), or, with spin, loops
// forever. Tests build it byte by byte so that they need no WASM toolchain.
func wasmDecoder(output string, spin bool) []byte {
	const dataAt, allocAt = 1024, 4096
	section := func(id byte, body []byte) []byte {
		return append(append([]byte{id}, uleb(uint64(len(body)))...), body...)
	}
	vec := func(items ...[]byte) []byte {
		out := uleb(uint64(len(items)))
		for _, it := range items {
			out = append(out, it...)
		}
		return out
	}
	name := func(s string) []byte { return append(uleb(uint64(len(s))), s...) }
	types := vec(
		[]byte{0x60, 0x00, 0x00},                   // () -> ()
		[]byte{0x60, 0x01, 0x7f, 0x01, 0x7f},       // (i32) -> i32
		[]byte{0x60, 0x02, 0x7f, 0x7f, 0x01, 0x7e}, // (i32, i32) -> i64
	)
	funcs := vec([]byte{0}, []byte{1}, []byte{2})
	memory := vec([]byte{0x00, 0x01}) // one page, no maximum
	exports := vec(
		append(name("memory"), 0x02, 0x00),
		append(name("fieldhub_abi_v1"), 0x00, 0x00),
		append(name("fieldhub_alloc"), 0x00, 0x01),
		append(name("fieldhub_decode_uplink"), 0x00, 0x02),
	)
	body := func(code ...byte) []byte {
		b := append([]byte{0x00}, code...) // no locals
		return append(uleb(uint64(len(b))), b...)
	}
	alloc := append(append([]byte{0x41}, sleb(allocAt)...), 0x0b)
	decode := append(append([]byte{0x42}, sleb(int64(dataAt)<<32|int64(len(output)))...), 0x0b)
	if spin {
		decode = []byte{0x03, 0x40, 0x0c, 0x00, 0x0b, 0x00, 0x0b} // loop br 0 end; unreachable; end
	}
	code := vec(body(0x0b), body(alloc...), body(decode...))
	data := vec(append(append(append([]byte{0x00, 0x41}, sleb(dataAt)...), 0x0b), name(output)...))
	out := []byte{0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00}
	for _, s := range []struct {
		id   byte
		body []byte
	}{{1, types}, {3, funcs}, {5, memory}, {7, exports}, {10, code}, {11, data}} {
		out = append(out, section(s.id, s.body)...)
	}
	return out
}

func uleb(v uint64) []byte { return binary.AppendUvarint(nil, v) }

func sleb(v int64) []byte {
	var out []byte
	for {
		b := byte(v & 0x7f)
		v >>= 7
		if (v == 0 && b&0x40 == 0) || (v == -1 && b&0x40 != 0) {
			return append(out, b)
		}
		out = append(out, b|0x80)
	}
}
