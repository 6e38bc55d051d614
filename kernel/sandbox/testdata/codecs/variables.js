// Calibration from the device's variables, as strings.
function decodeUplink(input) {
  var v = input.variables || {};
  var offset = parseFloat(v.offset || "0");
  var factor = v.factor !== undefined ? Number(v.factor) : 1;
  var raw = ((input.bytes[0] << 8) | input.bytes[1]) / 10;
  var value = raw * factor + offset;
  var data = { raw: raw, value: Math.round(value * 100) / 100, unit: v.unit || "C" };
  if (v.unit === "F") data.value = Math.round((value * 9 / 5 + 32) * 100) / 100;
  var warnings = [];
  if (isNaN(factor)) warnings.push("factor is not a number: " + v.factor);
  data.keys = Object.keys(v).sort();
  return { data: data, warnings: warnings };
}
