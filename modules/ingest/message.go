package ingest

import "time"

// Kind is what a device message reports.
type Kind string

// The kinds of device message.
const (
	// KindUplink carries an uplink: Message.Uplink is set.
	KindUplink Kind = "uplink"
	// KindJoin reports that a device joined (OTAA).
	KindJoin Kind = "join"
	// KindStatus carries a device's battery and link margin:
	// Message.Status is set.
	KindStatus Kind = "status"
	// KindLog carries a network server's log entry about a device:
	// Message.Log is set.
	KindLog Kind = "log"
)

// Message is one message about a device that a network server or the device
// itself sent, normalised by the network servers' adapters (the netservers
// module) for Service.Process.
type Message struct {
	Kind Kind
	// Source names where the message came from ("chirpstack", "tts",
	// "generic"); it is also the node pool's source of a DevEUI heard
	// without a node.
	Source string
	// DevEUI is 16 lower-case hexadecimal digits.
	DevEUI string
	// Time is when the network server received the message; the time of
	// arrival when the body gives none.
	Time   time.Time
	Uplink *Uplink
	Status *Status
	Log    *Log
	// DecodeWait is how long an uplink's decode may wait for its
	// company's decode budget (decoders.Input.MaxWait); past it the
	// payload is stored raw, with the reason, for decoding again. 0 waits
	// as long as the context lasts. The MQTT subscriber sets it: its
	// acknowledgements go in arrival order, so an uplink waiting for its
	// company's budget would hold up every company's events behind it.
	DecodeWait time.Duration
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
	// Receptions are the gateways that heard the uplink, in the network
	// server's order; empty when it names none.
	Receptions []Reception
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

// Reception is one gateway's hearing of an uplink.
type Reception struct {
	// GatewayID is ChirpStack's gateway id or The Things Stack's gateway
	// EUI (else its gateway id), as the sender wrote it.
	GatewayID string
	// RSSI (dBm) and SNR (dB) are nil when the network server gave none.
	RSSI *float64
	SNR  *float64
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

// Log is a network server's log entry about a device.
type Log struct {
	Level       string
	Code        string
	Description string
}
