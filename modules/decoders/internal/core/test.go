package core

import (
	"context"
	"encoding/hex"
	"net/http"
	"strings"
	"time"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/kernel/web"
)

// maxTestPayload is the largest payload a test call decodes: the ingest's
// limit (far above LoRaWAN's 242 bytes, for IP devices).
const maxTestPayload = 4096

// Message IDs of the test call.
const (
	msgPayloadHex    = "decoders.test.hex"
	msgPayloadBase64 = "decoders.test.base64"
	msgPayloadTooBig = "decoders.test.payloadTooLarge"
	msgPayloadOne    = "decoders.test.payloadOne"
	msgFPort         = "decoders.test.fPort"
	msgCodecNeeded   = "decoders.test.codecNeeded"
)

// testInput is the body of POST /decoder/test.
type testInput struct {
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

// TestResult is the answer of POST /decoder/test.
type TestResult struct {
	Data     map[string]any `json:"data"`
	Warnings []string       `json:"warnings"`
	Errors   []string       `json:"errors"`
	Log      []string       `json:"log"`
	// Micros is how long the codec ran, in microseconds.
	Micros int64 `json:"micros"`
}

// test answers POST /decoder/test: the codec runs under the limits of the
// caller's company (a SuperAdmin's ?companyId=), and whatever it does (a
// throw, a broken limit, a result of the wrong shape) is answered with 200
// and errors, so that a tool or the decoder page shows it.
func (m *Module) test(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	company, err := queryCompany(r, true)
	if err != nil {
		return err
	}
	var in testInput
	if err := web.Decode(r, &in); err != nil {
		return err
	}
	out, err := m.runTest(ctx, company, in)
	if err != nil {
		return err
	}
	res := TestResult{Data: out.Data, Warnings: out.Warnings, Errors: out.Errors, Log: out.Log, Micros: out.Duration.Microseconds()}
	for _, l := range []*[]string{&res.Warnings, &res.Errors, &res.Log} {
		if *l == nil {
			*l = []string{}
		}
	}
	return web.OK(w, res)
}

// runTest validates a test call and runs it.
func (m *Module) runTest(ctx context.Context, company int64, in testInput) (Output, error) {
	v := &errs.Validation{}
	codecs := 0
	for _, p := range []*string{in.Key, in.Script, in.WASM} {
		if p != nil {
			codecs++
		}
	}
	switch {
	case codecs == 0:
		v.Add("key", msgCodecNeeded)
	case codecs > 1:
		v.Add("key", msgCodecOne)
	}
	var module []byte
	if in.Script != nil {
		codecInput{Source: in.Script}.content(v, kindJS)
		if v.Has("source") {
			v = renameField(v, "source", "script")
		}
	}
	if in.WASM != nil {
		_, module = codecInput{Module: in.WASM}.content(v, kindWASM)
		if v.Has("module") {
			v = renameField(v, "module", "wasm")
		}
	}
	if in.FPort == nil || *in.FPort < 0 || *in.FPort > 255 {
		v.Add("fPort", msgFPort)
	}
	payload := readPayload(v, in.Bytes, in.Base64)
	if err := v.Err(); err != nil {
		return Output{}, err
	}
	inp := Input{Company: company, FPort: *in.FPort, Bytes: payload, Variables: in.Variables, RecvTime: time.Now().UTC()}
	if in.RecvTime != nil {
		inp.RecvTime = in.RecvTime.UTC()
	}
	if in.Key != nil {
		key := strings.TrimSpace(*in.Key)
		if key == Raw {
			return decodeRaw(inp), nil
		}
		l, err := m.resolve(ctx, company, key)
		if err != nil {
			return Output{}, err
		}
		lim, err := m.companyLimits(ctx, company)
		if err != nil {
			return Output{}, err
		}
		return run(ctx, l, inp, lim)
	}
	e := m.scratch.Load()
	if e == nil {
		return Output{}, errNotStarted()
	}
	kind, content := kindJS, []byte(derefString(in.Script))
	if in.WASM != nil {
		kind, content = kindWASM, module
	}
	l, err := load(ctx, e, kind, content, false)
	if err != nil {
		return Output{}, err
	}
	lim, err := m.companyLimits(ctx, company)
	if err != nil {
		return Output{}, err
	}
	return run(ctx, l, inp, lim)
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
		v.Add("bytes", msgPayloadOne)
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
			v.Add("bytes", msgPayloadHex)
			return nil
		}
	case b64 != nil:
		field = "base64"
		if strings.TrimSpace(*b64) == "" {
			break
		}
		if b, err = decodeBase64(*b64); err != nil {
			v.Add("base64", msgPayloadBase64)
			return nil
		}
	}
	if len(b) > maxTestPayload {
		v.AddArgs(field, msgPayloadTooBig, map[string]any{"max": maxTestPayload})
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
