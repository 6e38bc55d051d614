// Netvox two-probe water leak family (R311W), for netvox_r311w and netvox_150 (// @include netvox
// first).

var NV_R311W = {
  devices: { 6: "R311W" },
  report: function (type, b, rt, d) {
    if (rt !== 1) return "report type " + rt + " is not documented for this device";
    d.water_leak_1 = b[4] === 1;
    d.water_leak_2 = b[5] === 1;
  },
  config: function (type, b, d) {},
};
