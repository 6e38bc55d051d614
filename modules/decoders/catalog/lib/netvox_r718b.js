// Netvox temperature probe family, for netvox_r718b and netvox_150 (// @include netvox first):
// one probe (R718B, R718CJ, R718CK, R718CT, R718CR, R718CE) or two (R718B2, R718CK2, R718CT2:
// Netvox's codec TTN vendor/netvox/payload/r718b2.js), each a signed temperature in 0.1 °C.

var NV_R718B_TWO_PROBES = { 20: true, 22: true, 23: true };

var NV_R718B = {
  devices: {
    20: "R718B2", 22: "R718CK2", 23: "R718CT2",
    144: "R718CJ", 145: "R718CK", 146: "R718CT", 147: "R718CR", 148: "R718CE", 149: "R718B",
  },
  report: function (type, b, rt, d) {
    if (rt !== 1) return "report type " + rt + " is not documented for this device";
    if (NV_R718B_TWO_PROBES[type]) {
      d.temperature_1 = nvInt16(b, 4) / 10;
      d.temperature_2 = nvInt16(b, 6) / 10;
      return;
    }
    d.temperature = nvInt16(b, 4) / 10;
  },
  config: function (type, b, d) {
    d.temperature_change = nvUint16(b, 7) / 10;
  },
};
