// @key decentlab_dl_smtp
// @name Decentlab DL-SMTP: soil moisture and temperature profile (8 depths)
// @devices DL-SMTP
// @source Decentlab DL-SMTP datasheet and uplink payload description (Decentlab protocol v2), https://www.decentlab.com/products/soil-moisture-and-temperature-profile-for-lorawan; examples from Decentlab's codec in TheThingsNetwork/lorawan-devices vendor/decentlab
// @include decentlab
//
// Decentlab protocol v2: byte 0 is the protocol version (2), bytes 1-2 the device id, bytes 3-4 the
// sensor flags, all big endian. For each flag bit that is set, from bit 0 up, the payload carries that
// sensor's readings as big-endian unsigned 16-bit words; a clear bit means the sensor was not read in
// this uplink (battery-only uplinks, for example).
//
// Values (unit):
//   soil_moisture_at_depth_0     -
//   soil_temperature_at_depth_0  °C
//   soil_moisture_at_depth_1     -
//   soil_temperature_at_depth_1  °C
//   soil_moisture_at_depth_2     -
//   soil_temperature_at_depth_2  °C
//   soil_moisture_at_depth_3     -
//   soil_temperature_at_depth_3  °C
//   soil_moisture_at_depth_4     -
//   soil_temperature_at_depth_4  °C
//   soil_moisture_at_depth_5     -
//   soil_temperature_at_depth_5  °C
//   soil_moisture_at_depth_6     -
//   soil_temperature_at_depth_6  °C
//   soil_moisture_at_depth_7     -
//   soil_temperature_at_depth_7  °C
//   battery_voltage              V

var DL_PARAMETERS = {};

var DL_SENSORS = [
  {
    length: 16,
    values: [
      ["soil_moisture_at_depth_0", function (x) { return (x[0] - 2500) / 500; }],
      ["soil_temperature_at_depth_0", function (x) { return (x[1] - 32768) / 100; }],
      ["soil_moisture_at_depth_1", function (x) { return (x[2] - 2500) / 500; }],
      ["soil_temperature_at_depth_1", function (x) { return (x[3] - 32768) / 100; }],
      ["soil_moisture_at_depth_2", function (x) { return (x[4] - 2500) / 500; }],
      ["soil_temperature_at_depth_2", function (x) { return (x[5] - 32768) / 100; }],
      ["soil_moisture_at_depth_3", function (x) { return (x[6] - 2500) / 500; }],
      ["soil_temperature_at_depth_3", function (x) { return (x[7] - 32768) / 100; }],
      ["soil_moisture_at_depth_4", function (x) { return (x[8] - 2500) / 500; }],
      ["soil_temperature_at_depth_4", function (x) { return (x[9] - 32768) / 100; }],
      ["soil_moisture_at_depth_5", function (x) { return (x[10] - 2500) / 500; }],
      ["soil_temperature_at_depth_5", function (x) { return (x[11] - 32768) / 100; }],
      ["soil_moisture_at_depth_6", function (x) { return (x[12] - 2500) / 500; }],
      ["soil_temperature_at_depth_6", function (x) { return (x[13] - 32768) / 100; }],
      ["soil_moisture_at_depth_7", function (x) { return (x[14] - 2500) / 500; }],
      ["soil_temperature_at_depth_7", function (x) { return (x[15] - 32768) / 100; }]
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
