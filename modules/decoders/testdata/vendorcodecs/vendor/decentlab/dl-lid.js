// Decentlab DL-LID uplink decoder in the style of Decentlab's codecs
// (lorawan-devices vendor/decentlab/dl-lid.js): protocol version 2, one
// row per sensor flag bit (its number of 16-bit words, then its readings as
// name, display name, unit and conversion), each reading given as an object
// of displayName, value and unit. Reduced to the table and the header.

var SENSORS = [
  [11, [
    ["distance_average", "Distance: average", "mm", function (x) { return x[0]; }],
    ["distance_minimum", "Distance: minimum", "mm", function (x) { return x[1]; }],
    ["distance_maximum", "Distance: maximum", "mm", function (x) { return x[2]; }],
    ["distance_median", "Distance: median", "mm", function (x) { return x[3]; }],
    ["distance_10th_percentile", "Distance: 10th percentile", "mm", function (x) { return x[4]; }],
    ["distance_25th_percentile", "Distance: 25th percentile", "mm", function (x) { return x[5]; }],
    ["distance_75th_percentile", "Distance: 75th percentile", "mm", function (x) { return x[6]; }],
    ["distance_90th_percentile", "Distance: 90th percentile", "mm", function (x) { return x[7]; }],
    ["distance_most_frequent_value", "Distance: most frequent value", "mm", function (x) { return x[8]; }],
    ["number_of_samples", "Number of samples", null, function (x) { return x[9]; }],
    ["total_acquisition_time", "Total acquisition time", "ms", function (x) { return x[10] / 1.024; }]
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
