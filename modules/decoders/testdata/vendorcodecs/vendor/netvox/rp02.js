// Netvox RP02 uplink decoder in the style of Netvox's codec
// (lorawan-devices vendor/netvox/payload/rp02.js): the version report, the
// breaker reports on fPort 6 named as Netvox names them (the RP02 is mains
// powered: its reports carry the breaker's RS485 address where others carry
// the battery) and the report configuration on fPort 7. Reduced to the
// reports the examples use.
function getCfgCmd(cfgcmd) {
  var cfgcmdlist = {
    130: "ReadConfigReportRsp",
  };
  return cfgcmdlist[cfgcmd];
}

function getDeviceName(dev) {
  var deviceName = {
    0x9c: "RP02",
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

function u32(bytes, at) {
  return ((bytes[at] << 24) >>> 0) + (bytes[at + 1] << 16) + (bytes[at + 2] << 8) + bytes[at + 3];
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
      data.BreakerRS485Addr = bytes[3];
      switch (bytes[2]) {
        case 0x02:
          data.Current = u16(bytes, 4);
          data.Voltage = u16(bytes, 6);
          data.Power = u16(bytes, 8);
          data.Temperature = bytes[10];
          break;
        case 0x17:
          data.CPhaseEnergy = u32(bytes, 4);
          data.HandOrAutoControlStatus = bytes[8];
          data.OnOffStatus = bytes[9] === 0x00 ? "Off" : "On";
          break;
      }
      break;
    case 7:
      data.Cmd = getCfgCmd(bytes[0]);
      data.Device = getDeviceName(bytes[1]);
      if (bytes[0] === 0x82) {
        data.MinTime = u16(bytes, 2);
        data.MaxTime = u16(bytes, 4);
      }
      break;
    default:
      return { errors: ["unknown FPort"] };
  }
  return { data: data };
}
