// @key netvox_r718b
// @name Netvox R718B / R718CJ / R718CK / R718CT / R718CR / R718CE (temperature probe, thermocouple)
// @devices R718CJ, R718CK, R718CT, R718CR, R718CE, R718B
// @source Netvox LoRaWAN Application Command document and the device user manuals (ReportDataCmd on fPort 6, ConfigureCmd responses on fPort 7; http://www.netvox.com.tw); examples from Netvox's codecs in TheThingsNetwork/lorawan-devices vendor/netvox
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

function nvUint16(b, i) {
  return ((b[i] & 0xff) << 8) | (b[i + 1] & 0xff);
}

function nvInt16(b, i) {
  var v = nvUint16(b, i);
  return v >= 0x8000 ? v - 0x10000 : v;
}

function nvHex(v) {
  return ((v & 0xff) < 16 ? "0" : "") + (v & 0xff).toString(16);
}

function nvReport(type, b, rt, d) {
  if (rt !== 1) return "report type " + rt + " is not documented for this device";
  d.temperature = nvInt16(b, 4) / 10;
}

function nvConfig(type, b, d) {
  d.temperature_change = nvUint16(b, 7) / 10;
}

function decodeUplink(input) {
  var b = (input && input.bytes) || [];
  var fPort = input && input.fPort;
  var data = {};
  if (fPort !== 6 && fPort !== 7) {
    return { data: data, errors: ["fPort " + fPort + " carries nothing this decoder knows: Netvox reports come on fPort 6, configuration responses on fPort 7"] };
  }
  if (b.length < 11) {
    return { data: data, errors: ["payload too short: " + b.length + " bytes, Netvox frames have 11"] };
  }
  var type = b[1] & 0xff;
  var known = Object.prototype.hasOwnProperty.call(NV_DEVICES, type);
  data.device_type = type;
  if (known) data.device = NV_DEVICES[type];
  if (fPort === 6) {
    var rt = b[2] & 0xff;
    data.report_type = rt;
    if (rt === 0) {
      data.software_version = (b[3] & 0xff) / 10;
      data.hardware_version = b[4] & 0xff;
      data.date_code = nvHex(b[5]) + nvHex(b[6]) + nvHex(b[7]) + nvHex(b[8]);
      return { data: data };
    }
    if (!known) {
      return { data: data, errors: ["device type " + type + " (0x" + nvHex(type) + ") is not a device this decoder covers"] };
    }
    data.battery_voltage = (b[3] & 0x7f) / 10;
    data.low_battery = (b[3] & 0x80) !== 0;
    var problem = nvReport(type, b, rt, data);
    return problem ? { data: data, errors: [problem] } : { data: data };
  }
  var cmd = b[0] & 0xff;
  if (cmd === 0x81) {
    data.command = "ConfigReportRsp";
    data.success = (b[2] & 0xff) === 0;
    return { data: data };
  }
  if (cmd === 0x82) {
    data.command = "ReadConfigReportRsp";
    data.min_time = nvUint16(b, 2);
    data.max_time = nvUint16(b, 4);
    data.battery_change = (b[6] & 0xff) / 10;
    if (known) nvConfig(type, b, data);
    return { data: data };
  }
  return { data: data, errors: ["configuration command 0x" + nvHex(cmd) + " is not decoded"] };
}
