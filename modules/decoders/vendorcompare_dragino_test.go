package decoders_test

// The Dragino keys compared with Dragino's own codecs (issue 21), whose
// names differ by the renames below (each with its row in
// docs/decoders.md).

// The sentences of docs/decoders.md that explain the Dragino keys'
// differences other than names.
const (
	whyLHT52Battery  = "The LHT52's device status gives `battery_voltage` in V (Dragino's `Bat_mV` is in mV)"
	whyLHT52Firmware = "the firmware version as \"v8.0.1\" for the bytes 0x88 0x01, as the manual reads them (Dragino's codec prints the two bytes in hex, \"8801\")"
	whyLHT52Band     = "the frequency band by name (\"unknown\" for 0, which Dragino's codec gives as the number)"
	whyNoProbe       = "the LHT52 gives no `external_temperature` for it, where Dragino's codec gives 327.67"
	whyDraginoExtra  = "The LHT65 also gives `external_sensor_disconnected`, and the LSE01 the interrupt flag of byte 10 (`interrupt`), which Dragino's codecs leave out"
	whyLSE01Texts    = "Dragino's LSE01 codec gives the temperatures and the moisture as texts (\"24.1\"); here they are numbers"
)

func init() {
	pairings = append(pairings,
		pairing{codec: "ttn/dragino/lht52-codec", key: "dragino_lht52"},
		pairing{codec: "ttn/dragino/lht65-codec", key: "dragino_lht65"},
		pairing{codec: "ttn/dragino/lse01-codec", key: "dragino_lse01"},
		pairing{codec: "ttn/dragino/lsn50-v2-codec", key: "dragino_lsn50v2"},
		pairing{codec: "ttn/dragino/lt22222-l-codec", key: "dragino_lt22222"},
	)
	renames = append(renames,
		renamed{key: "dragino_lht52", vendor: "Bat_mV", ours: "battery_voltage"},
		renamed{key: "dragino_lht52", vendor: "Firmware_Version", ours: "firmware_version"},
		renamed{key: "dragino_lht52", vendor: "Freq_Band", ours: "frequency_band"},
		renamed{key: "dragino_lht52", vendor: "Sensor_Model", ours: "sensor_model"},
		renamed{key: "dragino_lht52", vendor: "Sub_Band", ours: "sub_band"},
		renamed{key: "dragino_lht52", vendor: "TempC_SHT", ours: "temperature"},
		renamed{key: "dragino_lht52", vendor: "Hum_SHT", ours: "humidity"},
		renamed{key: "dragino_lht52", vendor: "TempC_DS", ours: "external_temperature"},
		renamed{key: "dragino_lht52", vendor: "Ext", ours: "ext"},
		renamed{key: "dragino_lht52", vendor: "Systimestamp", ours: "timestamp"},
		renamed{key: "dragino_lht65", vendor: "BatV", ours: "battery_voltage"},
		renamed{key: "dragino_lht65", vendor: "Bat_status", ours: "battery_status", values: map[string]any{"0": "ultra low", "1": "low", "2": "ok", "3": "good"}},
		renamed{key: "dragino_lht65", vendor: "Ext_sensor", ours: "external_sensor", values: map[string]any{"Temperature Sensor": "temperature"}},
		renamed{key: "dragino_lht65", vendor: "Hum_SHT", ours: "humidity"},
		renamed{key: "dragino_lht65", vendor: "TempC_SHT", ours: "temperature"},
		renamed{key: "dragino_lht65", vendor: "TempC_DS", ours: "external_temperature"},
		renamed{key: "dragino_lse01", vendor: "Bat", ours: "battery_voltage"},
		renamed{key: "dragino_lse01", vendor: "TempC_DS18B20", ours: "temperature"},
		renamed{key: "dragino_lse01", vendor: "water_SOIL", ours: "soil_moisture"},
		renamed{key: "dragino_lse01", vendor: "temp_SOIL", ours: "soil_temperature"},
		renamed{key: "dragino_lse01", vendor: "conduct_SOIL", ours: "soil_conductivity"},
		renamed{key: "dragino_lsn50v2", vendor: "BatV", ours: "battery_voltage"},
		renamed{key: "dragino_lsn50v2", vendor: "TempC1", ours: "temperature_1"},
		renamed{key: "dragino_lsn50v2", vendor: "ADC_CH0V", ours: "adc_ch0_voltage"},
		renamed{key: "dragino_lsn50v2", vendor: "Digital_IStatus", ours: "digital_in", values: map[string]any{"H": true, "L": false}},
		renamed{key: "dragino_lsn50v2", vendor: "EXTI_Trigger", ours: "exti_trigger", values: map[string]any{"TRUE": true, "FALSE": false}},
		renamed{key: "dragino_lsn50v2", vendor: "Door_status", ours: "door_open", values: map[string]any{"OPEN": true, "CLOSE": false}},
		renamed{key: "dragino_lsn50v2", vendor: "Work_mode", ours: "work_mode", values: map[string]any{"IIC": 1}},
		renamed{key: "dragino_lsn50v2", vendor: "TempC_SHT", ours: "sht_temperature"},
		renamed{key: "dragino_lsn50v2", vendor: "Hum_SHT", ours: "sht_humidity"},
		renamed{key: "dragino_lt22222", vendor: "Hardware_mode", ours: "hardware"},
		renamed{key: "dragino_lt22222", vendor: "Work_mode", ours: "work_mode", values: map[string]any{"2ACI+2AVI": 1}},
		renamed{key: "dragino_lt22222", vendor: "AVI{n}_V", ours: "avi{n}_voltage"},
		renamed{key: "dragino_lt22222", vendor: "ACI{n}_mA", ours: "aci{n}_current_ma"},
		renamed{key: "dragino_lt22222", vendor: "DI{n}_status", ours: "di{n}_high", values: map[string]any{"H": true, "L": false}},
		renamed{key: "dragino_lt22222", vendor: "DO{n}_status", ours: "do{n}_high", values: map[string]any{"H": true, "L": false}},
		renamed{key: "dragino_lt22222", vendor: "RO{n}_status", ours: "ro{n}_on", values: map[string]any{"ON": true, "OFF": false}},
	)
	explanations = append(explanations,
		explained{key: "dragino_lht52", path: "battery_voltage", quote: whyLHT52Battery},
		explained{key: "dragino_lht52", path: "firmware_version", quote: whyLHT52Firmware},
		explained{key: "dragino_lht52", path: "frequency_band", quote: whyLHT52Band},
		explained{key: "dragino_lht52", path: "external_temperature", quote: whyNoProbe},
		explained{key: "dragino_lht65", path: "external_sensor_disconnected", quote: whyDraginoExtra},
		explained{key: "dragino_lse01", path: "interrupt", quote: whyDraginoExtra},
		explained{key: "dragino_lse01", path: "temperature", quote: whyLSE01Texts},
		explained{key: "dragino_lse01", path: "soil_moisture", quote: whyLSE01Texts},
		explained{key: "dragino_lse01", path: "soil_temperature", quote: whyLSE01Texts},
	)
}

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
