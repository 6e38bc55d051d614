package decoding

import (
	"context"
	"encoding/hex"
	"strings"
	"time"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/decoders"
)

// maxTestPayload is the largest payload a test call decodes: the ingest's
// limit (far above LoRaWAN's 242 bytes, for IP devices).
const maxTestPayload = 4096

// TestInput is the body of POST /api/decoder/test.
type TestInput struct {
	// One of Key (a decoder of the catalog, custom ones included), Script
	// (JavaScript source) and WASM (a module in base64).
	Key    *string `json:"key"`
	Script *string `json:"script"`
	WASM   *string `json:"wasm"`
	FPort  *int    `json:"fPort"`
	// The payload: Bytes in hex, or Base64.
	Bytes     *string           `json:"bytes"`
	Base64    *string           `json:"base64"`
	Variables map[string]string `json:"variables"`
	// RecvTime is input.recvTime (and the codec's clock); default now.
	RecvTime *time.Time `json:"recvTime"`
}

// RunTest validates a test call and runs it under the limits of company,
// within its decode budget: what the codec does wrong is in the Output, as
// for Decode.
func (s *Service) RunTest(ctx context.Context, company int64, in TestInput) (decoders.Output, error) {
	v := &errs.Validation{}
	codecs := 0
	for _, p := range []*string{in.Key, in.Script, in.WASM} {
		if p != nil {
			codecs++
		}
	}
	switch {
	case codecs == 0:
		v.Add("key", decoders.IDTestCodecNeeded)
	case codecs > 1:
		v.Add("key", decoders.IDCodecOne)
	}
	var module []byte
	if in.Script != nil {
		CodecInput{Source: in.Script}.content(v, decoders.KindJS)
		if v.Has("source") {
			v = renameField(v, "source", "script")
		}
	}
	if in.WASM != nil {
		_, module = CodecInput{Module: in.WASM}.content(v, decoders.KindWASM)
		if v.Has("module") {
			v = renameField(v, "module", "wasm")
		}
	}
	if in.FPort == nil || *in.FPort < 0 || *in.FPort > 255 {
		v.Add("fPort", decoders.IDTestFPort)
	}
	payload := readPayload(v, in.Bytes, in.Base64)
	if err := v.Err(); err != nil {
		return decoders.Output{}, err
	}
	inp := decoders.Input{Company: company, FPort: *in.FPort, Bytes: payload, Variables: in.Variables, RecvTime: time.Now().UTC()}
	if in.RecvTime != nil {
		inp.RecvTime = in.RecvTime.UTC()
	}
	if in.Key != nil {
		key := strings.TrimSpace(*in.Key)
		if key == decoders.Raw {
			return decodeRaw(inp), nil
		}
		l, err := s.resolve(ctx, company, key)
		if err != nil {
			return decoders.Output{}, err
		}
		lim, err := s.companyLimits(ctx, company)
		if err != nil {
			return decoders.Output{}, err
		}
		// A switched-off decoder is run all the same: the test call is
		// how its company finds out what is wrong with it. A test call
		// starts clean, whatever the company's uplinks left.
		var out decoders.Output
		err = s.runBudgeted(ctx, company, func() (err error) {
			out, _, err = run(ctx, l, inp, lim, "")
			return err
		})
		return out, err
	}
	e := s.scratch.Load()
	if e == nil {
		return decoders.Output{}, errNotStarted()
	}
	kind, content := decoders.KindJS, []byte(derefString(in.Script))
	if in.WASM != nil {
		kind, content = decoders.KindWASM, module
	}
	lim, err := s.companyLimits(ctx, company)
	if err != nil {
		return decoders.Output{}, err
	}
	var out decoders.Output
	err = s.runBudgeted(ctx, company, func() error {
		l, err := load(ctx, e, kind, content, false)
		if err != nil {
			return err
		}
		out, _, err = run(ctx, l, inp, lim, "")
		return err
	})
	return out, err
}

func derefString(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// readPayload reads a test payload given in hex (spaces, colons and a 0x
// prefix allowed, as people paste it) or in base64; neither is an empty
// payload.
func readPayload(v *errs.Validation, hexText, b64 *string) []byte {
	if hexText != nil && b64 != nil {
		v.Add("bytes", decoders.IDTestPayloadOne)
		return nil
	}
	var b []byte
	var err error
	field := "bytes"
	switch {
	case hexText != nil:
		s := strings.NewReplacer(" ", "", ":", "", "-", "", "\n", "", "\t", "").Replace(strings.TrimSpace(*hexText))
		s = strings.TrimPrefix(strings.TrimPrefix(s, "0x"), "0X")
		if b, err = hex.DecodeString(s); err != nil {
			v.Add("bytes", decoders.IDTestHex)
			return nil
		}
	case b64 != nil:
		field = "base64"
		if strings.TrimSpace(*b64) == "" {
			break
		}
		if b, err = decodeBase64(*b64); err != nil {
			v.Add("base64", decoders.IDTestBase64)
			return nil
		}
	}
	if len(b) > maxTestPayload {
		v.AddArgs(field, decoders.IDTestPayloadLarge, map[string]any{"max": maxTestPayload})
		return nil
	}
	return b
}

// renameField moves the field errors of one field to another name.
func renameField(v *errs.Validation, from, to string) *errs.Validation {
	out := &errs.Validation{}
	err, _ := v.Err().(*errs.Error)
	if err == nil {
		return out
	}
	for _, f := range err.Fields {
		name := f.Field
		if name == from {
			name = to
		}
		out.AddArgs(name, f.ID, f.Args)
	}
	return out
}
