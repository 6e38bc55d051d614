// Package parse turns the bodies that network servers and devices post into
// one normalised Message. Its functions are pure: they read nothing but
// their arguments and change nothing, so that the HTTP routes, the MQTT
// subscriber and the tests share them, and a fuzzer can drive them.
//
// A body that is not what its sender publishes (not JSON, a field of the
// wrong type, a DevEUI that is not 16 hexadecimal digits, payload that is not
// base64, values nested too deep) is an errs.Invalid error whose fields name
// the offending JSON path, so the caller answers 400 and stores nothing.
// Unknown fields of the network servers' bodies are ignored, since both add
// fields from release to release.
package parse

import (
	"time"

	"github.com/fieldhub/fieldhub/kernel/tsdb"
	"github.com/fieldhub/fieldhub/modules/ingest"
)

// Kind is what a message reports.
type Kind string

// The kinds of message.
const (
	// KindUplink carries an uplink: Message.Uplink is set.
	KindUplink Kind = "uplink"
	// KindJoin reports that a device joined (OTAA).
	KindJoin Kind = "join"
	// KindStatus carries a device's battery and link margin:
	// Message.Status is set.
	KindStatus Kind = "status"
	// KindDownlinkSent reports that a gateway took a downlink for
	// transmission (ChirpStack txack, The Things Stack downlink_sent).
	KindDownlinkSent Kind = "downlinkSent"
	// KindDownlinkAck reports the device's answer to a confirmed downlink:
	// Message.Downlink.Acknowledged says whether it confirmed it
	// (ChirpStack ack, The Things Stack downlink_ack and downlink_nack).
	KindDownlinkAck Kind = "downlinkAck"
	// KindDownlinkFailed reports a downlink the network server gave up on;
	// Message.Downlink.Error says why.
	KindDownlinkFailed Kind = "downlinkFailed"
	// KindLog carries a network server's log entry about a device:
	// Message.Log is set.
	KindLog Kind = "log"
	// KindOther is a message of a known type that Fieldhub has no use for
	// (a location, a queued downlink, service data).
	KindOther Kind = "other"
)

// Sources name where a message came from; they are also the node pool's
// sources.
const (
	SourceChirpStack = "chirpstack"
	SourceTTS        = "tts"
	SourceGeneric    = "generic"
)

// Message is one body, normalised.
type Message struct {
	Kind   Kind
	Source string
	// DevEUI is 16 lower-case hexadecimal digits. Only a downlink event of
	// The Things Stack may lack it ("").
	DevEUI string
	// Time is when the network server received or sent the message; the
	// time of arrival when the body gives none.
	Time     time.Time
	Uplink   *Uplink
	Status   *Status
	Downlink *Downlink
	Log      *Log
}

// Uplink is one uplink of a node.
type Uplink struct {
	// DevEUI is 16 lower-case hexadecimal digits, the form of the time
	// series.
	DevEUI string
	// Time is when the network server received the uplink, in UTC; the time
	// of arrival when the body gives none.
	Time time.Time
	// FPort is the LoRaWAN port, 0 when absent (a frame without
	// application payload).
	FPort int
	// FCnt is the uplink frame counter, 0 when absent.
	FCnt int64
	// Payload is the application payload, nil when absent.
	Payload []byte
	// RSSI (dBm) and SNR (dB) are those of the gateway that heard the
	// uplink best (the highest RSSI); nil when no gateway is named.
	RSSI *float64
	SNR  *float64
	// GatewayID names that gateway: ChirpStack's gateway id or The Things
	// Stack's gateway EUI (else its gateway id), as the sender wrote it.
	GatewayID string
	// Gateways is how many gateways heard the uplink.
	Gateways int
	// Frequency is in Hz, 0 when absent; SpreadingFactor and DR are 0 when
	// absent.
	Frequency       int64
	SpreadingFactor int
	DR              int
	DevAddr         string
	Confirmed       bool
	// Object is what the network server's codec decoded (ChirpStack's
	// object, The Things Stack's decoded_payload), nil when absent. Numbers
	// are float64. It stands in for the node's decoder when that is "raw".
	Object map[string]any
	// Values are the generic form's values, decoded by the device itself:
	// stored beside what the node's decoder makes of the payload. Nil when
	// absent.
	Values map[string]any
	// Battery is the generic form's battery reading, nil when absent.
	Battery *float64
	// DeviceName is the network server's name of the device, if any.
	DeviceName string
}

// Status is a device's answer to the network server's status request.
type Status struct {
	// Margin is the link margin of the last uplink, in dB.
	Margin *float64
	// BatteryLevel is in percent; nil when the device could not measure
	// it or runs on external power.
	BatteryLevel  *float64
	ExternalPower bool
}

// Downlink is what a network server reports about a downlink.
type Downlink struct {
	// Refs are the identifiers the network server gives the downlink:
	// ChirpStack's queue item id, The Things Stack's correlation ids.
	Refs []string
	// Acknowledged is, for KindDownlinkAck, whether the device confirmed
	// the downlink.
	Acknowledged bool
	FPort        int
	FCntDown     int64
	GatewayID    string
	// Error is, for KindDownlinkFailed, the network server's reason.
	Error string
}

// Log is a network server's log entry about a device.
type Log struct {
	Level       string
	Code        string
	Description string
}

// Message IDs of the validation errors (locale catalog keys).
const (
	IDEventUnknown   = "ingest.event.unknown"
	IDMessageUnknown = "ingest.message.unknown"
	IDDevEUIInvalid  = "ingest.devEui.invalid"
	IDTimeInvalid    = "ingest.time.invalid"
	IDPortInvalid    = "ingest.fPort.invalid"
	IDDataInvalid    = "ingest.data.invalid"
	IDDataTooLong    = "ingest.data.tooLong"
	IDNumberInvalid  = ingest.IDNumberInvalid
	IDFieldUnknown   = "ingest.field.unknown"
	IDBadJSONType    = "error.badJsonType"
)

// validTime reports whether t can be stored and is not too far ahead of
// now.
func validTime(t, now time.Time) bool {
	return !t.Before(tsdb.MinTime) && t.Before(tsdb.MaxTime) && !t.After(now.Add(ingest.MaxFuture))
}
