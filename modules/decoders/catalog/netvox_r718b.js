// @key netvox_r718b
// @name Netvox R718B / R718CJ / R718CK / R718CT / R718CR / R718CE (temperature probe, thermocouple)
// @devices R718CJ, R718CK, R718CT, R718CR, R718CE, R718B
// @source Netvox LoRaWAN Application Command document and the device user manuals (ReportDataCmd on fPort 6, ConfigureCmd responses on fPort 7; http://www.netvox.com.tw); examples from Netvox's codecs in TheThingsNetwork/lorawan-devices vendor/netvox
// @include netvox
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
// Device fields: temperature °C (0.1); configuration: temperature_change °C

var NV_DEVICES = {
  144: "R718CJ",
  145: "R718CK",
  146: "R718CT",
  147: "R718CR",
  148: "R718CE",
  149: "R718B"
};

function nvReport(type, b, rt, d) {
  if (rt !== 1) return "report type " + rt + " is not documented for this device";
  d.temperature = nvInt16(b, 4) / 10;
}

function nvConfig(type, b, d) {
  d.temperature_change = nvUint16(b, 7) / 10;
}

function decodeUplink(input) {
  return nvDecode(input);
}
