// @key decentlab_dl_5tm
// @name Decentlab DL-5TM: legacy soil moisture and temperature sensor
// @devices DL-5TM
// @source Decentlab DL-5TM datasheet and uplink payload description (Decentlab protocol v2), https://www.decentlab.com/products/legacy-soil-moisture-and-temperature-sensor-for-lorawan; examples from Decentlab's codec in TheThingsNetwork/lorawan-devices vendor/decentlab
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
//   battery_voltage           V

var DL_PARAMETERS = {};

var DL_SENSORS = [
  {
    length: 2,
    values: [
      ["dielectric_permittivity", function (x) { return x[0] / 50; }],
      ["volumetric_water_content", function (x) { return 0.0000043 * Math.pow(x[0] / 50, 3) - 0.00055 * Math.pow(x[0] / 50, 2) + 0.0292 * (x[0] / 50) - 0.053; }],
      ["soil_temperature", function (x) { return (x[1] - 400) / 10; }]
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
