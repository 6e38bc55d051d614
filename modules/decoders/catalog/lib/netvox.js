// Netvox frames, the core of the netvox_* codecs (// @include netvox): the common
// fields of fPort 6 reports and fPort 7 configuration responses, and the fPort 14 global
// calibration responses. Each device family is a library of its own (lib/netvox_<family>.js, defining NV_<FAMILY>): a family
// is { devices: {device type: model name}, report(type, b, rt, d) (the device's
// report fields; returns a problem or nothing), config(type, b, d) (its reportable
// changes), and, for devices whose byte 3 is not the battery on some reports,
// noBattery(type, rt), and, for devices with configuration responses beyond 0x81 and
// 0x82, command(type, cmd, b, d) (true when it decoded cmd) }. A codec includes the families it covers and its
// decodeUplink returns nvDecode(input, [NV_<FAMILY>, ...]).

function nvUint16(b, i) {
  return ((b[i] & 0xff) << 8) | (b[i + 1] & 0xff);
}

function nvInt16(b, i) {
  var v = nvUint16(b, i);
  return v >= 0x8000 ? v - 0x10000 : v;
}

function nvUint32(b, i) {
  return nvUint16(b, i) * 65536 + nvUint16(b, i + 2);
}

function nvHex(v) {
  return ((v & 0xff) < 16 ? "0" : "") + (v & 0xff).toString(16);
}

// nvFamily gives the family of the device type among families, or null.
function nvFamily(families, type) {
  for (var i = 0; i < families.length; i++) {
    if (Object.prototype.hasOwnProperty.call(families[i].devices, type)) return families[i];
  }
  return null;
}

// nvStatus decodes a Set...Rsp: the command's name and whether it succeeded.
function nvStatus(d, name, b) {
  d.command = name;
  d.success = (b[2] & 0xff) === 0;
  return true;
}

// nvCalibration decodes a global calibration response (fPort 14), as Netvox's codecs of the
// sensors that take one read it: the frame names a sensor type (1 is temperature) and a channel
// (counted from 0 on the air, from 1 here), not the device, so it gives no device_type.
function nvCalibration(b, data) {
  var cmd = b[0] & 0xff;
  if (cmd === 0x81 || cmd === 0x82) {
    data.command = cmd === 0x81 ? "SetGlobalCalibrateRsp" : "GetGlobalCalibrateRsp";
    data.sensor_type = b[1] & 0xff;
    data.channel = (b[2] & 0xff) + 1;
    if (cmd === 0x81) {
      data.success = (b[3] & 0xff) === 0;
    } else {
      data.multiplier = nvUint16(b, 3);
      data.divisor = nvUint16(b, 5);
      data.delta_value = nvInt16(b, 7);
    }
    return { data: data };
  }
  if (cmd === 0x83) {
    data.command = "ClearGlobalCalibrateRsp";
    data.success = (b[1] & 0xff) === 0;
    return { data: data };
  }
  return { data: data, errors: ["calibration command 0x" + nvHex(cmd) + " is not decoded"] };
}

function nvDecode(input, families) {
  var b = (input && input.bytes) || [];
  var fPort = input && input.fPort;
  var data = {};
  if (fPort !== 6 && fPort !== 7 && fPort !== 14) {
    return { data: data, errors: ["fPort " + fPort + " carries nothing this decoder knows: Netvox reports come on fPort 6, configuration responses on fPort 7, calibration responses on fPort 14"] };
  }
  if (b.length < 11) {
    return { data: data, errors: ["payload too short: " + b.length + " bytes, Netvox frames have 11"] };
  }
  if (fPort === 14) return nvCalibration(b, data);
  var type = b[1] & 0xff;
  var family = nvFamily(families, type);
  data.device_type = type;
  if (family) data.device = family.devices[type];
  if (fPort === 6) {
    var rt = b[2] & 0xff;
    data.report_type = rt;
    if (rt === 0) {
      data.software_version = (b[3] & 0xff) / 10;
      data.hardware_version = b[4] & 0xff;
      data.date_code = nvHex(b[5]) + nvHex(b[6]) + nvHex(b[7]) + nvHex(b[8]);
      return { data: data };
    }
    if (!family) {
      return { data: data, errors: ["device type " + type + " (0x" + nvHex(type) + ") is not a device this decoder covers"] };
    }
    if (!family.noBattery || !family.noBattery(type, rt)) {
      data.battery_voltage = (b[3] & 0x7f) / 10;
      data.low_battery = (b[3] & 0x80) !== 0;
    }
    var problem = family.report(type, b, rt, data);
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
    if (family) family.config(type, b, data);
    return { data: data };
  }
  if (family && family.command && family.command(type, cmd, b, data)) return { data: data };
  return { data: data, errors: ["configuration command 0x" + nvHex(cmd) + " is not decoded"] };
}
