// @key netvox_r718x
// @name Netvox R718X / R718PE (ultrasonic distance and fill level)
// @devices R718X, R718PE
// @source Netvox LoRaWAN Application Command document and the device user manuals (ReportDataCmd on fPort 6, ConfigureCmd responses on fPort 7; http://www.netvox.com.tw); Netvox's codec TheThingsNetwork/lorawan-devices vendor/netvox/payload/r718x.js and its examples (r718x-codec.yaml)
// @include netvox
// @include netvox_r718x
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
// Device fields: status_on (the on-distance threshold status), distance (as the device reports it),
//   fill_level %, R718X also temperature °C (0.1) and angle_of_inclination °; configuration:
//   distance_change, R718X also temperature_change °C
// More configuration responses: SetOnDistanceThresholdRsp, SetFillMaxDistanceRsp,
//   SetDeadZoneDistanceRsp (success); GetOnDistanceThresholdRsp (on_distance_threshold),
//   GetFillMaxDistanceRsp (fill_max_distance), GetDeadZoneDistanceRsp (dead_zone_distance)

function decodeUplink(input) {
  return nvDecode(input, [NV_R718X]);
}
