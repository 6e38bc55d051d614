// @key decentlab_dl_lid
// @name Decentlab DL-LID: laser distance / level sensor
// @devices DL-LID
// @source Decentlab DL-LID datasheet and uplink payload description (Decentlab protocol v2), https://www.decentlab.com/products/laser-distance-level-sensor-for-lorawan; examples from Decentlab's codec in TheThingsNetwork/lorawan-devices vendor/decentlab
// @include decentlab
//
// Decentlab protocol v2: byte 0 is the protocol version (2), bytes 1-2 the device id, bytes 3-4 the
// sensor flags, all big endian. For each flag bit that is set, from bit 0 up, the payload carries that
// sensor's readings as big-endian unsigned 16-bit words; a clear bit means the sensor was not read in
// this uplink (battery-only uplinks, for example).
//
// Values (unit):
//   distance_average              mm
//   distance_minimum              mm
//   distance_maximum              mm
//   distance_median               mm
//   distance_10th_percentile      mm
//   distance_25th_percentile      mm
//   distance_75th_percentile      mm
//   distance_90th_percentile      mm
//   distance_most_frequent_value  mm
//   number_of_samples             -
//   total_acquisition_time        ms
//   battery_voltage               V

var DL_PARAMETERS = {};

var DL_SENSORS = [
  {
    length: 11,
    values: [
      ["distance_average", function (x) { return x[0]; }],
      ["distance_minimum", function (x) { return x[1]; }],
      ["distance_maximum", function (x) { return x[2]; }],
      ["distance_median", function (x) { return x[3]; }],
      ["distance_10th_percentile", function (x) { return x[4]; }],
      ["distance_25th_percentile", function (x) { return x[5]; }],
      ["distance_75th_percentile", function (x) { return x[6]; }],
      ["distance_90th_percentile", function (x) { return x[7]; }],
      ["distance_most_frequent_value", function (x) { return x[8]; }],
      ["number_of_samples", function (x) { return x[9]; }],
      ["total_acquisition_time", function (x) { return x[10] / 1.024; }]
    ]
  },
  {
    length: 1,
    values: [
      ["battery_voltage", function (x) { return x[0] / 1000; }]
    ]
  }
];

var dlSensors = dlCompile(DL_PARAMETERS, DL_SENSORS);

function decodeUplink(input) {
  return dlDecode(input, dlSensors);
}
