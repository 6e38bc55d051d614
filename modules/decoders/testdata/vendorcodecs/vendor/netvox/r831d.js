// Netvox R831D uplink decoder in the style of Netvox's codec
// (lorawan-devices vendor/netvox/payload/r831.js):
// the version report, the relay and input states (mains powered: no battery byte) and the configuration responses, named as Netvox names them. Reduced to what the examples use.
function getCfgCmd(cfgcmd) {
  var cfgcmdlist = {
    129: "ConfigReportRsp",
    130: "ReadConfigReportRsp",
    131: "SetSwitchTypeRsp",
    132: "GetSwitchTypeRsp",
  };
  return cfgcmdlist[cfgcmd];
}

function getDeviceName(dev) {
  var deviceName = {
    0xb0: "R831D",
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
      data.Relay_1 = bytes[3] ? "ON" : "OFF";
      data.Relay_2 = bytes[4] ? "ON" : "OFF";
      data.Relay_3 = bytes[5] ? "ON" : "OFF";
      data.Input_1 = bytes[6] ? "ON" : "OFF";
      data.Input_2 = bytes[7] ? "ON" : "OFF";
      data.Input_3 = bytes[8] ? "ON" : "OFF";
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
        data.SwitchType = bytes[2] === 0x01 ? "Momentary" : "Toggle";
      }
      break;
    default:
      return { errors: ["unknown FPort"] };
  }
  return { data: data };
}
