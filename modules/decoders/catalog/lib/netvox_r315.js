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
  config: function (type, b, d) {
    d.temperature_change = nvUint16(b, 7) / 100;
    d.humidity_change = b[9] * 0.5;
    d.illuminance_change = b[10];
  },
};
