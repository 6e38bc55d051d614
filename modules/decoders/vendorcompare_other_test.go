package decoders_test

// The Elsys, MCF88, Ellenex, Abeeway and Acrios keys against their vendors'
// codecs of the fixture repository.

// The sentences of docs/decoders.md that explain the Ellenex keys'
// differences.
const (
	whyEllenexPort    = "the keys read the 8-byte frame on any port, so that nodes of either firmware decode"
	whyEllenexReading = "The generic `ellenex` key does not know the model: it gives bytes 3-4 as `reading` and bytes 5-6 as `reading2`"
)

// abeewayModes are Abeeway's operating modes as the abeeway key names them.
var abeewayModes = map[string]any{"STAND_BY": "standby", "MOTION_START_END_TRACKING": "motion_start_end_tracking"}

// whyAbeewayPayload is the sentence of docs/decoders.md that says why the
// abeeway key leaves out the frame as hex.
const whyAbeewayPayload = "Left out: Abeeway's `payload`, the frame itself as hex"

// The sentences of docs/decoders.md that explain the acrios_load key's
// differences.
const (
	whyAcriosFrame = "Left out: the framing fields of Acrios' output (`l`, `len`, `type`, `fixed`, `cStored`) and each record's `id`, `func` and counter 1's `storage`"
	whyAcriosID    = "the identification number is a string of its eight BCD digits"
	whyAcriosParts = "`frame_index` and `frame_count` tell which uplink of a readout this is"
)

func init() {
	pairings = append(pairings,
		// One TLV decoder for every Elsys model, compared on each model's
		// published example.
		pairing{codec: "ttn/elsys/ers-co2-codec", key: "elsys"},
		pairing{codec: "ttn/elsys/ems-codec", key: "elsys"},
		pairing{codec: "ttn/elsys/ers-sound-codec", key: "elsys"},
		pairing{codec: "ttn/elsys/ers-eye-codec", key: "elsys"},
		pairing{codec: "ttn/elsys/ems-door-codec", key: "elsys"},
		pairing{codec: "ttn/ellenex/pts2-l-codec", key: "ellenex_pts2"},
		pairing{codec: "ttn/ellenex/pls2-l-codec", key: "ellenex_pls2"},
		// The generic key reads the 8-byte frame of every single-reading
		// transmitter.
		pairing{codec: "ttn/ellenex/pts2-l-codec", key: "ellenex"},
		pairing{codec: "ttn/ellenex/pls2-l-codec", key: "ellenex"},
		pairing{codec: "ttn/abeeway/asset-tracker-2-codec", key: "abeeway"},
		pairing{codec: "ttn/acrios/acr-cv-101l-m-x-codec", key: "acrios_load"},
	)
	for _, key := range []string{"ellenex_pts2", "ellenex_pls2", "ellenex"} {
		renames = append(renames, renamed{key: key, vendor: "batteryVoltage", ours: "battery_voltage"})
		for _, path := range []string{"errors", "battery_voltage"} {
			explanations = append(explanations, explained{key: key, path: path, quote: whyEllenexPort})
		}
	}
	renames = append(renames,
		renamed{key: "ellenex", vendor: "pressure", ours: "reading"},
		renamed{key: "ellenex", vendor: "level", ours: "reading"},
	)
	explanations = append(explanations,
		explained{key: "ellenex_pts2", path: "pressure", quote: whyEllenexPort},
		explained{key: "ellenex_pls2", path: "level", quote: whyEllenexPort},
		explained{key: "ellenex", path: "reading", quote: whyEllenexPort},
		explained{key: "ellenex", path: "reading2", quote: whyEllenexReading},
	)
	renames = append(renames,
		renamed{key: "abeeway", vendor: "ackToken", ours: "ack_token"},
		renamed{key: "abeeway", vendor: "age", ours: "age_s"},
		renamed{key: "abeeway", vendor: "appState", ours: "tracking_active", values: map[string]any{"0": false, "1": true}},
		renamed{key: "abeeway", vendor: "batteryLevel", ours: "battery_level"},
		renamed{key: "abeeway", vendor: "batteryStatus", ours: "battery_status", values: map[string]any{"OPERATING": "operating"}},
		renamed{key: "abeeway", vendor: "deviceConfiguration.mode", ours: "operating_mode", values: abeewayModes},
		renamed{key: "abeeway", vendor: "trackingMode", ours: "operating_mode", values: abeewayModes},
		renamed{key: "abeeway", vendor: "dynamicMotionState", ours: "moving", values: map[string]any{"STATIC": false, "MOVING": true}},
		renamed{key: "abeeway", vendor: "eventType", ours: "event_type", values: map[string]any{"GEOLOC_START": "geoloc_start"}},
		renamed{key: "abeeway", vendor: "gpsLatitude", ours: "latitude"},
		renamed{key: "abeeway", vendor: "gpsLongitude", ours: "longitude"},
		renamed{key: "abeeway", vendor: "horizontalAccuracy", ours: "ehpe_m"},
		renamed{key: "abeeway", vendor: "messageType", ours: "message_type", values: map[string]any{"POSITION_MESSAGE": "position", "EVENT": "event"}},
		renamed{key: "abeeway", vendor: "onDemand", ours: "on_demand"},
		renamed{key: "abeeway", vendor: "periodicPosition", ours: "periodic_position"},
		renamed{key: "abeeway", vendor: "rawPositionType", ours: "position_type", values: map[string]any{"GPS": "gps"}},
		renamed{key: "abeeway", vendor: "sosFlag", ours: "sos", values: map[string]any{"0": false, "1": true}},
		renamed{key: "abeeway", vendor: "temperatureMeasure", ours: "temperature"},
	)
	explanations = append(explanations, explained{key: "abeeway", path: "payload", quote: whyAbeewayPayload})
	renames = append(renames,
		renamed{key: "acrios_load", vendor: "accessN", ours: "access_number"},
		renamed{key: "acrios_load", vendor: "deviceCode", ours: "medium_code"},
		renamed{key: "acrios_load", vendor: "deviceType", ours: "medium", values: map[string]any{"Water meter": "water"}},
		renamed{key: "acrios_load", vendor: "data[0].value", ours: "counter1"},
		renamed{key: "acrios_load", vendor: "data[0].unit", ours: "counter1_unit"},
		renamed{key: "acrios_load", vendor: "data[1].value", ours: "counter2"},
		renamed{key: "acrios_load", vendor: "data[1].unit", ours: "counter2_unit"},
		renamed{key: "acrios_load", vendor: "data[1].storage", ours: "counter2_historic", values: map[string]any{"0": false, "1": true}},
	)
	for _, path := range []string{"l", "len", "type", "fixed", "cStored", "data[0].id", "data[0].func", "data[0].storage", "data[1].id", "data[1].func"} {
		explanations = append(explanations, explained{key: "acrios_load", path: path, quote: whyAcriosFrame})
	}
	explanations = append(explanations,
		explained{key: "acrios_load", path: "id", quote: whyAcriosID},
		explained{key: "acrios_load", path: "frame_index", quote: whyAcriosParts},
		explained{key: "acrios_load", path: "frame_count", quote: whyAcriosParts},
	)
}
