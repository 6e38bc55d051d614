package ingest

import (
	"encoding/json"
	"fmt"
	"time"
)

// UplinkResult is the answer to an uplink.
type UplinkResult struct {
	// DevEUI is 16 upper-case hexadecimal digits, as GET /api/tag spells
	// it, whatever case the message had.
	DevEUI string `json:"devEui"`
	// Pooled is true when the DevEUI has no tag in the token's company:
	// the uplink went to the node pool and nothing was stored.
	Pooled bool       `json:"pooled,omitempty"`
	TagID  int64      `json:"tagId,omitempty"`
	Time   *time.Time `json:"time,omitempty"`
	// Keys are the keys stored.
	Keys []string `json:"keys,omitempty"`
	// Warnings are what the decoder reported about the payload.
	Warnings []string `json:"warnings,omitempty"`
}

// UplinkKey is the reserved time-series key under which the ingest keeps
// each uplink's raw payload, port and radio values as one text point (see
// UplinkRecord), so that stored uplinks can be decoded again. '$' is a
// character no decoded key can hold (Flatten keeps letters, digits, '.',
// '-' and '_'), and the nodes module's key rule refuses it too, so it never
// shows among a node's keys.
const UplinkKey = "$uplink"

// UplinkRecord is what the ingest keeps of every uplink beside the decoded
// values, the text point under UplinkKey: the payload and port to decode
// again later, the radio values of the best gateway, and what the decoder
// failed with. Short JSON names keep the point small, since it is written
// once per uplink: {"p": payload hex, "f": fPort, "r": rssi, "s": snr,
// "e": [decode errors]}.
type UplinkRecord struct {
	// Payload is the application payload in lower-case hex.
	Payload string `json:"p"`
	// FPort is the LoRaWAN application port (0: none given).
	FPort int      `json:"f,omitempty"`
	RSSI  *float64 `json:"r,omitempty"`
	SNR   *float64 `json:"s,omitempty"`
	// Errors are the decode errors the codec reported or failed with.
	Errors []string `json:"e,omitempty"`
}

// Text encodes the record as the point's text.
func (u UplinkRecord) Text() string {
	b, err := json.Marshal(u)
	if err != nil { // strings and numbers only: cannot happen
		panic(fmt.Sprintf("encode uplink record: %v", err))
	}
	return string(b)
}

// ParseUplinkRecord reads the text of an UplinkKey point.
func ParseUplinkRecord(text string) (UplinkRecord, error) {
	var u UplinkRecord
	if err := json.Unmarshal([]byte(text), &u); err != nil {
		return u, fmt.Errorf("read uplink record: %w", err)
	}
	return u, nil
}
