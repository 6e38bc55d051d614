// Netvox pulse counter family (R718H, R718H2), for netvox_r718h and netvox_150 (// @include netvox
// first), as Netvox's codec TTN vendor/netvox/payload/r718h.js reads it: 16-bit counts, one
// (R718H) or two (R718H2).

var NV_R718H = {
  devices: { 31: "R718H", 63: "R718H2" },
  report: function (type, b, rt, d) {
    if (rt !== 1) return "report type " + rt + " is not documented for this device";
    if (type === 63) {
      d.pulse_count_1 = nvUint16(b, 4);
      d.pulse_count_2 = nvUint16(b, 6);
      return;
    }
    d.pulse_count = nvUint16(b, 4);
  },
  config: function (type, b, d) {},
};
