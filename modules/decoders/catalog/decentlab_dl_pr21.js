// @key decentlab_dl_pr21
// @name Decentlab DL-PR21: pressure / liquid level and temperature sensor with G1/4 pipe thread
// @devices DL-PR21
// @source Decentlab DL-PR21 datasheet and uplink payload description (Decentlab protocol v2), https://www.decentlab.com/products/pressure-/-liquid-level-and-temperature-sensor-with-g1/4-pipe-thread-for-lorawan; examples from Decentlab's codec in TheThingsNetwork/lorawan-devices vendor/decentlab
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
//   Pmin        bar, lower end of the sensor's pressure range (default -1)
//   Pmax        bar, upper end of the sensor's pressure range (default 10)

var DL_PARAMETERS = { Pmin: -1, Pmax: 10 };

var DL_SENSORS = [
  {
    length: 2,
    values: [
      ["pressure", function (x, p) { return (x[0] - 16384) / 32768 * (p.Pmax - p.Pmin) + p.Pmin; }],
      ["temperature", function (x) { return (x[1] - 384) * 0.003125 - 50; }]
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
