// @key netvox_r718h
// @name Netvox R718H / R718H2 (pulse counter)
// @devices R718H, R718H2
// @source Netvox LoRaWAN Application Command document and the device user manuals (ReportDataCmd on fPort 6, ConfigureCmd responses on fPort 7; http://www.netvox.com.tw); Netvox's codec TheThingsNetwork/lorawan-devices vendor/netvox/payload/r718h.js and its examples (r718h-codec.yaml)
// @include netvox
// @include netvox_r718h
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
// Device fields: pulse_count (R718H), pulse_count_1 and pulse_count_2 (R718H2), 16-bit counts
// More configuration responses: SetFiltertimeRsp, SetPulseCounterClearModeRsp (success);
//   GetFiltertimeRsp (filter_time, Netvox's ×5), GetPulseCounterClearModeRsp (clear_on_roll_over)

function decodeUplink(input) {
  return nvDecode(input, [NV_R718H]);
}
