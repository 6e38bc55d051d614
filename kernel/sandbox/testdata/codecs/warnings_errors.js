// Reports problems the way The Things Stack expects: data it could read plus
// warnings and errors.
function decodeUplink(input) {
  var b = input.bytes;
  var data = {};
  var warnings = [];
  var errors = [];
  if (b.length === 0) {
    errors.push("empty payload");
    return { errors: errors };
  }
  if (b[0] !== 0x11) {
    errors.push("unknown header 0x" + b[0].toString(16));
  }
  if (b.length > 1) {
    data.level = b[1];
    if (b[1] > 100) warnings.push("level above 100 %: " + b[1]);
  }
  if (b.length > 2) {
    data.temperature = b[2] - 40;
    if (data.temperature < -20) warnings.push("very cold");
  } else {
    errors.push("no temperature");
  }
  return { data: data, warnings: warnings, errors: errors };
}
