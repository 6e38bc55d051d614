// @key decentlab_dl_pr36ctd
// @name Decentlab DL-PR36CTD: high-precision pressure / liquid level, temperature and electrical conductivity sensor
// @devices DL-PR36CTD
// @source Decentlab DL-PR36CTD datasheet and uplink payload description (Decentlab protocol v2), https://www.decentlab.com/products/high-precision-pressure-/-liquid-level-temperature-and-electrical-conductivity-sensor-for-lorawan; examples from Decentlab's codec in TheThingsNetwork/lorawan-devices vendor/decentlab
// @include decentlab
//
// Decentlab protocol v2: byte 0 is the protocol version (2), bytes 1-2 the device id, bytes 3-4 the
// sensor flags, all big endian. For each flag bit that is set, from bit 0 up, the payload carries that
// sensor's readings as big-endian unsigned 16-bit words; a clear bit means the sensor was not read in
// this uplink (battery-only uplinks, for example).
//
// Values (unit):
//   pressure                 bar
//   temperature_electronics  °C
//   temperature_pt1000       °C
//   electrical_conductivity  mS/cm
//   battery_voltage          V
//
// Variables (optional, per node; strings or numbers), defaults as in the vendor's decoder:
//   kp          pressure scale, counts per bar (from the device's calibration sheet) (default 8192)
//   kec         conductivity scale, counts per mS/cm (default 1024)

var DL_PARAMETERS = { kp: 8192, kec: 1024 };

var DL_SENSORS = [
  {
    length: 4,
    values: [
      ["pressure", function (x, p) { return (x[0] - 32768) / p.kp; }],
      ["temperature_electronics", function (x) { return (x[1] - 32768) / 256; }],
      ["temperature_pt1000", function (x) { return (x[2] - 32768) / 256; }],
      ["electrical_conductivity", function (x, p) { return (x[3] - 32768) / p.kec; }]
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
