package sandbox_test

import (
	"context"
	"encoding/hex"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/fieldhub/fieldhub/kernel/sandbox"
)

// The benchmarks decode an Elsys-style TLV frame (testdata/codecs/tlv_loop.js).
// bench/decoders compares the built-in codecs with Node.

func tlvCodec(b *testing.B, e *sandbox.Engine, trusted bool) (*sandbox.Codec, sandbox.Input) {
	b.Helper()
	src, err := os.ReadFile("testdata/codecs/tlv_loop.js")
	if err != nil {
		b.Fatal(err)
	}
	payload, _ := hex.DecodeString("0100e202290400270506060308070e41")
	load := e.Codec
	if trusted {
		load = e.TrustedCodec
	}
	c, err := load(context.Background(), string(src))
	if err != nil {
		b.Fatal(err)
	}
	return c, sandbox.Input{Bytes: payload, FPort: 5, RecvTime: time.Now(), Tenant: "acme"}
}

func BenchmarkDecodeUplink(b *testing.B) {
	for _, trusted := range []bool{false, true} {
		b.Run(fmt.Sprintf("trusted=%v", trusted), func(b *testing.B) {
			e := newEngine(b, sandbox.Options{})
			c, in := tlvCodec(b, e, trusted)
			ctx := context.Background()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := c.DecodeUplink(ctx, in, sandbox.Limits{Time: time.Second}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkDecodeUplinkParallel(b *testing.B) {
	for _, trusted := range []bool{false, true} {
		b.Run(fmt.Sprintf("trusted=%v", trusted), func(b *testing.B) {
			e := newEngine(b, sandbox.Options{})
			c, in := tlvCodec(b, e, trusted)
			ctx := context.Background()
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					if _, err := c.DecodeUplink(ctx, in, sandbox.Limits{Time: time.Second}); err != nil {
						b.Error(err)
						return
					}
				}
			})
		})
	}
}

// BenchmarkDecodeUplinkTenants decodes for tenants taking turns, so that
// each call has the image copied back first, and without a tenant, so that
// each call has it copied back after.
func BenchmarkDecodeUplinkTenants(b *testing.B) {
	for _, tenants := range []int{2, 0} {
		b.Run(fmt.Sprintf("tenants=%d", tenants), func(b *testing.B) {
			e := newEngine(b, sandbox.Options{PoolSize: 1})
			c, in := tlvCodec(b, e, false)
			ctx := context.Background()
			names := []string{"", "acme", "beta"}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if tenants == 0 {
					in.Tenant = ""
				} else {
					in.Tenant = names[1+i%tenants]
				}
				if _, err := c.DecodeUplink(ctx, in, sandbox.Limits{Time: time.Second}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkFirstDecode loads a codec the engine has not seen and decodes once.
func BenchmarkFirstDecode(b *testing.B) {
	e := newEngine(b, sandbox.Options{})
	src, err := os.ReadFile("testdata/codecs/tlv_loop.js")
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c, err := e.Codec(ctx, fmt.Sprintf("%s\n// %d", src, i))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := c.DecodeUplink(ctx, sandbox.Input{Bytes: []byte{1, 0, 0xe2}}, sandbox.Limits{Time: time.Second}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkWASMDecodeUplink(b *testing.B) {
	e := newEngine(b, sandbox.Options{})
	c, err := e.WASMCodec(context.Background(), exampleDecoder(b))
	if err != nil {
		b.Fatal(err)
	}
	in := sandbox.Input{FPort: 1, Bytes: []byte{0x08, 0xfc, 0x50, 0x0e, 0x10}, RecvTime: time.Now(), Tenant: "acme"}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := c.DecodeUplink(context.Background(), in, sandbox.Limits{Time: time.Second}); err != nil {
			b.Fatal(err)
		}
	}
}
