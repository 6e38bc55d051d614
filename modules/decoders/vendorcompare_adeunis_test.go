package decoders_test

// The Adeunis keys compared with Adeunis' own codecs (issue 21), whose
// names differ by the renames below (each with its row in
// docs/decoders.md).

// The sentences of docs/decoders.md that explain the Adeunis keys'
// differences other than names.
const (
	whyAdeunisTexts  = "Every Adeunis key leaves out Adeunis' `type` and `decodingInfo` texts and the `name` and `unit` beside each value"
	whyAdeunisFlags  = "it gives neither the status flags that say how the frame is laid out (`timestamp`, `configuration2ChannelsActivated`"
	whyAdeunisNoHW   = "nor `hardwareError` and `configurationInconsistency` on the frames whose bit 2 is the timestamp flag"
	whyAdeunisNewest = "The newest of a list of values is a key of its own (`temperature_1`, `counter_a`)"
	whyAdeunisTime   = "Adeunis' ISO `timestamp` (the device's time, printed without a zone) is Unix seconds here"
)

func init() {
	pairings = append(pairings,
		pairing{codec: "ttn/adeunis/analog-codec", key: "adeunis_analog"},
		pairing{codec: "ttn/adeunis/drycontacts-codec", key: "adeunis_dry_contacts"},
		pairing{codec: "ttn/adeunis/pulse-codec", key: "adeunis_pulse"},
		pairing{codec: "ttn/adeunis/temp-codec", key: "adeunis_temp"},
	)
	renames = append(renames,
		renamed{key: "adeunis_analog", vendor: "bytes.status.frameCounter", ours: "frame_counter"},
		renamed{key: "adeunis_analog", vendor: "bytes.status.lowBattery", ours: "low_battery"},
		renamed{key: "adeunis_analog", vendor: "bytes.status.configurationDone", ours: "configuration_done"},
		renamed{key: "adeunis_analog", vendor: "bytes.status.hardwareError", ours: "hardware_error"},
		renamed{key: "adeunis_analog", vendor: "bytes.status.alarmChannelA", ours: "alarm_channel_a"},
		renamed{key: "adeunis_analog", vendor: "bytes.status.alarmChannelB", ours: "alarm_channel_b"},
		renamed{key: "adeunis_analog", vendor: "bytes.channels[0].value", ours: "channel_a_voltage"},
		renamed{key: "adeunis_analog", vendor: "bytes.channels[1].value", ours: "channel_b_current_ma"},
		renamed{key: "adeunis_dry_contacts", vendor: "bytes.status.frameCounter", ours: "frame_counter"},
		renamed{key: "adeunis_dry_contacts", vendor: "bytes.status.lowBattery", ours: "low_battery"},
		renamed{key: "adeunis_dry_contacts", vendor: "bytes.status.configurationDone", ours: "configuration_done"},
		renamed{key: "adeunis_dry_contacts", vendor: "bytes.status.hardwareError", ours: "hardware_error"},
		renamed{key: "adeunis_dry_contacts", vendor: "bytes.channelA.value", ours: "channel_a_count"},
		renamed{key: "adeunis_dry_contacts", vendor: "bytes.channelA.currentState", ours: "channel_a_closed"},
		renamed{key: "adeunis_dry_contacts", vendor: "bytes.channelA.previousFrameState", ours: "channel_a_previous_closed"},
		renamed{key: "adeunis_dry_contacts", vendor: "bytes.channelB.value", ours: "channel_b_count"},
		renamed{key: "adeunis_dry_contacts", vendor: "bytes.channelB.currentState", ours: "channel_b_closed"},
		renamed{key: "adeunis_dry_contacts", vendor: "bytes.channelB.previousFrameState", ours: "channel_b_previous_closed"},
		renamed{key: "adeunis_dry_contacts", vendor: "bytes.channelC.value", ours: "channel_c_count"},
		renamed{key: "adeunis_dry_contacts", vendor: "bytes.channelC.currentState", ours: "channel_c_closed"},
		renamed{key: "adeunis_dry_contacts", vendor: "bytes.channelC.previousFrameState", ours: "channel_c_previous_closed"},
		renamed{key: "adeunis_dry_contacts", vendor: "bytes.channelD.value", ours: "channel_d_count"},
		renamed{key: "adeunis_dry_contacts", vendor: "bytes.channelD.currentState", ours: "channel_d_closed"},
		renamed{key: "adeunis_dry_contacts", vendor: "bytes.channelD.previousFrameState", ours: "channel_d_previous_closed"},
		renamed{key: "adeunis_pulse", vendor: "bytes.status.frameCounter", ours: "frame_counter"},
		renamed{key: "adeunis_pulse", vendor: "bytes.status.lowBattery", ours: "low_battery"},
		renamed{key: "adeunis_pulse", vendor: "bytes.status.configurationDone", ours: "configuration_done"},
		renamed{key: "adeunis_pulse", vendor: "bytes.timestamp", ours: "timestamp"},
		renamed{key: "adeunis_pulse", vendor: "bytes.counterValues", ours: "counter_a_history"},
		renamed{key: "adeunis_temp", vendor: "bytes.status.frameCounter", ours: "frame_counter"},
		renamed{key: "adeunis_temp", vendor: "bytes.status.lowBattery", ours: "low_battery"},
		renamed{key: "adeunis_temp", vendor: "bytes.status.configurationDone", ours: "configuration_done"},
		renamed{key: "adeunis_temp", vendor: "bytes.timestamp", ours: "timestamp"},
		renamed{key: "adeunis_temp", vendor: "bytes.temperatures[0].values", ours: "temperature_1_history"},
		renamed{key: "adeunis_temp", vendor: "bytes.temperatures[1].values", ours: "temperature_2_history"},
	)
	for _, key := range []string{"adeunis_analog", "adeunis_dry_contacts", "adeunis_pulse", "adeunis_temp"} {
		explanations = append(explanations,
			explained{key: key, path: "bytes.type", quote: whyAdeunisTexts})
	}
	explanations = append(explanations,
		explained{key: "adeunis_analog", path: "bytes.channels", quote: whyAdeunisTexts},
		explained{key: "adeunis_dry_contacts", path: "bytes.decodingInfo", quote: whyAdeunisTexts},
		explained{key: "adeunis_dry_contacts", path: "bytes.status.timestamp", quote: whyAdeunisFlags},
		explained{key: "adeunis_pulse", path: "bytes.decodingInfo", quote: whyAdeunisTexts},
		explained{key: "adeunis_pulse", path: "bytes.status.timestamp", quote: whyAdeunisFlags},
		explained{key: "adeunis_pulse", path: "bytes.status.hardwareError", quote: whyAdeunisNoHW},
		explained{key: "adeunis_pulse", path: "counter_a", quote: whyAdeunisNewest},
		explained{key: "adeunis_pulse", path: "timestamp", quote: whyAdeunisTime},
		explained{key: "adeunis_temp", path: "bytes.decodingInfo", quote: whyAdeunisTexts},
		explained{key: "adeunis_temp", path: "bytes.temperatures", quote: whyAdeunisTexts},
		explained{key: "adeunis_temp", path: "bytes.status.timestamp", quote: whyAdeunisFlags},
		explained{key: "adeunis_temp", path: "bytes.status.configuration2ChannelsActivated", quote: whyAdeunisFlags},
		explained{key: "adeunis_temp", path: "bytes.status.hardwareError", quote: whyAdeunisNoHW},
		explained{key: "adeunis_temp", path: "bytes.status.configurationInconsistency", quote: whyAdeunisNoHW},
		explained{key: "adeunis_temp", path: "temperature_1", quote: whyAdeunisNewest},
		explained{key: "adeunis_temp", path: "temperature_2", quote: whyAdeunisNewest},
		explained{key: "adeunis_temp", path: "timestamp", quote: whyAdeunisTime},
	)
}
