// @key decentlab_dl_ntu
// @name Decentlab DL-NTU: optical turbidity and temperature sensor
// @devices DL-NTU
// @source Decentlab DL-NTU datasheet and uplink payload description (Decentlab protocol v2), https://www.decentlab.com/products/optical-turbidity-and-temperature-sensor-for-lorawan; examples from Decentlab's codec in TheThingsNetwork/lorawan-devices vendor/decentlab
// @include decentlab
//
// Decentlab protocol v2: byte 0 is the protocol version (2), bytes 1-2 the device id, bytes 3-4 the
// sensor flags, all big endian. For each flag bit that is set, from bit 0 up, the payload carries that
// sensor's readings as big-endian unsigned 16-bit words; a clear bit means the sensor was not read in
// this uplink (battery-only uplinks, for example).
//
// Values (unit):
//   status             -
//   temperature        °C
//   turbidity_in_ntu   NTU
//   turbidity_in_fnu   FNU
//   turbidity_in_mg_l  mg/L
//   battery_voltage    V

var DL_PARAMETERS = {};

var DL_SENSORS = [
  {
    length: 5,
    values: [
      ["status", function (x) { return x[0]; }],
      ["temperature", function (x) { return (x[1] - 32768) / 100; }],
      ["turbidity_in_ntu", function (x) { return x[2] / 10; }],
      ["turbidity_in_fnu", function (x) { return x[3] / 10; }],
      ["turbidity_in_mg_l", function (x) { return x[4] / 10; }]
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
