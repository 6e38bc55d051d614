// Netvox multi-sensor family (R315), for netvox_r315 and netvox_150 (// @include netvox first), as
// Netvox's codec TTN vendor/netvox/payload/r315.js reads it. Report 1: the function-enable and
// binary-sensor bitmaps (16 bits each), then, when bit 0 of the function-enable bitmap says the
// temperature and humidity sensor is on, the temperature (signed, 0.01 °C) and the humidity (0.5
// %RH); report 2: the illuminance.

var NV_R315 = {
  devices: { 210: "R315" },
  report: function (type, b, rt, d) {
    if (rt === 1) {
      d.function_enable = nvUint16(b, 4);
      d.binary_sensor_report = nvUint16(b, 6);
      if ((b[5] & 0x01) !== 0) {
        d.temperature = nvInt16(b, 8) / 100;
        d.humidity = b[10] * 0.5;
      }
    } else if (rt === 2) {
      d.illuminance = nvUint16(b, 4);
    } else {
      return "report type " + rt + " is not documented for this device";
    }
  },
  command: function (type, cmd, b, d) {
    switch (cmd) {
      case 0x83: return nvStatus(d, "SetPIREnableRsp", b);
      case 0x84: d.command = "GetPIREnableRsp"; d.pir_enable = b[2]; return true;
      case 0x85: return nvStatus(d, "SetShockSensorSensitivityRsp", b);
      case 0x86:
        d.command = "GetShockSensorSensitivityRsp";
        d.internal_shock_sensitivity = b[2];
        d.external_shock_sensitivity = b[3];
        return true;
      case 0x87: return nvStatus(d, "SetIRDisableTimeRsp", b);
      case 0x88:
        d.command = "GetIRDisableTimeRsp";
        d.ir_disable_time = nvUint16(b, 2);
        d.ir_detection_time = nvUint16(b, 4);
        return true;
      case 0x89: return nvStatus(d, "SetAlarmOnTimeRsp", b);
      case 0x8a: d.command = "GetAlarmOnTimeRsp"; d.alarm_on_time = nvUint16(b, 2); return true;
      case 0x8b: return nvStatus(d, "SetDryContactPointOutTypeRsp", b);
      case 0x8c: d.command = "GetDryContactPointOutTypeRsp"; d.dry_contact_out_type = b[2]; return true;
      case 0x8d: return nvStatus(d, "SetRestoreReportRsp", b);
      case 0x8e: d.command = "GetRestoreReportRsp"; d.restore_report = b[2]; return true;
    }
    return false;
  },
  config: function (type, b, d) {
    d.temperature_change = nvUint16(b, 7) / 100;
    d.humidity_change = b[9] * 0.5;
    d.illuminance_change = b[10];
  },
};
