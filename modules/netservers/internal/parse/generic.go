package parse

import (
	"strings"

	"github.com/fieldhub/fieldhub/kernel/errs"
	"github.com/fieldhub/fieldhub/modules/ingest"
	"github.com/fieldhub/fieldhub/modules/netservers"
)

// genericFields are the fields of the generic form; names match without
// regard to case ("deveui", "devEUI").
var genericFields = []string{"devEui", "time", "fPort", "data", "values", "rssi", "snr", "battery", "rxInfo"}

// maxUnknown is how many unknown fields an answer names.
const maxUnknown = 20

// Generic parses Fieldhub's own JSON form for devices and gateways that post
// directly (README.md, "Generic ingest JSON"):
//
//	{"devEui": "70B3D57ED0000001", "time": "2024-05-01T12:00:00Z", "fPort": 2,
//	 "data": "AQI=", "values": {"temperature": 21.5}, "rssi": -80, "snr": 7.5, "battery": 3.6,
//	 "rxInfo": [{"gatewayId": "0016c001f153a14c", "rssi": -80, "snr": 7.5}]}
//
// Only devEui is required; time defaults to now and must lie within w.
// rssi, snr and battery must be plausible readings. rxInfo names the
// gateways that heard the uplink, in ChirpStack's shape; without rssi and
// snr the best of them (highest RSSI) stands for the uplink's. Unlike the network
// servers' bodies, an unknown field is an error, so that a misspelt one is
// not silently lost.
func Generic(body []byte, w Window) (Message, error) {
	m, err := decodeBody(body)
	if err != nil {
		return Message{}, err
	}
	v := &errs.Validation{}
	canon := map[string]any{}
	unknown := 0
	for k, x := range m {
		name := ""
		for _, f := range genericFields {
			if strings.EqualFold(k, f) {
				name = f
				break
			}
		}
		if name == "" {
			if unknown++; unknown <= maxUnknown {
				f := cut(ingest.CleanText(k))
				v.AddArgs(f, IDFieldUnknown, map[string]any{"field": f})
			}
			continue
		}
		canon[name] = x
	}
	root := obj{m: canon, v: v}
	u := &ingest.Uplink{DevEUI: root.devEUI("devEui")}
	best := -1 // the reception with the highest RSSI
	u.Time = root.time("time", w.Now.UTC(), w)
	port, _ := root.integer("fPort", 0, 255, IDPortInvalid)
	u.FPort = int(port)
	u.Payload = root.bytes("data")
	u.Values = root.values("values")
	u.RSSI = root.reading("rssi", minRSSI, maxRSSI)
	u.SNR = root.reading("snr", minSNR, maxSNR)
	u.Battery = root.reading("battery", minBattery, maxBattery)
	rx := root.array("rxInfo")
	for i := range rx {
		g := root.at(rx, "rxInfo", i)
		rssi := g.reading("rssi", minRSSI, maxRSSI)
		snr := g.reading("snr", minSNR, maxSNR)
		u.Gateways++
		u.Receptions = append(u.Receptions, ingest.Reception{GatewayID: g.str("gatewayId"), RSSI: rssi, SNR: snr})
		if rssi != nil && (best < 0 || *rssi > *u.Receptions[best].RSSI) {
			best = len(u.Receptions) - 1
		}
	}
	if best >= 0 {
		u.GatewayID = u.Receptions[best].GatewayID
		if u.RSSI == nil && u.SNR == nil {
			u.RSSI, u.SNR = u.Receptions[best].RSSI, u.Receptions[best].SNR
		}
	}
	if err := v.Err(); err != nil {
		return Message{}, err
	}
	return Message{Device: &ingest.Message{Kind: ingest.KindUplink, Source: netservers.SourceGeneric, DevEUI: u.DevEUI, Time: u.Time, Uplink: u}}, nil
}
