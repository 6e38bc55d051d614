package decoders_test

// The Browan keys' pairings with the vendor codecs of
// testdata/vendorcodecs, the names they give otherwise and the differences
// docs/decoders.md explains (TestBuiltinsAgreeWithVendorCodecs).

// whyBrowanStatus is the sentence of docs/decoders.md on the status number
// two Browan codecs give.
const whyBrowanStatus = "give a `status` number (the first byte shifted right by three, or its lowest bit) that names no quantity"

func init() {
	pairings = append(pairings,
		pairing{codec: "ttn/browan/tbdw100-codec", key: "browan_tbdw100"},
		pairing{codec: "ttn/browan/tbhh100-codec", key: "browan_tbhh100"},
		pairing{codec: "ttn/browan/tbhv110-codec", key: "browan_tbhv110"},
		pairing{codec: "ttn/browan/tbms100-codec", key: "browan_tbms100"},
	)
	zeroOne := map[string]any{"0": false, "1": true}
	renames = append(renames,
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
