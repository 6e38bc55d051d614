package ingest

import "time"

// UplinkReceived is published after an uplink's values are stored and its
// node's state updated.
type UplinkReceived struct {
	CompanyID int64
	TagID     int64
	// DevEUI is 16 lower-case hexadecimal digits, as the time series name
	// it.
	DevEUI string
	// Name is the tag's name.
	Name string
	// Time is when the network server received the uplink.
	Time time.Time
	// Data holds the stored values by key: float64 for numbers (booleans as
	// 0 and 1), string for texts.
	Data map[string]any
	// FCnt, SpreadingFactor and Receptions describe the radio side of the
	// uplink (Uplink's fields of the same names); zero when re-decoded.
	FCnt            int64
	SpreadingFactor int
	Receptions      []Reception
	// Source is "" for an uplink a network server or device sent, and
	// SourceManual or SourceScript for values written through
	// Values.WriteValues, which have no radio side: what counts uplinks
	// (signal tests, triggered scripts) skips those.
	Source string
}

// Topic names the event.
func (UplinkReceived) Topic() string { return "ingest.uplink_received" }

// Level is how much a DeviceEvent matters.
type Level string

// The levels of a DeviceEvent.
const (
	LevelInfo    Level = "info"
	LevelWarning Level = "warning"
	LevelError   Level = "error"
)

// The kinds of DeviceEvent.
const (
	EventJoin    = "join"
	EventStatus  = "status"
	EventLog     = "log"
	EventDecoder = "decoder"
	EventPool    = "pool"
)

// DeviceEvent is published for what the ingest learns about a device beside
// the values of its uplinks, for the log: a join of a node, a device status,
// a network server's log message, a decoder that failed or warned, a DevEUI
// heard without a node that went to the node pool (the last two at most
// once per DevEUI every 15 minutes), and a decoder switched off for
// breaking its limits again and again (once, with the node whose uplink
// was the last straw). Events about a device name only nodes
// of the company the message acted for, or a DevEUI that company's own
// network server sent. Publishing one never holds up the message it is
// about: subscribers must not block. (What became of a downlink is the
// netservers module's netservers.DownlinkOutcome.)
type DeviceEvent struct {
	// CompanyID is the company the message acted for, 0 for none (a
	// ChirpStack MQTT event of an application that no application names).
	CompanyID int64
	// DevEUI is 16 lower-case hexadecimal digits, "" when the message named
	// no device.
	DevEUI string
	Kind   string
	Level  Level
	// Message is the English text. MessageID is its locale catalog key,
	// with Args filling its placeholders, so that a client shows it in its
	// own language; "" for a network server's own text.
	Message   string
	MessageID string
	Args      map[string]any
	// Time is when the ingest learned it.
	Time time.Time
}

// Topic names the event.
func (DeviceEvent) Topic() string { return "ingest.device_event" }

// Message IDs (locale catalog keys) of the device events' texts.
const (
	IDLogJoin          = "logs.entry.join"
	IDLogStatus        = "logs.entry.status"
	IDLogStatusPowered = "logs.entry.statusPowered"
	IDLogPool          = "logs.entry.pool"
	IDLogDecoder       = "logs.entry.decoder"
	// IDLogDecoderOff: the node's decoder was switched off for breaking
	// the sandbox's limits again and again (decoders.SwitchOff).
	IDLogDecoderOff = "logs.entry.decoderOff"
)
