// Netvox three-phase current meter family (R718N3), for netvox_r718n3 and netvox_150
// (// @include netvox first).

var NV_R718N3 = {
  devices: { 74: "R718N3" },
  report: function (type, b, rt, d) {
    if (rt === 1) {
      d.current1 = nvUint16(b, 4);
      d.current2 = nvUint16(b, 6);
      d.current3 = nvUint16(b, 8);
      d.multiplier1 = b[10];
    } else if (rt === 2) {
      d.multiplier2 = b[4];
      d.multiplier3 = b[5];
    } else if (rt === 3) {
      var steps = [1, 5, 10, 100];
      d.current1 = nvUint16(b, 4);
      d.current2 = nvUint16(b, 6);
      d.current3 = nvUint16(b, 8);
      d.multiplier1 = steps[b[10] & 3];
      d.multiplier2 = steps[(b[10] >> 2) & 3];
      d.multiplier3 = steps[(b[10] >> 4) & 3];
    } else if (rt === 4) {
      d.low_current1_alarm = (b[4] & 1) !== 0;
      d.high_current1_alarm = (b[4] & 2) !== 0;
      d.low_current2_alarm = (b[4] & 4) !== 0;
      d.high_current2_alarm = (b[4] & 8) !== 0;
      d.low_current3_alarm = (b[4] & 16) !== 0;
      d.high_current3_alarm = (b[4] & 32) !== 0;
    } else {
      return "report type " + rt + " is not documented for this device";
    }
  },
  config: function (type, b, d) {
    delete d.battery_change;
    d.current_change = nvUint16(b, 6);
  },
};
