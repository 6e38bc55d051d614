// Netvox analog input family (R718IA, R718IB, R730IA, R730IB), for netvox_r718ib and netvox_150
// (// @include netvox first).

var NV_R718IB = {
  devices: { 32: "R718IA", 42: "R718IB", 116: "R730IA", 117: "R730IB" },
  report: function (type, b, rt, d) {
    if (rt !== 1) return "report type " + rt + " is not documented for this device";
    d.adc_raw = nvUint16(b, 4);
  },
  config: function (type, b, d) {},
};
