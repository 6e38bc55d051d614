// Netvox R718UBB uplink decoder in the style of Netvox's codec
// (lorawan-devices vendor/netvox/payload/r718ub.js):
// the version report, reports 1 to 3 (climate, CO2, shock; pressure and light; particles and TVOC) and the configuration responses, named as Netvox names them. Reduced to what the examples use.
function getCfgCmd(cfgcmd) {
  var cfgcmdlist = {
    129: "ConfigReportRsp",
    130: "ReadConfigReportRsp",
    131: "CalibrateCO2Rsp",
    132: "SetShockSensorSensitivityRsp",
    133: "GetShockSensorSensitivityRsp",
  };
  return cfgcmdlist[cfgcmd];
}

function getDeviceName(dev) {
  var deviceName = {
    0xbb: "R718UB Seriers",
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
      if (bytes[2] === 0x01) {
        data.Temp = s16(bytes, 4) / 100;
        data.Humi = u16(bytes, 6) / 100;
        data.CO2 = u16(bytes, 8);
        data.ShockEvent = bytes[10];
      } else if (bytes[2] === 0x02) {
        data.AirPressure = (u16(bytes, 4) * 65536 + u16(bytes, 6)) / 100;
        data.Illuminance = (bytes[8] << 16) | u16(bytes, 9);
      } else if (bytes[2] === 0x03) {
        data.PM2_5 = u16(bytes, 4);
        data.PM10 = u16(bytes, 6);
        data.TVOC = u16(bytes, 8);
      }
      break;
    case 7:
      data.Cmd = getCfgCmd(bytes[0]);
      data.Device = getDeviceName(bytes[1]);
      if (bytes[0] === 0x81) {
        data.Status = bytes[2] === 0x00 ? "Success" : "Failure";
      } else if (bytes[0] === 0x82) {
        data.MinTime = u16(bytes, 2);
        data.MaxTime = u16(bytes, 4);
      } else if (bytes[0] === 0x83) {
        data.Status = bytes[2] === 0x00 ? "Success" : "Failure";
      } else if (bytes[0] === 0x84) {
        data.Status = bytes[2] === 0x00 ? "Success" : "Failure";
      } else if (bytes[0] === 0x85) {
        data.ShockSensorSensitivity = bytes[2];
      }
      break;
    default:
      return { errors: ["unknown FPort"] };
  }
  return { data: data };
}
