// Decentlab DL-ATM22 uplink decoder in the style of Decentlab's codecs
// (lorawan-devices vendor/decentlab/dl-atm22.js): protocol version 2, one
// row per sensor flag bit (its number of 16-bit words, then its readings as
// name, display name, unit and conversion), each reading given as an object
// of displayName, value and unit. Reduced to the table and the header.

var SENSORS = [
  [8, [
    ["wind_speed", "Wind speed", "m⋅s⁻¹", function (x) { return (x[0] - 32768) / 100; }],
    ["wind_direction", "Wind direction", "°", function (x) { return (x[1] - 32768) / 10; }],
    ["maximum_wind_speed", "Maximum wind speed", "m⋅s⁻¹", function (x) { return (x[2] - 32768) / 100; }],
    ["air_temperature", "Air temperature", "°C", function (x) { return (x[3] - 32768) / 10; }],
    ["x_orientation_angle", "X orientation angle", "°", function (x) { return (x[4] - 32768) / 10; }],
    ["y_orientation_angle", "Y orientation angle", "°", function (x) { return (x[5] - 32768) / 10; }],
    ["north_wind_speed", "North wind speed", "m⋅s⁻¹", function (x) { return (x[6] - 32768) / 100; }],
    ["east_wind_speed", "East wind speed", "m⋅s⁻¹", function (x) { return (x[7] - 32768) / 100; }]
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
