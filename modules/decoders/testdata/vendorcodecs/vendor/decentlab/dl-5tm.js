// Decentlab DL-5TM uplink decoder in the style of Decentlab's codecs
// (lorawan-devices vendor/decentlab/dl-5tm.js): protocol version 2, one
// row per sensor flag bit (its number of 16-bit words, then its readings as
// name, display name, unit and conversion), each reading given as an object
// of displayName, value and unit. Reduced to the table and the header.

var SENSORS = [
  [2, [
    ["dielectric_permittivity", "Dielectric permittivity", null, function (x) { return x[0] / 50; }],
    ["volumetric_water_content", "Volumetric water content", "m³⋅m⁻³", function (x) { return 0.0000043 * Math.pow(x[0] / 50, 3) - 0.00055 * Math.pow(x[0] / 50, 2) + 0.0292 * (x[0] / 50) - 0.053; }],
    ["soil_temperature", "Soil temperature", "°C", function (x) { return (x[1] - 400) / 10; }]
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
