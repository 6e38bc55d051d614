// @key decentlab_dl_mbx
// @name Decentlab DL-MBX: ultrasonic distance / level sensor (MaxBotix)
// @devices DL-MBX
// @source Decentlab DL-MBX datasheet and uplink payload description (Decentlab protocol v2), https://www.decentlab.com/products/ultrasonic-distance-/-level-sensor-for-lorawan; examples from Decentlab's codec in TheThingsNetwork/lorawan-devices vendor/decentlab
// @include decentlab
//
// Decentlab protocol v2: byte 0 is the protocol version (2), bytes 1-2 the device id, bytes 3-4 the
// sensor flags, all big endian. For each flag bit that is set, from bit 0 up, the payload carries that
// sensor's readings as big-endian unsigned 16-bit words; a clear bit means the sensor was not read in
// this uplink (battery-only uplinks, for example).
//
// Values (unit):
//   distance                 mm
//   number_of_valid_samples  -
//   battery_voltage          V

var DL_PARAMETERS = {};

var DL_SENSORS = [
  {
    length: 2,
    values: [
      ["distance", function (x) { return x[0]; }],
      ["number_of_valid_samples", function (x) { return x[1]; }]
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
