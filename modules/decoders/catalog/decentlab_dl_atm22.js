// @key decentlab_dl_atm22
// @name Decentlab DL-ATM22: wind speed, wind direction and temperature sensor (METER ATMOS 22)
// @devices DL-ATM22
// @source Decentlab DL-ATM22 datasheet and uplink payload description (Decentlab protocol v2), https://www.decentlab.com/products/wind-speed-wind-direction-and-temperature-sensor-for-lorawan; examples from Decentlab's codec in TheThingsNetwork/lorawan-devices vendor/decentlab
// @include decentlab
//
// Decentlab protocol v2: byte 0 is the protocol version (2), bytes 1-2 the device id, bytes 3-4 the
// sensor flags, all big endian. For each flag bit that is set, from bit 0 up, the payload carries that
// sensor's readings as big-endian unsigned 16-bit words; a clear bit means the sensor was not read in
// this uplink (battery-only uplinks, for example).
//
// Values (unit):
//   wind_speed           m/s
//   wind_direction       °
//   maximum_wind_speed   m/s
//   air_temperature      °C
//   x_orientation_angle  °
//   y_orientation_angle  °
//   north_wind_speed     m/s
//   east_wind_speed      m/s
//   battery_voltage      V

var DL_PARAMETERS = {};

var DL_SENSORS = [
  {
    length: 8,
    values: [
      ["wind_speed", function (x) { return (x[0] - 32768) / 100; }],
      ["wind_direction", function (x) { return (x[1] - 32768) / 10; }],
      ["maximum_wind_speed", function (x) { return (x[2] - 32768) / 100; }],
      ["air_temperature", function (x) { return (x[3] - 32768) / 10; }],
      ["x_orientation_angle", function (x) { return (x[4] - 32768) / 10; }],
      ["y_orientation_angle", function (x) { return (x[5] - 32768) / 10; }],
      ["north_wind_speed", function (x) { return (x[6] - 32768) / 100; }],
      ["east_wind_speed", function (x) { return (x[7] - 32768) / 100; }]
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
