// @key decentlab_dl_zn2
// @name Decentlab DL-ZN2: two-channel dendrometer
// @devices DL-ZN2
// @source Decentlab DL-ZN2 datasheet and uplink payload description (Decentlab protocol v2), https://www.decentlab.com/products/dendrometer-for-lorawan; examples from Decentlab's codec in TheThingsNetwork/lorawan-devices vendor/decentlab
// @include decentlab
//
// Decentlab protocol v2: byte 0 is the protocol version (2), bytes 1-2 the device id, bytes 3-4 the
// sensor flags, all big endian. For each flag bit that is set, from bit 0 up, the payload carries that
// sensor's readings as big-endian unsigned 16-bit words; a clear bit means the sensor was not read in
// this uplink (battery-only uplinks, for example).
//
// Values (unit):
//   dendrometer_a_position  µm
//   dendrometer_b_position  µm
//   battery_voltage         V

var DL_PARAMETERS = {};

var DL_SENSORS = [
  {
    length: 4,
    values: [
      ["dendrometer_a_position", function (x) { return ((x[0] + x[1] * 65536) / 8388608 - 1) * 20000; }],
      ["dendrometer_b_position", function (x) { return ((x[0] + x[1] * 65536) / 8388608 - (x[2] + x[3] * 65536) / 8388608) * 20000; }]
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
