// Netvox control box family (R831A, R831B: motor; R831C: three relays; R831D: three relays and three
// inputs), for netvox_r831 and netvox_150 (// @include netvox first), as Netvox's codec TTN
// vendor/netvox/payload/r831.js reads it. Mains powered: byte 3 is no battery but the first state.

var NV_R831 = {
  devices: { 173: "R831C", 176: "R831D", 178: "R831A", 179: "R831B" },
  noBattery: function () { return true; },
  report: function (type, b, rt, d) {
    if (rt !== 1) return "report type " + rt + " is not documented for this device";
    if (type === 178 || type === 179) {
      d.motor_on = b[3] !== 0;
      return;
    }
    d.relay_1_on = b[3] !== 0;
    d.relay_2_on = b[4] !== 0;
    d.relay_3_on = b[5] !== 0;
    if (type === 176) {
      d.input_1_on = b[6] !== 0;
      d.input_2_on = b[7] !== 0;
      d.input_3_on = b[8] !== 0;
    }
  },
  command: function (type, cmd, b, d) {
    if (cmd === 0x83) return nvStatus(d, "SetSwitchTypeRsp", b);
    if (cmd === 0x84) { d.command = "GetSwitchTypeRsp"; d.switch_momentary = b[2] !== 0; return true; }
    return false;
  },
  config: function (type, b, d) {
    delete d.battery_change;
  },
};
