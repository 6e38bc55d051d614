// @key netvox_r831
// @name Netvox R831A / R831B / R831C / R831D (control box: motor, relays, inputs)
// @devices R831A, R831B, R831C, R831D
// @source Netvox LoRaWAN Application Command document and the device user manuals (ReportDataCmd on fPort 6, ConfigureCmd responses on fPort 7; http://www.netvox.com.tw); Netvox's codec TheThingsNetwork/lorawan-devices vendor/netvox/payload/r831.js and the R831D's examples (r831d-codec.yaml)
// @include netvox
// @include netvox_r831
//
// Netvox frames are 11 bytes. fPort 6 (ReportDataCmd): version (1 byte), device type, report type,
// then 8 bytes of NetvoxPayLoadData. Report type 0 is the startup version report (software version
// in tenths, hardware version, date code); otherwise byte 3 is the battery (bits 0-6 in 0.1 V, bit 7
// the low-battery flag) and the rest depends on the device. fPort 7 (ConfigureCmd) carries the answers
// to configuration requests: 0x81 ConfigReportRsp (status), 0x82 ReadConfigReportRsp (min_time and
// max_time in s, battery_change in V, and the device's reportable changes).
//
// Common output: device_type (number), device (model name), report_type, battery_voltage (V),
// low_battery; version reports: software_version, hardware_version, date_code.
// Mains powered: no battery fields. Device fields: motor_on (R831A, R831B); relay_1_on, relay_2_on,
//   relay_3_on (R831C, R831D); input_1_on, input_2_on, input_3_on (R831D)
// More configuration responses: SetSwitchTypeRsp (success), GetSwitchTypeRsp (switch_momentary)

function decodeUplink(input) {
  return nvDecode(input, [NV_R831]);
}
