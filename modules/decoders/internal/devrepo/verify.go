package devrepo

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/fieldhub/fieldhub/kernel/sandbox"
	"github.com/fieldhub/fieldhub/modules/decoders"
)

// Verify loads c's script on e and runs each of its examples, uplink then
// downlink, under lim. A script that does not load fails every example
// with the sandbox's reason. The error is for what is not the codec's
// fault (ctx ended, the engine closed).
func Verify(ctx context.Context, e *sandbox.Engine, c *Codec, lim sandbox.Limits) (results []decoders.ExampleResult, encoder bool, err error) {
	codec, err := e.Codec(ctx, c.Source)
	var se *sandbox.Error
	if errors.As(err, &se) {
		for _, x := range c.Uplink {
			results = append(results, decoders.ExampleResult{Kind: "uplink", Description: x.Description, Problem: "the codec does not load: " + se.Error()})
		}
		for _, x := range c.Downlink {
			results = append(results, decoders.ExampleResult{Kind: "downlink", Description: x.Description, Problem: "the codec does not load: " + se.Error()})
		}
		return results, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	encoder = codec.Can(sandbox.OpEncodeDownlink)
	for i := range c.Uplink {
		x := &c.Uplink[i]
		res, err := codec.DecodeUplink(ctx, sandbox.Input{Bytes: x.Bytes, FPort: x.FPort}, lim)
		problem, err := outcome(ctx, err, func() string { return compareUplink(x, res) })
		if err != nil {
			return nil, false, err
		}
		results = append(results, decoders.ExampleResult{Kind: "uplink", Description: x.Description, Passed: problem == "", Problem: problem})
	}
	for i := range c.Downlink {
		x := &c.Downlink[i]
		problem := "the codec has no encodeDownlink"
		if encoder {
			res, err := codec.EncodeDownlink(ctx, sandbox.DownlinkInput{Data: x.Data, FPort: x.FPort}, lim)
			if problem, err = outcome(ctx, err, func() string { return compareDownlink(x, res) }); err != nil {
				return nil, false, err
			}
		}
		results = append(results, decoders.ExampleResult{Kind: "downlink", Description: x.Description, Passed: problem == "", Problem: problem})
	}
	return results, encoder, nil
}

// outcome turns a call's error into the example's problem (a codec that
// threw or broke a limit), or compares its answer.
func outcome(ctx context.Context, err error, compare func() string) (string, error) {
	var se *sandbox.Error
	switch {
	case err == nil:
		return compare(), nil
	case errors.As(err, &se):
		return "the codec failed: " + se.Error(), nil
	case ctx.Err() != nil:
		return "", ctx.Err()
	}
	return "", err
}

func compareUplink(x *Example, res sandbox.Result) string {
	var problems []string
	if x.OutData != nil {
		if d := diff("data", normal(x.OutData), normal(res.Data)); d != "" {
			problems = append(problems, d)
		}
	}
	if x.OutErrors != nil && !slices.Equal(x.OutErrors, res.Errors) {
		problems = append(problems, fmt.Sprintf("errors: want %q, got %q", x.OutErrors, res.Errors))
	}
	if x.OutWarnings != nil && !slices.Equal(x.OutWarnings, res.Warnings) {
		problems = append(problems, fmt.Sprintf("warnings: want %q, got %q", x.OutWarnings, res.Warnings))
	}
	return strings.Join(problems, "; ")
}

func compareDownlink(x *Example, res sandbox.EncodeResult) string {
	var problems []string
	if x.OutBytes != nil && !slices.Equal(x.OutBytes, res.Bytes) {
		problems = append(problems, fmt.Sprintf("bytes: want %s, got %s", hex.EncodeToString(x.OutBytes), hex.EncodeToString(res.Bytes)))
	}
	if x.OutFPort != nil && *x.OutFPort != res.FPort {
		problems = append(problems, fmt.Sprintf("fPort: want %d, got %d", *x.OutFPort, res.FPort))
	}
	if x.OutErrors != nil && !slices.Equal(x.OutErrors, res.Errors) {
		problems = append(problems, fmt.Sprintf("errors: want %q, got %q", x.OutErrors, res.Errors))
	}
	return strings.Join(problems, "; ")
}

// normal gives v as JSON reads it back: numbers float64, maps
// map[string]any, so that YAML's ints and the codec's floats compare.
func normal(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}

// diff describes the first difference between want and got under path, ""
// when they agree. Numbers agree when they differ by rounding alone
// (0.07 against 7 * 0.01).
func diff(path string, want, got any) string {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return fmt.Sprintf("%s: want an object, got %s", path, show(got))
		}
		keys := make([]string, 0, len(w)+len(g))
		for k := range w {
			keys = append(keys, k)
		}
		for k := range g {
			if _, ok := w[k]; !ok {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		for _, k := range keys {
			wv, inW := w[k]
			gv, inG := g[k]
			switch {
			case !inG:
				return fmt.Sprintf("%s.%s: missing (want %s)", path, k, show(wv))
			case !inW:
				return fmt.Sprintf("%s.%s: unexpected %s", path, k, show(gv))
			}
			if d := diff(path+"."+k, wv, gv); d != "" {
				return d
			}
		}
		return ""
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return fmt.Sprintf("%s: want %s, got %s", path, show(want), show(got))
		}
		for i := range w {
			if d := diff(fmt.Sprintf("%s[%d]", path, i), w[i], g[i]); d != "" {
				return d
			}
		}
		return ""
	case float64:
		g, ok := got.(float64)
		if !ok || math.Abs(w-g) > 1e-9*math.Max(1, math.Abs(w)) {
			return fmt.Sprintf("%s: want %s, got %s", path, show(want), show(got))
		}
		return ""
	}
	if fmt.Sprint(want) != fmt.Sprint(got) || (want == nil) != (got == nil) {
		return fmt.Sprintf("%s: want %s, got %s", path, show(want), show(got))
	}
	return ""
}

func show(v any) string {
	b, err := json.Marshal(v)
	if err != nil || len(b) > 80 {
		if len(b) > 80 {
			return string(b[:77]) + "..."
		}
		return fmt.Sprint(v)
	}
	return string(b)
}
