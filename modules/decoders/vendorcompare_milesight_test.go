package decoders_test

// The Milesight and Browan keys' pairings with the vendor codecs of
// testdata/vendorcodecs, the names they give otherwise and the differences
// docs/decoders.md explains (TestBuiltinsAgreeWithVendorCodecs).

// whyBrowanStatus is the sentence of docs/decoders.md on the status number
// two Browan codecs give.
const whyBrowanStatus = "give a `status` number (the first byte shifted right by three, or its lowest bit) that names no quantity"

func init() {
	pairings = append(pairings,
		pairing{codec: "ttn/milesight-iot/am102-codec", key: "milesight_am100"},
		pairing{codec: "ttn/milesight-iot/am103-codec", key: "milesight_am100"},
		pairing{codec: "ttn/milesight-iot/am107-codec", key: "milesight_am100"},
		pairing{codec: "ttn/milesight-iot/em300-di-codec", key: "milesight_em300_di"},
		pairing{codec: "ttn/milesight-iot/em300-sld-codec", key: "milesight_em300_sld"},
		pairing{codec: "ttn/milesight-iot/em300-th-codec", key: "milesight_em300_th"},
		pairing{codec: "ttn/milesight-iot/em310-udl-codec", key: "milesight_em310_udl"},
		pairing{codec: "ttn/milesight-iot/em320-th-codec", key: "milesight_em320_th"},
		pairing{codec: "ttn/milesight-iot/em500-co2-codec", key: "milesight_em500_co2"},
		pairing{codec: "ttn/milesight-iot/em500-lgt-codec", key: "milesight_em500_lgt"},
		pairing{codec: "ttn/milesight-iot/em500-pp-codec", key: "milesight_em500_pp"},
		pairing{codec: "ttn/milesight-iot/em500-pt100-codec", key: "milesight_em500_pt100"},
		pairing{codec: "ttn/milesight-iot/em500-smtc-codec", key: "milesight_em500_smtc"},
		pairing{codec: "ttn/milesight-iot/em500-udl-codec", key: "milesight_em500_udl"},
		pairing{codec: "ttn/milesight-iot/ws101-codec", key: "milesight_ws101"},
		pairing{codec: "ttn/milesight-iot/ws202-codec", key: "milesight_ws202"},
		pairing{codec: "ttn/milesight-iot/ws301-codec", key: "milesight_ws301"},
		pairing{codec: "ttn/milesight-iot/ws303-codec", key: "milesight_ws303"},
		pairing{codec: "ttn/browan/tbdw100-codec", key: "browan_tbdw100"},
		pairing{codec: "ttn/browan/tbhh100-codec", key: "browan_tbhh100"},
		pairing{codec: "ttn/browan/tbhv110-codec", key: "browan_tbhv110"},
		pairing{codec: "ttn/browan/tbms100-codec", key: "browan_tbms100"},
	)
	zeroOne := map[string]any{"0": false, "1": true}
	renames = append(renames,
		renamed{key: "milesight_em300_sld", vendor: "water", ours: "leak", values: map[string]any{"leak": true, "normal": false}},
		renamed{key: "milesight_em310_udl", vendor: "distance", ours: "distance_mm"},
		renamed{key: "milesight_em310_udl", vendor: "tilt", ours: "tilt", values: map[string]any{"tilt": true, "normal": false}},
		renamed{key: "milesight_em500_lgt", vendor: "light", ours: "illumination"},
		renamed{key: "milesight_em500_pp", vendor: "pressure", ours: "pressure_kpa"},
		renamed{key: "milesight_em500_smtc", vendor: "conductivity", ours: "ec"},
		renamed{key: "milesight_em500_smtc", vendor: "humidity", ours: "moisture"},
		renamed{key: "milesight_em500_udl", vendor: "distance", ours: "distance_mm"},
		renamed{key: "milesight_ws101", vendor: "button", ours: "press"},
		renamed{key: "milesight_ws202", vendor: "pir", ours: "pir", values: map[string]any{"trigger": true, "normal": false}},
		renamed{key: "milesight_ws202", vendor: "light", ours: "daylight", values: map[string]any{"light": true, "dark": false}},
		renamed{key: "milesight_ws301", vendor: "door", ours: "open", values: map[string]any{"open": true, "close": false}},
		renamed{key: "milesight_ws301", vendor: "install", ours: "installed", values: map[string]any{"yes": true, "no": false}},
		renamed{key: "milesight_ws303", vendor: "leak_status", ours: "leak", values: map[string]any{"leak": true, "no leak": false}},
		renamed{key: "browan_tbdw100", vendor: "status", ours: "open", values: zeroOne},
		renamed{key: "browan_tbdw100", vendor: "battery", ours: "battery_voltage"},
		renamed{key: "browan_tbdw100", vendor: "temperatureBoard", ours: "temperature"},
		renamed{key: "browan_tbdw100", vendor: "time", ours: "time_since_last_event_min"},
		renamed{key: "browan_tbdw100", vendor: "count", ours: "open_count"},
		renamed{key: "browan_tbhh100", vendor: "battery", ours: "battery_voltage"},
		renamed{key: "browan_tbhv110", vendor: "battery", ours: "battery_voltage"},
		renamed{key: "browan_tbhv110", vendor: "temperatureBoard", ours: "board_temperature"},
		renamed{key: "browan_tbhv110", vendor: "tempHumidChanged", ours: "temperature_humidity_changed", values: zeroOne},
		renamed{key: "browan_tbhv110", vendor: "iaqChanged", ours: "iaq_changed", values: zeroOne},
		renamed{key: "browan_tbms100", vendor: "status", ours: "occupied", values: zeroOne},
		renamed{key: "browan_tbms100", vendor: "battery", ours: "battery_voltage"},
		renamed{key: "browan_tbms100", vendor: "temperatureBoard", ours: "temperature"},
		renamed{key: "browan_tbms100", vendor: "time", ours: "time_since_last_event_min"},
		renamed{key: "browan_tbms100", vendor: "count", ours: "event_count"},
	)
	explanations = append(explanations,
		explained{key: "browan_tbhh100", path: "status", quote: whyBrowanStatus},
		explained{key: "browan_tbhv110", path: "status", quote: whyBrowanStatus},
	)
}
