// Netvox binary status family (vibration, dry contact, hall, tilt: R718DA, R718DB, R718J, R718LB,
// R718MBA, R311FA, R718Q, R730MBA, R730DA, R730DB, R730LB, R718QA, R311DA, R311DB, R720F), for
// netvox_r718da and netvox_150 (// @include netvox first).

var NV_R718DA = {
  devices: {
    26: "R718DA", 27: "R718DB", 33: "R718J", 37: "R718LB", 39: "R718MBA", 79: "R311FA", 91: "R718Q",
    130: "R730MBA", 137: "R730DA", 139: "R730DB", 141: "R730LB", 151: "R718QA", 168: "R311DA",
    169: "R311DB", 183: "R720F",
  },
  report: function (type, b, rt, d) {
    if (rt !== 1) return "report type " + rt + " is not documented for this device";
    d.status = b[4];
  },
  config: function (type, b, d) {},
};
