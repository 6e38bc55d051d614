package netservers

import "time"

// Sources name the network servers, and the generic form, that messages
// come from; they are also the node pool's sources (ingest.Message.Source).
const (
	SourceChirpStack = "chirpstack"
	SourceTTS        = "tts"
	SourceGeneric    = "generic"
)

// ReportKind is what a network server reports about a downlink.
type ReportKind string

// The kinds of DownlinkReport.
const (
	// ReportSent reports that a gateway took the downlink for
	// transmission (ChirpStack txack, The Things Stack downlink_sent).
	ReportSent ReportKind = "downlinkSent"
	// ReportAck reports the device's answer to a confirmed downlink:
	// Acknowledged says whether it confirmed it (ChirpStack ack, The
	// Things Stack downlink_ack and downlink_nack).
	ReportAck ReportKind = "downlinkAck"
	// ReportFailed reports a downlink the network server gave up on;
	// Error says why (The Things Stack downlink_failed).
	ReportFailed ReportKind = "downlinkFailed"
)

// DownlinkReport is what a network server reports about a downlink the
// worker handed it. It names the downlink by the DownlinkRef among Refs.
type DownlinkReport struct {
	Kind ReportKind
	// Source names the network server (SourceChirpStack, SourceTTS).
	Source string
	// DevEUI is 16 lower-case hexadecimal digits; "" when the report names
	// no device (The Things Stack's downlink_failed may not).
	DevEUI string
	// Time is when the network server sent the report; the time of
	// arrival when the body gives none.
	Time time.Time
	// Refs are the identifiers the network server gives the downlink:
	// ChirpStack's queue item id, The Things Stack's correlation ids.
	Refs []string
	// Acknowledged is, for ReportAck, whether the device confirmed the
	// downlink.
	Acknowledged bool
	FPort        int
	FCntDown     int64
	GatewayID    string
	// Error is, for ReportFailed, the network server's reason.
	Error string
}

// MaxBody is the body limit of the routes network servers and devices post
// to: a LoRaWAN uplink with its metadata is a few kilobytes.
const MaxBody = 1 << 20
