// Netvox R315 uplink decoder in the style of Netvox's codec
// (lorawan-devices vendor/netvox/payload/r315.js):
// the version report, the status report (bitmaps as binary strings, temperature and humidity) and the configuration responses, named as Netvox names them. Reduced to what the examples use.
function getCfgCmd(cfgcmd) {
  var cfgcmdlist = {
    129: "ConfigReportRsp",
    130: "ReadConfigReportRsp",
    131: "SetPIREnableRsp",
    132: "GetPIREnableRsp",
    133: "SetShockSensorSensitivityRsp",
    134: "GetShockSensorSensitivityRsp",
    135: "SetIRDisableTimeRsp",
    136: "GetIRDisableTimeRsp",
    137: "SetAlarmOnTimeRsp",
    138: "GetAlarmOnTimeRsp",
    139: "SetDryContactPointOutTypeRsp",
    140: "GetDryContactPointOutTypeRsp",
    141: "SetRestoreReportRsp",
    142: "GetRestoreReportRsp",
  };
  return cfgcmdlist[cfgcmd];
}

function getDeviceName(dev) {
  var deviceName = {
    0xd2: "R315",
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
        data.FunctionEnable = u16(bytes, 4).toString(2);
        data.BinarySensorReport = u16(bytes, 6).toString(2);
        if (bytes[5] & 0x01) {
          data.Temp = s16(bytes, 8) / 100;
          data.Humi = bytes[10] * 0.5;
        }
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
        data.TempChange = u16(bytes, 7) / 100;
        data.HumiChange = bytes[9] * 0.5;
        data.IllumChange = bytes[10];
      } else if (bytes[0] === 0x83) {
        data.Status = bytes[2] === 0x00 ? "Success" : "Failure";
      } else if (bytes[0] === 0x84) {
        data.PIREnable = bytes[2];
      } else if (bytes[0] === 0x85) {
        data.Status = bytes[2] === 0x00 ? "Success" : "Failure";
      } else if (bytes[0] === 0x86) {
        data.InternalShockSensoerSensitivity = bytes[2];
        data.ExternalShockSensoerSensitivity = bytes[3];
      } else if (bytes[0] === 0x87) {
        data.Status = bytes[2] === 0x00 ? "Success" : "Failure";
      } else if (bytes[0] === 0x88) {
        data.IRSDisableTime = u16(bytes, 2);
        data.IRSDetectionTime = u16(bytes, 4);
      } else if (bytes[0] === 0x89) {
        data.Status = bytes[2] === 0x00 ? "Success" : "Failure";
      } else if (bytes[0] === 0x8a) {
        data.AlarmOnTime = u16(bytes, 2);
      } else if (bytes[0] === 0x8b) {
        data.Status = bytes[2] === 0x00 ? "Success" : "Failure";
      } else if (bytes[0] === 0x8c) {
        data.DryContactPointOutType = bytes[2];
      } else if (bytes[0] === 0x8d) {
        data.Status = bytes[2] === 0x00 ? "Success" : "Failure";
      } else if (bytes[0] === 0x8e) {
        data.RestoreReportSet = bytes[2];
      }
      break;
    default:
      return { errors: ["unknown FPort"] };
  }
  return { data: data };
}
