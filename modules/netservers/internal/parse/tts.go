package parse

import (
	"math"
	"strconv"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/ingest"
	"github.com/fieldhub/fieldhub/modules/netservers"
)

// ttsMessages are the message types a webhook of The Things Stack v3 may
// send, each a field of the body, with what they report.
var ttsMessages = []struct {
	field string
	kind  kind
}{
	{"uplink_message", kindUplink},
	{"join_accept", kindJoin},
	{"downlink_ack", kindDownlinkAck},
	{"downlink_nack", kindDownlinkAck},
	{"downlink_sent", kindDownlinkSent},
	{"downlink_failed", kindDownlinkFailed},
	{"downlink_queued", kindOther},
	{"downlink_queue_invalidated", kindOther},
	{"location_solved", kindOther},
	{"service_data", kindOther},
	// The normalised payload repeats an uplink_message that the webhook
	// also sends; storing both would count the uplink twice.
	{"uplink_normalized", kindOther},
}

// TTS parses a webhook message of The Things Stack v3 (JSON with
// snake_case names; zero values left out, so f_port may be absent; 64-bit
// integers such as the frequency written as strings). w.Now is the time of
// arrival, the time of a message that names none; a time must lie within
// w, and the radio readings must be plausible.
func TTS(body []byte, w Window) (Message, error) {
	m, err := decodeBody(body)
	if err != nil {
		return Message{}, err
	}
	v := &errs.Validation{}
	root := obj{m: m, v: v}
	name, k := "", kind("")
	for _, t := range ttsMessages {
		if root.has(t.field) {
			name, k = t.field, t.kind
			break
		}
	}
	if name == "" {
		return Message{}, errs.New(errs.Invalid, IDMessageUnknown)
	}
	ids := root.object("end_device_ids")
	e := envelope{kind: k, source: netservers.SourceTTS}
	if k == kindUplink || k == kindJoin || ids.has("dev_eui") {
		e.devEUI = ids.devEUI("dev_eui")
	}
	e.time = root.time("received_at", w.Now.UTC(), w)
	part := root.object(name)
	var msg Message
	switch name {
	case "uplink_message":
		e.time = part.time("received_at", e.time, w)
		msg.Device = e.device()
		msg.Device.Uplink = ttsUplink(part, ids, e)
	case "join_accept":
		msg.Device = e.device()
	case "downlink_ack", "downlink_nack", "downlink_sent":
		msg.Downlink = ttsDownlink(part, e.report())
		msg.Downlink.Acknowledged = name == "downlink_ack"
	case "downlink_failed":
		msg.Downlink = ttsDownlink(part.object("downlink"), e.report())
		fail := part.object("error")
		msg.Downlink.Error = fail.str("message_format")
		if msg.Downlink.Error == "" {
			msg.Downlink.Error = fail.str("name")
		}
	}
	if err := v.Err(); err != nil {
		return Message{}, err
	}
	return msg, nil
}

func ttsUplink(up, ids obj, e envelope) *ingest.Uplink {
	u := &ingest.Uplink{DevEUI: e.devEUI, Time: e.time, DeviceName: ids.str("device_id"), DevAddr: ids.str("dev_addr")}
	port, _ := up.integer("f_port", 0, 255, IDPortInvalid)
	u.FPort = int(port)
	u.FCnt, _ = up.integer("f_cnt", 0, math.MaxUint32, IDNumberInvalid)
	u.Payload = up.bytes("frm_payload")
	u.Object = up.values("decoded_payload")
	u.Confirmed = up.boolean("confirmed")
	rx := up.array("rx_metadata")
	for i := range rx {
		g := up.at(rx, "rx_metadata", i)
		rssi := g.reading("rssi", minRSSI, maxRSSI)
		if rssi == nil {
			rssi = g.reading("channel_rssi", minRSSI, maxRSSI)
		}
		snr := g.reading("snr", minSNR, maxSNR)
		gw := g.object("gateway_ids")
		id := gw.str("eui")
		if id == "" {
			id = gw.str("gateway_id")
		}
		u.Gateways++
		u.Receptions = append(u.Receptions, ingest.Reception{GatewayID: id, RSSI: rssi, SNR: snr})
		if u.RSSI == nil || rssi != nil && *rssi > *u.RSSI {
			u.RSSI, u.SNR, u.GatewayID = rssi, snr, id
		}
	}
	settings := up.object("settings")
	u.Frequency, _ = settings.integer("frequency", 0, math.MaxUint32, IDNumberInvalid)
	dr, _ := settings.integer("data_rate_index", 0, 15, IDNumberInvalid)
	u.DR = int(dr)
	sf, _ := settings.object("data_rate").object("lora").integer("spreading_factor", 0, 12, IDNumberInvalid)
	u.SpreadingFactor = int(sf)
	return u
}

// ttsDownlink reads the downlink a message of The Things Stack is about
// into out.
func ttsDownlink(d obj, out *netservers.DownlinkReport) *netservers.DownlinkReport {
	port, _ := d.integer("f_port", 0, 255, IDPortInvalid)
	out.FPort = int(port)
	out.FCntDown, _ = d.integer("f_cnt", 0, math.MaxUint32, IDNumberInvalid)
	ids := d.array("correlation_ids")
	for i, x := range ids {
		if s, ok := x.(string); ok && len(out.Refs) < 32 {
			out.Refs = append(out.Refs, s)
		} else if !ok {
			d.typeErr("correlation_ids["+strconv.Itoa(i)+"]", "string")
		}
	}
	return out
}
