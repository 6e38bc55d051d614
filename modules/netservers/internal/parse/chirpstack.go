package parse

import (
	"math"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/ingest"
	"github.com/fieldhub/fieldhub/modules/netservers"
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
// written, 64-bit integers possibly as strings, bytes as base64). w.Now is
// the time of arrival, the time of an event that names none; a time must
// lie within w, and the radio and battery readings must be plausible.
func ChirpStack(event string, body []byte, w Window) (Message, error) {
	var k kind
	switch event {
	case ChirpStackUp:
		k = kindUplink
	case ChirpStackJoin:
		k = kindJoin
	case ChirpStackStatus:
		k = kindStatus
	case ChirpStackAck:
		k = kindDownlinkAck
	case ChirpStackTxAck:
		k = kindDownlinkSent
	case ChirpStackLog:
		k = kindLog
	case ChirpStackLocation, ChirpStackIntegration:
		k = kindOther
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
	e := envelope{kind: k, source: netservers.SourceChirpStack, devEUI: device.devEUI("devEui")}
	e.time = root.time("time", w.Now.UTC(), w)
	var msg Message
	switch k {
	case kindUplink:
		msg.Device = e.device()
		msg.Device.Uplink = chirpStackUplink(root, device, e)
	case kindJoin:
		msg.Device = e.device()
	case kindStatus:
		s := &ingest.Status{Margin: root.reading("margin", minMargin, maxMargin), ExternalPower: root.boolean("externalPowerSource")}
		level := root.reading("batteryLevel", minLevel, maxLevel)
		if !root.boolean("batteryLevelUnavailable") && !s.ExternalPower {
			s.BatteryLevel = level
		}
		msg.Device = e.device()
		msg.Device.Status = s
	case kindDownlinkAck, kindDownlinkSent:
		r := e.report()
		r.Acknowledged, r.GatewayID = root.boolean("acknowledged"), root.str("gatewayId")
		if ref := root.str("queueItemId"); ref != "" {
			r.Refs = []string{ref}
		}
		r.FCntDown, _ = root.integer("fCntDown", 0, math.MaxUint32, IDNumberInvalid)
		msg.Downlink = r
	case kindLog:
		msg.Device = e.device()
		msg.Device.Log = &ingest.Log{Level: root.str("level"), Code: root.str("code"), Description: root.str("description")}
	}
	if err := v.Err(); err != nil {
		return Message{}, err
	}
	return msg, nil
}

func chirpStackUplink(root, device obj, e envelope) *ingest.Uplink {
	u := &ingest.Uplink{DevEUI: e.devEUI, Time: e.time, DeviceName: device.str("deviceName")}
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
		rssi := g.reading("rssi", minRSSI, maxRSSI)
		snr := g.reading("snr", minSNR, maxSNR)
		u.Gateways++
		u.Receptions = append(u.Receptions, ingest.Reception{GatewayID: g.str("gatewayId"), RSSI: rssi, SNR: snr})
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
