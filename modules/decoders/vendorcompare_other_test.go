package decoders_test

// The Elsys, MCF88, Ellenex, Abeeway and Acrios keys against their vendors'
// codecs of the fixture repository.

func init() {
	pairings = append(pairings,
		// One TLV decoder for every Elsys model, compared on each model's
		// published example.
		pairing{codec: "ttn/elsys/ers-co2-codec", key: "elsys"},
		pairing{codec: "ttn/elsys/ems-codec", key: "elsys"},
		pairing{codec: "ttn/elsys/ers-sound-codec", key: "elsys"},
		pairing{codec: "ttn/elsys/ers-eye-codec", key: "elsys"},
		pairing{codec: "ttn/elsys/ems-door-codec", key: "elsys"},
	)
}
