// @key decentlab_dl_ctd10
// @name Decentlab DL-CTD10: pressure / liquid level, temperature and electrical conductivity sensor
// @devices DL-CTD10
// @source Decentlab DL-CTD10 datasheet and uplink payload description (Decentlab protocol v2), https://www.decentlab.com/products/pressure-/-liquid-level-temperature-and-electrical-conductivity-sensor-for-lorawan; examples from Decentlab's codec in TheThingsNetwork/lorawan-devices vendor/decentlab
// @include decentlab
//
// Decentlab protocol v2: byte 0 is the protocol version (2), bytes 1-2 the device id, bytes 3-4 the
// sensor flags, all big endian. For each flag bit that is set, from bit 0 up, the payload carries that
// sensor's readings as big-endian unsigned 16-bit words; a clear bit means the sensor was not read in
// this uplink (battery-only uplinks, for example).
//
// Values (unit):
//   water_depth              mm
//   temperature              °C
//   electrical_conductivity  µS/cm
//   freezing_flag            -
//   battery_voltage          V

var DL_PARAMETERS = {};

var DL_SENSORS = [
  {
    length: 4,
    values: [
      ["water_depth", function (x) { return x[0] - 32768; }],
      ["temperature", function (x) { return (x[1] - 32768) / 10; }],
      ["electrical_conductivity", function (x) { return x[2]; }],
      ["freezing_flag", function (x) { return x[3]; }]
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
