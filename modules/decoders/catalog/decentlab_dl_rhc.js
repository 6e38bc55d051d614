// @key decentlab_dl_rhc
// @name Decentlab DL-RHC: high-precision air temperature and humidity sensor with radiation shield
// @devices DL-RHC
// @source Decentlab DL-RHC datasheet and uplink payload description (Decentlab protocol v2), https://www.decentlab.com/products/high-precision-air-temperature-and-humidity-sensor-with-radiation-shield-for-lorawan; examples from Decentlab's codec in TheThingsNetwork/lorawan-devices vendor/decentlab
// @include decentlab
//
// Decentlab protocol v2: byte 0 is the protocol version (2), bytes 1-2 the device id, bytes 3-4 the
// sensor flags, all big endian. For each flag bit that is set, from bit 0 up, the payload carries that
// sensor's readings as big-endian unsigned 16-bit words; a clear bit means the sensor was not read in
// this uplink (battery-only uplinks, for example).
//
// Values (unit):
//   sensor_id        -
//   air_humidity     %
//   air_temperature  °C
//   battery_voltage  V

var DL_PARAMETERS = {};

var DL_SENSORS = [
  {
    length: 4,
    values: [
      ["sensor_id", function (x) { return x[0] + x[1] * 65536; }],
      ["air_humidity", function (x) { return x[2] / 100; }],
      ["air_temperature", function (x) { return (x[3] - 32768) / 100; }]
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
