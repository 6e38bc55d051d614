package core

import (
	"encoding/json"
	"fmt"
)

// UplinkKey is the reserved time-series key of the uplink records. '$' is
// a character no decoded key can hold (the ingest keeps letters, digits,
// '.', '-' and '_'), and the nodes module's key rule refuses it too, so it
// never shows among a node's keys.
const UplinkKey = "$uplink"

// UplinkRecord is what the ingest keeps of every uplink beside the decoded
// values: the payload and port to decode again later, the radio values of
// the best gateway, and what the decoder failed with. Short JSON names keep
// the point small: it is written once per uplink.
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

// ParseUplinkRecord reads an UplinkKey point's text.
func ParseUplinkRecord(text string) (UplinkRecord, error) {
	var u UplinkRecord
	if err := json.Unmarshal([]byte(text), &u); err != nil {
		return u, fmt.Errorf("read uplink record: %w", err)
	}
	return u, nil
}
