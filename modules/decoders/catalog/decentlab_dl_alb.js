// @key decentlab_dl_alb
// @name Decentlab DL-ALB: albedometer (incoming and reflected solar radiation)
// @devices DL-ALB
// @source Decentlab DL-ALB datasheet and uplink payload description (Decentlab protocol v2), https://www.decentlab.com/albedometer-sensor-for-lorawan; examples from Decentlab's codec in TheThingsNetwork/lorawan-devices vendor/decentlab
// @include decentlab
//
// Decentlab protocol v2: byte 0 is the protocol version (2), bytes 1-2 the device id, bytes 3-4 the
// sensor flags, all big endian. For each flag bit that is set, from bit 0 up, the payload carries that
// sensor's readings as big-endian unsigned 16-bit words; a clear bit means the sensor was not read in
// this uplink (battery-only uplinks, for example).
//
// Values (unit):
//   incoming_radiation   W/m²
//   reflected_radiation  W/m²
//   albedo               -
//   battery_voltage      V

var DL_PARAMETERS = {};

var DL_SENSORS = [
  {
    length: 2,
    values: [
      ["incoming_radiation", function (x) { return (x[0] - 32768) / 10; }],
      ["reflected_radiation", function (x) { return (x[1] - 32768) / 10; }],
      ["albedo", function (x) { return ((x[0] - 32768) > 0 && (x[1] - 32768) > 0) ? (x[1] - 32768) / (x[0] - 32768) : 0; }]
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
