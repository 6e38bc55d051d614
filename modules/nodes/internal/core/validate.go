package core

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"net/netip"
	"net/url"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/fieldhub/fieldhub/kernel/egress"
	"github.com/fieldhub/fieldhub/kernel/errs"
)

// Message IDs of this module; each is a key of the locale catalogs.
const (
	msgAppNameRequired   = "nodes.application.name.required"
	msgAppNameTooLong    = "nodes.application.name.tooLong"
	msgAppNoCompany      = "nodes.application.noCompany"
	msgAppNetworkServer  = "nodes.application.networkServer"
	msgAppChirpStackID   = "nodes.application.chirpstackId"
	msgAppTTSURL         = "nodes.application.ttsUrl"
	msgAppTTSPrivate     = "nodes.application.ttsUrlPrivate"
	msgAppHasTags        = "nodes.application.hasTags"
	msgAppUnknown        = "nodes.application.unknown"
	msgDevEUIFormat      = "nodes.deveui.format"
	msgDevEUITaken       = "nodes.deveui.taken"
	msgAppKeyFormat      = "nodes.appKey.format"
	msgAppEUIFormat      = "nodes.appEui.format"
	msgLatRange          = "nodes.lat.range"
	msgLongRange         = "nodes.long.range"
	msgDecoderUnknown    = "nodes.decoder.unknown"
	msgTextInvalid       = "nodes.text.invalid"
	msgKeyFormat         = "nodes.key.format"
	msgKeyTaken          = "nodes.key.taken"
	msgKeyDecimals       = "nodes.key.decimals"
	msgPoolStatus        = "nodes.pool.status"
	msgTokenInvalid      = "nodes.token.invalid"
	msgPortMin           = "nodes.downlink.port.min"
	msgPortMax           = "nodes.downlink.port.max"
	msgPayloadType       = "nodes.downlink.payloadType"
	msgPayloadHex        = "nodes.downlink.payload.hex"
	msgPayloadBase64     = "nodes.downlink.payload.base64"
	msgPayloadJSON       = "nodes.downlink.payload.json"
	msgPayloadTooLong    = "nodes.downlink.payload.tooLong"
	msgDownlinkNotQueued = "nodes.downlink.notQueued"
	msgDownlinkStatus    = "nodes.downlink.status"
)

// Limits of stored values.
const (
	maxAppName     = 254 // SPEC.md section 5: "under 255 characters"
	maxName        = 255
	maxText        = 255
	maxType        = 64
	maxURL         = 2048
	maxAPIKey      = 1024
	maxUnit        = 32
	maxDecimals    = 10
	maxPort        = 223 // LoRaWAN application ports are 1-223
	maxPayload     = 242 // the largest LoRaWAN application payload, in bytes
	maxJSONPayload = 4096
)

// The network servers an application's nodes may talk through.
const (
	NetworkChirpStack = "chirpstack"
	NetworkTTS        = "tts"
	NetworkGeneric    = "generic"
)

var (
	euiStrip   = strings.NewReplacer(" ", "", "-", "", ":", "")
	hex16      = regexp.MustCompile(`^[0-9A-F]{16}$`)
	hex32      = regexp.MustCompile(`^[0-9A-F]{32}$`)
	keyPattern = regexp.MustCompile(`^[A-Za-z0-9_.\-]{1,64}$`)
	uuid       = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
)

// NormaliseEUI strips spaces, dashes and colons and upper-cases s, so that
// "70-b3-d5-7e-d0-05-a1-b2" and "70B3D57ED005A1B2" name the same device.
func NormaliseEUI(s string) string { return strings.ToUpper(euiStrip.Replace(strings.TrimSpace(s))) }

// ValidDevEUI reports whether s, normalised, is 16 hexadecimal digits.
func ValidDevEUI(s string) bool { return hex16.MatchString(s) }

// cleanText reports whether s holds only printable text: control characters
// (NUL above all, which PostgreSQL refuses) are not accepted.
func cleanText(s string) bool {
	for _, r := range s {
		if unicode.IsControl(r) && r != '\t' {
			return false
		}
	}
	return utf8.ValidString(s)
}

// checkText validates a free text into field: required when asked, at most
// max characters, and printable.
func checkText(v *errs.Validation, field, value string, max int, required bool) {
	switch {
	case value == "" && required:
		v.Add(field, errs.IDRequired)
	case utf8.RuneCountInString(value) > max:
		if max == maxName {
			v.Add(field, errs.IDMaxChars255)
		} else {
			v.Add(field, errs.IDTooLong)
		}
	case !cleanText(value):
		v.Add(field, msgTextInvalid)
	}
}

func checkHexField(v *errs.Validation, field, value string, pattern *regexp.Regexp, id string) {
	if value != "" && !pattern.MatchString(value) {
		v.Add(field, id)
	}
}

func validKey(k string) bool { return keyPattern.MatchString(k) }

func validHTTPURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" && len(s) <= maxURL && cleanText(s)
}

// publicHost reports whether an http(s) URL's host may be on the public
// internet: a name ("localhost" aside), which is resolved and checked at
// each delivery (kernel/egress), or an address egress allows. Telling a
// literal private address at once saves a company a downlink that fails.
func publicHost(s string) bool {
	u, err := url.Parse(s)
	if err != nil {
		return false
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return false
	}
	a, err := netip.ParseAddr(host)
	return err != nil || egress.Check(a) == nil
}

// payloadMessage is the message for a payload that is not of its type.
var payloadMessage = map[string]string{"hex": msgPayloadHex, "base64": msgPayloadBase64, "json": msgPayloadJSON}

// checkPayload validates a downlink payload of the given type and returns it
// normalised: hex without separators in upper case, base64 in its standard
// padded form, JSON compacted.
func checkPayload(v *errs.Validation, payloadType, payload string) string {
	if payload == "" {
		v.Add("payload", errs.IDRequired)
		return ""
	}
	tooLong := func() { v.AddArgs("payload", msgPayloadTooLong, map[string]any{"max": maxPayload}) }
	switch payloadType {
	case "hex":
		h := NormaliseEUI(payload)
		raw, err := hex.DecodeString(h)
		switch {
		case err != nil || len(h) == 0:
			v.Add("payload", msgPayloadHex)
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
			v.Add("payload", msgPayloadBase64)
		case len(raw) > maxPayload:
			tooLong()
		}
		return base64.StdEncoding.EncodeToString(raw)
	case "json":
		var obj map[string]any
		if len(payload) > maxJSONPayload {
			v.AddArgs("payload", msgPayloadTooLong, map[string]any{"max": maxJSONPayload})
			return ""
		}
		if err := json.Unmarshal([]byte(payload), &obj); err != nil || obj == nil {
			v.Add("payload", msgPayloadJSON)
			return ""
		}
		out, _ := json.Marshal(obj)
		return string(out)
	}
	return payload
}
