// @key netvox_r718b
// @name Netvox R718B / R718B2 / R718CJ / R718CK / R718CT / R718CR / R718CE (temperature probes, thermocouples)
// @devices R718CJ, R718CK, R718CT, R718CR, R718CE, R718B, R718B2, R718CK2, R718CT2
// @source Netvox LoRaWAN Application Command document and the device user manuals (ReportDataCmd on fPort 6, ConfigureCmd responses on fPort 7, GlobalCalibrateCmd responses on fPort 14; http://www.netvox.com.tw); examples from Netvox's codecs in TheThingsNetwork/lorawan-devices vendor/netvox (payload/r718cj_ck_ct_cr_ce_r718b.js, r718b-codec.yaml; two-probe models: payload/r718b2.js, r718b2-codec.yaml)
// @include netvox
// @include netvox_r718b
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
// Device fields: temperature °C (0.1); two-probe models (R718B2, R718CK2, R718CT2): temperature_1,
//   temperature_2 °C (0.1); configuration: temperature_change °C
// Global calibration responses (fPort 14, no device type in the frame): command
//   (SetGlobalCalibrateRsp, GetGlobalCalibrateRsp, ClearGlobalCalibrateRsp), sensor_type (1:
//   temperature), channel (from 1), success; multiplier, divisor, delta_value (signed)

function decodeUplink(input) {
  return nvDecode(input, [NV_R718B]);
}
