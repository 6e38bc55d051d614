// @key netvox_r718e
// @name Netvox R718E (three-axis accelerometer and temperature)
// @devices R718E
// @source Netvox LoRaWAN Application Command document and the device user manuals (ReportDataCmd on fPort 6, ConfigureCmd responses on fPort 7; http://www.netvox.com.tw); Netvox's codec TheThingsNetwork/lorawan-devices vendor/netvox/payload/r718e.js and its examples (r718e-codec.yaml)
// @include netvox
// @include netvox_r718e
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
// Device fields: report 1: acceleration_x, acceleration_y, acceleration_z; report 2 (no battery
//   byte): velocity_x, velocity_y, velocity_z, temperature °C (0.1); values as Netvox's codec gives
//   them (bfloat16, 6 decimals; Netvox states no unit); configuration: acceleration_change
// More configuration responses: SetActiveThresholdRsp, SetRestoreReportRsp (success);
//   GetActiveThresholdRsp (active_threshold, inactive_threshold), GetRestoreReportRsp (restore_report)

function decodeUplink(input) {
  return nvDecode(input, [NV_R718E]);
}
