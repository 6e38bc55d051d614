// Decentlab DL-KL66 uplink decoder in the style of Decentlab's codecs
// (lorawan-devices vendor/decentlab/dl-kl66-1538372-464859.js): protocol version 2, one
// row per sensor flag bit (its number of 16-bit words, then its readings as
// name, display name, unit and conversion), each reading given as an object
// of displayName, value and unit. Reduced to the table and the header.

// The device's parameters, as the vendor's codec sets them.
var P = {f0: 15383.72, k: 46.4859};

var SENSORS = [
  [3, [
    ["counter_reading", "Counter reading", null, function (x) { return x[0]; }],
    ["measurement_interval", "Measurement interval", null, function (x) { return x[1] / 32768; }],
    ["frequency", "Frequency", "Hz", function (x) { return x[0] / x[1] * 32768; }],
    ["weight", "Weight", "g", function (x) { return (Math.pow(x[0] / x[1] * 32768, 2) - Math.pow(P.f0, 2)) * P.k / 1000000; }],
    ["elongation", "Elongation", "µm", function (x) { return (Math.pow(x[0] / x[1] * 32768, 2) - Math.pow(P.f0, 2)) * P.k / 1000000 * (-1.5) / 1000 * 9.8067; }],
    ["strain", "Strain", "µm⋅m⁻¹", function (x) { return (Math.pow(x[0] / x[1] * 32768, 2) - Math.pow(P.f0, 2)) * P.k / 1000000 * (-1.5) / 1000 * 9.8067 / 0.066; }]
  ]],
  [1, [
    ["battery_voltage", "Battery voltage", "V", function (x) { return x[0] / 1000; }]
  ]]
];

function decodeUplink(input) {
  var b = input.bytes;
  if (b[0] !== 2) {
    return { errors: ["protocol version " + b[0] + " doesn't match v2"] };
  }
  var word = function (i) { return (b[i] << 8) + b[i + 1]; };
  var data = { protocol_version: 2, device_id: word(1) };
  var flags = word(3);
  var pos = 5;
  SENSORS.forEach(function (sensor, bit) {
    if (!(flags & (1 << bit))) return;
    var x = [];
    for (var j = 0; j < sensor[0]; j++, pos += 2) x.push(word(pos));
    sensor[1].forEach(function (v) {
      var reading = { displayName: v[1], value: v[3](x) };
      if (v[2] !== null) reading.unit = v[2];
      data[v[0]] = reading;
    });
  });
  return { data: data };
}
