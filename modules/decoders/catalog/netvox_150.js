// @key netvox_150
// @name Netvox (common report format, every device type of the Netvox keys)
// @devices R711, R311A, RA07 series, R311W, R726 series, R718A, RA07xxY series, R718AB, R718DA, R718DB, R718F, R718IA, R718J, R718LB, R718MBA, R718IB, R718N1, R718N3, R311FA, R718PA, R718PB, R718Q, R720A, R730IA, R730IB, R730F, R730MBA, R730DA, R730DB, R730LB, R718CJ, R718CK, R718CT, R718CR, R718CE, R718B, R718QA, R311DA, R311DB, R720F, R718B2, R718CK2, R718CT2, R718E, R718H, R718H2, R718X, R718PE, R831A, R831B, R831C, R831D, RP02, R315, R718UBB
// @source Netvox LoRaWAN Application Command document and the device user manuals (ReportDataCmd on fPort 6, ConfigureCmd responses on fPort 7; http://www.netvox.com.tw); examples from Netvox's codecs in TheThingsNetwork/lorawan-devices vendor/netvox
// @include netvox
// @include netvox_r718a
// @include netvox_r311a
// @include netvox_r718b
// @include netvox_r311w
// @include netvox_r718n1
// @include netvox_r718n3
// @include netvox_ra0715
// @include netvox_r718da
// @include netvox_r718ib
// @include netvox_r718e
// @include netvox_r718h
// @include netvox_r718x
// @include netvox_r831
// @include netvox_rp02
// @include netvox_r315
// @include netvox_r718ubb
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
// Device fields: as the family keys: netvox_r718a, netvox_r311a, netvox_r718b, netvox_r311w, netvox_r718n1,
//   netvox_r718n3, netvox_ra0715, netvox_r718da, netvox_r718ib, netvox_r718e, netvox_r718h, netvox_r718x,
//   netvox_r831, netvox_rp02, netvox_r315, netvox_r718ubb; the device type byte picks the family (each
//   family's code is its library, lib/netvox_<family>.js, which the family key includes too)

var NV_ALL = [
  NV_R718A,
  NV_R311A,
  NV_R718B,
  NV_R311W,
  NV_R718N1,
  NV_R718N3,
  NV_RA0715,
  NV_R718DA,
  NV_R718IB,
  NV_R718E,
  NV_R718H,
  NV_R718X,
  NV_R831,
  NV_RP02,
  NV_R315,
  NV_R718UBB,
];

function decodeUplink(input) {
  return nvDecode(input, NV_ALL);
}
