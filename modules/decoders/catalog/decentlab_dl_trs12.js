// @key decentlab_dl_trs12
// @name Decentlab DL-TRS12: soil moisture, temperature and electrical conductivity sensor (METER TEROS 12)
// @devices DL-TRS12
// @source Decentlab DL-TRS12 datasheet and uplink payload description (Decentlab protocol v2), https://www.decentlab.com/products/soil-moisture-temperature-and-electrical-conductivity-sensor-for-lorawan; examples from Decentlab's codec in TheThingsNetwork/lorawan-devices vendor/decentlab
// @include decentlab
//
// Decentlab protocol v2: byte 0 is the protocol version (2), bytes 1-2 the device id, bytes 3-4 the
// sensor flags, all big endian. For each flag bit that is set, from bit 0 up, the payload carries that
// sensor's readings as big-endian unsigned 16-bit words; a clear bit means the sensor was not read in
// this uplink (battery-only uplinks, for example).
//
// Values (unit):
//   dielectric_permittivity   -
//   volumetric_water_content  m³/m³
//   soil_temperature          °C
//   electrical_conductivity   µS/cm
//   battery_voltage           V

var DL_PARAMETERS = {};

var DL_SENSORS = [
  {
    length: 3,
    values: [
      ["dielectric_permittivity", function (x) { return Math.pow(0.000000002887 * Math.pow(x[0] / 10, 3) - 0.0000208 * Math.pow(x[0] / 10, 2) + 0.05276 * (x[0] / 10) - 43.39, 2); }],
      ["volumetric_water_content", function (x) { return x[0] / 10 * 0.0003879 - 0.6956; }],
      ["soil_temperature", function (x) { return (x[1] - 32768) / 10; }],
      ["electrical_conductivity", function (x) { return x[2]; }]
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
