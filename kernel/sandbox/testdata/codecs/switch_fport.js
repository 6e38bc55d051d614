// One frame type per port, chosen with a switch, with a warning for ports the
// device does not use.
function decodeUplink(input) {
  var b = input.bytes;
  var data = {};
  var warnings = [];
  switch (input.fPort) {
    case 1:
      data.type = "periodic";
      data.distance_mm = (b[0] << 8) | b[1];
      data.fill = Math.round((1 - data.distance_mm / 2000) * 1000) / 10;
      break;
    case 2:
      data.type = "alarm";
      data.alarm = b[0] === 1 ? "tilt" : b[0] === 2 ? "fire" : "unknown";
      break;
    case 3:
      data.type = "config";
      data.interval_s = b[0] * 60;
      data.threshold_mm = b[1] * 10;
      break;
    case 100:
    case 101:
      data.type = "debug";
      data.raw = b.slice();
      break;
    default:
      warnings.push("unknown fPort " + input.fPort);
  }
  return { data: data, warnings: warnings };
}
