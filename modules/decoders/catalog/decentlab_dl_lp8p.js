// @key decentlab_dl_lp8p
// @name Decentlab DL-LP8P: CO2, temperature, humidity and barometric pressure sensor
// @devices DL-LP8P
// @source Decentlab DL-LP8P datasheet and uplink payload description (Decentlab protocol v2), https://www.decentlab.com/products/co2-temperature-humidity-and-barometric-pressure-sensor-for-lorawan; examples from Decentlab's codec in TheThingsNetwork/lorawan-devices vendor/decentlab
// @include decentlab
//
// Decentlab protocol v2: byte 0 is the protocol version (2), bytes 1-2 the device id, bytes 3-4 the
// sensor flags, all big endian. For each flag bit that is set, from bit 0 up, the payload carries that
// sensor's readings as big-endian unsigned 16-bit words; a clear bit means the sensor was not read in
// this uplink (battery-only uplinks, for example).
//
// Values (unit):
//   air_temperature         °C
//   air_humidity            %
//   barometer_temperature   °C
//   barometric_pressure     Pa
//   co2_concentration       ppm
//   co2_concentration_lpf   ppm
//   co2_sensor_temperature  °C
//   capacitor_voltage_1     V
//   capacitor_voltage_2     V
//   co2_sensor_status       -
//   raw_ir_reading          -
//   raw_ir_reading_lpf      -
//   battery_voltage         V

var DL_PARAMETERS = {};

var DL_SENSORS = [
  {
    length: 2,
    values: [
      ["air_temperature", function (x) { return 175.72 * x[0] / 65536 - 46.85; }],
      ["air_humidity", function (x) { return 125 * x[1] / 65536 - 6; }]
    ]
  },
  {
    length: 2,
    values: [
      ["barometer_temperature", function (x) { return (x[0] - 5000) / 100; }],
      ["barometric_pressure", function (x) { return x[1] * 2; }]
    ]
  },
  {
    length: 8,
    values: [
      ["co2_concentration", function (x) { return x[0] - 32768; }],
      ["co2_concentration_lpf", function (x) { return x[1] - 32768; }],
      ["co2_sensor_temperature", function (x) { return (x[2] - 32768) / 100; }],
      ["capacitor_voltage_1", function (x) { return x[3] / 1000; }],
      ["capacitor_voltage_2", function (x) { return x[4] / 1000; }],
      ["co2_sensor_status", function (x) { return x[5]; }],
      ["raw_ir_reading", function (x) { return x[6]; }],
      ["raw_ir_reading_lpf", function (x) { return x[7]; }]
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
