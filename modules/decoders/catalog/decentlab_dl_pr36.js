// @key decentlab_dl_pr36
// @name Decentlab DL-PR36: high-precision pressure / liquid level and temperature sensor
// @devices DL-PR36
// @source Decentlab DL-PR36 datasheet and uplink payload description (Decentlab protocol v2), https://www.decentlab.com/products/high-precision-pressure-/-liquid-level-and-temperature-sensor-for-lorawan; examples from Decentlab's codec in TheThingsNetwork/lorawan-devices vendor/decentlab
// @include decentlab
//
// Decentlab protocol v2: byte 0 is the protocol version (2), bytes 1-2 the device id, bytes 3-4 the
// sensor flags, all big endian. For each flag bit that is set, from bit 0 up, the payload carries that
// sensor's readings as big-endian unsigned 16-bit words; a clear bit means the sensor was not read in
// this uplink (battery-only uplinks, for example).
//
// Values (unit):
//   pressure         bar
//   temperature      °C
//   battery_voltage  V
//
// Variables (optional, per node; strings or numbers), defaults as in the vendor's decoder:
//   kp          pressure scale, counts per bar (from the device's calibration sheet) (default 8192)

var DL_PARAMETERS = { kp: 8192 };

var DL_SENSORS = [
  {
    length: 2,
    values: [
      ["pressure", function (x, p) { return (x[0] - 32768) / p.kp; }],
      ["temperature", function (x) { return (x[1] - 32768) / 256; }]
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
