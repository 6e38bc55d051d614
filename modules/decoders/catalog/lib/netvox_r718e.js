// Netvox three-axis accelerometer and temperature family (R718E), for netvox_r718e and netvox_150
// (// @include netvox first), as Netvox's codec TTN vendor/netvox/payload/r718e.js reads it. Report
// 1: battery and acceleration X, Y, Z; report 2 has no battery byte: velocity X, Y, Z, then the
// temperature (signed, 0.1 °C, big endian). Each axis is a 16-bit little-endian word holding the
// upper half of an IEEE 754 single (a bfloat16), rounded to 6 decimals as Netvox does.

function nvBfloat16(b, i) {
  var h = ((b[i + 1] & 0xff) << 8) | (b[i] & 0xff);
  var sign = h & 0x8000 ? -1 : 1;
  var exp = (h >> 7) & 0xff;
  var frac = h & 0x7f;
  var v;
  if (exp === 0) v = sign * Math.pow(2, -126) * (frac / 128);
  else if (exp === 0xff) return frac ? NaN : sign * Infinity;
  else v = sign * Math.pow(2, exp - 127) * (1 + frac / 128);
  return parseFloat(v.toFixed(6));
}

var NV_R718E = {
  devices: { 28: "R718E" },
  noBattery: function (type, rt) { return rt === 2; },
  report: function (type, b, rt, d) {
    if (rt === 1) {
      d.acceleration_x = nvBfloat16(b, 4);
      d.acceleration_y = nvBfloat16(b, 6);
      d.acceleration_z = nvBfloat16(b, 8);
    } else if (rt === 2) {
      d.velocity_x = nvBfloat16(b, 3);
      d.velocity_y = nvBfloat16(b, 5);
      d.velocity_z = nvBfloat16(b, 7);
      d.temperature = nvInt16(b, 9) / 10;
    } else {
      return "report type " + rt + " is not documented for this device";
    }
  },
  command: function (type, cmd, b, d) {
    switch (cmd) {
      case 0x83: return nvStatus(d, "SetActiveThresholdRsp", b);
      case 0x84:
        d.command = "GetActiveThresholdRsp";
        d.active_threshold = nvUint16(b, 2);
        d.inactive_threshold = nvUint16(b, 4);
        return true;
      case 0x87: return nvStatus(d, "SetRestoreReportRsp", b);
      case 0x88: d.command = "GetRestoreReportRsp"; d.restore_report = b[2]; return true;
    }
    return false;
  },
  config: function (type, b, d) {
    d.acceleration_change = nvUint16(b, 7);
  },
};
