// Netvox door and window contact family (R311A, R718F, R730F), for netvox_r311a and netvox_150
// (// @include netvox first).

var NV_R311A = {
  devices: { 2: "R311A", 29: "R718F", 125: "R730F" },
  report: function (type, b, rt, d) {
    if (rt !== 1) return "report type " + rt + " is not documented for this device";
    d.contact_on = b[4] === 1;
  },
  config: function (type, b, d) {},
};
