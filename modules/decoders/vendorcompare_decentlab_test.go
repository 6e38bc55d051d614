package decoders_test

// The Decentlab model keys (decentlab_dl_*) against the Decentlab codecs of
// the fixture repository, one per model.

// whyDecentlabReadings is the sentence of docs/decoders.md that says why a
// decentlab_dl_* key gives each reading as a number where Decentlab's codec
// gives an object of displayName, value and unit.
const whyDecentlabReadings = "Decentlab's codecs give each reading as an object of `displayName`, `value` and `unit`"

// whyDecentlabGeneric is the sentence of docs/decoders.md that says why the
// generic decentlab key gives the raw words where a model's codec gives
// readings.
const whyDecentlabGeneric = "it gives the header, the flags (`sensor_flags`, `sensors_present`) and the raw 16-bit `words`, not the readings a model's codec converts them to"

func init() {
	pairings = append(pairings,
		pairing{codec: "ttn/decentlab/dl-5tm-codec", key: "decentlab_dl_5tm"},
		pairing{codec: "ttn/decentlab/dl-alb-codec", key: "decentlab_dl_alb"},
		pairing{codec: "ttn/decentlab/dl-atm22-codec", key: "decentlab_dl_atm22"},
		pairing{codec: "ttn/decentlab/dl-atm41-codec", key: "decentlab_dl_atm41"},
		pairing{codec: "ttn/decentlab/dl-ctd10-codec", key: "decentlab_dl_ctd10"},
		pairing{codec: "ttn/decentlab/dl-dlr2-002-codec", key: "decentlab_dl_dlr2_002"},
		pairing{codec: "ttn/decentlab/dl-dlr2-004-10-codec", key: "decentlab_dl_dlr2_004"},
		pairing{codec: "ttn/decentlab/dl-dlr2-010-codec", key: "decentlab_dl_dlr2_010"},
		pairing{codec: "ttn/decentlab/dl-ds18-codec", key: "decentlab_dl_ds18"},
		pairing{codec: "ttn/decentlab/dl-iam-codec", key: "decentlab_dl_iam"},
		pairing{codec: "ttn/decentlab/dl-itst-codec", key: "decentlab_dl_itst"},
		pairing{codec: "ttn/decentlab/dl-kl66-1538372-464859-codec", key: "decentlab_dl_kl66"},
		pairing{codec: "ttn/decentlab/dl-lid-codec", key: "decentlab_dl_lid"},
		pairing{codec: "ttn/decentlab/dl-lp8p-codec", key: "decentlab_dl_lp8p"},
		pairing{codec: "ttn/decentlab/dl-lws-codec", key: "decentlab_dl_lws"},
		pairing{codec: "ttn/decentlab/dl-mbx-codec", key: "decentlab_dl_mbx"},
		pairing{codec: "ttn/decentlab/dl-ntu-codec", key: "decentlab_dl_ntu"},
		pairing{codec: "ttn/decentlab/dl-optod-codec", key: "decentlab_dl_optod"},
		pairing{codec: "ttn/decentlab/dl-par-codec", key: "decentlab_dl_par"},
		pairing{codec: "ttn/decentlab/dl-pm-codec", key: "decentlab_dl_pm"},
		pairing{codec: "ttn/decentlab/dl-pr21-1-10-codec", key: "decentlab_dl_pr21"},
		pairing{codec: "ttn/decentlab/dl-pr26-0-1-codec", key: "decentlab_dl_pr26"},
		pairing{codec: "ttn/decentlab/dl-pr36-8192-codec", key: "decentlab_dl_pr36"},
		pairing{codec: "ttn/decentlab/dl-pr36ctd-8192-1024-codec", key: "decentlab_dl_pr36ctd"},
		pairing{codec: "ttn/decentlab/dl-pyr-codec", key: "decentlab_dl_pyr"},
		pairing{codec: "ttn/decentlab/dl-rhc-codec", key: "decentlab_dl_rhc"},
		pairing{codec: "ttn/decentlab/dl-sht35-codec", key: "decentlab_dl_sht35"},
		pairing{codec: "ttn/decentlab/dl-smtp-codec", key: "decentlab_dl_smtp"},
		pairing{codec: "ttn/decentlab/dl-tbrg-01-codec", key: "decentlab_dl_tbrg"},
		pairing{codec: "ttn/decentlab/dl-trs11-codec", key: "decentlab_dl_trs11"},
		pairing{codec: "ttn/decentlab/dl-trs12-codec", key: "decentlab_dl_trs12"},
		pairing{codec: "ttn/decentlab/dl-trs21-codec", key: "decentlab_dl_trs21"},
		pairing{codec: "ttn/decentlab/dl-wrm-codec", key: "decentlab_dl_wrm"},
		pairing{codec: "ttn/decentlab/dl-zn1-codec", key: "decentlab_dl_zn1"},
		pairing{codec: "ttn/decentlab/dl-zn2-codec", key: "decentlab_dl_zn2"},
		// The generic key reads the header and the words of any model.
		pairing{codec: "ttn/decentlab/dl-ds18-codec", key: "decentlab"},
	)
	for _, path := range []string{"sensor_flags", "sensors_present", "words", "temperature", "battery_voltage"} {
		explanations = append(explanations, explained{key: "decentlab", path: path, quote: whyDecentlabGeneric})
	}
	for _, key := range []string{
		"decentlab_dl_5tm",
		"decentlab_dl_alb",
		"decentlab_dl_atm22",
		"decentlab_dl_atm41",
		"decentlab_dl_ctd10",
		"decentlab_dl_dlr2_002",
		"decentlab_dl_dlr2_004",
		"decentlab_dl_dlr2_010",
		"decentlab_dl_ds18",
		"decentlab_dl_iam",
		"decentlab_dl_itst",
		"decentlab_dl_kl66",
		"decentlab_dl_lid",
		"decentlab_dl_lp8p",
		"decentlab_dl_lws",
		"decentlab_dl_mbx",
		"decentlab_dl_ntu",
		"decentlab_dl_optod",
		"decentlab_dl_par",
		"decentlab_dl_pm",
		"decentlab_dl_pr21",
		"decentlab_dl_pr26",
		"decentlab_dl_pr36",
		"decentlab_dl_pr36ctd",
		"decentlab_dl_pyr",
		"decentlab_dl_rhc",
		"decentlab_dl_sht35",
		"decentlab_dl_smtp",
		"decentlab_dl_tbrg",
		"decentlab_dl_trs11",
		"decentlab_dl_trs12",
		"decentlab_dl_trs21",
		"decentlab_dl_wrm",
		"decentlab_dl_zn1",
		"decentlab_dl_zn2",
		"decentlab",
	} {
		readingObjects[key] = whyDecentlabReadings
	}
}
