// Netvox R718E uplink decoder in the style of Netvox's codec
// (lorawan-devices vendor/netvox/payload/r718e.js):
// the version report, report 1 (battery and acceleration), report 2 (velocity and temperature, no battery byte) and the configuration responses, named as Netvox names them. Reduced to what the examples use.
function getCfgCmd(cfgcmd) {
  var cfgcmdlist = {
    129: "ConfigReportRsp",
    130: "ReadConfigReportRsp",
    131: "SetActiveThresholdRsp",
    132: "GetActiveThresholdRsp",
    135: "SetRestoreReportRsp",
    136: "GetRestoreReportRsp",
  };
  return cfgcmdlist[cfgcmd];
}

function getDeviceName(dev) {
  var deviceName = {
    0x1c: "R718E",
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

// axis reads a little-endian 16-bit word as the upper half of an IEEE 754
// single, to 6 decimals.
function axis(bytes, at) {
  var view = new DataView(new ArrayBuffer(4));
  view.setUint8(0, bytes[at + 1]);
  view.setUint8(1, bytes[at]);
  return parseFloat(view.getFloat32(0).toFixed(6));
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
      if (bytes[2] === 0x01) {
        if (bytes[3] & 0x80) {
          data.Volt = ((bytes[3] & 0x7f) / 10).toString() + "(low battery)";
        } else {
          data.Volt = bytes[3] / 10;
        }
        data.AccelerationX = axis(bytes, 4);
        data.AccelerationY = axis(bytes, 6);
        data.AccelerationZ = axis(bytes, 8);
      } else if (bytes[2] === 0x02) {
        data.VelocityX = axis(bytes, 3);
        data.VelocityY = axis(bytes, 5);
        data.VelocityZ = axis(bytes, 7);
        data.Temp = s16(bytes, 9) / 10;
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
        data.BatteryChange = bytes[6] / 10;
        data.AccelerationChange = u16(bytes, 7);
      } else if (bytes[0] === 0x83) {
        data.Status = bytes[2] === 0x00 ? "Success" : "Failure";
      } else if (bytes[0] === 0x84) {
        data.ActiveThreshold = u16(bytes, 2);
        data.InActiveThreshold = u16(bytes, 4);
      } else if (bytes[0] === 0x87) {
        data.Status = bytes[2] === 0x00 ? "Success" : "Failure";
      } else if (bytes[0] === 0x88) {
        data.RestoreReportSet = bytes[2];
      }
      break;
    default:
      return { errors: ["unknown FPort"] };
  }
  return { data: data };
}
