// @key netvox_r718n3
// @name Netvox R718N3 (three-phase current meter)
// @devices R718N3
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
// Device fields: current1..current3 mA as reported, multiplier1..multiplier3 (the real current is current ×
//   multiplier); threshold alarms as booleans; configuration: current_change mA

var NV_DEVICES = {
  74: "R718N3"
};

function nvReport(type, b, rt, d) {
  if (rt === 1) {
    d.current1 = nvUint16(b, 4);
    d.current2 = nvUint16(b, 6);
    d.current3 = nvUint16(b, 8);
    d.multiplier1 = b[10];
  } else if (rt === 2) {
    d.multiplier2 = b[4];
    d.multiplier3 = b[5];
  } else if (rt === 3) {
    var steps = [1, 5, 10, 100];
    d.current1 = nvUint16(b, 4);
    d.current2 = nvUint16(b, 6);
    d.current3 = nvUint16(b, 8);
    d.multiplier1 = steps[b[10] & 3];
    d.multiplier2 = steps[(b[10] >> 2) & 3];
    d.multiplier3 = steps[(b[10] >> 4) & 3];
  } else if (rt === 4) {
    d.low_current1_alarm = (b[4] & 1) !== 0;
    d.high_current1_alarm = (b[4] & 2) !== 0;
    d.low_current2_alarm = (b[4] & 4) !== 0;
    d.high_current2_alarm = (b[4] & 8) !== 0;
    d.low_current3_alarm = (b[4] & 16) !== 0;
    d.high_current3_alarm = (b[4] & 32) !== 0;
  } else {
    return "report type " + rt + " is not documented for this device";
  }
}

function nvConfig(type, b, d) {
  delete d.battery_change;
  d.current_change = nvUint16(b, 6);
}

function decodeUplink(input) {
  return nvDecode(input);
}
