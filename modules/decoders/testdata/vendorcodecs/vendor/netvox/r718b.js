// Netvox R718B uplink decoder in the style of Netvox's codec
// (lorawan-devices vendor/netvox/payload/r718cj_ck_ct_cr_ce_r718b.js):
// the version report, the temperature, the report configuration responses and the global calibration responses on fPort 14, named as Netvox names them. Reduced to what the examples use.
function getCfgCmd(cfgcmd) {
  var cfgcmdlist = {
    129: "ConfigReportRsp",
    130: "ReadConfigReportRsp",
  };
  return cfgcmdlist[cfgcmd];
}

function getDeviceName(dev) {
  var deviceName = {
    0x95: "R718B",
  };
  return deviceName[dev];
}

function padLeft(str, len) {
  str = "" + str;
  return str.length >= len ? str : new Array(len - str.length + 1).join("0") + str;
}

function u16(bytes, at) {
  return (bytes[at] << 8) | bytes[at + 1];
}

function s16(bytes, at) {
  var v = u16(bytes, at);
  return v & 0x8000 ? v - 0x10000 : v;
}

function getCaliCmd(calicmd) {
  var calicmdlist = {
    129: "SetGlobalCalibrateRsp",
    130: "GetGlobalCalibrateRsp",
    131: "ClearGlobalCalibrateRsp",
  };
  return calicmdlist[calicmd];
}

function getSensorType(sensorid) {
  var sensorlist = {
    1: "Temperature",
  };
  return sensorlist[sensorid];
}

function decodeUplink(input) {
  var bytes = input.bytes;
  var data = {};
  switch (input.fPort) {
    case 6:
      data.Device = getDeviceName(bytes[1]);
      if (bytes[2] === 0x00) {
        data.SWver = bytes[3] / 10;
        data.HWver = bytes[4];
        data.Datecode = padLeft(bytes[5].toString(16), 2) + padLeft(bytes[6].toString(16), 2) + padLeft(bytes[7].toString(16), 2) + padLeft(bytes[8].toString(16), 2);
        return { data: data };
      }
      if (bytes[3] & 0x80) {
        data.Volt = ((bytes[3] & 0x7f) / 10).toString() + "(low battery)";
      } else {
        data.Volt = bytes[3] / 10;
      }
      data.Temp = s16(bytes, 4) / 10;
      break;
    case 7:
      data.Cmd = getCfgCmd(bytes[0]);
      data.Device = getDeviceName(bytes[1]);
      if (bytes[0] === 0x81) {
        data.Status = bytes[2] === 0x00 ? "Success" : "Failure";
      } else if (bytes[0] === 0x82) {
        data.MinTime = u16(bytes, 2);
        data.MaxTime = u16(bytes, 4);
        data.BatteryChange = bytes[6] / 10;
        data.TempChange = u16(bytes, 7) / 10;
      }
      break;
    case 14:
      data.Cmd = getCaliCmd(bytes[0]);
      if (bytes[0] === 0x81) {
        data.SensorType = getSensorType(bytes[1]);
        data.Channel = bytes[2] + 1;
        data.Status = bytes[3] === 0x00 ? "Success" : "Failure";
      } else if (bytes[0] === 0x82) {
        data.SensorType = getSensorType(bytes[1]);
        data.Channel = bytes[2] + 1;
        data.Multiplier = u16(bytes, 3);
        data.Divisor = u16(bytes, 5);
        data.DeltValue = s16(bytes, 7);
      } else if (bytes[0] === 0x83) {
        data.Status = bytes[1] === 0x00 ? "Success" : "Failure";
      }
      break;
    default:
      return { errors: ["unknown FPort"] };
  }
  return { data: data };
}
