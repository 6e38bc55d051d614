// Netvox temperature and humidity family (R711, R718A, R718AB, R720A), for netvox_r718a and
// netvox_150 (// @include netvox first).

var NV_R718A = {
  devices: { 1: "R711", 11: "R718A", 19: "R718AB", 110: "R720A" },
  report: function (type, b, rt, d) {
    if (rt !== 1) return "report type " + rt + " is not documented for this device";
    d.temperature = nvInt16(b, 4) / 100;
    d.humidity = nvUint16(b, 6) / 100;
  },
  config: function (type, b, d) {
    d.temperature_change = nvUint16(b, 7) / 100;
    d.humidity_change = nvUint16(b, 9) / 100;
  },
};
