// @key decentlab_dl_dlr2_010
// @name Decentlab DL-DLR2-010: two-channel pulse counter input (analog or digital sensor device)
// @devices DL-DLR2-010
// @source Decentlab DL-DLR2-010 datasheet and uplink payload description (Decentlab protocol v2), https://www.decentlab.com/products/analog-or-digital-sensor-device-for-lorawan; examples from Decentlab's codec in TheThingsNetwork/lorawan-devices vendor/decentlab
// @include decentlab
//
// Decentlab protocol v2: byte 0 is the protocol version (2), bytes 1-2 the device id, bytes 3-4 the
// sensor flags, all big endian. For each flag bit that is set, from bit 0 up, the payload carries that
// sensor's readings as big-endian unsigned 16-bit words; a clear bit means the sensor was not read in
// this uplink (battery-only uplinks, for example).
//
// Values (unit):
//   ch0_pulse_count             -
//   ch0_pulse_interval          s
//   ch0_cumulative_pulse_count  -
//   ch1_pulse_count             -
//   ch1_pulse_interval          s
//   ch1_cumulative_pulse_count  -
//   battery_voltage             V

var DL_PARAMETERS = {};

var DL_SENSORS = [
  {
    length: 4,
    values: [
      ["ch0_pulse_count", function (x) { return x[0]; }],
      ["ch0_pulse_interval", function (x) { return x[1]; }],
      ["ch0_cumulative_pulse_count", function (x) { return (x[2] + x[3] * 65536); }]
    ]
  },
  {
    length: 4,
    values: [
      ["ch1_pulse_count", function (x) { return x[0]; }],
      ["ch1_pulse_interval", function (x) { return x[1]; }],
      ["ch1_cumulative_pulse_count", function (x) { return (x[2] + x[3] * 65536); }]
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
