// @key netvox_r718da
// @name Netvox R718DA / R718DB / R718J / R718LB / R718MBA / R718Q / R311DA / R730 … (binary status: vibration, dry contact, hall, tilt)
// @devices R718DA, R718DB, R718J, R718LB, R718MBA, R311FA, R718Q, R730MBA, R730DA, R730DB, R730LB, R718QA, R311DA, R311DB, R720F
// @source Netvox LoRaWAN Application Command document and the device user manuals (ReportDataCmd on fPort 6, ConfigureCmd responses on fPort 7; http://www.netvox.com.tw); examples from Netvox's codecs in TheThingsNetwork/lorawan-devices vendor/netvox
// @include netvox
// @include netvox_r718da
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
// Device fields: status (0 or 1; what 1 means depends on the device: vibration, contact closed, magnet near,
//   tilt)

function decodeUplink(input) {
  return nvDecode(input, [NV_R718DA]);
}
