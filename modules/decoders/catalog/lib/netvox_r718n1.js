// Netvox single-phase current meter family (R718N1), for netvox_r718n1 and netvox_150
// (// @include netvox first).

var NV_R718N1 = {
  devices: { 73: "R718N1" },
  report: function (type, b, rt, d) {
    if (rt !== 1) return "report type " + rt + " is not documented for this device";
    d.current = nvUint16(b, 4);
    d.multiplier = b[6];
  },
  config: function (type, b, d) {
    delete d.battery_change;
    d.current_change = nvUint16(b, 6);
  },
};
