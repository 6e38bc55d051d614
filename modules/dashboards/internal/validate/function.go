package validate

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/dashboards"
	"github.com/fieldhub/fieldhub/modules/dashboards/internal/scriptsource"
	"github.com/fieldhub/fieldhub/modules/netservers"
	"github.com/fieldhub/fieldhub/modules/nodes"
)

// WithScripts makes the Checker accept a function button's scriptid only
// when it names an invoked script of the dashboard's company, once src
// knows the script engine.
func (c *Checker) WithScripts(src *scriptsource.Source) *Checker {
	c.scripts = src
	return c
}

// Limits of a DOWNLINK button's downlink: those of the downlink queue
// (LoRaWAN application ports 1-223, a payload of at most 242 bytes, a JSON
// payload of at most 4096 characters before its encoder makes bytes).
const (
	maxDownlinkPort = 223
	maxDownlinkHex  = 242
	maxDownlinkJSON = 4096
)

// inputTypes are the values a VALUEINPUT button writes.
var inputTypes = map[string]bool{dashboards.InputNumber: true, dashboards.InputText: true, dashboards.InputBool: true}

// function checks what a function button (type 12) needs for its kind
// (function_type): SCRIPT its invoked script, VALUEINPUT its node, key and
// value type, DASHBOARD the dashboard it opens, DOWNLINK its node, port and
// payload. w holds the module's already checked fields and attributes, old
// the stored module when it is an update.
func (c *Checker) function(ctx context.Context, w, old *dashboards.Widget, companyID int64, v *errs.Validation, field string) error {
	a := w.Attributes
	at := field + "attributes."
	kind, err := strconv.Atoi(a["function_type"])
	if err != nil || kind < dashboards.FunctionScript || kind > dashboards.FunctionDownlink {
		if !v.Has(at + "function_type") {
			v.Add(at+"function_type", dashboards.IDFunctionKind)
		}
		return nil
	}
	needNode := func() {
		if w.Tag == "" && !v.Has(field+"tag") {
			v.Add(field+"tag", dashboards.IDFunctionNode)
		}
	}
	switch kind {
	case dashboards.FunctionScript:
		if a["scriptid"] == "" {
			if !v.Has(at + "scriptid") {
				v.Add(at+"scriptid", dashboards.IDFunctionScript)
			}
			return nil
		}
		// A script removed since the button was saved does not block saving
		// the dashboard's layout; pressing the button says it is gone.
		if c.scripts == nil || old != nil && old.Attributes["scriptid"] == a["scriptid"] {
			return nil
		}
		ok, err := c.scripts.IsInvoked(ctx, companyID, a["scriptid"])
		if err != nil {
			return err
		}
		if !ok {
			v.Add(at+"scriptid", dashboards.IDFunctionScriptUnknown)
		}
	case dashboards.FunctionValueInput:
		needNode()
		keys := strings.Split(a["tagkey"], ",")
		if a["tagkey"] == "" || len(keys) != 1 || strings.HasPrefix(keys[0], "$") {
			if !v.Has(at + "tagkey") {
				v.Add(at+"tagkey", dashboards.IDFunctionKey)
			}
		}
		if !inputTypes[a["input_type"]] && !v.Has(at+"input_type") {
			v.Add(at+"input_type", dashboards.IDFunctionInputType)
		}
	case dashboards.FunctionDashboard:
		if a["dashboard_id"] == "" && !v.Has(at+"dashboard_id") {
			v.Add(at+"dashboard_id", dashboards.IDFunctionDashboard)
		}
	case dashboards.FunctionDownlink:
		needNode()
		checkDownlink(a, v, at)
	}
	return nil
}

// checkDownlink checks a DOWNLINK button's port, payload type and payload
// as the downlink queue will, with its messages, and stores the payload
// normalised (hex upper case without separators, JSON compacted).
func checkDownlink(a map[string]string, v *errs.Validation, at string) {
	port, err := strconv.Atoi(a["downlink_port"])
	switch {
	case v.Has(at + "downlink_port"):
	case err != nil || port <= 0:
		v.Add(at+"downlink_port", netservers.IDPortMin)
	case port > maxDownlinkPort:
		v.AddArgs(at+"downlink_port", netservers.IDPortMax, map[string]any{"max": maxDownlinkPort})
	}
	payload := strings.TrimSpace(a["downlink_payload"])
	switch a["downlink_payload_type"] {
	case "hex":
		h := nodes.NormaliseEUI(payload)
		raw, err := hex.DecodeString(h)
		switch {
		case payload == "":
			v.Add(at+"downlink_payload", dashboards.IDFunctionPayload)
		case err != nil || h == "":
			v.Add(at+"downlink_payload", netservers.IDPayloadHex)
		case len(raw) > maxDownlinkHex:
			v.AddArgs(at+"downlink_payload", netservers.IDPayloadTooLong, map[string]any{"max": maxDownlinkHex})
		default:
			a["downlink_payload"] = h
		}
	case "json":
		var obj map[string]any
		switch {
		case payload == "":
			v.Add(at+"downlink_payload", dashboards.IDFunctionPayload)
		case len(payload) > maxDownlinkJSON:
			v.AddArgs(at+"downlink_payload", netservers.IDPayloadTooLong, map[string]any{"max": maxDownlinkJSON})
		case json.Unmarshal([]byte(payload), &obj) != nil || obj == nil:
			v.Add(at+"downlink_payload", netservers.IDPayloadJSON)
		default:
			out, _ := json.Marshal(obj)
			a["downlink_payload"] = string(out)
		}
	default:
		if !v.Has(at + "downlink_payload_type") {
			v.Add(at+"downlink_payload_type", dashboards.IDFunctionPayloadType)
		}
	}
}
