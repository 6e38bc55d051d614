// @key decentlab_dl_wrm
// @name Decentlab DL-WRM: winter road maintenance sensor (air and road surface temperature)
// @devices DL-WRM
// @source Decentlab DL-WRM datasheet and uplink payload description (Decentlab protocol v2), https://www.decentlab.com/products/winter-road-maintenance-sensor-for-lorawan; examples from Decentlab's codec in TheThingsNetwork/lorawan-devices vendor/decentlab
// @include decentlab
//
// Decentlab protocol v2: byte 0 is the protocol version (2), bytes 1-2 the device id, bytes 3-4 the
// sensor flags, all big endian. For each flag bit that is set, from bit 0 up, the payload carries that
// sensor's readings as big-endian unsigned 16-bit words; a clear bit means the sensor was not read in
// this uplink (battery-only uplinks, for example).
//
// Values (unit):
//   air_temperature      °C
//   air_humidity         %
//   surface_temperature  °C
//   head_temperature     °C
//   battery_voltage      V

var DL_PARAMETERS = {};

var DL_SENSORS = [
  {
    length: 2,
    values: [
      ["air_temperature", function (x) { return 175 * x[0] / 65535 - 45; }],
      ["air_humidity", function (x) { return 100 * x[1] / 65535; }]
    ]
  },
  {
    length: 2,
    values: [
      ["surface_temperature", function (x) { return (x[0] - 1000) / 10; }],
      ["head_temperature", function (x) { return (x[1] - 1000) / 10; }]
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
