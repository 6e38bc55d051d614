package parse

import (
	"math"
	"time"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/ingest"
)

// ChirpStack event types, as the HTTP integration's ?event= and the MQTT
// topic's last segment name them.
const (
	ChirpStackUp          = "up"
	ChirpStackJoin        = "join"
	ChirpStackStatus      = "status"
	ChirpStackAck         = "ack"
	ChirpStackTxAck       = "txack"
	ChirpStackLog         = "log"
	ChirpStackLocation    = "location"
	ChirpStackIntegration = "integration"
)

// ChirpStack parses an event of ChirpStack v4 in its JSON encoding
// (protobuf's JSON mapping: camelCase names, default values left out or
// written, 64-bit integers possibly as strings, bytes as base64). now is the
// time of arrival, the time of an event that names none.
func ChirpStack(event string, body []byte, now time.Time) (Message, error) {
	var kind Kind
	switch event {
	case ChirpStackUp:
		kind = KindUplink
	case ChirpStackJoin:
		kind = KindJoin
	case ChirpStackStatus:
		kind = KindStatus
	case ChirpStackAck:
		kind = KindDownlinkAck
	case ChirpStackTxAck:
		kind = KindDownlinkSent
	case ChirpStackLog:
		kind = KindLog
	case ChirpStackLocation, ChirpStackIntegration:
		kind = KindOther
	default:
		v := errs.Validation{}
		v.AddArgs("event", IDEventUnknown, map[string]any{"event": ingest.CleanText(cut(event))})
		return Message{}, v.Err()
	}
	m, err := decodeBody(body)
	if err != nil {
		return Message{}, err
	}
	v := &errs.Validation{}
	root := obj{m: m, v: v}
	device := root.object("deviceInfo")
	msg := Message{Kind: kind, Source: SourceChirpStack, DevEUI: device.devEUI("devEui")}
	msg.Time = root.time("time", now.UTC(), now)
	switch kind {
	case KindUplink:
		msg.Uplink = chirpStackUplink(root, device, msg)
	case KindStatus:
		s := &Status{Margin: root.numberPtr("margin"), ExternalPower: root.boolean("externalPowerSource")}
		level := root.numberPtr("batteryLevel")
		if !root.boolean("batteryLevelUnavailable") && !s.ExternalPower {
			s.BatteryLevel = level
		}
		msg.Status = s
	case KindDownlinkAck, KindDownlinkSent:
		d := &Downlink{Acknowledged: root.boolean("acknowledged"), GatewayID: root.str("gatewayId")}
		if ref := root.str("queueItemId"); ref != "" {
			d.Refs = []string{ref}
		}
		d.FCntDown, _ = root.integer("fCntDown", 0, math.MaxUint32, IDNumberInvalid)
		msg.Downlink = d
	case KindLog:
		msg.Log = &Log{Level: root.str("level"), Code: root.str("code"), Description: root.str("description")}
	}
	if err := v.Err(); err != nil {
		return Message{}, err
	}
	return msg, nil
}

func chirpStackUplink(root, device obj, msg Message) *Uplink {
	u := &Uplink{DevEUI: msg.DevEUI, Time: msg.Time, DeviceName: device.str("deviceName")}
	port, _ := root.integer("fPort", 0, 255, IDPortInvalid)
	u.FPort = int(port)
	u.FCnt, _ = root.integer("fCnt", 0, math.MaxUint32, IDNumberInvalid)
	dr, _ := root.integer("dr", 0, 15, IDNumberInvalid)
	u.DR = int(dr)
	u.Payload = root.bytes("data")
	u.Object = root.values("object")
	u.DevAddr = root.str("devAddr")
	u.Confirmed = root.boolean("confirmed")
	rx := root.array("rxInfo")
	for i := range rx {
		g := root.at(rx, "rxInfo", i)
		rssi := g.numberPtr("rssi")
		snr := g.numberPtr("snr")
		u.Gateways++
		if u.RSSI == nil || rssi != nil && *rssi > *u.RSSI {
			u.RSSI, u.SNR, u.GatewayID = rssi, snr, g.str("gatewayId")
		}
	}
	tx := root.object("txInfo")
	u.Frequency, _ = tx.integer("frequency", 0, math.MaxUint32, IDNumberInvalid)
	sf, _ := tx.object("modulation").object("lora").integer("spreadingFactor", 0, 12, IDNumberInvalid)
	u.SpreadingFactor = int(sf)
	return u
}
