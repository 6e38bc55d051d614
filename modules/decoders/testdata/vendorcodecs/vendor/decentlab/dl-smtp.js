// Decentlab DL-SMTP uplink decoder in the style of Decentlab's codecs
// (lorawan-devices vendor/decentlab/dl-smtp.js): protocol version 2, one
// row per sensor flag bit (its number of 16-bit words, then its readings as
// name, display name, unit and conversion), each reading given as an object
// of displayName, value and unit. Reduced to the table and the header.

var SENSORS = [
  [16, [
    ["soil_moisture_at_depth_0", "Soil moisture at depth 0", null, function (x) { return (x[0] - 2500) / 500; }],
    ["soil_temperature_at_depth_0", "Soil temperature at depth 0", "°C", function (x) { return (x[1] - 32768) / 100; }],
    ["soil_moisture_at_depth_1", "Soil moisture at depth 1", null, function (x) { return (x[2] - 2500) / 500; }],
    ["soil_temperature_at_depth_1", "Soil temperature at depth 1", "°C", function (x) { return (x[3] - 32768) / 100; }],
    ["soil_moisture_at_depth_2", "Soil moisture at depth 2", null, function (x) { return (x[4] - 2500) / 500; }],
    ["soil_temperature_at_depth_2", "Soil temperature at depth 2", "°C", function (x) { return (x[5] - 32768) / 100; }],
    ["soil_moisture_at_depth_3", "Soil moisture at depth 3", null, function (x) { return (x[6] - 2500) / 500; }],
    ["soil_temperature_at_depth_3", "Soil temperature at depth 3", "°C", function (x) { return (x[7] - 32768) / 100; }],
    ["soil_moisture_at_depth_4", "Soil moisture at depth 4", null, function (x) { return (x[8] - 2500) / 500; }],
    ["soil_temperature_at_depth_4", "Soil temperature at depth 4", "°C", function (x) { return (x[9] - 32768) / 100; }],
    ["soil_moisture_at_depth_5", "Soil moisture at depth 5", null, function (x) { return (x[10] - 2500) / 500; }],
    ["soil_temperature_at_depth_5", "Soil temperature at depth 5", "°C", function (x) { return (x[11] - 32768) / 100; }],
    ["soil_moisture_at_depth_6", "Soil moisture at depth 6", null, function (x) { return (x[12] - 2500) / 500; }],
    ["soil_temperature_at_depth_6", "Soil temperature at depth 6", "°C", function (x) { return (x[13] - 32768) / 100; }],
    ["soil_moisture_at_depth_7", "Soil moisture at depth 7", null, function (x) { return (x[14] - 2500) / 500; }],
    ["soil_temperature_at_depth_7", "Soil temperature at depth 7", "°C", function (x) { return (x[15] - 32768) / 100; }]
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
