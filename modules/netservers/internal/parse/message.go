// Package parse turns the bodies that network servers and devices post into
// one normalised Message: a device message for the ingest or a report about
// a downlink. Its functions are pure: they read nothing but
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
	"github.com/fieldhub/fieldhub/modules/netservers"
)

// Message is one body, normalised: a message about a device, which the
// ingest takes (Device), a network server's report about a downlink
// (Downlink), or neither, for a message of a known type that Fieldhub has
// no use for (a location, a queued downlink, service data).
type Message struct {
	Device   *ingest.Message
	Downlink *netservers.DownlinkReport
}

// DevEUI is the device the message names, 16 lower-case hexadecimal
// digits; "" for none (a report of The Things Stack may lack it, and a
// message of no use is not kept).
func (m Message) DevEUI() string {
	switch {
	case m.Device != nil:
		return m.Device.DevEUI
	case m.Downlink != nil:
		return m.Downlink.DevEUI
	}
	return ""
}

// kind is what a body reports, as the parsers sort them before they read
// it: one of the ingest's kinds, one of the downlink reports, or of no use.
type kind string

const (
	kindUplink         = kind(ingest.KindUplink)
	kindJoin           = kind(ingest.KindJoin)
	kindStatus         = kind(ingest.KindStatus)
	kindLog            = kind(ingest.KindLog)
	kindDownlinkSent   = kind(netservers.ReportSent)
	kindDownlinkAck    = kind(netservers.ReportAck)
	kindDownlinkFailed = kind(netservers.ReportFailed)
	kindOther          = kind("other")
)

// envelope is what every message says, whatever it reports.
type envelope struct {
	kind   kind
	source string
	devEUI string
	time   time.Time
}

// device is the device message of e, without its particulars.
func (e envelope) device() *ingest.Message {
	return &ingest.Message{Kind: ingest.Kind(e.kind), Source: e.source, DevEUI: e.devEUI, Time: e.time}
}

// report is the downlink report of e, without its particulars.
func (e envelope) report() *netservers.DownlinkReport {
	return &netservers.DownlinkReport{Kind: netservers.ReportKind(e.kind), Source: e.source, DevEUI: e.devEUI, Time: e.time}
}

// Message IDs of the validation errors (locale catalog keys).
const (
	IDEventUnknown   = "ingest.event.unknown"
	IDMessageUnknown = "ingest.message.unknown"
	IDDevEUIInvalid  = "ingest.devEui.invalid"
	IDTimeInvalid    = "ingest.time.invalid"
	// IDTimeTooOld: a time further back than Window.MaxAge ({days}).
	IDTimeTooOld = "ingest.time.tooOld"
	// IDNumberRange: a radio or battery reading outside what any device
	// reports ({min} to {max}).
	IDNumberRange   = "ingest.number.range"
	IDPortInvalid   = "ingest.fPort.invalid"
	IDDataInvalid   = "ingest.data.invalid"
	IDDataTooLong   = "ingest.data.tooLong"
	IDNumberInvalid = ingest.IDNumberInvalid
	IDFieldUnknown  = "ingest.field.unknown"
	IDBadJSONType   = "error.badJsonType"
)

// Window is when the time of a message may lie: from MaxAge before Now
// (the time of arrival) to ingest.MaxFuture after it. A network server
// that delivers late, or a device that posts its history, sends times in
// the past; a time further back (a clock at 1970) is refused, as is one
// ahead. A zero MaxAge is netservers.DefaultMaxAgeDays.
type Window struct {
	Now    time.Time
	MaxAge time.Duration
}

func (w Window) maxAge() time.Duration {
	if w.MaxAge <= 0 {
		return netservers.DefaultMaxAgeDays * 24 * time.Hour
	}
	return w.MaxAge
}

// validTime reports whether t can be stored and is not too far ahead of
// now.
func validTime(t, now time.Time) bool {
	return !t.Before(tsdb.MinTime) && t.Before(tsdb.MaxTime) && !t.After(now.Add(ingest.MaxFuture))
}

// Plausible ranges of the readings that messages carry beside their
// payload: anything outside is not a reading but a broken or hostile
// sender, and would become a node's battery or signal.
const (
	// RSSI in dBm: LoRa gateways hear down to about -140 dBm, and nothing
	// is received above +30.
	minRSSI, maxRSSI = -200, 50
	// SNR in dB: LoRa demodulates down to about -20 dB.
	minSNR, maxSNR = -50, 50
	// The generic form's battery: volts, millivolts or percent.
	minBattery, maxBattery = 0, 100_000
	// ChirpStack's battery level in percent, and the link margin of
	// DevStatusAns in dB (6 bits, signed).
	minLevel, maxLevel   = 0, 100
	minMargin, maxMargin = -128, 127
)
