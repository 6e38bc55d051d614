// Decentlab DL-PM uplink decoder in the style of Decentlab's codecs
// (lorawan-devices vendor/decentlab/dl-pm.js): protocol version 2, one
// row per sensor flag bit (its number of 16-bit words, then its readings as
// name, display name, unit and conversion), each reading given as an object
// of displayName, value and unit. Reduced to the table and the header.

var SENSORS = [
  [1, [
    ["battery_voltage", "Battery voltage", "V", function (x) { return x[0] / 1000; }]
  ]],
  [10, [
    ["pm1_0_mass_concentration", "PM1.0 mass concentration", "µg⋅m⁻³", function (x) { return x[0] / 10; }],
    ["pm2_5_mass_concentration", "PM2.5 mass concentration", "µg⋅m⁻³", function (x) { return x[1] / 10; }],
    ["pm4_mass_concentration", "PM4 mass concentration", "µg⋅m⁻³", function (x) { return x[2] / 10; }],
    ["pm10_mass_concentration", "PM10 mass concentration", "µg⋅m⁻³", function (x) { return x[3] / 10; }],
    ["typical_particle_size", "Typical particle size", "nm", function (x) { return x[4]; }],
    ["pm0_5_number_concentration", "PM0.5 number concentration", null, function (x) { return x[5] / 10; }],
    ["pm1_0_number_concentration", "PM1.0 number concentration", null, function (x) { return x[6] / 10; }],
    ["pm2_5_number_concentration", "PM2.5 number concentration", null, function (x) { return x[7] / 10; }],
    ["pm4_number_concentration", "PM4 number concentration", null, function (x) { return x[8] / 10; }],
    ["pm10_number_concentration", "PM10 number concentration", null, function (x) { return x[9] / 10; }]
  ]],
  [2, [
    ["air_temperature", "Air temperature", "°C", function (x) { return 175.72 * x[0] / 65536 - 46.85; }],
    ["air_humidity", "Air humidity", "%", function (x) { return 125 * x[1] / 65536 - 6; }]
  ]],
  [1, [
    ["barometric_pressure", "Barometric pressure", "Pa", function (x) { return x[0] * 2; }]
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
