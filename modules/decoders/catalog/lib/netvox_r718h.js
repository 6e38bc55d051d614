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
  command: function (type, cmd, b, d) {
    switch (cmd) {
      case 0x83: return nvStatus(d, "SetFiltertimeRsp", b);
      case 0x84: d.command = "GetFiltertimeRsp"; d.filter_time = b[2] * 5; return true;
      case 0x85: return nvStatus(d, "SetPulseCounterClearModeRsp", b);
      case 0x86: d.command = "GetPulseCounterClearModeRsp"; d.clear_on_roll_over = b[2] !== 0; return true;
    }
    return false;
  },
  config: function (type, b, d) {},
};
