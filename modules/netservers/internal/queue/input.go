package queue

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"strings"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/netservers"
	"github.com/fieldhub/fieldhub/modules/nodes"
)

// Limits of a downlink.
const (
	maxPort        = 223 // LoRaWAN application ports are 1-223
	maxPayload     = 242 // the largest LoRaWAN application payload, in bytes
	maxJSONPayload = 4096
)

// Input is the body of POST /downlink/{tagId}. Payload is a string; a JSON
// payload may also be given as the object itself.
type Input struct {
	Port        int             `json:"port"`
	Payload     json.RawMessage `json:"payload"`
	PayloadType string          `json:"payloadType"`
	Confirmed   bool            `json:"confirmed"`
}

// newDownlink validates in into a queued downlink for t.
func newDownlink(t *nodes.Tag, in Input) (*netservers.Downlink, error) {
	v := &errs.Validation{}
	switch {
	case in.Port <= 0:
		v.Add("port", netservers.IDPortMin)
	case in.Port > maxPort:
		v.AddArgs("port", netservers.IDPortMax, map[string]any{"max": maxPort})
	}
	kind := strings.ToLower(strings.TrimSpace(in.PayloadType))
	if kind != "hex" && kind != "base64" && kind != "json" {
		v.Add("payloadType", netservers.IDPayloadType)
	}
	var payload string
	raw := strings.TrimSpace(string(in.Payload))
	shaped := true
	switch {
	case raw == "" || raw == "null":
	case strings.HasPrefix(raw, `"`):
		shaped = json.Unmarshal([]byte(raw), &payload) == nil
	case kind == "json":
		payload = raw
	default:
		shaped = false
	}
	switch {
	case v.Has("payloadType"):
	case !shaped:
		v.Add("payload", payloadMessage[kind])
	default:
		payload = checkPayload(v, kind, payload)
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	return &netservers.Downlink{TagID: t.ID, DevEUI: t.DevEUI, ApplicationID: t.ApplicationID, CompanyID: t.CompanyID,
		Port: in.Port, Payload: payload, PayloadType: kind, Confirmed: in.Confirmed, Status: netservers.DownlinkQueued}, nil
}

// payloadMessage is the message for a payload that is not of its type.
var payloadMessage = map[string]string{"hex": netservers.IDPayloadHex, "base64": netservers.IDPayloadBase64, "json": netservers.IDPayloadJSON}

// checkPayload validates a downlink payload of the given type and returns it
// normalised: hex without separators in upper case, base64 in its standard
// padded form, JSON compacted.
func checkPayload(v *errs.Validation, payloadType, payload string) string {
	if payload == "" {
		v.Add("payload", errs.IDRequired)
		return ""
	}
	tooLong := func() { v.AddArgs("payload", netservers.IDPayloadTooLong, map[string]any{"max": maxPayload}) }
	switch payloadType {
	case "hex":
		h := nodes.NormaliseEUI(payload)
		raw, err := hex.DecodeString(h)
		switch {
		case err != nil || len(h) == 0:
			v.Add("payload", netservers.IDPayloadHex)
		case len(raw) > maxPayload:
			tooLong()
		}
		return h
	case "base64":
		raw, err := base64.StdEncoding.DecodeString(strings.TrimSpace(payload))
		if err != nil {
			raw, err = base64.RawStdEncoding.DecodeString(strings.TrimSpace(payload))
		}
		switch {
		case err != nil || len(raw) == 0:
			v.Add("payload", netservers.IDPayloadBase64)
		case len(raw) > maxPayload:
			tooLong()
		}
		return base64.StdEncoding.EncodeToString(raw)
	case "json":
		var obj map[string]any
		if len(payload) > maxJSONPayload {
			v.AddArgs("payload", netservers.IDPayloadTooLong, map[string]any{"max": maxJSONPayload})
			return ""
		}
		if err := json.Unmarshal([]byte(payload), &obj); err != nil || obj == nil {
			v.Add("payload", netservers.IDPayloadJSON)
			return ""
		}
		out, _ := json.Marshal(obj)
		return string(out)
	}
	return payload
}

// cleanDetail makes a network server's words storable text.
func cleanDetail(s string) string {
	return strings.ToValidUTF8(strings.ReplaceAll(s, "\x00", ""), "")
}
