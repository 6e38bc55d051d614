package decoders_test

// The Elsys, MCF88, Ellenex, Abeeway and Acrios keys against their vendors'
// codecs of the fixture repository.

// The sentences of docs/decoders.md that explain the Ellenex keys'
// differences.
const (
	whyEllenexPort    = "the keys read the 8-byte frame on any port, so that nodes of either firmware decode"
	whyEllenexReading = "The generic `ellenex` key does not know the model: it gives bytes 3-4 as `reading` and bytes 5-6 as `reading2`"
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
}
