// Nested objects and arrays: a multi-probe logger reporting a list of readings.
function decodeUplink(input) {
  var b = input.bytes;
  var count = b[0];
  var readings = [];
  for (var i = 0; i < count; i++) {
    var o = 1 + i * 3;
    if (o + 2 >= b.length) break;
    readings.push({
      probe: b[o],
      value: ((b[o + 1] << 8) | b[o + 2]) / 100,
      flags: { saturated: b[o + 1] === 0xff, zero: b[o + 1] === 0 && b[o + 2] === 0 }
    });
  }
  var result = {
    device: { model: "LG-4", firmware: [1, b.length % 3, 7] },
    readings: readings,
    summary: {
      count: readings.length,
      probes: readings.map(function (r) { return r.probe; }),
      nothing: null,
      empty: [],
      deep: { a: { b: { c: [[1, 2], [3, [4, { d: 5 }]]] } } }
    }
  };
  var warnings = readings.length < count ? ["expected " + count + " readings, got " + readings.length] : [];
  return { data: result, warnings: warnings };
}
