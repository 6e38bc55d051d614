// @key decentlab_dl_kl66
// @name Decentlab DL-KL66: strain / weight sensor (vibrating wire)
// @devices DL-KL66
// @source Decentlab DL-KL66 datasheet and uplink payload description (Decentlab protocol v2), https://www.decentlab.com/products/strain-/-weight-sensor-for-lorawan; examples from Decentlab's codec in TheThingsNetwork/lorawan-devices vendor/decentlab
// @include decentlab
//
// Decentlab protocol v2: byte 0 is the protocol version (2), bytes 1-2 the device id, bytes 3-4 the
// sensor flags, all big endian. For each flag bit that is set, from bit 0 up, the payload carries that
// sensor's readings as big-endian unsigned 16-bit words; a clear bit means the sensor was not read in
// this uplink (battery-only uplinks, for example).
//
// Values (unit):
//   counter_reading       -
//   measurement_interval  -
//   frequency             Hz
//   weight                g
//   elongation            µm
//   strain                µm/m
//   battery_voltage       V
//
// Variables (optional, per node; strings or numbers), defaults as in the vendor's decoder:
//   f0          Hz, the sensor's frequency at no load (calibration sheet) (default 15383.72)
//   k           the sensor's gauge factor (calibration sheet) (default 46.4859)

var DL_PARAMETERS = { f0: 15383.72, k: 46.4859 };

var DL_SENSORS = [
  {
    length: 3,
    values: [
      ["counter_reading", function (x) { return x[0]; }],
      ["measurement_interval", function (x) { return x[1] / 32768; }],
      ["frequency", function (x) { return x[0] / x[1] * 32768; }],
      ["weight", function (x, p) { return (Math.pow(x[0] / x[1] * 32768, 2) - Math.pow(p.f0, 2)) * p.k / 1000000; }],
      ["elongation", function (x, p) { return (Math.pow(x[0] / x[1] * 32768, 2) - Math.pow(p.f0, 2)) * p.k / 1000000 * (-1.5) / 1000 * 9.8067; }],
      ["strain", function (x, p) { return (Math.pow(x[0] / x[1] * 32768, 2) - Math.pow(p.f0, 2)) * p.k / 1000000 * (-1.5) / 1000 * 9.8067 / 0.066; }]
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
