// @key decentlab_dl_iam
// @name Decentlab DL-IAM: indoor ambiance monitor (CO2, TVOC, motion, light, climate)
// @devices DL-IAM
// @source Decentlab DL-IAM datasheet and uplink payload description (Decentlab protocol v2), https://www.decentlab.com/products/indoor-ambiance-monitor-including-co2-tvoc-and-motion-sensor-for-lorawan; examples from Decentlab's codec in TheThingsNetwork/lorawan-devices vendor/decentlab
// @include decentlab
//
// Decentlab protocol v2: byte 0 is the protocol version (2), bytes 1-2 the device id, bytes 3-4 the
// sensor flags, all big endian. For each flag bit that is set, from bit 0 up, the payload carries that
// sensor's readings as big-endian unsigned 16-bit words; a clear bit means the sensor was not read in
// this uplink (battery-only uplinks, for example).
//
// Values (unit):
//   battery_voltage                 V
//   air_temperature                 °C
//   air_humidity                    %
//   barometric_pressure             Pa
//   ambient_light_visible_infrared  -
//   ambient_light_infrared          -
//   illuminance                     lx
//   co2_concentration               ppm
//   co2_sensor_status               -
//   raw_ir_reading                  -
//   activity_counter                -
//   total_voc                       ppb

var DL_PARAMETERS = {};

var DL_SENSORS = [
  {
    length: 1,
    values: [
      ["battery_voltage", function (x) { return x[0] / 1000; }]
    ]
  },
  {
    length: 2,
    values: [
      ["air_temperature", function (x) { return 175 * x[0] / 65535 - 45; }],
      ["air_humidity", function (x) { return 100 * x[1] / 65535; }]
    ]
  },
  {
    length: 1,
    values: [
      ["barometric_pressure", function (x) { return x[0] * 2; }]
    ]
  },
  {
    length: 2,
    values: [
      ["ambient_light_visible_infrared", function (x) { return x[0]; }],
      ["ambient_light_infrared", function (x) { return x[1]; }],
      ["illuminance", function (x) { return Math.max(Math.max(1.0 * x[0] - 1.64 * x[1], 0.59 * x[0] - 0.86 * x[1]), 0) * 1.5504; }]
    ]
  },
  {
    length: 3,
    values: [
      ["co2_concentration", function (x) { return x[0] - 32768; }],
      ["co2_sensor_status", function (x) { return x[1]; }],
      ["raw_ir_reading", function (x) { return x[2]; }]
    ]
  },
  {
    length: 1,
    values: [
      ["activity_counter", function (x) { return x[0]; }]
    ]
  },
  {
    length: 1,
    values: [
      ["total_voc", function (x) { return x[0]; }]
    ]
  }
];

var dlSensors = dlCompile(DL_PARAMETERS, DL_SENSORS);

function decodeUplink(input) {
  return dlDecode(input, dlSensors);
}
