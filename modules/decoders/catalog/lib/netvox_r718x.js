// Netvox ultrasonic distance family (R718X with temperature and tilt, R718PE), for netvox_r718x and
// netvox_150 (// @include netvox first), as Netvox's codec TTN vendor/netvox/payload/r718x.js reads
// it: the on-distance status, the distance, then on the R718X the temperature (signed, 0.1 °C), the
// fill level (%) and the angle of inclination (°), on the R718PE the fill level.

var NV_R718X_TYPE = 52;

var NV_R718X = {
  devices: { 52: "R718X", 177: "R718PE" },
  report: function (type, b, rt, d) {
    if (rt !== 1) return "report type " + rt + " is not documented for this device";
    d.status_on = b[4] !== 0;
    d.distance = nvUint16(b, 5);
    if (type === NV_R718X_TYPE) {
      d.temperature = nvInt16(b, 7) / 10;
      d.fill_level = b[9];
      d.angle_of_inclination = b[10];
      return;
    }
    d.fill_level = b[7];
  },
  command: function (type, cmd, b, d) {
    switch (cmd) {
      case 0x83: return nvStatus(d, "SetOnDistanceThresholdRsp", b);
      case 0x84: d.command = "GetOnDistanceThresholdRsp"; d.on_distance_threshold = nvUint16(b, 2); return true;
      case 0x85: return nvStatus(d, "SetFillMaxDistanceRsp", b);
      case 0x86: d.command = "GetFillMaxDistanceRsp"; d.fill_max_distance = nvUint16(b, 2); return true;
      case 0x8b: return nvStatus(d, "SetDeadZoneDistanceRsp", b);
      case 0x8c: d.command = "GetDeadZoneDistanceRsp"; d.dead_zone_distance = nvUint16(b, 2); return true;
    }
    return false;
  },
  config: function (type, b, d) {
    d.distance_change = nvUint16(b, 7);
    if (type === NV_R718X_TYPE) d.temperature_change = nvUint16(b, 9) / 10;
  },
};
