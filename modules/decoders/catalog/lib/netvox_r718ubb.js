// Netvox multifunctional sensor family (R718UBB and the R718UB series), for netvox_r718ubb and
// netvox_150 (// @include netvox first), as the examples of Netvox's codec (TTN
// vendor/netvox/r718ubb-codec.yaml, payload/r718ub.js) read it. Report 1: temperature (signed, 0.01
// °C), humidity (0.01 %RH), CO2 (ppm), shock event count; report 2: air pressure (32 bits, 0.01
// hPa) and illuminance (24 bits, lux); report 3: PM2.5, PM10 (µg/m³) and TVOC.

var NV_R718UBB = {
  devices: { 187: "R718UBB" },
  report: function (type, b, rt, d) {
    if (rt === 1) {
      d.temperature = nvInt16(b, 4) / 100;
      d.humidity = nvUint16(b, 6) / 100;
      d.co2 = nvUint16(b, 8);
      d.shock_event = b[10];
    } else if (rt === 2) {
      d.air_pressure = nvUint32(b, 4) / 100;
      d.illuminance = (b[8] << 16) | (b[9] << 8) | b[10];
    } else if (rt === 3) {
      d.pm2_5 = nvUint16(b, 4);
      d.pm10 = nvUint16(b, 6);
      d.tvoc = nvUint16(b, 8);
    } else {
      return "report type " + rt + " is not documented for this device";
    }
  },
  command: function (type, cmd, b, d) {
    switch (cmd) {
      case 0x83: return nvStatus(d, "CalibrateCO2Rsp", b);
      case 0x84: return nvStatus(d, "SetShockSensorSensitivityRsp", b);
      case 0x85: d.command = "GetShockSensorSensitivityRsp"; d.shock_sensor_sensitivity = b[2]; return true;
    }
    return false;
  },
  config: function (type, b, d) {},
};
