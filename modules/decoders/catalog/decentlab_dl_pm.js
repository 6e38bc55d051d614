// @key decentlab_dl_pm
// @name Decentlab DL-PM: particulate matter, temperature, humidity and barometric pressure sensor
// @devices DL-PM
// @source Decentlab DL-PM datasheet and uplink payload description (Decentlab protocol v2), https://www.decentlab.com/products/particulate-matter-temperature-humidity-and-barometric-pressure-sensor-for-lorawan; examples from Decentlab's codec in TheThingsNetwork/lorawan-devices vendor/decentlab
// @include decentlab
//
// Decentlab protocol v2: byte 0 is the protocol version (2), bytes 1-2 the device id, bytes 3-4 the
// sensor flags, all big endian. For each flag bit that is set, from bit 0 up, the payload carries that
// sensor's readings as big-endian unsigned 16-bit words; a clear bit means the sensor was not read in
// this uplink (battery-only uplinks, for example).
//
// Values (unit):
//   battery_voltage             V
//   pm1_0_mass_concentration    µg/m³
//   pm2_5_mass_concentration    µg/m³
//   pm4_mass_concentration      µg/m³
//   pm10_mass_concentration     µg/m³
//   typical_particle_size       nm
//   pm0_5_number_concentration  1/cm³
//   pm1_0_number_concentration  1/cm³
//   pm2_5_number_concentration  1/cm³
//   pm4_number_concentration    1/cm³
//   pm10_number_concentration   1/cm³
//   air_temperature             °C
//   air_humidity                %
//   barometric_pressure         Pa

var DL_PARAMETERS = {};

var DL_SENSORS = [
  {
    length: 1,
    values: [
      ["battery_voltage", function (x) { return x[0] / 1000; }]
    ]
  },
  {
    length: 10,
    values: [
      ["pm1_0_mass_concentration", function (x) { return x[0] / 10; }],
      ["pm2_5_mass_concentration", function (x) { return x[1] / 10; }],
      ["pm4_mass_concentration", function (x) { return x[2] / 10; }],
      ["pm10_mass_concentration", function (x) { return x[3] / 10; }],
      ["typical_particle_size", function (x) { return x[4]; }],
      ["pm0_5_number_concentration", function (x) { return x[5] / 10; }],
      ["pm1_0_number_concentration", function (x) { return x[6] / 10; }],
      ["pm2_5_number_concentration", function (x) { return x[7] / 10; }],
      ["pm4_number_concentration", function (x) { return x[8] / 10; }],
      ["pm10_number_concentration", function (x) { return x[9] / 10; }]
    ]
  },
  {
    length: 2,
    values: [
      ["air_temperature", function (x) { return 175.72 * x[0] / 65536 - 46.85; }],
      ["air_humidity", function (x) { return 125 * x[1] / 65536 - 6; }]
    ]
  },
  {
    length: 1,
    values: [
      ["barometric_pressure", function (x) { return x[0] * 2; }]
    ]
  }
];

var dlSensors = dlCompile(DL_PARAMETERS, DL_SENSORS);

function decodeUplink(input) {
  return dlDecode(input, dlSensors);
}
