// Decentlab DL-LP8P uplink decoder in the style of Decentlab's codecs
// (lorawan-devices vendor/decentlab/dl-lp8p.js): protocol version 2, one
// row per sensor flag bit (its number of 16-bit words, then its readings as
// name, display name, unit and conversion), each reading given as an object
// of displayName, value and unit. Reduced to the table and the header.

var SENSORS = [
  [2, [
    ["air_temperature", "Air temperature", "°C", function (x) { return 175.72 * x[0] / 65536 - 46.85; }],
    ["air_humidity", "Air humidity", "%", function (x) { return 125 * x[1] / 65536 - 6; }]
  ]],
  [2, [
    ["barometer_temperature", "Barometer temperature", "°C", function (x) { return (x[0] - 5000) / 100; }],
    ["barometric_pressure", "Barometric pressure", "Pa", function (x) { return x[1] * 2; }]
  ]],
  [8, [
    ["co2_concentration", "CO2 concentration", "ppm", function (x) { return x[0] - 32768; }],
    ["co2_concentration_lpf", "CO2 concentration LPF", "ppm", function (x) { return x[1] - 32768; }],
    ["co2_sensor_temperature", "CO2 sensor temperature", "°C", function (x) { return (x[2] - 32768) / 100; }],
    ["capacitor_voltage_1", "Capacitor voltage 1", "V", function (x) { return x[3] / 1000; }],
    ["capacitor_voltage_2", "Capacitor voltage 2", "V", function (x) { return x[4] / 1000; }],
    ["co2_sensor_status", "CO2 sensor status", null, function (x) { return x[5]; }],
    ["raw_ir_reading", "Raw IR reading", null, function (x) { return x[6]; }],
    ["raw_ir_reading_lpf", "Raw IR reading LPF", null, function (x) { return x[7]; }]
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
