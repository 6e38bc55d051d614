package parse

import (
	"math"
	"strconv"
	"time"

	"github.com/fieldhub/fieldhub/kernel/errs"
)

// ttsMessages are the message types a webhook of The Things Stack v3 may
// send, each a field of the body, with what they report.
var ttsMessages = []struct {
	field string
	kind  Kind
}{
	{"uplink_message", KindUplink},
	{"join_accept", KindJoin},
	{"downlink_ack", KindDownlinkAck},
	{"downlink_nack", KindDownlinkAck},
	{"downlink_sent", KindDownlinkSent},
	{"downlink_failed", KindDownlinkFailed},
	{"downlink_queued", KindOther},
	{"downlink_queue_invalidated", KindOther},
	{"location_solved", KindOther},
	{"service_data", KindOther},
	// The normalised payload repeats an uplink_message that the webhook
	// also sends; storing both would count the uplink twice.
	{"uplink_normalized", KindOther},
}

// TTS parses a webhook message of The Things Stack v3 (JSON with
// snake_case names; zero values left out, so f_port may be absent; 64-bit
// integers such as the frequency written as strings). now is the time of
// arrival, the time of a message that names none.
func TTS(body []byte, now time.Time) (Message, error) {
	m, err := decodeBody(body)
	if err != nil {
		return Message{}, err
	}
	v := &errs.Validation{}
	root := obj{m: m, v: v}
	name, kind := "", Kind("")
	for _, t := range ttsMessages {
		if root.has(t.field) {
			name, kind = t.field, t.kind
			break
		}
	}
	if name == "" {
		return Message{}, errs.New(errs.Invalid, IDMessageUnknown)
	}
	ids := root.object("end_device_ids")
	msg := Message{Kind: kind, Source: SourceTTS}
	if kind == KindUplink || kind == KindJoin || ids.has("dev_eui") {
		msg.DevEUI = ids.devEUI("dev_eui")
	}
	msg.Time = root.time("received_at", now.UTC(), now)
	part := root.object(name)
	switch name {
	case "uplink_message":
		msg.Time = part.time("received_at", msg.Time, now)
		msg.Uplink = ttsUplink(part, ids, msg)
	case "downlink_ack", "downlink_nack", "downlink_sent":
		msg.Downlink = ttsDownlink(part)
		msg.Downlink.Acknowledged = name == "downlink_ack"
	case "downlink_failed":
		msg.Downlink = ttsDownlink(part.object("downlink"))
		e := part.object("error")
		msg.Downlink.Error = e.str("message_format")
		if msg.Downlink.Error == "" {
			msg.Downlink.Error = e.str("name")
		}
	}
	if err := v.Err(); err != nil {
		return Message{}, err
	}
	return msg, nil
}

func ttsUplink(up, ids obj, msg Message) *Uplink {
	u := &Uplink{DevEUI: msg.DevEUI, Time: msg.Time, DeviceName: ids.str("device_id"), DevAddr: ids.str("dev_addr")}
	port, _ := up.integer("f_port", 0, 255, IDPortInvalid)
	u.FPort = int(port)
	u.FCnt, _ = up.integer("f_cnt", 0, math.MaxUint32, IDNumberInvalid)
	u.Payload = up.bytes("frm_payload")
	u.Object = up.values("decoded_payload")
	u.Confirmed = up.boolean("confirmed")
	rx := up.array("rx_metadata")
	for i := range rx {
		g := up.at(rx, "rx_metadata", i)
		rssi := g.numberPtr("rssi")
		if rssi == nil {
			rssi = g.numberPtr("channel_rssi")
		}
		snr := g.numberPtr("snr")
		u.Gateways++
		if u.RSSI == nil || rssi != nil && *rssi > *u.RSSI {
			gw := g.object("gateway_ids")
			id := gw.str("eui")
			if id == "" {
				id = gw.str("gateway_id")
			}
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

func ttsDownlink(d obj) *Downlink {
	out := &Downlink{}
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
