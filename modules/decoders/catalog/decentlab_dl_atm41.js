// @key decentlab_dl_atm41
// @name Decentlab DL-ATM41: eleven parameter weather station (METER ATMOS 41)
// @devices DL-ATM41
// @source Decentlab DL-ATM41 datasheet and uplink payload description (Decentlab protocol v2), https://www.decentlab.com/products/eleven-parameter-weather-station-for-lorawan; examples from Decentlab's codec in TheThingsNetwork/lorawan-devices vendor/decentlab
// @include decentlab
//
// Decentlab protocol v2: byte 0 is the protocol version (2), bytes 1-2 the device id, bytes 3-4 the
// sensor flags, all big endian. For each flag bit that is set, from bit 0 up, the payload carries that
// sensor's readings as big-endian unsigned 16-bit words; a clear bit means the sensor was not read in
// this uplink (battery-only uplinks, for example).
//
// Values (unit):
//   solar_radiation              W/m²
//   precipitation                mm
//   lightning_strike_count       -
//   lightning_average_distance   km
//   wind_speed                   m/s
//   wind_direction               °
//   maximum_wind_speed           m/s
//   air_temperature              °C
//   vapor_pressure               kPa
//   atmospheric_pressure         kPa
//   relative_humidity            %
//   sensor_temperature_internal  °C
//   x_orientation_angle          °
//   y_orientation_angle          °
//   compass_heading              °
//   north_wind_speed             m/s
//   east_wind_speed              m/s
//   battery_voltage              V

var DL_PARAMETERS = {};

var DL_SENSORS = [
  {
    length: 17,
    values: [
      ["solar_radiation", function (x) { return x[0] - 32768; }],
      ["precipitation", function (x) { return (x[1] - 32768) / 1000; }],
      ["lightning_strike_count", function (x) { return x[2] - 32768; }],
      ["lightning_average_distance", function (x) { return x[3] - 32768; }],
      ["wind_speed", function (x) { return (x[4] - 32768) / 100; }],
      ["wind_direction", function (x) { return (x[5] - 32768) / 10; }],
      ["maximum_wind_speed", function (x) { return (x[6] - 32768) / 100; }],
      ["air_temperature", function (x) { return (x[7] - 32768) / 10; }],
      ["vapor_pressure", function (x) { return (x[8] - 32768) / 100; }],
      ["atmospheric_pressure", function (x) { return (x[9] - 32768) / 100; }],
      ["relative_humidity", function (x) { return (x[10] - 32768) / 10; }],
      ["sensor_temperature_internal", function (x) { return (x[11] - 32768) / 10; }],
      ["x_orientation_angle", function (x) { return (x[12] - 32768) / 10; }],
      ["y_orientation_angle", function (x) { return (x[13] - 32768) / 10; }],
      ["compass_heading", function (x) { return x[14] - 32768; }],
      ["north_wind_speed", function (x) { return (x[15] - 32768) / 100; }],
      ["east_wind_speed", function (x) { return (x[16] - 32768) / 100; }]
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
